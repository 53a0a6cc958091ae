import RedlineCore

/// A run with every tracked change around it, outermost first: changes nest when one author deletes
/// what another inserted (`w:ins` around `w:del`, as Word writes it). `run.change` is the innermost.
struct NestedRun {
    var run: Run
    var changes: [RunChange] = []
}

extension Array where Element == Inline {
    /// These inlines as runs, like `[Inline].runs`, keeping every enclosing change where changes nest.
    /// A soft break is a space, and adjacent text of the same formatting and changes is one run.
    var nestedRuns: [NestedRun] {
        var runs: [NestedRun] = []
        var ctx = NestedRun(run: Run(.text("")))
        appendNestedRuns(to: &runs, context: &ctx)
        var out: [NestedRun] = []
        out.reserveCapacity(runs.count)
        for r in runs {
            if case .text(let b) = r.run.content, let last = out.last, case .text(let a) = last.run.content,
               last.changes == r.changes, last.run.format == r.run.format, last.run.link == r.run.link,
               last.run.formatChange == r.run.formatChange {
                out[out.count - 1].run.content = .text(a + b)
            } else {
                out.append(r)
            }
        }
        return out
    }

    private func appendNestedRuns(to out: inout [NestedRun], context ctx: inout NestedRun) {
        func changed(_ c: RunChange, _ ctx: inout NestedRun) {
            ctx.changes.append(c)
            ctx.run.change = c
        }
        for inline in self {
            let saved = ctx
            defer { ctx = saved }
            switch inline {
            case .text(let s):
                var r = ctx; r.run.content = .text(s); out.append(r)
            case .code(let s):
                var r = ctx; r.run.content = .text(s); r.run.format.code = true; out.append(r)
            case .lineBreak:
                var r = ctx; r.run.content = .lineBreak; out.append(r)
            case .softBreak:
                var r = ctx; r.run.content = .text(" "); out.append(r)
            case .image, .raw, .noteReference, .commentStart, .commentEnd, .commentPoint:
                var r = ctx; r.run.content = .atom(inline); out.append(r)
            case .emphasis(let c): ctx.run.format.italic = true; c.appendNestedRuns(to: &out, context: &ctx)
            case .strong(let c): ctx.run.format.bold = true; c.appendNestedRuns(to: &out, context: &ctx)
            case .strikethrough(let c): ctx.run.format.strikethrough = true; c.appendNestedRuns(to: &out, context: &ctx)
            case .underline(let c): ctx.run.format.underline = true; c.appendNestedRuns(to: &out, context: &ctx)
            case .superscript(let c): ctx.run.format.superscript = true; c.appendNestedRuns(to: &out, context: &ctx)
            case .subscript(let c): ctx.run.format.subscript = true; c.appendNestedRuns(to: &out, context: &ctx)
            case .smallCaps(let c): ctx.run.format.smallCaps = true; c.appendNestedRuns(to: &out, context: &ctx)
            case .highlight(let c): ctx.run.format.highlight = true; c.appendNestedRuns(to: &out, context: &ctx)
            case .styled(let s, let c):
                ctx.run.format.style = ctx.run.format.style.merged(with: s); c.appendNestedRuns(to: &out, context: &ctx)
            case .link(let l, let c): ctx.run.link = l; c.appendNestedRuns(to: &out, context: &ctx)
            case .insertion(let ch, let c): changed(.insertion(ch), &ctx); c.appendNestedRuns(to: &out, context: &ctx)
            case .deletion(let ch, let c): changed(.deletion(ch), &ctx); c.appendNestedRuns(to: &out, context: &ctx)
            case .move(let m, let c): changed(.move(m), &ctx); c.appendNestedRuns(to: &out, context: &ctx)
            case .formatChange(let f, let c): ctx.run.formatChange = f; c.appendNestedRuns(to: &out, context: &ctx)
            case .substitution(let ch, let d, let i):
                let base = ctx
                changed(.deletion(ch), &ctx); d.appendNestedRuns(to: &out, context: &ctx)
                ctx = base
                changed(.insertion(ch), &ctx); i.appendNestedRuns(to: &out, context: &ctx)
            }
        }
    }
}

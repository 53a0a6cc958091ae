import RedlineCore

/// A run with the tracked changes around it, outermost first: changes nest when one author deletes what
/// another inserted (`w:ins` around `w:del`, as Word writes it). `run.change` is the innermost.
struct NestedRun {
    var run: Run
    var changes: [RunChange] = []
}

/// One level of `appendNestedRuns`' walk: the inlines, the next one's index, and what encloses them.
private struct NestedRunFrame {
    var items: [Inline]
    var index = 0
    var ctx: NestedRun
}

extension Array where Element == Inline {
    /// These inlines as runs, like `[Inline].runs`, keeping an insertion around a deletion where they nest.
    /// A soft break is a space, and adjacent text of the same formatting and changes is one run.
    var nestedRuns: [NestedRun] {
        var runs: [NestedRun] = []
        appendNestedRuns(to: &runs, context: NestedRun(run: Run(.text(""))))
        return runs
    }

    /// Appends `r` to `out`, or its text to the last run when `r` continues it: merged as the runs are
    /// made, in one array (a second pass over a copy cost a paragraph of a million runs ~0.3 s; PERFORMANCE.md,
    /// "Small runs"). The last run is extended in place (`a + b` made 200,000 soft-broken lines take 4.9 s).
    private static func appendMerging(_ r: NestedRun, to out: inout [NestedRun]) {
        if case .text(let b) = r.run.content, continues(out, with: r) {
            out[out.count - 1].run.content.appendText(b)
        } else {
            out.append(r)
        }
    }

    /// Whether `r` is text that extends the last of `out` (text of the same formatting, changes and link),
    /// read in place so that no copy of the last run's text stays alive.
    private static func continues(_ out: [NestedRun], with r: NestedRun) -> Bool {
        guard let k = out.indices.last, case .text = out[k].run.content else { return false }
        return out[k].changes == r.changes && out[k].run.format == r.run.format && out[k].run.link == r.run.link
            && out[k].run.formatChange == r.run.formatChange
    }

    /// Flattens with an explicit stack rather than recursion, so deeply nested inlines from hostile
    /// input cannot overflow the call stack.
    private func appendNestedRuns(to out: inout [NestedRun], context base: NestedRun) {
        var stack: [NestedRunFrame] = [NestedRunFrame(items: self, ctx: base)]
        /// At most an insertion (or a move) and, inside it, a deletion: Word nests nothing else, and a change
        /// inside one of its own kind takes its place.
        func changed(_ c: RunChange, _ ctx: NestedRun) -> NestedRun {
            var ctx = ctx
            if case .deletion = c {
                ctx.changes.removeAll { if case .deletion = $0 { return true } else { return false } }
                ctx.changes.append(c)
            } else {
                ctx.changes.removeAll { if case .deletion = $0 { return false } else { return true } }
                ctx.changes.insert(c, at: 0)
            }
            ctx.run.change = ctx.changes.last
            return ctx
        }
        // The top frame is advanced in place (popping and pushing it back for every inline cost a copy of
        // its context and a retain of its array each time), and a frame is a struct: as a tuple it was
        // copied through the runtime's generic tuple witnesses.
        while let top = stack.indices.last {
            guard stack[top].index < stack[top].items.count else { stack.removeLast(); continue }
            let inline = stack[top].items[stack[top].index]
            stack[top].index += 1
            var ctx = stack[top].ctx
            func push(_ children: [Inline]) { stack.append(NestedRunFrame(items: children, ctx: ctx)) }
            switch inline {
            case .text(let s):
                ctx.run.content = .text(s); Self.appendMerging(ctx, to: &out)
            case .code(let s):
                ctx.run.content = .text(s); ctx.run.format.code = true; Self.appendMerging(ctx, to: &out)
            case .lineBreak:
                ctx.run.content = .lineBreak; out.append(ctx)
            case .softBreak:
                ctx.run.content = .text(" "); Self.appendMerging(ctx, to: &out)
            case .raw(let format, let text):
                // Shown as its text in a style naming its format, read back as the raw inline (`RawStyles`).
                push([RawStyles.inline(format: format, text: text)])
            case .image, .noteReference, .math, .field, .commentStart, .commentEnd, .commentPoint:
                ctx.run.content = .atom(inline); out.append(ctx)
            case .emphasis(let c): ctx.run.format.italic = true; push(c)
            case .strong(let c): ctx.run.format.bold = true; push(c)
            case .strikethrough(let c): ctx.run.format.strikethrough = true; push(c)
            case .underline(let c): ctx.run.format.underline = true; push(c)
            case .superscript(let c): ctx.run.format.superscript = true; push(c)
            case .subscript(let c): ctx.run.format.subscript = true; push(c)
            case .smallCaps(let c): ctx.run.format.smallCaps = true; push(c)
            case .highlight(let c): ctx.run.format.highlight = true; push(c)
            case .styled(let s, let c): ctx.run.format.style = ctx.run.format.style.merged(with: s); push(c)
            case .link(let l, let c): ctx.run.link = l; push(c)
            case .insertion(let ch, let c): ctx = changed(.insertion(ch), ctx); push(c)
            case .deletion(let ch, let c): ctx = changed(.deletion(ch), ctx); push(c)
            case .move(let m, let c): ctx = changed(.move(m), ctx); push(c)
            case .formatChange(let f, let c): ctx.run.formatChange = f; push(c)
            case .substitution(let ch, let d, let i):
                // The deleted part first: pushed last.
                stack.append(NestedRunFrame(items: i, ctx: changed(.insertion(ch), ctx)))
                stack.append(NestedRunFrame(items: d, ctx: changed(.deletion(ch), ctx)))
            }
        }
    }
}

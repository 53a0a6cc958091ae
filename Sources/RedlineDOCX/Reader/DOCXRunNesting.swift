import RedlineCore

/// Nests a paragraph's runs into inlines exactly as `InlineBuilder.inlines(from:)` does, with a fast
/// path for what most paragraphs hold: runs with at most one toggle (bold, italic...), no character
/// style, no link and no formatting change. Anything else goes to `InlineBuilder`.
enum RunNesting {
    static func inlines(from runs: [Run]) -> [Inline] {
        var toggles: [Int8] = []
        toggles.reserveCapacity(runs.count)
        for r in runs {
            guard r.link == nil, r.formatChange == nil, !r.format.code, r.format.style.isEmpty,
                  let t = toggle(r.format) else { return InlineBuilder.inlines(from: runs) }
            toggles.append(t)
        }
        var out: [Inline] = []
        var i = 0
        while i < runs.count {
            let change = runs[i].change
            var j = i + 1
            while j < runs.count && runs[j].change == change { j += 1 }
            let inner = toggled(runs, toggles, i..<j)
            switch change {
            case nil: out += inner
            case .insertion(let c)?: out.append(.insertion(c, inner))
            case .deletion(let c)?: out.append(.deletion(c, inner))
            case .move(let m)?: out.append(.move(m, inner))
            }
            i = j
        }
        return out
    }

    /// The one toggle that is on (1...8 in `InlineBuilder`'s nesting order), 0 for none, nil for several.
    private static func toggle(_ f: TextFormat) -> Int8? {
        var found: Int8 = 0
        for (n, on) in [f.bold, f.italic, f.underline, f.strikethrough, f.smallCaps, f.superscript, f.subscript, f.highlight].enumerated() where on {
            if found != 0 { return nil }
            found = Int8(n + 1)
        }
        return found
    }

    private static func wrap(_ toggle: Int8, _ c: [Inline]) -> Inline {
        switch toggle {
        case 1: return .strong(c)
        case 2: return .emphasis(c)
        case 3: return .underline(c)
        case 4: return .strikethrough(c)
        case 5: return .smallCaps(c)
        case 6: return .superscript(c)
        case 7: return .subscript(c)
        default: return .highlight(c)
        }
    }

    /// Runs `range` grouped by their toggle, adjacent text joined.
    private static func toggled(_ runs: [Run], _ toggles: [Int8], _ range: Range<Int>) -> [Inline] {
        var out: [Inline] = []
        var i = range.lowerBound
        while i < range.upperBound {
            let t = toggles[i]
            var j = i + 1
            while j < range.upperBound && toggles[j] == t { j += 1 }
            if t == 0 {
                appendLeaves(runs, i..<j, to: &out)
            } else {
                var inner: [Inline] = []
                appendLeaves(runs, i..<j, to: &inner)
                out.append(wrap(t, inner))
            }
            i = j
        }
        return out
    }

    private static func appendLeaves(_ runs: [Run], _ range: Range<Int>, to out: inout [Inline]) {
        for k in range {
            switch runs[k].content {
            case .text(let s):
                if s.isEmpty { continue }
                if case .text(var before)? = out.last {
                    out[out.count - 1] = .lineBreak
                    before += s
                    out[out.count - 1] = .text(before)
                } else {
                    out.append(.text(s))
                }
            case .lineBreak: out.append(.lineBreak)
            case .atom(let a): out += InlineBuilder.normalized([a])
            }
        }
    }
}

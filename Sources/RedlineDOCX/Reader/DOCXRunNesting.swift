import RedlineCore

/// Nests a paragraph's runs into inlines exactly as `InlineBuilder.inlines(from:)` does, with a fast
/// path for what most paragraphs hold: runs with at most one toggle (bold, italic...), no character
/// style, no link and no formatting change. Anything else goes to `InlineBuilder`.
enum RunNesting {
    /// A paragraph's inlines: its runs nested, then adjacent deletions and insertions paired into
    /// substitutions (`InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs))`).
    static func paragraphInlines(from runs: [Run]) -> [Inline] {
        // Runs are read through a buffer pointer: fields in place, never whole runs copied.
        let nested = runs.withUnsafeBufferPointer { runs -> [Inline]? in
            // Changes are outermost here (toggles nest inside them), so pairing looks at this level only,
            // unless an atom holds inlines (a revision inside another): those are paired inside too.
            guard let toggles = toggles(runs), !runs.contains(where: \.holdsInlines) else { return nil }
            var out: [Inline] = []
            forEachChangeGroup(runs, toggles) { inline in
                if let last = out.last, let paired = Self.paired(last, inline) {
                    out[out.count - 1] = paired
                } else {
                    out.append(inline)
                }
            }
            return out
        }
        return nested ?? InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs))
    }

    static func inlines(from runs: [Run]) -> [Inline] {
        let nested = runs.withUnsafeBufferPointer { runs -> [Inline]? in
            guard let toggles = toggles(runs) else { return nil }
            var out: [Inline] = []
            forEachChangeGroup(runs, toggles) { out.append($0) }
            return out
        }
        return nested ?? InlineBuilder.inlines(from: runs)
    }

    /// Each run's one toggle (see `toggle`); nil when a run needs `InlineBuilder`.
    private static func toggles(_ runs: UnsafeBufferPointer<Run>) -> [Int8]? {
        var toggles: [Int8] = []
        toggles.reserveCapacity(runs.count)
        for i in runs.indices {
            guard runs[i].link == nil, runs[i].formatChange == nil, !runs[i].format.code,
                  !runs[i].format.hasStyle, let t = toggle(runs[i].format) else { return nil }
            toggles.append(t)
        }
        return toggles
    }

    /// Calls `body` with the inlines of each stretch of runs under one change (or none), in order:
    /// unchanged runs one by one, changed stretches as one insertion, deletion or move.
    private static func forEachChangeGroup(_ runs: UnsafeBufferPointer<Run>, _ toggles: [Int8], _ body: (Inline) -> Void) {
        var i = 0
        while i < runs.count {
            var j = i + 1
            while j < runs.count && runs[j].change.isSame(as: runs[i].change) { j += 1 }
            let inner = toggled(runs, toggles, i..<j)
            switch runs[i].change {
            case nil: inner.forEach(body)
            case .insertion(let c)?: body(.insertion(c, inner))
            case .deletion(let c)?: body(.deletion(c, inner))
            case .move(let m)?: body(.move(m, inner))
            }
            i = j
        }
    }

    /// `InlineBuilder.pairingSubstitutions`'s pairing of two adjacent inlines: a deletion followed by an
    /// insertion with the same author and date make a substitution (never the other order: see there).
    private static func paired(_ a: Inline, _ b: Inline) -> Inline? {
        switch (a, b) {
        case (.deletion(let a, let d), .insertion(let b, let i)) where a.author == b.author && a.date == b.date:
            return .substitution(a, deleted: d, inserted: i)
        default:
            return nil
        }
    }

    /// The one toggle that is on (1...8 in `InlineBuilder`'s nesting order), 0 for none, nil for several.
    private static func toggle(_ f: TextFormat) -> Int8? {
        let bits = (f.bold ? 1 : 0) | (f.italic ? 2 : 0) | (f.underline ? 4 : 0) | (f.strikethrough ? 8 : 0)
            | (f.smallCaps ? 16 : 0) | (f.superscript ? 32 : 0) | (f.subscript ? 64 : 0) | (f.highlight ? 128 : 0)
        if bits == 0 { return 0 }
        guard bits & (bits - 1) == 0 else { return nil }
        return Int8(bits.trailingZeroBitCount + 1)
    }

    /// Runs `range` grouped by their toggle, adjacent text joined.
    private static func toggled(_ runs: UnsafeBufferPointer<Run>, _ toggles: [Int8], _ range: Range<Int>) -> [Inline] {
        var out: [Inline] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let t = toggles[i]
            var j = i + 1
            while j < range.upperBound && toggles[j] == t { j += 1 }
            if t == 0 {
                appendLeaves(runs, i..<j, to: &out)
            } else {
                var inner: [Inline] = []
                inner.reserveCapacity(j - i)
                appendLeaves(runs, i..<j, to: &inner)
                out.append(InlineBuilder.wrap(Int(t), inner))
            }
            i = j
        }
        return out
    }

    private static func appendLeaves(_ runs: UnsafeBufferPointer<Run>, _ range: Range<Int>, to out: inout [Inline]) {
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

private extension Run {
    /// An atom with inlines inside it.
    var holdsInlines: Bool {
        if case .atom(let a) = content { return !a.children.isEmpty }
        return false
    }
}

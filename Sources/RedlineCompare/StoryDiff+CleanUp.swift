import RedlineCore

/// Semantic clean-up of a piece's edit script: short equalities folded into the changes around them,
/// deletions before insertions, pure changes slid to paragraph and word boundaries, relevelled paragraphs
/// replaced.
extension StoryComparer {
    /// Folds short equalities between changes into them (dmp's semantic rule: an equality no longer than
    /// the changes on both sides of it), puts each change's deletions before its insertions, and slides
    /// pure insertions and deletions to paragraph and word boundaries.
    func cleanUp(_ ops: inout [Op], _ v: TokenView) {
        guard ops.contains(where: \.isChange) else { return }
        for _ in 0..<3 {
            if !foldEqualities(&ops, v) { break }
        }
        regroup(&ops, v)
        slide(&ops, v)
        replaceRelevelled(&ops, v)
    }

    /// A paragraph whose kind changed (heading level, heading to body text) is shown as the old paragraph
    /// deleted and the new one inserted: the break that carries the kind cannot change in place.
    private func replaceRelevelled(_ ops: inout [Op], _ v: TokenView) {
        var i = 0
        func kind(_ k: Int) -> Token.Kind { v.tok(ops[k]).kind }
        while i + 1 < ops.count {
            guard ops[i].kind == .insert, kind(i) == .mark, ops[i + 1].kind == .delete, kind(i + 1) == .mark,
                  i + 2 == ops.count || !ops[i + 2].isChange || kind(i + 2) == .block, i == 0 || !ops[i - 1].isChange || kind(i - 1) != .mark
            else { i += 1; continue }
            if options.keepRelevelled {
                // One paragraph whose break (and so kind) is compared as equal: `build` marks a style change.
                ops.replaceSubrange(i..<(i + 2), with: [Op(kind: .equal, tok: ops[i].tok, other: ops[i + 1].tok)])
                i += 1
                continue
            }
            var p0 = i
            while p0 > 0 && kind(p0 - 1) != .mark && kind(p0 - 1) != .block { p0 -= 1 }
            var dels: [Op] = [], ins: [Op] = []
            for k in p0..<i {
                let o = ops[k]
                switch o.kind {
                case .equal: dels.append(Op(kind: .delete, tok: o.other)); ins.append(Op(kind: .insert, tok: o.tok))
                case .delete: dels.append(o)
                case .insert, .pass: ins.append(o)
                }
            }
            let replacement = dels + [ops[i + 1]] + ins + [ops[i]]
            ops.replaceSubrange(p0..<(i + 2), with: replacement)
            i = p0 + replacement.count
        }
    }

    /// Maximal runs of ops, each all-equal (structural equal tokens stop a run) or all-change.
    private func foldEqualities(_ ops: inout [Op], _ v: TokenView) -> Bool {
        // Regions: (start, end, isChange)
        var regions: [(Int, Int, Bool)] = []
        var i = 0
        while i < ops.count {
            let ch = ops[i].isChange
            var j = i + 1
            while j < ops.count && ops[j].isChange == ch { j += 1 }
            regions.append((i, j, ch))
            i = j
        }
        /// Characters deleted and inserted in a change region, and the larger of its two word counts.
        func sizes(_ r: (Int, Int, Bool)) -> (Int, Int, Int) {
            var d = 0, n = 0, dw = 0, nw = 0
            for k in r.0..<r.1 {
                switch ops[k].kind {
                case .delete:
                    let t = v.old[Int(ops[k].tok)]
                    d += t.characterCount; if t.kind == .word { dw += 1 }
                case .insert:
                    let t = v.new[Int(ops[k].tok)]
                    n += t.characterCount; if t.kind == .word { nw += 1 }
                default: break
                }
            }
            return (d, n, max(dw, nw))
        }
        var changed = false
        guard regions.count >= 3 else { return false }
        for r in 1..<(regions.count - 1) where !regions[r].2 {
            let e = regions[r]
            var length = 0, words = 0
            var foldable = true
            for k in e.0..<e.1 {
                let t = v.tok(ops[k])
                if ops[k].kind != .equal || t.kind == .mark || t.kind == .block || t.kind == .atom { foldable = false; break }
                length += t.characterCount
                if t.kind == .word { words += 1 }
            }
            guard foldable else { continue }
            let (d1, n1, w1) = sizes(regions[r - 1]), (d2, n2, w2) = sizes(regions[r + 1])
            let spaceOnly = (e.0..<e.1).allSatisfy { v.tok(ops[$0]).kind == .space }
            if Self.folds(length: length, words: words, spaceOnly: spaceOnly, left: (d1, n1, w1), right: (d2, n2, w2)) {
                for k in e.0..<e.1 {
                    // Turned into a deletion of OLD's token and an insertion of NEW's; regroup orders them.
                    let o = ops[k]
                    ops[k] = Op(kind: .delete, tok: o.other, other: o.tok)     // the insertion, unpacked by regroup
                }
                changed = true
            }
        }
        return changed
    }

    /// Whether an equality of `length` characters and `words` words (`spaceOnly`: all whitespace) between two
    /// change regions (characters deleted, inserted, and words changed on each side) folds into them: dmp's
    /// semantic rule (no longer than either change), and fewer words than either change has or a quarter of
    /// the two together, so one kept word between two one-word replacements stays
    /// (`{~~buyer~>customer~~} within {~~thirty~>fourteen~~}`) while the stray common words of a rewritten
    /// sentence still fold into one substitution.
    static func folds(length: Int, words: Int, spaceOnly: Bool, left: (Int, Int, Int), right: (Int, Int, Int)) -> Bool {
        spaceOnly || (length <= max(left.0, left.1) && length <= max(right.0, right.1) && (words < min(left.2, right.2) || 4 * words < left.2 + right.2))
    }

    /// In each change region, deletions first, then insertions and NEW's comment anchors, each in order.
    /// A region that is one deleted and one inserted break (a heading level changed) keeps the insertion
    /// first, so the text sits in the paragraph with NEW's properties.
    private func regroup(_ ops: inout [Op], _ v: TokenView) {
        var out: [Op] = []
        out.reserveCapacity(ops.count + 16)
        var i = 0
        while i < ops.count {
            if ops[i].kind == .equal { out.append(ops[i]); i += 1; continue }
            var dels: [Op] = [], ins: [Op] = []
            let atBoundary = out.isEmpty || v.tok(out.last!).kind == .mark || v.tok(out.last!).kind == .block
            while i < ops.count && ops[i].kind != .equal {
                let o = ops[i]
                if o.kind == .delete {
                    if o.other >= 0 {
                        dels.append(Op(kind: .delete, tok: o.tok))
                        ins.append(Op(kind: .insert, tok: o.other))
                    } else {
                        dels.append(o)
                    }
                } else {
                    ins.append(o)
                }
                i += 1
            }
            // Each side keeps its order; of the two ways to put them together, the one where every whole
            // block starts where a paragraph ends. One deleted and one inserted break (a kind change):
            // the insertion first, so the text sits in the paragraph with NEW's properties.
            let relevel = dels.count == 1 && ins.count == 1 && v.tok(dels[0]).kind == .mark && v.tok(ins[0]).kind == .mark
            // Kept relevelled (`keepRelevelled`): text changed at the end of a paragraph whose kind changed too,
            // each side's one break ending the region: the text first, then the breaks as a relevel.
            if options.keepRelevelled, !relevel, let dm = dels.last, let im = ins.last,
               v.tok(dm).kind == .mark, v.tok(im).kind == .mark, im.kind == .insert,
               (dels.dropLast() + ins.dropLast()).allSatisfy({ v.tok($0).kind != .mark && v.tok($0).kind != .block }) {
                out += dels.dropLast() + ins.dropLast() + [im, dm]
                continue
            }
            let first = relevel ? ins + dels : dels + ins
            let second = relevel ? dels + ins : ins + dels
            // A paragraph whose break goes away on accept or reject joins the next block, so a whole block
            // may not follow a changed break unless that paragraph is empty (then it simply goes).
            let next = i < ops.count ? ops[i] : nil
            func blocksAtBoundaries(_ r: [Op]) -> Bool {
                var boundary = atBoundary
                var changedNonEmptyMark = false
                for o in r + (next.map { [$0] } ?? []) {
                    let k = v.tok(o).kind
                    if k == .block && (!boundary || changedNonEmptyMark) { return false }
                    if o.kind != .pass {
                        changedNonEmptyMark = k == .mark && o.isChange && !boundary
                        boundary = k == .mark || k == .block
                    }
                }
                return true
            }
            out += blocksAtBoundaries(first) || !blocksAtBoundaries(second) ? first : second
        }
        ops = out
    }

    /// Moves each pure insertion or deletion along equal tokens of the same key to the best boundary:
    /// ending with a paragraph break, else starting after one, else at word edges.
    private func slide(_ ops: inout [Op], _ v: TokenView) {
        func tk(_ k: Int) -> Token { v.tok(ops[k]) }
        var i = 0
        while i < ops.count {
            guard ops[i].isChange else { i += 1; continue }
            var j = i
            while j < ops.count && ops[j].kind == ops[i].kind { j += 1 }
            // Only a pure region (equal tokens on both sides) slides.
            let pureBefore = i == 0 || ops[i - 1].kind == .equal
            let pureAfter = j == ops.count || ops[j].kind == .equal
            guard pureBefore && pureAfter, j - i < 10_000 else { i = j; continue }
            func score(_ s: Int, _ e: Int) -> Int {
                var sc = 0
                if tk(e - 1).kind == .mark { sc += 8 }
                if tk(s).kind == .mark && (e == ops.count || tk(e).kind == .mark) { sc += 6 }
                if s == 0 || tk(s - 1).kind == .mark { sc += 4 }
                if tk(s).kind != .space { sc += 1 }
                if e == ops.count || tk(e).kind == .space || tk(e).kind == .mark || tk(e).kind == .punct { sc += 1 }
                if tk(e - 1).kind != .space { sc += 1 }
                return sc
            }
            var best = (score(i, j), 0)
            // Left shifts.
            var s = i, e = j, shift = 0
            while s > 0, ops[s - 1].kind == .equal, tk(s - 1).key == tk(e - 1).key,
                  tk(s - 1).kind != .block, tk(e - 1).kind != .comment {
                s -= 1; e -= 1; shift -= 1
                let sc = score(s, e)
                if sc > best.0 { best = (sc, shift) }
                if shift < -64 { break }
            }
            s = i; e = j; shift = 0
            while e < ops.count, ops[e].kind == .equal, tk(e).key == tk(s).key,
                  tk(e).kind != .block, tk(s).kind != .comment {
                s += 1; e += 1; shift += 1
                let sc = score(s, e)
                if sc > best.0 { best = (sc, shift) }
                if shift > 64 { break }
            }
            if best.1 != 0 { rotate(&ops, i, j, by: best.1) }
            i = j + max(best.1, 0)
        }
    }

    /// Shifts the change region ops[i..<j] by `k` positions over equal tokens of the same keys.
    private func rotate(_ ops: inout [Op], _ i: Int, _ j: Int, by k: Int) {
        let isInsert = ops[i].kind == .insert
        // Rebuild the window directly: the change tokens and the equal tokens they slide over.
        let lo = min(i, i + k), hi = max(j, j + k)
        // Keys are equal along the slide, so the sequence of tokens per side is the same whichever op holds them.
        // The side that has the change sees: [eq..., change...] → reassign in order.
        var sideSeq: [Int32] = []      // the changed side's tokens over the window, in order
        var otherSeq: [Int32] = []     // the other side's tokens over the window (equal only)
        for idx in lo..<hi {
            if idx >= i && idx < j {
                sideSeq.append(ops[idx].tok)
            } else {
                sideSeq.append(isInsert ? ops[idx].tok : ops[idx].other)
                otherSeq.append(isInsert ? ops[idx].other : ops[idx].tok)
            }
        }
        let newStart = i + k, newEnd = j + k
        var o = 0
        for (n, idx) in (lo..<hi).enumerated() {
            let t = sideSeq[n]
            if idx >= newStart && idx < newEnd {
                ops[idx] = Op(kind: isInsert ? .insert : .delete, tok: t)
            } else {
                let other = otherSeq[o]; o += 1
                ops[idx] = isInsert ? Op(kind: .equal, tok: t, other: other) : Op(kind: .equal, tok: other, other: t)
            }
        }
    }
}

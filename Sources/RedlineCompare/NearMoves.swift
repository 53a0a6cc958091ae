/// Moves with edits inside: a deleted span and an inserted span elsewhere whose words mostly agree.
///
/// Within the model a run carries one change, so a move with inner edits is written as the parts the two
/// spans share marked as the move (`move=NAME` on both sides) and the rest as plain marks: words that did not
/// make the journey are deletions inside the moved-from text, words added on the way are insertions inside
/// the moved-to text. Accepting removes the whole source span and keeps the whole destination span; rejecting
/// does the opposite, so exactness holds whatever is paired. Work: each inserted span is checked against the
/// few deleted spans that share most of its less common words, each check a bounded LCS of the two spans.
extension StoryComparer {
    /// The least share of the longer span's words the two spans must have in common.
    static let nearMoveAgreement = 0.6
    /// Words shared by more deleted spans than this are too common to find candidates by.
    static let nearMoveCommonWord = 48
    /// Deleted spans checked per inserted span.
    static let nearMoveCandidates = 4

    struct ChangeSpan {
        var start: Int
        var end: Int
        var words: Int
        /// Index of the change region (runs of changes between equal ops) the span is in.
        var region: Int
    }

    /// Maximal runs of unmoved deletions (or insertions) of text, trimmed of spaces at their edges, with at
    /// least `minimumMoveWords` words.
    func changeSpans(_ ops: [Op], _ v: TokenView, _ kind: Op.Kind) -> [ChangeSpan] {
        var out: [ChangeSpan] = []
        var region = 0
        var i = 0
        func inSpan(_ k: Int) -> Bool {
            guard ops[k].kind == kind && ops[k].move < 0 else { return false }
            let t = v.tok(ops[k]).kind
            return t != .mark && t != .block
        }
        while i < ops.count {
            // An equal token or an equal block (a `pass` op holding a block) ends a change region.
            if ops[i].kind == .equal || (ops[i].kind == .pass && v.tok(ops[i]).kind == .block) { region += 1 }
            guard inSpan(i) else { i += 1; continue }
            var j = i, words = 0
            while j < ops.count && inSpan(j) {
                if v.tok(ops[j]).kind == .word { words += 1 }
                j += 1
            }
            var s = i, e = j
            while s < e && v.tok(ops[s]).kind == .space { s += 1 }
            while e > s && v.tok(ops[e - 1]).kind == .space { e -= 1 }
            if words >= options.minimumMoveWords { out.append(ChangeSpan(start: s, end: e, words: words, region: region)) }
            i = j
        }
        return out
    }

    mutating func pairNearMoves(_ ops: inout [Op], _ v: TokenView) {
        let dels = changeSpans(ops, v, .delete)
        guard !dels.isEmpty else { return }
        let inss = changeSpans(ops, v, .insert)
        guard !inss.isEmpty else { return }
        // Word key → deleted spans holding it.
        var index: [Int32: [Int32]] = [:]
        for (n, d) in dels.enumerated() {
            var seen = Set<Int32>()
            for k in d.start..<d.end where v.tok(ops[k]).kind == .word {
                let key = v.tok(ops[k]).key
                if seen.insert(key).inserted { index[key, default: []].append(Int32(n)) }
            }
        }
        var used = [Bool](repeating: false, count: dels.count)
        var delWords: [[Int32]?] = Array(repeating: nil, count: dels.count)
        for ins in inss {
            var tally: [Int32: Int] = [:]
            var seen = Set<Int32>()
            for k in ins.start..<ins.end where v.tok(ops[k]).kind == .word {
                let key = v.tok(ops[k]).key
                guard seen.insert(key).inserted, let list = index[key], list.count <= Self.nearMoveCommonWord else { continue }
                for d in list where !used[Int(d)] && dels[Int(d)].region != ins.region { tally[d, default: 0] += 1 }
            }
            guard !tally.isEmpty else { continue }
            // The few deleted spans sharing most of these words (ties: the earlier span).
            var candidates: [(d: Int32, n: Int)] = []
            for (d, n) in tally {
                // Too different in length to agree on enough words.
                let span = dels[Int(d)]
                guard Double(min(span.words, ins.words)) >= Self.nearMoveAgreement * Double(max(span.words, ins.words)) else { continue }
                candidates.append((d, n))
                candidates.sort { $0.n > $1.n || ($0.n == $1.n && $0.d < $1.d) }
                if candidates.count > Self.nearMoveCandidates { candidates.removeLast() }
            }
            guard !candidates.isEmpty else { continue }
            let insWords = sortedWords(ops, v, ins)
            var best: (d: Int, pairs: [(Int, Int)], shared: Int)?
            for (d, _) in candidates {
                let span = dels[Int(d)]
                let needed = max(Int((Self.nearMoveAgreement * Double(max(span.words, ins.words))).rounded(.up)), options.minimumMoveWords)
                // The words both spans hold (as multisets) bound what an LCS can match: a cheap test first.
                if delWords[Int(d)] == nil { delWords[Int(d)] = sortedWords(ops, v, span) }
                guard Self.multisetCommon(delWords[Int(d)]!, insWords) >= needed else { continue }
                let (pairs, shared) = sharedRuns(ops, v, span, ins)
                guard shared >= needed else { continue }
                if best == nil || shared > best!.shared { best = (Int(d), pairs, shared) }
            }
            guard let b = best else { continue }
            used[b.d] = true
            let id = Int32(moveCounter)
            moveCounter += 1
            for (x, y) in b.pairs { ops[x].move = id; ops[y].move = id }
        }
    }

    /// The span's word keys, sorted (with repeats).
    func sortedWords(_ ops: [Op], _ v: TokenView, _ s: ChangeSpan) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(s.words)
        for k in s.start..<s.end where v.tok(ops[k]).kind == .word { out.append(v.tok(ops[k]).key) }
        out.sort()
        return out
    }

    /// The size of the multiset intersection of two sorted arrays.
    static func multisetCommon(_ x: [Int32], _ y: [Int32]) -> Int {
        var i = 0, j = 0, n = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] { n += 1; i += 1; j += 1 } else if x[i] < y[j] { i += 1 } else { j += 1 }
        }
        return n
    }

    /// The ops of a deleted and an inserted span that match (an LCS of their tokens), keeping only matched
    /// stretches that hold a word, so a move is not cut into slivers of shared spaces; and the words matched.
    func sharedRuns(_ ops: [Op], _ v: TokenView, _ d: ChangeSpan, _ i: ChangeSpan) -> ([(Int, Int)], Int) {
        let a = (d.start..<d.end).map { Int(v.tok(ops[$0]).key) }
        let b = (i.start..<i.end).map { Int(v.tok(ops[$0]).key) }
        let m = SequenceDiff.matches(a, b)
        var out: [(Int, Int)] = []
        out.reserveCapacity(m.count)
        var words = 0
        var k = 0
        while k < m.count {
            // A stretch: consecutive on both sides.
            var e = k + 1
            while e < m.count && m[e].0 == m[e - 1].0 + 1 && m[e].1 == m[e - 1].1 + 1 { e += 1 }
            var w = 0
            for p in k..<e where v.tok(ops[d.start + m[p].0]).kind == .word { w += 1 }
            if w > 0 {
                for p in k..<e { out.append((d.start + m[p].0, i.start + m[p].1)) }
                words += w
            }
            k = e
        }
        return (out, words)
    }
}

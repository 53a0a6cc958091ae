import RedlineCore

/// Moves: deleted and inserted spans of the same words paired (spans moved with edits inside: NearMoves.swift).
extension StoryComparer {
    /// Pairs deleted and inserted spans of at least `minimumMoveWords` words with the same tokens.
    mutating func findMoves(_ ops: inout [Op], _ v: TokenView) {
        // First spans as they are (spaces at the edges left out), then the words at their core (punctuation
        // at the edges left out too), so a sentence moved with or without its full stop still pairs.
        pairMoves(&ops, v, trimPunctuation: false)
        pairMoves(&ops, v, trimPunctuation: true)
        // Then spans moved with edits inside (see NearMoves.swift).
        pairNearMoves(&ops, v)
    }

    private mutating func pairMoves(_ ops: inout [Op], _ v: TokenView, trimPunctuation: Bool) {
        struct Span { var start: Int; var end: Int; var words: Int }
        func edge(_ k: Int) -> Bool {
            let t = v.tok(ops[k]).kind
            return t == .space || (trimPunctuation && t == .punct)
        }
        func spans(_ kind: Op.Kind) -> [Span] {
            var out: [Span] = []
            var i = 0
            func inSpan(_ k: Int) -> Bool {
                ops[k].kind == kind && ops[k].move < 0 && v.tok(ops[k]).kind != .mark && v.tok(ops[k]).kind != .block
            }
            while i < ops.count {
                guard inSpan(i) else { i += 1; continue }
                var j = i
                var words = 0
                while j < ops.count && inSpan(j) {
                    if v.tok(ops[j]).kind == .word { words += 1 }
                    j += 1
                }
                var s = i, e = j
                while s < e && edge(s) { s += 1 }
                while e > s && edge(e - 1) { e -= 1 }
                if words >= options.minimumMoveWords { out.append(Span(start: s, end: e, words: words)) }
                i = j
            }
            return out
        }
        let dels = spans(.delete)
        guard !dels.isEmpty else { return }
        let inss = spans(.insert)
        guard !inss.isEmpty else { return }
        var byKey: [[Int32]: [Int]] = [:]
        for (n, d) in dels.enumerated() { byKey[(d.start..<d.end).map { v.tok(ops[$0]).key }, default: []].append(n) }
        var taken: [[Int32]: Int] = [:]  // how many of each key's deletions are paired (no list copied per pair)
        for ins in inss {
            let k = (ins.start..<ins.end).map { v.tok(ops[$0]).key }
            guard let list = byKey[k], case let t = taken[k, default: 0], t < list.count else { continue }
            let d = dels[list[t]]
            taken[k] = t + 1
            let id = Int32(moveCounter)
            moveCounter += 1
            for x in d.start..<d.end { ops[x].move = id }
            for x in ins.start..<ins.end { ops[x].move = id }
        }
    }
}

import RedlineCore

/// Stories: a story's blocks aligned (equal blocks by LCS of their keys), the gaps between them cut into
/// jobs and run (on two threads for a long story), and the blocks' comment anchors stripped for hashing.
extension StoryComparer {
    /// The blocks of NEW with the changes from OLD marked.
    mutating func compare(_ old: [Block], _ new: [Block]) -> [Block] {
        let saved = (oldStore, newStore)
        oldStore = TokenStore(); newStore = TokenStore()
        defer { (oldStore, newStore) = saved }
        // A long story's block hashes and word hashes are made on two threads, OLD's on one, NEW's on the other.
        let parallel = old.count + new.count >= parallelMinimum
        func both<T>(_ f: @escaping (_ blocks: [Block], _ isOld: Bool) -> T) -> (T, T) {
            parallel ? TwoThreads.run({ f(old, true) }, { f(new, false) }) : (f(old, true), f(new, false))
        }
        let (oldHashed, newHashed) = both { blocks, _ in blocks.map { HashedBlock(Self.strippingComments($0)) } }
        keys.reserveBlocks(old.count + new.count)
        let oldKeys = oldHashed.map { keys.key($0) }
        let newKeys = newHashed.map { keys.key($0) }
        let matches = Self.droppingCrossedAnchors(SequenceDiff.matches(oldKeys, newKeys, cap: 256), old, new)
        // The gaps between equal blocks; those long runs of paragraphs that pairCuts cuts get their word hashes.
        var ends = matches.map { ($0.0, $0.1) }
        ends.append((old.count, new.count))
        var starts = [(0, 0)]
        for (i, j) in matches { starts.append((i + 1, j + 1)) }
        let gaps = zip(starts, ends).map { s, e in (s.0..<e.0, s.1..<e.1) }
        let cuttable = gaps.map { (o, n) in
            o.count > 1 && n.count > 1 && old[o].allSatisfy({ $0.paragraph != nil }) && new[n].allSatisfy({ $0.paragraph != nil })
        }
        let (oldWords, newWords) = both { blocks, isOld in
            zip(gaps, cuttable).map { g, c in c ? blocks[isOld ? g.0 : g.1].map(Self.wordHashes) : [] }
        }
        // Each gap becomes pieces whose edit scripts are made apart; equal blocks are kept as they are.
        var jobs: [GapJob] = []
        for (g, (o, n)) in gaps.enumerated() {
            if g > 0 { jobs.append(.equal(matches[g - 1].0, matches[g - 1].1)) }
            gapJobs(old, o, new, n, cuts: cuttable[g] ? Self.pairCuts(hashes: oldWords[g], newWords[g]) : nil, into: &jobs)
        }
        var ops: [Op] = []
        var equalBlocks: [EqualBlock] = []     // where in ops each equal block goes, in order
        runJobs(jobs, old, new, ops: &ops, equalBlocks: &equalBlocks)
        let view = TokenView(old: oldStore.tokens, new: newStore.tokens)
        if options.detectMoves { findMoves(&ops, view) }
        var out: [Block] = []
        build(ops, view, equalBlocks: equalBlocks, into: &out)
        return out
    }

    /// An equal block kept whole: where in the edit script it goes, and its NEW and OLD forms.
    struct EqualBlock {
        var op: Int
        var new: Block
        var old: Block
    }

    /// One step of a story's gap work, in story order: a piece of a gap diffed as one token stream, or an
    /// equal block kept whole.
    enum GapJob {
        case piece(old: Range<Int>, new: Range<Int>, followedByParagraph: Bool)
        case equal(Int, Int)

        /// Roughly how much work it is (blocks).
        var weight: Int {
            switch self {
            case .piece(let o, let n, _): return o.count + n.count
            case .equal: return 1
            }
        }
    }

    /// The jobs of one gap: the whole gap, or for a long gap of paragraphs (every paragraph edited: no equal
    /// block to anchor on) the pieces between the `cuts` where paragraphs pair by their words, so each piece
    /// is diffed on its own and work stays linear in the gap.
    private func gapJobs(_ old: [Block], _ o: Range<Int>, _ new: [Block], _ n: Range<Int>, cuts: [(Int, Int)]?,
                         into jobs: inout [GapJob]) {
        guard !o.isEmpty || !n.isEmpty else { return }
        let followedByParagraph = n.upperBound < new.count && new[n.upperBound].paragraph != nil
        if let cuts, cuts.count > 1 {
            var po = o.lowerBound, pn = n.lowerBound
            for (k, (i, j)) in cuts.enumerated() {
                let last = k == cuts.count - 1
                let (oi, nj) = last ? (o.upperBound, n.upperBound) : (o.lowerBound + i, n.lowerBound + j)
                jobs.append(.piece(old: po..<oi, new: pn..<nj, followedByParagraph: last ? followedByParagraph : true))
                po = oi; pn = nj
            }
            return
        }
        jobs.append(.piece(old: o, new: n, followedByParagraph: followedByParagraph))
    }

    /// Runs the jobs into this comparer's stores: all here, or for a story of at least `parallelMinimum`
    /// blocks the later half of the work on a second thread with its own stores and keys, absorbed after
    /// (the ops, tokens and runs come out as one thread would make them; only key numbers differ, and keys
    /// are only ever compared for equality).
    private mutating func runJobs(_ jobs: [GapJob], _ old: [Block], _ new: [Block],
                                  ops: inout [Op], equalBlocks: inout [EqualBlock]) {
        let total = jobs.reduce(0) { $0 + $1.weight }
        guard jobs.count > 1, total >= parallelMinimum else {
            run(jobs[...], old, new, ops: &ops, equalBlocks: &equalBlocks, roomFor: total)
            return
        }
        var split = 0, weight = 0
        while split < jobs.count - 1 && 2 * weight < total { weight += jobs[split].weight; split += 1 }
        let worker = StoryComparer(options: options, diagnostics: diagnostics, parallelMinimum: parallelMinimum)
        let later = jobs[split...]
        var (_, done) = TwoThreads.run({
            // Room for the worker's share too, so absorbing it copies only that share.
            self.run(jobs[..<split], old, new, ops: &ops, equalBlocks: &equalBlocks, roomFor: total)
        }, {
            var w = worker
            var wOps: [Op] = [], wEqual: [EqualBlock] = []
            w.run(later, old, new, ops: &wOps, equalBlocks: &wEqual, roomFor: total - weight)
            return (w, wOps, wEqual)
        })
        absorb(done.0, ops: &done.1, equalBlocks: done.2, into: &ops, &equalBlocks)
    }

    /// Runs the jobs in order. Once a sample of them is done, the ops and the stores' tokens and runs get the
    /// room that jobs of `roomFor` weight in all will need at the sample's rate (plus a margin), so the large
    /// arrays grow once instead of doubling (each doubling copies the array and touches new pages) and a
    /// worker's share is absorbed without another copy of this one. A wrong guess costs only a regrowth.
    private mutating func run(_ jobs: ArraySlice<GapJob>, _ old: [Block], _ new: [Block],
                              ops: inout [Op], equalBlocks: inout [EqualBlock], roomFor total: Int) {
        var done = 0
        var reserved = total < 2 * Self.sampleWeight
        for job in jobs {
            if !reserved && done >= Self.sampleWeight {
                reserved = true
                func room(_ n: Int) -> Int { Int(Double(n) * Double(total) / Double(done) * 1.25) }
                ops.reserveCapacity(room(ops.count))
                oldStore.tokens.reserveCapacity(room(oldStore.tokens.count))
                newStore.tokens.reserveCapacity(room(newStore.tokens.count))
                oldStore.runs.reserveCapacity(room(oldStore.runs.count))
                newStore.runs.reserveCapacity(room(newStore.runs.count))
            }
            done += job.weight
            switch job {
            case .piece(let o, let n, let followed):
                pieceOps(Array(old[o]), Array(new[n]), followedByParagraph: followed, into: &ops)
            case .equal(let i, let j):
                equalBlocks.append(EqualBlock(op: ops.count, new: new[j], old: old[i]))
                newStore.tokens.append(Token(kind: .block, key: 0))
                ops.append(Op(kind: .pass, tok: Int32(newStore.tokens.count - 1)))
            }
        }
    }

    /// The jobs' weight (blocks) whose sizes tell how much room all of them need.
    static let sampleWeight = 512

    /// Appends what a worker made of the later jobs: its tokens (keys translated into this table), runs and
    /// blocks after this comparer's, its ops shifted to match, its note pairs after these.
    /// The worker's arrays are emptied as they are copied, so the peak holds one of them twice, not all.
    private mutating func absorb(_ w: StoryComparer, ops wOps: inout [Op], equalBlocks wEqual: [EqualBlock],
                                 into ops: inout [Op], _ equalBlocks: inout [EqualBlock]) {
        let keyMap = keys.translation(of: w.keys)
        let (os, ws, ns, wn) = (oldStore, w.oldStore, newStore, w.newStore)
        let (oldBase, newBase) = TwoThreads.run({ os.append(ws, keyMap: keyMap) }, { ns.append(wn, keyMap: keyMap) })
        let opBase = ops.count
        ops += wOps
        wOps = []
        ops.withUnsafeMutableBufferPointer { buf in
            for i in opBase..<buf.count {
                switch buf[i].kind {
                case .equal: buf[i].tok += newBase; buf[i].other += oldBase
                case .delete: buf[i].tok += oldBase; if buf[i].other >= 0 { buf[i].other += newBase }
                case .insert, .pass: buf[i].tok += newBase
                }
            }
        }
        for e in wEqual { equalBlocks.append(EqualBlock(op: opBase + e.op, new: e.new, old: e.old)) }
        notePairs += w.notePairs
    }

    /// The equal-block matches without those an edited neighbour crossed: an equal paragraph with an unmatched
    /// paragraph before it in OLD that agrees (by words, as `pairCuts` pairs) with an unmatched one after it in
    /// NEW, or after it in OLD and before it in NEW, moved past that neighbour. Kept as an anchor it would tear
    /// the neighbour into a deletion on one side and an insertion on the other; left to the gap, the neighbour
    /// is edited in place and the unchanged paragraph shows as a move.
    static func droppingCrossedAnchors(_ matches: [(Int, Int)], _ old: [Block], _ new: [Block]) -> [(Int, Int)] {
        guard matches.count > 0, matches.count < old.count || matches.count < new.count else { return matches }
        var oldMatched = [Bool](repeating: false, count: old.count), newMatched = [Bool](repeating: false, count: new.count)
        for (i, j) in matches { oldMatched[i] = true; newMatched[j] = true }
        func agree(_ i: Int, _ j: Int) -> Bool {
            guard i >= 0, i < old.count, j >= 0, j < new.count, !oldMatched[i], !newMatched[j],
                  old[i].paragraph != nil, new[j].paragraph != nil else { return false }
            let x = wordHashes(old[i]), y = wordHashes(new[j])
            let m = min(x.count, y.count)
            return m > 0 && 2 * commonCount(x, y) >= m
        }
        return matches.filter { (i, j) in
            guard old[i].paragraph != nil else { return true }
            return !(agree(i - 1, j + 1) || agree(i + 1, j - 1))
        }
    }

    static func strippingComments(_ b: Block) -> Block {
        var has = false
        b.forEachInline { i in
            switch i { case .commentStart, .commentEnd, .commentPoint: has = true; default: break }
        }
        guard has else { return b }
        return strip(b)
    }

    private static func strip(_ b: Block) -> Block {
        switch b {
        case .paragraph(var p): p.content = strip(p.content); return .paragraph(p)
        case .heading(let l, var p): p.content = strip(p.content); return .heading(level: l, p)
        default: return b.mapBlockArrays { $0.map(strip) }
        }
    }

    private static func strip(_ inlines: [Inline]) -> [Inline] {
        InlineBuilder.normalized(inlines.compactMap { i -> Inline? in
            switch i {
            case .commentStart, .commentEnd, .commentPoint: return nil
            default: return i.mapChildren(strip)
            }
        })
    }

    mutating func recordNotePairs(_ old: Block, _ new: Block) {
        var o: [String] = [], n: [String] = []
        old.forEachInline { if case .noteReference(let id) = $0 { o.append(id) } }
        new.forEachInline { if case .noteReference(let id) = $0 { n.append(id) } }
        for (a, b) in zip(o, n) { notePairs.append((a, b)) }
    }
}

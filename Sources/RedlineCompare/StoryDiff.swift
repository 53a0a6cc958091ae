import RedlineCore

/// One step of a story's edit script (16 bytes): token indices into the two sides' stores, not tokens.
struct Op {
    enum Kind: UInt8 {
        /// The token is in both: `tok` is NEW's, `other` is OLD's.
        case equal
        case delete
        case insert
        /// A NEW comment anchor, carried through unmarked.
        case pass
    }
    var kind: Kind
    /// The move this deleted (from) or inserted (to) token belongs to.
    var move: Int32 = -1
    /// The token: NEW's (equal, insert, pass) or OLD's (delete), by index in its side's `TokenStore.tokens`.
    var tok: Int32
    /// For an equal op, OLD's token; for a deletion folded from an equality by the clean-up, NEW's token (the
    /// insertion `regroup` unpacks); else -1.
    var other: Int32 = -1

    init(kind: Kind, tok: Int32, other: Int32 = -1) {
        self.kind = kind
        self.tok = tok
        self.other = other
    }

    var isChange: Bool { kind == .delete || kind == .insert }
}

/// Both sides' tokens of one story comparison, read by the clean-up, the move finder and the builder.
struct TokenView {
    let old: [Token]
    let new: [Token]
    /// The op's own token (OLD's for a deletion, else NEW's).
    @inline(__always) func tok(_ op: Op) -> Token { op.kind == .delete ? old[Int(op.tok)] : new[Int(op.tok)] }
    /// OLD's token of an equal op.
    @inline(__always) func oldTok(_ op: Op) -> Token { old[Int(op.other)] }
}

/// Compares stories (block arrays): the body, cells, quotes, list items, notes.
struct StoryComparer {
    let options: CompareOptions
    let change: Change
    var keys = KeyTable()
    var stats = CompareStats()
    var diagnostics: Diagnostics
    /// OLD note id → NEW note id, for notes whose references matched.
    var notePairs: [(String, String)] = []
    /// OLD note ids whose references were deleted, with the id they get in the result.
    var deletedNotes: [(String, String)] = []
    /// NEW note ids whose references were inserted.
    var insertedNotes: [String] = []
    /// Moves paired so far in this comparison (their names are `move1`, `move2`, ...).
    var moveCounter = 0
    private let oldTokenizer: Tokenizer
    private let newTokenizer: Tokenizer
    /// The stores of the story being compared (each `compare` call has its own, so a nested story's tokens
    /// never grow the arrays an outer story's view holds).
    private var oldStore = TokenStore()
    private var newStore = TokenStore()

    /// Stories of at least this many blocks have their gaps diffed on two threads (`runJobs`).
    let parallelMinimum: Int
    /// The default `parallelMinimum`: below it a second thread costs more than it saves.
    static let defaultParallelMinimum = 2_000

    init(options: CompareOptions, diagnostics: Diagnostics, parallelMinimum: Int = defaultParallelMinimum) {
        self.options = options
        self.parallelMinimum = parallelMinimum
        self.change = Change(author: options.author, date: options.date)
        self.diagnostics = diagnostics
        oldTokenizer = Tokenizer(granularity: options.granularity, keepComments: false)
        newTokenizer = Tokenizer(granularity: options.granularity, keepComments: true)
    }

    // MARK: Stories

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

    private mutating func recordNotePairs(_ old: Block, _ new: Block) {
        var o: [String] = [], n: [String] = []
        old.forEachInline { if case .noteReference(let id) = $0 { o.append(id) } }
        new.forEachInline { if case .noteReference(let id) = $0 { n.append(id) } }
        for (a, b) in zip(o, n) { notePairs.append((a, b)) }
    }

    // MARK: Gaps

    private func props(_ b: Block) -> ParagraphProps? {
        switch b {
        case .paragraph(let p): return ParagraphProps(level: 0, style: p.style)
        case .heading(let l, let p): return ParagraphProps(level: l, style: p.style)
        default: return nil
        }
    }

    /// The blocks as tokens appended to `store.tokens`: their index range.
    private mutating func stream(_ blocks: [Block], tokenizer: Tokenizer, store: TokenStore) -> Range<Int> {
        let start = store.tokens.count
        for b in blocks {
            if let p = b.paragraph, let pr = props(b) {
                tokenizer.tokens(p.content.runs, keys: &keys, store: store)
                store.props.append(pr)
                store.tokens.append(Token(kind: .mark, key: Int32(keys.key("\u{3}\(pr.level)")), extra: Int32(store.props.count - 1)))
            } else {
                store.blocks.append(b)
                store.tokens.append(Token(kind: .block, key: Int32(keys.key("\u{4}\(Self.kindName(b))")), extra: Int32(store.blocks.count - 1)))
            }
        }
        return start..<store.tokens.count
    }

    /// A list kind as a reader sees it: `1.`, `4)` or `-`.
    static func numbering(_ k: ListKind) -> String {
        if case .ordered(let start, let delimiter) = k { return "\(start)\(delimiter)" } else { return "-" }
    }

    static func kindName(_ b: Block) -> String {
        switch b {
        case .paragraph: return "p"
        case .heading: return "h"
        case .blockQuote: return "quote"
        case .list(let l): if case .bullet = l.kind { return "ul" } else { return "ol" }
        case .codeBlock: return "code"
        case .table: return "table"
        case .thematicBreak: return "hr"
        case .raw(let f, _): return "raw:" + f
        }
    }

    /// Where to cut two runs of paragraphs: (i, j) such that old[..<i] and new[..<j] are compared apart from
    /// the rest, at each paragraph pair whose words mostly agree (containment of hashed word sets at least
    /// one half), found in order with a small look-ahead, and after each pair of paragraphs neither of which
    /// agrees with any paragraph in the look-ahead. The last cut is the end.
    static func pairCuts(_ old: [Block], _ new: [Block]) -> [(Int, Int)] {
        pairCuts(hashes: old.map(Self.wordHashes), new.map(Self.wordHashes))
    }

    /// `pairCuts` of paragraphs given by their `wordHashes`.
    static func pairCuts(hashes a: [[UInt64]], _ b: [[UInt64]]) -> [(Int, Int)] {
        func similar(_ x: [UInt64], _ y: [UInt64]) -> Bool {
            let m = min(x.count, y.count)
            if m == 0 { return x.count == y.count }
            return 2 * Self.commonCount(x, y) >= m
        }
        var cuts: [(Int, Int)] = []
        var i = 0, j = 0
        let window = 4
        while i < a.count && j < b.count {
            var found: (Int, Int)?
            search: for d in 0...(2 * window) {
                for x in 0...d where x <= window && d - x <= window {
                    let (ii, jj) = (i + x, j + d - x)
                    if ii < a.count && jj < b.count && similar(a[ii], b[jj]) { found = (ii, jj); break search }
                }
            }
            guard let (ii, jj) = found else {
                // Neither paragraph has a partner near: they are a replacement of each other, compared as a
                // piece of their own, so unrelated documents stay a chain of small pieces (linear work).
                cuts.append((i + 1, j + 1))
                i += 1; j += 1
                continue
            }
            // Cut after the pair: what came before it and the pair itself form one piece.
            cuts.append((ii + 1, jj + 1))
            i = ii + 1; j = jj + 1
        }
        // Drop a final cut at the very end (the loop below appends the end).
        if let l = cuts.last, l.0 == a.count || l.1 == b.count { cuts.removeLast() }
        cuts.append((a.count, b.count))
        return cuts
    }

    /// The distinct words of a block's text as sorted 64-bit FNV-1a hashes of their UTF-8 bytes (a word: a run
    /// of ASCII letters and digits or of non-ASCII bytes; good enough to tell which paragraphs pair, and about
    /// ten times cheaper than a `Set<Int>` of Unicode-classified words).
    static func wordHashes(_ b: Block) -> [UInt64] {
        var out: [UInt64] = []
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var inWord = false
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
            for c in bytes {
                let w = c >= 0x80 || (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
                if w {
                    h = (h ^ UInt64(c)) &* 0x100_0000_01b3
                    inWord = true
                } else if inWord {
                    out.append(h); h = 0xcbf2_9ce4_8422_2325; inWord = false
                }
            }
        }
        var text = b.plainText
        text.withUTF8 { scan($0) }
        if inWord { out.append(h) }
        out.sort()
        var n = 0
        for x in out where n == 0 || out[n - 1] != x { out[n] = x; n += 1 }
        out.removeLast(out.count - n)
        return out
    }

    /// How many values two sorted duplicate-free arrays share.
    static func commonCount(_ x: [UInt64], _ y: [UInt64]) -> Int {
        var i = 0, j = 0, n = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] { n += 1; i += 1; j += 1 } else if x[i] < y[j] { i += 1 } else { j += 1 }
        }
        return n
    }

    private mutating func pieceOps(_ old: [Block], _ new: [Block], followedByParagraph: Bool, into ops: inout [Op]) {
        if old.isEmpty && new.isEmpty { return }
        let ra = stream(old, tokenizer: oldTokenizer, store: oldStore)
        let rb = stream(new, tokenizer: newTokenizer, store: newStore)
        // Read-only views of both sides; released before the next piece appends to the stores.
        let at = oldStore.tokens, bt = newStore.tokens
        var aEnd = ra.upperBound, bEnd = rb.upperBound
        // A break with no paragraph after it to join: when both sides' last breaks have the same kind they
        // pair, so the last paragraph is edited in place rather than replaced.
        var forced: (Int, Int)?
        if !followedByParagraph, aEnd > ra.lowerBound, bEnd > rb.lowerBound, at[aEnd - 1].kind == .mark, bt[bEnd - 1].kind == .mark,
           oldStore.props(of: at[aEnd - 1])?.level == newStore.props(of: bt[bEnd - 1])?.level {
            forced = (aEnd - 1, bEnd - 1)
            aEnd -= 1; bEnd -= 1
        }
        var bIndex: [Int] = []     // diffed positions of b (comment anchors are not compared)
        bIndex.reserveCapacity(bEnd - rb.lowerBound)
        for j in rb.lowerBound..<bEnd where bt[j].kind != .comment { bIndex.append(j) }
        let bKeys = bIndex.map { Int(bt[$0].key) }
        let aKeys = (ra.lowerBound..<aEnd).map { Int(at[$0].key) }
        let matches = SequenceDiff.matches(aKeys, bKeys)
        var script: [Op] = []
        script.reserveCapacity(aEnd - ra.lowerBound + bEnd - rb.lowerBound)
        var pa = ra.lowerBound, pb = rb.lowerBound
        func emit(upTo i: Int, _ j: Int) {
            while pa < i { script.append(Op(kind: .delete, tok: Int32(pa))); pa += 1 }
            while pb < j {
                script.append(Op(kind: bt[pb].kind == .comment ? .pass : .insert, tok: Int32(pb))); pb += 1
            }
        }
        for (i0, jj) in matches {
            let i = ra.lowerBound + i0, j = bIndex[jj]
            emit(upTo: i, j)
            script.append(Op(kind: .equal, tok: Int32(j), other: Int32(i)))
            pa = i + 1; pb = j + 1
        }
        emit(upTo: aEnd, bEnd)
        cleanUp(&script, TokenView(old: at, new: bt))
        // After the clean-up: nothing may slide over the forced pair.
        if let (la, lb) = forced { script.append(Op(kind: .equal, tok: Int32(lb), other: Int32(la))) }
        ops += script
    }

    // MARK: Semantic clean-up

    /// Folds short equalities between changes into them (dmp's semantic rule: an equality no longer than
    /// the changes on both sides of it), puts each change's deletions before its insertions, and slides
    /// pure insertions and deletions to paragraph and word boundaries.
    private func cleanUp(_ ops: inout [Op], _ v: TokenView) {
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

    // MARK: Moves

    /// Pairs deleted and inserted spans of at least `minimumMoveWords` words with the same tokens.
    private mutating func findMoves(_ ops: inout [Op], _ v: TokenView) {
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

    // MARK: Building blocks

    /// The result's blocks from the edit script; `equalBlocks` (op index, block), in order, are kept whole.
    private mutating func build(_ ops: [Op], _ v: TokenView, equalBlocks: [EqualBlock], into out: inout [Block]) {
        guard let k = Self.buildSplit(ops, v, minimum: parallelMinimum) else {
            var seen = Set<Int32>()
            build(ops[...], v, equalBlocks: equalBlocks[...], movesSeen: &seen, into: &out)
            return
        }
        // The later half on a worker with its own counts, notes and warnings, absorbed after in order. It reads
        // the same stores; it compares no nested story (`buildSplit`), so it numbers no moves.
        var worker = self
        worker.keys = KeyTable()
        worker.stats = CompareStats()
        worker.notePairs = []; worker.deletedNotes = []; worker.insertedNotes = []
        worker.diagnostics = Diagnostics()
        let e = equalBlocks.firstIndex { $0.op >= k } ?? equalBlocks.count
        let laterEqual = equalBlocks[e...]
        var seen = Set<Int32>()
        var (_, done) = TwoThreads.run({
            self.build(ops[..<k], v, equalBlocks: equalBlocks[..<e], movesSeen: &seen, into: &out)
        }, {
            var w = worker
            var wSeen = Set<Int32>(), wOut: [Block] = []
            w.build(ops[k...], v, equalBlocks: laterEqual, movesSeen: &wSeen, into: &wOut)
            return (w, wSeen, wOut)
        })
        let (w, wSeen, wOut) = done
        out += wOut
        stats.add(w.stats)
        stats.moves -= seen.intersection(wSeen).count      // a move whose insertions both halves saw
        notePairs += w.notePairs; deletedNotes += w.deletedNotes; insertedNotes += w.insertedNotes
        diagnostics.absorb([w.diagnostics])
    }

    /// Where to cut the edit script for two builders: just after the first paragraph break at or past the
    /// middle that has no equal block token after it (an equal block is compared as a nested story, whose
    /// moves take the next numbers in order); nil for a script under `minimum` ops or with no such break.
    static func buildSplit(_ ops: [Op], _ v: TokenView, minimum: Int) -> Int? {
        guard ops.count >= max(minimum, 2) else { return nil }
        var from = ops.count / 2
        for i in stride(from: ops.count - 1, through: from, by: -1) where ops[i].kind == .equal && v.tok(ops[i]).kind == .block {
            from = i + 1
            break
        }
        var i = from
        while i < ops.count - 1 {
            if ops[i].kind != .pass && v.tok(ops[i]).kind == .mark { return i + 1 }
            i += 1
        }
        return nil
    }

    /// Builds blocks from a part of the edit script that starts at a paragraph's start; `equalBlocks` are
    /// those whose op index is in `ops`.
    private mutating func build(_ ops: ArraySlice<Op>, _ v: TokenView, equalBlocks: ArraySlice<EqualBlock>,
                                movesSeen: inout Set<Int32>, into out: inout [Block]) {
        var nextEqual = equalBlocks.startIndex
        var runs: [Run] = []
        func moveName(_ id: Int32) -> String { "move\(id + 1)" }
        // Equal text is gathered into spans of one source run, each materialized once.
        var span: (run: Int32, start: Int32, end: Int32, old: TextFormat?)?
        let store = newStore, oldSide = oldStore
        func flush() {
            guard let sp = span else { return }
            span = nil
            var r = store.runs[Int(sp.run)]
            if case .text(let s) = r.content {
                let u = s.utf8
                let a = u.index(u.startIndex, offsetBy: Int(sp.start)), b = u.index(u.startIndex, offsetBy: Int(sp.end))
                if sp.start != 0 || b != s.endIndex { r.content = .text(String(s[a..<b])) }
            }
            if let of = sp.old, of != r.format { r.formatChange = FormatChange(change: change, old: of) }
            runs.append(r)
        }
        for index in ops.indices {
            let op = ops[index]
            if nextEqual < equalBlocks.endIndex && equalBlocks[nextEqual].op == index {
                // Its note pairs are taken here, in reading order with the gaps' (compareNotes relies on it).
                let e = equalBlocks[nextEqual]
                flush(); recordNotePairs(e.old, e.new); out.append(e.new); nextEqual += 1; continue
            }
            let t = v.tok(op)
            let tStore = op.kind == .delete ? oldSide : store
            // The common case: an equal text token inside one source run, formatted as the span before it.
            if op.kind == .equal, t.kind != .atom, t.kind != .mark, t.kind != .block, t.count == 1, v.oldTok(op).count == 1 {
                let p = store.piece(of: t, 0)
                let of = options.ignoreFormatting ? nil : oldSide.firstFormat(of: v.oldTok(op))
                if p.start >= 0 {
                    if let sp = span, sp.run == p.run, sp.end == p.start, sp.old == of {
                        span!.end = p.end
                        continue
                    }
                    flush()
                    span = (p.run, p.start, p.end, of)
                    continue
                }
            }
            flush()
            switch t.kind {
            case .mark:
                var level: Int, style: ParagraphStyle
                var mark: ParagraphMarkChange?
                var styleChange: ParagraphStyleChange?
                switch op.kind {
                case .equal:
                    let o = oldSide.props(of: v.oldTok(op))!, n = store.props(of: t)!
                    level = n.level; style = n.style
                    if o.style != n.style && !options.ignoreFormatting {
                        styleChange = ParagraphStyleChange(change: change, old: o.style)
                        stats.paragraphStyleChanges += 1
                    }
                case .delete:
                    level = tStore.props(of: t)!.level; style = tStore.props(of: t)!.style; mark = .deleted(change)
                    stats.paragraphMarkChanges += 1
                default:
                    level = tStore.props(of: t)!.level; style = tStore.props(of: t)!.style; mark = .inserted(change)
                    stats.paragraphMarkChanges += 1
                }
                let content = InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs))
                count(content)
                runs = []
                let p = Paragraph(content, style: style, markChange: mark, styleChange: styleChange)
                out.append(level == 0 ? .paragraph(p) : .heading(level: level, p))
            case .block:
                // Text with no break of its own before a block. Only one side's own changes can be here, when
                // the clean-up slid them past the other side's block (OLD's deleted heading words before NEW's
                // inserted table): they stay pending for the paragraph whose break comes next, where rejecting
                // (or accepting) puts them back with that paragraph, and the block they passed goes. Anything
                // else cannot happen with well-formed streams and closes a paragraph of its own.
                let slidPast = (op.kind == .insert || op.kind == .delete)
                    && runs.allSatisfy { Self.isOnlyOnOneSide($0, insertedSide: op.kind == .delete) }
                if !runs.isEmpty && !slidPast {
                    out.append(.paragraph(Paragraph(InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs)))))
                    runs = []
                }
                switch op.kind {
                case .equal: out.append(compareContainer(oldSide.block(of: v.oldTok(op))!, store.block(of: t)!))
                case .delete: if let b = marked(tStore.block(of: t)!, inserted: false) { out.append(b) }
                case .insert: if let b = marked(tStore.block(of: t)!, inserted: true) { out.append(b) }
                case .pass: break
                }
            default:
                switch op.kind {
                case .equal:
                    appendEqual(t, v.oldTok(op), newSide: store, oldSide: oldSide, to: &runs)
                case .delete, .insert:
                    let ins = op.kind == .insert
                    if t.kind == .word { if ins { stats.wordsInserted += 1 } else { stats.wordsDeleted += 1 } }
                    let rc: RunChange
                    if op.move >= 0 {
                        rc = .move(Move(change: change, name: moveName(op.move), side: ins ? .to : .from))
                        if ins && movesSeen.insert(op.move).inserted { stats.moves += 1 }
                    } else {
                        rc = ins ? .insertion(change) : .deletion(change)
                    }
                    for var r in tStore.runs(of: t) {
                        if case .atom(.noteReference(let id)) = r.content {
                            if ins { insertedNotes.append(id) } else {
                                let newID = "old-" + id
                                deletedNotes.append((id, newID))
                                r.content = .atom(.noteReference(newID))
                            }
                        }
                        r.change = rc
                        r.formatChange = nil
                        runs.append(r)
                    }
                case .pass:
                    runs += tStore.runs(of: t)
                }
            }
        }
        flush()
        if !runs.isEmpty {
            out.append(.paragraph(Paragraph(InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs)))))
        }
    }

    /// Whether `run` is only in NEW (`insertedSide`) or only in OLD: inserted or moved to, deleted or moved from.
    private static func isOnlyOnOneSide(_ run: Run, insertedSide: Bool) -> Bool {
        switch run.change {
        case .insertion?: return insertedSide
        case .deletion?: return !insertedSide
        case .move(let m)?: return (m.side == .to) == insertedSide
        case nil: return false
        }
    }

    /// NEW's runs of an equal token, with a formatting change where OLD's formatting differs.
    private mutating func appendEqual(_ n: Token, _ o: Token, newSide: TokenStore, oldSide: TokenStore, to runs: inout [Run]) {
        let nRuns = newSide.runs(of: n)
        if n.kind == .atom, case .atom(.noteReference(let newID)) = nRuns.first?.content,
           case .atom(.noteReference(let oldID)) = oldSide.runs(of: o).first?.content {
            notePairs.append((oldID, newID))
        }
        if options.ignoreFormatting {
            runs += nRuns
            return
        }
        if n.count == 1 && o.count == 1 {
            var r = nRuns[0]
            if let of = oldSide.firstFormat(of: o), of != r.format { r.formatChange = FormatChange(change: change, old: of) }
            runs.append(r)
            return
        }
        // Pieces cut differently on the two sides: split at every boundary of either.
        var oldFormats: [TextFormat] = []
        for r in oldSide.runs(of: o) { if case .text(let s) = r.content { oldFormats += Array(repeating: r.format, count: s.count) } }
        var pos = 0
        for r in nRuns {
            guard case .text(let s) = r.content else { runs.append(r); continue }
            var chunk = ""
            var chunkOld: TextFormat?
            func flush() {
                guard !chunk.isEmpty else { return }
                var piece = r
                piece.content = .text(chunk)
                if let of = chunkOld, of != r.format { piece.formatChange = FormatChange(change: change, old: of) }
                runs.append(piece)
                chunk = ""
            }
            for ch in s {
                let of = pos < oldFormats.count ? oldFormats[pos] : r.format
                if !chunk.isEmpty && of != chunkOld { flush() }
                chunkOld = of
                chunk.append(ch)
                pos += 1
            }
            flush()
        }
    }

    /// Counts the marks of a built paragraph's content.
    private mutating func count(_ inlines: [Inline]) {
        for i in inlines {
            switch i {
            case .insertion: stats.insertions += 1
            case .deletion: stats.deletions += 1
            case .substitution: stats.substitutions += 1; stats.insertions += 1; stats.deletions += 1
            case .formatChange(_, let c): stats.formatChanges += 1; count(c)
            case .move: break
            default: count(i.children)
            }
        }
    }

    // MARK: Containers

    private mutating func compareContainer(_ old: Block, _ new: Block) -> Block {
        switch (old, new) {
        case (.table(let a), .table(let b)): return compareTable(a, b)
        case (.blockQuote(let a), .blockQuote(let b)): return .blockQuote(compareQuoted(a, b))
        case (.list(let a), .list(let b)): return compareList(a, b)
        default:
            if Self.strippingComments(old) != Self.strippingComments(new) {
                diagnostics.report(.compareUntrackedBlock,
                                   "a changed \(Self.kindName(new)) block cannot carry tracked changes: the new version is kept unmarked")
            }
            return new
        }
    }

    /// The stories of two paired quotes compared. An empty one (a lone `>`) is taken as one empty paragraph:
    /// otherwise the other side's last break is wholly inserted (deleted), and rejecting (accepting) removes the
    /// emptied quote where OLD (NEW) has it empty.
    private mutating func compareQuoted(_ old: [Block], _ new: [Block]) -> [Block] {
        let standIn = [Block.paragraph(Paragraph([]))]
        switch (old.isEmpty, new.isEmpty) {
        case (true, false): return compare(standIn, new)
        case (false, true): return compare(old, standIn)
        default: return compare(old, new)
        }
    }

    /// Whether a list item is an empty one: no blocks, or only empty paragraphs (what the Markdown reader gives
    /// for a bare `-`, depending on the items around it).
    static func isEmptyItem(_ item: [Block]) -> Bool {
        item.allSatisfy { if case .paragraph(let p) = $0 { return p.content.isEmpty } else { return false } }
    }

    private mutating func compareList(_ a: List, _ b: List) -> Block {
        if a.kind != b.kind {
            // Only a list's items carry marks: a new start number or delimiter cannot be tracked.
            diagnostics.report(.compareUntrackedBlock,
                               "a list's numbering changed (\(Self.numbering(a.kind)) → \(Self.numbering(b.kind))): the new numbering is kept unmarked")
        }
        var l = b
        // An empty item (no blocks, or only empty paragraphs: one item either way) pairs only with an empty one,
        // and is kept as NEW has it. Paired with an item that has text, rejecting would give OLD's empty item
        // holding NEW's comments, which cannot be told from NEW's inserted item kept for its comments (the
        // exactness check drops such an item); deleted and inserted whole, each side's item stays its own.
        l.items = pairUp(a.items, b.items,
                         key: { s, item in s.keys.key(.blockQuote(Self.isEmptyItem(item) ? [] : item.map(Self.strippingComments))) },
                         pairs: { x, y in Self.isEmptyItem(x) == Self.isEmptyItem(y) },
                         paired: { s, x, y in Self.isEmptyItem(y) ? y : s.compare(x, y) },
                         deleted: { s, x in s.markedStory(x, inserted: false, wholeContainer: true) },
                         inserted: { s, y in s.markedStory(y, inserted: true, wholeContainer: true) })
        return .list(l)
    }

    private mutating func compareTable(_ a: Table, _ b: Table) -> Block {
        var t = b
        if a.columns.count != b.columns.count {
            diagnostics.report(.compareTableColumns, "a table's columns changed: the new columns are kept")
        }
        let ka = a.rows.map { keys.key(.table(Table(columns: [], headerRowCount: 0, rows: [Self.stripRow($0)]))) }
        let kb = b.rows.map { keys.key(.table(Table(columns: [], headerRowCount: 0, rows: [Self.stripRow($0)]))) }
        // The result's first rows are its header rows, and review keeps as header rows those of them that stay:
        // exact when some first rows hold OLD's header rows and NEW's and no others. The rows aligned as a whole
        // leave no such place when an equal row changed sides (OLD's body row is NEW's header row) or NEW's
        // header rows, inserted, come after OLD's deleted ones (columns changed, so no row pairs): then header
        // rows are aligned with header rows and body rows with body rows.
        var plan = Self.rowPlan(ka[...], kb[...], a.rows, b.rows)
        var header = Self.headerEdge(plan, old: a.headerRowCount, new: b.headerRowCount)
        if header == nil {
            let ha = min(a.headerRowCount, a.rows.count), hb = min(b.headerRowCount, b.rows.count)
            let split = Self.rowPlan(ka[..<ha], kb[..<hb], a.rows, b.rows) + Self.rowPlan(ka[ha...], kb[hb...], a.rows, b.rows)
            if let edge = Self.headerEdge(split, old: a.headerRowCount, new: b.headerRowCount) { plan = split; header = edge }
        }
        t.rows = plan.map { step in
            switch step {
            case .paired(let i, let j):
                var row = b.rows[j]
                for c in row.cells.indices { row.cells[c].blocks = compare(a.rows[i].cells[c].blocks, row.cells[c].blocks) }
                return row
            case .deleted(let i):
                var row = a.rows[i]
                for c in row.cells.indices { row.cells[c].blocks = markedStory(row.cells[c].blocks, inserted: false) }
                row.change = .deleted(change); stats.rowChanges += 1
                return row
            case .inserted(let j):
                var row = b.rows[j]
                for c in row.cells.indices { row.cells[c].blocks = markedStory(row.cells[c].blocks, inserted: true) }
                row.change = .inserted(change); stats.rowChanges += 1
                return row
            }
        }
        t.headerRowCount = header ?? b.headerRowCount
        return .table(t)
    }

    /// How many first rows of `plan` hold exactly OLD's `old` header rows and NEW's `new` (0 when neither
    /// table has any), or nil when no first rows do.
    private static func headerEdge(_ plan: [RowStep], old: Int, new: Int) -> Int? {
        if old == 0 && new == 0 { return 0 }
        var acceptCount = 0, rejectCount = 0
        for (idx, step) in plan.enumerated() {
            if case .deleted = step {} else { acceptCount += 1 }
            if case .inserted = step {} else { rejectCount += 1 }
            if acceptCount == new && rejectCount == old { return idx + 1 }
        }
        return nil
    }

    /// One row of a compared table: OLD's row `i` paired with NEW's row `j`, deleted or inserted.
    private enum RowStep { case paired(Int, Int), deleted(Int), inserted(Int) }

    /// Rows of two ranges aligned (indices into OLD's and NEW's rows): equal rows by LCS of their keys, the
    /// rows between paired in order while they have as many cells, the rest deleted, then inserted.
    private static func rowPlan(_ ka: ArraySlice<Int>, _ kb: ArraySlice<Int>, _ a: [TableRow], _ b: [TableRow]) -> [RowStep] {
        let m = SequenceDiff.matches(Array(ka), Array(kb), cap: 256)
        var out: [RowStep] = []
        var pa = ka.startIndex, pb = kb.startIndex
        func gap(_ i: Int, _ j: Int) {
            while pa < i && pb < j && a[pa].cells.count == b[pb].cells.count { out.append(.paired(pa, pb)); pa += 1; pb += 1 }
            while pa < i { out.append(.deleted(pa)); pa += 1 }
            while pb < j { out.append(.inserted(pb)); pb += 1 }
        }
        for (i, j) in m {
            gap(ka.startIndex + i, kb.startIndex + j)
            out.append(.paired(ka.startIndex + i, kb.startIndex + j))
            pa = ka.startIndex + i + 1; pb = kb.startIndex + j + 1
        }
        gap(ka.endIndex, kb.endIndex)
        return out
    }

    private static func stripRow(_ r: TableRow) -> TableRow {
        var r = r
        for c in r.cells.indices { r.cells[c].blocks = r.cells[c].blocks.map(strippingComments) }
        return r
    }

    /// Aligns two arrays of stories (list items): equal ones by LCS, the others in order, paired where `pairs`
    /// allows, else the old one deleted and the new one inserted.
    private mutating func pairUp(_ a: [[Block]], _ b: [[Block]],
                                 key: (inout StoryComparer, [Block]) -> Int,
                                 pairs: ([Block], [Block]) -> Bool,
                                 paired: (inout StoryComparer, [Block], [Block]) -> [Block],
                                 deleted: (inout StoryComparer, [Block]) -> [Block],
                                 inserted: (inout StoryComparer, [Block]) -> [Block]) -> [[Block]] {
        var ka: [Int] = [], kb: [Int] = []
        for x in a { ka.append(key(&self, x)) }
        for y in b { kb.append(key(&self, y)) }
        let m = SequenceDiff.matches(ka, kb, cap: 256)
        var out: [[Block]] = []
        var pa = 0, pb = 0
        func gap(_ s: inout StoryComparer, _ i: Int, _ j: Int) {
            while pa < i && pb < j {
                if pairs(a[pa], b[pb]) {
                    out.append(paired(&s, a[pa], b[pb]))
                } else {
                    out.append(deleted(&s, a[pa]))
                    out.append(inserted(&s, b[pb]))
                }
                pa += 1; pb += 1
            }
            while pa < i { out.append(deleted(&s, a[pa])); pa += 1 }
            while pb < j { out.append(inserted(&s, b[pb])); pb += 1 }
        }
        for (i, j) in m {
            gap(&self, i, j)
            out.append(paired(&self, a[i], b[j]))
            pa = i + 1; pb = j + 1
        }
        gap(&self, a.count, b.count)
        return out
    }

    // MARK: Whole blocks inserted or deleted

    /// A story marked wholly inserted or deleted: every paragraph's text, and every break but the last, or
    /// with `wholeContainer` (a list item or quote that comes or goes whole) every break, so resolving the
    /// marks empties the container and it goes (`ReviewTransform` removes emptied containers). An empty
    /// container (an empty list item `-`, a lone `>`) has no break to mark: it gets one empty paragraph whose
    /// break carries the mark (as Word marks an empty numbered paragraph), which Markdown writes `{--` blank
    /// line `--}` and DOCX and RTF as a paragraph mark change; review keeps a container that was empty to begin
    /// with, so unmarked it stayed on accepting its deletion (rejecting its insertion).
    mutating func markedStory(_ blocks: [Block], inserted: Bool, wholeContainer: Bool = false) -> [Block] {
        if wholeContainer && blocks.isEmpty {
            stats.paragraphMarkChanges += 1
            return [.paragraph(Paragraph([], markChange: inserted ? .inserted(change) : .deleted(change)))]
        }
        var out: [Block] = []
        for (n, b) in blocks.enumerated() {
            guard var m = marked(b, inserted: inserted) else { continue }
            if !wholeContainer && (n == blocks.count - 1 || blocks[n + 1].paragraph == nil) {
                switch m {
                case .paragraph(var p): if p.markChange != nil { stats.paragraphMarkChanges -= 1 }; p.markChange = nil; m = .paragraph(p)
                case .heading(let l, var p): if p.markChange != nil { stats.paragraphMarkChanges -= 1 }; p.markChange = nil; m = .heading(level: l, p)
                default: break
                }
            }
            out.append(m)
        }
        return out
    }

    /// A block marked wholly inserted or deleted; nil for a deleted block the model cannot mark.
    private mutating func marked(_ b: Block, inserted: Bool) -> Block? {
        func markP(_ s: inout StoryComparer, _ p: Paragraph) -> Paragraph {
            var p = p
            var runs = p.content.runs
            var words = 0
            for k in runs.indices {
                if case .atom(let a) = runs[k].content {
                    switch a {
                    case .commentStart, .commentEnd, .commentPoint:
                        if !inserted { runs[k].content = .text("") }
                        continue
                    case .noteReference(let id):
                        if inserted { s.insertedNotes.append(id) } else {
                            s.deletedNotes.append((id, "old-" + id)); runs[k].content = .atom(.noteReference("old-" + id))
                        }
                    default: break
                    }
                }
                if case .text(let t) = runs[k].content {
                    var inWord = false
                    for ch in t { let w = Tokenizer.classify(ch) == .word; if w && !inWord { words += 1 }; inWord = w }
                }
                runs[k].change = inserted ? .insertion(s.change) : .deletion(s.change)
            }
            if inserted { s.stats.wordsInserted += words } else { s.stats.wordsDeleted += words }
            p.content = InlineBuilder.inlines(from: runs.filter { if case .text("") = $0.content { return false }; return true })
            if !p.content.isEmpty { if inserted { s.stats.insertions += 1 } else { s.stats.deletions += 1 } }
            p.markChange = inserted ? .inserted(s.change) : .deleted(s.change)
            s.stats.paragraphMarkChanges += 1
            return p
        }
        switch b {
        case .paragraph(let p): return .paragraph(markP(&self, p))
        case .heading(let l, let p): return .heading(level: l, markP(&self, p))
        case .table(var t):
            for r in t.rows.indices {
                for c in t.rows[r].cells.indices { t.rows[r].cells[c].blocks = markedStory(t.rows[r].cells[c].blocks, inserted: inserted) }
                t.rows[r].change = inserted ? .inserted(change) : .deleted(change)
                stats.rowChanges += 1
            }
            return .table(t)
        case .blockQuote(let c): return .blockQuote(markedStory(c, inserted: inserted, wholeContainer: true))
        case .list(var l):
            l.items = l.items.map { markedStory($0, inserted: inserted, wholeContainer: true) }
            return .list(l)
        case .codeBlock, .raw, .thematicBreak:
            diagnostics.report(.compareUntrackedBlock,
                               "an \(inserted ? "inserted" : "deleted") \(Self.kindName(b)) block cannot carry tracked changes: \(inserted ? "kept unmarked" : "left out")")
            return inserted ? b : nil
        }
    }
}

import RedlineCore

/// Gaps: the blocks of a gap between equal blocks as token streams, long runs of paragraphs cut where they
/// pair by their words, and each piece's edit script.
extension StoryComparer {
    private func props(_ b: Block) -> ParagraphProps? {
        switch b {
        case .paragraph(let p): return ParagraphProps(level: 0, style: p.style, textBox: p.textBox, blockField: p.blockField)
        case .heading(let l, let p):
            return ParagraphProps(level: l, style: p.style, textBox: p.textBox, blockField: p.blockField, headingAttributes: p.headingAttributes)
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
                // Kept relevelled, a list made numbered (or bulleted) pairs with its old self: its items are compared.
                var kind = Self.kindName(b)
                if options.keepRelevelled, case .list = b { kind = "list" }
                store.tokens.append(Token(kind: .block, key: Int32(keys.key("\u{4}\(kind)")), extra: Int32(store.blocks.count - 1)))
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

    mutating func pieceOps(_ old: [Block], _ new: [Block], followedByParagraph: Bool, into ops: inout [Op]) {
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
}

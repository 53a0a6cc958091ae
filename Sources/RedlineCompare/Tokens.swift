import RedlineCore

/// A paragraph's properties as its break carries them (as in Word, the break holds the paragraph's format).
struct ParagraphProps: Equatable {
    /// 0 for a body paragraph, 1...6 for a heading.
    var level: Int
    var style: ParagraphStyle
    /// The text box the paragraph is in (kept on the result's paragraph; `TextBoxPairing` makes OLD's NEW's).
    var textBox: TextBox?
    /// Where a field spanning paragraphs begins or ends (a table of contents): NEW's, kept on the result's paragraph.
    var blockField: BlockField? = nil
    /// A heading's pandoc attributes (`{#sec-intro}`): the side's own, kept on the result's heading (NEW's where
    /// the heading is in both).
    var headingAttributes: String? = nil
}

/// Where the runs, paragraph properties, blocks and tokens of one side of one story comparison live: tokens
/// hold indices into it and edit-script ops hold token indices, so a comparison of 600,000 words copies
/// neither a `Run` per word nor a token per op.
final class TokenStore {
    /// The source runs, whole (one entry per run of a tokenized paragraph).
    var runs: [Run] = []
    var pieces: [Piece] = []
    var props: [ParagraphProps] = []
    var blocks: [Block] = []
    /// Every token of this side, in stream order (each gap's tokens appended as it is compared).
    var tokens: [Token] = []

    /// The token's text pieces (one run each, split where the formatting or link changes) or its atom's run.
    func runs(of t: Token) -> [Run] {
        var out: [Run] = []
        out.reserveCapacity(t.count)
        for k in 0..<t.count {
            let p = piece(of: t, k)
            var r = runs[Int(p.run)]
            if p.start >= 0, case .text(let s) = r.content {
                let u = s.utf8
                let a = u.index(u.startIndex, offsetBy: Int(p.start)), b = u.index(u.startIndex, offsetBy: Int(p.end))
                r.content = .text(String(s[a..<b]))
            }
            out.append(r)
        }
        return out
    }

    /// The format of the token's first piece.
    func firstFormat(of t: Token) -> TextFormat? { t.count > 0 ? runs[Int(piece(of: t, 0).run)].format : nil }

    /// The token's `k`th piece: inline for a token of one piece, else in `pieces`.
    @inline(__always) func piece(of t: Token, _ k: Int) -> Piece {
        t.split ? pieces[Int(t.a) + k] : Piece(run: t.a, start: t.b, end: t.c)
    }
    func props(of t: Token) -> ParagraphProps? { t.kind == .mark ? props[Int(t.extra)] : nil }
    func block(of t: Token) -> Block? { t.kind == .block && t.extra >= 0 ? blocks[Int(t.extra)] : nil }
}

/// A part of a token inside one source run: UTF-8 offsets into its text (-1 for a whole atom or break run).
struct Piece {
    var run: Int32
    var start: Int32
    var end: Int32
}

/// One unit of comparison (24 bytes): a word, a whitespace run, a punctuation mark, a CJK character, an inline
/// atom (note reference, image, break), a paragraph break (`mark`), a non-paragraph block, or a comment anchor
/// of NEW (`comment`: carried through, never compared). Its runs, properties or block are in its side's store.
struct Token {
    enum Kind: UInt8 { case word, space, punct, atom, mark, block, comment }
    var kind: Kind
    /// The token's pieces are in the store's `pieces` (`a` the first's index, `b` their count); else its one
    /// piece is inline (`a` the run, `b` and `c` the UTF-8 offsets, -1 for an atom's whole run). Most tokens
    /// are one piece, so the store keeps pieces only for the few that cross a run boundary.
    var split = false
    /// Equal keys compare equal (text and link; the formatting is compared afterwards).
    var key: Int32
    var a: Int32 = -1
    var b: Int32 = 0
    var c: Int32 = 0
    var chars: Int32 = 0

    /// A text or atom token of one piece.
    init(kind: Kind, key: Int32, piece: Piece, chars: Int32) {
        self.kind = kind; self.key = key; a = piece.run; b = piece.start; c = piece.end; self.chars = chars
    }

    /// A token of several pieces: `count` of the store's pieces from `first`.
    init(kind: Kind, key: Int32, first: Int32, count: Int32, chars: Int32) {
        self.kind = kind; self.key = key; split = true; a = first; b = count; self.chars = chars
    }

    /// A paragraph break or block token: its properties or block by index in the store (-1: none).
    init(kind: Kind, key: Int32, extra: Int32 = -1) {
        self.kind = kind; self.key = key; a = extra
    }

    /// A mark's properties or a block, by index in the store.
    var extra: Int32 { a }
    /// How many pieces the token has (none for a break or block).
    var count: Int { kind == .mark || kind == .block ? 0 : split ? Int(b) : 1 }

    var characterCount: Int { Int(chars) }
}

/// Interns comparison keys as integers, shared by both sides of one comparison. Equal keys are equal as
/// Swift strings (canonical equivalence): a key that is all ASCII is interned by its bytes (`ByteInterner`:
/// no `String` and no SipHash per token), any other as a `String`, except one whose only non-ASCII scalars
/// are the three that are canonically ASCII (`canonicalASCII`), which goes in as those ASCII bytes.
struct KeyTable {
    private var ascii = ByteInterner()
    private var strings: [String: Int] = [:]
    private var blocks: [HashedBlock: Int] = [:]
    private var count = 0

    mutating func key(_ s: String) -> Int {
        var s = s
        return s.withUTF8 { key(bytes: $0) }
    }

    /// The key of a text given as UTF-8.
    mutating func key(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var isASCII = true
        for b in bytes where b >= 0x80 { isASCII = false; break }
        if isASCII { return asciiKey(bytes) }
        let s = String(decoding: bytes, as: UTF8.self)
        if let k = strings[s] { return k }
        if let folded = Self.canonicalASCII(s) {
            let k = folded.withUnsafeBufferPointer { asciiKey($0) }
            strings[s] = k
            return k
        }
        count += 1
        strings[s] = count
        return count
    }

    @inline(__always)
    private mutating func asciiKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let (k, added) = ascii.key(bytes, ifNew: Int32(count + 1))
        if added { count += 1 }
        return Int(k)
    }

    /// The ASCII string canonically equivalent to `s` (its non-ASCII scalars all among U+037E GREEK QUESTION
    /// MARK, U+1FEF GREEK VARIA and U+212A KELVIN SIGN, whose decompositions are `;`, `` ` `` and `K`), or nil.
    static func canonicalASCII(_ s: String) -> [UInt8]? {
        var out: [UInt8] = []
        for u in s.unicodeScalars {
            switch u.value {
            case 0..<0x80: out.append(UInt8(u.value))
            case 0x037E: out.append(0x3B)
            case 0x1FEF: out.append(0x60)
            case 0x212A: out.append(0x4B)
            default: return nil
            }
        }
        return out
    }

    mutating func key(_ b: Block) -> Int { key(HashedBlock(b)) }

    /// The key of a block whose hash is made already (on any thread).
    mutating func key(_ b: HashedBlock) -> Int {
        if let k = blocks[b] { return k }
        count += 1
        blocks[b] = -count
        return -count
    }
}

/// A block with its hash made once, wherever it was made: a table of blocks finds, rehashes and compares
/// it by that number, walking the block again only to confirm a match.
struct HashedBlock: Hashable {
    let block: Block
    let hash: Int
    init(_ block: Block) { self.block = block; hash = block.hashValue }
    func hash(into h: inout Hasher) { h.combine(hash) }
    static func == (x: HashedBlock, y: HashedBlock) -> Bool { x.hash == y.hash && x.block == y.block }
}

/// Byte strings interned as numbers: an open-addressing table (FNV-1a hashes, linear probing) over one
/// byte arena, so looking a token up costs a hash of its bytes and one comparison.
struct ByteInterner {
    private var slots = [Int32](repeating: -1, count: 1024)     // entry index, -1 empty
    private var hashes: [UInt64] = []
    private var starts: [Int32] = []
    private var ends: [Int32] = []
    private(set) var values: [Int32] = []
    private var arena: [UInt8] = []

    /// The value of `bytes`; when they are not in the table yet, `ifNew`, stored with them (and true).
    @inline(__always)
    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>, ifNew: Int32) -> (Int32, Bool) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
        while true {
            let e = Int(slots[i])
            if e < 0 { break }
            if hashes[e] == h && equal(e, bytes) { return (values[e], false) }
            i = (i + 1) & mask
        }
        let v = ifNew
        slots[i] = Int32(hashes.count)
        hashes.append(h)
        starts.append(Int32(arena.count))
        arena.append(contentsOf: bytes)
        ends.append(Int32(arena.count))
        values.append(v)
        if 2 * hashes.count > slots.count { grow() }
        return (v, true)
    }

    private func equal(_ e: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let s = Int(starts[e]), n = Int(ends[e]) - s
        guard n == bytes.count else { return false }
        return arena.withUnsafeBufferPointer { a in
            for k in 0..<n where a[s + k] != bytes[k] { return false }
            return true
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (e, h) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(e)
        }
    }

    /// Each entry's bytes and value, in the order they came.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>, Int32) -> Void) {
        arena.withUnsafeBufferPointer { a in
            for e in values.indices {
                body(UnsafeBufferPointer(rebasing: a[Int(starts[e])..<Int(ends[e])]), values[e])
            }
        }
    }
}

/// Cuts paragraphs into tokens.
struct Tokenizer {
    var granularity: CompareGranularity
    /// Comment anchors: dropped (OLD) or kept as `comment` tokens (NEW).
    var keepComments: Bool
    /// Word tokens keyed by their lowercased text (`CompareOptions.ignoreCase`).
    var foldCase = false
    /// A run of whitespace one token with one key (`CompareOptions.ignoreWhitespace`).
    var foldSpace = false
    /// Fields keyed by instruction and result; off, every field has one key (`CompareOptions.compareFields`).
    var compareFields = true

    enum CharClass { case word, space, single }

    @inline(__always)
    static func classify(_ c: Character) -> CharClass {
        guard let u = c.unicodeScalars.first else { return .single }
        let v = u.value
        if v < 0x80 {
            if (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39) { return .word }
            if v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D { return .space }
            return .single
        }
        if isCJK(v) { return .single }
        if c.isWhitespace { return .space }
        if c.isLetter || c.isNumber || u.properties.generalCategory == .nonspacingMark { return .word }
        return .single
    }

    /// Han, kana, CJK punctuation and compatibility forms, Thai/Lao/Khmer/Myanmar (no spaces between words).
    @inline(__always)
    static func isCJK(_ v: UInt32) -> Bool {
        (v >= 0x3000 && v <= 0x30FF) || (v >= 0x3400 && v <= 0x4DBF) || (v >= 0x4E00 && v <= 0x9FFF)
            || (v >= 0xF900 && v <= 0xFAFF) || (v >= 0xFF00 && v <= 0xFFEF) || (v >= 0x20000 && v <= 0x3FFFF)
            || (v >= 0x0E00 && v <= 0x0EFF) || (v >= 0x1780 && v <= 0x17FF) || (v >= 0x1000 && v <= 0x109F)
    }

    /// What makes two pictures the same picture: its content (the bytes' hash, when the document carries them;
    /// else its link), its displayed size in whole points (the document's, else the picture's natural size),
    /// its description and title. A picture whose bytes changed is a deletion and an insertion; so is one
    /// resized, since a format change (`TextFormat`) cannot carry a picture's size. The file name or link of a
    /// carried picture is not compared (DOCX has none; Markdown's names the same bytes).
    static func pictureKey(_ i: Image) -> String {
        let size = i.displaySize.map { "\(Int(($0.width).rounded()))x\(Int(($0.height).rounded()))" } ?? ""
        let content = i.media.map { "#" + $0.id } ?? i.source
        return "\(content)\u{1}\(size)\u{1}\(i.alt)\u{1}\(i.title)"
    }

    /// The tokens of one paragraph's runs (no break token), their runs kept in `store`.
    func tokens(_ runs: [Run], keys: inout KeyTable, store: TokenStore) {
        // The store's tokens are held here while the paragraph is cut: appending to a local array costs no
        // exclusivity check of a class property per token.
        var tokens = store.tokens
        store.tokens = []
        defer { store.tokens = tokens }
        var curOpen = false    // a token is being built
        var curClass = CharClass.single
        var curChars: Int32 = 0
        var firstPiece = Int32(store.pieces.count)
        var closedPieces = 0           // pieces of the open token in earlier runs (in `store.pieces` from `firstPiece`)
        var pieceStart: Int32 = -1     // UTF-8 offset where the open piece began in the current run
        var offset: Int32 = 0          // UTF-8 offset in the current run
        var runIndex: Int32 = -1
        var links = false
        // The current text run's string and whether it has a link: read without copying the `Run` back out
        // of the store for every token (a copy costs a retain and release of each of its fields).
        var curText = ""
        var curLinked = false

        func closePiece() {
            if pieceStart >= 0 && offset > pieceStart {
                store.pieces.append(Piece(run: runIndex, start: pieceStart, end: offset))
                closedPieces += 1
                if curLinked { links = true }
            }
            pieceStart = -1
        }
        func text(of p: Piece) -> Substring {
            if p.run == runIndex {
                let u = curText.utf8
                return curText[u.index(u.startIndex, offsetBy: Int(p.start))..<u.index(u.startIndex, offsetBy: Int(p.end))]
            }
            guard case .text(let s) = store.runs[Int(p.run)].content else { return "" }
            let u = s.utf8
            return s[u.index(u.startIndex, offsetBy: Int(p.start))..<u.index(u.startIndex, offsetBy: Int(p.end))]
        }
        /// Ends the open token; `bytes` are the current run's UTF-8 when the caller has them at hand.
        func closeToken(_ keys: inout KeyTable, _ bytes: UnsafeBufferPointer<UInt8>?) {
            let kind: Token.Kind = curClass == .word ? .word : curClass == .space ? .space : .punct
            if curOpen && closedPieces == 0 && pieceStart >= 0 && offset > pieceStart && !curLinked && !foldCase && !foldSpace {
                // The common case: one piece of the current run, no link. Its key from its bytes, no `String`.
                let k: Int
                if let bytes {
                    k = keys.key(bytes: UnsafeBufferPointer(rebasing: bytes[Int(pieceStart)..<Int(offset)]))
                } else {
                    var t = curText
                    k = t.withUTF8 { keys.key(bytes: UnsafeBufferPointer(rebasing: $0[Int(pieceStart)..<Int(offset)])) }
                }
                tokens.append(Token(kind: kind, key: Int32(k), piece: Piece(run: runIndex, start: pieceStart, end: offset), chars: curChars))
                pieceStart = -1
                curOpen = false
                curChars = 0
                return
            }
            closePiece()
            let n = Int32(closedPieces)
            closedPieces = 0
            guard curOpen, n > 0 else { firstPiece = Int32(store.pieces.count); curOpen = false; return }
            var k = n == 1 ? String(text(of: store.pieces[Int(firstPiece)])) : ""
            if n > 1 { for p in store.pieces[Int(firstPiece)...] { k += text(of: p) } }
            if foldCase && kind == .word { k = k.lowercased() }
            if foldSpace && kind == .space { k = " " }
            if links {
                for p in store.pieces[Int(firstPiece)...] {
                    let link = store.runs[Int(p.run)].link
                    k += "\u{1}\(p.end - p.start)\u{1}\(link?.url ?? "")\u{1}\(link?.title ?? "")"
                }
            }
            if n == 1 {
                tokens.append(Token(kind: kind, key: Int32(keys.key(k)), piece: store.pieces.removeLast(), chars: curChars))
            } else {
                tokens.append(Token(kind: kind, key: Int32(keys.key(k)), first: firstPiece, count: n, chars: curChars))
            }
            firstPiece = Int32(store.pieces.count)
            curOpen = false
            curChars = 0
            links = false
        }
        func atom(_ key: Int, _ keys: inout KeyTable, kind: Token.Kind = .atom) {
            closeToken(&keys, nil)
            tokens.append(Token(kind: kind, key: Int32(key), piece: Piece(run: runIndex, start: -1, end: -1), chars: 1))
            firstPiece = Int32(store.pieces.count)
        }

        for run in runs {
            switch run.content {
            case .text(let s):
                // A new run continues the current token in a new piece.
                closePiece()
                store.runs.append(run)
                runIndex = Int32(store.runs.count - 1)
                curText = s
                curLinked = run.link != nil
                offset = 0
                pieceStart = 0
                let u = s.utf8
                var native = s     // the string's own UTF-8 bytes, no copy for a native string
                native.withUTF8 { bytes in
                let n = bytes.count
                var i = 0
                while i < n {
                    let b = bytes[i]
                    let cls: CharClass
                    let len: Int
                    let apostrophe: Bool
                    if b < 0x80 && (i + 1 == n || bytes[i + 1] < 0x80) {
                        // ASCII not followed by a combining mark: one byte, one character.
                        len = 1
                        apostrophe = b == 0x27
                        if (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) { cls = .word }
                        else if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { cls = .space }
                        else { cls = .single }
                    } else {
                        let idx = u.index(u.startIndex, offsetBy: i)
                        let ch = s[idx]
                        len = ch.utf8.count
                        cls = Self.classify(ch)
                        apostrophe = ch == "'" || ch == "\u{2019}"
                    }
                    let joins: Bool
                    if !curOpen || granularity == .character {
                        joins = false
                    } else if curClass == .word && apostrophe {
                        joins = true
                    } else {
                        // Letters join into words; each whitespace character is a token of its own, so a
                        // double space left by a removed word still pairs with one of the single ones.
                        joins = (cls == .word && curClass == .word) || (foldSpace && cls == .space && curClass == .space)
                    }
                    if !joins {
                        if curOpen {
                            closeToken(&keys, bytes)
                        }
                        pieceStart = offset
                        curOpen = true
                        curClass = cls
                    }
                    curChars += 1
                    offset += Int32(len)
                    i += len
                }
                }
            case .lineBreak:
                closeToken(&keys, nil)
                store.runs.append(run)
                runIndex = Int32(store.runs.count - 1)
                // A break's key names the link it is in (as a picture's does): one linked on one side only
                // is a change, not an equal token whose NEW link would survive a reject.
                atom(keys.key(run.link.map { "\u{2}br\u{1}" + $0.url + "\u{1}" + $0.title } ?? "\u{2}br"), &keys)
            case .atom(let inline):
                closeToken(&keys, nil)
                switch inline {
                case .commentStart, .commentEnd, .commentPoint:
                    guard keepComments else { continue }
                    store.runs.append(run)
                    runIndex = Int32(store.runs.count - 1)
                    atom(0, &keys, kind: .comment)
                    continue
                default: break
                }
                store.runs.append(run)
                runIndex = Int32(store.runs.count - 1)
                if case .softBreak = inline, run.link == nil {
                    // A soft line break is a space to a reader: a re-wrapped line is no change. The equal token
                    // keeps NEW's form, so the exactness check folds it likewise (`ExactnessNormalization`).
                    atom(keys.key(" "), &keys, kind: .space)
                    continue
                }
                let key: String
                switch inline {
                case .noteReference: key = "\u{2}note"
                case .image(let i): key = "\u{2}img\u{1}\(Self.pictureKey(i))\u{1}\(run.link?.url ?? "")\u{1}\(run.link?.title ?? "")"
                case .softBreak: key = run.link.map { "\u{2}soft\u{1}" + $0.url + "\u{1}" + $0.title } ?? "\u{2}soft"
                case .raw(let f, let t): key = "\u{2}raw\u{1}\(f)\u{1}\(t)"
                // Equal TeX is the same equation; any other is the whole old one deleted, the new one inserted.
                case .math(let k, let t): key = "\u{2}math\u{1}\(k.rawValue)\u{1}\(t)\u{1}\(run.link?.url ?? "")"
                // A field is one unit: an instruction or a result changed is the old field deleted, the new inserted.
                case .field(let f, let result):
                    key = compareFields ? "\u{2}field\u{1}\(f.instruction)\u{1}\(result)\u{1}\(run.link?.url ?? "")" : "\u{2}field"
                default: key = "\u{2}\(inline)"
                }
                atom(keys.key(key), &keys)
            }
        }
        closeToken(&keys, nil)
    }
}

extension KeyTable {
    /// Room for `n` more block keys (a table that grows rehashes every block it holds).
    mutating func reserveBlocks(_ n: Int) { blocks.reserveCapacity(blocks.count + n) }

    /// For each key of `other` (by its number, blocks' negative numbers from the end), the key the same
    /// string or block has in this table, interned here if new. Key 0 (comment anchors, equal-block
    /// placeholders: never compared) stays 0.
    mutating func translation(of other: KeyTable) -> KeyTranslation {
        var positive = [Int32](repeating: 0, count: other.count + 1)
        var negative = [Int32](repeating: 0, count: other.count + 1)
        other.ascii.forEach { bytes, k in positive[Int(k)] = Int32(key(bytes: bytes)) }
        for (s, k) in other.strings { positive[k] = Int32(key(s)) }
        for (b, k) in other.blocks { negative[-k] = Int32(key(b)) }
        return KeyTranslation(positive: positive, negative: negative)
    }
}

/// Another table's keys in this one's numbers (`KeyTable.translation(of:)`).
struct KeyTranslation {
    var positive: [Int32]
    var negative: [Int32]
    @inline(__always) subscript(_ k: Int32) -> Int32 { k >= 0 ? positive[Int(k)] : negative[Int(-k)] }
}

extension TokenStore {
    /// Appends `other`'s runs, pieces, properties, blocks and tokens after this store's, each token's key
    /// translated and its indices shifted, emptying `other` as it goes; the index of `other`'s first token here.
    func append(_ other: TokenStore, keyMap: KeyTranslation) -> Int32 {
        let runBase = Int32(runs.count), pieceBase = Int32(pieces.count)
        let propBase = Int32(props.count), blockBase = Int32(blocks.count), tokenBase = Int32(tokens.count)
        runs += other.runs
        other.runs = []
        let pieceStart = pieces.count
        pieces += other.pieces
        other.pieces = []
        for i in pieceStart..<pieces.count { pieces[i].run += runBase }
        props += other.props
        blocks += other.blocks
        tokens += other.tokens
        other.tokens = []
        tokens.withUnsafeMutableBufferPointer { buf in
            for i in Int(tokenBase)..<buf.count {
                buf[i].key = keyMap[buf[i].key]
                switch buf[i].kind {
                case .mark: buf[i].a += propBase
                case .block: if buf[i].a >= 0 { buf[i].a += blockBase }
                default: buf[i].a += buf[i].split ? pieceBase : runBase
                }
            }
        }
        return tokenBase
    }
}

/// Two pieces of work at once: `second` on a `StackThread` (a large stack, as the comparison has) while
/// `first` runs on the calling thread; both results. When no thread can be started, `second` runs here after
/// `first`. The two must share nothing mutable.
enum TwoThreads {
    static func run<A, B>(_ first: () -> A, _ second: @escaping () -> B) -> (A, B) {
        let slot = ThreadSlot(second)
        let thread = StackThread.spawn(name: "redline-cmp") { slot.run() }
        let a = first()
        if let thread { thread.join() } else { slot.run() }
        return (a, slot.result!)
    }
}

/// The second thread's work and result. `@unchecked Sendable`: the spawned thread touches it until it ends,
/// the caller only after joining it.
private final class ThreadSlot<T>: @unchecked Sendable {
    let work: () -> T
    var result: T?
    init(_ work: @escaping () -> T) { self.work = work }
    func run() { result = work() }
}

import RedlineCore

/// A paragraph's properties as its break carries them (as in Word, the break holds the paragraph's format).
struct ParagraphProps: Equatable {
    /// 0 for a body paragraph, 1...6 for a heading.
    var level: Int
    var style: ParagraphStyle
}

/// One unit of comparison: a word, a whitespace run, a punctuation mark, a CJK character, an inline atom
/// (note reference, image, break), a paragraph break (`mark`), a non-paragraph block, or a comment anchor of
/// NEW (`comment`: carried through, never compared).
struct Token {
    enum Kind: UInt8 { case word, space, punct, atom, mark, block, comment }
    var kind: Kind
    /// Equal keys compare equal (text and link; the formatting is compared afterwards).
    var key: Int
    /// The text pieces (one run each, split where the formatting or link changes) or the atom's run.
    var runs: [Run]
    var props: ParagraphProps?
    var block: Block?

    var characterCount: Int {
        var n = 0
        for r in runs { if case .text(let s) = r.content { n += s.count } else { n += 1 } }
        return n
    }
}

/// Interns comparison keys as integers, shared by both sides of one comparison.
struct KeyTable {
    private var strings: [String: Int] = [:]
    private var blocks: [Block: Int] = [:]

    mutating func key(_ s: String) -> Int {
        if let k = strings[s] { return k }
        let k = strings.count + blocks.count + 1
        strings[s] = k
        return k
    }

    mutating func key(_ b: Block) -> Int {
        if let k = blocks[b] { return k }
        let k = -(blocks.count + 1)
        blocks[b] = k
        return k
    }
}

/// Cuts paragraphs into tokens.
struct Tokenizer {
    var granularity: CompareGranularity
    /// Comment anchors: dropped (OLD) or kept as `comment` tokens (NEW).
    var keepComments: Bool

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

    /// The tokens of one paragraph's runs (no break token).
    func tokens(_ runs: [Run], keys: inout KeyTable, into out: inout [Token]) {
        var cur = ""          // text of the token being built
        var curClass = CharClass.single
        var pieces: [Run] = []
        var pieceText = ""
        var pieceRun: Run?

        func closePiece() {
            if let r = pieceRun, !pieceText.isEmpty {
                var p = r; p.content = .text(pieceText); pieces.append(p)
            }
            pieceText = ""
        }
        func closeToken(_ keys: inout KeyTable, _ out: inout [Token]) {
            closePiece()
            guard !cur.isEmpty else { pieces = []; return }
            var k = cur
            if pieces.contains(where: { $0.link != nil }) {
                for p in pieces {
                    if case .text(let s) = p.content { k += "\u{1}\(s.count)\u{1}\(p.link?.url ?? "")" }
                }
            }
            let kind: Token.Kind = curClass == .word ? .word : curClass == .space ? .space : .punct
            out.append(Token(kind: kind, key: keys.key(k), runs: pieces))
            pieces = []
            cur = ""
        }

        for run in runs {
            switch run.content {
            case .text(let s):
                // A new run continues the current token in a new piece.
                closePiece()
                pieceRun = run
                for ch in s {
                    let cls = Self.classify(ch)
                    let apostrophe = ch == "'" || ch == "\u{2019}"
                    let joins: Bool
                    if cur.isEmpty || granularity == .character {
                        joins = false
                    } else if curClass == .word && apostrophe {
                        joins = true
                    } else {
                        joins = cls != .single && cls == curClass
                    }
                    if !joins {
                        if !cur.isEmpty {
                            closeToken(&keys, &out)
                            pieceRun = run
                        }
                        curClass = cls
                    }
                    cur.append(ch)
                    pieceText.append(ch)
                }
            case .lineBreak:
                closeToken(&keys, &out)
                out.append(Token(kind: .atom, key: keys.key("\u{2}br"), runs: [run]))
            case .atom(let inline):
                closeToken(&keys, &out)
                switch inline {
                case .commentStart, .commentEnd, .commentPoint:
                    if keepComments { out.append(Token(kind: .comment, key: 0, runs: [run])) }
                case .noteReference:
                    out.append(Token(kind: .atom, key: keys.key("\u{2}note"), runs: [run]))
                case .image(let i):
                    out.append(Token(kind: .atom, key: keys.key("\u{2}img\u{1}\(i.source)\u{1}\(i.alt)\u{1}\(i.title)\u{1}\(run.link?.url ?? "")"), runs: [run]))
                case .softBreak:
                    out.append(Token(kind: .atom, key: keys.key("\u{2}soft"), runs: [run]))
                case .raw(let f, let t):
                    out.append(Token(kind: .atom, key: keys.key("\u{2}raw\u{1}\(f)\u{1}\(t)"), runs: [run]))
                default:
                    out.append(Token(kind: .atom, key: keys.key("\u{2}\(inline)"), runs: [run]))
                }
            }
        }
        closeToken(&keys, &out)
    }
}

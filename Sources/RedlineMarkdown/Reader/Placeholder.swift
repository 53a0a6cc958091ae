import RedlineCore

/// The CriticMarkup pre-pass replaces each mark delimiter (and each bracketed span) with a placeholder
/// before cmark-gfm parses the text: `⸪ K D D D ⸪`, where ⸪ (U+2E2A) is a Unicode punctuation mark (so
/// emphasis next to a placeholder behaves as next to `{++`), K (U+E000 + kind) is a Private Use Area
/// character naming the kind, and the three D (U+E100 + digit) give the index of the entry in the
/// scanner's table in base 256. cmark passes these characters through untouched as text.
/// Private Use Area characters U+E000...U+E1FF already in the input are themselves replaced by
/// `literal` placeholders, so input cannot forge a placeholder.
enum Placeholder {
    /// What a placeholder stands for.
    enum Kind: UInt8 {
        /// Text restored as it was (an input character in the reserved range).
        case literal = 0
        case changeOpen, changeSwitch, changeClose
        case highlightOpen, highlightClose
        /// A comment (point or range start) with its replies.
        case comment
        /// The end of a comment range in milestone form `{>>/name<<}`.
        case commentEnd
        /// A paragraph style change `{>>@Ann [style-change …]<<}`.
        case styleChange
        case spanOpen, spanClose
        /// A footnote reference `[^label]` whose definition exists.
        case noteReference
        /// A table row's or cell's change `{>>@Ann [row-deleted]<<}` (see `BlockMark`).
        case blockMark
        /// TeX math `$…$` or `$$…$$`, kept from cmark (no escapes, no emphasis inside).
        case math
        /// pandoc's inline note `^[…]`, its text read as the note's own Markdown.
        case inlineNote
    }

    static let sentinel: Unicode.Scalar = "\u{2E2A}"
    static let sentinelUTF8: [UInt8] = [0xE2, 0xB8, 0xAA]
    static let maxIndex = Limits.maxCriticMarks

    /// The UTF-8 bytes of the placeholder for entry `index` of `kind`.
    static func bytes(_ kind: Kind, _ index: Int) -> [UInt8] {
        var out = sentinelUTF8
        append(scalar: 0xE000 + UInt32(kind.rawValue), to: &out)
        append(scalar: 0xE100 + UInt32((index >> 16) & 0xFF), to: &out)
        append(scalar: 0xE100 + UInt32((index >> 8) & 0xFF), to: &out)
        append(scalar: 0xE100 + UInt32(index & 0xFF), to: &out)
        out += sentinelUTF8
        return out
    }

    private static func append(scalar v: UInt32, to out: inout [UInt8]) {
        // Three-byte UTF-8 (U+0800...U+FFFF).
        out.append(UInt8(0xE0 | (v >> 12)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    }

    /// A piece of text: plain text, or a placeholder.
    enum Piece: Equatable {
        case text(Substring)
        case mark(Kind, Int)
    }

    /// True when `s` may contain a placeholder (fast check on the UTF-8 bytes).
    static func mayContain(_ s: String) -> Bool {
        s.utf8.contains(0xEE)
    }

    /// Splits `s` into text and placeholders.
    static func pieces(_ s: String) -> [Piece] {
        guard mayContain(s) else { return [.text(s[...])] }
        var out: [Piece] = []
        let scalars = s.unicodeScalars
        var textStart = scalars.startIndex
        var i = scalars.startIndex
        while i < scalars.endIndex {
            if scalars[i] == sentinel, let (kind, index, end) = decode(scalars, at: i) {
                if textStart < i { out.append(.text(Substring(scalars[textStart..<i]))) }
                out.append(.mark(kind, index))
                i = end
                textStart = end
            } else {
                i = scalars.index(after: i)
            }
        }
        if textStart < scalars.endIndex { out.append(.text(Substring(scalars[textStart...]))) }
        return out
    }

    private static func decode(_ s: String.UnicodeScalarView, at start: String.Index)
        -> (Kind, Int, String.Index)? {
        var i = s.index(after: start)
        var values: [UInt32] = []
        for _ in 0..<4 {
            guard i < s.endIndex else { return nil }
            values.append(s[i].value)
            i = s.index(after: i)
        }
        guard i < s.endIndex, s[i] == sentinel,
              values[0] >= 0xE000, values[0] < 0xE100,
              let kind = Kind(rawValue: UInt8(values[0] - 0xE000)) else { return nil }
        var index = 0
        for v in values[1...] {
            guard v >= 0xE100, v < 0xE200 else { return nil }
            index = index << 8 | Int(v - 0xE100)
        }
        return (kind, index, s.index(after: i))
    }

    /// The bytes of one placeholder.
    static let byteCount = 18

    /// Whether every placeholder in `bytes` is of a kind `allowed` takes (looked at as bytes: the sentinel, then
    /// the kind's scalar, U+E000 + kind, in three).
    static func holdsOnly(_ bytes: ArraySlice<UInt8>, _ allowed: (Kind) -> Bool) -> Bool {
        let s = sentinelUTF8
        var k = bytes.startIndex
        while k + 5 < bytes.endIndex {
            guard bytes[k] == s[0], bytes[k + 1] == s[1], bytes[k + 2] == s[2] else { k += 1; continue }
            let value = UInt32(bytes[k + 3] & 0x0F) << 12 | UInt32(bytes[k + 4] & 0x3F) << 6 | UInt32(bytes[k + 5] & 0x3F)
            guard value >= 0xE000, value < 0xE100, let kind = Kind(rawValue: UInt8(value - 0xE000)), allowed(kind) else { return false }
            k += byteCount
        }
        return true
    }

    /// The placeholder starting at byte `k` of `text` (ending by `end`), if one does.
    static func decode(_ text: [UInt8], at k: Int, end: Int) -> (Kind, Int)? {
        guard k + byteCount <= end, text[k] == 0xE2, text[k + 1] == 0xB8, text[k + 2] == 0xAA,
              text[k + 15] == 0xE2, text[k + 16] == 0xB8, text[k + 17] == 0xAA else { return nil }
        func scalar(_ at: Int) -> UInt32? {
            let a = text[at], b = text[at + 1], c = text[at + 2]
            guard a & 0xF0 == 0xE0, b & 0xC0 == 0x80, c & 0xC0 == 0x80 else { return nil }
            return UInt32(a & 0x0F) << 12 | UInt32(b & 0x3F) << 6 | UInt32(c & 0x3F)
        }
        guard let k0 = scalar(k + 3), k0 >= 0xE000, k0 < 0xE100, let kind = Kind(rawValue: UInt8(k0 - 0xE000)) else { return nil }
        var index = 0
        for n in 0..<3 {
            guard let v = scalar(k + 6 + 3 * n), v >= 0xE100, v < 0xE200 else { return nil }
            index = index << 8 | Int(v - 0xE100)
        }
        return (kind, index)
    }

    /// True for a scalar in the range placeholders use (input scalars there are escaped).
    static func isReserved(_ v: UInt32) -> Bool { v >= 0xE000 && v < 0xE200 }
}

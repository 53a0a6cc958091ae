import RedlineCore

/// Parses the last line of a huge paragraph in pieces, so cmark-gfm never holds the tree of the whole
/// paragraph (about 170 bytes a node, three nodes a run: a million runs took 510 MB; PERFORMANCE.md,
/// "Small runs"). Each piece gives exactly the inlines the whole line gives there.
///
/// Where a cut is safe. The text `S = X + Y` is cut between two ASCII letters or digits, or after spaces and
/// before one or a run of `*`/`_` and one (see `cut(atOrAfter:)`): so no escape, entity, line end or delimiter
/// run straddles the cut, a delimiter run next to it sees white space or a letter on that side both ways
/// (cmark reads the start and end of a text as white space), and `Y`, one line starting so, is one
/// paragraph. The spaces before `Y`, which cmark drops at the end of `X`, are put back as text. cmark parses inlines left to right and decides each construct at its start by
/// looking ahead; parsing `X` alone and parsing `S` agree up to the first look-ahead that reaches the end of
/// `X`. Those are: a code span's closing backticks, an autolink or raw HTML (`<`), an entity (`&`, at most
/// 34 bytes), a link's destination, title or label after `]`, and the text run at the cut (its two halves
/// are joined back). Each failed look-ahead leaves a literal character in `X`'s text: a backtick, `<`, `[` or
/// `]`; an unmatched `*`, `_` or `~` is the only way `X` can leave an opener for a closer in `Y` (cmark
/// matches each closer with the nearest opener before it, and `X`'s closers come before `Y`'s), and an
/// unclosed `[` the only way `Y`'s `]` can reach back. So the cut is taken only when `X` parsed alone has
/// none of `` ` < [ ] * _ ~ `` in any text node, no `&` in its last 64 bytes, and, when link reference
/// definitions are in scope, no `](` (a failed inline link `[a](…` can still resolve `[a]` as a shortcut
/// reference); else the piece grows (doubling, so the work stays linear). Then the delimiter and bracket
/// stacks are empty at the cut and no later construct can reach across it. The first piece also carries
/// the blocks before the paragraph; the line must end its paragraph (a blank line or the group's end
/// follows), and the first piece must end in a top-level paragraph that does not start with `[` (link
/// reference definitions) or `:` (a fenced div line), whose text passes the same test.
/// `ParagraphPiecesTests` compares piecewise and whole parsing on random inline Markdown.
struct ParagraphPieces: Sendable {
    /// Sizes: a line of at least `hugeLine` bytes is read in pieces of about `piece` bytes.
    struct Sizes: Sendable {
        var piece = 64 * 1024
        var hugeLine = 256 * 1024
        static let standard = Sizes()
    }

    /// The whole text and the line being cut (`line` ends before its newline).
    let text: [UInt8]
    let line: Range<Int>
    let sizes: Sizes
    /// Parses a byte range (with the link definitions it uses in front) as a document.
    let parse: @Sendable (Range<Int>) throws -> (root: MDNode, hasDefinitions: Bool)
    /// Where the next piece starts.
    private(set) var position: Int
    /// Where the parsed range starts (the walk back over the paragraph's lines stops there).
    private var lowerLimit = 0

    init(text: [UInt8], line: Range<Int>, from start: Int, sizes: Sizes,
         parse: @escaping @Sendable (Range<Int>) throws -> (root: MDNode, hasDefinitions: Bool)) {
        self.text = text
        self.line = line
        self.sizes = sizes
        self.parse = parse
        position = start
    }

    /// The long line of `range` to read in pieces: the first line of at least `sizes.hugeLine` bytes that
    /// a blank line or the range's end follows.
    static func hugeLine(in text: [UInt8], _ range: Range<Int>, sizes: Sizes) -> Range<Int>? {
        guard range.count >= sizes.hugeLine else { return nil }
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start
            while end < range.upperBound, text[end] != UInt8(ascii: "\n") { end += 1 }
            if end - start >= sizes.hugeLine, isBlankOrEnd(text, after: end, range) { return start..<end }
            start = end + 1
        }
        return nil
    }

    private static func isBlankOrEnd(_ text: [UInt8], after end: Int, _ range: Range<Int>) -> Bool {
        var k = end + 1
        while k < range.upperBound, text[k] == UInt8(ascii: " ") || text[k] == UInt8(ascii: "\t") { k += 1 }
        return k >= range.upperBound || text[k] == UInt8(ascii: "\n")
    }

    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || isDigit(b)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// The first cut at or after `k` in the line, or nil. Between two ASCII letters or digits; or after spaces
    /// (which follow a character that is not white space), before a letter or digit or before a run of `*` or
    /// `_` and a letter or digit, which cannot start a block. Never where the rest starts like an ordered list
    /// item (`12.` or `12)` then a space or the line's end).
    /// A cut after spaces is preferred when one comes within 4 KiB (emphasis seldom spans a space, and often a
    /// whole word).
    func cut(atOrAfter k: Int) -> Int? {
        var c = max(k, line.lowerBound + 2)
        var inWord: Int?
        while c < line.upperBound {
            if Self.isAlphanumeric(text[c - 1]) {
                if inWord == nil, Self.isAlphanumeric(text[c]), !startsListItem(at: c) { inWord = c }
            } else if text[c - 1] == UInt8(ascii: " "), startsInline(at: c) {
                var s = c - 1
                while s > line.lowerBound, text[s - 1] == UInt8(ascii: " ") { s -= 1 }
                if s > line.lowerBound, !Self.isWhiteSpace(text[s - 1]) { return c }
            }
            if let w = inWord, c - w >= 4096 { return w }
            c += 1
        }
        return inWord
    }

    private static func isWhiteSpace(_ b: UInt8) -> Bool {
        b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == 0x0B || b == 0x0C || b == UInt8(ascii: "\r") || b == UInt8(ascii: "\n")
    }

    /// A letter or digit (not an ordered list marker), or a run of `*` or `_` then one, at `c`.
    private func startsInline(at c: Int) -> Bool {
        var k = c
        if text[k] == UInt8(ascii: "*") || text[k] == UInt8(ascii: "_") {
            let d = text[k]
            while k < line.upperBound, text[k] == d { k += 1 }
            return k < line.upperBound && Self.isAlphanumeric(text[k])
        }
        return Self.isAlphanumeric(text[k]) && !startsListItem(at: c)
    }

    /// The spaces just before `position` (cmark drops them at the end of the piece before; they are text).
    private var gap: String {
        var s = position
        while s > line.lowerBound, text[s - 1] == UInt8(ascii: " ") { s -= 1 }
        return String(repeating: " ", count: position - s)
    }

    private func startsListItem(at c: Int) -> Bool {
        var k = c
        while k < line.upperBound, Self.isDigit(text[k]) { k += 1 }
        guard k > c, k < line.upperBound, text[k] == UInt8(ascii: ".") || text[k] == UInt8(ascii: ")") else { return false }
        return k + 1 == line.upperBound || text[k + 1] == UInt8(ascii: " ") || text[k + 1] == UInt8(ascii: "\t")
    }

    /// The first piece: the range's text up to a safe cut in the line, parsed; its last block is the paragraph
    /// the line ends. Nil when no cut is safe (the range is then parsed whole).
    mutating func first(of range: Range<Int>) throws -> MDNode? {
        lowerLimit = range.lowerBound
        var size = sizes.piece
        while let c = cut(atOrAfter: line.lowerBound + size) {
            let (root, defs) = try parse(range.lowerBound..<c)
            if let last = root.children.last, last.kind == .paragraph, startsPlainly(),
               isSafe(last, before: c, from: range.lowerBound, defs: defs) {
                position = c
                return root
            }
            size *= 2
        }
        return nil
    }

    /// The next piece's inlines (the children of its one paragraph), nil after the line's end.
    mutating func next() throws -> [MDNode]? {
        guard position < line.upperBound else { return nil }
        var size = sizes.piece
        while true {
            let c = cut(atOrAfter: position + size)
            let end = c ?? line.upperBound
            let (root, defs) = try parse(position..<end)
            guard root.children.count == 1, let p = root.children.first, p.kind == .paragraph else {
                // Cannot happen (such a line is one paragraph); parse the rest whole.
                if c == nil { throw RedlineError.malformed("a piece of a long Markdown line did not parse as one paragraph") }
                size = line.upperBound - position
                continue
            }
            if c == nil || isSafe(p, before: end, from: position, defs: defs) {
                var nodes = p.children
                let spaces = gap
                if !spaces.isEmpty {
                    if nodes.first?.kind == .text { nodes[0].literal = spaces + nodes[0].literal } else {
                        var t = MDNode(kind: .text)
                        t.literal = spaces
                        nodes.insert(t, at: 0)
                    }
                }
                position = end
                return nodes
            }
            size *= 2
        }
    }

    /// No line of the block of non-blank lines ending with the long line starts with `[` (a link reference
    /// definition, which cmark takes from a paragraph's start, could have its title cut) or `:` (a fenced div
    /// line, which the converter reads from the paragraph's first line).
    private func startsPlainly() -> Bool {
        var start = line.lowerBound
        while true {
            var k = start
            while k < line.upperBound, text[k] == UInt8(ascii: " ") || text[k] == UInt8(ascii: "\t") { k += 1 }
            if k < text.count, text[k] == UInt8(ascii: "[") || text[k] == UInt8(ascii: ":") { return false }
            guard start > lowerLimit else { return true }
            // The line before: stop at a blank one.
            var s = start - 1
            while s > lowerLimit, text[s - 1] != UInt8(ascii: "\n") { s -= 1 }
            if text[s..<(start - 1)].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return true }
            start = s
        }
    }

    /// No look-ahead from the text before `cut` reaches it (see the type's comment).
    private func isSafe(_ paragraph: MDNode, before cut: Int, from start: Int, defs: Bool) -> Bool {
        if Self.isAlphanumeric(text[cut - 1]) {
            // The text run at the cut, whose halves are joined back.
            guard let last = paragraph.children.last, last.kind == .text, last.literal.utf8.last.map(Self.isAlphanumeric) == true else { return false }
        }
        for k in max(start, cut - 64)..<cut where text[k] == UInt8(ascii: "&") { return false }
        if defs {
            var k = start
            while k + 1 < cut {
                if text[k] == UInt8(ascii: "]"), text[k + 1] == UInt8(ascii: "(") { return false }
                k += 1
            }
        }
        return !Self.hasLiteralDelimiter(paragraph.children)
    }

    /// True when a text node (at any depth) holds one of `` ` < [ ] * _ ~ ``.
    static func hasLiteralDelimiter(_ nodes: [MDNode]) -> Bool {
        for n in nodes {
            if n.kind == .text {
                for b in n.literal.utf8 {
                    switch b {
                    case UInt8(ascii: "`"), UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "]"),
                         UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                        return true
                    default: continue
                    }
                }
            } else if hasLiteralDelimiter(n.children) {
                return true
            }
        }
        return false
    }
}

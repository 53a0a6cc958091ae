/// A block's shape as a hash: what two readings of one block (Markdown's, and DOCX's of what Redline wrote from
/// it) share, whatever each format adds (paragraph styles, list tightness, table widths) or joins (a soft line
/// break reads back from DOCX as a space). Kept Markdown source (`SourceText`) travels through DOCX keyed by it
/// and is checked against it before it is written.
public enum BlockShape {
    /// The key of `block` (FNV-1a, 64 bits, in hex: the same in every run): its kind and structure, text with
    /// soft line breaks as spaces, formatting, links, code and equations; nil for a block holding what the key
    /// does not cover (pictures, notes, comments, changes, fields, raw content, character styles, cell spans).
    public static func key(_ block: Block) -> String? {
        var h = Hash()
        guard h.block(block) else { return nil }
        return String(h.value, radix: 16)
    }

    /// The FNV-1a hash of a block's shape; structure marks are a NUL and a letter, a NUL of the text two NULs.
    private struct Hash {
        var fnv = FNV1a()
        var value: UInt64 { fnv.value }

        mutating func byte(_ b: UInt8) { fnv.add(b) }

        mutating func tag(_ c: Character) {
            byte(0)
            for b in c.utf8 { byte(b) }
        }

        mutating func string(_ s: String) {
            for b in s.utf8 {
                if b == 0 { byte(0) }
                byte(b)
            }
        }

        mutating func number(_ n: Int) { string(String(n)); tag(";") }

        mutating func blocks(_ bs: [Block]) -> Bool {
            for b in bs { guard block(b) else { return false } }
            tag(")")
            return true
        }

        mutating func block(_ b: Block) -> Bool {
            switch b {
            case .paragraph(let p):
                guard p.markChange == nil, p.styleChange == nil else { return false }
                tag("P")
                return inlines(p.content)
            case .heading(let level, let p):
                guard p.markChange == nil, p.styleChange == nil else { return false }
                tag("H")
                number(level)
                return inlines(p.content)
            case .list(let l):
                tag("L")
                switch l.kind {
                case .bullet: tag("b")
                case .ordered(let start, let delimiter):
                    tag("o")
                    number(start)
                    string(String(delimiter))
                }
                for item in l.items {
                    tag("I")
                    guard blocks(item) else { return false }
                }
                tag(")")
                return true
            case .blockQuote(let bs):
                tag("Q")
                return blocks(bs)
            case .codeBlock(let c):
                tag("C")
                string(c.infoString)
                tag("|")
                string(c.text)
                tag(")")
                return true
            case .thematicBreak:
                tag("-")
                return true
            case .table(let t):
                tag("T")
                for c in t.columns { string(c.rawValue); tag(",") }
                number(t.headerRowCount)
                for row in t.rows {
                    guard row.change == nil else { return false }
                    tag("R")
                    for cell in row.cells {
                        guard cell.columnSpan == 1, cell.rowSpan == 1, cell.change == nil else { return false }
                        tag("c")
                        guard blocks(cell.blocks) else { return false }
                    }
                }
                tag(")")
                return true
            case .raw:
                return false
            }
        }

        mutating func inlines(_ content: [Inline]) -> Bool {
            for i in content {
                switch i {
                case .text(let s): string(s)
                case .softBreak: byte(UInt8(ascii: " "))
                case .lineBreak: tag("n")
                case .emphasis(let c): guard wrapped("e", c) else { return false }
                case .strong(let c): guard wrapped("s", c) else { return false }
                case .strikethrough(let c): guard wrapped("x", c) else { return false }
                case .underline(let c): guard wrapped("u", c) else { return false }
                case .superscript(let c): guard wrapped("^", c) else { return false }
                case .subscript(let c): guard wrapped("_", c) else { return false }
                case .smallCaps(let c): guard wrapped("k", c) else { return false }
                case .highlight(let c): guard wrapped("h", c) else { return false }
                case .code(let s):
                    tag("`")
                    string(s)
                    tag(")")
                case .link(let l, let c):
                    tag("l")
                    string(l.url)
                    tag("|")
                    string(l.title)
                    tag("|")
                    guard inlines(c) else { return false }
                    tag(")")
                case .math(let kind, let tex):
                    tag(kind == .display ? "M" : "m")
                    string(tex)
                    tag(")")
                case .styled, .image, .raw, .noteReference, .field, .insertion, .deletion, .substitution, .move,
                     .formatChange, .commentStart, .commentEnd, .commentPoint:
                    return false
                }
            }
            tag(")")
            return true
        }

        mutating func wrapped(_ t: Character, _ c: [Inline]) -> Bool {
            tag(t)
            return inlines(c)
        }
    }
}

/// FNV-1a, 64 bits: a hash that is the same in every run and on every machine (Swift's `Hasher` is seeded per
/// process), for keys a document keeps (`BlockShape`, the DOCX writer's kept sources).
public struct FNV1a: Sendable {
    /// The hash of the bytes added so far.
    public private(set) var value: UInt64 = 0xcbf29ce484222325

    public init() {}

    /// Adds one byte.
    public mutating func add(_ b: UInt8) {
        value ^= UInt64(b)
        value = value &* 0x100000001b3
    }

    /// Adds the bytes of `bytes`.
    public mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for b in bytes { add(b) }
    }
}

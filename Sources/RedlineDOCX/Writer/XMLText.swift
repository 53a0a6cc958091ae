import RedlineCore

/// A growing piece of XML as UTF-8 bytes, with escaping. The DOCX writer builds every part with it:
/// fast (no DOM), and the output is exactly what was appended, so it is deterministic.
struct XMLText {
    private(set) var bytes: [UInt8] = []
    /// Set on the document body's buffer only: once an element closes with `spillSize` bytes or more
    /// gathered, they are handed to it (and removed), so one huge paragraph is written out as it goes
    /// instead of held whole (PERFORMANCE.md, "Small runs"). The body is only ever appended to.
    var spill: ((inout [UInt8]) -> Void)?
    static let spillSize = 1 << 20

    init() {}

    /// True when nothing was appended.
    var isEmpty: Bool { bytes.isEmpty }

    /// The number of bytes held (a mark for `removeLast`).
    var count: Int { bytes.count }

    /// Takes back the last `n` bytes appended (something written in place that turned out empty).
    mutating func removeLast(_ n: Int) {
        bytes.removeLast(n)
    }

    /// Appends markup as is (tags the writer spells out itself).
    /// Copied from the string's own UTF-8 storage: `append(contentsOf: s.utf8)` went through the generic
    /// sequence copy, ~170 instructions for a tag of a few bytes, four to six times a run
    /// (PERFORMANCE.md, "Small runs").
    mutating func raw(_ s: String) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if done == nil { bytes.append(contentsOf: s.utf8) }
    }

    /// Appends a whole element (or nothing) written before, handing the bytes on as `close` does.
    mutating func appendElement(_ element: [UInt8]) {
        bytes.append(contentsOf: element)
        if bytes.count >= Self.spillSize, let spill { spill(&bytes) }
    }

    /// Puts the bytes held inside `<tag>` and `</tag>`.
    mutating func wrap(_ tag: String) {
        var inner: [UInt8] = []
        swap(&inner, &bytes)
        open(tag)
        bytes.append(contentsOf: inner)
        close(tag)
    }

    /// Appends another piece.
    mutating func append(_ other: XMLText) {
        bytes.append(contentsOf: other.bytes)
    }

    /// `<tag a="v"...>`
    mutating func open(_ tag: String, _ attributes: [(String, String)] = []) {
        bytes.append(UInt8(ascii: "<"))
        raw(tag)
        attrs(attributes)
        bytes.append(UInt8(ascii: ">"))
    }

    /// `</tag>`
    mutating func close(_ tag: String) {
        raw("</")
        raw(tag)
        bytes.append(UInt8(ascii: ">"))
        if bytes.count >= Self.spillSize, let spill { spill(&bytes) }
    }

    /// `<tag a="v"/>`
    mutating func empty(_ tag: String, _ attributes: [(String, String)] = []) {
        bytes.append(UInt8(ascii: "<"))
        raw(tag)
        attrs(attributes)
        raw("/>")
    }

    /// `<tag w:val="value"/>`, the most common WordprocessingML property.
    /// Written as `empty(tag, [("w:val", value)])` writes it, without the attribute array (one allocation
    /// per property of every run).
    mutating func val(_ tag: String, _ value: String) {
        bytes.append(UInt8(ascii: "<"))
        raw(tag)
        raw(" w:val=\"")
        escape(value, quotes: true)
        raw("\"/>")
    }

    /// `<tag>text</tag>` with the text escaped.
    mutating func element(_ tag: String, _ attributes: [(String, String)] = [], text: String) {
        open(tag, attributes)
        self.text(text)
        close(tag)
    }

    /// Appends character data, escaped, without characters XML 1.0 forbids.
    mutating func text(_ s: String) {
        escape(s, quotes: false)
    }

    private mutating func attrs(_ attributes: [(String, String)]) {
        for (name, value) in attributes {
            bytes.append(UInt8(ascii: " "))
            raw(name)
            raw("=\"")
            escape(value, quotes: true)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func escape(_ s: String, quotes: Bool) {
        (quotes ? MarkupEscaper.xmlAttribute : .xmlText).escape(s, into: &bytes)
    }

    /// Removes the bytes (keeping the capacity, unless a huge block grew it: `ReusableBuffer`).
    mutating func removeAll() {
        if bytes.capacity > 64 * ReusableBuffer.keptCapacity { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
    }
}

/// The XML declaration every part starts with.
let xmlDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"

/// Namespaces of WordprocessingML and the packaging conventions.
enum NS {
    static let w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    static let r = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let wp = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
    static let v = "urn:schemas-microsoft-com:vml"
    static let mc = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    static let w14 = "http://schemas.microsoft.com/office/word/2010/wordml"
    static let w15 = "http://schemas.microsoft.com/office/word/2012/wordml"
    static let w16cid = "http://schemas.microsoft.com/office/word/2016/wordml/cid"
    static let packageRels = "http://schemas.openxmlformats.org/package/2006/relationships"
    static let contentTypes = "http://schemas.openxmlformats.org/package/2006/content-types"
    static let officeRels = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
}

/// A link target.
public struct Link: Hashable, Sendable, Codable {
    /// URL, or `#name` for an internal anchor (a DOCX bookmark, a Scrivener document).
    public var url: String
    public var title: String
    /// The reference label a Markdown author gave the link (`[text][label]` with `[label]: url` elsewhere): the
    /// Markdown writer writes a reference link and its definition again. Not part of the value, as
    /// `Image.attributes` is not: the link goes to the same place either way.
    public var label: String?

    public init(url: String, title: String = "", label: String? = nil) {
        self.url = url
        self.title = title
        self.label = label
    }

    public static func == (a: Link, b: Link) -> Bool { a.url == b.url && a.title == b.title }

    public func hash(into h: inout Hasher) {
        h.combine(url)
        h.combine(title)
    }
}

/// A picture: where it came from (`source`: a path or URL as the document spells it; empty for a picture
/// embedded in DOCX or RTF), its alt text, its displayed size, and, when the document carries the bytes,
/// the `MediaItem` in the reader's `MediaStore` (a content-hash id and a temporary file, never the bytes).
public struct Image: Hashable, Sendable, Codable {
    public var source: String
    public var title: String
    public var alt: String
    /// The picture's bytes, when the document carries them (embedded, or a local file loaded for a writer
    /// that embeds). Writers that link resolve it to a file name; writers that embed read its bytes.
    public var media: MediaItem?
    /// Displayed width and height in points, when the document gives a size.
    public var width: Double?
    public var height: Double?
    /// The attribute list a Markdown author wrote after the picture, between its braces (`#fig-x width=50%`):
    /// written back as it is (its width and height are also the displayed size above). Not part of the value,
    /// as `Metadata.source` is not: two pictures of the same size, alt text and source are equal.
    public var attributes: String?

    public static func == (a: Image, b: Image) -> Bool {
        a.source == b.source && a.title == b.title && a.alt == b.alt && a.media == b.media && a.width == b.width && a.height == b.height
    }

    public func hash(into h: inout Hasher) {
        h.combine(source)
        h.combine(title)
        h.combine(alt)
        h.combine(media)
        h.combine(width)
        h.combine(height)
    }

    public init(source: String, title: String = "", alt: String = "", media: MediaItem? = nil,
                width: Double? = nil, height: Double? = nil, attributes: String? = nil) {
        self.source = source
        self.title = title
        self.alt = alt
        self.media = media
        self.width = width
        self.height = height
        self.attributes = attributes
    }

    /// The displayed size in points: the document's, else the picture's natural size (with the missing
    /// side in proportion), else nil.
    public var displaySize: (width: Double, height: Double)? {
        let natural = media?.info?.pointSize
        switch (width, height) {
        case let (w?, h?): return (w, h)
        case let (w?, nil): return natural.map { (w, w * $0.height / $0.width) }
        case let (nil, h?): return natural.map { (h * $0.width / $0.height, h) }
        case (nil, nil): return natural
        }
    }
}

/// A field (Word's `w:fldChar`/`w:fldSimple`, RTF's `\field`): the instruction that computes it (`PAGE`,
/// `REF _Ref123 \h`, `SEQ Figure \* ARABIC`, `DATE \@ "d MMMM yyyy"`), kept so a writer that has fields
/// writes the field again; its last computed result is the inline's children.
public struct FieldCode: Hashable, Sendable, Codable {
    /// The instruction as the document spells it, without the spaces around it.
    public var instruction: String

    public init(instruction: String) {
        let u = instruction.unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        if let first = u.firstIndex(where: { !isSpace($0) }), let last = u.lastIndex(where: { !isSpace($0) }) {
            self.instruction = String(u[first...last])
        } else {
            self.instruction = ""
        }
    }

    /// The field's kind, upper-cased: the instruction's first word (`PAGE`, `REF`, `SEQ`, `TOC`).
    public var kind: String {
        String(instruction.prefix { $0 != " " && $0 != "\t" && $0 != "\\" }).uppercased()
    }
}

/// Whether an equation sits in the line of text (TeX `$…$`) or on a line of its own (`$$…$$`).
public enum MathKind: String, Hashable, Sendable, Codable {
    case inline
    case display
}

/// Inline content: text, formatting, links, review marks and comment anchors.
///
/// Formatting nests (`.strong([.emphasis([.text("x")])])`). Run-based formats go through `TextFormat`,
/// `InlineBuilder` (runs to inlines, in canonical nesting order) and `Inline.runs` (inlines to runs).
///
/// Only the cases with a large payload are `indirect` (boxed): text, code, the formatting toggles and the
/// anchors are held in place, so an inline is 24 bytes and a text or a bold span costs no box of its own
/// (a paragraph of a million runs allocated one box per inline; PERFORMANCE.md, "Small runs";
/// `RunLayoutTests` guards it).
public enum Inline: Hashable, Sendable, Codable {
    case text(String)
    case emphasis([Inline])
    case strong([Inline])
    case strikethrough([Inline])
    case underline([Inline])
    case superscript([Inline])
    case `subscript`([Inline])
    case smallCaps([Inline])
    /// Highlighted text with no comment attached (CriticMarkup `{==…==}` alone, Word's highlight).
    case highlight([Inline])
    /// Font, size, colours, caps, named character style.
    indirect case styled(CharacterStyle, [Inline])
    case code(String)
    indirect case link(Link, [Inline])
    indirect case image(Image)
    /// A hard line break inside a paragraph.
    case lineBreak
    /// A line ending in the source that is not a break (Markdown's soft break; renders as a space).
    case softBreak
    /// Source-format content kept verbatim (e.g. inline HTML in Markdown). `format` is "html", "rtf", ...
    indirect case raw(format: String, text: String)
    /// A reference to a footnote or endnote in the document's notes.
    case noteReference(String)
    /// An equation, as its TeX source (`$…$` or `$$…$$` in Markdown, OMML in DOCX). A leaf: its plain text
    /// is the TeX, and compare treats a changed equation as the whole old one deleted, the new one inserted.
    indirect case math(MathKind, String)
    /// A field with its result (a page number, a cross-reference's text, a figure number). Flattened to runs
    /// it is one atom, as a picture is: a field's parts cannot be split by a change or a link.
    indirect case field(FieldCode, [Inline])

    // Review marks.
    indirect case insertion(Change, [Inline])
    indirect case deletion(Change, [Inline])
    /// A deletion paired with an insertion by the same hand (CriticMarkup `{~~old~>new~~}`).
    indirect case substitution(Change, deleted: [Inline], inserted: [Inline])
    indirect case move(Move, [Inline])
    indirect case formatChange(FormatChange, [Inline])

    /// Start of the range of the comment with this id.
    case commentStart(String)
    /// End of the range of the comment with this id.
    case commentEnd(String)
    /// A comment anchored at a point, with no range.
    case commentPoint(String)
}

extension Inline {
    /// The children of a container inline (for a substitution, deleted then inserted); empty for leaves.
    public var children: [Inline] {
        switch self {
        case .emphasis(let c), .strong(let c), .strikethrough(let c), .underline(let c), .superscript(let c),
             .subscript(let c), .smallCaps(let c), .highlight(let c), .styled(_, let c), .link(_, let c),
             .insertion(_, let c), .deletion(_, let c), .move(_, let c), .formatChange(_, let c), .field(_, let c):
            return c
        case .substitution(_, let d, let i):
            return d + i
        case .text, .code, .image, .lineBreak, .softBreak, .raw, .noteReference, .math,
             .commentStart, .commentEnd, .commentPoint:
            return []
        }
    }

    /// This inline with its children rewritten by `transform` (leaves are returned unchanged).
    public func mapChildren(_ transform: ([Inline]) throws -> [Inline]) rethrows -> Inline {
        switch self {
        case .emphasis(let c): return .emphasis(try transform(c))
        case .strong(let c): return .strong(try transform(c))
        case .strikethrough(let c): return .strikethrough(try transform(c))
        case .underline(let c): return .underline(try transform(c))
        case .superscript(let c): return .superscript(try transform(c))
        case .subscript(let c): return .subscript(try transform(c))
        case .smallCaps(let c): return .smallCaps(try transform(c))
        case .highlight(let c): return .highlight(try transform(c))
        case .styled(let s, let c): return .styled(s, try transform(c))
        case .link(let l, let c): return .link(l, try transform(c))
        case .insertion(let ch, let c): return .insertion(ch, try transform(c))
        case .deletion(let ch, let c): return .deletion(ch, try transform(c))
        case .move(let m, let c): return .move(m, try transform(c))
        case .formatChange(let f, let c): return .formatChange(f, try transform(c))
        case .field(let f, let c): return .field(f, try transform(c))
        case .substitution(let ch, let d, let i): return .substitution(ch, deleted: try transform(d), inserted: try transform(i))
        case .text, .code, .image, .lineBreak, .softBreak, .raw, .noteReference, .math,
             .commentStart, .commentEnd, .commentPoint:
            return self
        }
    }
}

extension Array where Element == Inline {
    /// The plain text of these inlines as a reader sees it with every change shown
    /// (deleted and inserted text alike; breaks as newlines, soft breaks as spaces).
    public var plainText: String {
        var out = ""
        appendPlainText(to: &out)
        return out
    }

    func appendPlainText(to out: inout String) {
        for inline in self {
            switch inline {
            case .text(let s), .code(let s), .math(_, let s): out += s
            case .lineBreak: out += "\n"
            case .softBreak: out += " "
            case .image(let i): out += i.alt
            case .raw, .noteReference, .commentStart, .commentEnd, .commentPoint: break
            default: inline.children.appendPlainText(to: &out)
            }
        }
    }
}

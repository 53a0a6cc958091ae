/// A metadata value: text, or a list of texts.
public enum MetadataValue: Hashable, Sendable, Codable {
    case text(String)
    case list([String])

    /// The value as a list (a text is a list of one).
    public var strings: [String] {
        switch self {
        case .text(let s): return [s]
        case .list(let l): return l
        }
    }
}

/// Document metadata, as ordered key/value fields (YAML front matter, DOCX core properties, RTF `\info`).
/// Well-known keys: `title`, `author` (a list), `date`, `created`, `modified`, `subject`, `keywords`.
public struct Metadata: Hashable, Sendable, Codable {
    /// One field.
    public struct Field: Hashable, Sendable, Codable {
        public var key: String
        public var value: MetadataValue

        public init(key: String, value: MetadataValue) {
            self.key = key
            self.value = value
        }
    }

    public var fields: [Field]
    /// The front matter as its author wrote it (YAML, between the `---` lines), where the document came from
    /// Markdown: written back as it is, nested keys, comments and order kept, with only the fields that changed
    /// rewritten. Not part of the value: two metadata with the same fields are equal.
    public var source: String?

    public init(fields: [Field] = [], source: String? = nil) {
        self.fields = fields
        self.source = source
    }

    public static func == (a: Metadata, b: Metadata) -> Bool { a.fields == b.fields }
    public func hash(into h: inout Hasher) { h.combine(fields) }

    /// The value of `key`, if set.
    public subscript(key: String) -> MetadataValue? {
        get { fields.first { $0.key == key }?.value }
        set {
            if let i = fields.firstIndex(where: { $0.key == key }) {
                if let v = newValue { fields[i].value = v } else { fields.remove(at: i) }
            } else if let v = newValue {
                fields.append(Field(key: key, value: v))
            }
        }
    }

    public var title: String? { self["title"]?.strings.first }
    public var authors: [String] { self["author"]?.strings ?? [] }
    public var date: String? { self["date"]?.strings.first }
    public var isEmpty: Bool { fields.isEmpty }
}

/// Whether a note is a footnote or an endnote.
public enum NoteKind: String, Hashable, Sendable, Codable { case footnote, endnote }

/// A footnote or endnote, referenced from the text by `Inline.noteReference(id)`.
public struct Note: Hashable, Sendable, Codable {
    public var id: String
    public var kind: NoteKind
    public var blocks: [Block]
    /// Written in Markdown as pandoc's inline note `^[…]` where it reads back so (one paragraph), not as a
    /// `[^id]` reference and a definition; kept through DOCX and RTF.
    public var isInline: Bool {
        get { inline ?? false }
        set { inline = newValue ? true : nil }
    }
    private var inline: Bool?

    public init(id: String, kind: NoteKind = .footnote, blocks: [Block]) {
        self.id = id
        self.kind = kind
        self.blocks = blocks
    }
}

/// What a source knows before its first block: metadata and document-wide defaults.
public struct DocumentHeader: Hashable, Sendable, Codable {
    public var metadata: Metadata
    /// The document's default paragraph formatting (DOCX `docDefaults`, RTF's first `\pard`, a preset).
    public var defaultParagraphStyle: ParagraphStyle
    /// The document's default character formatting.
    public var defaultCharacterStyle: CharacterStyle
    /// Even pages have their own headers and footers (DOCX settings `w:evenAndOddHeaders`, RTF `\facingp`):
    /// document-wide, as both formats keep it.
    public var evenAndOddHeaders: Bool

    public init(metadata: Metadata = Metadata(), defaultParagraphStyle: ParagraphStyle = ParagraphStyle(),
                defaultCharacterStyle: CharacterStyle = CharacterStyle(), evenAndOddHeaders: Bool = false) {
        self.metadata = metadata
        self.defaultParagraphStyle = defaultParagraphStyle
        self.defaultCharacterStyle = defaultCharacterStyle
        self.evenAndOddHeaders = evenAndOddHeaders
    }

    enum CodingKeys: String, CodingKey { case metadata, defaultParagraphStyle, defaultCharacterStyle, evenAndOddHeaders }

    /// Decodes a header; `evenAndOddHeaders` may be absent (encodings made before it existed).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        metadata = try c.decode(Metadata.self, forKey: .metadata)
        defaultParagraphStyle = try c.decode(ParagraphStyle.self, forKey: .defaultParagraphStyle)
        defaultCharacterStyle = try c.decode(CharacterStyle.self, forKey: .defaultCharacterStyle)
        evenAndOddHeaders = try c.decodeIfPresent(Bool.self, forKey: .evenAndOddHeaders) ?? false
    }

    /// Encodes a header; `evenAndOddHeaders` only when set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(metadata, forKey: .metadata)
        try c.encode(defaultParagraphStyle, forKey: .defaultParagraphStyle)
        try c.encode(defaultCharacterStyle, forKey: .defaultCharacterStyle)
        if evenAndOddHeaders { try c.encode(true, forKey: .evenAndOddHeaders) }
    }
}

/// The unit that streams through the stage chain: one top-level block, with the comments and notes
/// whose anchors or references first appear in it (so a writer has their bodies when it meets them).
/// A reply travels in the same chunk as its parent comment.
public struct Chunk: Hashable, Sendable, Codable {
    public var block: Block
    public var comments: [Comment]
    public var notes: [Note]
    /// The document's last section (the page after the last section break), on the last chunk only.
    public var finalSection: Section?

    public init(_ block: Block, comments: [Comment] = [], notes: [Note] = [], finalSection: Section? = nil) {
        self.block = block
        self.comments = comments
        self.notes = notes
        self.finalSection = finalSection
    }
}

/// A whole document in memory: for tests, the library API and small inputs. The pipeline streams chunks.
public struct Document: Hashable, Sendable, Codable {
    public var header: DocumentHeader
    public var blocks: [Block]
    /// Comments and replies in reading order of their anchors (a reply right after its parent).
    public var comments: [Comment]
    public var notes: [Note]
    /// The document's last section (DOCX's body-level `w:sectPr`, RTF's last section); nil when unstated.
    public var finalSection: Section?

    public init(header: DocumentHeader = DocumentHeader(), blocks: [Block], comments: [Comment] = [], notes: [Note] = [],
                finalSection: Section? = nil) {
        self.header = header
        self.blocks = blocks
        self.comments = comments
        self.notes = notes
        self.finalSection = finalSection
    }

    public var metadata: Metadata {
        get { header.metadata }
        set { header.metadata = newValue }
    }

    /// Collects everything a source yields.
    public init(reading source: inout some ChunkSource) throws {
        self.init(header: source.header, blocks: [])
        while let chunk = try source.next() { append(chunk) }
    }

    /// Adds one chunk's block, comments and notes.
    public mutating func append(_ chunk: Chunk) {
        blocks.append(chunk.block)
        comments += chunk.comments
        notes += chunk.notes
        if let s = chunk.finalSection { finalSection = s }
    }

    /// The document as chunks, comments and notes attached by `ChunkAttacher`'s rule: each travels with the
    /// first block that references it (replies with their root, what a note or comment references with it);
    /// those referenced nowhere travel with the last block.
    public var chunks: [Chunk] {
        var attacher = ChunkAttacher(comments: comments, notes: notes)
        var out = blocks.map { attacher.chunk(for: $0) }
        let left = attacher.takeUnreferenced()
        if !left.comments.isEmpty || !left.notes.isEmpty {
            if out.isEmpty { out.append(Chunk(.paragraph(Paragraph([])))) }
            out[out.count - 1].comments += left.comments
            out[out.count - 1].notes += left.notes
        }
        if let s = finalSection {
            if out.isEmpty { out.append(Chunk(.paragraph(Paragraph([])))) }
            out[out.count - 1].finalSection = s
        }
        return out
    }
}

extension DocumentHeader {
    /// Whether the source has formatting of its own (default styles: a DOCX or RTF source), whose paragraphs then
    /// carry their complete formatting; false for Markdown, to which writers add the look of their choosing
    /// (styles for headings and notes, figure captions).
    public var hasOwnFormatting: Bool { !defaultParagraphStyle.isEmpty || !defaultCharacterStyle.isEmpty }
}

/// Options every reader understands.
public struct ReadOptions: Sendable, Codable {
    /// Hard limits against hostile input.
    public var limits: Limits

    public init(limits: Limits = Limits()) { self.limits = limits }
}

/// Safety limits for untrusted input.
public struct Limits: Sendable, Codable {
    /// Total bytes a container (zip) may inflate to.
    public var maxInflatedBytes: UInt64 = 2 << 30
    /// Bytes one zip entry may inflate to.
    public var maxEntryBytes: UInt64 = 1 << 30
    /// Largest compression ratio an entry may have (zip bombs compress at 1000:1 and more).
    public var maxCompressionRatio: UInt64 = 200
    /// Deepest nesting of groups, elements or blocks.
    public var maxNesting: Int = 10_000

    public init() {}
}

/// Options every writer understands.
public struct WriteOptions: Sendable, Codable {
    /// Paragraph formatting applied where the source has none (Markdown sources).
    public var paragraphPreset: ParagraphStyle?
    /// Character formatting applied where the source has none.
    public var characterPreset: CharacterStyle?
    /// Keep paragraph and character formatting in Markdown as pandoc-style attributes.
    public var preserveFormatting: Bool
    /// Write review marks as CriticMarkup (Markdown); when false they are resolved with a warning.
    public var criticMarkup: Bool
    /// A reference document whose styles a writer uses (DOCX).
    public var referenceDocument: String?

    public init(paragraphPreset: ParagraphStyle? = nil, characterPreset: CharacterStyle? = nil,
                preserveFormatting: Bool = false, criticMarkup: Bool = true, referenceDocument: String? = nil) {
        self.paragraphPreset = paragraphPreset
        self.characterPreset = characterPreset
        self.preserveFormatting = preserveFormatting
        self.criticMarkup = criticMarkup
        self.referenceDocument = referenceDocument
    }
}

/// A format Redline reads: makes a source over an input.
public protocol FormatReader: Sendable {
    /// Opens `input`; throws `RedlineError` when it cannot be read at all.
    func open(_ input: DocumentInput, options: ReadOptions, diagnostics: Diagnostics) throws -> any ChunkSource
}

/// A format Redline writes: makes a sink into an output.
public protocol FormatWriter: Sendable {
    func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink
}

/// Options every reader understands.
public struct ReadOptions: Sendable, Codable {
    /// Hard limits against hostile input.
    public var limits: Limits
    /// Load the pictures a document links to by path or data URI (Markdown) into its `MediaStore`, so a
    /// writer that embeds (DOCX, RTF, HTML with `--embed-media`) has their bytes. Off: links stay links.
    public var loadLinkedMedia: Bool
    /// Folders besides the input's own from which linked pictures may be loaded (`--resource-path`).
    public var resourcePaths: [String]

    public init(limits: Limits = Limits(), loadLinkedMedia: Bool = false, resourcePaths: [String] = []) {
        self.limits = limits
        self.loadLinkedMedia = loadLinkedMedia
        self.resourcePaths = resourcePaths
    }
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
    /// Where Markdown and HTML writers put the pictures the document carries; nil: not written (a warning).
    public var mediaOutput: MediaOutput?
    /// HTML: pictures as `data:` URIs in the page instead of files. The HTML format sets it unless
    /// `mediaOutput` names a folder of the caller's choosing (`MediaOutput.isDefault` false): the page is one file.
    public var embedMedia: Bool = false
    /// HTML: the review panel (views, the list of changes and comments) and its script. Off for a page with
    /// nothing left to review, which the conversion knows before the writer starts: every change accepted or
    /// rejected and every comment dropped (`--changes accept|reject`); the page is then the plain document.
    public var reviewPanel: Bool = true
    /// HTML review panel: how many changes the source has, counted as `redline changes` counts them (one row
    /// each), which the panel gives as its total; it also counts those the page cannot show (a table's or a
    /// section's tracked layout). Set by `Converter` for a page that keeps every change marked; nil: the
    /// panel counts the changes on the page.
    public var listedChanges: Int?
    /// PDF: the program that renders it (nil: Chromium when it is installed, else LibreOffice).
    public var pdfEngine: PDFEngineChoice?
    /// Metadata fields set over the input's (`--metadata`/`-M KEY=VALUE`); applied by `SetMetadata` before
    /// any writer, so the document is written from the model.
    public var metadata: [Metadata.Field] = []
    /// Markdown: how paragraphs are broken into lines (nil: `.preserve`).
    public var lineWrap: LineWrap?
    /// Markdown with `lineWrap` `.auto`: the line length (nil: 72, pandoc's default).
    public var columns: Int?
    /// Markdown: every table in GFM's pipe form (format `gfm`: GitHub shows no other); nil or false: a table
    /// the pipe form cannot hold (cells of several blocks, merged cells) is a pandoc grid table.
    public var pipeTablesOnly: Bool?
    /// Markdown: whose syntax the writer uses where dialects differ (nil: pandoc's Markdown).
    public var markdownDialect: MarkdownDialect?

    public init(paragraphPreset: ParagraphStyle? = nil, characterPreset: CharacterStyle? = nil,
                preserveFormatting: Bool = false, criticMarkup: Bool = true, referenceDocument: String? = nil) {
        self.paragraphPreset = paragraphPreset
        self.characterPreset = characterPreset
        self.preserveFormatting = preserveFormatting
        self.criticMarkup = criticMarkup
        self.referenceDocument = referenceDocument
    }
}

/// The Markdown dialects the writer writes: what it does with pandoc's syntax GitHub does not read.
public enum MarkdownDialect: String, Sendable, Codable, CaseIterable {
    /// pandoc's Markdown (with CommonMark, GFM tables and strikethrough, CriticMarkup): every construct in its
    /// pandoc form.
    case pandoc
    /// GitHub's: HTML where pandoc's syntax would show as text on GitHub (divs, underline and small-caps
    /// spans), inline notes as footnote references; heading attributes dropped with a warning.
    case gfm
}

/// How the Markdown writer breaks a paragraph into lines (pandoc's `--wrap`).
public enum LineWrap: String, Sendable, Codable, CaseIterable {
    /// A line break where the source had one (a soft break), else none.
    case preserve
    /// Each paragraph on one line: soft breaks are spaces.
    case none
    /// Paragraphs filled to `WriteOptions.columns`: soft breaks are spaces, lines broken between words.
    case auto
}

/// The programs that render PDF output: Chromium prints the HTML review page (comments in the margin),
/// LibreOffice renders the DOCX (its page layout; comments printed at their anchors).
public enum PDFEngineChoice: String, Sendable, Codable, CaseIterable {
    case chromium, libreoffice
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

import RedlineCore
import RedlineMarkdown
import RedlineHTML
import RedlineDOCX
import RedlineRTF
import RedlinePDF

/// A format Redline knows by name: what reads it, what writes it, which file extensions mean it, and what
/// else it can do (its capabilities), so that routes are decided from capabilities, never from names.
public struct Format: Sendable {
    /// The stable name used on the command line (`md`, `docx`, `rtf`, `html`, ...).
    public var name: String
    /// One line for `redline formats`.
    public var summary: String
    /// File extensions (lower case, no dot) that imply this format.
    public var extensions: [String]
    /// What reads the format into the model, if Redline reads it.
    public var reader: (any FormatReader)?
    /// What writes the model in this format, if Redline writes it.
    public var writer: (any FormatWriter)?
    /// Write options this format forces (e.g. `gfm` is Markdown without CriticMarkup).
    public var adjustOptions: (@Sendable (inout WriteOptions) -> Void)?
    /// Stages this format puts in front of its writer, after the conversion's own (e.g. `gfm` accepts
    /// every change and drops every comment, reporting into the writer's diagnostics).
    public var stages: (@Sendable (Diagnostics) -> [any ChunkStage])?
    /// For a writer that waits on an external engine which renders many documents in one run (PDF):
    /// how many inputs a batch converts at once, so each engine run gets that many.
    public var batchWidth: Int?
    /// Called once for each worker of a batch writing this format, before the workers start; the
    /// returned function is called when that worker has no more inputs (PDF: its render queue waits
    /// for every worker before it starts the engine).
    public var batchWorker: (@Sendable () -> @Sendable () -> Void)?
    /// Rewrites a file of this format with review decisions, keeping everything else (DOCX, RTF).
    public var inPlaceReviewer: (any InPlaceReviewer)?
    /// Lists a file's changes and comments from the file itself rather than through the model (DOCX).
    public var changeLister: (any ChangeLister)?
    /// Reads who last saved a file (`apply` and `combine` without `--author`): DOCX, RTF.
    public var lastEditorReader: (any LastEditorReader)?
    /// Whether the writer embeds pictures, so readers load linked ones for it.
    public var pictures: PictureEmbedding
    /// Lays a comparison's result into NEW's own file when NEW has this format too (DOCX).
    public var finisher: (any OutputFinisher)?
    /// Writes changes into a file of this format (`redline apply`): Markdown, DOCX.
    public var applier: (any EditApplier)?

    /// A format; capabilities not given are absent.
    public init(name: String, summary: String, extensions: [String], reader: (any FormatReader)? = nil,
                writer: (any FormatWriter)? = nil, adjustOptions: (@Sendable (inout WriteOptions) -> Void)? = nil,
                stages: (@Sendable (Diagnostics) -> [any ChunkStage])? = nil, batchWidth: Int? = nil,
                batchWorker: (@Sendable () -> @Sendable () -> Void)? = nil,
                inPlaceReviewer: (any InPlaceReviewer)? = nil, changeLister: (any ChangeLister)? = nil,
                pictures: PictureEmbedding = .never, finisher: (any OutputFinisher)? = nil,
                applier: (any EditApplier)? = nil, lastEditorReader: (any LastEditorReader)? = nil) {
        self.name = name
        self.summary = summary
        self.extensions = extensions
        self.reader = reader
        self.writer = writer
        self.adjustOptions = adjustOptions
        self.stages = stages
        self.batchWidth = batchWidth
        self.batchWorker = batchWorker
        self.inPlaceReviewer = inPlaceReviewer
        self.changeLister = changeLister
        self.pictures = pictures
        self.finisher = finisher
        self.applier = applier
        self.lastEditorReader = lastEditorReader
    }

    /// Whether this format's writer embeds pictures (so readers should load linked ones): DOCX, RTF and
    /// PDF (made from a DOCX) always, HTML with `embedMedia` (which the HTML format sets unless a folder is named).
    public func embedsPictures(_ write: WriteOptions) -> Bool {
        switch pictures {
        case .always: return true
        case .withEmbedMedia: return write.embedMedia
        case .never: return false
        }
    }

    /// The format's name as a person says it ("Markdown", "GitHub Markdown", "DOCX").
    public var displayName: String {
        switch reader {
        case is MarkdownReader: return adjustOptions == nil ? "Markdown" : "GitHub Markdown"
        default: return name.uppercased()
        }
    }

    /// True when `other` is this format (the same registry entry).
    public func isSame(as other: Format) -> Bool { name == other.name }
}

/// The table of formats, keyed by name: N readers and N writers, not N×N converters.
/// A new format adds one entry here (see ARCHITECTURE.md), declaring what it can do.
public enum FormatRegistry {
    /// Markdown with CriticMarkup.
    public static let markdown = Format(
        name: "md", summary: "Markdown (CommonMark + GFM) with CriticMarkup review marks",
        extensions: ["md", "markdown", "mdown", "mkd", "txt", "qmd", "rmd", "rmarkdown"], reader: MarkdownReader(),
        writer: MarkdownWriter(), applier: MarkdownSourceApplier())
    /// GitHub Markdown: changes accepted, comments dropped.
    public static let gfm = Format(
        name: "gfm", summary: "GitHub Markdown without CriticMarkup (changes accepted, comments dropped)",
        extensions: [], reader: MarkdownReader(scripts: false), writer: MarkdownWriter(),
        adjustOptions: { $0.criticMarkup = false; $0.pipeTablesOnly = true; $0.markdownDialect = .gfm },
        stages: MarkdownWriter.withoutCriticMarkup)
    /// The HTML preview and review page: one file, pictures inside it unless a folder is named for them
    /// (`--extract-media`).
    public static let html = Format(
        name: "html", summary: "HTML preview page (ins, del, mark, comments, footnotes; write only)",
        extensions: ["html", "htm"], writer: HTMLWriter(),
        adjustOptions: { w in if w.mediaOutput?.isDefault ?? true { w.embedMedia = true } },
        pictures: .withEmbedMedia)
    /// Word's WordprocessingML.
    public static let docx = Format(
        name: "docx", summary: "Word document (WordprocessingML) with tracked changes and comments",
        extensions: ["docx"], reader: DOCXReader(), writer: DOCXWriter(),
        inPlaceReviewer: DOCXPackageReviewer(), changeLister: DOCXPackageReviewer(), pictures: .always,
        finisher: DOCXLayoutFinisher(), applier: DOCXPackageApplier(), lastEditorReader: DOCXPackageReviewer())
    /// Rich Text Format.
    public static let rtf = Format(
        name: "rtf", summary: "Rich Text Format (Word, LibreOffice, TextEdit, Scrivener): revisions, annotations",
        extensions: ["rtf"], reader: RTFReader(), writer: RTFWriter(), inPlaceReviewer: RTFFileReviewer(),
        pictures: .always, applier: RTFFileApplier(), lastEditorReader: RTFInfoReader())
    /// PDF, laid out by Chromium or LibreOffice.
    public static let pdf = Format(
        name: "pdf", summary: "PDF of the marked (or, with --changes, clean/original) version, rendered by Chromium (comments in the margin) or LibreOffice, --pdf-engine (write only)",
        extensions: ["pdf"], writer: PDFWriter(), batchWidth: 48, batchWorker: PDFWriter.batchWorker,
        pictures: .always)

    /// Every format, in the order `redline formats` lists them.
    public static let all: [Format] = [markdown, gfm, html, docx, rtf, pdf]

    /// Aliases accepted for format names.
    /// pandoc's names for the Markdown dialects Redline reads and writes as its own Markdown (CommonMark + GFM
    /// + CriticMarkup): `commonmark`, `commonmark_x`, `markdown_strict`, `markdown_phpextra`, `markdown_mmd`.
    public static let aliases = ["markdown": "md", "critic": "md", "criticmarkup": "md", "htm": "html", "html5": "html", "html4": "html",
                                 "commonmark": "md", "commonmark_x": "md", "markdown_strict": "md", "markdown_phpextra": "md",
                                 "markdown_mmd": "md", "markdown_github": "gfm"]

    /// The format called `name` (case-insensitive; `markdown` and `critic` are aliases of `md`, and pandoc's
    /// names are aliases too). pandoc's extension suffixes (`markdown+smart`, `gfm-raw_html`) are ignored:
    /// `extensions(of:)` says which a name carries.
    public static func named(_ name: String) -> Format? {
        let n = base(of: name).lowercased()
        let canonical = aliases[n] ?? n
        return all.first { $0.name == canonical }
    }

    /// `name` without pandoc's `+ext`/`-ext` suffixes (`markdown+smart-raw_html` → `markdown`).
    public static func base(of name: String) -> String {
        guard let i = name.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) else { return name }
        return String(name[..<i])
    }

    /// pandoc's extension suffixes of `name` (`+smart-raw_html`), empty when it has none.
    public static func extensions(of name: String) -> String {
        String(name.dropFirst(base(of: name).count))
    }

    /// The format a path's extension implies (`.md`, `.markdown`, `.docx`, `.rtf`, `.html`...).
    public static func inferred(fromPath path: String) -> Format? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return all.first { $0.extensions.contains(ext) }
    }
}

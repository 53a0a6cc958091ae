import RedlineCore
import RedlineXML
import RedlineZip

/// Reads DOCX (Word 2007+, Transitional and Strict): text, formatting, lists, tables, notes, comments
/// and every kind of tracked change, into the document model.
///
/// Side parts (relationships, styles, numbering, notes, core properties) are read first, and an index of
/// the comments (`DOCXCommentStream`: each comment's body is parsed when the body reaches its anchor);
/// `word/document.xml` is then streamed: each top-level block becomes a chunk as soon as it is read,
/// never a DOM of the whole body. Covered: paragraphs, headings (outline level through the style
/// chain), runs (bold, italic, underline, strike, double strike, caps, small caps, super/subscript,
/// highlight, colour, shading, size, font), tabs, breaks, symbols, hyphens, hyperlinks, simple and
/// complex fields (result text; HYPERLINK is a link), content controls, `mc:AlternateContent`, lists,
/// tables (header rows, spans, vertical merges), notes, images (referenced), text boxes and equations
/// (text kept, warned); `w:ins`/`w:del`/moves/paragraph marks/`rPrChange`/`pPrChange`/row changes,
/// comments with ranges, points, replies and resolved state; sections (`w:sectPr`) with their header and
/// footer parts as stories. What the model cannot carry is reported under the `docx.*` diagnostic codes.
public struct DOCXReader: FormatReader {
    /// A DOCX reader (it holds no state; each `open` reads one document).
    public init() {}

    /// Opens `input`: reads the side parts, then streams the body as chunks.
    public func open(_ input: DocumentInput, options: ReadOptions, diagnostics: Diagnostics) throws -> any ChunkSource {
        try DOCXSource(input, limits: options.limits, diagnostics: diagnostics)
    }
}

/// The chunk stream of one DOCX document.
struct DOCXSource: ChunkSource {
    let header: DocumentHeader
    private let body: DOCXBodyStream
    /// The Markdown author's lines Redline kept for the blocks it wrote (`MarkdownSources`).
    private let sources: MarkdownSources.Table

    /// With `commentsWhole`, every comment is read before the body (as the reader once did; tests compare).
    init(_ input: DocumentInput, limits: Limits, diagnostics: Diagnostics, commentsWhole: Bool = false) throws {
        let package = try DOCXPackage(input, limits: limits)
        var styles = StyleSheet()
        if let e = package.part("styles", fallback: "word/styles.xml") {
            styles = try StyleSheetCache.shared.sheet(e, in: package, diagnostics: diagnostics)
        }
        var numbering = Numbering()
        if let e = package.part("numbering", fallback: "word/numbering.xml") { numbering = try Numbering(try package.xml(e)) }
        let defaultStyle = styles.defaultParagraphStyleID
        let defaultParagraph = styles.defaultParagraph.merged(with: styles.paragraphProps(defaultStyle)).style
        var defaultCharacter = styles.defaultRun.merged(with: styles.paragraphRunProps(defaultStyle)).textFormat.style
        defaultCharacter.color = nil
        var context = StoryContext(styles: styles, numbering: numbering, relationships: package.relationships, replyIDs: [],
                                   diagnostics: diagnostics, defaultParagraph: defaultParagraph, defaultCharacter: defaultCharacter)
        context.pictures = DOCXPictures(archive: package.archive, store: MediaStore(limits: limits))
        let kept = try SideParts.keptSources(package)
        func table(_ prefix: String) -> KeptSources { kept[prefix] ?? KeptSources(prefix: prefix) }
        context.mathSources = table(KeptSources.mathPrefix)
        context.codeSources = table(KeptSources.codePrefix)
        context.imageSources = table(KeptSources.imagePrefix)
        context.headingSources = table(KeptSources.headingPrefix)
        let noteSources = table(KeptSources.notePrefix)
        let comments = try DOCXCommentStream(package, context: context)
        context.replyIDs = comments?.replyIDs ?? []
        var read = try SideParts.notes(package, kind: .footnote, context: context) + SideParts.notes(package, kind: .endnote, context: context)
        // Notes Redline wrote from Markdown's `^[…]` (while their text is as written).
        if !noteSources.isEmpty {
            for k in read.indices where noteSources.kept(for: KeptSources.noteText(read[k])) != nil { read[k].isInline = true }
        }
        let (notes, noteLabels) = SideParts.numbered(read)
        context.noteLabels = noteLabels
        context.headerStories = try SideParts.headerStories(package, context: context)
        var paragraphDefaults = defaultParagraph
        paragraphDefaults.name = nil
        header = DocumentHeader(metadata: try SideParts.metadata(package), defaultParagraphStyle: paragraphDefaults,
                                defaultCharacterStyle: defaultCharacter,
                                // Only a document with headers or footers has the settings part read for it.
                                evenAndOddHeaders: context.headerStories.isEmpty ? false : try SideParts.evenAndOddHeaders(package))
        let parser = StoryParser(try package.xml(try package.documentEntry()), context: context)
        guard try parser.enterBody() else {
            throw RedlineError.malformed("\(package.documentPart) has no w:body: not a Word document")
        }
        body = try DOCXBodyStream(parser: parser, comments: comments, notes: notes, commentsWhole: commentsWhole)
        sources = MarkdownSources.Table(package)
    }

    mutating func next() throws -> Chunk? {
        guard var chunk = try body.next() else { return nil }
        if !sources.isEmpty { chunk.block = sources.attach(chunk.block) }
        return chunk
    }

    /// How many comments have been parsed so far.
    var commentsRead: Int { body.commentsRead }
}

extension DOCXPackage {
    /// The main document part's entry.
    func documentEntry() throws -> ZipEntry {
        guard let e = archive.entry(named: documentPart) else { throw RedlineError.malformed("the package has no \(documentPart)") }
        return e
    }
}

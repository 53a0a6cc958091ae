/// RedlineCore's codes: the general `lossy.*` family (what a target format cannot hold, whichever writer
/// reports it) and the media store's `media.*`.
extension DiagnosticCode {
    /// Review marks resolved because the output has no CriticMarkup (`gfm`): insertions kept.
    public static let lossyInsertionsAccepted: DiagnosticCode = "lossy.insertions-accepted"
    /// Review marks resolved because the output has no CriticMarkup: deletions dropped.
    public static let lossyDeletionsAccepted: DiagnosticCode = "lossy.deletions-accepted"
    /// Comments dropped because the output has no CriticMarkup.
    public static let lossyComments: DiagnosticCode = "lossy.comments"
    /// Highlights dropped (plain Markdown has no highlight).
    public static let lossyHighlight: DiagnosticCode = "lossy.highlight"
    /// Formatting changes dropped (the new formatting is kept).
    public static let lossyFormatChange: DiagnosticCode = "lossy.format-change"
    /// Paragraph style changes dropped.
    public static let lossyParagraphStyleChange: DiagnosticCode = "lossy.paragraph-style-change"
    /// Paragraph-mark changes dropped (without CriticMarkup).
    public static let lossyParagraphMarkChange: DiagnosticCode = "lossy.paragraph-mark-change"
    /// Named paragraph styles dropped (count: paragraphs).
    public static let lossyParagraphStyle: DiagnosticCode = "lossy.paragraph-style"
    /// Paragraph alignment dropped.
    public static let lossyAlignment: DiagnosticCode = "lossy.alignment"
    /// Paragraph indents dropped.
    public static let lossyParagraphIndent: DiagnosticCode = "lossy.paragraph-indent"
    /// Line spacing dropped.
    public static let lossyLineSpacing: DiagnosticCode = "lossy.line-spacing"
    /// Space before/after paragraphs dropped.
    public static let lossyParagraphSpacing: DiagnosticCode = "lossy.paragraph-spacing"
    /// Tab stops dropped.
    public static let lossyTabStops: DiagnosticCode = "lossy.tab-stops"
    /// Fonts dropped (count: distinct fonts).
    public static let lossyFont: DiagnosticCode = "lossy.font"
    /// Font sizes dropped (count: distinct sizes).
    public static let lossyFontSize: DiagnosticCode = "lossy.font-size"
    /// Picture sizes were not written (they are `{width=… height=…}` with `preserveFormatting`).
    public static let lossyPictureSize: DiagnosticCode = "lossy.picture-size"
    /// Text colours dropped (count: distinct colours).
    public static let lossyColor: DiagnosticCode = "lossy.color"
    /// Background and highlight colours dropped (count: distinct colours).
    public static let lossyBackground: DiagnosticCode = "lossy.background-color"
    /// Named character styles dropped (count: spans).
    public static let lossyCharacterStyle: DiagnosticCode = "lossy.character-style"
    /// All caps and double strikethrough dropped.
    public static let lossyCaps: DiagnosticCode = "lossy.caps"
    /// Endnotes written as footnotes.
    public static let lossyEndnote: DiagnosticCode = "lossy.endnote"
    /// Table cell spans dropped.
    public static let lossyTableSpan: DiagnosticCode = "lossy.table-span"
    /// Table shape Markdown cannot hold (no or several header rows, cells with several blocks).
    public static let lossyTableStructure: DiagnosticCode = "lossy.table-structure"
    /// Table row insertions and deletions written as changes of the cells' text.
    public static let lossyTableRowChange: DiagnosticCode = "lossy.table-row-change"
    /// A cell inserted or deleted with tracking is written as a change of its text (the cell itself stays).
    public static let lossyTableCellChange: DiagnosticCode = "lossy.table-cell-change"
    /// Equations written as their TeX source (a format with no equations of its own: RTF).
    public static let lossyMath: DiagnosticCode = "lossy.math"
    /// TeX outside the set Redline turns into an equation (an unknown command, unbalanced braces): written as
    /// its TeX source in plain text.
    public static let lossyMathUnsupported: DiagnosticCode = "lossy.math-unsupported"
    /// Fields (page numbers, cross-references, figure numbers, dates) written as their last results, without
    /// the instruction that updates them (count: fields; Markdown keeps them with `preserveFormatting`).
    public static let lossyField: DiagnosticCode = "lossy.field"
    /// Raw content of another format dropped.
    public static let lossyRaw: DiagnosticCode = "lossy.raw"
    /// pandoc attributes (a heading's `{#sec-intro}`, a picture's `{width=50%}`) the target dialect cannot write
    /// (GitHub Markdown).
    public static let lossyAttributes: DiagnosticCode = "lossy.attributes"
    /// Line breaks in headings or table cells written as spaces; at a paragraph's start or end, dropped.
    public static let lossyBreak: DiagnosticCode = "lossy.break"
    /// Authors and dates of changes inside comment bodies (CriticMarkup cannot nest comments).
    public static let lossyCommentBodyAttribution: DiagnosticCode = "lossy.comment-body-attribution"
    /// A tight list whose items hold several blocks, written loose (Markdown cannot keep it tight).
    public static let lossyListSpacing: DiagnosticCode = "lossy.list-spacing"
    /// A paragraph wholly inserted (deleted) but for its break, written as inserted (deleted) with it:
    /// CriticMarkup cannot tell the two apart.
    public static let lossyUnchangedBreak: DiagnosticCode = "lossy.unchanged-break"
    /// An empty paragraph after a paragraph wholly inserted or deleted, left out where CriticMarkup cannot
    /// hold it (a comment body): accepting or rejecting gives the same text but for that empty paragraph.
    public static let lossyEmptyParagraph: DiagnosticCode = "lossy.empty-paragraph"
    /// Characters the target cannot hold, dropped: NUL in Markdown; in DOCX (XML 1.0) control characters other than tab and line breaks, and U+FFFE and U+FFFF.
    public static let lossyControlCharacter: DiagnosticCode = "lossy.control-character"
    /// Headers and footers dropped by a writer without pages (Markdown, HTML), reported once by the writer
    /// (count: header and footer stories holding text; `PageLoss`).
    public static let lossyHeaderFooter: DiagnosticCode = "lossy.header-footer"
    /// Text boxes written as blocks in the flow (Markdown without `--keep-formatting`, HTML).
    public static let lossyTextBox: DiagnosticCode = "lossy.text-box"
    /// Section layout dropped by a writer without pages (count: sections beyond one plain page: every one
    /// after the first, and a first one with landscape pages, columns, line numbering, a title page or a
    /// break other than a new page; `PageLoss`).
    public static let lossySection: DiagnosticCode = "lossy.section"

    // Pictures (`media.*`): what the media store could not load or keep, for every reader and writer.
    /// A picture the document points to (a local file) does not exist.
    public static let mediaMissing: DiagnosticCode = "media.missing"
    /// A picture could not be read or kept.
    public static let mediaUnreadable: DiagnosticCode = "media.unreadable"
    /// A picture over `Limits.maxPictureBytes`, or past `Limits.maxMediaBytes` for the document, was left out.
    public static let mediaTooLarge: DiagnosticCode = "media.too-large"
    /// A remote picture (http, https, ...) was not fetched; it stays a link where the format allows.
    public static let mediaRemote: DiagnosticCode = "media.remote"
    /// A picture path leaving the Markdown file's folder (and every `--resource-path`) was refused.
    public static let mediaOutsideResources: DiagnosticCode = "media.outside-resources"
    /// A picture browsers cannot show (EMF, WMF, TIFF) was extracted as it is.
    public static let mediaNotWebViewable: DiagnosticCode = "media.not-web-viewable"
    /// Pictures were not written out (output to standard output, no `--extract-media`).
    public static let mediaNotExtracted: DiagnosticCode = "media.not-extracted"
}

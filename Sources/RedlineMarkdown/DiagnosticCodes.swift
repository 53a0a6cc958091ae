import RedlineCore

/// Diagnostics of the Markdown and CriticMarkup reader and writer.
extension DiagnosticCode {
    /// A CriticMarkup mark that never closes: kept as literal text.
    public static let criticUnclosedMark: DiagnosticCode = "critic.unclosed-mark"
    /// A CriticMarkup mark inside another change or highlight: kept as literal text.
    public static let criticNestedMark: DiagnosticCode = "critic.nested-mark"
    /// A comment range end `{>>/name<<}` whose start was never seen.
    public static let criticUnknownRange: DiagnosticCode = "critic.unknown-range"
    /// A change mark around a block that cannot carry one (code block, table, thematic break): kept unmarked.
    public static let criticBlockChange: DiagnosticCode = "critic.block-change"
    /// A fenced div `:::` that never closes, or a close without an open.
    public static let markdownUnbalancedDiv: DiagnosticCode = "markdown.unbalanced-div"
    /// Bytes that are not valid UTF-8 (or UTF-16 after a byte-order mark): each replaced by U+FFFD.
    public static let markdownInvalidUTF8: DiagnosticCode = "markdown.invalid-utf8"
    /// YAML front matter Redline does not understand (nested maps, anchors...): those fields are skipped.
    public static let markdownFrontMatter: DiagnosticCode = "markdown.front-matter"
    /// An attribute Redline does not understand on a span or div: ignored.
    public static let markdownUnknownAttribute: DiagnosticCode = "markdown.unknown-attribute"

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
    /// Raw content of another format dropped.
    public static let lossyRaw: DiagnosticCode = "lossy.raw"
    /// Line breaks in headings or table cells written as spaces.
    public static let lossyBreak: DiagnosticCode = "lossy.break"
    /// Authors and dates of changes inside comment bodies (CriticMarkup cannot nest comments).
    public static let lossyCommentBodyAttribution: DiagnosticCode = "lossy.comment-body-attribution"
    /// A tight list whose items hold several blocks, written loose (Markdown cannot keep it tight).
    public static let lossyListSpacing: DiagnosticCode = "lossy.list-spacing"
    /// Characters Markdown cannot hold (NUL, other control characters) dropped.
    public static let lossyControlCharacter: DiagnosticCode = "lossy.control-character"
}

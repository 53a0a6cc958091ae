import RedlineCore

/// Diagnostics of the RTF reader and writer.
extension DiagnosticCode {
    // Reader.
    /// The RTF input ends inside open groups (truncated file) or a `\bin` runs past its end.
    public static let rtfTruncated: DiagnosticCode = "rtf.truncated"
    /// A `}` with no group to close.
    public static let rtfUnbalancedBraces: DiagnosticCode = "rtf.unbalanced-braces"
    /// Groups nested deeper than the limit were read as if flat.
    public static let rtfNestingLimit: DiagnosticCode = "rtf.nesting-limit"
    /// A code page Redline does not know; its bytes were read as Windows-1252.
    public static let rtfUnknownCodePage: DiagnosticCode = "rtf.unknown-code-page"
    /// A control word's parameter was out of range and was clamped.
    public static let rtfParameterClamped: DiagnosticCode = "rtf.parameter-clamped"
    /// Text in code page 65001 (UTF-8) whose bytes are not UTF-8: replaced by U+FFFD (count: runs).
    public static let rtfInvalidUTF8: DiagnosticCode = "rtf.invalid-utf8"
    /// A `\'hh` escape without two hex digits: left out.
    public static let rtfBadHexEscape: DiagnosticCode = "rtf.bad-hex-escape"
    /// Text boxes (`\shptxt` in a shape) read as paragraphs after the paragraph that anchors them; their
    /// position on the page is lost.
    public static let rtfTextBox: DiagnosticCode = "rtf.text-box"
    /// Hidden text (`\v`) was left out.
    public static let rtfHiddenText: DiagnosticCode = "rtf.hidden-text"
    /// A picture in a format other than PNG, JPEG, EMF or WMF was left out.
    public static let rtfPictureDropped: DiagnosticCode = "rtf.picture-dropped"
    /// An annotation range whose annotation body never came; kept as an empty comment.
    public static let rtfCommentWithoutBody: DiagnosticCode = "rtf.comment-without-body"
    /// A Scrivener `scrivcmt://` link whose comment was not supplied; kept as an empty comment.
    public static let rtfScrivenerAnnotationMissing: DiagnosticCode = "rtf.scrivener-annotation-missing"
    /// Content after the end of the RTF document was ignored.
    public static let rtfTrailingContent: DiagnosticCode = "rtf.trailing-content"
    /// A tracked formatting change (`\crauth`) was read as the new formatting only.
    public static let rtfFormatChangeDropped: DiagnosticCode = "rtf.format-change-dropped"

    // Writer: what RTF (or this writer) cannot carry.
    /// A tracked move was written as a deletion and an insertion (RTF has no moves).
    public static let rtfMoveAsChange: DiagnosticCode = "rtf.move-as-change"
    /// A tracked paragraph-formatting change was written as the new formatting only.
    public static let rtfParagraphStyleChangeDropped: DiagnosticCode = "rtf.paragraph-style-change-dropped"
    /// A tracked row insertion or deletion was written as a plain row.
    public static let rtfRowChangeDropped: DiagnosticCode = "rtf.row-change-dropped"
    /// A comment's resolved state was dropped (RTF annotations have none).
    public static let rtfCommentResolvedDropped: DiagnosticCode = "rtf.comment-resolved-dropped"
    /// A picture RTF cannot embed (not loaded, or not PNG/JPEG/EMF/WMF) was written as its description.
    public static let rtfImageNotEmbedded: DiagnosticCode = "rtf.image-not-embedded"
    /// A code block's language was dropped.
    public static let rtfCodeLanguageDropped: DiagnosticCode = "rtf.code-language-dropped"
    /// A block inside a list item or quotation that RTF cannot nest there was written after it.
    public static let rtfBlockFlattened: DiagnosticCode = "rtf.block-flattened"
    /// A footnote or comment that nothing references was left out, or placed at the end.
    public static let rtfUnreferenced: DiagnosticCode = "rtf.unreferenced"
    /// A change nested inside another was written as the inner change only (a deletion directly inside an
    /// insertion is written whole, marked both `\revised` and `\deleted`).
    public static let rtfNestedChange: DiagnosticCode = "rtf.nested-change"
    /// A date that is not ISO 8601 was left out of a revision or annotation.
    public static let rtfDateDropped: DiagnosticCode = "rtf.date-dropped"

    // Apply (`redline apply` onto an RTF file).
    /// Formatting changes were not written into the RTF (only text changes and comments are).
    public static let rtfApplyFormatChangeDropped: DiagnosticCode = "rtf.apply-format-change-dropped"
    /// A new list or table was written into the RTF as plain paragraphs.
    public static let rtfApplyBlockFlattened: DiagnosticCode = "rtf.apply-block-flattened"
}

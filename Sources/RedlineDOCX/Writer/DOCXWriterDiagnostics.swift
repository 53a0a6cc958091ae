import RedlineCore

/// What the DOCX writer reports when the model holds something a DOCX package cannot carry.
extension DiagnosticCode {
    /// Raw source content (HTML, RTF...) has no place in WordprocessingML and is dropped.
    public static let docxRawDropped: DiagnosticCode = "docx.raw-dropped"
    /// Images the model gives by path or URL (not as PNG, JPEG or GIF data) are dropped with their alt text.
    public static let docxImageDropped: DiagnosticCode = "docx.image-dropped"
    /// Comment anchors inside a comment body (Word has no comments on comments) are dropped.
    public static let docxNestedComment: DiagnosticCode = "docx.nested-comment"
    /// Note references inside a comment or a note (Word allows neither) are dropped.
    public static let docxNestedNote: DiagnosticCode = "docx.nested-note"
    /// A reference to a note the document does not contain: an empty note is written.
    public static let docxNoteMissing: DiagnosticCode = "docx.note-missing"
    /// A note no text refers to is dropped (a DOCX note exists only at its reference).
    public static let docxNoteUnreferenced: DiagnosticCode = "docx.note-unreferenced"
    /// A second reference to the same note is dropped (a DOCX note has exactly one reference).
    public static let docxNoteRepeated: DiagnosticCode = "docx.note-repeated"
    /// An anchor of a comment the document does not contain: an empty comment is written.
    public static let docxCommentMissing: DiagnosticCode = "docx.comment-missing"
    /// A comment with no anchor in the text is anchored at the end of the document.
    public static let docxCommentUnanchored: DiagnosticCode = "docx.comment-unanchored"
    /// A change or comment date that is not an ISO 8601 date is dropped (Word needs xsd:dateTime).
    public static let docxDateDropped: DiagnosticCode = "docx.date-dropped"
    /// Quotes, lists and tables nested deeper than the writer nests them are written as plain paragraphs.
    public static let docxNestingFlattened: DiagnosticCode = "docx.nesting-flattened"
    /// The language of a code block has no place in DOCX.
    public static let docxCodeLanguage: DiagnosticCode = "docx.code-language"
}

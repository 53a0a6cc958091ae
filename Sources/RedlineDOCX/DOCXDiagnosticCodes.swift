import RedlineCore

/// Diagnostics of the DOCX reader and writer.
extension DiagnosticCode {
    // Reader: what the document model cannot carry. Text is never dropped.
    /// Text boxes and shapes: their text is kept as paragraphs after the paragraph that anchors them.
    public static let docxTextBox: DiagnosticCode = "docx.text-box"
    /// Equations (OMML): their text is kept, the layout is lost.
    public static let docxEquation: DiagnosticCode = "docx.equation"
    /// Tracked changes nested deeper than `Limits.maxRevisionNesting`: read as the change around them.
    public static let docxRevisionNesting: DiagnosticCode = "docx.revision-nesting"
    /// Charts, embedded objects and other graphics without text in the document part.
    public static let docxChart: DiagnosticCode = "docx.chart"
    /// A linked (not embedded) picture: kept as a link to its external target.
    public static let docxImage: DiagnosticCode = "docx.image"
    /// Tracked section-property changes (page size, margins, orientation).
    public static let docxSectionChange: DiagnosticCode = "docx.section-change"
    /// Tracked table, row or cell property changes (widths, borders, grid).
    public static let docxTablePropertyChange: DiagnosticCode = "docx.table-property-change"
    /// Tracked cell insertions, deletions and merges (the model tracks whole rows only).
    public static let docxCellChange: DiagnosticCode = "docx.cell-change"
    /// Tracked numbering changes (`w:numberingChange`, or numbering inside `w:pPrChange`).
    public static let docxNumberingChange: DiagnosticCode = "docx.numbering-change"
    /// Tracked formatting changes of a paragraph mark (the model keeps run formatting changes only).
    public static let docxMarkFormatChange: DiagnosticCode = "docx.mark-format-change"
    /// Page and column breaks (the model has line breaks only).
    public static let docxPageBreak: DiagnosticCode = "docx.page-break"
    /// Bookmarks: internal links keep their `#name`, the target itself is not kept.
    public static let docxBookmark: DiagnosticCode = "docx.bookmark"
    /// Numbering on headings (heading numbers are not kept).
    public static let docxHeadingNumbering: DiagnosticCode = "docx.heading-numbering"
    /// A part the reader skipped because it is damaged (e.g. comments.xml); the rest of the document is read.
    public static let docxDamagedPart: DiagnosticCode = "docx.damaged-part"

    // Writer: what WordprocessingML (or this writer) cannot carry.
    /// Raw source content (HTML, RTF...) has no place in WordprocessingML and is dropped.
    public static let docxRawDropped: DiagnosticCode = "docx.raw-dropped"
    /// Pictures the model carries no bytes for (a path or URL not loaded) or Word cannot show inline are left
    /// out; their alt text is written as text in their place.
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
    /// A comparison's DOCX result could not place NEW's section breaks inside the body (its paragraphs did not line up with NEW's): they were left out, the final section kept.
    public static let docxSectionsDropped: DiagnosticCode = "docx.sections-dropped"
    /// `redline apply` onto DOCX: text an edit covered inside an equation or an existing move was kept whole.
    public static let docxApplyKept: DiagnosticCode = "docx.apply-kept"
    /// `redline apply` onto DOCX: a paragraph made a heading of a level ORIGINAL has no heading style for was given
    /// that outline level instead (a heading in Word's navigation, in ORIGINAL's body text style).
    public static let docxApplyHeadingOutline: DiagnosticCode = "docx.apply-heading-outline"
    /// `redline apply` onto DOCX: a paragraph style EDITED gave a paragraph is not in ORIGINAL's styles (or a list
    /// kind not among its lists); the paragraph keeps its own (its other property changes are written).
    public static let docxApplyStyleMissing: DiagnosticCode = "docx.apply-style-missing"
}

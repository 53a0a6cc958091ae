import RedlineCore

/// What the DOCX reader reports when the document model cannot carry something. Text is never dropped.
extension DiagnosticCode {
    /// Tracked changes nested deeper than `Limits.maxRevisionNesting`: read as the change around them.
    public static let docxRevisionNesting: DiagnosticCode = "docx.revision-nesting"
    /// Text boxes and shapes: their text is kept as paragraphs after the paragraph that anchors them.
    public static let docxTextBox: DiagnosticCode = "docx.text-box"
    /// Equations (OMML): their text is kept, the layout is lost.
    public static let docxEquation: DiagnosticCode = "docx.equation"
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
}

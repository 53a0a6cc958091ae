import RedlineCore

/// Diagnostics of the document comparison.
extension DiagnosticCode {
    /// An input already held tracked changes: it was compared as if they were all accepted.
    public static let compareInputChanges: DiagnosticCode = "compare.input-changes"
    /// `--keep-input-changes`: NEW changed a paragraph both with and without tracking in a way the two cannot be merged run by run (text inserted without tracking deleted with tracking, a style or break changed); there every change was found by comparison and attributed to the comparison's author.
    public static let compareChangesRecompared: DiagnosticCode = "compare.changes-recompared"
    /// `--keep-input-changes`: NEW's tracked changes and its untracked edits could not be composed (paragraphs split or joined, edits in notes): compared as if NEW's changes were all accepted.
    public static let compareInputChangesNotKept: DiagnosticCode = "compare.input-changes-not-kept"
    /// A header or footer of a section other than the last differs, in a DOCX result laid into NEW's own package: NEW's story was kept as it is, unmarked.
    public static let compareHeaderFooterKept: DiagnosticCode = "compare.header-footer-kept"
    /// OLD's and NEW's metadata (title, author, date, ...) differ: metadata is not marked, the result has NEW's.
    public static let compareMetadata: DiagnosticCode = "compare.metadata"
    /// OLD's comments are not carried into the comparison (NEW's are).
    public static let compareOldComments: DiagnosticCode = "compare.old-comments"
    /// A change the model cannot track (a code block, raw block or rule that changed, a list's numbering): NEW's version is kept unmarked.
    public static let compareUntrackedBlock: DiagnosticCode = "compare.untracked-block"
    /// A table whose columns changed: NEW's columns are kept.
    public static let compareTableColumns: DiagnosticCode = "compare.table-columns"
}

import RedlineCore

/// Diagnostics of the document comparison.
extension DiagnosticCode {
    /// An input already held tracked changes: it was compared as if they were all accepted.
    public static let compareInputChanges: DiagnosticCode = "compare.input-changes"
    /// OLD's comments are not carried into the comparison (NEW's are).
    public static let compareOldComments: DiagnosticCode = "compare.old-comments"
    /// A change the model cannot track (a code block, raw block or rule that changed, a list's numbering): NEW's version is kept unmarked.
    public static let compareUntrackedBlock: DiagnosticCode = "compare.untracked-block"
    /// A table whose columns changed: NEW's columns are kept.
    public static let compareTableColumns: DiagnosticCode = "compare.table-columns"
}

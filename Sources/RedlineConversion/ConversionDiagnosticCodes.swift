import RedlineCore

/// Diagnostics of review decisions.
extension DiagnosticCode {
    /// An `--accept`, `--reject` or `--drop-comments` filter selected nothing in the document (with
    /// `--strict-filters`, an error instead).
    public static let reviewFilterUnmatched: DiagnosticCode = "review.filter-unmatched"

    /// EDITED held tracked changes but also differs from ORIGINAL outside them: every change was found by
    /// comparing ORIGINAL with EDITED's accepted text, attributed to `--author`.
    public static let applyChangesRecompared: DiagnosticCode = "apply.changes-recompared"
    /// EDITED's headers or footers read differently from ORIGINAL's: apply and combine write changes to the body
    /// only, so those were left out (counted by story).
    public static let applyHeaderFooterUnplaced: DiagnosticCode = "apply.header-footer-unplaced"
    /// EDITED changes the text of footnotes or endnotes, which `apply` and `combine` do not write: left out,
    /// counted.
    public static let applyNoteUnplaced: DiagnosticCode = "apply.note-unplaced"

    /// A copy given to `combine` is not a version of ORIGINAL: left out (`--skip-unrelated`).
    public static let combineSkipped: DiagnosticCode = "combine.skipped"
    /// Reviewers changed the same text differently: the preferred change kept, the other as a comment.
    public static let combineConflicts: DiagnosticCode = "combine.conflicts"
}

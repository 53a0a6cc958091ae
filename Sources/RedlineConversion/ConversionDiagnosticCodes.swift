import RedlineCore

/// Diagnostics of review decisions.
extension DiagnosticCode {
    /// An `--accept`, `--reject` or `--drop-comments` filter selected nothing in the document (with
    /// `--strict-filters`, an error instead).
    public static let reviewFilterUnmatched: DiagnosticCode = "review.filter-unmatched"

    /// EDITED held tracked changes but also differs from ORIGINAL outside them: every change was found by
    /// comparing ORIGINAL with EDITED's accepted text, attributed to `--author`.
    public static let applyChangesRecompared: DiagnosticCode = "apply.changes-recompared"
}

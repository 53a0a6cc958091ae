import RedlineCore

/// Diagnostics of review decisions.
extension DiagnosticCode {
    /// An `--accept`, `--reject` or `--drop-comments` filter selected nothing in the document (with
    /// `--strict-filters`, an error instead).
    public static let reviewFilterUnmatched: DiagnosticCode = "review.filter-unmatched"
}

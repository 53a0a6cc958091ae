import RedlineCore

/// Diagnostics of the Markdown and CriticMarkup reader and writer (the `lossy.*` codes the writer reports
/// are RedlineCore's, `CoreDiagnosticCodes.swift`).
extension DiagnosticCode {
    /// A CriticMarkup mark that never closes: kept as literal text.
    public static let criticUnclosedMark: DiagnosticCode = "critic.unclosed-mark"
    /// A CriticMarkup mark inside another change or highlight: kept as literal text.
    public static let criticNestedMark: DiagnosticCode = "critic.nested-mark"
    /// A comment range end `{>>/name<<}` whose start was never seen.
    public static let criticUnknownRange: DiagnosticCode = "critic.unknown-range"
    /// A change mark around a block that cannot carry one (table, thematic break; a code block inside a
    /// substitution, move or nested change): kept unmarked.
    public static let criticBlockChange: DiagnosticCode = "critic.block-change"
    /// A code-style paragraph with changes that cannot be written as whole fences in changes (not a compared code
    /// block, or changes by several authors or dates): written as a marked paragraph, so resolving its marks
    /// gives its lines as a paragraph, not a code block.
    public static let criticCodeChange: DiagnosticCode = "critic.code-change"
    /// A fenced div `:::` that never closes, or a close without an open.
    public static let markdownUnbalancedDiv: DiagnosticCode = "markdown.unbalanced-div"
    /// Bytes that are not valid UTF-8 (or UTF-16 after a byte-order mark): each replaced by U+FFFD.
    public static let markdownInvalidUTF8: DiagnosticCode = "markdown.invalid-utf8"
    /// A comment no mark in the text anchors (the Markdown writer): left out.
    public static let markdownUnanchoredComment: DiagnosticCode = "markdown.unanchored-comment"
    /// A note reference whose note the document does not hold (the Markdown writer): left out.
    public static let markdownMissingNote: DiagnosticCode = "markdown.missing-note"
    /// A table row with more than `Limits.maxTableColumns` cells: the cells past it are kept as text.
    public static let markdownTableTooWide: DiagnosticCode = "markdown.table-too-wide"
    /// YAML front matter Redline does not understand (nested maps, anchors...): those fields are skipped.
    public static let markdownFrontMatter: DiagnosticCode = "markdown.front-matter"
    /// An attribute Redline does not understand on a span or div: ignored.
    public static let markdownUnknownAttribute: DiagnosticCode = "markdown.unknown-attribute"

    /// Some of EDITED's changes fell where ORIGINAL's Markdown source could not be matched with its text
    /// (a paragraph the reader reads differently from cmark): they were left out, and counted.
    public static let applyUnplaced: DiagnosticCode = "apply.unplaced"
}

import RedlineCore

/// Diagnostics of the HTML review page writer.
extension DiagnosticCode {
    /// A comment no mark in the text anchors: left out of the page.
    public static let htmlUnanchoredComment: DiagnosticCode = "html.unanchored-comment"
}

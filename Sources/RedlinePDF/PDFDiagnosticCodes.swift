import RedlineCore

/// Diagnostics of PDF output.
extension DiagnosticCode {
    /// Chromium is missing, so LibreOffice rendered the PDF: comments are printed at their anchors, not in the margin.
    public static let pdfCommentsAtAnchors: DiagnosticCode = "pdf.comments-at-anchors"
}

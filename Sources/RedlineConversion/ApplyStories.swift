import RedlineCore

extension Application {
    /// Reports (`apply.header-footer-unplaced`) the header and footer stories EDITED changed: a plan carries the
    /// body only, so their edits are not written.
    static func reportHeaderFooterEdits(original: Document, edited: Document, diagnostics: Diagnostics) {
        let n = ApplyPlan.changedHeaderFooterStories(original: original, edited: edited)
        guard n > 0 else { return }
        diagnostics.report(.applyHeaderFooterUnplaced,
                           "EDITED changed the text of \(n == 1 ? "a header or footer" : "\(n) headers or footers"); only changes to the body are applied, so \(n == 1 ? "that one keeps" : "those keep") ORIGINAL's text",
                           count: n)
    }
}

import RedlineCore

/// pandoc's table captions: a paragraph right before or after a table that starts with `: ` or `Table:`, read
/// as a paragraph in the "Table Caption" style (pandoc's name for it in DOCX), without the `: ` (`Table:` is kept:
/// it reads as a label in Word too), and written back next to its table as it was (`: caption`, `Table: caption`).
enum TableCaptions {
    /// The paragraph style name a table caption has.
    static let styleName = "Table Caption"

    /// The caption's content when `content` starts with a caption prefix (`: `, taken off; `Table:`, kept); nil
    /// otherwise.
    static func content(_ content: [Inline]) -> [Inline]? {
        guard case .text(let s)? = content.first else { return nil }
        var rest: Substring
        if s.hasPrefix(": ") {
            rest = s.dropFirst(2)
        } else if s.hasPrefix("Table:") {
            return content.count > 1 || s.count > 6 ? content : nil
        } else {
            return nil
        }
        rest = rest.drop { $0 == " " }
        var out = Array(content.dropFirst())
        if !rest.isEmpty { out.insert(.text(String(rest)), at: 0) }
        return out.isEmpty ? nil : out
    }

    /// `p` as a caption when it is an unstyled paragraph starting with a caption prefix (`content`); nil otherwise.
    static func caption(_ p: Paragraph) -> Paragraph? {
        guard p.style.name == nil, let content = content(p.content) else { return nil }
        var c = p
        c.content = content
        c.style.name = styleName
        return c
    }

    /// Whether `p` is a caption the writer writes as `: caption` (in the style and nothing else of it set).
    static func isWritable(_ p: Paragraph) -> Bool {
        guard p.style.name == styleName, p.markChange == nil, p.styleChange == nil, p.sectionEnd == nil,
              p.codeInfo == nil, !p.content.isEmpty else { return false }
        var rest = p.style
        rest.name = nil
        return rest.isEmpty
    }

    /// Whether a caption's content is written as it is (it starts `Table:`), not after `: `.
    static func isLabelled(_ content: [Inline]) -> Bool {
        if case .text(let s)? = content.first { return s.hasPrefix("Table:") }
        return false
    }
}

/// What a paragraph style name says about its block: a block quote, a code block or a rule (Markdown
/// writers, ours and pandoc's, write them as paragraph styles), or a heading level. The names are spelled
/// here once: the DOCX writer writes them, the DOCX and RTF readers recognise them.
public enum BlockStyleRole: Sendable, Equatable {
    case quote, code, rule

    /// Word's built-in quote style, which block quotes are written in.
    public static let quoteName = "Quote"
    /// Word's quotation style that RTF writers use for block quotes.
    public static let blockTextName = "Block Text"
    public static let codeName = "Source Code"
    public static let ruleName = "Horizontal Rule"

    /// The role of a style id or name compared without case and spaces: Word's quote styles (Quote,
    /// Intense Quote, Block Text), Source Code, Horizontal Rule. Localised documents keep these English
    /// names or ids. (The DOCX reader.)
    public init?(matching name: String?) {
        switch (name ?? "").lowercased().filter({ $0 != " " }) {
        case "quote", "intensequote", "blocktext": self = .quote
        case "sourcecode": self = .code
        case "horizontalrule": self = .rule
        default: return nil
        }
    }

    /// The role of a style named exactly Block Text, Source Code or Horizontal Rule. (The RTF reader, whose
    /// style names are not localised ids.)
    public init?(exactName name: String?) {
        switch name {
        case Self.blockTextName?: self = .quote
        case Self.codeName?: self = .code
        case Self.ruleName?: self = .rule
        default: return nil
        }
    }

    /// The name `init(exactName:)` takes: what the RTF writer writes.
    public var exactName: String {
        switch self {
        case .quote: Self.blockTextName
        case .code: Self.codeName
        case .rule: Self.ruleName
        }
    }

    /// The code block a paragraph stands for: one in the code style (`codeName`) holding only plain text and
    /// line breaks, no mark, as the DOCX and RTF writers write a code block and a comparison's resolved
    /// changed code block is, with the info string the paragraph carries (`Paragraph.codeInfo`); nil for any
    /// other paragraph.
    public static func codeBlock(_ p: Paragraph) -> CodeBlock? {
        guard p.style.name == codeName, p.markChange == nil, p.styleChange == nil,
              let text = codeText(p.content) else { return nil }
        return CodeBlock(text: text, infoString: p.codeInfo ?? "")
    }

    /// The code a code-style paragraph with changes (a comparison's) reads as with every change accepted and
    /// with every change rejected (`codeText` of its resolved content); nil for a side its break goes on
    /// (inserted, on rejecting; deleted, on accepting) or where it holds more than plain lines.
    public static func codeSides(_ p: Paragraph) -> (accepted: String?, rejected: String?) {
        func side(_ mode: ChangeMode) -> String? {
            switch (mode, p.markChange) {
            case (.accept, .deleted?), (.reject, .inserted?): return nil
            default: return codeText(ReviewTransform(mode).resolve(p.content))
            }
        }
        return (side(.accept), side(.reject))
    }

    /// The text of a code block whose lines are `content` (plain text and line breaks; the last line ends in
    /// "\n"); nil when it holds anything else.
    public static func codeText(_ content: [Inline]) -> String? {
        var text = ""
        for i in content {
            switch i {
            case .text(let s): text += s
            case .lineBreak: text += "\n"
            default: return nil
            }
        }
        return text + "\n"
    }

    /// 1...6 for a style named "heading 1" ... "heading 9", in any case (levels past 6 are 6).
    public static func headingLevel(styleName name: String) -> Int? {
        let n = name.lowercased()
        guard n.hasPrefix("heading "), let d = Int(n.dropFirst(8)), (1...9).contains(d) else { return nil }
        return min(d, 6)
    }
}

extension ParagraphStyle {
    /// Whether a heading of `level` with this style is a plain heading: no style, or the heading style's own
    /// (`Heading N`, `heading N`) with the indent and spacing it gives (what the DOCX reader reads from a
    /// heading Redline wrote from Markdown), and nothing else set (no alignment, side indents, line spacing,
    /// tab stops).
    public func isPlainHeadingStyle(level: Int) -> Bool {
        if let name, name.lowercased().filter({ $0 != " " }) != "heading\(level)" { return false }
        var rest = self
        rest.name = nil
        rest.firstLineIndent = nil
        rest.spaceBefore = nil
        rest.spaceAfter = nil
        return rest == ParagraphStyle()
    }
}

/// Raw content (pandoc's raw blocks and inlines: an HTML block, `<!-- a comment -->`, `<span>`, a
/// `` `\LaTeX`{=latex} ``) in DOCX and RTF, which cannot hold it as what it is: shown as its text in a style that
/// names its format, a paragraph style "Raw Block: html" for a block (its lines joined by line breaks) and a
/// character style "Raw Inline: html" for an inline, which the readers read back as the raw content. The DOCX and
/// RTF writers write them (`paragraph`, `inline`); their readers take them back (`block`, `restoring`).
public enum RawStyles {
    static let blockPrefix = "Raw Block: ", inlinePrefix = "Raw Inline: "

    /// The paragraph style name of a raw block of `format`.
    public static func blockName(_ format: String) -> String { blockPrefix + format }
    /// The character style name of a raw inline of `format`.
    public static func inlineName(_ format: String) -> String { inlinePrefix + format }

    /// True for a style name one of these styles has (a reader takes raw content back only where one is used).
    public static func isRawStyleName(_ name: String?) -> Bool {
        format(name, blockPrefix) != nil || format(name, inlinePrefix) != nil
    }

    /// The format a style name of `prefix` names: letters, digits, `_`, `+`, `-`.
    static func format(_ name: String?, _ prefix: String) -> String? {
        guard let name, name.hasPrefix(prefix) else { return nil }
        let f = name.dropFirst(prefix.count)
        guard !f.isEmpty, f.unicodeScalars.allSatisfy({ c in
            (c.value >= 0x61 && c.value <= 0x7A) || (c.value >= 0x41 && c.value <= 0x5A) || (c.value >= 0x30 && c.value <= 0x39) || "_+-".unicodeScalars.contains(c)
        }) else { return nil }
        return String(f)
    }

    /// The format of a fenced code block whose info string is pandoc's raw attribute (`{=latex}`), else nil.
    public static func format(ofInfo info: String) -> String? {
        guard info.hasPrefix("{="), info.hasSuffix("}"), info.count > 3 else { return nil }
        return format(blockPrefix + info.dropFirst(2).dropLast(), blockPrefix)
    }

    /// `text` as inlines: its lines joined by line breaks (a final newline is the block's end, not a line).
    public static func lines(_ text: String) -> [Inline] {
        var text = Substring(text)
        if text.hasSuffix("\n") { text = text.dropLast() }
        var out: [Inline] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if k > 0 { out.append(.lineBreak) }
            if !line.isEmpty { out.append(.text(String(line))) }
        }
        return out
    }

    /// The text of inlines that are only text and line breaks, in formatting or not (a raw inline in bold text
    /// is bold in Word); nil for anything else.
    static func text(_ content: [Inline]) -> String? {
        var s = ""
        func add(_ xs: [Inline]) -> Bool {
            for i in xs {
                switch i {
                case .text(let t): s += t
                case .lineBreak: s += "\n"
                case .emphasis(let c), .strong(let c), .strikethrough(let c), .underline(let c), .superscript(let c),
                     .subscript(let c), .smallCaps(let c), .highlight(let c), .styled(_, let c):
                    guard add(c) else { return false }
                default: return false
                }
            }
            return true
        }
        return add(content) ? s : nil
    }

    /// The paragraph a raw block is written as.
    public static func paragraph(format: String, text: String) -> Paragraph {
        Paragraph(lines(text), style: ParagraphStyle(name: blockName(format)))
    }

    /// The inline a raw inline is written as.
    public static func inline(format: String, text: String) -> Inline {
        .styled(CharacterStyle(name: inlineName(format)), lines(text))
    }

    /// A paragraph in a raw block style, holding only its text and with no change to it, as the raw block (the
    /// look a writer gave it, a preset's font or indent, is no part of it).
    public static func block(_ p: Paragraph) -> Block? {
        guard let f = format(p.style.name, blockPrefix), p.markChange == nil, p.styleChange == nil, p.sectionEnd == nil,
              let t = text(p.content) else { return nil }
        return .raw(format: f, text: t + "\n")
    }

    /// `content` with each run in a raw inline style that holds only text taken back as the raw inline.
    public static func restoring(_ content: [Inline]) -> [Inline] {
        content.map { i in
            if case .styled(let s, let c) = i, let f = format(s.name, inlinePrefix), let t = text(c) {
                return .raw(format: f, text: t)
            }
            return i.mapChildren(restoring)
        }
    }
}

/// The `#id`s in a heading's pandoc attributes as written (` {#sec-intro .unnumbered}`,
/// `Paragraph.headingAttributes`): what DOCX and RTF name a bookmark in the heading after, as Word and pandoc do.
public enum HeadingIDs {
    /// Every `#id`, tokens split at spaces outside quoted values (`title="a #b"` holds none).
    public static func all(in attributes: String) -> [String] {
        var ids: [String] = [], token = "", quoted = false
        for c in attributes.drop(while: { $0 == " " || $0 == "\t" }).dropFirst().dropLast() + " " {
            if c == "\"" { quoted.toggle() }
            if (c == " " || c == "\t") && !quoted {
                if token.count > 1, token.first == "#" { ids.append(String(token.dropFirst())) }
                token = ""
            } else {
                token.append(c)
            }
        }
        return ids
    }

    /// The first `#id`, if any.
    public static func first(in attributes: String) -> String? { all(in: attributes).first }
}

/// CriticMarkup resolved as plain text, the way a CriticMarkup editor resolves it: no Markdown parsing, each mark
/// kept or dropped where it stands. This is the textual guarantee of `redline apply` and `redline combine` onto
/// Markdown: rejecting every mark of their output gives ORIGINAL's bytes.
public enum CriticMarkupText {
    /// `text` with each mark accepted when `accepting` says so for the mark's author (the `@Name` of the
    /// `{>>@Name …<<}` right after it, nil when none follows) and rejected otherwise; highlights kept, comments
    /// dropped. An unclosed mark runs to the end of the text.
    public static func resolve(_ text: String, accepting: (String?) -> Bool) -> String {
        var out = ""
        var rest = Substring(text)
        func take(_ close: String) -> Substring {
            guard let r = rest.range(of: close) else { let all = rest; rest = ""; return all }
            let body = rest[..<r.lowerBound]
            rest = rest[r.upperBound...]
            return body
        }
        func author() -> String? {
            guard rest.hasPrefix("{>>@") else { return nil }
            return String(rest.dropFirst(4).prefix { $0 != " " && $0 != "<" && $0 != "(" })
        }
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let head = rest[open...].prefix(3)
            rest = rest[rest.index(open, offsetBy: min(3, rest.distance(from: open, to: rest.endIndex)))...]
            switch head {
            case "{++": let b = take("++}"); if accepting(author()) { out += b }
            case "{--": let b = take("--}"); if !accepting(author()) { out += b }
            case "{~~":
                let b = take("~~}")
                let parts = b.components(separatedBy: "~>")
                out += accepting(author()) ? parts.dropFirst().joined(separator: "~>") : parts[0]
            case "{==": out += take("==}")
            case "{>>": _ = take("<<}")
            default: out += head
            }
        }
        out += rest
        return out
    }

    /// `text` with every mark accepted (`accept`) or rejected.
    public static func resolve(_ text: String, accept: Bool) -> String { resolve(text) { _ in accept } }
}

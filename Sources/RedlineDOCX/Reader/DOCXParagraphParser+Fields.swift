import RedlineCore

/// Fields: a field instruction's words, and a HYPERLINK field's target.
extension StoryParser {
    /// A HYPERLINK field's target: `HYPERLINK "url" \l "anchor"`.
    static func hyperlink(fromField instruction: String) -> Link? {
        let words = fieldWords(instruction)
        guard words.first?.uppercased() == "HYPERLINK" else { return nil }
        var url = ""
        var anchor: String?
        var i = 1
        while i < words.count {
            if words[i] == "\\l", i + 1 < words.count { anchor = words[i + 1]; i += 2; continue }
            if words[i].hasPrefix("\\") { i += words[i] == "\\o" || words[i] == "\\t" ? 2 : 1; continue }
            if url.isEmpty { url = words[i] }
            i += 1
        }
        if let anchor { url += "#" + anchor }
        return url.isEmpty ? nil : Link(url: url)
    }

    /// The words of a field instruction, quoted strings as one word.
    static func fieldWords(_ s: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for ch in s {
            if ch == "\"" {
                if quoted { out.append(current); current = ""; started = false }
                quoted.toggle()
            } else if ch.isWhitespace && !quoted {
                if started { out.append(current); current = ""; started = false }
            } else {
                current.append(ch)
                started = true
            }
        }
        if started { out.append(current) }
        return out
    }
}

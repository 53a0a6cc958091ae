import RedlineCore

/// pandoc's heading attributes: `# Introduction {#sec-intro .unnumbered}` (or `{-}`), an attribute list ending
/// the heading's line. The heading's text is what comes before; the list, with the spaces before it, is kept as
/// written (`Paragraph.headingAttributes`) and written back after the text.
enum HeadingAttributes {
    /// The longest tail of a line looked through for the list (a heading is one line: this bounds the search).
    static let searchLimit = 2_000

    /// The attribute list that ends `line` (its trailing spaces aside), with the spaces before it, as written
    /// (` {#id .x}`); nil when the line does not end with one.
    static func suffix(ofLine line: ArraySlice<UInt8>) -> String? {
        var end = line.endIndex
        while end > line.startIndex, [0x20, 0x09, 0x0D].contains(line[end - 1]) { end -= 1 }
        guard end > line.startIndex, line[end - 1] == UInt8(ascii: "}") else { return nil }
        let floor = max(line.startIndex, end - searchLimit)
        var open = end - 1
        while open > floor {
            open -= 1
            guard line[open] == UInt8(ascii: "{") else { continue }
            guard open == line.startIndex || line[open - 1] != UInt8(ascii: "\\") else { continue }
            let inner = String(decoding: line[(open + 1)..<(end - 1)], as: UTF8.self)
            guard isList(inner) else { continue }
            var start = open
            while start > line.startIndex, line[start - 1] == UInt8(ascii: " ") || line[start - 1] == UInt8(ascii: "\t") { start -= 1 }
            // Not the whole heading: an empty heading keeps its braces as text.
            guard start > line.startIndex else { return nil }
            return String(decoding: line[start..<end], as: UTF8.self)
        }
        return nil
    }

    /// Whether `s` is spaces, then an attribute list in braces, nothing after (what `suffix` gives).
    static func isSuffix(_ s: String) -> Bool {
        let t = s.drop { $0 == " " || $0 == "\t" }
        return t.first == "{" && t.last == "}" && t.count >= 2 && isList(String(t.dropFirst().dropLast()))
    }

    /// Whether the text between braces is an attribute list pandoc takes after a heading: `-`, or ids, classes
    /// and `key=value` pairs (`DivClasses.attributes(of:)`).
    static func isList(_ inner: String) -> Bool {
        let t = inner.trimmingCharacters(in: .whitespaces)
        return t == "-" || DivClasses.attributes(of: t) != nil
    }

    /// `content` without `suffix` at the end of its last text; nil when it does not end so, or when the list
    /// follows a link, picture or code span directly (pandoc gives it to that: `` `x`{.python} ``).
    static func dropping(_ suffix: String, from content: [Inline]) -> [Inline]? {
        let list = suffix.drop { $0 == " " || $0 == "\t" }
        guard case .text(let last)? = content.last, last.hasSuffix(list) else { return nil }
        var text = Substring(last).dropLast(list.count)
        if text.isEmpty, content.count >= 2 {
            switch content[content.count - 2] {
            case .link, .image, .code: return nil
            default: break
            }
        }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        var out = Array(content.dropLast())
        if !text.isEmpty { out.append(.text(String(text))) }
        return out.isEmpty ? nil : out
    }

    /// The attribute list a heading of this content, written as it is, would be read as having (text from Word
    /// ending `Set {#a}`), which the writer escapes; nil for none.
    static func wouldRead(_ content: [Inline]) -> Substring? {
        guard case .text(let last)? = content.last, last.hasSuffix("}"),
              let s = suffix(ofLine: ArraySlice(("x" + last).utf8)), dropping(s, from: content) != nil else { return nil }
        return s.drop { $0 == " " || $0 == "\t" }
    }

    /// Whether written heading text would read as ending with attributes (`Set {#a}` from Word): its `{` is then
    /// escaped.
    static func looksLikeAttributes(_ written: String) -> String.Index? {
        guard let s = suffix(ofLine: ArraySlice(written.utf8)) else { return nil }
        let brace = s.firstIndex(of: "{")!
        let offset = s.utf8.distance(from: s.utf8.startIndex, to: brace)
        let trimmedCount = written.utf8.count - (written.utf8.reversed().prefix { $0 == 0x20 || $0 == 0x09 }.count)
        return written.utf8.index(written.utf8.startIndex, offsetBy: trimmedCount - s.utf8.count + offset)
    }
}

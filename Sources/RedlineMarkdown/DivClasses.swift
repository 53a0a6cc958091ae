import RedlineCore

/// A fenced div's attributes (`::: {.callout-note}`, `::: warning`, `::: {#fig-a layout-ncol=2}`) travel as the
/// paragraph style name of the blocks inside it. Classes alone are written with their dots, joined by spaces
/// (`.callout-note`, `.column-margin .aside`); a div with an id or key-value attributes keeps its attribute list
/// as the author wrote it (`#box .callout-note title="Note"`). DOCX and RTF get a paragraph style of that name (no
/// Word style name starts with a dot or `#`), and a style name of either form is written back as the div.
enum DivClasses {
    /// True for a class the style name can carry: an ASCII letter, then letters, digits, `-` or `_`.
    static func isClass(_ s: Substring) -> Bool {
        guard let first = s.utf8.first, isLetter(first) else { return false }
        return s.utf8.allSatisfy { b in
            isLetter(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
        }
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
    }

    /// True for a token a div name keeps: `#id`, `.class`, or `key=value` with a key of the class form.
    static func isDivToken(_ t: AttributeToken) -> Bool {
        if t.key == "#" { return t.value.map { !$0.isEmpty && !$0.contains(" ") && !$0.contains("\t") } ?? false }
        if t.key.hasPrefix(".") { return t.value == nil && isClass(t.key.dropFirst()) }
        return t.value != nil && isClass(Substring(t.key))
    }

    /// The style name for these classes.
    static func styleName<S: Sequence>(_ classes: S) -> String where S.Element: StringProtocol {
        classes.map { "." + $0 }.joined(separator: " ")
    }

    /// The style name for a div's own tokens (each `isDivToken`): its classes' form when it has only classes,
    /// else `raw` (the list as written, when it holds just these tokens) or the tokens written out.
    static func styleName(_ tokens: [AttributeToken], raw: Substring?) -> String? {
        guard !tokens.isEmpty else { return nil }
        if tokens.allSatisfy({ $0.key.hasPrefix(".") }) { return styleName(tokens.map { $0.key.dropFirst() }) }
        let name = raw.map { String($0).trimmingCharacters(" \t") } ?? AttributeList.write(tokens)
        return attributes(of: name) == nil ? AttributeList.write(tokens) : name
    }

    /// The classes a paragraph style name stands for, or nil when it is an ordinary style name (or a div name
    /// with an id or key-value attributes).
    static func classes(of name: String?) -> [Substring]? {
        guard let name, name.hasPrefix(".") else { return nil }
        let parts = name.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ $0.hasPrefix(".") && isClass($0.dropFirst()) }) else { return nil }
        return parts.map { $0.dropFirst() }
    }

    /// The attribute tokens a div's style name stands for, or nil when it is an ordinary style name: a name
    /// starting with `.` or `#`, or made only of `key=value` pairs, whose every token is a div's.
    static func attributes(of name: String?) -> [AttributeToken]? {
        guard let name, let first = name.utf8.first, first != UInt8(ascii: " ") else { return nil }
        if let classes = classes(of: name) { return classes.map { AttributeToken("." + $0) } }
        guard let tokens = AttributeList.parse(Substring(name)), !tokens.isEmpty, tokens.allSatisfy(isDivToken) else { return nil }
        guard first == UInt8(ascii: ".") || first == UInt8(ascii: "#") || tokens.allSatisfy({ $0.value != nil && $0.key != "#" }) else { return nil }
        return tokens
    }

    /// True when a paragraph style name stands for a div.
    static func isDivName(_ name: String?) -> Bool { attributes(of: name) != nil }

    /// The fence line that opens a div with these classes.
    static func fence(_ classes: [Substring]) -> String {
        "::: {" + classes.map { "." + $0 }.joined(separator: " ") + "}"
    }

    /// The fence line that opens the div a style name stands for (`isDivName`).
    static func fence(name: String) -> String { "::: {" + name + "}" }

    /// The HTML tag that opens the div a style name stands for, in a dialect without fenced divs (GitHub's):
    /// `<div id="x" class="a b" key="v">`.
    static func htmlOpen(name: String) -> String {
        let tokens = attributes(of: name) ?? []
        var id: String?, classes: [String] = [], pairs: [(String, String)] = []
        for t in tokens {
            if t.key == "#" { id = id ?? t.value } else if t.key.hasPrefix(".") { classes.append(String(t.key.dropFirst())) } else if let v = t.value { pairs.append((t.key, v)) }
        }
        func quoted(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;") + "\""
        }
        var out = "<div"
        if let id { out += " id=" + quoted(id) }
        if !classes.isEmpty { out += " class=" + quoted(classes.joined(separator: " ")) }
        for (k, v) in pairs { out += " " + k + "=" + quoted(v) }
        return out + ">"
    }
}

/// The name of a raw content's format as pandoc's raw attribute spells it (`{=latex}`, `{=html5}`).
enum RawFormats {
    static func isFormat(_ s: Substring) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { c in
            (c.value >= 0x61 && c.value <= 0x7A) || (c.value >= 0x41 && c.value <= 0x5A) || (c.value >= 0x30 && c.value <= 0x39) || "_+-".unicodeScalars.contains(c)
        }
    }
}

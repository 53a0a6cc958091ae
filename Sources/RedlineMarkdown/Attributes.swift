import RedlineCore

/// One token of an attribute list: `#id` (key "#"), `.class` (key ".class"), `key=value`, or a bare word.
struct AttributeToken: Hashable {
    var key: String
    var value: String?

    init(_ key: String, _ value: String? = nil) {
        self.key = key
        self.value = value
    }
}

/// Pandoc-style attribute lists (`{#id .class key="value"}`, our `[move=m1 resolved]`): parsing and writing.
enum AttributeList {
    /// Parses the text between the braces/brackets; nil when it is not a well-formed list.
    static func parse(_ s: Substring) -> [AttributeToken]? {
        var out: [AttributeToken] = []
        var i = s.startIndex
        func skipSpace() { while i < s.endIndex, s[i] == " " || s[i] == "\t" { i = s.index(after: i) } }
        skipSpace()
        while i < s.endIndex {
            var key = ""
            while i < s.endIndex, s[i] != " ", s[i] != "\t", s[i] != "=", s[i] != "\"" {
                key.append(s[i]); i = s.index(after: i)
            }
            guard !key.isEmpty else { return nil }
            var value: String?
            if i < s.endIndex, s[i] == "=" {
                i = s.index(after: i)
                var v = ""
                if i < s.endIndex, s[i] == "\"" {
                    i = s.index(after: i)
                    var closed = false
                    while i < s.endIndex {
                        let c = s[i]
                        if c == "\\", s.index(after: i) < s.endIndex {
                            i = s.index(after: i)
                            switch s[i] {
                            case "n": v.append("\n")
                            case "r": v.append("\r")
                            case "t": v.append("\t")
                            default: v.append(s[i])
                            }
                            i = s.index(after: i)
                            continue
                        }
                        if c == "\"" { closed = true; i = s.index(after: i); break }
                        v.append(c); i = s.index(after: i)
                    }
                    guard closed else { return nil }
                } else {
                    while i < s.endIndex, s[i] != " ", s[i] != "\t" { v.append(s[i]); i = s.index(after: i) }
                }
                value = v
            } else if key.hasPrefix("#"), key.count > 1 {
                value = String(key.dropFirst()); key = "#"
            }
            out.append(AttributeToken(key, value))
            guard i == s.endIndex || s[i] == " " || s[i] == "\t" else { return nil }
            skipSpace()
        }
        return out
    }

    /// Writes tokens separated by spaces, quoting values that need it.
    static func write(_ tokens: [AttributeToken]) -> String {
        tokens.map { t in
            guard let v = t.value else { return t.key }
            if t.key == "#" { return "#" + v }
            return t.key + "=" + quoted(v)
        }.joined(separator: " ")
    }

    /// A value as written: bare when it is safe, else in double quotes with `\"` and `\\` escaped.
    static func quoted(_ v: String) -> String {
        let bare = !v.isEmpty && v.unicodeScalars.allSatisfy { c in
            (c.value >= 0x30 && c.value <= 0x39) || (c.value >= 0x41 && c.value <= 0x5A)
                || (c.value >= 0x61 && c.value <= 0x7A) || "#.-_:/%+".unicodeScalars.contains(c)
        }
        if bare { return v }
        return doubleQuoted(v) { c in "<>}]".unicodeScalars.contains(c) ? "\\" + String(c) : nil }
    }

    /// `v` in double quotes with `"`, `\`, newline, carriage return and tab escaped as `\"`, `\\`, `\n`,
    /// `\r`, `\t`, and any other scalar as `escape` writes it (nil: as it is). Attribute values and YAML
    /// front matter strings are quoted so, each escaping a few more characters of its own.
    static func doubleQuoted(_ v: String, escape: (Unicode.Scalar) -> String?) -> String {
        var s = "\""
        for c in v.unicodeScalars {
            switch c {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            default:
                if let e = escape(c) { s += e } else { s.unicodeScalars.append(c) }
            }
        }
        return s + "\""
    }
}

/// Formatting as attribute tokens: paragraph styles (fenced divs), character styles (bracketed spans),
/// and the old formats of tracked formatting changes. Keys are documented in docs/criticmarkup.md.
enum FormatAttributes {
    static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    // MARK: Character styles

    /// Tokens for a character style (`custom-style`, `font`, `size`, `color`, `background`, `.allcaps`,
    /// `.double-strike`).
    static func tokens(_ s: CharacterStyle) -> [AttributeToken] {
        var t: [AttributeToken] = []
        if let v = s.name { t.append(.init("custom-style", v)) }
        if let v = s.fontFamily { t.append(.init("font", v)) }
        if let v = s.fontSize { t.append(.init("size", number(v))) }
        if let v = s.color { t.append(.init("color", v.description)) }
        if let v = s.backgroundColor { t.append(.init("background", v.description)) }
        if s.allCaps { t.append(.init(".allcaps")) }
        if s.doubleStrikethrough { t.append(.init(".double-strike")) }
        return t
    }

    /// Applies a character-style token; false when the token is not one.
    static func apply(_ t: AttributeToken, to s: inout CharacterStyle) -> Bool {
        switch (t.key, t.value) {
        case ("custom-style", let v?): s.name = v
        case ("font", let v?): s.fontFamily = v
        case ("size", let v?): guard let d = Double(v) else { return false }; s.fontSize = d
        case ("color", let v?): guard let c = RGBColor(hex: v) else { return false }; s.color = c
        case ("background", let v?): guard let c = RGBColor(hex: v) else { return false }; s.backgroundColor = c
        case (".allcaps", nil): s.allCaps = true
        case (".double-strike", nil): s.doubleStrikethrough = true
        default: return false
        }
        return true
    }

    // MARK: Text formats (old formats of formatting changes)

    nonisolated(unsafe) static let toggleNames: [(String, WritableKeyPath<TextFormat, Bool>)] = [
        ("bold", \.bold), ("italic", \.italic), ("underline", \.underline), ("strike", \.strikethrough),
        ("superscript", \.superscript), ("subscript", \.subscript), ("smallcaps", \.smallCaps),
        ("highlight", \.highlight), ("code", \.code),
    ]

    /// Tokens for a complete text format.
    static func tokens(_ f: TextFormat) -> [AttributeToken] {
        toggleNames.filter { f[keyPath: $0.1] }.map { AttributeToken($0.0) } + tokens(f.style)
    }

    /// Applies a text-format token; false when the token is not one.
    static func apply(_ t: AttributeToken, to f: inout TextFormat) -> Bool {
        if t.value == nil, let p = toggleNames.first(where: { $0.0 == t.key }) {
            f[keyPath: p.1] = true
            return true
        }
        return apply(t, to: &f.style)
    }

    // MARK: Paragraph styles

    /// Tokens for a paragraph style (`custom-style`, `align`, `indent-first/left/right`, `line-height`,
    /// `line-exact`, `line-at-least`, `space-before/after`, `tabs`).
    static func tokens(_ s: ParagraphStyle) -> [AttributeToken] {
        var t: [AttributeToken] = []
        if let v = s.name { t.append(.init("custom-style", v)) }
        if let v = s.alignment { t.append(.init("align", v.rawValue)) }
        if let v = s.firstLineIndent { t.append(.init("indent-first", number(v))) }
        if let v = s.leftIndent { t.append(.init("indent-left", number(v))) }
        if let v = s.rightIndent { t.append(.init("indent-right", number(v))) }
        switch s.lineSpacing {
        case .multiple(let v)?: t.append(.init("line-height", number(v)))
        case .exactly(let v)?: t.append(.init("line-exact", number(v)))
        case .atLeast(let v)?: t.append(.init("line-at-least", number(v)))
        case nil: break
        }
        if let v = s.spaceBefore { t.append(.init("space-before", number(v))) }
        if let v = s.spaceAfter { t.append(.init("space-after", number(v))) }
        if !s.tabStops.isEmpty {
            t.append(.init("tabs", s.tabStops.map { tab in
                number(tab.position) + ":" + tab.alignment.rawValue + ":" + tab.leader.rawValue
            }.joined(separator: " ")))
        }
        return t
    }

    /// Applies a paragraph-style token; false when the token is not one.
    static func apply(_ t: AttributeToken, to s: inout ParagraphStyle) -> Bool {
        guard let v = t.value else { return false }
        switch t.key {
        case "custom-style": s.name = v
        case "align": guard let a = ParagraphAlignment(rawValue: v) else { return false }; s.alignment = a
        case "indent-first": guard let d = Double(v) else { return false }; s.firstLineIndent = d
        case "indent-left": guard let d = Double(v) else { return false }; s.leftIndent = d
        case "indent-right": guard let d = Double(v) else { return false }; s.rightIndent = d
        case "line-height": guard let d = Double(v) else { return false }; s.lineSpacing = .multiple(d)
        case "line-exact": guard let d = Double(v) else { return false }; s.lineSpacing = .exactly(d)
        case "line-at-least": guard let d = Double(v) else { return false }; s.lineSpacing = .atLeast(d)
        case "space-before": guard let d = Double(v) else { return false }; s.spaceBefore = d
        case "space-after": guard let d = Double(v) else { return false }; s.spaceAfter = d
        case "tabs":
            var stops: [TabStop] = []
            for part in v.split(separator: " ") {
                let f = part.split(separator: ":", omittingEmptySubsequences: false)
                guard let pos = Double(f[0]) else { return false }
                var stop = TabStop(position: pos)
                if f.count > 1 { guard let a = TabStop.Alignment(rawValue: String(f[1])) else { return false }; stop.alignment = a }
                if f.count > 2 { guard let l = TabStop.Leader(rawValue: String(f[2])) else { return false }; stop.leader = l }
                stops.append(stop)
            }
            s.tabStops = stops
        default: return false
        }
        return true
    }
}

/// What a GFM table cannot hold, carried with `preserveFormatting` as attributes of a fenced div around
/// the table: column widths in points (`widths="72 144.5"`) and a header row count other than one
/// (`header-rows=0`; GFM writes the first row as its header either way).
struct TableFormat: Equatable {
    var columnWidths: [Double]?
    var headerRowCount: Int?

    /// True when there is nothing to carry.
    var isEmpty: Bool { columnWidths == nil && headerRowCount == nil }

    /// The parts of `t` a GFM table loses.
    init(_ t: Table) {
        columnWidths = t.columnWidths
        headerRowCount = t.headerRowCount == 1 ? nil : t.headerRowCount
    }

    /// Nothing.
    init() {}

    /// The div attributes.
    var tokens: [AttributeToken] {
        var t: [AttributeToken] = []
        if let w = columnWidths { t.append(.init("widths", w.map(FormatAttributes.number).joined(separator: " "))) }
        if let n = headerRowCount { t.append(.init("header-rows", String(n))) }
        return t
    }

    /// Applies a div attribute; false when it is not a table attribute.
    mutating func apply(_ t: AttributeToken) -> Bool {
        guard let v = t.value else { return false }
        switch t.key {
        case "widths":
            let parts = v.split(separator: " ").map { Double($0) }
            guard !parts.contains(nil) else { return false }
            columnWidths = parts.compactMap { $0 }
        case "header-rows":
            guard let n = Int(v), n >= 0 else { return false }
            headerRowCount = n
        default: return false
        }
        return true
    }

    /// `t` with the carried parts applied.
    func applied(to t: Table) -> Table {
        var t = t
        if let w = columnWidths { t.columnWidths = w }
        if let n = headerRowCount { t.headerRowCount = n }
        return t
    }
}

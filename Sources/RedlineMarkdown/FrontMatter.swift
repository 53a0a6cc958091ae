import RedlineCore

/// YAML front matter: the subset documents use for metadata (scalars, flow and block lists of scalars,
/// block scalars). Other YAML (nested maps, anchors) is skipped with a warning.
enum FrontMatter {
    /// Splits front matter (`---` … `---` or `...` at the very start) from `bytes`; returns the metadata,
    /// the byte offset where the Markdown starts, and how many lines the front matter took.
    static func read(_ bytes: [UInt8], diagnostics: Diagnostics) -> (Metadata, body: Int, lines: Int) {
        guard bytes.starts(with: Array("---\n".utf8)) else { return (Metadata(), 0, 0) }
        // Find the closing line.
        var lines: [Substring] = []
        var k = 4
        var end: Int?
        var lineCount = 1
        while k < bytes.count {
            var e = k
            while e < bytes.count, bytes[e] != UInt8(ascii: "\n") { e += 1 }
            let line = Substring(decoding: bytes[k..<e], as: UTF8.self)
            lineCount += 1
            if line == "---" || line == "..." { end = min(e + 1, bytes.count); break }
            lines.append(line)
            k = e + 1
        }
        guard let bodyStart = end, let first = lines.first(where: { !$0.trimmingCharacters(" \t").isEmpty && !$0.hasPrefix("#") }),
              first.contains(":") else { return (Metadata(), 0, 0) }
        var meta = parse(lines, diagnostics: diagnostics)
        meta.source = lines.map { $0 + "\n" }.joined()
        return (meta, bodyStart, lineCount)
    }

    static func parse(_ lines: [Substring], diagnostics: Diagnostics) -> Metadata {
        var meta = Metadata()
        var i = 0
        while i < lines.count {
            let line = lines[i]
            i += 1
            if line.trimmingCharacters(" \t").isEmpty || line.hasPrefix("#") { continue }
            if line.first == " " || line.first == "\t" || line.hasPrefix("-") {
                diagnostics.report(.markdownFrontMatter, "YAML front matter: a line outside any field was skipped",
                                   at: SourceLocation(line: i + 1))
                continue
            }
            guard let (key, rest) = splitKey(line) else {
                diagnostics.report(.markdownFrontMatter, "YAML front matter: a line that is not 'key: value' was skipped",
                                   at: SourceLocation(line: i + 1))
                continue
            }
            let value = rest.trimmingCharacters(" \t")
            if value.isEmpty || value == "|" || value == ">" || value.hasPrefix("|") || value.hasPrefix(">") {
                // Indented continuation: a block list, a block scalar, or a nested map.
                var block: [Substring] = []
                while i < lines.count, lines[i].first == " " || lines[i].first == "\t" || lines[i].isEmpty {
                    block.append(lines[i]); i += 1
                }
                while let l = block.last, l.trimmingCharacters(" \t").isEmpty { block.removeLast() }
                if value.isEmpty {
                    if block.isEmpty { meta.fields.append(.init(key: key, value: .text(""))); continue }
                    let items = block.map { $0.trimmingCharacters(" \t") }
                    if items.allSatisfy({ $0.hasPrefix("- ") || $0 == "-" }) {
                        meta.fields.append(.init(key: key, value: .list(items.map { scalar($0.dropFirst().trimmingCharacters(" \t")) })))
                    } else {
                        diagnostics.report(.markdownFrontMatter, "YAML front matter: nested field '\(key)' is kept as written for Markdown and DOCX, not read as a field",
                                           at: SourceLocation(line: i))
                    }
                } else {
                    let indent = block.first(where: { !$0.trimmingCharacters(" \t").isEmpty })?.prefix { $0 == " " }.count ?? 0
                    let texts = block.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
                    let joined = value.hasPrefix("|") ? texts.joined(separator: "\n") : texts.joined(separator: " ")
                    meta.fields.append(.init(key: key, value: .text(joined)))
                }
                continue
            }
            if value.hasPrefix("[") {
                if let list = flowList(value) { meta.fields.append(.init(key: key, value: .list(list))); continue }
                diagnostics.report(.markdownFrontMatter, "YAML front matter: list '\(key)' could not be read", at: SourceLocation(line: i))
                continue
            }
            if value.hasPrefix("{") || value.hasPrefix("&") || value.hasPrefix("*") {
                diagnostics.report(.markdownFrontMatter, "YAML front matter: field '\(key)' is kept as written for Markdown and DOCX, not read as a field", at: SourceLocation(line: i))
                continue
            }
            meta.fields.append(.init(key: key, value: .text(scalar(value))))
        }
        return meta
    }

    private static func splitKey(_ line: Substring) -> (String, Substring)? {
        if line.first == "\"" || line.first == "'" {
            guard let (k, rest) = quoted(line), rest.first == ":" else { return nil }
            return (k, rest.dropFirst())
        }
        guard let colon = line.firstIndex(where: { $0 == ":" }) else { return nil }
        let after = line.index(after: colon)
        guard after == line.endIndex || line[after] == " " || line[after] == "\t" else { return nil }
        let key = line[..<colon].trimmingCharacters(" \t")
        return key.isEmpty ? nil : (key, line[after...])
    }

    /// A scalar: quoted (either style) or plain (a trailing ` #comment` removed).
    static func scalar(_ s: String) -> String {
        let v = Substring(s)
        if v.first == "\"" || v.first == "'", let (text, rest) = quoted(v), rest.trimmingCharacters(" \t").isEmpty { return text }
        if let hash = v.range(of: " #") { return String(v[..<hash.lowerBound]).trimmingCharacters(" \t") }
        return s
    }

    /// A quoted string at the start of `s` and what follows it.
    private static func quoted(_ s: Substring) -> (String, Substring)? {
        guard let q = s.first else { return nil }
        var out = ""
        var i = s.index(after: s.startIndex)
        while i < s.endIndex {
            let c = s[i]
            if q == "'" {
                if c == "'" {
                    let n = s.index(after: i)
                    if n < s.endIndex, s[n] == "'" { out.append("'"); i = s.index(after: n); continue }
                    return (out, s[n...])
                }
                out.append(c); i = s.index(after: i); continue
            }
            if c == "\"" { return (out, s[s.index(after: i)...]) }
            if c == "\\" {
                i = s.index(after: i)
                guard i < s.endIndex else { return nil }
                switch s[i] {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "0": out.append("\0")
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "/": out.append("/")
                case "u", "U", "x":
                    let n = s[i] == "u" ? 4 : s[i] == "U" ? 8 : 2
                    let hexStart = s.index(after: i)
                    guard let hexEnd = s.index(hexStart, offsetBy: n, limitedBy: s.endIndex),
                          let v = UInt32(s[hexStart..<hexEnd], radix: 16), let u = Unicode.Scalar(v) else { return nil }
                    out.unicodeScalars.append(u)
                    i = s.index(before: hexEnd)
                default: out.append(s[i])
                }
                i = s.index(after: i)
                continue
            }
            out.append(c); i = s.index(after: i)
        }
        return nil
    }

    private static func flowList(_ s: String) -> [String]? {
        var v = Substring(s.trimmingCharacters(" \t"))
        guard v.first == "[", v.last == "]" else { return nil }
        v = v.dropFirst().dropLast()
        var out: [String] = []
        while true {
            v = Substring(v.trimmingCharacters(" \t"))
            if v.isEmpty { break }
            if v.first == "\"" || v.first == "'" {
                guard let (text, rest) = quoted(v) else { return nil }
                out.append(text)
                v = Substring(rest.trimmingCharacters(" \t"))
            } else {
                let end = v.firstIndex(of: ",") ?? v.endIndex
                out.append(v[..<end].trimmingCharacters(" \t"))
                v = v[end...]
            }
            if v.isEmpty { break }
            guard v.first == "," else { return nil }
            v = v.dropFirst()
        }
        return out
    }

    // MARK: Writing

    /// The front matter block for `meta` (empty when there is no metadata). With the author's own text
    /// (`meta.source`) that text is written as it is, but for the fields whose value changed (rewritten),
    /// removed (left out) or added (after it); entries not read as fields (nested maps) are always kept.
    static func write(_ meta: Metadata) -> String {
        guard let source = meta.source else {
            return meta.isEmpty ? "" : "---\n" + meta.fields.map(line).joined() + "---\n\n"
        }
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let was = parse(lines, diagnostics: Diagnostics())
        // Entries: a top-level `key:` line with the indented and blank lines under it; a comment at the
        // left margin stands alone.
        var entries: [(key: String?, lines: [Substring])] = []
        for l in lines {
            let bare = l.hasSuffix("\r") ? l.dropLast() : l
            if let c = bare.first, c != " ", c != "\t", c != "#", c != "-", let (key, _) = splitKey(bare) {
                entries.append((key, [l]))
            } else if bare.first == "#" || entries.isEmpty {
                entries.append((nil, [l]))
            } else {
                entries[entries.count - 1].lines.append(l)
            }
        }
        var out = ""
        for (key, group) in entries {
            let text = group.map { $0 + "\n" }.joined()
            guard let key, let old = was.fields.first(where: { $0.key == key }) else { out += text; continue }
            guard let now = meta.fields.first(where: { $0.key == key }) else { continue }
            out += now.value == old.value ? text : line(now)
        }
        let keys = Set(entries.compactMap(\.key))
        for f in meta.fields where !keys.contains(f.key) { out += line(f) }
        return "---\n" + out + "---\n\n"
    }

    /// One flat field as a YAML line.
    private static func line(_ f: Metadata.Field) -> String {
        let key = f.key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } && !f.key.isEmpty
            ? f.key : quote(f.key)
        switch f.value {
        case .text(let t): return key + ": " + quote(t) + "\n"
        case .list(let l): return key + ": [" + l.map(quote).joined(separator: ", ") + "]\n"
        }
    }

    /// A YAML double-quoted string.
    static func quote(_ t: String) -> String {
        AttributeList.doubleQuoted(t) { u in
            guard u.value < 0x20 || u.value == 0x7F || (u.value >= 0x80 && u.value < 0xA0) || u.value == 0xFEFF else { return nil }
            return "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters from `set`.
    func trimmingCharacters(_ set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

/// The document's default paragraph and character styles in the front matter (written with
/// `preserveFormatting`): `default-paragraph-style` and `default-character-style`, each a string holding
/// the attribute list a fenced div or bracketed span would have (`"align=justified indent-first=36"`).
enum DefaultStyles {
    static let paragraphKey = "default-paragraph-style"
    static let characterKey = "default-character-style"
    /// Even pages have headers and footers of their own (`DocumentHeader.evenAndOddHeaders`).
    static let evenAndOddKey = "even-and-odd-headers"

    /// `meta` with the header's default styles added as fields (none when they are empty).
    static func adding(_ header: DocumentHeader, to meta: Metadata) -> Metadata {
        var m = meta
        if !header.defaultParagraphStyle.isEmpty {
            m.fields.append(.init(key: paragraphKey, value: .text(AttributeList.write(FormatAttributes.tokens(header.defaultParagraphStyle)))))
        }
        if !header.defaultCharacterStyle.isEmpty {
            m.fields.append(.init(key: characterKey, value: .text(AttributeList.write(FormatAttributes.tokens(header.defaultCharacterStyle)))))
        }
        if header.evenAndOddHeaders { m.fields.append(.init(key: evenAndOddKey, value: .text("true"))) }
        return m
    }

    /// The header for `meta`: the default-style fields taken out of the metadata and read as styles.
    static func header(from meta: Metadata, diagnostics: Diagnostics) -> DocumentHeader {
        var header = DocumentHeader()
        header.metadata.source = meta.source
        for f in meta.fields {
            if f.key == evenAndOddKey, f.value.strings == ["true"] {
                header.evenAndOddHeaders = true
                continue
            }
            guard f.key == paragraphKey || f.key == characterKey else {
                header.metadata.fields.append(f)
                continue
            }
            let text = f.value.strings.joined(separator: " ")
            guard let tokens = AttributeList.parse(Substring(text)) else {
                diagnostics.report(.markdownUnknownAttribute, "front matter field '\(f.key)' is not an attribute list; ignored")
                continue
            }
            for t in tokens {
                let known = f.key == paragraphKey ? FormatAttributes.apply(t, to: &header.defaultParagraphStyle)
                                                  : FormatAttributes.apply(t, to: &header.defaultCharacterStyle)
                if !known {
                    diagnostics.report(.markdownUnknownAttribute, "a default style attribute Redline does not know was ignored ('\(t.key)')")
                }
            }
        }
        return header
    }
}

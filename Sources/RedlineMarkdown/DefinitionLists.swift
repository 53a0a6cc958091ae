import RedlineCore

/// pandoc's definition lists (`Term` then `:   Definition`, `~` for `:`; tight or with a blank line between):
/// a term is a paragraph in the "Definition Term" style, each definition paragraph one in the "Definition" style
/// after it — pandoc's own DOCX styles, so Word shows them as pandoc does and pandoc reads Redline's DOCX as a
/// definition list. A definition on the line after its term or another definition is `compact` (tight). The
/// Markdown writer writes `:` and three spaces before a definition (on the next line when compact, else after a
/// blank line), its further lines indented four; a definition paragraph after another that is not compact is
/// the same definition's next paragraph (indented four, as pandoc writes it and reads it from DOCX).
enum DefinitionLists {
    static let termStyle = "Definition Term"
    static let definitionStyle = "Definition"

    /// The length of a definition marker at the start of a source line (up to two spaces, `:` or `~`, then
    /// spaces or a tab), or nil when the line does not start one.
    static func markerLength(_ line: ArraySlice<UInt8>) -> Int? {
        var i = line.startIndex
        var indent = 0
        while i < line.endIndex, line[i] == UInt8(ascii: " "), indent < 3 { i += 1; indent += 1 }
        guard indent <= 2, i < line.endIndex, line[i] == UInt8(ascii: ":") || line[i] == UInt8(ascii: "~") else { return nil }
        i += 1
        guard i < line.endIndex, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") else { return nil }
        while i < line.endIndex, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
        guard i < line.endIndex, line[i] != UInt8(ascii: "\n"), line[i] != UInt8(ascii: "\r") else { return nil }
        return i - line.startIndex
    }

    /// `content` split at its top-level soft breaks, or nil when it does not have `count` lines.
    static func lines(_ content: [Inline], count: Int) -> [[Inline]]? {
        var out: [[Inline]] = [[]]
        for i in content {
            if case .softBreak = i { out.append([]) } else { out[out.count - 1].append(i) }
        }
        return out.count == count ? out : nil
    }

    /// The marker the writer writes unless a definition says otherwise (`Paragraph.definitionMarker`).
    static let marker = ":   "

    /// A definition line's content without its marker (cmark read the line's text from its first non-space),
    /// and the marker; nil when the line does not begin with the marker as plain text.
    static func droppingMarker(_ line: [Inline]) -> (content: [Inline], marker: String)? {
        guard case .text(let s)? = line.first, let c = s.first, c == ":" || c == "~" else { return nil }
        let rest = s.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard rest.count < s.count - 1 else { return nil }
        var out = Array(line.dropFirst())
        if !rest.isEmpty { out.insert(.text(String(rest)), at: 0) }
        return out.isEmpty ? nil : (out, String(s[..<rest.startIndex]))
    }

    /// Whether `marker` can stand before a definition's text as written (a tab, or more than four columns,
    /// would read as code or indent the text differently): else the writer writes its own.
    static func isWritable(_ marker: String) -> Bool {
        marker.count <= 4 && marker.dropFirst().allSatisfy { $0 == " " } && (marker.first == ":" || marker.first == "~")
    }

    /// A paragraph's lines (`isMarker` for each source line) as a term and its definitions: the first line is
    /// the term, each marker line starts a definition and other lines continue the one before (pandoc's rule);
    /// nil when the first line is a marker or no line after it is, or a line cannot be split.
    static func items(_ lines: [[Inline]], isMarker: [Bool], style: ParagraphStyle, termFirst: Bool) -> [Paragraph]? {
        guard lines.count == isMarker.count, !lines.isEmpty else { return nil }
        if termFirst { guard !isMarker[0], isMarker.count > 1, isMarker[1] else { return nil } } else { guard isMarker[0] else { return nil } }
        var out: [Paragraph] = []
        for (k, line) in lines.enumerated() {
            if k == 0 && termFirst {
                guard !line.isEmpty else { return nil }
                out.append(Paragraph(line, style: named(termStyle, style)))
            } else if isMarker[k] {
                guard let (content, marker) = droppingMarker(line) else { return nil }
                var d = Paragraph(content, style: named(definitionStyle, style))
                if marker != Self.marker, isWritable(marker) { d.definitionMarker = marker }
                // On the line after its term or another definition: tight (pandoc's `Plain`).
                d.compact = k > 0
                out.append(d)
            } else {
                out[out.count - 1].content += [.softBreak] + line
            }
        }
        return out
    }

    private static func named(_ name: String, _ style: ParagraphStyle) -> ParagraphStyle {
        var s = style
        s.name = name
        return s
    }

    /// True for a paragraph in a definition list's styles.
    static func isTerm(_ p: Paragraph) -> Bool { p.style.name == termStyle }
    static func isDefinition(_ p: Paragraph) -> Bool { p.style.name == definitionStyle }
}

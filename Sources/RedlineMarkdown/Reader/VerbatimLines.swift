/// Follows Markdown text line by line the way cmark opens and closes the blocks whose lines it keeps
/// verbatim: fenced code and HTML blocks. The pre-passes (`CriticScanner`, `Segmenter`) find no marks,
/// cuts or definitions in those lines, and both must agree with cmark, and with each other, about which
/// lines they are: the fence-like line inside an HTML block (`<div>` then ```` ``` ````) opens no code.
///
/// Other blocks are followed only as far as that needs: whether a top-level paragraph or table is open (a
/// lone complete tag, an HTML block of kind 7, cannot interrupt a paragraph, but it can follow a table, a list
/// item or a quote), and whether a list or quote is (code or HTML opened in one ends with it). It is an
/// approximation of cmark's block parser, not a second one: lazy lines after a list item's heading, relative
/// indentation inside items and tabs are taken simply.
struct VerbatimLines {
    /// What a line is.
    enum Line: Equatable {
        /// Opens fenced code or an HTML block (and may close it on the same line).
        case opensVerbatim
        /// Inside fenced code or an HTML block, or the line that closes it.
        case verbatim
        /// Blank, outside any verbatim block (a blank line that ends an HTML block of kind 6 or 7 too).
        case blank
        /// Anything else.
        case text
    }

    private var fence: (char: UInt8, length: Int)?
    private var htmlBlock: HTMLBlockStart.End?
    /// Where the open fence or HTML block stands: at the top level, in a quote (a line without `>` ends both,
    /// and a blank line), or in a list item whose content starts at this column (a non-blank line indented
    /// less ends both): neither has lazy lines.
    private var container: VerbatimContainer = .none
    private enum VerbatimContainer { case none, quote, item(indent: Int) }
    /// What the last line left open at the top level: a paragraph (which a lone tag cannot interrupt, and a
    /// delimiter row turns into a table) or a table (whose rows any other block's start ends).
    private var open: OpenLeaf = .none
    private enum OpenLeaf { case none, paragraph, table }
    private var paragraphOpen: Bool { open == .paragraph }
    /// The last block opened in a list item or block quote: a list may still go on after a blank line.
    private(set) var inContainer = false
    private var previousBlank = true
    /// The last line was blank once its quote markers are taken off (`>` alone ends a paragraph in a quote).
    private var previousContentBlank = true

    /// Classifies the next line (without its newline) and moves past it.
    mutating func next(_ line: ArraySlice<UInt8>) -> Line {
        let blank = line.allSatisfy(Self.isSpace)
        let afterBlank = previousBlank, afterContentBlank = previousContentBlank
        previousBlank = false
        let markersEnd = Segmenter.afterContainerMarkers(line)
        let contentBlank = line[markersEnd...].allSatisfy(Self.isSpace)
        previousContentBlank = contentBlank
        if fence != nil || htmlBlock != nil {
            if staysInContainer(line, blank: blank) {
                if let f = fence {
                    if Segmenter.closes(line, f) { fence = nil }
                    return .verbatim
                }
                if let h = htmlBlock {
                    // In a quote, `>` alone is the blank line that ends kinds 6 and 7.
                    let innerBlank = if case .quote = container { contentBlank } else { blank }
                    guard h.ends(line, blank: innerBlank) else { return .verbatim }
                    htmlBlock = nil
                    if !innerBlank { return .verbatim }  // the line holding the end (kinds 1 to 5)
                }
            } else {
                // The quote or list item ends here, and its code or HTML with it: the line is a top-level one.
                fence = nil
                htmlBlock = nil
                inContainer = false
            }
        }
        if blank {
            previousBlank = true
            open = .none
            return .blank
        }
        let indent = line.prefix { $0 == UInt8(ascii: " ") }.count
        let body = line.dropFirst(min(indent, 3))
        if let f = Segmenter.fence(line) {
            fence = f
            container = containerOf(line, indent: indent, contentStart: line.firstIndex(of: f.char) ?? markersEnd)
            open = .none
            if indent == 0 && line.first == f.char { inContainer = false }  // not in a list or quote: it ends them
            return .opensVerbatim
        }
        if let h = htmlBlockStart(line, indent: indent, body: body, markersEnd: markersEnd, afterContentBlank: afterContentBlank) {
            if !h.ends(line, blank: false) { htmlBlock = h }
            container = containerOf(line, indent: indent, contentStart: markersEnd)
            open = .none
            if indent == 0 && line.first == UInt8(ascii: "<") { inContainer = false }
            return .opensVerbatim
        }
        // (A footnote definition's first line is a paragraph: the reader parses the definition's text alone,
        // where the lines after it continue that paragraph.)
        if indent < 4, body.first == UInt8(ascii: ">")
            || (Segmenter.isListMarkerLine(body) && (!paragraphOpen || Self.listItemInterruptsParagraph(body))) {
            inContainer = true
            open = .none
        } else if indent >= 4 {
            // A paragraph's continuation (it stays open), a container's content, or indented code (none is).
        } else if Self.isHeadingOrBreak(body, afterParagraph: paragraphOpen) {
            if indent == 0 { inContainer = false }
            open = .none
        } else if open == .table {
            // A row (cmark-gfm ends a table at a blank line or another block's start).
        } else if paragraphOpen && Self.isDelimiterRow(body) {
            open = .table
        } else if inContainer {
            // A lazy continuation of the container's paragraph, or after a blank line a new top-level one.
            if afterBlank && indent == 0 {
                inContainer = false
                open = .paragraph
            }
        } else {
            open = .paragraph
        }
        return .text
    }

    /// Whether a line stays in the container the open fence or HTML block stands in (a blank line ends a
    /// quote, not a list item).
    private func staysInContainer(_ line: ArraySlice<UInt8>, blank: Bool) -> Bool {
        let indent = line.prefix { $0 == UInt8(ascii: " ") }.count
        switch container {
        case .none: return true
        case .quote: return !blank && indent < 4 && line.dropFirst(indent).first == UInt8(ascii: ">")
        case .item(let column): return blank || indent >= column
        }
    }

    /// The container a fence or HTML block opening on `line` stands in, its content starting at `contentStart`.
    private func containerOf(_ line: ArraySlice<UInt8>, indent: Int, contentStart: Int) -> VerbatimContainer {
        let first = line.dropFirst(indent).first
        if first == UInt8(ascii: ">") { return .quote }
        if contentStart > line.startIndex + indent { return .item(indent: contentStart - line.startIndex) }  // after a list marker
        return inContainer && indent > 0 ? .item(indent: indent) : .none
    }

    /// What ends the HTML block `line` opens, if it opens one: at the top level (column 0, or indented up to
    /// three spaces outside any list), or inside a quote or list item after its markers or indent. A lone tag
    /// (kind 7) cannot interrupt a paragraph: at the top level the tracked one; in a container, unless the
    /// line before was blank in it or this line opens a list item.
    private func htmlBlockStart(_ line: ArraySlice<UInt8>, indent: Int, body: ArraySlice<UInt8>, markersEnd: Int,
                                afterContentBlank: Bool) -> HTMLBlockStart.End? {
        let hasMarkers = markersEnd > line.startIndex + indent  // `>` or a list marker before the content
        if !hasMarkers && (indent == 0 || (indent < 4 && !inContainer)) {
            return HTMLBlockStart.end(of: body, interruptingParagraph: paragraphOpen)
        }
        guard hasMarkers || inContainer else { return nil }
        let content = line[markersEnd...]
        let opensItem = indent < 4 && Segmenter.isListMarkerLine(line.dropFirst(indent))
        return HTMLBlockStart.end(of: content, interruptingParagraph: !(afterContentBlank || opensItem))
    }

    /// Whether a list marker line may interrupt a paragraph (CommonMark: not an empty item, and an ordered one
    /// only from 1); otherwise it continues the paragraph (`2. x` after a paragraph line is its text).
    private static func listItemInterruptsParagraph(_ body: ArraySlice<UInt8>) -> Bool {
        let marker = body.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard body.dropFirst(marker.count).contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return false }
        guard let first = marker.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return true }
        return marker.dropLast().elementsEqual([UInt8(ascii: "1")])
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }

    /// A GFM table's delimiter row (`| --- | :-: |`): pipes, dashes, colons and spaces, with a pipe and a dash.
    private static func isDelimiterRow(_ body: ArraySlice<UInt8>) -> Bool {
        body.contains(UInt8(ascii: "|")) && body.contains(UInt8(ascii: "-"))
            && body.allSatisfy { [UInt8(ascii: "|"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t")].contains($0) }
    }

    /// Whether a line at column 0 always starts a new top-level block, whatever came before: an ATX heading
    /// (it interrupts a paragraph and ends lists and quotes). Call with the line `next` called `.text`.
    static func startsTopLevelBlock(_ line: ArraySlice<UInt8>) -> Bool {
        line.first == UInt8(ascii: "#") && isHeadingOrBreak(line, afterParagraph: false)
    }

    /// An ATX heading, a thematic break, or (after a paragraph line) a setext heading's underline.
    private static func isHeadingOrBreak(_ body: ArraySlice<UInt8>, afterParagraph: Bool) -> Bool {
        guard let c = body.first else { return false }
        func isSpace(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        if c == UInt8(ascii: "#") {
            let n = body.prefix { $0 == c }.count
            return n <= 6 && (body.count == n || isSpace(body[body.startIndex + n]))
        }
        if c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") {
            if body.allSatisfy({ $0 == c || isSpace($0) }), body.filter({ $0 == c }).count >= 3 { return true }
        }
        if afterParagraph, c == UInt8(ascii: "=") || c == UInt8(ascii: "-") {
            let n = body.prefix { $0 == c }.count
            return body.dropFirst(n).allSatisfy(isSpace)
        }
        return false
    }
}

/// CommonMark's HTML block starts (cmark-gfm 0.29: kinds 1 to 7) at the start of a line (after at most three spaces),
/// which the pre-passes copy whole as cmark will keep them (`VerbatimLines`).
enum HTMLBlockStart {
    /// What ends an HTML block: a line containing one of these (kinds 1 to 5, the line included), or a
    /// blank line (kinds 6 and 7).
    enum End {
        case lineContaining([[UInt8]])
        case blankLine

        func ends(_ line: ArraySlice<UInt8>, blank: Bool) -> Bool {
            switch self {
            case .blankLine: return blank
            case .lineContaining(let needles): return needles.contains { HTMLBlockStart.contains(line, $0) }
            }
        }
    }

    private static let kind6Names: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
        "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol",
        "optgroup", "option", "p", "param", "section", "source", "summary", "table", "tbody", "td", "tfoot",
        "th", "thead", "title", "tr", "track", "ul",
    ]

    /// What ends the HTML block `line` (its indent removed) starts; nil when it starts none. Kind 7 (a lone
    /// complete tag) cannot interrupt a paragraph.
    static func end(of line: ArraySlice<UInt8>, interruptingParagraph: Bool) -> End? {
        guard line.first == UInt8(ascii: "<") else { return nil }
        let rest = line.dropFirst()
        if rest.starts(with: Array("!--".utf8)) { return .lineContaining([Array("-->".utf8)]) }
        if rest.first == UInt8(ascii: "?") { return .lineContaining([Array("?>".utf8)]) }
        if rest.starts(with: Array("![CDATA[".utf8)) { return .lineContaining([Array("]]>".utf8)]) }
        if rest.first == UInt8(ascii: "!"), let c = rest.dropFirst().first, isLetter(c) {
            return .lineContaining([[UInt8(ascii: ">")]])
        }
        let closing = rest.first == UInt8(ascii: "/")
        let nameStart = closing ? rest.dropFirst() : rest
        let name = nameStart.prefix { isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") }
        guard let first = name.first, isLetter(first) else { return nil }
        let lower = String(decoding: name.map { $0 | 0x20 }, as: UTF8.self)
        let after = nameStart.dropFirst(name.count)
        if !closing, ["script", "pre", "style"].contains(lower), after.first.map({ [0x20, 0x09, UInt8(ascii: ">")].contains($0) }) ?? true {
            return .lineContaining(["</script>", "</pre>", "</style>"].map { Array($0.utf8) })
        }
        if kind6Names.contains(lower) {
            let ok = after.first.map { [0x20, 0x09, UInt8(ascii: ">")].contains($0) } ?? true
                || after.starts(with: Array("/>".utf8))
            if ok { return .blankLine }
        }
        guard !interruptingParagraph, isCompleteTag(nameStart.dropFirst(name.count), closing: closing) else { return nil }
        return .blankLine
    }

    /// Whether `s` (after a tag name) ends an open tag (attributes, `/`, `>`) or a closing tag (`>`), with
    /// nothing but spaces after it.
    private static func isCompleteTag(_ s: ArraySlice<UInt8>, closing: Bool) -> Bool {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        var k = s.startIndex
        func skipSpaces() { while k < s.endIndex, isSpace(s[k]) { k += 1 } }
        if !closing {
            while true {
                let before = k
                skipSpaces()
                guard k < s.endIndex else { return false }
                let c = s[k]
                guard k > before, isLetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") else { break }
                while k < s.endIndex, isLetter(s[k]) || (s[k] >= 0x30 && s[k] <= 0x39) || [UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "-")].contains(s[k]) { k += 1 }
                let afterName = k
                skipSpaces()
                if k < s.endIndex, s[k] == UInt8(ascii: "=") {
                    k += 1
                    skipSpaces()
                    guard k < s.endIndex else { return false }
                    if s[k] == UInt8(ascii: "\"") || s[k] == UInt8(ascii: "'") {
                        let q = s[k]
                        k += 1
                        while k < s.endIndex, s[k] != q { k += 1 }
                        guard k < s.endIndex else { return false }
                        k += 1
                    } else {
                        let start = k
                        while k < s.endIndex, !isSpace(s[k]), !"\"'=<>`".utf8.contains(s[k]) { k += 1 }
                        guard k > start else { return false }
                    }
                } else {
                    k = afterName
                }
            }
            skipSpaces()
            if k < s.endIndex, s[k] == UInt8(ascii: "/") { k += 1 }
        } else {
            skipSpaces()
        }
        guard k < s.endIndex, s[k] == UInt8(ascii: ">") else { return false }
        k += 1
        return s[k...].allSatisfy(isSpace)
    }

    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }

    /// Whether `line` contains `needle`, ASCII letters matched case-insensitively.
    static func contains(_ line: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard line.count >= needle.count, !needle.isEmpty else { return false }
        var k = line.startIndex
        while k + needle.count <= line.endIndex {
            var m = 0
            while m < needle.count, fold(line[k + m]) == fold(needle[m]) { m += 1 }
            if m == needle.count { return true }
            k += 1
        }
        return false
    }

    private static func fold(_ b: UInt8) -> UInt8 { isLetter(b) ? b | 0x20 : b }
}

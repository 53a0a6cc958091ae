import RedlineCore

/// Writes a standalone HTML review page (one file, inline CSS and script, no network): insertions as
/// `<ins>`, deletions as `<del>`, in a colour per author (`a0`…`a5` by order of appearance), highlights
/// as `<mark>`, comments (author, date, replies, resolved) in `<aside>`s floated into the right margin
/// beside the block that anchors them, comment ranges shaded (overlapping ranges too), footnotes at the
/// end, tables, and paragraph and character formatting as inline CSS. A panel (`ReviewPage`) switches
/// between the marked, clean and original views and lists the changes and comments, filtered by author
/// and kind, each a link to its place. Streams: each block is written as it arrives.
public struct HTMLWriter: FormatWriter {
    /// Whether the page is for printing (the Chromium PDF engine's): the last section's page size, margins,
    /// headers and footers go into `@page` rules (`RunningHeads`) instead of being reported as dropped.
    public var runningHeads: Bool

    /// A writer (options come with each sink).
    public init(runningHeads: Bool = false) { self.runningHeads = runningHeads }

    /// A sink writing one HTML page into `output`.
    public func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
        var sink = HTMLSink(output: output, options: options, diagnostics: diagnostics)
        if runningHeads { sink.heads = RunningHeads() }
        return sink
    }

    /// A whole document as HTML (convenience for tests).
    public static func string(_ document: Document, options: WriteOptions = WriteOptions()) throws -> String {
        let out = MemoryOutput()
        var source = ChunkArraySource(document)
        var sink = HTMLSink(output: out, options: options, diagnostics: Diagnostics())
        try Pipeline.run(source: &source, stages: [], sink: &sink)
        return out.string
    }
}

/// The streaming HTML sink.
public struct HTMLSink: ChunkSink {
    private let output: any ByteOutput
    private let diagnostics: Diagnostics
    private var renderer = HTMLRenderer()
    private var notes: [Note] = []
    /// The review panel and its script (`WriteOptions.reviewPanel`); without: the plain document.
    private let panel: Bool
    /// The panel's total of changes (`WriteOptions.listedChanges`).
    private let listedChanges: Int?
    /// The sections and their headers and footers, which the page cannot carry (reported at the end).
    private var pageLoss = PageLoss()
    /// The text box the last top-level block was in (its `div.text-box` is open).
    private var openTextBox: TextBox?
    /// The printed page's running heads, when the page is for printing (`HTMLWriter.runningHeads`).
    var heads: RunningHeads?
    private var evenAndOddHeaders = false

    init(output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) {
        self.output = output
        self.diagnostics = diagnostics
        panel = options.reviewPanel
        listedChanges = options.listedChanges
        renderer.media = MediaExtractor(options: options, diagnostics: diagnostics)
    }

    static let css = ReviewPage.css

    /// Writes the page head, the style sheet and the metadata.
    public mutating func begin(_ header: DocumentHeader) throws {
        evenAndOddHeaders = header.evenAndOddHeaders
        renderer.figures = !header.hasOwnFormatting
        var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        s += "<title>" + HTMLRenderer.escape(header.metadata.title ?? "Document") + "</title>\n"
        if panel {
            s += "<style>\n" + Self.css + "\n</style>\n</head>\n<body class=\"marked\">\n" + ReviewPage.panel(listing: listedChanges)
                + "<main>\n"
        } else {
            s += "<style>\n" + Self.css + "\n" + ReviewPage.plainCSS + "\n</style>\n</head>\n<body>\n<main>\n"
        }
        let meta = header.metadata
        if !meta.isEmpty {
            s += "<header class=\"metadata\">\n"
            if let t = meta.title { s += "<h1 class=\"title\">" + HTMLRenderer.escape(t) + "</h1>\n" }
            if !meta.authors.isEmpty { s += "<p class=\"author\">" + HTMLRenderer.escape(meta.authors.joined(separator: ", ")) + "</p>\n" }
            if let d = meta.date { s += "<p class=\"date\">" + HTMLRenderer.escape(d) + "</p>\n" }
            s += "</header>\n"
        }
        try output.write(s)
    }

    /// Writes one block, then the comments anchored in it.
    public mutating func write(_ chunk: Chunk) throws {
        if heads != nil { heads!.add(chunk) } else { pageLoss.add(chunk) }
        renderer.register(chunk.comments)
        // Top-level blocks in a row in one text box: one `div.text-box` (a box inside a cell or quote is not marked).
        let box = chunk.block.textBox
        var s = ""
        if box != openTextBox {
            if openTextBox != nil { s += "</div>\n" }
            if box != nil { s += "<div class=\"text-box\" style=\"border:1px solid #999;padding:0 .75em;margin:.75em 0\">\n" }
            openTextBox = box
        }
        let block = renderer.block(chunk.block)
        // Asides first: floated right, each starts level with the block that anchors it.
        s += renderer.commentAsides() + block
        notes += chunk.notes
        try renderer.media?.check()
        try output.write(s)
    }

    /// Writes the footnotes and closes the page.
    public mutating func finish() throws {
        var s = openTextBox != nil ? "</div>\n" : ""
        openTextBox = nil
        if !notes.isEmpty {
            s += "<section class=\"footnotes\">\n<ol>\n"
            for n in notes {
                s += "<li id=\"fn-" + HTMLRenderer.escape(n.id) + "\">" + n.blocks.map { renderer.block($0) }.joined()
                s += " <a href=\"#fnref-" + HTMLRenderer.escape(n.id) + "\">↩</a></li>\n"
            }
            s += "</ol>\n</section>\n"
            try renderer.media?.check()
            s += renderer.commentAsides()
        }
        if renderer.unanchoredComments > 0 {
            diagnostics.report(.htmlUnanchoredComment, "comments that nothing in the text anchors were left out",
                               count: renderer.unanchoredComments)
        }
        if let heads {
            // A style element in the body applies to the whole page, as one in the head would.
            let css = heads.css(evenAndOddHeaders: evenAndOddHeaders)
            if !css.isEmpty { s += "<style>\n" + css + "\n</style>\n" }
            if heads.unprinted > 0 {
                diagnostics.report(.lossyHeaderFooter, "headers and footers of earlier sections that differ from the last section's were not printed",
                                   count: heads.unprinted)
            }
            if heads.sections > 1 {
                diagnostics.report(.lossySection, "the pages are printed with the last section's layout", count: heads.sections - 1)
            }
        } else {
            pageLoss.report(to: diagnostics, format: "HTML")
        }
        s += panel ? "</main>\n<script>\n" + ReviewPage.script + "\n</script>\n</body>\n</html>\n"
                   : "</main>\n</body>\n</html>\n"
        try output.write(s)
        try output.flush()
    }
}

/// Renders blocks and inlines to HTML.
struct HTMLRenderer {
    /// Lone pictures with alt text are figures (a source without formatting of its own: Markdown's).
    var figures = false
    /// Where pictures go (files beside the page, or data URIs with `embedMedia`).
    var media: MediaExtractor?
    private var comments: [String: Comment] = [:]
    /// Comments registered but never anchored in the text (left out of the page).
    var unanchoredComments: Int { comments.count }
    private var replies: [String: [Comment]] = [:]
    /// Comments anchored since the last asides were written.
    private var anchored: [String] = []
    private var openRanges: [String] = []
    private var commentNumbers: [String: Int] = [:]
    /// Authors by order of appearance: their index picks their colour class (`a0`…`a5`).
    private var authors: [String: Int] = [:]
    private var changeCount = 0
    /// The moves listed in the panel so far, by name.
    private var listedMoves: Set<String> = []

    mutating func register(_ list: [Comment]) {
        for c in list {
            if let p = c.parentID { replies[p, default: []].append(c) } else { comments[c.id] = c }
        }
    }

    static func escape(_ s: String) -> String { MarkupEscaper.html.escaped(s) }

    static func title(_ c: Change, _ what: String) -> String {
        var parts = [what]
        if let a = c.author { parts.append("by " + a) }
        if let d = c.date { parts.append("on " + d) }
        return " title=\"" + escape(parts.joined(separator: " ")) + "\""
    }

    // MARK: Blocks

    mutating func block(_ b: Block) -> String {
        switch b {
        case .paragraph(let p):
            if figures, p.style.isEmpty, p.styleChange == nil, let alt = FigureCaptions.figureAlt(p) {
                // A Markdown figure (`FigureCaptions`): the picture and its alt text as the caption, as pandoc writes it.
                return "<figure>\n" + inlines(p.content) + "\n<figcaption aria-hidden=\"true\">" + Self.escape(alt)
                    + "</figcaption>\n</figure>\n"
            }
            return paragraph(p, tag: "p")
        case .heading(let l, let p): return paragraph(p, tag: "h\(max(1, min(6, l)))")
        case .blockQuote(let bs): return "<blockquote>\n" + bs.map { block($0) }.joined() + "</blockquote>\n"
        case .list(let l):
            var s: String
            switch l.kind {
            case .bullet: s = "<ul>\n"
            case .ordered(let start, _): s = start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n"
            }
            for item in l.items {
                if l.tight, item.count == 1, let p = item[0].paragraph, case .paragraph = item[0] {
                    s += "<li>" + inlines(p.content) + "</li>\n"
                } else {
                    s += "<li>" + item.map { block($0) }.joined() + "</li>\n"
                }
            }
            if case .bullet = l.kind { s += "</ul>\n" } else { s += "</ol>\n" }
            return s
        case .codeBlock(let c):
            let cls = c.language.isEmpty ? "" : " class=\"language-" + Self.escape(c.language) + "\""
            return "<pre><code" + cls + ">" + Self.escape(c.text) + "</code></pre>\n"
        case .table(let t): return table(t)
        case .thematicBreak: return "<hr>\n"
        case .raw(let format, let text): return format == "html" ? text + (text.hasSuffix("\n") ? "" : "\n") : ""
        }
    }

    private mutating func paragraph(_ p: Paragraph, tag: String) -> String {
        var attrs = ""
        let css = Self.css(p.style)
        var classes: [String] = []
        if let n = p.style.name { classes.append("style-" + Self.cssIdent(n)) }
        if p.styleChange != nil { classes.append("style-changed") }
        if let sc = p.styleChange {
            attrs += change(sc.change, "format", classes: Self.escape(classes.joined(separator: " ")))
                + Self.title(sc.change, "paragraph formatting changed")
        } else if !classes.isEmpty {
            attrs += " class=\"" + Self.escape(classes.joined(separator: " ")) + "\""
        }
        if !css.isEmpty { attrs += " style=\"" + Self.escape(css) + "\"" }
        var s = "<" + tag + attrs + ">" + inlines(p.content)
        switch p.markChange {
        case .inserted(let c)?:
            s += "<ins" + change(c, "insertion", classes: "break") + Self.title(c, "paragraph break inserted") + ">¶</ins>"
        case .deleted(let c)?:
            s += "<del" + change(c, "deletion", classes: "break") + Self.title(c, "paragraph break deleted") + ">¶</del>"
        case nil: break
        }
        return s + "</" + tag + ">\n"
    }

    static func cssIdent(_ s: String) -> String {
        String(s.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
    }

    static func css(_ s: ParagraphStyle) -> String {
        var parts: [String] = []
        if let a = s.alignment { parts.append("text-align:" + (a == .justified ? "justify" : a.rawValue)) }
        if let v = s.firstLineIndent { parts.append("text-indent:\(number(v))pt") }
        if let v = s.leftIndent { parts.append("margin-left:\(number(v))pt") }
        if let v = s.rightIndent { parts.append("margin-right:\(number(v))pt") }
        switch s.lineSpacing {
        case .multiple(let v)?: parts.append("line-height:\(number(v))")
        case .exactly(let v)?: parts.append("line-height:\(number(v))pt")
        case .atLeast(let v)?: parts.append("min-height:\(number(v))pt")
        case nil: break
        }
        if let v = s.spaceBefore { parts.append("margin-top:\(number(v))pt") }
        if let v = s.spaceAfter { parts.append("margin-bottom:\(number(v))pt") }
        return parts.joined(separator: ";")
    }

    static func css(_ s: CharacterStyle) -> String {
        var parts: [String] = []
        if let f = s.fontFamily { parts.append("font-family:'" + f.replacingQuotes + "'") }
        if let v = s.fontSize { parts.append("font-size:\(number(v))pt") }
        if let c = s.color { parts.append("color:" + c.description) }
        if let c = s.backgroundColor { parts.append("background-color:" + c.description) }
        if s.allCaps { parts.append("text-transform:uppercase") }
        if s.doubleStrikethrough { parts.append("text-decoration:line-through double") }
        return parts.joined(separator: ";")
    }

    private mutating func table(_ t: Table) -> String {
        var s = "<table>\n"
        for (n, row) in t.rows.enumerated() {
            let header = n < t.headerRowCount
            var cls = ""
            switch row.change {
            case .inserted(let c)?: cls = change(c, "insertion", classes: "inserted") + Self.title(c, "row inserted")
            case .deleted(let c)?: cls = change(c, "deletion", classes: "deleted") + Self.title(c, "row deleted")
            case nil: break
            }
            s += "<tr" + cls + ">"
            for (k, cell) in row.cells.enumerated() {
                let tag = header ? "th" : "td"
                var attrs = ""
                if cell.columnSpan > 1 { attrs += " colspan=\"\(cell.columnSpan)\"" }
                if cell.rowSpan > 1 { attrs += " rowspan=\"\(cell.rowSpan)\"" }
                if k < t.columns.count, t.columns[k] != .none { attrs += " style=\"text-align:\(t.columns[k].rawValue)\"" }
                let inner: String
                if cell.blocks.count == 1, let p = cell.blocks[0].paragraph, case .paragraph = cell.blocks[0] {
                    inner = inlines(p.content)
                } else {
                    inner = cell.blocks.map { block($0) }.joined()
                }
                s += "<" + tag + attrs + ">" + inner + "</" + tag + ">"
            }
            s += "</tr>\n"
        }
        return s + "</table>\n"
    }

    // MARK: Inlines

    mutating func inlines(_ list: [Inline]) -> String {
        var s = ""
        for i in list { s += inline(i) }
        return s
    }

    private mutating func wrap(_ tag: String, _ c: [Inline]) -> String { wrap(tag, "", c) }

    private mutating func wrap(_ tag: String, _ attrs: String, _ c: [Inline]) -> String {
        "<" + tag + attrs + ">" + inlines(c) + "</" + tag + ">"
    }

    private mutating func inline(_ i: Inline) -> String {
        switch i {
        case .text(let t):
            let e = Self.escape(t)
            if openRanges.isEmpty { return e }
            return "<span class=\"comment-range\" data-comments=\"" + Self.escape(openRanges.joined(separator: " ")) + "\">" + e + "</span>"
        case .emphasis(let c): return wrap("em", c)
        case .strong(let c): return wrap("strong", c)
        case .strikethrough(let c): return wrap("s", c)
        case .underline(let c): return wrap("u", c)
        case .superscript(let c): return wrap("sup", c)
        case .subscript(let c): return wrap("sub", c)
        case .smallCaps(let c): return wrap("span", " style=\"font-variant:small-caps\"", c)
        case .highlight(let c): return wrap("mark", c)
        case .styled(let st, let c):
            var attrs = ""
            if let n = st.name { attrs += " class=\"char-" + Self.escape(Self.cssIdent(n)) + "\"" }
            let css = Self.css(st)
            if !css.isEmpty { attrs += " style=\"" + Self.escape(css) + "\"" }
            return wrap("span", attrs, c)
        case .code(let t): return "<code>" + Self.escape(t) + "</code>"
        case .link(let l, let c):
            let title = l.title.isEmpty ? "" : " title=\"" + Self.escape(l.title) + "\""
            return wrap("a", " href=\"" + Self.escape(l.url) + "\"" + title, c)
        case .image(let img):
            let title = img.title.isEmpty ? "" : " title=\"" + Self.escape(img.title) + "\""
            var size = ""
            if img.width != nil || img.height != nil, let s = img.displaySize {
                size = " width=\"\(Int((s.width * 4 / 3).rounded()))\" height=\"\(Int((s.height * 4 / 3).rounded()))\""
            }
            let src = media?.reference(for: img) ?? img.source
            return "<img src=\"" + Self.escape(src) + "\" alt=\"" + Self.escape(img.alt) + "\"" + title + size + ">"
        case .lineBreak: return "<br>\n"
        case .softBreak: return "\n"
        case .raw(let f, let t): return f == "html" ? t : ""
        case .math(let kind, let tex):
            // As pandoc writes it (for MathJax or KaTeX to typeset).
            return kind == .display ? "<span class=\"math display\">\\[" + Self.escape(tex) + "\\]</span>"
                : "<span class=\"math inline\">\\(" + Self.escape(tex) + "\\)</span>"
        case .field(let f, let c):
            // Its result, with the instruction kept where a reader of the HTML can find it.
            return wrap("span", " class=\"field\" data-instruction=\"" + Self.escape(f.instruction) + "\"", c)
        case .noteReference(let id):
            let e = Self.escape(id)
            return "<sup class=\"footnote-ref\"><a href=\"#fn-" + e + "\" id=\"fnref-" + e + "\">" + e + "</a></sup>"
        case .insertion(let ch, let c): return wrap("ins", change(ch, "insertion") + Self.title(ch, "inserted"), c)
        case .deletion(let ch, let c): return wrap("del", change(ch, "deletion") + Self.title(ch, "deleted"), c)
        case .substitution(let ch, let d, let ins):
            return wrap("del", change(ch, "substitution") + Self.title(ch, "deleted"), d)
                + wrap("ins", change(ch, "substitution", part: true) + Self.title(ch, "inserted"), ins)
        case .move(let m, let c):
            let what = m.side == .from ? "moved away (\(m.name))" : "moved here (\(m.name))"
            // Both places of a move (and every piece of each) are one change in the panel, as `redline changes` lists it.
            let first = m.name.isEmpty || listedMoves.insert(m.name).inserted
            return wrap(m.side == .from ? "del" : "ins", change(m.change, "move", classes: "move", part: !first) + Self.title(m.change, what), c)
        case .formatChange(let f, let c):
            return wrap("span", change(f.change, "format", classes: "format-change") + Self.title(f.change, "formatting changed"), c)
        case .commentStart(let id):
            openRanges.append(id)
            return commentRef(id)
        case .commentEnd(let id):
            openRanges.removeAll { $0 == id }
            return ""
        case .commentPoint(let id):
            return commentRef(id)
        }
    }

    private mutating func commentRef(_ id: String) -> String {
        let n = commentNumbers[id] ?? (commentNumbers.count + 1)
        commentNumbers[id] = n
        anchored.append(id)
        return "<sup class=\"comment-ref\"><a href=\"#comment-" + Self.escape(id) + "\">[\(n)]</a></sup>"
    }

    /// The colour class of `author` (`a0`…`a5`, by order of appearance; no author is an author too).
    private mutating func authorClass(_ author: String?) -> String {
        let key = author ?? ""
        let n = authors[key] ?? authors.count
        authors[key] = n
        return "a\(n % ReviewPage.authorColours)"
    }

    /// The attributes marking a change for the review panel: an id to jump to, the author's colour class,
    /// its kind and author. `part`: the inserted half of a substitution (listed once, with its deletion).
    private mutating func change(_ c: Change, _ kind: String, classes: String = "", part: Bool = false) -> String {
        var s = " class=\"" + (classes.isEmpty ? "" : classes + " ") + authorClass(c.author) + "\""
        if !part {
            changeCount += 1
            s += " id=\"change-\(changeCount)\" data-change=\"" + kind + "\""
        }
        return s + " data-author=\"" + Self.escape(c.author ?? "Anonymous") + "\""
    }

    /// The comments anchored since the last call, each with its replies.
    mutating func commentAsides() -> String {
        var s = ""
        let ids = anchored
        anchored = []
        for id in ids {
            guard let c = comments.removeValue(forKey: id) else { continue }
            let saved = openRanges
            openRanges = []
            s += "<aside class=\"comment " + authorClass(c.author) + (c.resolved ? " resolved" : "") + "\" id=\"comment-"
                + Self.escape(id) + "\" data-author=\"" + Self.escape(c.author ?? "Anonymous") + "\">"
            s += commentBody(c, number: commentNumbers[id])
            for r in replies.removeValue(forKey: id) ?? [] {
                s += "<div class=\"reply " + authorClass(r.author) + "\" data-author=\"" + Self.escape(r.author ?? "Anonymous")
                    + "\">" + commentBody(r, number: nil) + "</div>"
            }
            s += "</aside>\n"
            openRanges = saved
        }
        return s
    }

    private mutating func commentBody(_ c: Comment, number: Int?) -> String {
        var meta: [String] = []
        if let n = number { meta.append("[\(n)]") }
        meta.append(c.author ?? "Anonymous")
        if let d = c.date { meta.append(d) }
        if c.resolved { meta.append("(resolved)") }
        var s = "<div class=\"comment-meta\">" + Self.escape(meta.joined(separator: " · ")) + "</div>"
        s += c.body.map { block($0) }.joined()
        return s
    }
}

extension String {
    var replacingQuotes: String { String(map { $0 == "'" || $0 == "\"" ? " " : $0 }) }
}

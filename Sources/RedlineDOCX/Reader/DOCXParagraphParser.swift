import RedlineCore
import RedlineXML

/// Paragraphs and their inline content: runs, revision wrappers, links, fields, notes, comment
/// anchors, drawings, text boxes and equations.
extension StoryParser {
    /// What encloses a run: a tracked change and a hyperlink.
    struct Enclosing {
        var change: RunChange?
        var link: Link?
        /// Tracked changes around this point (a revision inside a revision is 2).
        var revisionDepth = 0
    }

    /// `w:p` (the reader on its start tag): the paragraph, and after it the text of any text boxes in it.
    func paragraph() throws -> [ParsedBlock] {
        progress.paragraphCount += 1
        let paraID = x.attribute("paraId", in: OOXML.w14)
        var markup = ParagraphMarkup()
        var runs = progress.runBuffer
        progress.runBuffer = []
        runs.append(contentsOf: progress.pendingAtoms)
        progress.pendingAtoms = []
        var extra: [Block] = []
        try forEachChild {
            if x.isElement(.pPr, in: OOXML.w) {
                markup = try PropertyParser.paragraphProperties(x, diagnostics: diagnostics)
            } else {
                try inlineElement(&runs, &extra, Enclosing())
            }
        }
        progress.lastParaID = paraID
        if markup.markVanished {
            // The paragraph mark was inserted and deleted again: in no version does the paragraph end
            // here, so its content joins the next paragraph.
            progress.pendingAtoms = runs
            return extra.map { .block($0) }
        }

        let styles = context.styles
        let styleID = markup.props.styleID ?? styles.defaultParagraphStyleID
        let base = resolvedStyle(styleID)
        let resolved = base.props.merged(with: markup.props)
        let inlines = RunNesting.paragraphInlines(from: runs)
        ReusableBuffer.empty(&runs)
        progress.runBuffer = runs
        var paragraph = Paragraph(inlines, style: paragraphStyle(resolved, styleID: styleID), markChange: markup.markChange)
        if let (change, old) = markup.propsChange {
            let oldID = old.styleID ?? styles.defaultParagraphStyleID
            let oldStyle = paragraphStyle(styles.paragraphProps(oldID).merged(with: old), styleID: oldID)
            paragraph.styleChange = ParagraphStyleChange(change: change, old: oldStyle)
        }
        let numID = resolved.numID.flatMap { $0 == "0" ? nil : $0 }
        let level = max(0, min(resolved.level ?? 0, 8))
        let numbered = numID.flatMap { context.numbering.level($0, level) } != nil
        var out: [ParsedBlock]
        // A paragraph whose style change is tracked stays a paragraph with its style name, so that
        // rejecting the change gives back the old style.
        let quoted = base.role == .quote && paragraph.styleChange == nil
        if quoted && paragraph.style.name == StyleSheet.quoteStyleName {
            // The block quote says it (a writer writes its quotes in this style).
            paragraph.style.name = nil
        }
        if let h = markup.props.outlineLevel == nil ? base.heading : styles.headingLevel(resolved) {
            if numbered {
                diagnostics.report(.docxHeadingNumbering, "heading numbers are not kept", at: location)
            }
            // A heading in a block quote is a quote paragraph with an outline level (as the writer writes it).
            out = [.block(.heading(level: h, paragraph), quoted: quoted)]
        } else if numbered, let numID {
            // The list carries the indent (and Word's "List Paragraph" style says only "in a list").
            paragraph.style.leftIndent = nil
            paragraph.style.firstLineIndent = nil
            if paragraph.style.name?.lowercased() == "list paragraph" { paragraph.style.name = nil }
            paragraph.styleChange?.old.leftIndent = nil
            paragraph.styleChange?.old.firstLineIndent = nil
            out = [.listItem(.paragraph(paragraph), numID: numID, level: level, quoted: quoted)]
        } else if base.role == .code, let code = Self.codeBlock(paragraph) {
            out = [.block(.codeBlock(code))]
        } else if base.role == .rule, paragraph.content.isEmpty, paragraph.markChange == nil, paragraph.styleChange == nil {
            out = [.block(.thematicBreak)]
        } else {
            out = [.block(.paragraph(paragraph), quoted: quoted)]
        }
        return out + extra.map { .block($0) }
    }

    /// A paragraph in a code style as a code block (line breaks are new lines), when it holds plain text
    /// only; nil when it has anything a code block cannot carry (changes, comments, formatting, notes).
    /// pandoc's syntax-token character styles (`KeywordTok`, `StringTok`, ...: R Markdown and Quarto documents)
    /// make code runs; their formatting is highlighting, not the author's: a paragraph of them is a code block.
    static func codeBlock(_ p: Paragraph) -> CodeBlock? {
        guard p.markChange == nil, p.styleChange == nil else { return nil }
        var text = ""
        func onlyCode(_ inlines: [Inline]) -> Bool {
            inlines.allSatisfy { i in
                switch i {
                case .code: return true
                case .strong(let c), .emphasis(let c), .underline(let c), .styled(_, let c): return onlyCode(c)
                default: return false
                }
            }
        }
        func add(_ inlines: [Inline], inCode: Bool) -> Bool {
            for inline in inlines {
                switch inline {
                case .text(let s) where !inCode: text += s
                case .code(let s): text += s
                case .lineBreak: text += "\n"
                case .strong(let c), .emphasis(let c), .underline(let c), .styled(_, let c):
                    // Formatting around code only (the token styles' colours and weights): highlighting.
                    guard inCode || onlyCode(c), add(c, inCode: true) else { return false }
                default: return false
                }
            }
            return true
        }
        guard add(p.content, inCode: false) else { return nil }
        return CodeBlock(text: text + "\n")
    }

    /// A paragraph style's properties through its chain, its heading level and block role, computed once per style.
    private func resolvedStyle(_ id: String?) -> (props: ParaProps, heading: Int?, role: StyleSheet.BlockRole?) {
        if let cached = cache.styleCache[id ?? ""] { return cached }
        let props = context.styles.paragraphProps(id)
        let entry = (props, context.styles.headingLevel(props), context.styles.blockRole(id))
        cache.styleCache[id ?? ""] = entry
        return entry
    }

    /// The model's style for resolved properties: what differs from the document default, and the
    /// style's name unless it is the default paragraph style.
    private func paragraphStyle(_ props: ParaProps, styleID: String?) -> ParagraphStyle {
        var style = props.style.subtracting(context.defaultParagraph)
        style.name = styleID == context.styles.defaultParagraphStyleID ? nil : context.styles.name(styleID)
        return style
    }

    /// One inline-level element inside a paragraph (or inside a wrapper in it).
    func inlineElement(_ runs: inout [Run], _ extra: inout [Block], _ enclosing: Enclosing) throws {
        if x.namespace == OOXML.m {
            runs += try equation().map { var r = $0; r.change = enclosing.change; r.link = enclosing.link; return r }
            return
        }
        guard x.namespace == OOXML.w else { try x.skipElement(); return }
        switch x.tag {
        case .r:
            try run(&runs, &extra, enclosing)
        case .ins, .del, .moveFrom, .moveTo:
            // Word nests two deep (an insertion deleted by someone else); deeper nesting is read as the
            // enclosing change (each level rebuilt its inner levels: quadratic in the depth).
            if enclosing.revisionDepth >= Limits().maxRevisionNesting {
                diagnostics.report(.docxRevisionNesting, "tracked changes nested deeper than \(Limits().maxRevisionNesting) were read as the change around them (\(Limits.name("maxRevisionNesting", Limits().maxRevisionNesting)))", at: location)
                try forEachChild { try inlineElement(&runs, &extra, enclosing) }
                return
            }
            var inner = enclosing
            inner.revisionDepth += 1
            let change = PropertyParser.change(x)
            switch x.tag {
            case .ins: inner.change = .insertion(change)
            case .del: inner.change = .deletion(change)
            case .moveFrom: inner.change = .move(Move(change: change, name: progress.moveFromName ?? "move\(change.id ?? "")", side: .from))
            default: inner.change = .move(Move(change: change, name: progress.moveToName ?? "move\(change.id ?? "")", side: .to))
            }
            guard let outer = enclosing.change else {
                try forEachChild { try inlineElement(&runs, &extra, inner) }
                return
            }
            // A revision inside another (text inserted, then deleted by someone else): nest the inner
            // one inside the outer, so accepting and rejecting both see it.
            var innerRuns: [Run] = []
            try forEachChild { try inlineElement(&innerRuns, &extra, inner) }
            runs += InlineBuilder.inlines(from: innerRuns).map { Run(.atom($0), change: outer) }
        case .hyperlink:
            var inner = enclosing
            var url = x.attribute("id", in: OOXML.r).flatMap { context.relationships[$0]?.target } ?? ""
            if let anchor = x.attribute("anchor", in: OOXML.w) { url += "#" + anchor }
            inner.link = Link(url: url, title: x.attribute("tooltip", in: OOXML.w) ?? "")
            try forEachChild { try inlineElement(&runs, &extra, inner) }
        case .fldSimple:
            var inner = enclosing
            if let link = Self.hyperlink(fromField: x.attribute("instr", in: OOXML.w) ?? "") { inner.link = link }
            try forEachChild { try inlineElement(&runs, &extra, inner) }
        case .commentRangeStart, .commentRangeEnd:
            if var atom = commentMarker() {
                atom.change = nil
                runs.append(atom)
            }
            try x.skipElement()
        case .moveFromRangeStart, .moveToRangeStart, .moveFromRangeEnd, .moveToRangeEnd, .bookmarkStart:
            rangeMarker()
            try x.skipElement()
        default:
            try x.skipElement()
        }
    }

    /// A run's properties, and the look they give (computed on the run's first content, then kept).
    private struct RunLook {
        var markup = RunMarkup()
        var hasProperties = false
        var computed: (format: TextFormat, change: FormatChange?)?
    }

    /// The look of a run: its properties, in a link or not. (A method on state passed in, not a closure
    /// over it: the run loop is the reader's hottest.)
    private func compute(_ look: inout RunLook, _ enclosing: Enclosing) {
        let inLink = enclosing.link != nil || progress.fields.contains { $0.link != nil }
        if !look.hasProperties && !inLink {
            // Most runs have no properties: their look is the same every time.
            if cache.plainRunFormat == nil {
                let plain = runFormat(look.markup, inLink: false)  // runFormat uses the cache: no access open across it
                cache.plainRunFormat = plain
            }
            look.computed = cache.plainRunFormat
        } else {
            look.computed = runFormat(look.markup, inLink: inLink)
        }
    }

    /// Adds `content` to `runs` with the run's look, unless a field's instruction is being read.
    private func add(_ content: Run.Content, to runs: inout [Run], _ look: inout RunLook, _ enclosing: Enclosing) {
        if progress.fields.contains(where: { !$0.showingResult }) { return }
        if look.computed == nil { compute(&look, enclosing) }
        let run = Run(content, format: look.computed!.format, link: progress.fields.last(where: { $0.link != nil })?.link ?? enclosing.link,
                      change: enclosing.change, formatChange: look.computed!.change)
        // Adjacent text of the same look joins the previous run (Word splits runs freely).
        if case .text(let s) = content, let i = runs.indices.last, case .text(var joined) = runs[i].content,
           runs[i].hasLook(of: run) {
            runs[i].content = .lineBreak  // releases the run's copy, so the append below is in place
            joined += s
            runs[i].content = .text(joined)
            return
        }
        runs.append(run)
    }

    private func addAtom(_ inline: Inline, to runs: inout [Run], _ enclosing: Enclosing) {
        if progress.fields.contains(where: { !$0.showingResult }) { return }
        runs.append(Run(.atom(inline), change: enclosing.change))
    }

    /// `w:r`: its properties, then text, breaks, tabs, symbols, field characters and anchors.
    private func run(_ runs: inout [Run], _ extra: inout [Block], _ enclosing: Enclosing) throws {
        var look = RunLook()
        try forEachChild {
            guard x.namespace == OOXML.w else {
                if x.namespace == OOXML.m { runs += try equation() } else { try x.skipElement() }
                return
            }
            switch x.tag {
            case .rPr:
                var ignored: ParagraphMarkChange?
                look.markup = try PropertyParser.runProperties(x, diagnostics: diagnostics, markChange: &ignored)
                // LibreOffice writes an empty `<w:rPr></w:rPr>` in every run: that is no properties.
                look.hasProperties = look.markup.formatChange != nil || look.markup.props != RunProps()
                look.computed = nil
                return
            case .t, .delText:
                let text = try x.elementText()
                if !text.isEmpty { add(.text(text), to: &runs, &look, enclosing) }
                return
            case .instrText, .delInstrText:
                let text = try x.elementText()
                if let last = progress.fields.indices.last, !progress.fields[last].showingResult {
                    progress.fields[last].instruction += text
                }
                return
            case .fldChar:
                switch x.attribute("fldCharType", in: OOXML.w) {
                case "begin": progress.fields.append(Field())
                case "separate":
                    if let last = progress.fields.indices.last {
                        progress.fields[last].showingResult = true
                        progress.fields[last].link = Self.hyperlink(fromField: progress.fields[last].instruction)
                    }
                case "end": if !progress.fields.isEmpty { progress.fields.removeLast() }
                default: break
                }
            case .tab, .ptab: add(.text("\t"), to: &runs, &look, enclosing)
            case .br:
                switch x.attribute("type", in: OOXML.w) {
                case "page", "column":
                    diagnostics.report(.docxPageBreak, "page and column breaks are not kept", at: location)
                default: add(.lineBreak, to: &runs, &look, enclosing)
                }
            case .cr: add(.lineBreak, to: &runs, &look, enclosing)
            case .noBreakHyphen: add(.text("\u{2011}"), to: &runs, &look, enclosing)
            case .softHyphen: add(.text("\u{00AD}"), to: &runs, &look, enclosing)
            case .sym:
                if let code = x.attribute("char", in: OOXML.w).flatMap({ UInt32($0, radix: 16) }) {
                    add(.text(SymbolFont.character(code, font: x.attribute("font", in: OOXML.w))), to: &runs, &look, enclosing)
                }
            case .footnoteReference, .endnoteReference:
                if let id = x.attribute("id", in: OOXML.w) {
                    let key = (x.tag == .footnoteReference ? "fn" : "en") + id
                    addAtom(.noteReference(context.noteLabels[key] ?? key), to: &runs, enclosing)
                }
            case .commentReference:
                if let id = x.attribute("id", in: OOXML.w), !context.replyIDs.contains(id), !progress.startedComments.contains(id) {
                    // The mark keeps the run's direct formatting (not its "annotation reference" style), so
                    // a comment inside bold text stays inside it (`**a{>>c<<}b**`, `**{>>c<<}**`).
                    var format = TextFormat()
                    if look.hasProperties {
                        var direct = look.markup
                        direct.props.styleID = nil
                        direct.props.size = nil
                        format = runFormat(direct, inLink: false).0
                    }
                    runs.append(Run(.atom(.commentPoint(id)), format: format))
                }
            case .drawing, .pict, .object:
                try graphic(enclosing: enclosing, add: { addAtom($0, to: &runs, enclosing) }, extra: &extra)
                return
            default:
                break
            }
            try x.skipElement()
        }
    }

    /// The model's formatting of a run: its character style and direct properties (paragraph-style run
    /// properties are the paragraph's look, not the run's), without the document's default font and size.
    private func runFormat(_ markup: RunMarkup, inLink: Bool) -> (TextFormat, FormatChange?) {
        // Most runs repeat a recent look: reuse it.
        for k in cache.recentFormats.indices
        where cache.recentFormats[k].inLink == inLink && cache.recentFormats[k].props == markup.props
            && cache.recentFormats[k].old.isSame(as: markup.formatChange?.1)
            && cache.recentFormats[k].change.isSame(as: markup.formatChange?.0) {
            return (cache.recentFormats[k].format, cache.recentFormats[k].formatChange)
        }
        let result = computeRunFormat(markup, inLink: inLink)
        if cache.recentFormats.count == 4 { cache.recentFormats.removeLast() }
        cache.recentFormats.insert(RunLookCache.RecentLook(props: markup.props, old: markup.formatChange?.1,
                                                          change: markup.formatChange?.0, inLink: inLink,
                                                          format: result.0, formatChange: result.1), at: 0)
        return result
    }

    private func computeRunFormat(_ markup: RunMarkup, inLink: Bool) -> (TextFormat, FormatChange?) {
        func format(_ props: RunProps) -> TextFormat {
            let styleName = context.styles.name(props.styleID)?.lowercased()
            let base = inLink && styleName == "hyperlink" ? RunProps() : context.styles.characterProps(props.styleID)
            var f = base.merged(with: props).textFormat
            f.style = f.style.subtracting(context.defaultCharacter)
            // pandoc's syntax-token styles ("Keyword Tok", "StringTok", ...) mark highlighted code.
            if let n = styleName, ["verbatim char", "source text", "html code", "code"].contains(n) || n.hasSuffix("tok") {
                f.code = true
                f.style.fontFamily = nil
            }
            return f
        }
        let f = format(markup.props)
        guard let (change, old) = markup.formatChange else { return (f, nil) }
        let o = format(old)
        return (f, o == f ? nil : FormatChange(change: change, old: o))
    }

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

    /// A drawing, VML picture or embedded object: a picture (its bytes into the media store, its size from
    /// `wp:extent`), the text of text boxes (as blocks after the paragraph), a warning for charts and objects.
    private func graphic(enclosing: Enclosing, add: (Inline) -> Void, extra: inout [Block]) throws {
        var alt = "", title = ""
        var target: String?
        var size: (Double, Double)?
        var chart = false, object = x.tag == .object
        try x.forEachDescendant {
            if x.isElement(.txbxContent, in: OOXML.w) {
                let saved = progress.fields
                progress.fields = []
                extra += try blocks()
                progress.fields = saved
                diagnostics.report(.docxTextBox, "text boxes are kept as paragraphs after their anchor; their position is lost", at: location)
                return true
            }
            switch (x.namespace, x.tag) {
            case (OOXML.wp, .docPr):
                alt = x.attribute("descr") ?? ""
                title = x.attribute("title") ?? ""
            case (OOXML.wp, .extent):
                if let cx = x.attribute("cx").flatMap(Double.init), let cy = x.attribute("cy").flatMap(Double.init),
                   cx > 0, cy > 0, size == nil {
                    size = (cx / 12700, cy / 12700)
                }
            case (OOXML.a, .blip):
                target = x.attribute("embed", in: OOXML.r) ?? x.attribute("link", in: OOXML.r)
            case (OOXML.v, .imagedata):
                target = x.attribute("id", in: OOXML.r) ?? target
                if title.isEmpty { title = x.attribute("title", in: OOXML.o) ?? "" }
            case (OOXML.c, .chart): chart = true
            case (OOXML.o, .OLEObject): object = true
            default: break
            }
            return false
        }
        if chart || object {
            diagnostics.report(.docxChart, "charts and embedded objects are not kept (their text lives outside the document)", at: location)
            return
        }
        guard let id = target, let rel = context.relationships[id] else { return }
        var image = Image(source: "", title: title, alt: alt, width: size?.0, height: size?.1)
        if rel.external {
            image.source = rel.target
            diagnostics.report(.docxImage, "linked (not embedded) pictures are kept as links (e.g. \(rel.target))", at: location)
        } else if let item = context.pictures?.item(rel.target, diagnostics: diagnostics, at: location) {
            image.media = item
        } else {
            return
        }
        add(.image(image))
    }

    /// An OMML equation (`m:oMath`, `m:oMathPara`, reader on its start tag): its text, with a warning.
    func equation() throws -> [Run] {
        diagnostics.report(.docxEquation, "equations are kept as plain text", at: location)
        var out = ""
        try x.forEachDescendant {
            guard x.isElement(.t, in: OOXML.m) else { return false }
            out += try x.elementText()
            return true
        }
        return out.isEmpty ? [] : [Run(.text(out))]
    }
}

private extension Run {
    /// The same formatting, link and change as `other` (compared in place: this is the run loop).
    func hasLook(of other: Run) -> Bool {
        format == other.format && change.isSame(as: other.change) && link.isSame(as: other.link)
            && formatChange.isSame(as: other.formatChange)
    }
}

import Foundation
import RedlineCore

extension RTFSink {
    // MARK: Blocks

    mutating func writeBlock(_ block: Block, context: BlockContext) {
        switch block {
        case .paragraph(let p):
            if let info = p.codeInfo, !info.isEmpty {
                // A comparison's code-style paragraph: RTF has no place for the language it carries.
                diagnostics.report(.rtfCodeLanguageDropped, "code block languages were dropped")
            }
            writeParagraph(p, headingLevel: nil, context: context)
        case .heading(let level, let p):
            writeParagraph(p, headingLevel: level, context: context)
        case .blockQuote(let blocks):
            var c = context
            c.defaultStyleName = BlockStyleRole.quote.exactName
            for b in blocks {
                switch b {
                case .paragraph, .heading: writeBlock(b, context: c)
                default:
                    diagnostics.report(.rtfBlockFlattened, "a block inside a quotation was written as a plain block")
                    writeBlock(b, context: context)
                }
            }
        case .list(let l):
            writeList(l, level: context.list.map { $0.level + 1 } ?? 0, context: context)
        case .codeBlock(let code) where RawStyles.format(ofInfo: code.infoString) != nil:
            // pandoc's raw block (```` ```{=latex} ````), which RTF keeps as raw content (`RawStyles`).
            writeParagraph(RawStyles.paragraph(format: RawStyles.format(ofInfo: code.infoString)!, text: code.text), headingLevel: nil,
                           context: context, raw: true)
        case .codeBlock(let code):
            if !code.language.isEmpty {
                diagnostics.report(.rtfCodeLanguageDropped, "code block languages were dropped")
            }
            var p = Paragraph(code.lineBrokenContent, style: ParagraphStyle(name: BlockStyleRole.code.exactName))
            p.content = [.styled(CharacterStyle(fontFamily: "Courier New"), p.content)]
            writeParagraph(p, headingLevel: nil, context: context, raw: true)
        case .table(let t):
            writeTable(t, depth: context.tableDepth + 1)
        case .thematicBreak:
            writeParagraph(Paragraph([.text("* * *")], style: ParagraphStyle(name: BlockStyleRole.rule.exactName, alignment: .center)),
                           headingLevel: nil, context: context, raw: true)
        case .raw(let format, let text):
            if format.lowercased() == "rtf" {
                emit(text)
            } else {
                // Shown as its text in a style naming its format, read back as the raw block (`RawStyles`).
                writeParagraph(RawStyles.paragraph(format: format, text: text), headingLevel: nil, context: context, raw: true)
            }
        }
    }

    private mutating func writeList(_ l: List, level: Int, context: BlockContext) {
        let ls = tables.list(kind: l.kind, level: level)
        for (n, item) in l.items.enumerated() {
            var first = true
            for b in item {
                var c = context
                c.list = (ls, level)
                switch b {
                case .paragraph, .heading:
                    if first {
                        switch l.kind {
                        case .bullet: c.marker = "\u{2022}"
                        case .ordered(let start, let d): c.marker = "\(start + n)\(d)"
                        }
                    }
                    writeBlock(b, context: c)
                case .list:
                    writeBlock(b, context: c)
                default:
                    diagnostics.report(.rtfBlockFlattened, "a block inside a list item was written after it")
                    var plain = context
                    plain.list = nil
                    writeBlock(b, context: plain)
                }
                first = false
            }
        }
    }

    // MARK: Paragraphs

    /// Writes one paragraph; `terminator` replaces `\par` (table cells end with `\cell`).
    mutating func writeParagraph(_ p: Paragraph, headingLevel: Int?, context: BlockContext, raw: Bool = false,
                                 terminator: String? = nil) {
        var style = p.style
        if !raw, headingLevel == nil, let preset = options.paragraphPreset { style = preset.merged(with: style) }
        if style.name == nil { style.name = context.defaultStyleName }
        let continuation = context.list != nil && context.marker == nil
        if let (_, level) = context.list, continuation {
            style.name = "List Continue" + (level > 0 ? " \(level + 1)" : "")
        }
        let alignment = style.alignment ?? context.defaultAlignment
        emit("\\pard\\plain ")
        if let level = headingLevel {
            // A heading in a quote or a list item has its container's style, which must not take the
            // heading's outline level (every other paragraph of that style would read as a heading).
            let own = style.name == nil || style.name == p.style.name
            let name = style.name ?? "heading \(level)"
            emit("\\s\(own ? tables.style(name, outline: level - 1) : tables.style(name))\\outlinelevel\(level - 1)")
        } else if let name = style.name {
            let n = tables.style(name)
            // A style a heading gave an outline level (a div's, shared by a heading and its text): this
            // paragraph is body text (Word's level 9), not a heading.
            emit(tables.styles[n - 1].outline == nil ? "\\s\(n)" : "\\s\(n)\\outlinelevel9")
        }
        if context.tableDepth > 0 {
            emit("\\intbl")
            if context.tableDepth > 1 { emit("\\itap\(context.tableDepth)") }
        }
        var geometry = style
        if let (ls, level) = context.list {
            if !continuation { emit("\\ls\(ls)\\ilvl\(level)") }
            geometry.firstLineIndent = continuation ? nil : -18
            geometry.leftIndent = Double(36 * (level + 1))
            geometry.tabStops = []
        }
        RTFParagraphFormat.write(geometry, alignment: alignment, into: &out)
        if p.styleChange != nil {
            diagnostics.report(.rtfParagraphStyleChangeDropped, "tracked paragraph-format changes were written as the new formatting")
        }
        emit(" ")
        if context.list != nil, let marker = context.marker {
            emit("{\\listtext\\pard\\plain ")
            RTFText.escape(marker, into: &out)
            emit("\\tab}")
        }
        if headingLevel != nil, let attributes = p.headingAttributes {
            // pandoc's attributes after a Markdown heading, in a destination of Redline's own (other readers skip
            // it); its `#id` a bookmark, as Word names one.
            emit("{\\*\\redlineattr ")
            // The spaces before the list as hex (a reader takes spaces after the control word as its end).
            let spaces = attributes.prefix { $0 == " " || $0 == "\t" }
            for c in spaces { emit(c == " " ? "\\'20" : "\\'09") }
            RTFText.escape(String(attributes.dropFirst(spaces.count)), into: &out)
            emit("}")
            if let id = HeadingIDs.first(in: attributes) {
                emit("{\\*\\bkmkstart ")
                RTFText.escape(id, into: &out)
                emit("}{\\*\\bkmkend ")
                RTFText.escape(id, into: &out)
                emit("}")
            }
        }
        writeInlines(p.content)
        var end = terminator ?? "\\par"
        if let section = p.sectionEnd, terminator == nil, context.tableDepth == 0, !inHeaderStory {
            // The section's words and stories, then `\sect` for the paragraph's mark.
            writeSection(section)
            end = "\\sect"
        }
        if let mc = p.markChange {
            if terminator != nil { end = "\\par}" + (terminator ?? "") }
            switch mc {
            case .inserted(let c): emit("{\\revised\\revauth\(tables.author(c.author))\(dateWord("\\revdttm", c.date))")
            case .deleted(let c): emit("{\\deleted\\revauthdel\(tables.author(c.author))\(dateWord("\\revdttmdel", c.date))")
            }
            emit(terminator == nil ? end + "}\n" : end + "\n")
        } else {
            emit(end + "\n")
        }
    }

    private mutating func dateWord(_ word: String, _ date: String?) -> String {
        guard let date else { return "" }
        if let v = dateCache[date] { return "\(word)\(v)" }
        guard let v = dttm(fromISO: date) else {
            diagnostics.report(.rtfDateDropped, "dates that are not ISO 8601 were left out")
            return ""
        }
        if dateCache.count < 4096 { dateCache[date] = v }
        return "\(word)\(v)"
    }

    // MARK: Runs

    mutating func writeInlines(_ inlines: [Inline]) {
        if Self.hasNestedChange(inlines, in: .none) {
            diagnostics.report(.rtfNestedChange, "a change inside another change (other than text inserted, then deleted by someone else) was written as the inner change only")
        }
        var openLink: Link?
        // A deletion (or a move's source) inside an insertion (or a move's destination) is a run marked both
        // `\revised` (the insertion) and `\deleted`, as Word writes it.
        let (runs, insertions) = inlines.runsAndEnclosingInsertions
        for k in runs.indices {
            let r = runs[k]
            if !r.link.isSame(as: openLink) {
                if openLink != nil { emit("}}") }
                openLink = r.link
                if let l = r.link { openField(l) }
            }
            outerInsertion = insertions.isEmpty ? nil : insertions[k]
            writeRun(r)
        }
        outerInsertion = nil
        if openLink != nil { emit("}}") }
    }

    /// Which change the inlines `hasNestedChange` looks at sit in.
    enum ChangeNesting { case none, insertion, deletion }

    /// True when a tracked change sits inside another in a way RTF cannot mark (a run carries one insertion
    /// and one deletion: only a deletion or a move's source inside an insertion or a move's destination,
    /// itself in no change, is written whole).
    static func hasNestedChange(_ xs: [Inline], in outer: ChangeNesting) -> Bool {
        for x in xs {
            switch x {
            case .insertion(_, let kids):
                if outer != .none || hasNestedChange(kids, in: .insertion) { return true }
            case .move(let m, let kids) where m.side == .to:
                if outer != .none || hasNestedChange(kids, in: .insertion) { return true }
            case .deletion(_, let kids), .move(_, let kids):
                if outer == .deletion || hasNestedChange(kids, in: .deletion) { return true }
            case .substitution:
                if outer != .none || hasNestedChange(x.children, in: .deletion) { return true }
            default:
                if hasNestedChange(x.children, in: outer) { return true }
            }
        }
        return false
    }

    private mutating func openField(_ l: Link) {
        emit("{\\field{\\*\\fldinst{HYPERLINK ")
        if l.url.hasPrefix("#") {
            emit("\\\\l \"")
            RTFText.escape(String(l.url.dropFirst()).replacingOccurrences(of: "\"", with: "%22"), into: &out)
        } else {
            emit("\"")
            RTFText.escape(l.url.replacingOccurrences(of: "\"", with: "%22"), into: &out)
        }
        emit("\"")
        if !l.title.isEmpty {
            emit(" \\\\o \"")
            RTFText.escape(l.title.replacingOccurrences(of: "\"", with: "'"), into: &out)
            emit("\"")
        }
        emit("}}{\\fldrslt ")
    }

    private mutating func writeRun(_ r: Run) {
        switch r.content {
        case .atom(let a):
            writeAtom(a, run: r)
            return
        case .lineBreak:
            emit("{")
            writeFormat(r)
            emit("\\line}")
        case .text(let t):
            emit("{")
            let mark = out.count
            writeFormat(r)
            if out.count > mark { emit(" ") }
            RTFText.escape(t, into: &out)
            emit("}")
        }
    }

    private mutating func writeFormat(_ r: Run) {
        let f = r.format
        // The style read once (each read of `TextFormat.style` builds a value: a few hundred instructions).
        var style = f.style
        if let preset = options.characterPreset { style = preset.merged(with: style) }
        if f.bold { emit("\\b") }
        if f.italic { emit("\\i") }
        if f.underline { emit("\\ul") }
        if f.strikethrough { emit("\\strike") }
        if style.doubleStrikethrough { emit("\\striked1") }
        if f.superscript { emit("\\super") }
        if f.subscript { emit("\\sub") }
        if f.smallCaps { emit("\\scaps") }
        if style.allCaps { emit("\\caps") }
        if f.highlight { emit("\\highlight\(tables.color(.yellow))") }
        if f.code {
            emit("\\cs\(tables.style("Verbatim Char", character: true))\\f\(tables.font("Courier New"))")
        } else {
            if let n = style.name { emit("\\cs\(tables.style(n, character: true))") }
            if let family = style.fontFamily { emit("\\f\(tables.font(family))") }
        }
        if let s = style.fontSize { emit("\\fs\(min(max(Int((s * 2).rounded()), 1), 3276))") }
        if let c = style.color { emit("\\cf\(tables.color(c))") }
        if let c = style.backgroundColor { emit("\\chcbpat\(tables.color(c))") }
        if r.formatChange != nil {
            diagnostics.report(.rtfFormatChangeDropped, "tracked formatting changes were written as the new formatting")
        }
        switch r.change {
        case .insertion(let c)?: emit("\\revised\\revauth\(tables.author(c.author))\(dateWord("\\revdttm", c.date))")
        case .deletion(let c)?:
            if let i = outerInsertion { emit("\\revised\\revauth\(tables.author(i.author))\(dateWord("\\revdttm", i.date))") }
            emit("\\deleted\\revauthdel\(tables.author(c.author))\(dateWord("\\revdttmdel", c.date))")
        case .move(let m)?:
            diagnostics.report(.rtfMoveAsChange, "tracked moves were written as deletions and insertions")
            if m.side == .from {
                if let i = outerInsertion { emit("\\revised\\revauth\(tables.author(i.author))\(dateWord("\\revdttm", i.date))") }
                emit("\\deleted\\revauthdel\(tables.author(m.change.author))\(dateWord("\\revdttmdel", m.change.date))")
            } else {
                emit("\\revised\\revauth\(tables.author(m.change.author))\(dateWord("\\revdttm", m.change.date))")
            }
        case nil: break
        }
    }

    private mutating func writeAtom(_ a: Inline, run: Run) {
        switch a {
        case .commentStart, .commentEnd, .commentPoint, .noteReference:
            // Anchors and note references take the formatting around them, as the reader gives it back.
            emit("{")
            let mark = out.count
            writeFormat(run)
            if out.count > mark {
                emit(" ")
                writeAnchor(a)
                emit("}")
            } else {
                out.removeLast()
                writeAnchor(a)
            }
        default:
            writeOther(a, run: run)
        }
    }

    private mutating func writeAnchor(_ a: Inline) {
        switch a {
        case .commentStart(let id):
            emit("{\\*\\atrfstart ")
            RTFText.escape(id, into: &out)
            emit("}")
        case .commentEnd(let id):
            emit("{\\*\\atrfend ")
            RTFText.escape(id, into: &out)
            emit("}")
            writeAnnotations(id)
        case .commentPoint(let id):
            writeAnnotations(id)
        case .noteReference(let id):
            guard let note = notes.removeValue(forKey: id) else {
                diagnostics.report(.rtfUnreferenced, "a note reference had no note and was left out")
                return
            }
            // Markdown's `^[…]` (Redline's own destination, which other readers skip), before the note it marks.
            if note.isInline { emit("{\\*\\redlineinline}") }
            emit("{\\super\\chftn}{\\footnote")
            if note.kind == .endnote { emit("\\ftnalt") }
            emit("\\pard\\plain {\\super\\chftn}")
            var first = true
            for b in note.blocks {
                if !first || !(b.paragraph != nil) { writeBlock(b, context: BlockContext()) } else {
                    // The first paragraph continues after the note mark.
                    writeNoteParagraph(b)
                }
                first = false
            }
            emit("}")
        default:
            break
        }
    }

    private mutating func writeOther(_ a: Inline, run: Run) {
        switch a {
        case .softBreak:
            var r = run
            r.content = .text(" ")
            writeRun(r)
        case .image(let image):
            writeImage(image, run: run)
        case .raw(let format, let text):
            if format.lowercased() == "rtf" { emit(text) } else {
                // Its text in a character style naming its format (`RawStyles`).
                var r = run
                r.format.style = CharacterStyle(name: RawStyles.inlineName(format))
                for piece in RawStyles.lines(text) {
                    switch piece {
                    case .text(let t): r.content = .text(t)
                    default: r.content = .lineBreak
                    }
                    writeRun(r)
                }
            }
        case .math(let kind, let tex):
            // RTF has no equations Redline writes: the TeX source as text.
            _ = kind
            diagnostics.report(.lossyMath, "equations were written as their TeX source")
            var r = run
            r.content = .text(tex)
            writeRun(r)
        case .field(let f, let result):
            openField(f)
            for var inner in result.runs {
                inner.change = run.change
                inner.link = nil
                writeRun(inner)
            }
            emit("}}")
        default:
            break
        }
    }

    private mutating func writeNoteParagraph(_ b: Block) {
        guard let p = b.paragraph else { return }
        writeInlines(p.content)
        emit("\\par\n")
    }

    /// Writes the annotation of comment `id` and its replies (each once).
    mutating func writeAnnotations(_ id: String) {
        guard !writtenComments.contains(id), let c = comments[id] else { return }
        writtenComments.insert(id)
        writeAnnotation(c)
        for r in replies[id] ?? [] { writeAnnotation(r) }
    }

    private mutating func writeAnnotation(_ c: Comment) {
        if c.resolved {
            diagnostics.report(.rtfCommentResolvedDropped, "the resolved state of comments was dropped")
        }
        if let i = c.initials {
            emit("{\\*\\atnid ")
            RTFText.escape(i, into: &out)
            emit("}")
        }
        if let a = c.author {
            emit("{\\*\\atnauthor ")
            RTFText.escape(a, into: &out)
            emit("}")
        }
        emit("\\chatn{\\*\\annotation{\\*\\atnref ")
        RTFText.escape(c.id, into: &out)
        emit("}")
        if let p = c.parentID {
            emit("{\\*\\atnparent ")
            RTFText.escape(p, into: &out)
            emit("}")
        }
        if let d = c.date {
            if let v = dttm(fromISO: d) { emit("{\\*\\atndate \(v)}") } else {
                diagnostics.report(.rtfDateDropped, "dates that are not ISO 8601 were left out")
            }
        }
        for b in c.body { writeBlock(b, context: BlockContext()) }
        emit("}")
    }

    /// A picture as `{\\*\\shppict{\\pict\\pngblip …}}` (PNG, JPEG, EMF, WMF) inside the run's formatting
    /// group (so a tracked change keeps it), with its pixel size, displayed size in twips and alt text;
    /// otherwise its description (alt text; nothing when it has none), with a warning.
    private mutating func writeImage(_ image: Image, run: Run) {
        let blips: [MediaKind: String] = [.png: "pngblip", .jpeg: "jpegblip", .emf: "emfblip", .wmf: "wmetafile8"]
        if let item = image.media ?? dataURIs.add(dataURI: image.source, diagnostics: diagnostics), let blip = blips[item.kind], let bytes = try? item.bytes() {
            emit("{")
            writeFormat(run)
            emit("{\\*\\shppict{\\pict")
            if !image.alt.isEmpty {
                emit("{\\*\\picprop{\\sp{\\sn wzDescription}{\\sv ")
                RTFText.escape(image.alt, into: &out)
                emit("}}}")
            }
            emit("\\" + blip)
            if let info = item.info { emit("\\picw\(info.pixelWidth)\\pich\(info.pixelHeight)") }
            var shown = image
            shown.media = item
            if let size = shown.displaySize {
                emit("\\picwgoal\(max(1, Int((size.width * 20).rounded())))\\pichgoal\(max(1, Int((size.height * 20).rounded())))")
            }
            emit("\n")
            let digits = Array("0123456789abcdef".utf8)
            for (i, b) in bytes.enumerated() {
                out.append(digits[Int(b >> 4)])
                out.append(digits[Int(b & 15)])
                if i % 64 == 63 { out.append(10) }
            }
            emit("}}}")
            return
        }
        diagnostics.report(.rtfImageNotEmbedded, "pictures RTF cannot embed (not loaded, or not PNG, JPEG, EMF or WMF) were written as their description")
        // Its alt text only: a file name written as text would be text the document never had.
        guard !image.alt.isEmpty else { return }
        var r = run
        r.content = .text(image.alt)
        writeRun(r)
    }

    /// `{\field{\*\fldinst …}{\fldrslt `: a field up to its result (closed by `}}`).
    mutating func openField(_ f: FieldCode) {
        emit("{\\field{\\*\\fldinst ")
        RTFText.escape(f.instruction, into: &out)
        emit("}{\\fldrslt ")
    }

    // MARK: Tables

    mutating func writeTable(_ t: Table, depth: Int) {
        // RTF has no row revision: a row inserted (deleted) with tracking is written with its cells' text
        // wholly inserted (deleted) by the row's change, so accepting and rejecting keep the same text.
        // A row that cannot be written so (no text, or a cell with changes of its own) keeps its change
        // and is written as a plain row with rtf.row-change-dropped.
        // Such a row carries Redline's own flag `\rltrmarked` (an unknown word other readers skip), by which
        // Redline's reader takes the row's change back from the cells.
        let original = t
        let t = t.rows.contains(where: { $0.change != nil }) ? TableRowChanges.marked(t).table : t
        let columnCount = t.gridColumnCount
        var widths = (t.columnWidths?.count == columnCount ? t.columnWidths! : []).map { RTFParagraphFormat.twips($0) }
        if widths.isEmpty { widths = Array(repeating: 9360 / columnCount, count: columnCount) }
        var bounds: [Int] = []
        var x = 0
        for w in widths { x += max(w, 1); bounds.append(x) }
        var covered = Array(repeating: 0, count: columnCount)  // rows still covered by a vertical merge
        var coveredSpan = Array(repeating: 1, count: columnCount)
        for (ri, row) in t.rows.enumerated() {
            if row.change != nil {
                diagnostics.report(.rtfRowChangeDropped, "tracked row insertions and deletions were written as plain rows")
            }
            // Lay out the row: cells and the continuation cells of vertical merges from above.
            var layout: [(cell: TableCell?, column: Int, span: Int, first: Bool)] = []
            var col = 0
            var cells = row.cells[...]
            while col < columnCount {
                if covered[col] > 0 {
                    let span = coveredSpan[col]
                    covered[col] -= 1
                    layout.append((nil, col, span, false))
                    col += span
                    continue
                }
                guard let cell = cells.popFirst() else { break }
                let span = min(max(cell.columnSpan, 1), columnCount - col)
                if cell.rowSpan > 1 {
                    covered[col] = cell.rowSpan - 1
                    coveredSpan[col] = span
                }
                layout.append((cell, col, span, cell.rowSpan > 1))
                col += span
            }
            var def = "\\trowd\\trgaph108\\trleft0"
            if ri < t.headerRowCount { def += "\\trhdr" }
            if original.rows[ri].change != nil && row.change == nil { def += "\\rltrmarked" }
            for item in layout {
                if item.cell == nil { def += "\\clvmrg" } else if item.first { def += "\\clvmgf" }
                // A cell inserted or deleted with tracking: Redline's own words (other readers skip them).
                switch item.cell?.change {
                case .inserted(let c)?: def += "\\rltclins\\rltclauth\(tables.author(c.author))" + dateWord("\\rltcldttm", c.date)
                case .deleted(let c)?: def += "\\rltcldel\\rltclauth\(tables.author(c.author))" + dateWord("\\rltcldttm", c.date)
                case nil: break
                }
                def += "\\cellx\(bounds[min(item.column + item.span, columnCount) - 1])"
            }
            if depth == 1 { emit(def + "\n") }
            let cellEnd = depth == 1 ? "\\cell" : "\\nestcell"
            for item in layout {
                let alignment = item.column < t.columns.count ? paragraphAlignment(t.columns[item.column]) : nil
                writeCell(item.cell?.blocks ?? [], depth: depth, alignment: alignment, end: cellEnd)
            }
            if depth == 1 {
                emit("\\row\n")
            } else {
                emit("{\\*\\nesttableprops" + def + "\\nestrow}{\\nonesttables\\par}\n")
            }
        }
    }

    private func paragraphAlignment(_ c: ColumnAlignment) -> ParagraphAlignment? {
        switch c {
        case .none: return nil
        case .left: return .left
        case .center: return .center
        case .right: return .right
        }
    }

    private mutating func writeCell(_ blocks: [Block], depth: Int, alignment: ParagraphAlignment?, end: String) {
        var context = BlockContext()
        context.tableDepth = depth
        context.defaultAlignment = alignment
        for (i, b) in blocks.enumerated() {
            let last = i == blocks.count - 1
            switch b {
            case .paragraph(let p) where last:
                writeParagraph(p, headingLevel: nil, context: context, terminator: end)
            case .heading(let l, let p) where last:
                writeParagraph(p, headingLevel: l, context: context, terminator: end)
            default:
                writeBlock(b, context: context)
                if last { emit("\\pard\\plain\\intbl" + (depth > 1 ? "\\itap\(depth)" : "") + " " + end + "\n") }
            }
        }
        if blocks.isEmpty { emit("\\pard\\plain\\intbl" + (depth > 1 ? "\\itap\(depth)" : "") + " " + end + "\n") }
    }
}

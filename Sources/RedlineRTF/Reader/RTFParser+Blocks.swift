import Foundation
import RedlineCore

extension RTFParser {
    // MARK: Paragraphs

    /// `\par`: ends the current paragraph of the current story.
    func paragraphEnd() {
        guard state.dest == .body else { return }
        finishParagraph(story: state.story, para: state.para, mark: state.char)
    }

    /// Turns the runs of story `s` into a paragraph and places it.
    func finishParagraph(story s: Int, para: ParaFormat, mark: CharFormat) {
        flushRun(s)
        if mark.deleted && mark.revised && para.tableDepth == 0 {
            // A paragraph mark one reviewer inserted and another deleted (`\revised` with `\deleted`, as
            // Word writes a deletion inside an insertion): the break is in neither version, so the runs
            // join the next paragraph, as the DOCX reader reads `w:ins` with `w:del` on a mark.
            return
        }
        // Take the runs, and give their buffer back emptied: the next paragraph fills it without growing it
        // (unless it is huge: `ReusableBuffer`).
        stories[s].paragraphs &+= 1
        var runs: [Run] = []
        swap(&runs, &stories[s].runs)
        defer {
            ReusableBuffer.empty(&runs)
            swap(&runs, &stories[s].runs)
        }
        let sawListText = stories[s].sawListText
        stories[s].sawListText = false
        stories[s].lastTextPara = nil
        var markChange: ParagraphMarkChange?
        if mark.deleted {
            markChange = .deleted(Change(author: revisionAuthor(mark.deletionAuthor), date: formats.date(mark.deletionDate)))
        } else if mark.revised {
            markChange = .inserted(Change(author: revisionAuthor(mark.revisionAuthor), date: formats.date(mark.revisionDate)))
        }
        // (Runs are tested through their indices: `allSatisfy` and `contains(where:)` would copy each run.)
        if markChange == nil && runs.indices.allSatisfy({ i in
            if case .text(let t) = runs[i].content { return t.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\u{A0}" } }
            return false
        }) {
            // An empty paragraph outside tables and lists separates adjacent tables and quotations.
            if para.tableDepth == 0 && para.list <= 0 && para.legacyList == nil {
                closeTables(story: s, to: 0)
                stories[s].collector.closeQuote()
                drain(story: s)
            }
            placeTextBoxes(story: s, tableDepth: para.tableDepth)
            return
        }
        // A field whose result began in this body paragraph and goes on past it (a table of contents) begins here;
        // one that ended since the last body paragraph ends here (an empty paragraph, left out, passes it on).
        var blockField = BlockField()
        if s == 0, let k = fields.firstIndex(where: { f in
            guard case .plain = f.kind, !f.spansParagraphs, let r = f.result else { return false }
            return r.story == 0 && r.paragraph == stories[0].paragraphs - 1
        }) {
            fields[k].spansParagraphs = true
            blockField.start = FieldCode(instruction: String(decoding: fields[k].instruction, as: UTF8.self))
        }
        if s == 0, let end = blockFieldEnd {
            blockField.end = end
            blockFieldEnd = nil
        }
        if s == 0 { bodyStarted = true }
        paragraphCounter += 1
        var content = InlineBuilder.inlines(from: runs)
        if runs.indices.contains(where: { runs[$0].change != nil }) { content = InlineBuilder.pairingSubstitutions(content) }
        if tables.hasRawStyles { content = RawStyles.restoring(content) }
        var style = paragraphStyle(para)
        var headingLevel: Int?
        let entry = para.style >= 0 ? tables.paragraphStyles[para.style] : nil
        let outline = para.outline >= 0 ? para.outline : (entry?.outline ?? -1)
        if (0...8).contains(outline) { headingLevel = min(outline + 1, 6) }
        if let level = entry?.headingLevel {
            headingLevel = headingLevel ?? level
            style.name = nil
        }
        var list: ListPlacement?
        if para.list > 0 || para.legacyList != nil {
            let level = para.legacyList != nil && para.list <= 0 ? para.legacyLevel : para.listLevel
            let key = para.list > 0 ? para.list : -1
            var kind = para.legacyList ?? .bullet
            if para.list > 0, let id = tables.listOverrides[para.list] ?? (tables.listDefinitions[para.list] != nil ? para.list : nil),
               let def = tables.listDefinitions[id], level < def.levels.count {
                kind = def.levels[level].kind
            }
            if sawListText { listsWithListText.insert(key) }
            let continuation = para.legacyList == nil && !sawListText && listsWithListText.contains(key)
            list = ListPlacement(key: key, level: level, kind: kind, continuation: continuation)
            style.firstLineIndent = nil
            style.leftIndent = nil
            style.tabStops = []
            headingLevel = nil
        } else if let level = ListPlacement.continuationLevel(styleName: style.name) {
            list = ListPlacement(key: ListPlacement.continueOpenList, level: level, kind: .bullet, continuation: true)
            style.name = nil
            style.firstLineIndent = nil
            style.leftIndent = nil
            style.tabStops = []
        }
        var special = SpecialParagraph(exactName: style.name)
        // A code-style paragraph with tracked changes (a compared code block's marked lines) stays a paragraph
        // in its style: a code block has no place for the marks (accepted or rejected, it is a code block again).
        if special == .code && (markChange != nil || runs.indices.contains(where: { runs[$0].change != nil })) { special = nil }
        var paragraph = Paragraph(content, style: style, markChange: markChange)
        if let attributes = pendingHeadingAttributes {
            if headingLevel != nil { paragraph.headingAttributes = attributes }
            pendingHeadingAttributes = nil
        }
        if blockField.start != nil || blockField.end != nil { paragraph.blockField = blockField }
        if s == 0, let section = sections.pendingEnd {
            // The paragraph a `\sect` ends carries its section (a code block or rule has no mark to carry it).
            sections.pendingEnd = nil
            paragraph.sectionEnd = section
            if special == .code || special == .rule { special = nil }
        }
        if special == .code || special == .rule { style.name = nil }
        // A figure's caption paragraph (`FigureCaptions`) is its picture's alt text shown: the figure holds it.
        let figureAlt = list == nil && headingLevel == nil ? FigureCaptions.figureAlt(paragraph) : nil
        if figureAlt == nil, list == nil, let alt = stories[s].figureAlt, FigureCaptions.isCaption(paragraph, of: alt) {
            stories[s].figureAlt = nil
            placeTextBoxes(story: s, tableDepth: para.tableDepth)
            return
        }
        stories[s].figureAlt = figureAlt
        if figureAlt != nil, paragraph.style.name == FigureCaptions.figureName { paragraph.style.name = nil }
        place(ParagraphEvent(paragraph: paragraph, headingLevel: headingLevel, list: list,
                             tableDepth: para.tableDepth, special: special), story: s)
        placeTextBoxes(story: s, tableDepth: para.tableDepth)
    }

    /// The text boxes read in story `s` since its last paragraph, after that paragraph (in its table cell when it
    /// is in one), as the DOCX reader places them.
    func placeTextBoxes(story s: Int, tableDepth: Int) {
        guard !stories[s].textBoxes.isEmpty else { return }
        let blocks = stories[s].textBoxes
        stories[s].textBoxes = []
        if tableDepth > 0, let i = stories[s].tables.indices.last {
            for b in blocks { stories[s].tables[i].current.add(block: b) }
            stories[s].tables[i].currentHasContent = true
        } else {
            closeTables(story: s, to: 0)
            for b in blocks { stories[s].collector.add(block: b) }
            drain(story: s)
        }
    }

    /// `\shptxt` inside a shape's instructions: a text box's text, read as a story of its own.
    func startTextBox() {
        let parent = state.story
        flushRun(parent)
        diagnostics.report(.rtfTextBox, "text boxes are kept in the flow after the paragraph that anchors them; their position on the page is not")
        // The shape's size, when its instructions gave its rectangle before `\shptxt`.
        func length(_ a: Int?, _ b: Int?) -> Double? {
            guard let a, let b, b > a, b - a < 40_000 else { return nil }
            return Double(b - a) / 20
        }
        stories.append(Story(kind: .textBox(parent: parent, width: length(shapeRect[0], shapeRect[2]),
                                            height: length(shapeRect[1], shapeRect[3]))))
        state.story = stories.count - 1
        state.ownsStory = true
        state.dest = .body
        state.field = -1
    }

    func revisionAuthor(_ i: Int) -> String? {
        guard i >= 0, i < tables.revisionAuthors.count else { return nil }
        let a = tables.revisionAuthors[i]
        return a.isEmpty || a == "Unknown" ? nil : a
    }

    /// The model's paragraph style: values equal to RTF's defaults (left, zero) are "not set".
    func paragraphStyle(_ p: ParaFormat) -> ParagraphStyle {
        var s = ParagraphStyle()
        if p.style >= 0, let e = tables.paragraphStyles[p.style], !e.isDefault {
            s.name = e.name
        }
        s.alignment = p.alignment
        if p.firstLine != 0 { s.firstLineIndent = Double(p.firstLine) / 20 }
        if p.left != 0 { s.leftIndent = Double(p.left) / 20 }
        if p.right != 0 { s.rightIndent = Double(p.right) / 20 }
        if p.before != 0 { s.spaceBefore = Double(p.before) / 20 }
        if p.after != 0 { s.spaceAfter = Double(p.after) / 20 }
        if p.lineSpacing != 0 {
            if p.lineMultiple != 0 {
                s.lineSpacing = .multiple(Double(abs(p.lineSpacing)) / 240)
            } else if p.lineSpacing > 0 {
                s.lineSpacing = .atLeast(Double(p.lineSpacing) / 20)
            } else {
                s.lineSpacing = .exactly(Double(-p.lineSpacing) / 20)
            }
        }
        s.tabStops = p.tabs
        return s
    }

    /// Puts a paragraph into story `s`: into the open table at its depth, or into the story's blocks.
    func place(_ e: ParagraphEvent, story s: Int) {
        let depth = e.tableDepth
        if depth == 0 {
            closeTables(story: s, to: 0)
            stories[s].collector.add(e)
        } else {
            let d = adjustTables(story: s, to: depth)
            stories[s].tables[d - 1].current.add(e)
            stories[s].tables[d - 1].currentHasContent = true
        }
        drain(story: s)
    }

    /// Opens or closes tables so that `depth` tables are open (at most one more than now); returns the depth.
    /// Outside any table, a paragraph's `\itap` opens that many tables (up to 64); inside one, a depth that
    /// skips levels (malformed) goes one level deeper, as pandoc reads it.
    @discardableResult
    func adjustTables(story s: Int, to depth: Int) -> Int {
        let count = stories[s].tables.count
        let d = count == 0 ? min(max(depth, 1), 64) : min(max(depth, 1), count + 1)
        closeTables(story: s, to: d)
        while stories[s].tables.count < d { stories[s].tables.append(OpenTable()) }
        return d
    }

    /// Closes the innermost tables until `depth` are open; each closed table goes into its parent's cell.
    func closeTables(story s: Int, to depth: Int) {
        while stories[s].tables.count > depth {
            var t = stories[s].tables.removeLast()
            let block = Block.table(t.build())
            if stories[s].tables.isEmpty {
                stories[s].collector.add(block: block)
            } else {
                let i = stories[s].tables.count - 1
                stories[s].tables[i].current.add(block: block)
                stories[s].tables[i].currentHasContent = true
            }
        }
    }

    /// The depth a cell or row end at `requested` means: an open table, or one more; a depth that skips
    /// levels (a malformed `\itap`) means the innermost open table.
    func effectiveDepth(_ requested: Int, story s: Int) -> Int {
        let count = stories[s].tables.count
        if count == 0 { return min(max(requested, 1), 64) }
        if requested <= count + 1 { return max(requested, 1) }
        return max(count, 1)
    }

    /// `\cell` / `\nestcell`.
    func cellEnd(depth: Int) {
        let s = state.story
        if hasPendingContent { finishParagraph(story: s, para: state.para, mark: state.char) }
        let d = adjustTables(story: s, to: effectiveDepth(depth, story: s))
        stories[s].tables[d - 1].endCell()
    }

    /// `\row` / `\nestrow`.
    func rowEnd(depth: Int) {
        let s = state.story
        if hasPendingContent { finishParagraph(story: s, para: state.para, mark: state.char) }
        guard !stories[s].tables.isEmpty else { return }
        let d = adjustTables(story: s, to: min(effectiveDepth(depth, story: s), stories[s].tables.count))
        stories[s].tables[d - 1].endRow(rowDefinitions[d] ?? RowDefinition())
        drain(story: s)
    }

    /// Moves finished blocks of the main story to the output.
    func drain(story s: Int) {
        guard s == 0, !stories[0].collector.blocks.isEmpty else { return }
        for b in stories[0].collector.take() { out.emit(b) }
    }

    /// Ends the document: the last paragraph, open tables and lists, comments still waiting.
    func finishDocument() {
        while stories.count > 1 { finishStory(stories.count - 1) }
        if hasPendingContentMain {
            finishParagraph(story: 0, para: stories[0].lastTextPara ?? ParaFormat(), mark: CharFormat())
        }
        placeTextBoxes(story: 0, tableDepth: 0)
        closeTables(story: 0, to: 0)
        stories[0].collector.close()
        drain(story: 0)
        for id in out.openRanges.sorted() {
            diagnostics.report(.rtfCommentWithoutBody, "an annotation range had no annotation; kept as an empty comment")
            out.attachEmptyComment(id)
        }
        out.openRanges.removeAll()
        out.finish(finalSection: sections.finalSection)
        if hiddenCount > 0 {
            diagnostics.report(.rtfHiddenText, "hidden text (\\v) was left out (\(hiddenCount) characters)")
        }
        if tokenizer.clampedParameters > 0 {
            diagnostics.report(.rtfParameterClamped, "control word parameters out of range were clamped",
                               count: tokenizer.clampedParameters)
        }
        if invalidUTF8Runs > 0 {
            diagnostics.report(.rtfInvalidUTF8, "text in code page 65001 that is not valid UTF-8 was replaced by U+FFFD",
                               count: invalidUTF8Runs)
            invalidUTF8Runs = 0
        }
        if tokenizer.badHexEscapes > 0 {
            diagnostics.report(.rtfBadHexEscape, "\\' escapes without two hex digits were left out",
                               count: tokenizer.badHexEscapes)
        }
        if hiddenCount > 0 { hiddenCount = 0 }
    }

    private var hasPendingContentMain: Bool { !stories[0].runs.isEmpty || !stories[0].text.isEmpty }

    // MARK: Notes and annotations

    func startNote() {
        let parent = state.story
        // A note `\redlineinline` marked (Markdown's `^[…]`) is numbered apart, as the Markdown reader numbers it.
        let inline = pendingInlineNote
        pendingInlineNote = false
        let id: String
        if inline {
            inlineNoteCounter += 1
            id = "inline-\(inlineNoteCounter)"
        } else {
            noteCounter += 1
            id = "\(noteCounter)"
        }
        appendNoteReference(id, story: parent)
        if parent == 0 { bodyStarted = true }
        var story = Story(kind: .note(id: id, kind: .footnote))
        story.inlineNote = inline
        stories.append(story)
        state.story = stories.count - 1
        state.ownsStory = true
        state.dest = .body
        state.field = -1
    }

    /// A note reference: unformatted, inside the change around it (as the DOCX reader gives it).
    private func appendNoteReference(_ id: String, story s: Int) {
        flushRun(s)
        let change = textFormat(state.char, link: nil).1
        stories[s].runs.append(Run(.atom(.noteReference(id)), change: change))
    }

    func startAnnotation() {
        let parent = state.story
        flushRun(parent)
        var info = AnnotationInfo()
        info.initials = pendingInitials
        info.author = pendingAuthor
        info.anchorStory = parent
        info.anchorRun = stories[parent].runs.count
        // A point comment keeps the emphasis around its mark (`**{>>c<<}**`), as the DOCX reader does.
        info.anchorFormat = textFormat(state.char, link: nil).0
        info.anchorFormat.style = CharacterStyle()
        pendingInitials = nil
        pendingAuthor = nil
        stories.append(Story(kind: .annotation(info)))
        state.story = stories.count - 1
        state.ownsStory = true
        state.dest = .body
        state.field = -1
    }

    /// Ends story `index` (a note or annotation) and hands its result on.
    func finishStory(_ index: Int) {
        guard index > 0, index == stories.count - 1 else { return }
        if !stories[index].runs.isEmpty || !stories[index].text.isEmpty {
            finishParagraph(story: index, para: stories[index].lastTextPara ?? ParaFormat(), mark: CharFormat())
        }
        closeTables(story: index, to: 0)
        stories[index].collector.close()
        var story = stories.removeLast()
        // Text boxes inside this story whose paragraph never ended.
        for b in story.textBoxes { story.collector.add(block: b) }
        let blocks = story.collector.blocks
        switch story.kind {
        case .main: break
        case .textBox(let parent, let width, let height):
            textBoxCount += 1
            let box = TextBox(number: textBoxCount, width: width, height: height)
            if parent < stories.count { stories[parent].textBoxes += blocks.map { $0.inTextBox(box) } }
        case .headerFooter(let kind, let which):
            sections.add(HeaderFooter(kind: kind, which: which, blocks: blocks))
        case .note(let id, let kind):
            var note = Note(id: id, kind: kind, blocks: blocks)
            note.isInline = story.inlineNote
            out.add(note)
        case .annotation(let info):
            annotationCounter += 1
            let id: String
            if let r = info.reference, !r.isEmpty { id = r } else { id = "rtf-annotation-\(annotationCounter)" }
            if info.parent == nil, !startedRanges.contains(id), info.anchorStory < stories.count {
                let s = info.anchorStory
                let at = min(info.anchorRun, stories[s].runs.count)
                stories[s].runs.insert(Run(.atom(.commentPoint(id)), format: info.anchorFormat), at: at)
            }
            out.deliver(Comment(id: id, author: info.author, initials: info.initials, date: info.date, body: blocks,
                            parentID: info.parent))
        }
    }

    // MARK: Fields

    func startField() {
        fields.append(FieldState())
        state.field = fields.count - 1
        state.ownsField = true
    }

    func finishFieldInstruction(_ index: Int) {
        guard index >= 0, index < fields.count else { return }
        let instruction = String(decoding: fields[index].instruction, as: UTF8.self)
        fields[index].kind = parseField(instruction)
        if case .comment(let id) = fields[index].kind {
            let s = state.story
            appendAtom(.commentStart(id), story: s)
            if let a = reader.scrivenerAnnotations[id], case .comment(var c) = a {
                c.id = id
                out.add(c)
            } else {
                diagnostics.report(.rtfScrivenerAnnotationMissing, "a Scrivener comment link had no comment text; kept as an empty comment")
                out.add(Comment(id: id, body: []))
            }
        }
    }

    func finishField(_ index: Int) {
        guard index >= 0, index < fields.count, index == fields.count - 1 else { return }
        let f = fields.removeLast()
        switch f.kind {
        case .comment(let id): appendAtom(.commentEnd(id), story: state.story)
        case .footnote(let n):
            appendNoteReference(n.id, story: state.story)
            out.add(n)
        case .plain:
            if f.spansParagraphs {
                // A field whose result spans paragraphs ends here: before this paragraph's text, or after it.
                flushRun(0)
                blockFieldEnd = stories[0].runs.isEmpty ? .beforeContent : .afterContent
                break
            }
            // The result as one field atom, when it is still in the runs of the paragraph it began in.
            guard let r = f.result, r.story == state.story, r.story < stories.count,
                  stories[r.story].paragraphs == r.paragraph else { break }
            flushRun(r.story)
            guard r.run <= stories[r.story].runs.count,
                  let atom = Run.field(FieldCode(instruction: String(decoding: f.instruction, as: UTF8.self)),
                                       result: stories[r.story].runs[r.run...]) else { break }
            stories[r.story].runs.removeSubrange(r.run...)
            stories[r.story].runs.append(atom)
        case .link: break
        }
    }

    /// `\fldrslt`: the field's result starts here, in runs of its own.
    func startFieldResult() {
        guard state.field >= 0, state.field < fields.count, fields[state.field].result == nil else { return }
        let s = state.story
        guard s < stories.count else { return }
        flushRun(s)
        fields[state.field].result = (s, stories[s].paragraphs, stories[s].runs.count)
    }

    /// The meaning of a field instruction: HYPERLINK (web, internal `\l`, Scrivener), or anything else.
    private func parseField(_ s: String) -> FieldState.Kind {
        var words: [String] = []
        var current = ""
        var quoted = false
        var hadQuote = false
        for ch in s {
            if ch == "\"" { quoted.toggle(); hadQuote = true; continue }
            if !quoted && (ch == " " || ch == "\t" || ch == "\n" || ch == "\r") {
                if !current.isEmpty || hadQuote { words.append(current) }
                current = ""
                hadQuote = false
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty || hadQuote { words.append(current) }
        guard let first = words.first, first.uppercased() == "HYPERLINK" else { return .plain }
        var url: String?
        var anchor: String?
        var title = ""
        var i = 1
        while i < words.count {
            let w = words[i]
            if w == "\\l", i + 1 < words.count { anchor = words[i + 1]; i += 2; continue }
            if w == "\\o", i + 1 < words.count { title = words[i + 1]; i += 2; continue }
            if w.hasPrefix("\\") { i += (w == "\\o" || w == "\\t" || w == "\\m") ? 2 : 1; continue }
            if url == nil { url = w }
            i += 1
        }
        if let u = url {
            if u.hasPrefix("scrivcmt://") {
                let id = String(u.dropFirst("scrivcmt://".count))
                if case .footnote(var n)? = reader.scrivenerAnnotations[id] {
                    n.id = id
                    return .footnote(n)
                }
                return .comment(id)
            }
            if u.hasPrefix("scrivlnk://") {
                return .link(Link(url: reader.scrivenerLinkTarget(String(u.dropFirst("scrivlnk://".count))), title: title))
            }
            return .link(Link(url: anchor.map { u + "#" + $0 } ?? u, title: title))
        }
        if let a = anchor { return .link(Link(url: "#" + a, title: title)) }
        return .plain
    }

    // MARK: Destinations

    /// A group that set a destination ends (`state` is already the enclosing group).
    func finishDestination(_ g: GroupState) {
        switch g.dest {
        case .fontTable: commitFont()
        case .styleSheet: commitStyle()
        case .colorTable:
            if tables.colorParts != nil {
                tables.colors.append(tables.colorParts.map { RGBColor(red: UInt8($0.r), green: UInt8($0.g), blue: UInt8($0.b)) })
                tables.colorParts = nil
            }
        case .revisionTable: break
        case .list:
            tables.listDefinitions[tables.listInProgress.id] = tables.listInProgress
        case .listOverride:
            tables.listOverrides[tables.overrideInProgress.ls] = tables.overrideInProgress.list
        case .listLevel, .listTable, .listOverrideTable, .info, .userProps, .nestedTableProperties, .body, .skip:
            break
        case .infoDate(let key):
            let d = tables.dateParts
            if (1...9999).contains(d[0]), (1...12).contains(d[1]), (1...31).contains(d[2]) {
                header.metadata[key] = .text(isoDate(d[0], d[1], d[2], min(max(d[3], 0), 23), min(max(d[4], 0), 59)))
            }
        case .text(let t):
            let raw = collect
            let value = collectedString()
            finishText(t, value, raw: raw)
        case .fieldInstruction:
            finishFieldInstruction(g.field)
        case .picture:
            finishPicture()
        case .defaultCharacter:
            header.defaultCharacterStyle = textFormat(g.char, link: nil).0.style
        case .defaultParagraph:
            header.defaultParagraphStyle = paragraphStyle(g.para)
        case .legacyList:
            state.para.legacyList = g.para.legacyList
            state.para.legacyLevel = g.para.legacyLevel
        }
    }

    private func finishText(_ t: TextTarget, _ value: String, raw: [UInt8]) {
        switch t {
        case .metadata(let key):
            guard !value.isEmpty else { return }
            if key == "author" {
                header.metadata[key] = .list(value.components(separatedBy: "; ").filter { !$0.isEmpty })
            } else {
                header.metadata[key] = .text(value)
            }
        case .propertyName: tables.propertyName = value
        case .pictureName: picture.propertyName = value
        case .pictureValue: if picture.propertyName == "wzDescription" { picture.alt = value }
        case .propertyValue:
            if let k = tables.propertyName, !k.isEmpty { header.metadata[k] = .text(value) }
            tables.propertyName = nil
        case .annotationInitials: pendingInitials = value.isEmpty ? nil : value
        case .headingAttributes: pendingHeadingAttributes = raw.isEmpty ? nil : String(decoding: raw, as: UTF8.self)
        case .annotationAuthor: pendingAuthor = value.isEmpty ? nil : value
        case .annotationReference: updateAnnotation { $0.reference = value }
        case .annotationParent: updateAnnotation { $0.parent = value.isEmpty ? nil : value }
        case .annotationDate: updateAnnotation { $0.date = Int(value).flatMap(dateFromDTTM) }
        case .rangeStart:
            guard !value.isEmpty else { return }
            appendAtom(.commentStart(value), story: state.story)
            out.openRanges.insert(value)
            startedRanges.insert(value)
        case .rangeEnd:
            guard !value.isEmpty else { return }
            appendAtom(.commentEnd(value), story: state.story)
        case .levelText:
            // The level text: a length byte, then text with placeholders (bytes below 0x20) for the numbers.
            guard !tables.listInProgress.levels.isEmpty else { return }
            let bytes = raw
            if let last = bytes.lastIndex(where: { $0 < 0x20 }), last > 0, last + 1 < bytes.count {
                let next = bytes[last + 1]
                if next == UInt8(ascii: ")") { tables.listInProgress.levels[tables.listInProgress.levels.count - 1].delimiter = ")" }
            }
        }
    }

    private func updateAnnotation(_ body: (inout AnnotationInfo) -> Void) {
        guard case .annotation(var info) = stories[state.story].kind else { return }
        body(&info)
        stories[state.story].kind = .annotation(info)
    }
}

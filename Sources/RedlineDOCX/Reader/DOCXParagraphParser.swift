import RedlineCore
import RedlineXML

/// Paragraphs and their inline content: revision wrappers, links, simple fields and comment anchors here;
/// runs, notes and field characters in DOCXParagraphParser+Runs.swift, field instructions in +Fields.swift,
/// drawings, text boxes and equations in +Drawings.swift.
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
        progress.runArray = progress.newRunArray()
        progress.joinFloor = 0
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
        // A field whose result began in this paragraph and goes on past it (a table of contents): this paragraph
        // begins it, the one its end is in ends it (`BlockField`).
        var blockField = BlockField()
        if let k = progress.fields.firstIndex(where: { $0.showingResult && !$0.spansParagraphs && $0.array == progress.runArray
                                                        && $0.link == nil && !$0.nestedInstruction }) {
            progress.fields[k].spansParagraphs = true
            blockField.start = FieldCode(instruction: progress.fields[k].instruction)
        }
        blockField.end = progress.blockFieldEnd
        progress.blockFieldEnd = nil
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
        var paragraph = Paragraph(styles.hasRawStyles ? RawStyles.restoring(inlines) : inlines,
                                  style: paragraphStyle(resolved, styleID: styleID), markChange: markup.markChange)
        if let (change, old) = markup.propsChange {
            let oldID = old.styleID ?? styles.defaultParagraphStyleID
            let oldStyle = paragraphStyle(styles.paragraphProps(oldID).merged(with: old), styleID: oldID)
            paragraph.styleChange = ParagraphStyleChange(change: change, old: oldStyle)
        }
        if let m = markup.section { paragraph.sectionEnd = section(m) }
        if blockField.start != nil || blockField.end != nil { paragraph.blockField = blockField }
        // A figure's caption paragraph (`FigureCaptions`) is its picture's alt text shown: the figure holds it.
        let figureAlt = extra.isEmpty ? FigureCaptions.figureAlt(paragraph) : nil
        if figureAlt == nil, let alt = progress.figureAlt, FigureCaptions.isCaption(paragraph, of: alt) {
            progress.figureAlt = nil
            return []
        }
        progress.figureAlt = figureAlt
        if figureAlt != nil, paragraph.style.name == FigureCaptions.figureName { paragraph.style.name = nil }
        if !extra.isEmpty, paragraph.content.isEmpty, paragraph.markChange == nil, paragraph.styleChange == nil,
           paragraph.sectionEnd == nil, resolved.numID.flatMap({ $0 == "0" ? nil : $0 }) == nil {
            // A paragraph that only anchors text boxes (as the writer writes a box): the boxes alone.
            return extra.map { .block($0) }
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
            if !context.headingSources.isEmpty { paragraph.headingAttributes = context.headingSources.kept(for: paragraph.content.plainText) }
            out = [.block(.heading(level: h, paragraph), quoted: quoted)]
        } else if numbered, let numID {
            // The list carries the indent (and Word's "List Paragraph" style says only "in a list").
            paragraph.style.leftIndent = nil
            paragraph.style.firstLineIndent = nil
            if paragraph.style.name?.lowercased() == "list paragraph" { paragraph.style.name = nil }
            paragraph.styleChange?.old.leftIndent = nil
            paragraph.styleChange?.old.firstLineIndent = nil
            out = [.listItem(.paragraph(paragraph), numID: numID, level: level, quoted: quoted)]
        } else if styles.hasRawStyles, let raw = RawStyles.block(paragraph) {
            out = [.block(raw)]
        } else if base.role == .code, paragraph.sectionEnd == nil, var code = Self.codeBlock(paragraph) {
            // The info string Redline kept for this code (`KeptSources`), while the code is as it wrote it.
            if let info = context.codeSources.keptCode(for: code.text) { code = CodeBlock(text: code.text, infoString: info) }
            out = [.block(.codeBlock(code))]
        } else if base.role == .rule, paragraph.content.isEmpty, paragraph.markChange == nil, paragraph.styleChange == nil,
                  paragraph.sectionEnd == nil {
            out = [.block(.thematicBreak)]
        } else {
            if base.role == .code, paragraph.styleChange == nil, paragraph.sectionEnd == nil {
                // A code paragraph with changes (a comparison's) stands for a code block, as it is read once they
                // are resolved: its info string is the one Redline kept for the code it reads as accepted or
                // rejected (`KeptSources.codeTexts`, taken in the order written), which resolving gives back. Marks
                // Redline did not write (`redline apply` into a DOCX) may stand where its code was unmarked: then
                // the entry of the code as written.
                let sides = KeptSources.codeTexts(paragraph)
                if !sides.isEmpty {
                    paragraph.codeInfo = sides.compactMap {
                        context.codeSources.keptCode(for: $0.text, rejected: $0.rejected)
                            ?? context.codeSources.keptCode(for: $0.text, rejected: !$0.rejected)
                    }.first ?? ""
                }
            }
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
            runs += try equation(enclosing: enclosing.change).map { var r = $0; r.link = enclosing.link; return r }
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
            let (array, floor) = (progress.runArray, progress.joinFloor)
            progress.runArray = progress.newRunArray()
            progress.joinFloor = 0
            try forEachChild { try inlineElement(&innerRuns, &extra, inner) }
            (progress.runArray, progress.joinFloor) = (array, floor)
            runs += InlineBuilder.inlines(from: innerRuns).map { Run(.atom($0), change: outer) }
        case .hyperlink:
            var inner = enclosing
            var url = x.attribute("id", in: OOXML.r).flatMap { context.relationships[$0]?.target } ?? ""
            if let anchor = x.attribute("anchor", in: OOXML.w) { url += "#" + anchor }
            inner.link = Link(url: url, title: x.attribute("tooltip", in: OOXML.w) ?? "")
            try forEachChild { try inlineElement(&runs, &extra, inner) }
        case .fldSimple:
            var inner = enclosing
            let instruction = x.attribute("instr", in: OOXML.w) ?? ""
            let link = Self.hyperlink(fromField: instruction)
            if let link { inner.link = link }
            let start = runs.count
            progress.joinFloor = start
            try forEachChild { try inlineElement(&runs, &extra, inner) }
            if link == nil, !progress.fields.contains(where: { !$0.showingResult }), start <= runs.count,
               let atom = Run.field(FieldCode(instruction: instruction), result: runs[start...]) {
                runs.removeSubrange(start...)
                runs.append(atom)
            }
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
}

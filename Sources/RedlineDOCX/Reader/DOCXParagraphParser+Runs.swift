import RedlineCore
import RedlineXML

/// Runs (`w:r`): their properties and look, their text, breaks, tabs, symbols, field characters, note
/// references and comment marks.
extension StoryParser {
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
        if case .text(let s) = content, let i = runs.indices.last, i >= progress.joinFloor, case .text(var joined) = runs[i].content,
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
    func run(_ runs: inout [Run], _ extra: inout [Block], _ enclosing: Enclosing) throws {
        var look = RunLook()
        try forEachChild {
            guard x.namespace == OOXML.w else {
                if x.namespace == OOXML.m { runs += try equation(enclosing: enclosing.change) } else { try x.skipElement() }
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
                case "begin":
                    if let last = progress.fields.indices.last, !progress.fields[last].showingResult {
                        progress.fields[last].nestedInstruction = true
                    }
                    progress.fields.append(Field(array: progress.runArray, start: runs.count))
                case "separate":
                    if let last = progress.fields.indices.last {
                        progress.fields[last].showingResult = true
                        progress.fields[last].link = Self.hyperlink(fromField: progress.fields[last].instruction)
                        progress.fields[last].array = progress.runArray
                        progress.fields[last].start = runs.count
                        progress.joinFloor = runs.count
                    }
                case "end":
                    if let f = progress.fields.popLast() {
                        if f.spansParagraphs {
                            progress.blockFieldEnd = runs.isEmpty ? .beforeContent : .afterContent
                        } else {
                            endField(f, &runs)
                        }
                    }
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

    /// A complex field ends: its result becomes one field atom (`Run.field`) when it started in these runs,
    /// is no link and sits in no other field's instruction; else its result stays as the runs read.
    private func endField(_ f: Field, _ runs: inout [Run]) {
        guard f.link == nil, !f.nestedInstruction, f.array == progress.runArray, f.start <= runs.count,
              !progress.fields.contains(where: { !$0.showingResult }) else { return }
        guard let atom = Run.field(FieldCode(instruction: f.instruction), result: runs[f.start...]) else { return }
        runs.removeSubrange(f.start...)
        runs.append(atom)
        progress.joinFloor = runs.count
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
            } else if context.styles.hasRawStyles, let name = context.styles.name(props.styleID), RawStyles.isRawStyleName(name) {
                // Raw content shown in its style (`RawStyles`): the paragraph takes it back.
                f.style.name = name
            }
            return f
        }
        let f = format(markup.props)
        guard let (change, old) = markup.formatChange else { return (f, nil) }
        let o = format(old)
        return (f, o == f ? nil : FormatChange(change: change, old: o))
    }
}

private extension Run {
    /// The same formatting, link and change as `other` (compared in place: this is the run loop).
    func hasLook(of other: Run) -> Bool {
        format == other.format && change.isSame(as: other.change) && link.isSame(as: other.link)
            && formatChange.isSame(as: other.formatChange)
    }
}

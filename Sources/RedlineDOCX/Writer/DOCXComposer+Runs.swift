import RedlineCore

extension DOCXComposer {
    /// Renders inline content as runs: flattened with `[Inline].runs`, then wrapped, outermost first, in
    /// `w:hyperlink` and in the tracked change (`w:ins`, `w:del`, `w:moveFrom`/`w:moveTo` with their range
    /// markers); comment anchors, note references and breaks become their WordprocessingML elements.
    ///
    /// In the body, a move that runs on into the next paragraph keeps one range (as Word writes a moved
    /// passage): its range end waits for the first run of the next paragraph that is not part of it.
    func runs(_ inlines: [Inline], _ ctx: Context, into x: inout XMLText) {
        var state = RunState()
        let runs = inlines.nestedRuns
        if ctx.story == .body, let open = pendingMove {
            pendingMove = nil
            if let first = runs.first, first.run.link == nil, first.changes.first == .move(open.move) {
                x.open(open.move.side == .from ? "w:moveFrom" : "w:moveTo", changeAttributes(open.move.change))
                state.open = [(.move(open.move), open.rangeID)]
            } else {
                x.empty(open.move.side == .from ? "w:moveFromRangeEnd" : "w:moveToRangeEnd", [("w:id", open.rangeID)])
            }
        }
        for nested in runs {
            let run = nested.run
            if !run.link.isSame(as: state.link) {
                closeChanges(to: 0, &state, into: &x)
                if state.linkOpen { x.close("w:hyperlink") }
                state.linkOpen = false
                state.link = run.link
                if let l = run.link { openLink(l, &state, into: &x) }
            }
            // Keep the changes both runs share open; close the rest, open the new ones.
            var keep = 0
            while keep < state.open.count, keep < nested.changes.count, state.open[keep].change == nested.changes[keep] { keep += 1 }
            closeChanges(to: keep, &state, into: &x)
            // Most runs have no change: no slice of the empty array, no search of it.
            guard !nested.changes.isEmpty else { self.run(run, ctx, deleted: false, into: &x); continue }
            for c in nested.changes[keep...] { openChange(c, &state, into: &x) }
            self.run(run, ctx, deleted: nested.changes.contains { if case .deletion = $0 { return true } else { return false } },
                     into: &x)
        }
        // A move running on to the next paragraph: leave its range open.
        if ctx.story == .body, !state.linkOpen, state.open.count == 1, case .move(let m) = state.open[0].change,
           let range = state.open[0].range {
            x.close(m.side == .from ? "w:moveFrom" : "w:moveTo")
            pendingMove = (m, range)
            state.open = []
        }
        closeChanges(to: 0, &state, into: &x)
        if state.linkOpen { x.close("w:hyperlink") }
    }

    /// Ends a move range left open by the last paragraph (before a table, or at the end of the body).
    func closePendingMove(into x: inout XMLText) {
        guard let open = pendingMove else { return }
        pendingMove = nil
        x.empty(open.move.side == .from ? "w:moveFromRangeEnd" : "w:moveToRangeEnd", [("w:id", open.rangeID)])
    }

    /// The wrappers open around the runs being written.
    struct RunState {
        var link: Link?
        var linkOpen = false
        /// Open tracked changes, outermost first, with the range id of a move.
        var open: [(change: RunChange, range: String?)] = []
    }

    /// Opens `w:hyperlink` (an empty target opens nothing: the text stays plain).
    private func openLink(_ l: Link, _ s: inout RunState, into x: inout XMLText) {
        var a: [(String, String)]
        if l.url.hasPrefix("#") {
            guard l.url.count > 1 else { return }
            a = [("w:anchor", String(l.url.dropFirst()))]
        } else {
            guard !l.url.isEmpty else { return }
            a = [("r:id", linkID(Self.uriEscaped(l.url)))]
        }
        if !l.title.isEmpty { a.append(("w:tooltip", l.title)) }
        a.append(("w:history", "1"))
        x.open("w:hyperlink", a)
        s.linkOpen = true
    }

    /// A link target with the ASCII characters a URI may not hold (spaces, quotes, brackets, controls)
    /// percent-encoded, as relationship targets are URIs. Other characters are kept.
    static func uriEscaped(_ url: String) -> String {
        func unsafe(_ c: Unicode.Scalar) -> Bool { c.value < 0x20 || " \"<>\\^`{|}".unicodeScalars.contains(c) }
        guard url.unicodeScalars.contains(where: unsafe) else { return url }
        var out = ""
        for c in url.unicodeScalars {
            if unsafe(c) {
                let hex = String(c.value, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private func openChange(_ c: RunChange, _ s: inout RunState, into x: inout XMLText) {
        var range: String?
        switch c {
        case .insertion(let ch): x.open("w:ins", changeAttributes(ch))
        case .deletion(let ch): x.open("w:del", changeAttributes(ch))
        case .move(let m):
            let side = m.side == .from ? "moveFrom" : "moveTo"
            var a = changeAttributes(m.change)
            // The schema requires w:date on a move range (CT_MoveBookmark), though not on the move itself:
            // a move without a date gets the epoch there (the reader takes a move's date from w:moveFrom/To).
            if !a.contains(where: { $0.0 == "w:date" }) { a.append(("w:date", "1970-01-01T00:00:00Z")) }
            a.append(("w:name", m.name))
            range = a[0].1
            x.empty("w:\(side)RangeStart", a)
            x.open("w:\(side)", changeAttributes(m.change))
        }
        s.open.append((c, range))
    }

    /// Closes open changes until `count` remain.
    private func closeChanges(to count: Int, _ s: inout RunState, into x: inout XMLText) {
        while s.open.count > count {
            let (c, range) = s.open.removeLast()
            switch c {
            case .insertion: x.close("w:ins")
            case .deletion: x.close("w:del")
            case .move(let m):
                let side = m.side == .from ? "moveFrom" : "moveTo"
                x.close("w:\(side)")
                x.empty("w:\(side)RangeEnd", [("w:id", range ?? "0")])
            }
        }
    }

    // MARK: One run

    private func run(_ r: Run, _ ctx: Context, deleted: Bool, into x: inout XMLText) {
        switch r.content {
        case .text(let s):
            openRun(r, into: &x)
            text(s, deleted: deleted, into: &x)
            x.close("w:r")
        case .lineBreak:
            openRun(r, into: &x)
            x.empty("w:br")
            x.close("w:r")
        case .atom(let inline):
            atom(inline, r, ctx, deleted: deleted, into: &x)
        }
    }

    private func atom(_ inline: Inline, _ r: Run, _ ctx: Context, deleted: Bool, into x: inout XMLText) {
        switch inline {
        case .softBreak:
            openRun(r, into: &x)
            text(" ", deleted: deleted, into: &x)
            x.close("w:r")
        case .commentStart(let id), .commentEnd(let id), .commentPoint(let id):
            guard ctx.story != .comment else {
                diagnostics.report(.docxNestedComment, "comments inside comments cannot be carried in DOCX and were dropped")
                return
            }
            guard ctx.story != .header else {
                diagnostics.report(.docxNestedComment, "comments inside headers and footers cannot be carried in DOCX and were dropped")
                return
            }
            for k in comments.thread(id) {
                let n = comments.number(at: k)
                switch inline {
                case .commentStart:
                    if comments.mark(.started, at: k) { x.empty("w:commentRangeStart", [("w:id", String(n))]) }
                case .commentEnd:
                    if comments.has(.started, at: k), comments.mark(.ended, at: k) {
                        x.empty("w:commentRangeEnd", [("w:id", String(n))])
                    }
                    reference(k, r.format, into: &x)
                default:
                    reference(k, r.format, into: &x)
                }
            }
        case .noteReference(let id):
            guard ctx.story == .body else {
                diagnostics.report(.docxNestedNote, "notes inside comments or notes cannot be carried in DOCX and were dropped")
                return
            }
            guard let (kind, n) = notes.reference(id) else {
                diagnostics.report(.docxNoteRepeated, "note '\(id)' is referenced more than once; DOCX keeps the first reference")
                return
            }
            let (style, tag) = kind == .footnote ? ("FootnoteReference", "w:footnoteReference") : ("EndnoteReference", "w:endnoteReference")
            x.open("w:r")
            x.open("w:rPr")
            x.val("w:rStyle", style)
            x.close("w:rPr")
            x.empty(tag, [("w:id", String(n))])
            x.close("w:r")
        case .image(let image):
            var picture = XMLText()
            guard drawing(image, into: &picture) else {
                // Not embedded (reported): its alt text stays, as text, where the picture stood.
                guard !image.alt.isEmpty else { return }
                openRun(r, into: &x)
                text(image.alt, deleted: deleted, into: &x)
                x.close("w:r")
                return
            }
            openRun(r, into: &x)
            x.append(picture)
            x.close("w:r")
        case .raw(let format, _):
            diagnostics.report(.docxRawDropped, "raw \(format) content cannot be carried in DOCX and was dropped")
        case .math(let kind, let tex):
            math(kind, tex, r, deleted: deleted, into: &x)
        case .field(let f, let result):
            // A complex field: its instruction, then its result's runs (each with the look it has).
            Self.fieldStart(f, deleted: deleted, into: &x)
            for var inner in result.runs {
                inner.change = nil
                inner.link = nil
                run(inner, ctx, deleted: deleted, into: &x)
            }
            x.raw(Self.fieldEndRun)
        default:
            break
        }
    }

    /// An equation: its TeX as OMML (`OMMLWriter`), and the TeX itself in `mathSources` when the OMML reads
    /// back as other TeX. TeX outside what `TeXParser` knows is written as text.
    private func math(_ kind: MathKind, _ tex: String, _ r: Run, deleted: Bool, into x: inout XMLText) {
        let display = kind == .display
        do {
            let node = try TeXParser.parse(tex)
            var m = XMLText()
            OMMLWriter.equation(node, display: display, into: &m)
            let readBack = try OMMLReader.tex(fromXML: m.bytes).first?.tex ?? ""
            if display && paragraphDeclaresMath {
                var bare = XMLText()
                OMMLWriter.equation(node, display: true, declaringNamespace: false, into: &bare)
                x.appendElement(bare.bytes)
            } else {
                x.appendElement(m.bytes)
            }
            mathSources.record(original: tex, readBack: readBack, display: display)
        } catch {
            let reason = (error as? MathParseError)?.reason ?? "\(error)"
            diagnostics.report(.lossyMathUnsupported,
                               "TeX Redline cannot make into an equation was written as text (first: \(reason))")
            openRun(r, into: &x)
            text(tex, deleted: deleted, into: &x)
            x.close("w:r")
        }
    }

    /// The run holding a comment's reference mark (it makes the comment visible at this point).
    /// It carries the emphasis around it (bold, italic...; not size or font, which the reference style sets),
    /// so a comment inside bold text reads back inside it.
    private func reference(_ place: Int, _ format: TextFormat, into x: inout XMLText) {
        guard comments.mark(.referenced, at: place) else { return }
        let n = comments.number(at: place)
        var f = format
        f.style = CharacterStyle()
        guard f != TextFormat() else {
            x.raw("<w:r><w:rPr><w:rStyle w:val=\"CommentReference\"/></w:rPr><w:commentReference w:id=\"\(n)\"/></w:r>")
            return
        }
        x.raw("<w:r><w:rPr>")
        Properties.run(f, styleID: "CommentReference", into: &x)
        x.raw("</w:rPr><w:commentReference w:id=\"\(n)\"/></w:r>")
    }

    /// `<w:r>` and its properties, including a tracked formatting change.
    private func openRun(_ r: Run, into x: inout XMLText) {
        x.raw("<w:r>")
        if r.format.isPlain && r.formatChange == nil && r.link == nil { return }  // most runs: no properties
        guard let fc = r.formatChange else {
            let inLink = r.link != nil
            if !r.format.hasStyle {
                // A look written before (`RunPropertiesCache`): its bytes again.
                if let element = runProperties.element(for: r.format, inLink: inLink) { return x.appendElement(element) }
                var props = XMLText()
                Properties.run(r.format, styleID: characterStyleID(r.format, inLink: inLink), into: &props)
                if !props.isEmpty { props.wrap("w:rPr") }
                runProperties.keep(props.bytes, for: r.format, inLink: inLink)
                return x.appendElement(props.bytes)
            }
            // Written in place, not through a buffer of its own (one allocation a run); an empty `w:rPr` is
            // taken back. `Properties.run` closes no element, so nothing is spilled before it is decided.
            let mark = x.count
            x.raw("<w:rPr>")
            let properties = x.count
            Properties.run(r.format, styleID: characterStyleID(r.format, inLink: inLink), into: &x)
            if x.count == properties { x.removeLast(x.count - mark) } else { x.close("w:rPr") }
            return
        }
        var props = XMLText()
        Properties.run(r.format, styleID: characterStyleID(r.format, inLink: r.link != nil), into: &props)
        do {
            props.open("w:rPrChange", changeAttributes(fc.change))
            props.open("w:rPr")
            Properties.run(fc.old, styleID: characterStyleID(fc.old, inLink: r.link != nil), into: &props)
            props.close("w:rPr")
            props.close("w:rPrChange")
        }
        if !props.isEmpty {
            x.open("w:rPr")
            x.append(props)
            x.close("w:rPr")
        }
    }

    private func characterStyleID(_ f: TextFormat, inLink: Bool) -> String? {
        if f.code { return "VerbatimChar" }
        if let name = f.style.name { return styles.characterID(name) }
        return inLink ? "Hyperlink" : nil
    }

    /// Text as `w:t` (or `w:delText` when deleted), tabs as `w:tab`, line feeds as `w:br`.
    private func text(_ s: String, deleted: Bool, into x: inout XMLText) {
        let (open, close) = deleted ? ("<w:delText xml:space=\"preserve\">", "</w:delText>")
                                    : ("<w:t xml:space=\"preserve\">", "</w:t>")
        var breaks = false, forbidden = false
        var previous: (UInt8, UInt8) = (0, 0)
        for b in s.utf8 {
            if b < 0x20 {
                if b == 9 || b == 10 || b == 13 { breaks = true } else { forbidden = true }
            } else if b >= 0xBE, previous == (0xEF, 0xBF), b <= 0xBF {
                forbidden = true  // U+FFFE, U+FFFF
            }
            previous = (previous.1, b)
        }
        if forbidden {
            diagnostics.report(.lossyControlCharacter,
                               "control characters and U+FFFE/U+FFFF cannot be written in DOCX (XML 1.0 forbids them) and were dropped")
        }
        if !breaks {
            x.raw(open)
            x.text(s)
            x.raw(close)
            return
        }
        var piece = ""
        func flush() {
            guard !piece.isEmpty else { return }
            x.raw(open)
            x.text(piece)
            x.raw(close)
            piece = ""
        }
        for ch in s.unicodeScalars {
            switch ch {
            case "\t": flush(); x.empty("w:tab")
            case "\n": flush(); x.empty("w:br")
            case "\r": continue
            default: piece.unicodeScalars.append(ch)
            }
        }
        flush()
    }
}

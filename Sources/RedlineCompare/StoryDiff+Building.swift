import RedlineCore

/// Building blocks: the result's blocks from a story's edit script (on two threads for a long one), equal
/// text with its formatting changes, and the marks counted.
extension StoryComparer {
    /// The result's blocks from the edit script; `equalBlocks` (op index, block), in order, are kept whole.
    mutating func build(_ ops: [Op], _ v: TokenView, equalBlocks: [EqualBlock], into out: inout [Block]) {
        guard let k = Self.buildSplit(ops, v, minimum: parallelMinimum) else {
            var seen = Set<Int32>()
            build(ops[...], v, equalBlocks: equalBlocks[...], movesSeen: &seen, into: &out)
            return
        }
        // The later half on a worker with its own counts, notes and warnings, absorbed after in order. It reads
        // the same stores; it compares no nested story (`buildSplit`), so it numbers no moves.
        var worker = self
        worker.keys = KeyTable()
        worker.stats = CompareStats()
        worker.notePairs = []; worker.deletedNotes = []; worker.insertedNotes = []
        worker.diagnostics = Diagnostics()
        let e = equalBlocks.firstIndex { $0.op >= k } ?? equalBlocks.count
        let laterEqual = equalBlocks[e...]
        var seen = Set<Int32>()
        let (_, done) = TwoThreads.run({
            self.build(ops[..<k], v, equalBlocks: equalBlocks[..<e], movesSeen: &seen, into: &out)
        }, {
            var w = worker
            var wSeen = Set<Int32>(), wOut: [Block] = []
            w.build(ops[k...], v, equalBlocks: laterEqual, movesSeen: &wSeen, into: &wOut)
            return (w, wSeen, wOut)
        })
        let (w, wSeen, wOut) = done
        out += wOut
        stats.add(w.stats)
        stats.moves -= seen.intersection(wSeen).count      // a move whose insertions both halves saw
        notePairs += w.notePairs; deletedNotes += w.deletedNotes; insertedNotes += w.insertedNotes
        diagnostics.absorb([w.diagnostics])
    }

    /// Where to cut the edit script for two builders: just after the first paragraph break at or past the
    /// middle that has no equal block token after it (an equal block is compared as a nested story, whose
    /// moves take the next numbers in order); nil for a script under `minimum` ops or with no such break.
    static func buildSplit(_ ops: [Op], _ v: TokenView, minimum: Int) -> Int? {
        guard ops.count >= max(minimum, 2) else { return nil }
        var from = ops.count / 2
        for i in stride(from: ops.count - 1, through: from, by: -1) where ops[i].kind == .equal && v.tok(ops[i]).kind == .block {
            from = i + 1
            break
        }
        var i = from
        while i < ops.count - 1 {
            if ops[i].kind != .pass && v.tok(ops[i]).kind == .mark { return i + 1 }
            i += 1
        }
        return nil
    }

    /// Builds blocks from a part of the edit script that starts at a paragraph's start; `equalBlocks` are
    /// those whose op index is in `ops`.
    private mutating func build(_ ops: ArraySlice<Op>, _ v: TokenView, equalBlocks: ArraySlice<EqualBlock>,
                                movesSeen: inout Set<Int32>, into out: inout [Block]) {
        var nextEqual = equalBlocks.startIndex
        var runs: [Run] = []
        func moveName(_ id: Int32) -> String { "move\(id + 1)" }
        // Equal text is gathered into spans of one source run, each materialized once.
        var span: (run: Int32, start: Int32, end: Int32, old: TextFormat?)?
        let store = newStore, oldSide = oldStore
        func flush() {
            guard let sp = span else { return }
            span = nil
            var r = store.runs[Int(sp.run)]
            if case .text(let s) = r.content {
                let u = s.utf8
                let a = u.index(u.startIndex, offsetBy: Int(sp.start)), b = u.index(u.startIndex, offsetBy: Int(sp.end))
                if sp.start != 0 || b != s.endIndex { r.content = .text(String(s[a..<b])) }
            }
            if let of = sp.old, of != r.format { r.formatChange = FormatChange(change: change, old: of) }
            runs.append(r)
        }
        for index in ops.indices {
            let op = ops[index]
            if nextEqual < equalBlocks.endIndex && equalBlocks[nextEqual].op == index {
                // Its note pairs are taken here, in reading order with the gaps' (compareNotes relies on it).
                let e = equalBlocks[nextEqual]
                flush(); recordNotePairs(e.old, e.new); out.append(e.new); nextEqual += 1; continue
            }
            let t = v.tok(op)
            let tStore = op.kind == .delete ? oldSide : store
            // The common case: an equal text token inside one source run, formatted as the span before it.
            if op.kind == .equal, t.kind != .atom, t.kind != .mark, t.kind != .block, t.count == 1, v.oldTok(op).count == 1 {
                let p = store.piece(of: t, 0)
                let of = options.ignoreFormatting ? nil : oldSide.firstFormat(of: v.oldTok(op))
                if p.start >= 0 {
                    if let sp = span, sp.run == p.run, sp.end == p.start, sp.old == of {
                        span!.end = p.end
                        continue
                    }
                    flush()
                    span = (p.run, p.start, p.end, of)
                    continue
                }
            }
            flush()
            switch t.kind {
            case .mark:
                var level: Int, style: ParagraphStyle, box: TextBox?, attributes: String?
                // NEW's fields spanning paragraphs (a deleted paragraph is inside or outside one of NEW's).
                var field: BlockField?
                var mark: ParagraphMarkChange?
                var styleChange: ParagraphStyleChange?
                switch op.kind {
                case .equal:
                    let o = oldSide.props(of: v.oldTok(op))!, n = store.props(of: t)!
                    level = n.level; style = n.style; box = n.textBox; field = n.blockField; attributes = n.headingAttributes
                    if !options.ignoreFormatting
                        && ((options.compareParagraphStyles
                             && Self.comparable(o.style, level: o.level) != Self.comparable(n.style, level: n.level))
                            || (o.level != n.level && options.keepRelevelled)) {
                        var old = o.style
                        if o.level != n.level, old.name == nil { old.name = o.level > 0 ? "heading \(o.level)" : nil }
                        styleChange = ParagraphStyleChange(change: change, old: old)
                        stats.paragraphStyleChanges += 1
                    }
                case .delete:
                    let pr = tStore.props(of: t)!
                    level = pr.level; style = pr.style; box = pr.textBox; attributes = pr.headingAttributes; mark = .deleted(change)
                    stats.paragraphMarkChanges += 1
                default:
                    let pr = tStore.props(of: t)!
                    level = pr.level; style = pr.style; box = pr.textBox; field = pr.blockField; attributes = pr.headingAttributes
                    mark = .inserted(change)
                    stats.paragraphMarkChanges += 1
                }
                let content = InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs))
                count(content)
                runs = []
                var p = Paragraph(content, style: style, markChange: mark, styleChange: styleChange)
                p.textBox = box
                p.blockField = field
                if level > 0 { p.headingAttributes = attributes }
                out.append(level == 0 ? .paragraph(p) : .heading(level: level, p))
            case .block:
                // Text with no break of its own before a block. Only one side's own changes can be here, when
                // the clean-up slid them past the other side's block (OLD's deleted heading words before NEW's
                // inserted table): they stay pending for the paragraph whose break comes next, where rejecting
                // (or accepting) puts them back with that paragraph, and the block they passed goes. Anything
                // else cannot happen with well-formed streams and closes a paragraph of its own.
                let slidPast = (op.kind == .insert || op.kind == .delete)
                    && runs.allSatisfy { Self.isOnlyOnOneSide($0, insertedSide: op.kind == .delete) }
                if !runs.isEmpty && !slidPast {
                    out.append(.paragraph(Paragraph(InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs)))))
                    runs = []
                }
                switch op.kind {
                case .equal: out += compareContainer(oldSide.block(of: v.oldTok(op))!, store.block(of: t)!)
                case .delete: if let b = marked(tStore.block(of: t)!, inserted: false) { out.append(b) }
                case .insert: if let b = marked(tStore.block(of: t)!, inserted: true) { out.append(b) }
                case .pass: break
                }
            default:
                switch op.kind {
                case .equal:
                    appendEqual(t, v.oldTok(op), newSide: store, oldSide: oldSide, to: &runs)
                case .delete, .insert:
                    let ins = op.kind == .insert
                    if t.kind == .word { if ins { stats.wordsInserted += 1 } else { stats.wordsDeleted += 1 } }
                    let rc: RunChange
                    if op.move >= 0 {
                        rc = .move(Move(change: change, name: moveName(op.move), side: ins ? .to : .from))
                        if ins && movesSeen.insert(op.move).inserted { stats.moves += 1 }
                    } else {
                        rc = ins ? .insertion(change) : .deletion(change)
                    }
                    for var r in tStore.runs(of: t) {
                        if case .atom(.noteReference(let id)) = r.content {
                            if ins { insertedNotes.append(id) } else {
                                let newID = "old-" + id
                                deletedNotes.append((id, newID))
                                r.content = .atom(.noteReference(newID))
                            }
                        }
                        r.change = rc
                        r.formatChange = nil
                        runs.append(r)
                    }
                case .pass:
                    runs += tStore.runs(of: t)
                }
            }
        }
        flush()
        if !runs.isEmpty {
            out.append(.paragraph(Paragraph(InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs)))))
        }
    }

    /// Whether `run` is only in NEW (`insertedSide`) or only in OLD: inserted or moved to, deleted or moved from.
    private static func isOnlyOnOneSide(_ run: Run, insertedSide: Bool) -> Bool {
        switch run.change {
        case .insertion?: return insertedSide
        case .deletion?: return !insertedSide
        case .move(let m)?: return (m.side == .to) == insertedSide
        case nil: return false
        }
    }

    /// NEW's runs of an equal token, with a formatting change where OLD's formatting differs.
    private mutating func appendEqual(_ n: Token, _ o: Token, newSide: TokenStore, oldSide: TokenStore, to runs: inout [Run]) {
        let nRuns = newSide.runs(of: n)
        if n.kind == .atom, case .atom(.noteReference(let newID)) = nRuns.first?.content,
           case .atom(.noteReference(let oldID)) = oldSide.runs(of: o).first?.content {
            notePairs.append((oldID, newID))
        }
        if options.ignoreFormatting {
            runs += nRuns
            return
        }
        if n.count == 1 && o.count == 1 {
            var r = nRuns[0]
            if let of = oldSide.firstFormat(of: o), of != r.format { r.formatChange = FormatChange(change: change, old: of) }
            runs.append(r)
            return
        }
        // Pieces cut differently on the two sides: split at every boundary of either.
        var oldFormats: [TextFormat] = []
        for r in oldSide.runs(of: o) { if case .text(let s) = r.content { oldFormats += Array(repeating: r.format, count: s.count) } }
        var pos = 0
        for r in nRuns {
            guard case .text(let s) = r.content else { runs.append(r); continue }
            var chunk = ""
            var chunkOld: TextFormat?
            func flush() {
                guard !chunk.isEmpty else { return }
                var piece = r
                piece.content = .text(chunk)
                if let of = chunkOld, of != r.format { piece.formatChange = FormatChange(change: change, old: of) }
                runs.append(piece)
                chunk = ""
            }
            for ch in s {
                let of = pos < oldFormats.count ? oldFormats[pos] : r.format
                if !chunk.isEmpty && of != chunkOld { flush() }
                chunkOld = of
                chunk.append(ch)
                pos += 1
            }
            flush()
        }
    }

    /// Counts the marks of a built paragraph's content.
    private mutating func count(_ inlines: [Inline]) {
        for i in inlines {
            switch i {
            case .insertion: stats.insertions += 1
            case .deletion: stats.deletions += 1
            case .substitution: stats.substitutions += 1; stats.insertions += 1; stats.deletions += 1
            case .formatChange(_, let c): stats.formatChanges += 1; count(c)
            case .move: break
            default: count(i.children)
            }
        }
    }
}

extension StoryComparer {
    /// Style names that mean a plain body paragraph in some reader or writer (compared lowercased, without
    /// spaces): none, Word's Normal, Body Text, pandoc's First Paragraph and Compact, Default Paragraph Style,
    /// and the plain paragraphs of notes and comments (Footnote Text, Endnote Text, Annotation Text).
    static let plainParagraphStyleNames: Set<String> = ["normal", "bodytext", "firstparagraph", "compact",
                                                        "default", "defaultparagraphstyle", "plaintext",
                                                        "footnotetext", "endnotetext", "annotationtext"]

    /// A paragraph's style as compared: a name meaning a plain paragraph (`plainParagraphStyleNames`) or,
    /// on a heading, its own level ("Heading 2" on a level-2 heading) is no name, so Markdown's unnamed
    /// paragraphs and headings equal Word's Normal, Body Text and Heading N. An equal break keeps NEW's style
    /// unmarked then, so the exactness check compares styles as this gives them (`ExactnessNormalization`).
    /// A zero indent or spacing and single line spacing, which some readers state and others leave out (the
    /// DOCX reader resolves a style's own zeros into the paragraph, RTF states none), are the default, as
    /// when not stated.
    static func comparable(_ s: ParagraphStyle, level: Int) -> ParagraphStyle {
        var out = s
        if out.firstLineIndent == 0 { out.firstLineIndent = nil }
        if out.leftIndent == 0 { out.leftIndent = nil }
        if out.rightIndent == 0 { out.rightIndent = nil }
        if out.spaceBefore == 0 { out.spaceBefore = nil }
        if out.spaceAfter == 0 { out.spaceAfter = nil }
        if out.lineSpacing == .multiple(1) { out.lineSpacing = nil }
        guard let name = s.name else { return out }
        let folded = name.lowercased().filter { $0 != " " }
        if level == 0 && plainParagraphStyleNames.contains(folded) { out.name = nil }
        if level > 0, BlockStyleRole.headingLevel(styleName: name) == level || folded == "heading\(level)" { out.name = nil }
        return out
    }
}

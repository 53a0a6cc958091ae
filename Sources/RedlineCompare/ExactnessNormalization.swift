import RedlineCore

/// What both sides of an exactness check (accepting a comparison gives NEW, rejecting it OLD) are brought
/// to: comments dropped, notes renumbered in the order of their first reference (unreferenced ones dropped),
/// inlines in canonical nesting, tables without rows dropped,
/// the header (metadata, defaults) left out: metadata is not compared; a block quote holding only empty
/// paragraphs dropped (the model has no mark for a whole container: a deleted quote is left empty on accept);
/// a paragraph or heading that held only comment anchors dropped with them, and every empty paragraph (what
/// such a paragraph is when its comments are not carried), and a list item (and a list) left empty by that,
/// but for an item that was empty to begin with (no blocks or only empty paragraphs, both an empty item);
/// lists all tight (Markdown's blank lines between items are layout no change mark carries); a code-style
/// paragraph of plain lines the code block it stands for (`BlockStyleRole.codeBlock`), and a code block's text
/// ending with a line end as that gives it (an empty code block one empty line); and what compare itself
/// takes as equal, keeping NEW's form unmarked, folded as compare folds it: a soft line break outside a link a
/// space (`Tokenizer`), a paragraph's or heading's style as `StoryComparer.comparable` gives it (no name for
/// Normal, Body Text and the like, or for a heading's own Heading N), a heading's pandoc attributes left out. Without that, rejecting a comparison whose
/// OLD had a space where NEW's equal token was a soft break (or Body Text where NEW had no name) differed from
/// OLD by what no mark carries.
public enum ExactnessNormalization {
    /// OLD as an exactness check compares rejecting with: compare does not carry OLD's comments
    /// (`compare.old-comments`) and does not see their anchors, so they go before `document` (a heading that held
    /// only OLD's comment anchors is an empty heading to compare, and rejecting gives it back empty).
    public static func old(_ d: Document) -> Document {
        var notes = d.notes
        for k in notes.indices { notes[k].blocks = notes[k].blocks.map(StoryComparer.strippingComments) }
        return document(Document(header: d.header, blocks: d.blocks.map(StoryComparer.strippingComments), notes: notes))
    }

    /// `d` with every table's columns (alignments, widths) left out, nested tables and notes' too: what a check
    /// compares on reject when compare reported `compare.table-columns` (it keeps NEW's columns, which no change
    /// mark carries, so rejecting gives OLD's rows under NEW's columns); the rows and cells are still compared.
    public static func withoutTableColumns(_ d: Document) -> Document {
        func visit(_ blocks: [Block]) -> [Block] {
            blocks.map { b in
                let mapped = b.mapBlockArrays(visit)
                guard case .table(var t) = mapped else { return mapped }
                t.columns = []
                t.columnWidths = nil
                return .table(t)
            }
        }
        var out = d
        out.blocks = visit(d.blocks)
        for k in out.notes.indices { out.notes[k].blocks = visit(out.notes[k].blocks) }
        return out
    }

    /// `d` as an exactness check compares it.
    public static func document(_ d: Document) -> Document {
        var normalizer = Normalizer()
        let blocks = normalizer.rewriteBlocks(d.blocks)
        let byID = Dictionary(d.notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var notes: [Note] = []
        var k = 0
        while k < normalizer.order.count {
            let id = normalizer.order[k]
            if let n = byID[id] { notes.append(Note(id: normalizer.ids[id]!, kind: n.kind, blocks: normalizer.rewriteBlocks(n.blocks))) }
            k += 1
        }
        return Document(header: DocumentHeader(), blocks: blocks, comments: [], notes: notes)
    }

    /// The rewrite behind `document`: a `ModelRewriter`, whose defaults take it through block arrays (the
    /// blocks rewritten to nil left out) and inlines (each spliced in: comment anchors rewritten to none).
    /// Notes are numbered as their references are met. A table's cells are rewritten by `mapBlockArrays`, not
    /// by the rewriter's table default, which would recount the header rows from the rows there are.
    private struct Normalizer: ModelRewriter {
        /// A note's id → its number, in the order of first reference.
        var ids: [String: String] = [:]
        /// The referenced notes' ids, in the order of first reference.
        var order: [String] = []
        /// How many links the inlines being rewritten are in: a soft break in a link is not a space to compare.
        var linkDepth = 0

        mutating func rewriteInline(_ i: Inline) -> [Inline] {
            switch i {
            case .commentStart, .commentEnd, .commentPoint: return []
            case .noteReference(let id):
                if ids[id] == nil { ids[id] = "\(ids.count + 1)"; order.append(id) }
                return [.noteReference(ids[id]!)]
            case .softBreak where linkDepth == 0:
                // A space to compare (`Tokenizer`): the equal token keeps NEW's, soft break or space.
                return [.text(" ")]
            case .link:
                linkDepth += 1
                defer { linkDepth -= 1 }
                return [descend(into: i)]
            default: return [descend(into: i)]
            }
        }

        mutating func rewriteBlock(_ b: Block) -> Block? {
            switch b {
            case .paragraph(let p) where BlockStyleRole.codeBlock(p) != nil:
                // A resolved changed code block: the code block DOCX and RTF write and read it as.
                return .codeBlock(BlockStyleRole.codeBlock(p)!)
            case .codeBlock(var c) where !c.text.hasSuffix("\n"):
                // Likewise a code block's text ends with a line end: the code-style paragraph compare marks a
                // changed, deleted or inserted one as has no form for no line at all (an empty fence) apart
                // from one empty line.
                c.text += "\n"
                return .codeBlock(c)
            case .paragraph(let p), .heading(_, let p):
                // A paragraph or heading that held only comment anchors (kept on reject so its comments
                // stay somewhere) goes with the comments, and so does an empty paragraph, which is what
                // is left of one when its comments are not carried (compare drops OLD's, review keeps an
                // empty paragraph for comments whose anchors went with a rejected table).
                let content = InlineBuilder.inlines(from: rewriteInlines(p.content).runs)
                if content.isEmpty, case .paragraph = b { return nil }
                if content.isEmpty && !p.content.isEmpty { return nil }
                // The style as compare compares it (an equal break keeps NEW's unmarked when those are equal).
                var q = p
                q.content = content
                if case .heading(let level, _) = b {
                    q.style = StoryComparer.comparable(p.style, level: level)
                    // A heading's pandoc attributes are not compared either (no mark carries them): a heading in
                    // both keeps NEW's, a deleted one OLD's.
                    q.headingAttributes = nil
                    return .heading(level: level, q)
                }
                q.style = StoryComparer.comparable(p.style, level: 0)
                return .paragraph(q)
            case .table(let t) where t.rows.isEmpty: return nil
            case .list(var l):
                // Likewise a list item that held only such a paragraph, and a list left with no item; and
                // tight or loose is not compared (Markdown's blank lines between items, which no change mark
                // carries and no other format has). An empty item is one, with or without an empty paragraph.
                l.tight = true
                let items = l.items.compactMap { item -> [Block]? in
                    let v = rewriteBlocks(item)
                    return v.isEmpty && !StoryComparer.isEmptyItem(item) ? nil : v
                }
                if items.isEmpty && !l.items.isEmpty { return nil }
                l.items = items
                return .list(l)
            case .blockQuote(let c):
                let v = rewriteBlocks(c)
                return v.allSatisfy({ $0.paragraph?.content.isEmpty ?? false }) ? nil : .blockQuote(v)
            default: return b.mapBlockArrays { rewriteBlocks($0) }
            }
        }
    }
}

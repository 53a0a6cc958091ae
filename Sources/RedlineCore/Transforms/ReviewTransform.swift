/// Accepts, rejects or keeps each tracked change as `review` decides: text insertions, deletions,
/// substitutions, moves, formatting changes, paragraph-mark insertions and deletions (merging paragraphs),
/// paragraph-style changes and table-row insertions and deletions, also inside comment bodies and notes.
/// Comment anchors inside removed text are kept, so no comment loses its place.
///
/// A `ModelRewriter`: the defaults walk the chunk; the overrides below decide rows, paragraphs and
/// inlines, and merge the paragraphs whose break goes away.
public struct ReviewTransform: ChunkStage, ModelRewriter {
    /// The decisions: one mode for all changes, and filters that select some.
    public let review: ReviewOptions
    /// A top-level paragraph whose break goes away, waiting for the block it merges into.
    private var pending: Chunk?
    /// Comments and notes of a removed empty paragraph, carried to the next chunk.
    private var orphanComments: [Comment] = []
    private var orphanNotes: [Note] = []
    /// The document's last section, from a last chunk that went: it goes on the last chunk emitted.
    private var orphanFinalSection: Section?
    private var numbering = NumberChanges()

    /// One decision for every change.
    public init(_ mode: ChangeMode) { self.init(ReviewOptions(changes: mode)) }

    /// A decision per change, as `review` selects.
    public init(_ review: ReviewOptions) { self.review = review }

    private func decide(_ kind: ChangeKind, _ change: Change) -> ReviewDecision {
        review.decision(for: ChangeInfo(kind: kind, change: change))
    }

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        guard !review.keepsAllChanges else { try emit(chunk); return }
        // Changes without a source id get the ordinals `redline changes` lists, so `id=` filters match.
        var numbered = chunk
        try numbering.process(chunk) { numbered = $0 }
        guard var c = descend(into: numbered) else {
            // A table whose rows all went: its comments and notes wait for the next chunk; a paragraph
            // waiting to join the next one still waits.
            orphanComments += numbered.comments.compactMap { rewriteComment($0) }
            orphanNotes += numbered.notes.compactMap { rewriteNote($0) }
            if let s = numbered.finalSection { orphanFinalSection = s }
            return
        }
        c.notes = Self.withoutEmptiedNotes(c.notes, before: numbered.notes, block: c.block)
        if let s = c.finalSection, !s.headersFooters.isEmpty { c.finalSection = resolvingStories(s) }
        if pending != nil && Self.isEmptyContainer(c.block) {
            // An empty quote or list (Markdown's lone ">") holds nothing a break could join: the paragraph
            // waiting to join the next one passes it and still waits.
            try emit(c)
            return
        }
        if var p = pending, let anchors = Self.onlyCommentAnchors(c.block) {
            // A quote or list left with nothing but comment anchors (its inserted items rejected): the anchors
            // join the waiting paragraph, which still waits, so the list does not split what the break joins.
            if let (rest, last) = splitTrailing(p.block) {
                // The waiting paragraph is a list's last: the rest of the list is written now.
                if let rest { try emit(Chunk(rest, comments: p.comments, notes: p.notes)); p.comments = []; p.notes = [] }
                p.block = last
            }
            p.block = p.block.mapParagraphContent { $0 + anchors }
            p.comments += c.comments
            p.notes += c.notes
            if let s = c.finalSection { p.finalSection = s }
            pending = p
            return
        }
        if let p = pending {
            pending = nil
            if let (rest, merged) = join(p.block, into: c.block) {
                c.block = merged
                if let rest {
                    // What stays of a list whose last paragraph joined this block: written first, with the
                    // comments and notes (a writer has them before it meets their anchors).
                    try emit(Chunk(rest, comments: p.comments, notes: p.notes))
                } else {
                    c.comments = p.comments + c.comments
                    c.notes = p.notes + c.notes
                }
            } else if let kept = keepAlone(p) {
                try emit(kept)
            } else {
                orphanComments += p.comments
                orphanNotes += p.notes
            }
        }
        if !orphanComments.isEmpty || !orphanNotes.isEmpty {
            c.comments = orphanComments + c.comments
            c.notes = orphanNotes + c.notes
            orphanComments = []
            orphanNotes = []
        }
        if joinsNext(c.block) { pending = c } else { try emit(c) }
    }

    public mutating func finish(emit: (Chunk) throws -> Void) throws {
        if let p = pending {
            pending = nil
            if var kept = keepAlone(p) {
                if let s = orphanFinalSection { kept.finalSection = s; orphanFinalSection = nil }
                try emit(kept)
            } else if !p.comments.isEmpty || !orphanComments.isEmpty || p.finalSection != nil || orphanFinalSection != nil {
                // Comments must stay somewhere; notes whose references went are dropped with them. What holds
                // them is a plain paragraph (as `Document.chunks` makes for comments and notes with no block),
                // whatever the emptied one was: a heading whose words all went leaves no empty heading, and a
                // styled paragraph (a changed code block's code-style paragraph) leaves no empty styled one.
                // It is empty (`keepAlone` kept any with content), so nothing of it is left out.
                var c = p
                c.block = .paragraph(Paragraph([]))
                c.comments = orphanComments + c.comments
                if let s = orphanFinalSection { c.finalSection = s }
                try emit(c)
            }
        } else if !orphanComments.isEmpty || orphanFinalSection != nil {
            // The last chunk was a table whose rows all went: its comments (and the last section) stay, in a
            // plain empty paragraph.
            try emit(Chunk(.paragraph(Paragraph([])), comments: orphanComments, finalSection: orphanFinalSection))
        }
        orphanFinalSection = nil
        orphanComments = []
        orphanNotes = []
    }

    /// Resolves changes in a block array: paragraph content and styles, row changes, and merges.
    public func resolve(_ blocks: [Block]) -> [Block] {
        var r = self
        return r.rewriteBlocks(blocks)
    }

    /// Resolves changes in inline content.
    public func resolve(_ inlines: [Inline]) -> [Inline] {
        var r = self
        return r.rewriteInlines(inlines)
    }

    // MARK: Blocks

    /// Each block resolved; a paragraph whose break goes away joins the next.
    /// `notes` (the chunk's, decided) without those the decisions emptied whose reference went too (an inserted
    /// note rejected, a deleted one accepted): an empty note would be left where there was none.
    static func withoutEmptiedNotes(_ notes: [Note], before: [Note], block: Block) -> [Note] {
        func blank(_ blocks: [Block], _ view: ApplyPlan.View) -> Bool {
            ApplyPlan.viewTexts(of: Document(blocks: blocks), view: view).allSatisfy {
                $0.allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" }
            }
        }
        guard notes.contains(where: { blank($0.blocks, .accept) }) else { return notes }
        var referenced = Set<String>()
        func collect(_ b: Block) { b.forEachInline { if case .noteReference(let id) = $0 { referenced.insert(id) } } }
        collect(block)
        for n in notes { n.blocks.forEach(collect) }
        var hadText: [String: Bool] = [:]
        for n in before { hadText[n.id] = !blank(n.blocks, .accept) || !blank(n.blocks, .reject) }
        return notes.filter { !(blank($0.blocks, .accept) && hadText[$0.id] == true && !referenced.contains($0.id)) }
    }

    public mutating func rewriteBlocks(_ blocks: [Block]) -> [Block] {
        let (out, carry) = rewriteBlocksJoining(blocks)
        if let c = carry, let kept = closed(c) { return out + [kept] }
        return out
    }

    /// Each block resolved and joined as `rewriteBlocks` does, except the last block when its (last) paragraph's
    /// break goes away: that one is returned apart, mark and all, for what follows the sequence to join (the
    /// next list item, or the block after the list it ends).
    ///
    /// Word's paragraphs are flat, list items included (a list item is a paragraph with a list level): a
    /// paragraph whose break goes joins the next paragraph, whose properties (its list level) the joined one
    /// keeps, as the mark that stays is the next one's. So a paragraph whose break goes joins the first
    /// paragraph of a list after it (and becomes that item), a list item's last paragraph joins what follows
    /// the item (the next item, at whatever level, or the paragraph after the list), and an item left without
    /// its first paragraph (it joined the list nested in the item) is the previous item's continuation, so no
    /// empty item is left. Quotes and table cells stay containers: a break joins only inside them.
    private mutating func rewriteBlocksJoining(_ blocks: [Block]) -> (blocks: [Block], carry: Block?) {
        var out: [Block] = []
        var carry: Block?
        for b in blocks {
            guard var block = rewriteBlock(b) else { continue }
            if carry != nil && Self.isEmptyContainer(block) {
                out.append(block)
                continue
            }
            if var c = carry, let anchors = Self.onlyCommentAnchors(block) {
                if let (rest, last) = splitTrailing(c) {
                    if let rest { out.append(rest) }
                    c = last
                }
                carry = c.mapParagraphContent { $0 + anchors }
                continue
            }
            if let c = carry {
                carry = nil
                if let (rest, m) = join(c, into: block) {
                    if let rest { out.append(rest) }
                    block = m
                } else if let kept = closed(c) {
                    out.append(kept)
                }
            }
            if joinsNext(block) { carry = block } else { out.append(block) }
        }
        return (out, carry)
    }

    /// True when the block's break goes away: a paragraph's own, or a list's last paragraph's.
    private func joinsNext(_ block: Block) -> Bool {
        mergesWithNext(block) || splitTrailing(block) != nil
    }

    /// `carry` (which `joinsNext`) joined to `next`: what stays of a list it ended (nil: nothing, or `carry` is
    /// a paragraph), and `next` with the paragraph joined in. nil when `next` has no paragraph first.
    private func join(_ carry: Block, into next: Block) -> (rest: Block?, joined: Block)? {
        let split: (rest: Block?, last: Block)? = mergesWithNext(carry) ? (nil, carry) : splitTrailing(carry)
        guard let (rest, last) = split, let m = merge(last, into: next) else { return nil }
        return (rest, m)
    }

    /// A list (resolved) whose last paragraph's break goes away: the list without that paragraph (nil when
    /// nothing is left in it) and the paragraph. nil for other blocks.
    private func splitTrailing(_ block: Block) -> (rest: Block?, last: Block)? {
        guard case .list(var l) = block, let item = l.items.last, let (r, last) = splitTrailing(item) else { return nil }
        if r.isEmpty { l.items.removeLast() } else { l.items[l.items.count - 1] = r }
        return (l.items.isEmpty ? nil : .list(l), last)
    }

    /// The same for a list item's blocks: the blocks without the last paragraph, and that paragraph.
    private func splitTrailing(_ blocks: [Block]) -> (rest: [Block], last: Block)? {
        guard let tail = blocks.last else { return nil }
        if mergesWithNext(tail) { return (Array(blocks.dropLast()), tail) }
        guard let (r, last) = splitTrailing(tail) else { return nil }
        return (Array(blocks.dropLast()) + (r.map { [$0] } ?? []), last)
    }

    /// A block whose break goes away with nothing after it to join: kept where it is without the mark, its
    /// last paragraph removed instead when nothing is left in it (nil: the whole block goes).
    private func closed(_ block: Block) -> Block? {
        if mergesWithNext(block) { return Self.isEmptyParagraph(block) ? nil : clearMark(block) }
        guard case .list(var l) = block, let item = l.items.last else { return block }
        let r = closed(item)
        if r.isEmpty && !item.isEmpty { l.items.removeLast() } else { l.items[l.items.count - 1] = r }
        return l.items.isEmpty ? nil : .list(l)
    }

    /// A list item's blocks closed so (its last paragraph's mark cleared, or the paragraph removed when empty).
    private func closed(_ blocks: [Block]) -> [Block] {
        guard let tail = blocks.last else { return blocks }
        return Array(blocks.dropLast()) + (closed(tail).map { [$0] } ?? [])
    }

    /// A list's items resolved and joined by Word's flat rule (see `rewriteBlocksJoining`): an item's last
    /// paragraph whose break goes joins the next item's first paragraph (the item left empty goes); an item
    /// whose first paragraph joined the list nested in it continues the item before it. The last item's
    /// last paragraph is left with its mark for what follows the list (`splitTrailing`, `closed`).
    private mutating func rewriteItems(_ list: List) -> [[Block]] {
        var items: [[Block]] = []
        items.reserveCapacity(list.items.count)
        for item in list.items {
            let (out, carry) = rewriteBlocksJoining(item)
            var r = out + (carry.map { [$0] } ?? [])
            if r.isEmpty && !item.isEmpty { continue }
            if let prev = items.last, let (rest, last) = splitTrailing(prev), let head = r.first,
               let m = mergeIntoItem(last, head) {
                // The previous item's last paragraph joins this item's first.
                items.removeLast()
                if !rest.isEmpty { items.append(rest) }
                r[0] = m
            } else if let prev = items.last, splitTrailing(prev) != nil {
                // Nothing here takes it: it stays in its item, without the mark (or goes, if empty).
                let c = closed(prev)
                items.removeLast()
                if !c.isEmpty { items.append(c) }
            }
            if case .list(let nested)? = r.first, Self.startsWithParagraph(item), var prev = items.popLast() {
                // The item's first paragraph joined the list nested in it: what is left continues the item
                // before, as Word's paragraphs at the deeper level follow that item. (The previous item's list
                // is taken out before it grows, so a run of such items stays linear.)
                if Self.appendItems(of: nested, toListEnding: &prev) { r.removeFirst() }
                prev.append(contentsOf: r)
                items.append(prev)
                continue
            }
            items.append(r)
        }
        return items
    }

    /// Appends `nested`'s items to the list of its kind that ends `blocks`, if one does: taken out of the array
    /// first, so its items grow in place.
    private static func appendItems(of nested: List, toListEnding blocks: inout [Block]) -> Bool {
        guard case .list(var list)? = blocks.last, list.kind == nested.kind else { return false }
        blocks[blocks.count - 1] = .thematicBreak  // the array's reference to the list dropped
        list.items.append(contentsOf: nested.items)
        blocks[blocks.count - 1] = .list(list)
        return true
    }

    private static func startsWithParagraph(_ blocks: [Block]) -> Bool {
        switch blocks.first {
        case .paragraph?, .heading?: return true
        default: return false
        }
    }

    /// Decides a row's or cell's insertion or deletion: false when it goes (insertion rejected, deletion
    /// accepted), else true with the change cleared once decided.
    private func decideRowOrCell(_ change: inout RowChange?) -> Bool {
        switch change {
        case .inserted(let ch)?:
            switch decide(.table, ch) {
            case .reject: return false
            case .accept: change = nil
            case .keep: break
            }
        case .deleted(let ch)?:
            switch decide(.table, ch) {
            case .accept: return false
            case .reject: change = nil
            case .keep: break
            }
        case nil: break
        }
        return true
    }

    /// A row whose insertion is rejected or whose deletion is accepted goes; the others lose a decided change.
    /// Cells are decided alike (`w:cellIns`/`w:cellDel`).
    public mutating func rewriteRow(_ row: TableRow) -> TableRow? {
        var row = row
        guard decideRowOrCell(&row.change) else { return nil }
        // A cell inserted (deleted) with tracking goes when rejected (accepted); the cells after it move left.
        row.cells = row.cells.compactMap { cell -> TableCell? in
            var c = cell
            return decideRowOrCell(&c.change) ? c : nil
        }
        return descend(into: row)
    }

    public mutating func rewriteParagraph(_ paragraph: Paragraph) -> Paragraph {
        var p = descend(into: paragraph)
        switch p.markChange {
        case .inserted(let ch)?: if decide(.paragraph, ch) == .accept { p.markChange = nil }
        case .deleted(let ch)?: if decide(.paragraph, ch) == .reject { p.markChange = nil }
        case nil: break
        }
        if let sc = p.styleChange {
            switch decide(.paragraph, sc.change) {
            case .reject: p.style = sc.old; p.styleChange = nil
            case .accept: p.styleChange = nil
            case .keep: break
            }
        }
        if let s = p.sectionEnd, !s.headersFooters.isEmpty { p.sectionEnd = resolvingStories(s) }
        return p
    }

    /// `section` with the changes in its header and footer stories decided.
    private mutating func resolvingStories(_ section: Section) -> Section {
        var s = section
        for i in s.headersFooters.indices { s.headersFooters[i].blocks = rewriteBlocks(s.headersFooters[i].blocks) }
        return s
    }

    /// A quote, a list item, a list or a table that the decisions empty goes with its content, so no empty
    /// shell is left (a wholly inserted or deleted list item is its paragraphs with their text and marks changed, as
    /// Word writes one). Containers that were empty to begin with stay.
    public mutating func rewriteBlock(_ block: Block) -> Block? {
        switch block {
        case .blockQuote(let b):
            let r = rewriteBlocks(b)
            return r.isEmpty && !b.isEmpty ? nil : .blockQuote(r)
        case .list(var l):
            let items = rewriteItems(l)
            if items.isEmpty && !l.items.isEmpty { return nil }
            l.items = items
            return .list(l)
        case .table(let t):
            // A table whose every row goes goes too (as Word removes it), so the paragraphs around it can
            // join: a paragraph break inserted before an inserted table and paragraph is rejected with them.
            guard case .table(let r)? = descend(into: block) else { return nil }
            return r.rows.isEmpty && !t.rows.isEmpty ? nil : .table(r)
        case .paragraph(let original) where original.codeInfo != nil:
            // A comparison's code-style paragraph (`Paragraph.codeInfo`) left with plain lines and no mark is
            // the code block it stands for again, with its info string (the language NEW or OLD gave it).
            let r = descend(into: block)
            if case .paragraph(let p)? = r, p.sectionEnd == nil, let code = BlockStyleRole.codeBlock(p) { return .codeBlock(code) }
            return r
        default:
            return descend(into: block)
        }
    }

    private func mergesWithNext(_ block: Block) -> Bool {
        switch block.paragraph?.markChange {
        case .deleted(let ch)?: return decide(.paragraph, ch) == .accept
        case .inserted(let ch)?: return decide(.paragraph, ch) == .reject
        case nil: return false
        }
    }

    /// `first` (whose break goes away) joined with `next`; nil when `next` is not a paragraph.
    /// The joined paragraph keeps the kind, style and mark of `next`, as the surviving mark is next's; a
    /// section `first` ended is kept on it unless `next` ends one of its own (so no section is lost).
    private func merge(_ first: Block, into next: Block) -> Block? {
        guard let a = first.paragraph else { return nil }
        switch next {
        case .paragraph(var b):
            b.content = InlineBuilder.normalized(a.content + b.content)
            if b.sectionEnd == nil { b.sectionEnd = a.sectionEnd }
            return .paragraph(b)
        case .heading(let l, var b):
            b.content = InlineBuilder.normalized(a.content + b.content)
            if b.sectionEnd == nil { b.sectionEnd = a.sectionEnd }
            return .heading(level: l, b)
        case .list(var l):
            // The list's first paragraph (its first item's, at whatever level) takes it.
            guard var item = l.items.first, let head = item.first, let m = mergeIntoItem(first, head) else { return nil }
            item[0] = m
            l.items[0] = item
            return .list(l)
        default:
            return nil
        }
    }

    /// `merge` into a list item's first block, which takes the paragraph only when it is a plain paragraph (or
    /// a list whose first item's is): a heading cannot be a numbered paragraph (DOCX and RTF write an item
    /// that starts with one as an empty numbered paragraph before it), nor can other blocks.
    private func mergeIntoItem(_ first: Block, _ head: Block) -> Block? {
        switch head {
        case .paragraph, .list: return merge(first, into: head)
        default: return nil
        }
    }

    /// An empty paragraph that ends no section (one that ends a section stays, holding the break).
    private static func isEmptyParagraph(_ block: Block) -> Bool {
        guard let p = block.paragraph else { return false }
        return p.content.isEmpty && p.sectionEnd == nil
    }

    /// The comment anchors of a quote or list that holds nothing else, in reading order; nil for other blocks.
    /// Formatting or a link around nothing but anchors is nothing else: what a rejected insertion leaves of
    /// bold text holding a comment (`**{>>…<<}**`). Every paragraph must hold an anchor: a list of empty items
    /// (which stays when review empties nothing in it) is not joined away.
    private static func onlyCommentAnchors(_ block: Block) -> [Inline]? {
        switch block {
        case .blockQuote, .list: break
        default: return nil
        }
        var anchors: [Inline] = []
        func collectInlines(_ inlines: [Inline]) -> Bool {
            for i in inlines {
                switch i {
                case .commentStart, .commentEnd, .commentPoint: anchors.append(i)
                case .text, .code, .image, .lineBreak, .softBreak, .raw, .noteReference: return false
                default: if !collectInlines(i.children) { return false }
                }
            }
            return true
        }
        func collect(_ b: Block) -> Bool {
            // A paragraph holds some anchor: an empty one (an empty list item's) is not only anchors.
            if case .paragraph(let p) = b {
                let before = anchors.count
                return collectInlines(p.content) && anchors.count > before
            }
            switch b {
            case .blockQuote, .list: return b.childBlocks.allSatisfy(collect)
            default: return false
            }
        }
        return !block.childBlocks.isEmpty && collect(block) ? anchors : nil
    }

    /// A quote, list or table with nothing in it, which a paragraph joining the next one passes.
    private static func isEmptyContainer(_ block: Block) -> Bool {
        switch block {
        case .blockQuote(let b): return b.isEmpty
        case .list(let l): return l.items.allSatisfy(\.isEmpty)
        case .table(let t): return t.rows.isEmpty
        default: return false
        }
    }

    private func clearMark(_ block: Block) -> Block {
        switch block {
        case .paragraph(var p): p.markChange = nil; return .paragraph(p)
        case .heading(let l, var p): p.markChange = nil; return .heading(level: l, p)
        default: return block
        }
    }

    /// A paragraph whose break goes away with no paragraph after it to join: kept without the mark, or
    /// removed when nothing is left in it (as Word removes a deleted paragraph before a table or at the end).
    private func keepAlone(_ chunk: Chunk) -> Chunk? {
        guard let block = closed(chunk.block) else { return nil }
        var c = chunk
        c.block = block
        return c
    }

    // MARK: Inlines

    public mutating func rewriteInlines(_ inlines: [Inline]) -> [Inline] {
        InlineBuilder.normalized(descend(into: inlines))
    }

    /// A decided change is replaced by its content (kept text) or by the comment anchors in it (removed
    /// text); a kept one keeps its mark.
    public mutating func rewriteInline(_ inline: Inline) -> [Inline] {
        switch inline {
        case .insertion(let ch, let c):
            switch decide(.insertion, ch) {
            case .accept: return rewriteInlines(c)
            case .reject: return anchors(in: c)
            case .keep: return [.insertion(ch, rewriteInlines(c))]
            }
        case .deletion(let ch, let c):
            switch decide(.deletion, ch) {
            case .accept: return anchors(in: c)
            case .reject: return rewriteInlines(c)
            case .keep: return [.deletion(ch, rewriteInlines(c))]
            }
        case .substitution(let ch, let d, let i):
            let dd = decide(.deletion, ch), di = decide(.insertion, ch)
            if dd == .keep && di == .keep { return [.substitution(ch, deleted: rewriteInlines(d), inserted: rewriteInlines(i))] }
            var out: [Inline] = []
            switch dd {
            case .accept: out += anchors(in: d)
            case .reject: out += rewriteInlines(d)
            case .keep: out.append(.deletion(ch, rewriteInlines(d)))
            }
            switch di {
            case .accept: out += rewriteInlines(i)
            case .reject: out += anchors(in: i)
            case .keep: out.append(.insertion(ch, rewriteInlines(i)))
            }
            return out
        case .move(let m, let c):
            switch decide(.move, m.change) {
            case .keep: return [.move(m, rewriteInlines(c))]
            case let d: return (m.side == .to) == (d == .accept) ? rewriteInlines(c) : anchors(in: c)
            }
        case .formatChange(let f, let c):
            switch decide(.formatting, f.change) {
            case .accept: return rewriteInlines(c)
            case .keep: return [.formatChange(f, rewriteInlines(c))]
            case .reject:
                let runs = rewriteInlines(c).runs.map { r -> Run in var r = r; r.format = f.old; return r }
                return InlineBuilder.inlines(from: runs)
            }
        default:
            return [descend(into: inline)]
        }
    }

    /// The comment anchors inside removed content, so their comments keep a place.
    private func anchors(in inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        for i in inlines {
            switch i {
            case .commentStart, .commentEnd, .commentPoint: out.append(i)
            default: out += anchors(in: i.children)
            }
        }
        return out
    }
}

/// Removes comments: every comment, or those `review` does not keep (with their replies). Their anchors
/// go from the text and their bodies from the side table. A paragraph that held nothing but removed
/// comment anchors goes too (top level and nested), unless it or the paragraph before it carries a
/// paragraph mark change (removing it would change what that mark joins).
public struct DropComments: ChunkStage {
    /// The last top-level block was a paragraph or heading with a mark change.
    private var previousHadMark = false
    /// nil: every comment goes; else the comments `keeps` returns false for.
    private let review: ReviewOptions?
    /// Ids of removed comments seen so far (their anchors may come in later chunks).
    private var dropped: Set<String> = []

    /// Removes every comment.
    public init() { review = nil }

    /// Removes the comments `review` does not keep (policy, drop filters, `kind=comment` filters).
    public init(_ review: ReviewOptions) { self.review = review }

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        guard let review else { try emitStripped(chunk, AnchorStripper(removed: nil), emit: emit); return }
        var c = chunk
        var kept: [Comment] = []
        for comment in c.comments {
            if let parent = comment.parentID, dropped.contains(parent) { dropped.insert(comment.id); continue }
            if review.keeps(comment) { kept.append(comment) } else { dropped.insert(comment.id) }
        }
        c.comments = kept
        try emitStripped(c, AnchorStripper(removed: dropped), emit: emit)
    }

    private mutating func emitStripped(_ chunk: Chunk, _ stripper: AnchorStripper, emit: (Chunk) throws -> Void) throws {
        var stripper = stripper
        var c = chunk
        if review == nil { c.comments = [] }
        let stripped = stripper.rewriteBlock(c.block) ?? c.block
        c.notes = c.notes.map { var n = $0; n.blocks = stripper.rewriteBlocks(n.blocks); return n }
        let emptied = AnchorStripper.becameEmpty(c.block, stripped, afterMark: previousHadMark)
        previousHadMark = stripped.paragraph?.markChange != nil
        if emptied && c.notes.isEmpty { return }
        c.block = stripped
        try emit(c)
    }
}

/// Removes the anchors of removed comments (all, or those in `removed`) from blocks and inlines, and the
/// paragraphs that held nothing else (not after a paragraph mark change, nor with one).
struct AnchorStripper: ModelRewriter {
    /// nil: every comment anchor goes.
    let removed: Set<String>?

    func removes(_ id: String) -> Bool { removed?.contains(id) ?? true }

    /// Stripped blocks, without the paragraphs that held only removed comment anchors.
    mutating func rewriteBlocks(_ blocks: [Block]) -> [Block] {
        var out: [Block] = []
        var afterMark = false
        for b in blocks {
            let s = rewriteBlock(b) ?? b
            if !Self.becameEmpty(b, s, afterMark: afterMark) { out.append(s) }
            afterMark = s.paragraph?.markChange != nil
        }
        return out
    }

    mutating func rewriteInlines(_ inlines: [Inline]) -> [Inline] {
        InlineBuilder.normalized(descend(into: inlines))
    }

    mutating func rewriteInline(_ inline: Inline) -> [Inline] {
        switch inline {
        case .commentStart(let id), .commentEnd(let id), .commentPoint(let id): return removes(id) ? [] : [inline]
        default: return [descend(into: inline)]
        }
    }

    /// True for a plain paragraph that had content and has none left without its comment anchors.
    static func becameEmpty(_ original: Block, _ stripped: Block, afterMark: Bool) -> Bool {
        guard case .paragraph(let before) = original, case .paragraph(let after) = stripped else { return false }
        return !before.content.isEmpty && after.content.isEmpty && after.markChange == nil && after.styleChange == nil && !afterMark
    }
}

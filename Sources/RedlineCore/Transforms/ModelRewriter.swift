/// Rewrites the model, in the spirit of swift-markdown's `MarkupRewriter`: every method has a default
/// that rewrites the children through the other methods (blocks, table rows, paragraphs, inlines, notes
/// and comment bodies), so a rewriter overrides only what it changes. A block, row, note, comment or chunk
/// rewritten to nil is deleted; an inline is rewritten to the inlines that replace it (none deletes it,
/// several splice them in).
///
/// A default can be called from an override as `descend(into:)`, the way a subclass calls `super`.
/// (Its counterpart that only reads the model: `ModelVisitor`.)
public protocol ModelRewriter {
    /// A chunk: by default its comments, notes and block (a block rewritten to nil deletes the chunk).
    mutating func rewriteChunk(_ chunk: Chunk) -> Chunk?
    /// A comment: by default its body.
    mutating func rewriteComment(_ comment: Comment) -> Comment?
    /// A note: by default its blocks.
    mutating func rewriteNote(_ note: Note) -> Note?
    /// A sequence of blocks (a document's, a quote's, a list item's, a cell's, a note's, a comment's):
    /// by default each block through `rewriteBlock`, the deleted ones left out.
    mutating func rewriteBlocks(_ blocks: [Block]) -> [Block]
    /// A block: by default its children (paragraph content, quote, list items, table rows).
    mutating func rewriteBlock(_ block: Block) -> Block?
    /// A table row: by default the blocks of its cells.
    mutating func rewriteRow(_ row: TableRow) -> TableRow?
    /// A paragraph or heading's paragraph: by default its content.
    mutating func rewriteParagraph(_ paragraph: Paragraph) -> Paragraph
    /// A sequence of inlines: by default each through `rewriteInline`, spliced.
    mutating func rewriteInlines(_ inlines: [Inline]) -> [Inline]
    /// One inline: the inlines replacing it; by default itself with its children rewritten.
    mutating func rewriteInline(_ inline: Inline) -> [Inline]
}

extension ModelRewriter {
    /// By default: `descend(into:)` the chunk.
    public mutating func rewriteChunk(_ chunk: Chunk) -> Chunk? { descend(into: chunk) }
    /// By default: `descend(into:)` the comment.
    public mutating func rewriteComment(_ comment: Comment) -> Comment? { descend(into: comment) }
    /// By default: `descend(into:)` the note.
    public mutating func rewriteNote(_ note: Note) -> Note? { descend(into: note) }
    /// By default: `descend(into:)` the blocks.
    public mutating func rewriteBlocks(_ blocks: [Block]) -> [Block] { descend(into: blocks) }
    /// By default: `descend(into:)` the block.
    public mutating func rewriteBlock(_ block: Block) -> Block? { descend(into: block) }
    /// By default: `descend(into:)` the row.
    public mutating func rewriteRow(_ row: TableRow) -> TableRow? { descend(into: row) }
    /// By default: `descend(into:)` the paragraph.
    public mutating func rewriteParagraph(_ paragraph: Paragraph) -> Paragraph { descend(into: paragraph) }
    /// By default: `descend(into:)` the inlines.
    public mutating func rewriteInlines(_ inlines: [Inline]) -> [Inline] { descend(into: inlines) }
    /// By default: the inline alone, its children rewritten (`descend(into:)`).
    public mutating func rewriteInline(_ inline: Inline) -> [Inline] { [descend(into: inline)] }

    /// The chunk with its comments, notes and block rewritten (comments first, as a writer meets them).
    public mutating func descend(into chunk: Chunk) -> Chunk? {
        var c = chunk
        c.comments = c.comments.compactMap { rewriteComment($0) }
        c.notes = c.notes.compactMap { rewriteNote($0) }
        guard let block = rewriteBlock(c.block) else { return nil }
        c.block = block
        return c
    }

    /// The comment with its body rewritten.
    public mutating func descend(into comment: Comment) -> Comment? {
        var c = comment
        c.body = rewriteBlocks(c.body)
        return c
    }

    /// The note with its blocks rewritten.
    public mutating func descend(into note: Note) -> Note? {
        var n = note
        n.blocks = rewriteBlocks(n.blocks)
        return n
    }

    /// Each block rewritten, the deleted ones left out.
    public mutating func descend(into blocks: [Block]) -> [Block] {
        var out: [Block] = []
        out.reserveCapacity(blocks.count)
        for b in blocks { if let r = rewriteBlock(b) { out.append(r) } }
        return out
    }

    /// The block with its children rewritten. A table keeps as header rows the header rows not deleted.
    public mutating func descend(into block: Block) -> Block? {
        switch block {
        case .paragraph(let p): return .paragraph(rewriteParagraph(p))
        case .heading(let l, let p): return .heading(level: l, rewriteParagraph(p))
        case .blockQuote(let b): return .blockQuote(rewriteBlocks(b))
        case .list(var l):
            for i in l.items.indices { l.items[i] = rewriteBlocks(l.items[i]) }
            return .list(l)
        case .table(var t):
            var rows: [TableRow] = []
            var headers = 0
            for (i, row) in t.rows.enumerated() {
                guard let r = rewriteRow(row) else { continue }
                if i < t.headerRowCount { headers += 1 }
                rows.append(r)
            }
            t.rows = rows
            t.headerRowCount = headers
            return .table(t)
        case .codeBlock, .thematicBreak, .raw: return block
        }
    }

    /// The row with the blocks of its cells rewritten.
    public mutating func descend(into row: TableRow) -> TableRow? {
        var r = row
        for i in r.cells.indices { r.cells[i].blocks = rewriteBlocks(r.cells[i].blocks) }
        return r
    }

    /// The paragraph with its content rewritten.
    public mutating func descend(into paragraph: Paragraph) -> Paragraph {
        var p = paragraph
        p.content = rewriteInlines(p.content)
        return p
    }

    /// Each inline rewritten and spliced in.
    public mutating func descend(into inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        out.reserveCapacity(inlines.count)
        for i in inlines { out += rewriteInline(i) }
        return out
    }

    /// The inline with its children rewritten (leaves unchanged).
    public mutating func descend(into inline: Inline) -> Inline {
        inline.mapChildren { rewriteInlines($0) }
    }
}

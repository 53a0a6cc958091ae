/// Walks the model, in the spirit of swift-markdown's `MarkupWalker`: every method has a default that
/// visits the children through the other methods (blocks, table rows, paragraphs, inlines, notes and
/// comment bodies), in reading order, so a visitor overrides only what it looks at. An override calls
/// `descend(into:)` to go on into the children. (Its counterpart that rebuilds the model: `ModelRewriter`.)
public protocol ModelVisitor {
    /// A chunk: by default its block, then its notes, then its comments.
    mutating func visitChunk(_ chunk: Chunk)
    /// A comment: by default the blocks of its body.
    mutating func visitComment(_ comment: Comment)
    /// A note: by default its blocks.
    mutating func visitNote(_ note: Note)
    /// A block: by default its children (a paragraph, a quote's blocks, list items' blocks, table rows).
    mutating func visitBlock(_ block: Block)
    /// A table row: by default the blocks of its cells.
    mutating func visitRow(_ row: TableRow)
    /// A paragraph or heading's paragraph: by default each inline of its content.
    mutating func visitParagraph(_ paragraph: Paragraph)
    /// One inline: by default its children.
    mutating func visitInline(_ inline: Inline)
}

extension ModelVisitor {
    /// By default: `descend(into:)` the chunk.
    public mutating func visitChunk(_ chunk: Chunk) { descend(into: chunk) }
    /// By default: `descend(into:)` the comment.
    public mutating func visitComment(_ comment: Comment) { descend(into: comment) }
    /// By default: `descend(into:)` the note.
    public mutating func visitNote(_ note: Note) { descend(into: note) }
    /// By default: `descend(into:)` the block.
    public mutating func visitBlock(_ block: Block) { descend(into: block) }
    /// By default: `descend(into:)` the row.
    public mutating func visitRow(_ row: TableRow) { descend(into: row) }
    /// By default: `descend(into:)` the paragraph.
    public mutating func visitParagraph(_ paragraph: Paragraph) { descend(into: paragraph) }
    /// By default: `descend(into:)` the inline.
    public mutating func visitInline(_ inline: Inline) { descend(into: inline) }

    /// Visits the chunk's block, then its notes, then its comments.
    public mutating func descend(into chunk: Chunk) {
        visitBlock(chunk.block)
        for n in chunk.notes { visitNote(n) }
        for c in chunk.comments { visitComment(c) }
    }

    /// Visits the blocks of the comment's body.
    public mutating func descend(into comment: Comment) { for b in comment.body { visitBlock(b) } }
    /// Visits the note's blocks.
    public mutating func descend(into note: Note) { for b in note.blocks { visitBlock(b) } }

    /// Visits the block's children: a paragraph or heading's paragraph, a quote's blocks, each list item's
    /// blocks, the table's rows (leaves have none).
    public mutating func descend(into block: Block) {
        switch block {
        case .paragraph(let p), .heading(_, let p): visitParagraph(p)
        case .blockQuote(let b): for x in b { visitBlock(x) }
        case .list(let l): for item in l.items { for x in item { visitBlock(x) } }
        case .table(let t): for r in t.rows { visitRow(r) }
        case .codeBlock, .thematicBreak, .raw: break
        }
    }

    /// Visits the blocks of the row's cells, in order.
    public mutating func descend(into row: TableRow) {
        for c in row.cells { for b in c.blocks { visitBlock(b) } }
    }

    /// Visits each inline of the paragraph's content.
    public mutating func descend(into paragraph: Paragraph) {
        for i in paragraph.content { visitInline(i) }
    }

    /// Visits the children (for a substitution, the deleted then the inserted inlines).
    public mutating func descend(into inline: Inline) {
        switch inline {
        case .substitution(_, let d, let i):
            for x in d { visitInline(x) }
            for x in i { visitInline(x) }
        default:
            for x in inline.children { visitInline(x) }
        }
    }
}

extension Document {
    /// The tracked changes in the document: marks in the text (a substitution is one), paragraph mark and style
    /// changes, row changes, at any depth (in the body, notes, comments, headers and footers).
    public var trackedChangeCount: Int {
        var counter = TrackedChangeCounter()
        for b in blocks { counter.visitBlock(b) }
        for note in notes { counter.visitNote(note) }
        for c in comments { counter.visitComment(c) }
        for section in sections {
            for story in section.headersFooters { for b in story.blocks { counter.visitBlock(b) } }
        }
        return counter.count
    }
}

/// Counts what `Document.trackedChangeCount` counts. The visitor's defaults take it through every block, row,
/// paragraph and inline.
private struct TrackedChangeCounter: ModelVisitor {
    var count = 0

    mutating func visitParagraph(_ paragraph: Paragraph) {
        if paragraph.markChange != nil { count += 1 }
        if paragraph.styleChange != nil { count += 1 }
        descend(into: paragraph)
    }

    mutating func visitRow(_ row: TableRow) {
        if row.change != nil { count += 1 }
        descend(into: row)
    }

    mutating func visitInline(_ inline: Inline) {
        switch inline {
        // Most of a document: leaves, with nothing inside to visit.
        case .text, .code, .lineBreak, .softBreak: return
        case .insertion, .deletion, .substitution, .move, .formatChange: count += 1
        default: break
        }
        descend(into: inline)
    }
}

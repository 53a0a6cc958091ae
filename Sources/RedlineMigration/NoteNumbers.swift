import RedlineCore
import RedlineConversion
import RedlineBatch

/// Renames footnotes 1, 2, 3... in reading order. Scrivener's ids are UUIDs, which Markdown would show as
/// footnote labels; the single layout numbers across the whole manuscript, the tree layout per file.
struct NoteNumbers {
    private var next = 1

    /// `document` with every note and note reference renamed to the next numbers.
    mutating func renumber(_ document: Document) -> Document {
        guard !document.notes.isEmpty else { return document }
        var names: [String: String] = [:]
        for n in document.notes where names[n.id] == nil {
            names[n.id] = String(next)
            next += 1
        }
        var doc = document
        func inline(_ i: Inline) -> Inline {
            if case .noteReference(let id) = i { return .noteReference(names[id] ?? id) }
            return i.mapChildren { $0.map(inline) }
        }
        func block(_ b: Block) -> Block {
            switch b {
            case .paragraph(var p): p.content = p.content.map(inline); return .paragraph(p)
            case .heading(let l, var p): p.content = p.content.map(inline); return .heading(level: l, p)
            default: return b.mapBlockArrays { $0.map(block) }
            }
        }
        doc.blocks = doc.blocks.map(block)
        doc.notes = doc.notes.map { n in
            var n = n
            n.id = names[n.id] ?? n.id
            n.blocks = n.blocks.map(block)
            return n
        }
        doc.comments = doc.comments.map { c in
            var c = c
            c.body = c.body.map(block)
            return c
        }
        return doc
    }
}

import RedlineCore

/// Gives the two paragraph changes LibreOffice draws nothing for a visible mark in the document it
/// renders to PDF: a pilcrow at the end of the paragraph, tracked by the change's author (so it takes
/// that author's colour) — inserted for an inserted paragraph break, deleted (struck through) for a
/// deleted one, and a formatting change (bold) for a paragraph-format change. Only the PDF writer's
/// render-only DOCX goes through it, never DOCX output.
public struct ParagraphChangeMarks: ChunkStage {
    public init() {}

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        var c = chunk
        c.block = Self.mark(c.block)
        try emit(c)
    }

    public mutating func finish(emit: (Chunk) throws -> Void) throws {}

    static func mark(_ block: Block) -> Block {
        switch block {
        case .paragraph(let p): return .paragraph(mark(p))
        case .heading(let level, let p): return .heading(level: level, mark(p))
        default: return block.mapBlockArrays { $0.map { mark($0) } }
        }
    }

    /// `paragraph` with its marks appended.
    public static func mark(_ paragraph: Paragraph) -> Paragraph {
        var p = paragraph
        if let sc = p.styleChange { p.content.append(.formatChange(FormatChange(change: sc.change, old: TextFormat()), [.text("¶")])) }
        switch p.markChange {
        case .inserted(let c)?: p.content.append(.insertion(c, [.text("¶")]))
        case .deleted(let c)?: p.content.append(.deletion(c, [.text("¶")]))
        case nil: break
        }
        return p
    }
}

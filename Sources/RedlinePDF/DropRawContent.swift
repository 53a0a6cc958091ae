import RedlineCore

/// Removes raw content (HTML blocks and inline HTML a Markdown source carries) from the page Chromium
/// prints: the browser would run its scripts and load what it names, from the network or from local
/// files, into the PDF. LibreOffice's route drops it too (the DOCX writer cannot carry it, `docx.raw-dropped`).
public struct DropRawContent: ChunkStage {
    public init() {}

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        var c = chunk
        c.block = Self.strip(c.block)
        for i in c.comments.indices { c.comments[i].body = c.comments[i].body.map(Self.strip) }
        for i in c.notes.indices { c.notes[i].blocks = c.notes[i].blocks.map(Self.strip) }
        try emit(c)
    }

    public mutating func finish(emit: (Chunk) throws -> Void) throws {}

    /// `block` without raw content (a raw block becomes an empty one).
    public static func strip(_ block: Block) -> Block {
        switch block {
        case .paragraph(var p):
            p.content = strip(p.content)
            return .paragraph(p)
        case .heading(let level, var p):
            p.content = strip(p.content)
            return .heading(level: level, p)
        case .raw(let format, _): return .raw(format: format, text: "")
        default: return block.mapBlockArrays { $0.map(strip) }
        }
    }

    static func strip(_ inlines: [Inline]) -> [Inline] {
        inlines.compactMap { inline in
            if case .raw = inline { return nil }
            return inline.mapChildren { strip($0) }
        }
    }
}

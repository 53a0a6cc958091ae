import RedlineCore

/// Turns the body's blocks into chunks as they are read: lists are nested, comment threads and notes are
/// attached by `ChunkAttacher` (each with the first block that references it), and whatever is referenced
/// nowhere travels with the last block (which is why one chunk is held back).
final class DOCXBodyStream {
    private let parser: StoryParser
    private var lists: ListBuilder
    private var ready: [Block] = []
    private var readyIndex = 0
    private var held: Chunk?
    private var ended = false
    private var done = false

    /// The comments and notes of the side parts, waiting for the block that references them.
    private var attacher: ChunkAttacher

    init(parser: StoryParser, comments: [Comment], notes: [Note]) {
        self.parser = parser
        self.lists = ListBuilder(numbering: parser.context.numbering)
        self.attacher = ChunkAttacher(comments: comments, notes: notes)
    }

    func next() throws -> Chunk? {
        while !done {
            if readyIndex < ready.count {
                let chunk = attacher.chunk(for: ready[readyIndex])
                readyIndex += 1
                if readyIndex == ready.count { ready.removeAll(keepingCapacity: true); readyIndex = 0 }
                if let h = held {
                    held = chunk
                    return h
                }
                held = chunk
                continue
            }
            if ended {
                done = true
                return finalChunk()
            }
            if let parsed = try parser.nextBodyBlocks() {
                for p in parsed { ready += lists.add(p) }
            } else {
                ended = true
                ready += lists.finish()
                if !parser.progress.pendingAtoms.isEmpty {
                    if ready.isEmpty, var h = held {
                        h.block = StoryParser.appendingAtoms(&parser.progress.pendingAtoms, to: [h.block])[0]
                        held = h
                        ready = []
                    } else {
                        ready = StoryParser.appendingAtoms(&parser.progress.pendingAtoms, to: ready)
                    }
                }
            }
        }
        return nil
    }

    /// The held chunk with every comment and note nobody referenced.
    private func finalChunk() -> Chunk? {
        let left = attacher.takeUnreferenced()
        if held == nil && left.comments.isEmpty && left.notes.isEmpty { return nil }
        var chunk = held ?? Chunk(.paragraph(Paragraph([])))
        held = nil
        chunk.comments += left.comments
        chunk.notes += left.notes
        return chunk
    }
}

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

    /// The notes, and the comments read so far, waiting for the block that references them.
    private var attacher: ChunkAttacher
    /// The comments part, read as the body's anchors need its comments.
    private let comments: DOCXCommentStream?

    /// With `commentsWhole`, every comment is read first (the same chunks; tests compare the two ways).
    init(parser: StoryParser, comments: DOCXCommentStream?, notes: [Note], commentsWhole: Bool = false) throws {
        self.parser = parser
        self.lists = ListBuilder(numbering: parser.context.numbering)
        self.attacher = ChunkAttacher(comments: commentsWhole ? try comments?.rest() ?? [] : [], notes: notes)
        self.comments = comments
    }

    /// How many comments have been parsed so far (tests check they are read as their anchors come).
    var commentsRead: Int { comments?.parsed ?? 0 }

    func next() throws -> Chunk? {
        while !done {
            if readyIndex < ready.count {
                var chunk = Chunk(ready[readyIndex])
                let comments = self.comments
                try attacher.attach(to: &chunk) { id in try comments?.through(thread: id) ?? [] }
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
                return try finalChunk()
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
    private func finalChunk() throws -> Chunk? {
        for c in try comments?.rest() ?? [] { attacher.add(c) }
        let left = attacher.takeUnreferenced()
        let finalSection = parser.progress.finalSection
        if held == nil && left.comments.isEmpty && left.notes.isEmpty && finalSection == nil { return nil }
        var chunk = held ?? Chunk(.paragraph(Paragraph([])))
        held = nil
        chunk.comments += left.comments
        chunk.notes += left.notes
        chunk.finalSection = finalSection
        return chunk
    }
}

import RedlineCore

/// Turns the body's blocks into chunks as they are read: lists are nested, each comment thread and
/// note travels with the first block that references it, and whatever is referenced nowhere travels
/// with the last block (which is why one chunk is held back).
final class DOCXBodyStream {
    private let parser: StoryParser
    private var lists: ListBuilder
    private var ready: [Block] = []
    private var readyIndex = 0
    private var held: Chunk?
    private var ended = false
    private var done = false

    /// Comment threads by root id (root first, then replies in file order), in file order of roots.
    private var threads: [String: [Comment]] = [:]
    private var threadOrder: [String] = []
    private var notes: [String: Note]
    private var noteOrder: [String]

    init(parser: StoryParser, comments: [Comment], notes: [Note]) {
        self.parser = parser
        self.lists = ListBuilder(numbering: parser.context.numbering)
        for c in comments {
            let root = c.parentID ?? c.id
            if threads[root] == nil { threadOrder.append(root) }
            if c.parentID == nil {
                threads[root, default: []].insert(c, at: 0)
            } else {
                threads[root, default: []].append(c)
            }
        }
        self.notes = Dictionary(notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        self.noteOrder = notes.map(\.id)
    }

    func next() throws -> Chunk? {
        while !done {
            if readyIndex < ready.count {
                let chunk = makeChunk(ready[readyIndex])
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
        let leftComments = threadOrder.compactMap { threads.removeValue(forKey: $0) }.flatMap { $0 }
        let leftNotes = noteOrder.compactMap { notes.removeValue(forKey: $0) }
        if held == nil && leftComments.isEmpty && leftNotes.isEmpty { return nil }
        var chunk = held ?? Chunk(.paragraph(Paragraph([])))
        held = nil
        chunk.comments += leftComments
        chunk.notes += leftNotes
        return chunk
    }

    /// A chunk for `block` with the comment threads and notes it references first.
    private func makeChunk(_ block: Block) -> Chunk {
        var chunk = Chunk(block)
        func visit(_ inline: Inline) {
            switch inline {
            case .commentStart(let id), .commentEnd(let id), .commentPoint(let id):
                if let thread = threads.removeValue(forKey: id) { chunk.comments += thread }
            case .noteReference(let id):
                if let note = notes.removeValue(forKey: id) {
                    chunk.notes.append(note)
                    for b in note.blocks { b.forEachInline(visit) }
                }
            default: break
            }
        }
        block.forEachInline(visit)
        return chunk
    }
}

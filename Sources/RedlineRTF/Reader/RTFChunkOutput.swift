import RedlineCore

/// The reader's output queue: finished top-level blocks become chunks carrying the comments and notes they
/// anchor. A chunk waits while an annotation range is open (its comment comes later in the input).
struct RTFChunkOutput {
    /// Chunks ready to hand out, from `position` on.
    var chunks: [Chunk] = []
    var position = 0
    /// Chunks held back while `openRanges` is not empty.
    var held: [Chunk] = []
    /// Comments and notes read but not yet attached to a chunk.
    var pendingComments: [Comment] = []
    var pendingNotes: [Note] = []
    /// Annotation ranges started (`\atrfstart`) whose annotation has not been read yet.
    var openRanges = Set<String>()

    /// Emits a finished top-level block with the comments and notes it references (others wait for their block).
    mutating func emit(_ block: Block) {
        var c = Chunk(block)
        if !pendingComments.isEmpty || !pendingNotes.isEmpty {
            var anchors = Set<String>()
            var references = Set<String>()
            block.forEachInline { i in
                switch i {
                case .commentStart(let id), .commentEnd(let id), .commentPoint(let id): anchors.insert(id)
                case .noteReference(let id): references.insert(id)
                default: break
                }
            }
            let here = pendingComments.filter { anchors.contains($0.parentID ?? $0.id) }
            pendingComments.removeAll { anchors.contains($0.parentID ?? $0.id) }
            c.comments = Self.inAnchorOrder(here, block)
            c.notes = pendingNotes.filter { references.contains($0.id) }
            pendingNotes.removeAll { references.contains($0.id) }
        }
        if openRanges.isEmpty {
            chunks.append(c)
        } else {
            held.append(c)
        }
    }

    /// A finished comment: into the held chunk that holds its anchor, or with the next chunk.
    mutating func deliver(_ comment: Comment) {
        if let i = held.firstIndex(where: { chunk in Self.chunkMentions(chunk, comment.parentID ?? comment.id) }) {
            held[i].comments.append(comment)
        } else {
            pendingComments.append(comment)
        }
        openRanges.remove(comment.id)
        releaseHeldIfPossible()
    }

    /// An annotation range that never got its annotation: an empty comment by its anchor.
    mutating func attachEmptyComment(_ id: String) {
        let c = Comment(id: id, body: [])
        if let i = held.firstIndex(where: { Self.chunkMentions($0, id) }) { held[i].comments.append(c) } else { pendingComments.append(c) }
    }

    /// The end of the input: held chunks go out; comments and notes still waiting go with the last chunk
    /// (or an empty paragraph when none is left to hand out).
    mutating func finish() {
        releaseHeldIfPossible()
        if !pendingComments.isEmpty || !pendingNotes.isEmpty {
            if chunks.isEmpty || position >= chunks.count {
                chunks.append(Chunk(.paragraph(Paragraph([])), comments: pendingComments, notes: pendingNotes))
            } else {
                chunks[chunks.count - 1].comments += pendingComments
                chunks[chunks.count - 1].notes += pendingNotes
            }
            pendingComments.removeAll()
            pendingNotes.removeAll()
        }
    }

    /// Comments in the reading order of their anchors in `block`, each reply right after its parent.
    static func inAnchorOrder(_ comments: [Comment], _ block: Block) -> [Comment] {
        guard comments.count > 1 else { return comments }
        var position: [String: Int] = [:]
        block.forEachInline { i in
            switch i {
            case .commentStart(let id), .commentPoint(let id): if position[id] == nil { position[id] = position.count }
            default: break
            }
        }
        let keyed = comments.enumerated().map { (n, c) -> (Int, Int, Int, Comment) in
            (position[c.parentID ?? c.id] ?? Int.max, c.parentID == nil ? 0 : 1, n, c)
        }
        return keyed.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.3)
    }

    private mutating func releaseHeldIfPossible() {
        guard openRanges.isEmpty, !held.isEmpty else { return }
        for i in held.indices { held[i].comments = Self.inAnchorOrder(held[i].comments, held[i].block) }
        chunks += held
        held.removeAll()
    }

    private static func chunkMentions(_ c: Chunk, _ id: String) -> Bool {
        var found = false
        c.block.forEachInline { i in
            switch i {
            case .commentStart(let x), .commentPoint(let x), .commentEnd(let x): if x == id { found = true }
            default: break
            }
        }
        return found || c.comments.contains { $0.id == id }
    }
}

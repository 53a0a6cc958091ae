import RedlineCore

/// The reader's output queue: finished top-level blocks become chunks carrying the comments and notes they
/// anchor (`ChunkAttacher`'s rule). Blocks wait while an annotation range is open: its comment comes later
/// in the input, after the range's end.
struct RTFChunkOutput {
    /// Chunks ready to hand out, from `position` on.
    var chunks: [Chunk] = []
    var position = 0
    /// Blocks held back while `openRanges` is not empty.
    private var held: [Block] = []
    /// Comments and notes read but not yet attached to a chunk.
    private var attacher = ChunkAttacher()
    /// Annotation ranges started (`\atrfstart`) whose annotation has not been read yet.
    var openRanges = Set<String>()

    /// Emits a finished top-level block: a chunk now, or once every open annotation range has its comment.
    mutating func emit(_ block: Block) {
        if openRanges.isEmpty {
            chunks.append(attacher.chunk(for: block))
        } else {
            held.append(block)
        }
    }

    /// A finished note, for the block that references it.
    mutating func add(_ note: Note) {
        attacher.add(note)
    }

    /// A comment whose range is not an annotation range (a Scrivener comment link), for the block that anchors it.
    mutating func add(_ comment: Comment) {
        attacher.add(comment)
    }

    /// A finished annotation: its range is complete, so held blocks may go out.
    mutating func deliver(_ comment: Comment) {
        attacher.add(comment)
        openRanges.remove(comment.id)
        releaseHeldIfPossible()
    }

    /// An annotation range that never got its annotation: an empty comment by its anchor.
    mutating func attachEmptyComment(_ id: String) {
        attacher.add(Comment(id: id, body: []))
    }

    /// The end of the input: held blocks go out; comments and notes still waiting go with the last chunk
    /// (or an empty paragraph when none is left to hand out).
    mutating func finish(finalSection: Section? = nil) {
        releaseHeldIfPossible()
        let left = attacher.takeUnreferenced()
        guard !left.comments.isEmpty || !left.notes.isEmpty || finalSection != nil else { return }
        if chunks.isEmpty || position >= chunks.count {
            chunks.append(Chunk(.paragraph(Paragraph([])), comments: left.comments, notes: left.notes))
        } else {
            chunks[chunks.count - 1].comments += left.comments
            chunks[chunks.count - 1].notes += left.notes
        }
        chunks[chunks.count - 1].finalSection = finalSection
    }

    /// Puts `section` on the last paragraph of the last block not yet handed out (a `\sect` after the
    /// paragraph's `\par`); false when there is none.
    mutating func attachSectionEnd(_ section: Section) -> Bool {
        if let last = held.last, let b = last.endingSection(section) {
            held[held.count - 1] = b
            return true
        }
        if position < chunks.count, let b = chunks[chunks.count - 1].block.endingSection(section) {
            chunks[chunks.count - 1].block = b
            return true
        }
        return false
    }

    private mutating func releaseHeldIfPossible() {
        guard openRanges.isEmpty, !held.isEmpty else { return }
        for b in held { chunks.append(attacher.chunk(for: b)) }
        held.removeAll()
    }
}

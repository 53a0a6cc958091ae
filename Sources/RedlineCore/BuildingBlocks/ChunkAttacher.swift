/// Attaches comment threads and notes to chunks: the one rule every reader (DOCX, RTF, Markdown) and
/// `Document.chunks` follow, so that a writer has a comment's or note's body when it meets its reference.
///
/// A reader adds the comments and notes it has read (`add`), in any order relative to the blocks, and
/// hands each finished top-level block to `chunk(for:)`. The rule:
/// - A chunk carries every pending comment thread and note its block references, in the order a writer
///   meets the references: the block's inlines in reading order (`Block.forEachInline`).
/// - A comment thread is a root comment (no `parentID`) with the replies whose `parentID` names it: roots
///   first, in the order added, then the replies in the order added. The thread is taken at the first
///   anchor (`commentStart`, `commentEnd` or `commentPoint`) naming its root; an anchor naming a reply
///   takes nothing. Replies whose root was never added travel as unreferenced.
/// - **Anchors inside notes** count as the note's place: a note is taken at its first reference and its
///   blocks are walked right there, so the notes it references and the comments anchored in it travel in
///   the same chunk, right after it (depth first: the note, what it references, then the rest of the block).
/// - **Anchors inside comment bodies** count the same way: when a thread is taken, each of its comments'
///   bodies is walked, so a note referenced or a comment anchored in a comment travels with that comment.
/// - A reference to something not pending (already attached, or not added yet) attaches nothing; a
///   reader that meets an anchor before its comment holds the block back until the comment is added
///   (the RTF reader does, while an annotation range is open).
/// - Notes sharing an id travel together; nothing is dropped. Whatever no block references is left for
///   `takeUnreferenced()`, which the reader puts into its last chunk.
/// - A reader that reads comments as the body needs them (the DOCX reader) attaches with a `supply`
///   closure: called with the id of every anchor met (in the body and in the bodies taken), it returns
///   the comments to add before that anchor is looked up, in the order the reader would have added them
///   all up front, so the chunks are the same as with every comment added first.
public struct ChunkAttacher: Sendable {
    private struct Thread: Sendable {
        /// When the thread was first added (the order `takeUnreferenced` keeps).
        var order: Int
        var roots: [Comment] = []
        var replies: [Comment] = []
        var comments: [Comment] { roots + replies }
    }

    private var threads: [String: Thread] = [:]
    /// Notes by id, with when the id was first added.
    private var notes: [String: (order: Int, notes: [Note])] = [:]
    private var added = 0

    public init() {}

    /// A pool holding `comments` and `notes`.
    public init(comments: [Comment], notes: [Note]) {
        for c in comments { add(c) }
        for n in notes { add(n) }
    }

    /// Whether nothing is waiting for a block.
    public var isEmpty: Bool { threads.isEmpty && notes.isEmpty }

    /// Adds a comment to its thread (the thread of its `parentID`, or its own).
    public mutating func add(_ comment: Comment) {
        let root = comment.parentID ?? comment.id
        added += 1
        if comment.parentID == nil {
            threads[root, default: Thread(order: added)].roots.append(comment)
        } else {
            threads[root, default: Thread(order: added)].replies.append(comment)
        }
    }

    /// Adds a note.
    public mutating func add(_ note: Note) {
        added += 1
        notes[note.id, default: (added, [])].notes.append(note)
    }

    /// A chunk for `block` with the pending threads and notes it references (see the type's rule).
    public mutating func chunk(for block: Block) -> Chunk {
        var chunk = Chunk(block)
        attach(to: &chunk)
        return chunk
    }

    /// Appends to `chunk` the pending threads and notes its block references.
    public mutating func attach(to chunk: inout Chunk) {
        guard !isEmpty else { return }
        collect(chunk.block, into: &chunk, supply: { _ in [] })
    }

    /// Appends to `chunk` the pending threads and notes its block references, adding first, at each
    /// comment anchor, the comments `supply` returns for its id (see the type's rule).
    public mutating func attach(to chunk: inout Chunk, supply: (String) throws -> [Comment]) rethrows {
        try collect(chunk.block, into: &chunk, supply: supply)
    }

    /// Takes everything no block referenced: threads in the order their roots were first added, then
    /// notes in the order added.
    public mutating func takeUnreferenced() -> (comments: [Comment], notes: [Note]) {
        let comments = threads.values.sorted { $0.order < $1.order }.flatMap(\.comments)
        let notes = self.notes.values.sorted { $0.order < $1.order }.flatMap(\.notes)
        threads.removeAll()
        self.notes.removeAll()
        return (comments, notes)
    }

    private mutating func collect(_ block: Block, into chunk: inout Chunk, supply: (String) throws -> [Comment]) rethrows {
        try block.forEachInline { inline in
            switch inline {
            case .commentStart(let id), .commentEnd(let id), .commentPoint(let id):
                for c in try supply(id) { add(c) }
                guard let thread = threads.removeValue(forKey: id) else { return }
                let comments = thread.comments
                chunk.comments += comments
                for c in comments { for b in c.body { try collect(b, into: &chunk, supply: supply) } }
            case .noteReference(let id):
                guard let taken = notes.removeValue(forKey: id) else { return }
                for n in taken.notes {
                    chunk.notes.append(n)
                    for b in n.blocks { try collect(b, into: &chunk, supply: supply) }
                }
            default: break
            }
        }
    }
}

import RedlineCore

/// The comments of a package as they are written: model ids to `w:id` numbers, replies, which anchors
/// were written, and the `commentsExtended.xml` / `commentsIds.xml` entries so far (`comments.xml` itself is
/// spooled as each comment is written: `SpooledPart`).
struct CommentTable {
    private(set) var numbers: [String: Int] = [:]
    /// Model ids in the order their numbers were given (see `number(_:)` for the numbers).
    private(set) var ids: [String] = []
    /// Replies of each comment, in order.
    var replies: [String: [String]] = [:]
    var started: Set<Int> = []
    var ended: Set<Int> = []
    var referenced: Set<Int> = []
    /// Ids whose body was written.
    var written: Set<String> = []
    /// One entry per written comment: its last paragraph id, its parent's, and whether it is resolved.
    var extended: [(paraID: String, parent: String?, done: Bool)] = []
    var lastParaIDs: [String: String] = [:]

    /// The `w:id` of comment `id`, given on first use: the id itself when it is a number no other comment
    /// has (so ids survive a round trip), else the lowest number still free.
    mutating func number(_ id: String) -> Int {
        if let n = numbers[id] { return n }
        var n: Int
        if let own = Int(id), own >= 0, own < 1 << 31, !taken.contains(own), String(own) == id {
            n = own
        } else {
            n = nextFree
            while taken.contains(n) { n += 1 }
        }
        taken.insert(n)
        while taken.contains(nextFree) { nextFree += 1 }
        numbers[id] = n
        ids.append(id)
        return n
    }

    private var taken: Set<Int> = []
    private var nextFree = 0

    /// The numbers of a comment and of its replies (Word anchors replies where their parent is).
    mutating func thread(_ id: String) -> [Int] {
        [number(id)] + (replies[id] ?? []).map { number($0) }
    }

    var isEmpty: Bool { ids.isEmpty }
}

/// The notes of a package: their kinds (known from the chunks), numbers given at the reference, and the
/// `w:footnote` / `w:endnote` elements written so far.
struct NoteTable {
    var kinds: [String: NoteKind] = [:]
    private(set) var numbers: [String: (NoteKind, Int)] = [:]
    /// Model ids in the order of their references.
    private(set) var referenced: [String] = []
    var written: Set<String> = []
    private(set) var footnoteCount = 0
    private(set) var endnoteCount = 0
    var footnotes = XMLText()
    var endnotes = XMLText()

    /// The kind and number of note `id` at its reference; nil when it was referenced before.
    mutating func reference(_ id: String) -> (NoteKind, Int)? {
        guard numbers[id] == nil else { return nil }
        let kind = kinds[id] ?? .footnote
        let n: Int
        if kind == .footnote { footnoteCount += 1; n = footnoteCount } else { endnoteCount += 1; n = endnoteCount }
        numbers[id] = (kind, n)
        referenced.append(id)
        return (kind, n)
    }

    /// The kind and number given to `id`, if referenced.
    func number(_ id: String) -> (NoteKind, Int)? { numbers[id] }
}

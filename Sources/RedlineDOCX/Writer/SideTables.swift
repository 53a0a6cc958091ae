import RedlineCore

/// The comments of a package as they are written: model ids to `w:id` numbers, replies, which anchors and
/// bodies were written, and each written comment's last paragraph id (`comments.xml` and its companions are
/// spooled as each comment is written: `SpooledPart`). Kept small per comment, a document may have hundreds
/// of thousands (PERFORMANCE.md, "Comments"): a comment is a place in `ids`, with a number, marks and a
/// paragraph id number in flat arrays.
struct CommentTable {
    /// What was written for a comment.
    struct Marks: OptionSet {
        let rawValue: UInt8
        static let started = Marks(rawValue: 1), ended = Marks(rawValue: 2), referenced = Marks(rawValue: 4)
        /// Its body (`comments.xml`).
        static let written = Marks(rawValue: 8)
    }

    /// Model ids in the order their numbers were given: a comment's place (see `number(_:)` for the numbers).
    private(set) var ids: [String] = []
    private var places: [String: Int32] = [:]
    private var numbers: [Int32] = []
    private var marks: [Marks] = []
    /// The number of the last paragraph id of each written comment (`DOCXComposer.hex8`).
    private var paraIDs: [UInt32] = []
    /// Replies of each comment, in order.
    var replies: [String: [String]] = [:]

    /// The place of comment `id`, which is given its `w:id` number on first use: the id itself when it is a
    /// number no other comment has (so ids survive a round trip), else the lowest number still free.
    mutating func place(_ id: String) -> Int {
        if let k = places[id] { return Int(k) }
        var n: Int
        if let own = Int(id), own >= 0, own < 1 << 31, !taken.contains(own), String(own) == id {
            n = own
        } else {
            n = nextFree
            while taken.contains(n) { n += 1 }
        }
        taken.insert(n)
        while taken.contains(nextFree) { nextFree += 1 }
        places[id] = Int32(ids.count)
        ids.append(id)
        numbers.append(Int32(n))
        marks.append([])
        paraIDs.append(0)
        return ids.count - 1
    }

    /// The `w:id` of comment `id` (given on first use).
    mutating func number(_ id: String) -> Int {
        let k = place(id)
        return number(at: k)
    }

    /// The `w:id` of the comment at `place`.
    func number(at place: Int) -> Int { Int(numbers[place]) }

    private var taken: Set<Int> = []
    private var nextFree = 0

    /// The places of a comment and of its replies (Word anchors replies where their parent is).
    mutating func thread(_ id: String) -> [Int] {
        [place(id)] + (replies[id] ?? []).map { place($0) }
    }

    /// Whether the comment at `place` has `mark`.
    func has(_ mark: Marks, at place: Int) -> Bool { marks[place].contains(mark) }

    /// Gives the comment at `place` `mark`; false when it had it already.
    mutating func mark(_ mark: Marks, at place: Int) -> Bool { marks[place].insert(mark).inserted }

    /// Whether the body of comment `id` was written.
    func isWritten(_ id: String) -> Bool { places[id].map { marks[Int($0)].contains(.written) } ?? false }

    /// Records the last paragraph id number of the comment at `place`, whose body was written.
    mutating func setParagraphID(_ n: Int, at place: Int) { paraIDs[place] = UInt32(truncatingIfNeeded: n) }

    /// The last paragraph id number of comment `id`, when its body was written.
    func paragraphID(of id: String) -> Int? {
        guard let k = places[id].map(Int.init), marks[k].contains(.written) else { return nil }
        return Int(paraIDs[k])
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

import RedlineCore

/// The ids of RTF tracked changes in place, which RTF does not write: "1", "2"... in reading order, one per
/// revision span, as `NumberChanges` numbers the model's changes (the listing's ids): a span is what the model
/// makes one insertion or deletion of. Both orders are the stream's: a note's or annotation's changes
/// where it stands in its paragraph.
///
/// A span is the run of content of one story, within one paragraph, whose revision (insertion or deletion,
/// author, date) stays the same; a deletion followed by an insertion by the same author at the same date
/// share an id, as the model pairs them into one substitution (an insertion followed by a deletion does not). Text marked both inserted and
/// deleted (one reviewer's insertion another deleted) has two ids, its insertion's and its deletion's (the
/// reader nests the deletion in the insertion). A revised paragraph mark (at `\par`,
/// or at a cell or row end that closes a paragraph) is a change of its own. Content without a revision ends
/// the span.
struct RTFChangeNumbering {
    struct Key: Equatable {
        var deletion: Bool
        var author: String?
        var date: String?
        /// For deleted text that was inserted: who inserted it, and when.
        var inserted: Change?
    }

    private var next = 1
    /// The open span of each story (stories nest: main text 0, a note or annotation inside it 1...).
    private var open: [(key: Key, id: String, insertion: String?)?] = []

    init() {}

    /// The id of content in `story` with revision `key` (nil: no revision, which ends the span).
    mutating func content(story: Int, key: Key?) -> String? {
        while open.count <= story { open.append(nil) }
        guard let key else { open[story] = nil; return nil }
        if let o = open[story], Self.continues(o.key, with: key) {
            open[story] = (key, o.id, o.insertion)
            return o.id
        }
        var insertion: String?
        if key.inserted != nil {
            insertion = String(next)
            next += 1
        }
        let id = String(next)
        next += 1
        open[story] = (key, id, insertion)
        return id
    }

    /// Whether content with revision `key` continues the span whose revision so far is `open`: the same
    /// revision, or the insertion after a deletion by the same author at the same date (a substitution).
    private static func continues(_ open: Key, with key: Key) -> Bool {
        open.author == key.author && open.date == key.date && open.inserted == key.inserted
            && (open.deletion == key.deletion || (open.deletion && !key.deletion))
    }

    /// The id of the insertion around the current deleted text of `story` (see `Key.inserted`).
    func insertionID(story: Int) -> String? {
        story < open.count ? open[story]?.insertion : nil
    }

    /// The ids `content(story:key:)` and `insertionID(story:)` would give, without moving on.
    func peek(story: Int, key: Key?) -> (id: String?, insertion: String?) {
        guard let key else { return (nil, nil) }
        if story < open.count, let o = open[story], Self.continues(o.key, with: key) { return (o.id, o.insertion) }
        if key.inserted != nil { return (String(next + 1), String(next)) }
        return (String(next), nil)
    }

    /// The end of a paragraph in `story`: a fresh id when its mark is revised (nil otherwise); the span ends.
    mutating func paragraphEnd(story: Int, revised: Bool) -> String? {
        if story < open.count { open[story] = nil }
        guard revised else { return nil }
        defer { next += 1 }
        return String(next)
    }
}

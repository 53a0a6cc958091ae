import RedlineCore

/// The ids of RTF tracked changes in place, which RTF does not write: "1", "2"... in reading order, one per
/// revision span, as `NumberChanges` numbers the model's changes (the listing's ids): a span is what the model
/// makes one insertion or deletion of. Both orders are the stream's: a note's or annotation's changes
/// where it stands in its paragraph.
///
/// A span is the run of content of one story, within one paragraph, whose revision (insertion or deletion,
/// author, date) stays the same; a deletion followed by an insertion by the same author at the
/// same date share an id, as the model pairs them into one substitution. Text marked both inserted and
/// deleted (one reviewer's insertion another deleted) has two ids, its insertion's and its deletion's (the
/// reader nests the deletion in the insertion); the insertion's is the id of the insertion it is part of,
/// which goes on after it (one insertion, parts of it deleted). A revised paragraph mark (at `\par`,
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
    /// The insertion each story is in (a span of inserted text, or the insertion around inserted-then-deleted
    /// text): text inserted by the same author at the same date that comes next, plain or deleted in turn, is
    /// still that insertion (the reader's one `.insertion` with the deletion nested in it).
    private var inserted: [(change: Change, id: String)?] = []

    init() {}

    /// The id of content in `story` with revision `key` (nil: no revision, which ends the span).
    mutating func content(story: Int, key: Key?) -> String? {
        while open.count <= story { open.append(nil) }
        while inserted.count <= story { inserted.append(nil) }
        guard let key else { open[story] = nil; inserted[story] = nil; return nil }
        let r = resolve(story: story, key: key)
        next += r.allocated
        open[story] = (key, r.id, r.insertion)
        inserted[story] = r.inserted
        return r.id
    }

    /// What content with revision `key` in `story` gets: its id, the id of the insertion around it (text
    /// inserted, then deleted), the insertion the story is in afterwards, and how many new ids that takes.
    private func resolve(story: Int, key: Key) -> (id: String, insertion: String?, inserted: (change: Change, id: String)?, allocated: Int) {
        let o = story < open.count ? open[story] : nil
        let ins = story < inserted.count ? inserted[story] : nil
        let plainInsertion = !key.deletion && key.inserted == nil
        if let o, Self.continues(o.key, with: key) {
            let around = plainInsertion ? (Change(author: key.author, date: key.date), o.id) : key.inserted != nil ? ins : nil
            return (o.id, o.insertion, around, 0)
        }
        if let outer = key.inserted {
            // Inserted, then deleted: inside the open insertion when it is this text's, else a new one first.
            if let ins, ins.change == outer { return (String(next), ins.id, ins, 1) }
            return (String(next + 1), String(next), (outer, String(next)), 2)
        }
        if plainInsertion {
            let change = Change(author: key.author, date: key.date)
            // The insertion goes on after text of it that another reviewer deleted.
            if let ins, ins.change == change { return (ins.id, nil, ins, 0) }
            return (String(next), nil, (change, String(next)), 1)
        }
        return (String(next), nil, nil, 1)
    }

    /// Whether content with revision `key` stays in the span of `open`: the same revision, or an insertion
    /// right after a deletion by the same author at the same date (a substitution; an insertion followed by
    /// a deletion stays two changes, as `InlineBuilder.pairingSubstitutions` leaves it).
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
        let r = resolve(story: story, key: key)
        return (r.id, r.insertion)
    }

    /// The end of a paragraph in `story`: a fresh id when its mark is revised (nil otherwise); the span ends.
    mutating func paragraphEnd(story: Int, revised: Bool) -> String? {
        if story < open.count { open[story] = nil }
        if story < inserted.count { inserted[story] = nil }
        guard revised else { return nil }
        defer { next += 1 }
        return String(next)
    }
}

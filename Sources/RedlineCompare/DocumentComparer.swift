import RedlineCore

/// Compares two versions of a document and returns NEW with every change from OLD as a tracked change:
/// accepting all of them gives NEW, rejecting all of them gives OLD.
///
/// Blocks are aligned first (equal blocks by LCS with patience anchors past a bounded edit distance);
/// each gap between equal blocks is diffed as one token stream (words, whitespace, punctuation, CJK
/// characters, inline atoms and paragraph breaks), so an edited paragraph pairs with its old self and a
/// split or merge is a paragraph-break change. A semantic clean-up folds short equalities between changes,
/// pairs deletions with insertions and slides whole-paragraph changes to paragraph boundaries; deleted and
/// inserted spans of the same words become moves; equal text in other formatting becomes a formatting change.
public enum DocumentComparer {
    /// The comparison of `old` with `new`, and counts of what changed. Warnings go to `diagnostics`.
    public static func compare(old: Document, new: Document, options: CompareOptions = CompareOptions(),
                               diagnostics: Diagnostics = Diagnostics()) -> (Document, CompareStats) {
        compare(old: old, new: new, options: options, diagnostics: diagnostics,
                parallelMinimum: StoryComparer.defaultParallelMinimum)
    }

    /// `compare`, with stories of at least `parallelMinimum` blocks diffed on two threads (tests set it
    /// low to check that two threads give what one gives).
    static func compare(old: Document, new: Document, options: CompareOptions, diagnostics: Diagnostics,
                        parallelMinimum: Int) -> (Document, CompareStats) {
        let oldMarks = trackedChangeCount(old), newMarks = trackedChangeCount(new)
        if oldMarks + newMarks > 0 {
            diagnostics.report(.compareInputChanges,
                               "the inputs already held \(oldMarks + newMarks) tracked changes (OLD \(oldMarks), NEW \(newMarks)): compared as if all were accepted",
                               count: oldMarks + newMarks)
        }
        let a = oldMarks > 0 ? accepted(old) : old
        let b = newMarks > 0 ? accepted(new) : new
        if !a.comments.isEmpty {
            diagnostics.report(.compareOldComments,
                               "OLD's \(a.comments.count) comments are not carried into the comparison (NEW's are kept)",
                               count: a.comments.count)
        }
        var s = StoryComparer(options: options, diagnostics: diagnostics, parallelMinimum: parallelMinimum)
        let blocks = s.compare(a.blocks, b.blocks)

        // Notes: each compared as its own story with the note it replaced; inserted and deleted ones marked whole.
        let oldNotes = Dictionary(a.notes.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        var pairedOld: [String: String] = [:]     // new id → old id
        for (o, n) in s.notePairs where pairedOld[n] == nil { pairedOld[n] = o }
        var notes: [Note] = []
        var done = Set<String>()
        let inserted = Set(s.insertedNotes)
        for note in b.notes {
            var n = note
            if let oid = pairedOld[note.id], let on = oldNotes[oid] {
                n.blocks = s.compare(on.blocks, note.blocks)
            } else if inserted.contains(note.id) {
                n.blocks = s.markedStory(note.blocks, inserted: true)
            }
            notes.append(n)
            done.insert(note.id)
        }
        for (oid, rid) in s.deletedNotes where !done.contains(rid) {
            guard let on = oldNotes[oid] else { continue }
            notes.append(Note(id: rid, kind: on.kind, blocks: s.markedStory(on.blocks, inserted: false)))
            done.insert(rid)
        }
        let doc = Document(header: b.header, blocks: blocks, comments: b.comments, notes: notes)
        return (doc, s.stats)
    }

    /// The tracked changes in a document: marks in the text, paragraph mark and style changes, row changes.
    public static func trackedChangeCount(_ doc: Document) -> Int {
        var n = 0
        func inlines(_ c: [Inline]) {
            for i in c {
                switch i {
                case .insertion, .deletion, .substitution, .move, .formatChange: n += 1
                default: break
                }
                inlines(i.children)
            }
        }
        func blocks(_ bs: [Block]) {
            for b in bs {
                if let p = b.paragraph {
                    if p.markChange != nil { n += 1 }
                    if p.styleChange != nil { n += 1 }
                    inlines(p.content)
                } else if case .table(let t) = b {
                    for r in t.rows {
                        if r.change != nil { n += 1 }
                        for c in r.cells { blocks(c.blocks) }
                    }
                } else {
                    blocks(b.childBlocks)
                }
            }
        }
        blocks(doc.blocks)
        for note in doc.notes { blocks(note.blocks) }
        for c in doc.comments { blocks(c.body) }
        return n
    }

    /// `doc` with every tracked change accepted.
    public static func accepted(_ doc: Document) -> Document { resolved(doc, .accept) }

    /// `doc` with every tracked change rejected.
    public static func rejected(_ doc: Document) -> Document { resolved(doc, .reject) }

    static func resolved(_ doc: Document, _ mode: ChangeMode) -> Document {
        // ReviewTransform does not throw on its own; collecting into a document cannot fail.
        (try? doc.applying([ReviewTransform(mode)])) ?? doc
    }
}

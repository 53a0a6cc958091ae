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
        comparingMetadata(old: old, new: new, diagnostics: diagnostics) { old, new in
            compareBodies(old: old, new: new, options: options, diagnostics: diagnostics, parallelMinimum: parallelMinimum)
        }
    }

    /// `compare` once the metadata is taken care of.
    static func compareBodies(old: Document, new: Document, options: CompareOptions, diagnostics: Diagnostics,
                              parallelMinimum: Int) -> (Document, CompareStats) {
        let oldMarks = trackedChangeCount(old), newMarks = trackedChangeCount(new)
        if options.keepInputChanges, oldMarks + newMarks > 0 {
            return keepingInputChanges(old: old, new: new, oldMarks: oldMarks, newMarks: newMarks, options: options,
                                       diagnostics: diagnostics, parallelMinimum: parallelMinimum)
        }
        if oldMarks + newMarks > 0 {
            diagnostics.report(.compareInputChanges,
                               "the inputs already held \(oldMarks + newMarks) tracked changes (OLD \(oldMarks), NEW \(newMarks)): compared as if all were accepted",
                               count: oldMarks + newMarks)
        }
        let a = oldMarks > 0 ? accepted(old) : old
        let b = withoutComments(newMarks > 0 ? accepted(new) : new, options)
        return compareViews(a, b, options: options, diagnostics: diagnostics, parallelMinimum: parallelMinimum)
    }

    /// `doc` without its comments unless `options` keeps them.
    static func withoutComments(_ doc: Document, _ options: CompareOptions) -> Document {
        guard !options.keepComments,
              !doc.comments.isEmpty || doc.blocks.contains(where: { StoryComparer.strippingComments($0) != $0 }) else { return doc }
        var notes = doc.notes
        for k in notes.indices { notes[k].blocks = notes[k].blocks.map(StoryComparer.strippingComments) }
        var d = Document(header: doc.header, blocks: doc.blocks.map(StoryComparer.strippingComments), comments: [], notes: notes)
        d.finalSection = doc.finalSection
        return d
    }

    /// The comparison of two documents without tracked changes of their own (`a` OLD, `b` NEW).
    static func compareViews(_ a: Document, _ b: Document, options: CompareOptions, diagnostics: Diagnostics,
                             parallelMinimum: Int) -> (Document, CompareStats) {
        if !a.comments.isEmpty {
            diagnostics.report(.compareOldComments,
                               "OLD's \(a.comments.count) comments are not carried into the comparison (NEW's are kept)",
                               count: a.comments.count)
        }
        var s = StoryComparer(options: options, diagnostics: diagnostics, parallelMinimum: parallelMinimum)
        let oldBlocks = TextBoxPairing.paired(old: a.blocks, new: b.blocks, replacingContent: !options.compareTextBoxes)
        let blocks = s.compare(oldBlocks, b.blocks)

        let (noteBlocks, notes) = compareNotes(old: a.notes, new: b.notes, blocks: blocks, comparer: &s)
        var doc = Document(header: b.header, blocks: noteBlocks, comments: b.comments, notes: notes)
        doc.finalSection = b.finalSection
        if options.compareHeadersFooters {
            doc = comparingHeadersFooters(old: a, new: b, result: doc) { old, new in s.compare(old, new) }
        }
        return (doc, s.stats)
    }

    /// `--keep-input-changes`: the differences between OLD (the view of it NEW's reject view is closer to) and NEW's
    /// reject view are found by comparison (the edits made without tracking, by `options.author`) and composed with
    /// NEW's own tracked changes by `ChangeMixing`, block by block; where the two layers do not line up, NEW's
    /// changes are accepted first as without the option (`compare.input-changes-not-kept`).
    static func keepingInputChanges(old: Document, new: Document, oldMarks: Int, newMarks: Int, options: CompareOptions,
                                    diagnostics: Diagnostics, parallelMinimum: Int) -> (Document, CompareStats) {
        var plain = options
        plain.keepInputChanges = false
        let n = withoutComments(new, options)
        let newRejected = newMarks > 0 ? rejected(n) : n
        // OLD's accepted view, unless NEW still carries OLD's changes (then its rejected view is the closer). The
        // comparison's warnings are those of the view taken.
        let (view, (untracked, stats), quiet, tookRejected) = { () -> (Document, (Document, CompareStats), Diagnostics, Bool) in
            let acceptedOld = oldMarks > 0 ? accepted(old) : old
            let firstSide = Diagnostics(), secondSide = Diagnostics()
            let first = compareViews(acceptedOld, newRejected, options: plain, diagnostics: firstSide, parallelMinimum: parallelMinimum)
            guard oldMarks > 0 else { return (acceptedOld, first, firstSide, false) }
            let rejectedOld = rejected(old)
            let second = compareViews(rejectedOld, newRejected, options: plain, diagnostics: secondSide, parallelMinimum: parallelMinimum)
            return second.1.wordsChanged < first.1.wordsChanged
                ? (rejectedOld, second, secondSide, true) : (acceptedOld, first, firstSide, false)
        }()
        if oldMarks > 0 && newMarks == 0 {
            diagnostics.report(.compareInputChanges,
                               "OLD's \(oldMarks) tracked changes: compared as if all were \(tookRejected ? "rejected" : "accepted") (NEW, which has none, is closer to that)",
                               count: oldMarks)
        }
        var base = view
        if !base.comments.isEmpty {
            diagnostics.report(.compareOldComments,
                               "OLD's \(base.comments.count) comments are not carried into the comparison (NEW's are kept)",
                               count: base.comments.count)
            base.comments = []
        }
        // The taken comparison's warnings (OLD's comments are reported above, once).
        func reportTaken() { for d in quiet.all where d.code != .compareOldComments { diagnostics.report(d) } }
        guard newMarks > 0 else {
            reportTaken()
            return (untracked, stats)
        }
        if trackedChangeCount(untracked) == 0 {
            // NEW differs from OLD only by its tracked changes: it is the result as it is.
            return (n, CompareStats())
        }
        var mixing = plain
        mixing.compareHeadersFooters = false
        if let (mixed, recompared) = ChangeMixing.compose(untracked: untracked, edited: n, options: mixing) {
            reportTaken()
            if recompared > 0 {
                diagnostics.report(.compareChangesRecompared,
                                   "NEW changed \(recompared == 1 ? "one paragraph" : "\(recompared) paragraphs") both with and without tracking: there every change is found by comparison and attributed to \(options.author)",
                                   count: recompared)
            }
            var doc = mixed
            if options.compareHeadersFooters {
                var s = StoryComparer(options: plain, diagnostics: Diagnostics(), parallelMinimum: parallelMinimum)
                doc = comparingHeadersFooters(old: base, new: n, result: doc) { old, new in
                    mixedStory(old: old, new: new, comparer: &s)
                }
            }
            return (doc, stats)
        }
        diagnostics.report(.compareInputChangesNotKept,
                           "NEW's \(newMarks) tracked changes could not be kept beside its untracked edits (paragraphs split or joined, or edits in notes): compared as if they were all accepted",
                           count: newMarks)
        return compareViews(base, accepted(n), options: plain, diagnostics: diagnostics, parallelMinimum: parallelMinimum)
    }

    /// One story of NEW (`new`, with tracked changes of its own) against OLD's (`old`, without): NEW's changes kept
    /// and its untracked edits marked, as `ChangeMixing` composes them; compared afresh where they do not compose.
    static func mixedStory(old: [Block], new: [Block], comparer s: inout StoryComparer) -> [Block] {
        let newDoc = Document(blocks: new)
        guard trackedChangeCount(newDoc) > 0 else { return s.compare(old, new) }
        let untracked = s.compare(old, rejected(newDoc).blocks)
        if trackedChangeCount(Document(blocks: untracked)) == 0 { return new }
        if let (mixed, _) = ChangeMixing.compose(untracked: Document(blocks: untracked), edited: newDoc, options: s.options) {
            return mixed.blocks
        }
        return s.compare(old, accepted(newDoc).blocks)
    }

    /// The result's notes: each NEW note whose reference matched one of OLD's compared as its own story with
    /// that note, inserted and deleted ones marked whole; and `blocks` with the references mended where OLD and
    /// NEW refer to notes differently:
    /// - a deleted reference to a note whose other reference matched points at the matched note (OLD referring
    ///   to one note twice, or a note referring to itself), so rejecting gives OLD's one note, not a copy;
    /// - where OLD referred to one note twice and NEW has a note for each, NEW's second reference is a
    ///   substitution of OLD's reference for NEW's, its note inserted whole;
    /// - where OLD had two notes and NEW refers to one of them twice (in the body), NEW's second reference is a
    ///   substitution of OLD's reference to its own note (deleted whole) for NEW's.
    ///
    /// Comparing a note's story can meet further references (notes in notes), so the pairs, insertions and
    /// deletions are taken as they come: every pair first (only comparing a paired note finds more pairs),
    /// then insertions, then deletions, each note decided once.
    private static func compareNotes(old oldList: [Note], new newList: [Note], blocks: [Block],
                                     comparer s: inout StoryComparer) -> ([Block], [Note]) {
        let oldNotes = Dictionary(oldList.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        let newNotes = Dictionary(newList.map { ($0.id, $0) }, uniquingKeysWith: { x, _ in x })
        // The body's matched references, in reading order: NEW id → the OLD ids its references matched.
        var bodyPairs: [String: [String]] = [:]
        for (o, n) in s.notePairs { bodyPairs[n, default: []].append(o) }
        var decided: [String: [Block]] = [:]    // new id → its blocks in the result
        var pairedNew: [String: String] = [:]   // old id → the new id it was compared with
        var pairedOld: [String: String] = [:]   // new id → the old id it was compared with
        var renamed: [String: String] = [:]     // a deleted note's result id → the new id of its pair
        var substituted: [String: String] = [:] // a new id → the new id of the note OLD's reference there had
        var pairs = 0
        while pairs < s.notePairs.count {
            let (o, n) = s.notePairs[pairs]
            pairs += 1
            guard decided[n] == nil, let on = oldNotes[o], let nn = newNotes[n] else { continue }
            if let first = pairedNew[o], first != n {
                substituted[n] = first
                decided[n] = s.markedStory(nn.blocks, inserted: true)
                continue
            }
            pairedNew[o] = n
            pairedOld[n] = o
            decided[n] = s.options.compareNotes ? s.compare(on.blocks, nn.blocks) : nn.blocks
        }

        // The body's references, mended; a second OLD note met there is deleted (its reference "old-ID").
        let change = s.change
        var substitutions = 0
        var seen: [String: Int] = [:]
        /// `mending`: the body's pass (substitutions); otherwise only deleted notes' references are renamed.
        func rewrite(_ inlines: [Inline], inChange: Bool, mending: Bool) -> [Inline] {
            inlines.map { i in
                switch i {
                case .noteReference(let id):
                    if let to = renamed[id] { return .noteReference(to) }
                    guard mending, !inChange else { return i }
                    if let first = substituted[id] {
                        substitutions += 1
                        return .substitution(change, deleted: [.noteReference(first)], inserted: [i])
                    }
                    guard let olds = bodyPairs[id] else { return i }
                    let k = seen[id, default: 0]
                    seen[id] = k + 1
                    guard k < olds.count, let o = pairedOld[id], olds[k] != o, oldNotes[olds[k]] != nil else { return i }
                    substitutions += 1
                    let oldRef = pairedNew[olds[k]] ?? "old-" + olds[k]
                    if pairedNew[olds[k]] == nil { s.deletedNotes.append((olds[k], oldRef)) }
                    return .substitution(change, deleted: [.noteReference(oldRef)], inserted: [i])
                case .insertion, .deletion, .substitution, .move:
                    return i.mapChildren { rewrite($0, inChange: true, mending: mending) }
                default:
                    return i.children.isEmpty ? i : i.mapChildren { rewrite($0, inChange: inChange, mending: mending) }
                }
            }
        }
        let mendsBody = !substituted.isEmpty || bodyPairs.values.contains { Set($0).count > 1 }
        let body = mendsBody ? blocks.map { $0.mapParagraphContent { rewrite($0, inChange: false, mending: true) } } : blocks

        var deleted: [Note] = []
        var deletedIDs = Set<String>()
        var insertions = 0, deletions = 0
        while true {
            if insertions < s.insertedNotes.count {
                let id = s.insertedNotes[insertions]
                insertions += 1
                guard decided[id] == nil, let nn = newNotes[id] else { continue }
                decided[id] = s.markedStory(nn.blocks, inserted: true)
            } else if deletions < s.deletedNotes.count {
                let (oid, rid) = s.deletedNotes[deletions]
                deletions += 1
                guard deletedIDs.insert(rid).inserted, let on = oldNotes[oid] else { continue }
                if let nid = pairedNew[oid], newNotes[nid] != nil { renamed[rid] = nid; continue }
                deleted.append(Note(id: rid, kind: on.kind, blocks: s.markedStory(on.blocks, inserted: false)))
            } else {
                break
            }
        }
        var notes = newList.map { note -> Note in
            var n = note
            if let b = decided[note.id] { n.blocks = b }
            return n
        } + deleted
        s.stats.substitutions += substitutions
        s.stats.insertions += substitutions
        s.stats.deletions += substitutions
        guard !renamed.isEmpty else { return (body, notes) }
        func rename(_ inlines: [Inline]) -> [Inline] { rewrite(inlines, inChange: false, mending: false) }
        for k in notes.indices { notes[k].blocks = notes[k].blocks.map { $0.mapParagraphContent(rename) } }
        return (body.map { $0.mapParagraphContent(rename) }, notes)
    }

    /// The tracked changes in a document: marks in the text, paragraph mark and style changes, row changes (in
    /// the body, notes, comments, headers and footers).
    public static func trackedChangeCount(_ doc: Document) -> Int { doc.trackedChangeCount }

    /// `doc` with every tracked change accepted.
    public static func accepted(_ doc: Document) -> Document { resolved(doc, .accept) }

    /// `doc` with every tracked change rejected.
    public static func rejected(_ doc: Document) -> Document { resolved(doc, .reject) }

    static func resolved(_ doc: Document, _ mode: ChangeMode) -> Document {
        // ReviewTransform does not throw on its own; collecting into a document cannot fail.
        (try? doc.applying([ReviewTransform(mode)])) ?? doc
    }
}

extension DocumentComparer {
    /// `options` for OLD and NEW read from two different formats: when one side carries no paragraph formatting
    /// at all (Markdown without `--keep-formatting`), it cannot have changed any, and Word's heading and body
    /// formatting on the other side would mark every paragraph, so only paragraphs' kinds and heading levels are
    /// compared. Within one format every difference is a change (accept gives NEW, reject gives OLD).
    public static func acrossFormats(_ options: CompareOptions, old: Document, new: Document) -> CompareOptions {
        var options = options
        if !carriesParagraphFormatting(old) || !carriesParagraphFormatting(new) { options.compareParagraphStyles = false }
        return options
    }

    /// Whether any paragraph of `document` (body and notes, at any depth) has formatting of its own.
    static func carriesParagraphFormatting(_ document: Document) -> Bool {
        func carries(_ blocks: [Block]) -> Bool {
            blocks.contains { block in
                if let p = block.paragraph { return !p.style.isEmpty }
                return carries(block.childBlocks)
            }
        }
        return carries(document.blocks) || document.notes.contains { carries($0.blocks) }
    }
}

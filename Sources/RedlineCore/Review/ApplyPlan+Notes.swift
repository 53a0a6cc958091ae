/// The steps a plan writes into ORIGINAL's footnotes and endnotes, each note a story of its own.
public struct NotePlan: Sendable {
    /// ORIGINAL's note, by the id its reader gave it (DOCX: its number among the package's notes).
    public var id: String
    public var kind: NoteKind
    /// The plan for the note's own story: its leaves are the note's paragraphs.
    public var plan: ApplyPlan
    /// The comparison's note it was made from (nil in a combination).
    public var comparedID: String?

    /// A note's plan.
    public init(id: String, kind: NoteKind, plan: ApplyPlan, comparedID: String? = nil) {
        self.id = id
        self.kind = kind
        self.plan = plan
        self.comparedID = comparedID
    }
}

extension ApplyPlan {
    /// The plans for ORIGINAL's notes that `compared` changes inside, and the notes its inserted references
    /// bring (their blocks as `compared` has them: marked inserted). Notes are paired by their references:
    /// the k-th reference of ORIGINAL (accept view) with the k-th of `compared`'s reject view; nil when the
    /// two do not have as many (a reference moved, or ORIGINAL's own changes hold references).
    public static func makeNotes(original: Document, compared: Document,
                                 fallback: Change) -> (plans: [NotePlan], new: [Note])? {
        let oRefs = references(original).filter { $0.accept }.map(\.id)
        let cRefs = references(compared)
        let rejectRefs = cRefs.filter { $0.reject }
        guard oRefs.count == rejectRefs.count else { return nil }
        let oNotes = Dictionary(original.notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let cNotes = Dictionary(compared.notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var plans: [NotePlan] = []
        var planned = Set<String>()
        for (o, c) in zip(oRefs, rejectRefs) where c.accept {
            // A reference both views have: its note, compared with ORIGINAL's.
            // (A note the comparison left unmarked is not written, whatever a conversion made of its text.)
            guard planned.insert(o).inserted, let on = oNotes[o], let cn = cNotes[c.id], Document(blocks: cn.blocks).trackedChangeCount > 0 else { continue }
            let plan = make(original: Document(blocks: on.blocks), compared: Document(blocks: cn.blocks), fallback: fallback)
            if !plan.isEmpty { plans.append(NotePlan(id: o, kind: on.kind, plan: plan, comparedID: c.id)) }
        }
        var new: [Note] = []
        var added = Set<String>()
        for r in cRefs where r.accept && !r.reject {
            if added.insert(r.id).inserted, let n = cNotes[r.id] { new.append(n) }
        }
        return (plans, new)
    }

    /// The positions, among the note references `view` shows of `document`'s body (reading order), of those
    /// naming a note `include` takes.
    public static func notePositions(of document: Document, view: View, include: (String) -> Bool) -> [Int] {
        references(document).filter { view == .accept ? $0.accept : $0.reject }.enumerated()
            .filter { include($0.element.id) }.map(\.offset)
    }

    /// The text of the notes referred to at `positions` (see `notePositions`) as `view` shows them: each note's
    /// `viewTexts`, in that order; a position with no reference or no note adds a NUL. What apply checks the
    /// notes it wrote by.
    public static func noteTexts(of document: Document, view: View, positions: [Int]) -> [String] {
        guard !positions.isEmpty else { return [] }
        let notes = Dictionary(document.notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let refs = references(document).filter { view == .accept ? $0.accept : $0.reject }
        var out: [String] = []
        for k in positions {
            guard k < refs.count, let n = notes[refs[k].id] else { out.append("\u{0}"); continue }
            out += viewTexts(of: Document(blocks: n.blocks), view: view)
        }
        return out
    }

    /// A note reference of a body, and which views have it.
    struct NoteRef {
        var id: String
        var accept: Bool
        var reject: Bool
    }

    /// The note references of `document`'s body in reading order (inside tables, quotes and lists too).
    static func references(_ document: Document) -> [NoteRef] {
        var out: [NoteRef] = []
        func inlines(_ xs: [Inline], accept: Bool, reject: Bool) {
            for i in xs {
                switch i {
                case .noteReference(let id): out.append(NoteRef(id: id, accept: accept, reject: reject))
                case .insertion(_, let c): inlines(c, accept: accept, reject: false)
                case .deletion(_, let c): inlines(c, accept: false, reject: reject)
                case .substitution(_, let d, let n):
                    inlines(d, accept: false, reject: reject)
                    inlines(n, accept: accept, reject: false)
                case .move(let m, let c): inlines(c, accept: accept && m.side == .to, reject: reject && m.side != .to)
                default: if !i.children.isEmpty { inlines(i.children, accept: accept, reject: reject) }
                }
            }
        }
        for (t, b) in document.blocks.enumerated() {
            walk(b, topLevel: t, path: []) { block, _, _, row in
                var accept = true, reject = true
                switch row {
                case .inserted?: reject = false
                case .deleted?: accept = false
                case nil: break
                }
                switch block {
                case .paragraph(let p), .heading(_, let p): inlines(p.content, accept: accept, reject: reject)
                default: break
                }
            }
        }
        return out
    }
}

extension ApplyPlan {
    /// This plan with its new notes' ids (and the inserted references naming them) prefixed with `prefix`, so
    /// that several copies' new notes do not meet when their plans are combined.
    func renamingNewNotes(_ prefix: String) -> ApplyPlan {
        guard !newNotes.isEmpty else { return self }
        let ids = Set(newNotes.map(\.id))
        func rename(_ inlines: [Inline]) -> [Inline] {
            inlines.map { i in
                if case .noteReference(let id) = i, ids.contains(id) { return .noteReference(prefix + id) }
                return i.children.isEmpty ? i : i.mapChildren(rename)
            }
        }
        var out = self
        out.steps = steps.map { step in
            switch step {
            case .edit(let leaf, var edits, let mark):
                for k in edits.indices { edits[k].inserted = rename(edits[k].inserted) }
                return .edit(leaf: leaf, edits: edits, markDeleted: mark)
            case .insert(let after, let blocks, let whole, let path, let change):
                return .insert(after: after, blocks: blocks.map { $0.mapParagraphContent(rename) }, whole: whole, path: path,
                               change: change)
            case .restyle, .delete: return step
            }
        }
        out.newNotes = newNotes.map { var n = $0; n.id = prefix + n.id; return n }
        return out
    }
}

extension ReviewerCounts {
    /// Adds `other`'s counts to these.
    mutating func add(_ other: ReviewerCounts) {
        insertions += other.insertions; deletions += other.deletions; substitutions += other.substitutions
        formatChanges += other.formatChanges; comments += other.comments
        paragraphsInserted += other.paragraphsInserted; paragraphsDeleted += other.paragraphsDeleted
        paragraphsJoined += other.paragraphsJoined; conflicts += other.conflicts
        paragraphsRestyled += other.paragraphsRestyled; duplicates += other.duplicates
    }
}

extension Note {
    /// Who added this note, for a note a plan adds: the change of the first insertion in it (nil when none).
    public var insertion: Change? {
        var found: Change?
        for b in blocks where found == nil {
            b.forEachInline { i in
                if found == nil, case .insertion(let c, _) = i { found = c }
            }
        }
        return found
    }
}

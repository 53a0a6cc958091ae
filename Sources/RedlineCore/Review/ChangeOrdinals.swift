/// Gives every tracked change without an id (CriticMarkup, RTF) an ordinal id, "1", "2"... in reading
/// order: a note's changes where its reference stands in the paragraph, a comment's where the comment stands
/// (its point, or the end of its range), as a file's stream holds them (RTF in place numbers the same way);
/// notes and comments the chunk's blocks do not reference come after the block. Changes that have an id
/// (DOCX `w:id`) keep it and are not counted. The same input numbered twice gets the same ids, so the ids
/// `redline changes` lists are the ones `--accept id=` selects (both run this stage first).
public struct NumberChanges: ChunkStage {
    private var next = 1
    /// The current chunk's notes and comments not numbered yet, by id.
    private var notes: [String: Note] = [:]
    private var comments: [String: Comment] = [:]
    private var numberedNotes: [String: Note] = [:]
    private var numberedComments: [String: Comment] = [:]

    public init() {}

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        var c = chunk
        notes = [:]; comments = [:]; numberedNotes = [:]; numberedComments = [:]
        for n in chunk.notes where notes[n.id] == nil { notes[n.id] = n }
        for m in chunk.comments where comments[m.id] == nil { comments[m.id] = m }
        c.block = number(c.block)
        var seenNotes = Set<String>(), seenComments = Set<String>()
        c.notes = c.notes.map { n in
            guard seenNotes.insert(n.id).inserted else { var n = n; n.blocks = n.blocks.map { number($0) }; return n }
            if let done = numberedNotes[n.id] { return done }
            notes[n.id] = nil
            var n = n; n.blocks = n.blocks.map { number($0) }; return n
        }
        c.comments = c.comments.map { m in
            guard seenComments.insert(m.id).inserted else { var m = m; m.body = m.body.map { number($0) }; return m }
            if let done = numberedComments[m.id] { return done }
            comments[m.id] = nil
            var m = m; m.body = m.body.map { number($0) }; return m
        }
        notes = [:]; comments = [:]; numberedNotes = [:]; numberedComments = [:]
        try emit(c)
    }

    public mutating func finish(emit: (Chunk) throws -> Void) throws {}

    /// Numbers the note `id` of the chunk here (where its reference stands), once.
    private mutating func numberNote(_ id: String) {
        guard var n = notes.removeValue(forKey: id) else { return }
        n.blocks = n.blocks.map { number($0) }
        numberedNotes[id] = n
    }

    /// Numbers the comment `id` of the chunk here (where it stands), once.
    private mutating func numberComment(_ id: String) {
        guard var m = comments.removeValue(forKey: id) else { return }
        m.body = m.body.map { number($0) }
        numberedComments[id] = m
    }

    private mutating func assign(_ change: inout Change) {
        guard change.id == nil || change.id?.isEmpty == true else { return }
        change.id = String(next)
        next += 1
    }

    private mutating func number(_ block: Block) -> Block {
        switch block {
        case .paragraph(let p): return .paragraph(number(p))
        case .heading(let l, let p): return .heading(level: l, number(p))
        case .table(var t):
            for i in t.rows.indices {
                switch t.rows[i].change {
                case .inserted(var ch)?: assign(&ch); t.rows[i].change = .inserted(ch)
                case .deleted(var ch)?: assign(&ch); t.rows[i].change = .deleted(ch)
                case nil: break
                }
                for j in t.rows[i].cells.indices {
                    t.rows[i].cells[j].blocks = t.rows[i].cells[j].blocks.map { number($0) }
                }
            }
            return .table(t)
        default:
            return block.mapBlockArrays { $0.map { self.number($0) } }
        }
    }

    private mutating func number(_ p: Paragraph) -> Paragraph {
        var p = p
        if var sc = p.styleChange { assign(&sc.change); p.styleChange = sc }
        p.content = number(p.content)
        switch p.markChange {
        case .inserted(var ch)?: assign(&ch); p.markChange = .inserted(ch)
        case .deleted(var ch)?: assign(&ch); p.markChange = .deleted(ch)
        case nil: break
        }
        return p
    }

    private mutating func number(_ inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        for inline in inlines {
            out.append(numbered(inline))
        }
        return out
    }

    private mutating func numbered(_ inline: Inline) -> Inline {
            switch inline {
            case .insertion(var ch, let c): assign(&ch); return .insertion(ch, number(c))
            case .deletion(var ch, let c): assign(&ch); return .deletion(ch, number(c))
            case .substitution(var ch, let d, let i): assign(&ch); return .substitution(ch, deleted: number(d), inserted: number(i))
            case .move(var m, let c): assign(&m.change); return .move(m, number(c))
            case .formatChange(var f, let c): assign(&f.change); return .formatChange(f, number(c))
            case .noteReference(let id): numberNote(id); return inline
            case .commentPoint(let id), .commentEnd(let id): numberComment(id); return inline
            default:
                return inline.mapChildren { self.number($0) }
            }
    }
}

/// The tracked changes and comments of model chunks (after `NumberChanges`), as `redline changes` lists
/// them: one item per change (a substitution is a deletion and an insertion with one id), per paragraph
/// mark, style and row change, and per comment, with story, paragraph number and the heading above.
public struct ModelChangeList {
    public private(set) var items: [ChangeListItem] = []
    private var paragraph = 0
    private var heading: String?
    private var story = "body"
    private var comments: [ChangeListItem] = []
    private var anchors: [String: (Int, String?)] = [:]
    /// The text each comment's range covers (ranges open now, and their text so far).
    private var commented: [String: String] = [:]
    private var openRanges: Set<String> = []
    /// Text outside any change since the last change was listed; how deep in changes the walk is.
    private var textBetween = true
    private var changeDepth = 0

    public init() {}

    /// Lists one chunk's changes.
    public mutating func add(_ chunk: Chunk) {
        story = "body"
        block(chunk.block)
        for n in chunk.notes {
            story = "\(n.kind == .footnote ? "footnote" : "endnote") \(n.id)"
            let saved = paragraph
            paragraph = 0
            for b in n.blocks { block(b) }
            paragraph = saved
        }
        story = "body"
        for c in chunk.comments {
            let saved = paragraph
            story = "comment \(c.id)"
            paragraph = 0
            for b in c.body { block(b) }
            paragraph = saved
            story = "body"
            let at = anchors[c.id]
            comments.append(ChangeListItem(id: c.id, kind: .comment, element: "comment", author: c.author, date: c.date,
                                           story: "body", paragraph: at?.0 ?? 0, heading: at?.1 ?? heading,
                                           after: c.body.map(\.plainText).joined(separator: "\n"),
                                           thread: c.parentID, resolved: c.resolved))
        }
    }

    /// Every item: changes in reading order, then comments (with the text their ranges cover).
    public var all: [ChangeListItem] {
        items + comments.map { var c = $0; c.before = commented[c.id] ?? ""; return c }
    }

    private mutating func item(_ kind: ChangeKind, _ element: String, _ ch: Change, before: String = "", after: String = "") {
        var i = ChangeListItem(id: ch.id ?? "", kind: kind, element: element, author: ch.author, date: ch.date,
                               story: story, paragraph: paragraph, heading: heading, before: before, after: after)
        i.adjoins = !textBetween
        textBetween = false
        items.append(i)
    }

    private mutating func block(_ b: Block) {
        switch b {
        case .paragraph(let p), .heading(_, let p):
            paragraph += 1
            textBetween = true
            if let sc = p.styleChange { item(.paragraph, "paragraph style", sc.change) }
            inlines(p.content)
            let text = Block.paragraph(p).plainText
            switch p.markChange {
            case .inserted(let ch)?: item(.paragraph, "inserted paragraph mark", ch, after: text)
            case .deleted(let ch)?: item(.paragraph, "deleted paragraph mark", ch, before: text)
            case nil: break
            }
            if case .heading = b, story == "body" { heading = ChangeListItem.shortened(text, limit: 80) }
        case .table(let t):
            for row in t.rows {
                let text = row.cells.flatMap(\.blocks).map(\.plainText).joined(separator: " | ")
                switch row.change {
                case .inserted(let ch)?: item(.table, "inserted row", ch, after: text)
                case .deleted(let ch)?: item(.table, "deleted row", ch, before: text)
                case nil: break
                }
                for cell in row.cells { for x in cell.blocks { block(x) } }
            }
        default:
            for arr in b.childBlocks { block(arr) }
        }
    }

    /// The inlines inside a change.
    private mutating func inside(_ list: [Inline]) {
        changeDepth += 1
        inlines(list)
        changeDepth -= 1
    }

    private mutating func inlines(_ list: [Inline]) {
        for i in list {
            switch i {
            case .insertion(let ch, let c):
                item(.insertion, "insertion", ch, after: c.plainText)
                inside(c)
            case .deletion(let ch, let c):
                item(.deletion, "deletion", ch, before: c.plainText)
                inside(c)
            case .substitution(let ch, let d, let n):
                item(.deletion, "substitution", ch, before: d.plainText)
                item(.insertion, "substitution", ch, after: n.plainText)
                inside(d)
                inside(n)
            case .move(let m, let c):
                item(.move, "move \(m.side.rawValue)", m.change, before: m.side == .from ? c.plainText : "",
                     after: m.side == .to ? c.plainText : "")
                inside(c)
            case .formatChange(let f, let c):
                item(.formatting, "formatting", f.change, before: c.plainText, after: c.plainText)
                inside(c)
            case .commentStart(let id), .commentPoint(let id):
                if anchors[id] == nil { anchors[id] = (paragraph, heading) }
                if case .commentStart = i { openRanges.insert(id); commented[id] = commented[id] ?? "" }
            case .commentEnd(let id):
                openRanges.remove(id)
            case .text(let t):
                if changeDepth == 0 && !t.isEmpty { textBetween = true }
                for id in openRanges.prefix(16) where (commented[id]?.utf8.count ?? 0) < 1 << 20 { commented[id, default: ""] += t }
            default:
                inlines(i.children)
            }
        }
    }
}

/// Accepts, rejects or keeps each tracked change as `review` decides: text insertions, deletions,
/// substitutions, moves, formatting changes, paragraph-mark insertions and deletions (merging paragraphs),
/// paragraph-style changes and table-row insertions and deletions, also inside comment bodies and notes.
/// Comment anchors inside removed text are kept, so no comment loses its place.
public struct ReviewTransform: ChunkStage {
    /// The decisions: one mode for all changes, and filters that select some.
    public let review: ReviewOptions
    /// A top-level paragraph whose break goes away, waiting for the block it merges into.
    private var pending: Chunk?
    /// Comments and notes of a removed empty paragraph, carried to the next chunk.
    private var orphanComments: [Comment] = []
    private var orphanNotes: [Note] = []
    private var numbering = NumberChanges()

    /// One decision for every change.
    public init(_ mode: ChangeMode) { self.init(ReviewOptions(changes: mode)) }

    /// A decision per change, as `review` selects.
    public init(_ review: ReviewOptions) { self.review = review }

    private func decide(_ kind: ChangeKind, _ change: Change) -> ReviewDecision {
        review.decision(for: ChangeInfo(kind: kind, change: change))
    }

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        guard !review.keepsAllChanges else { try emit(chunk); return }
        // Changes without a source id get the ordinals `redline changes` lists, so `id=` filters match.
        var c = chunk
        try numbering.process(chunk) { c = $0 }
        c.comments = c.comments.map { var m = $0; m.body = resolve(m.body); return m }
        c.notes = c.notes.map { var n = $0; n.blocks = resolve(n.blocks); return n }
        c.block = resolveOne(c.block)
        if let p = pending {
            pending = nil
            if let merged = merge(p.block, into: c.block) {
                c.block = merged
                c.comments = p.comments + c.comments
                c.notes = p.notes + c.notes
            } else if let kept = keepAlone(p) {
                try emit(kept)
            } else {
                orphanComments += p.comments
                orphanNotes += p.notes
            }
        }
        if !orphanComments.isEmpty || !orphanNotes.isEmpty {
            c.comments = orphanComments + c.comments
            c.notes = orphanNotes + c.notes
            orphanComments = []
            orphanNotes = []
        }
        if mergesWithNext(c.block) { pending = c } else { try emit(c) }
    }

    public mutating func finish(emit: (Chunk) throws -> Void) throws {
        if let p = pending {
            pending = nil
            if let kept = keepAlone(p) {
                try emit(kept)
            } else if !p.comments.isEmpty || !orphanComments.isEmpty {
                // Comments must stay somewhere; notes whose references went are dropped with them.
                var c = p
                c.block = clearMark(c.block)
                c.comments = orphanComments + c.comments
                try emit(c)
            }
        }
    }

    // MARK: Blocks

    /// Resolves changes in a block array: paragraph content and styles, row changes, and merges.
    public func resolve(_ blocks: [Block]) -> [Block] {
        var out: [Block] = []
        var carry: Block?
        for b in blocks {
            var block = resolveOne(b)
            if let c = carry {
                carry = nil
                if let m = merge(c, into: block) { block = m } else if !Self.isEmptyParagraph(c) { out.append(clearMark(c)) }
            }
            if mergesWithNext(block) { carry = block } else { out.append(block) }
        }
        if let c = carry, !Self.isEmptyParagraph(c) { out.append(clearMark(c)) }
        return out
    }

    private func resolveOne(_ block: Block) -> Block {
        switch block {
        case .paragraph(let p): return .paragraph(resolve(p))
        case .heading(let l, let p): return .heading(level: l, resolve(p))
        case .table(var t):
            let originalHeaders = t.headerRowCount
            var rows: [TableRow] = []
            var headers = 0
            for (i, var row) in t.rows.enumerated() {
                switch row.change {
                case .inserted(let ch)?:
                    switch decide(.table, ch) {
                    case .reject: continue
                    case .accept: row.change = nil
                    case .keep: break
                    }
                case .deleted(let ch)?:
                    switch decide(.table, ch) {
                    case .accept: continue
                    case .reject: row.change = nil
                    case .keep: break
                    }
                case nil: break
                }
                row.cells = row.cells.compactMap { cell -> TableCell? in
                    var c = cell
                    switch c.change {
                    case .inserted(let ch)?:
                        switch decide(.table, ch) {
                        case .reject: return nil
                        case .accept: c.change = nil
                        case .keep: break
                        }
                    case .deleted(let ch)?:
                        switch decide(.table, ch) {
                        case .accept: return nil
                        case .reject: c.change = nil
                        case .keep: break
                        }
                    case nil: break
                    }
                    c.blocks = resolve(c.blocks)
                    return c
                }
                if i < originalHeaders { headers += 1 }
                rows.append(row)
            }
            t.rows = rows
            t.headerRowCount = headers
            return .table(t)
        default:
            return block.mapBlockArrays(resolve)
        }
    }

    private func resolve(_ p: Paragraph) -> Paragraph {
        var p = p
        p.content = resolve(p.content)
        switch p.markChange {
        case .inserted(let ch)?: if decide(.paragraph, ch) == .accept { p.markChange = nil }
        case .deleted(let ch)?: if decide(.paragraph, ch) == .reject { p.markChange = nil }
        case nil: break
        }
        if let sc = p.styleChange {
            switch decide(.paragraph, sc.change) {
            case .reject: p.style = sc.old; p.styleChange = nil
            case .accept: p.styleChange = nil
            case .keep: break
            }
        }
        return p
    }

    private func mergesWithNext(_ block: Block) -> Bool {
        switch block.paragraph?.markChange {
        case .deleted(let ch)?: return decide(.paragraph, ch) == .accept
        case .inserted(let ch)?: return decide(.paragraph, ch) == .reject
        case nil: return false
        }
    }

    /// `first` (whose break goes away) joined with `next`; nil when `next` is not a paragraph.
    /// The joined paragraph keeps the kind, style and mark of `next`, as the surviving mark is next's.
    private func merge(_ first: Block, into next: Block) -> Block? {
        guard let a = first.paragraph else { return nil }
        switch next {
        case .paragraph(var b):
            b.content = InlineBuilder.normalized(a.content + b.content)
            return .paragraph(b)
        case .heading(let l, var b):
            b.content = InlineBuilder.normalized(a.content + b.content)
            return .heading(level: l, b)
        default:
            return nil
        }
    }

    private static func isEmptyParagraph(_ block: Block) -> Bool { block.paragraph?.content.isEmpty ?? false }

    private func clearMark(_ block: Block) -> Block {
        switch block {
        case .paragraph(var p): p.markChange = nil; return .paragraph(p)
        case .heading(let l, var p): p.markChange = nil; return .heading(level: l, p)
        default: return block
        }
    }

    /// A paragraph whose break goes away with no paragraph after it to join: kept without the mark, or
    /// removed when nothing is left in it (as Word removes a deleted paragraph before a table or at the end).
    private func keepAlone(_ chunk: Chunk) -> Chunk? {
        if Self.isEmptyParagraph(chunk.block) { return nil }
        var c = chunk
        c.block = clearMark(c.block)
        return c
    }

    // MARK: Inlines

    /// Resolves changes in inline content.
    public func resolve(_ inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        for inline in inlines {
            switch inline {
            case .insertion(let ch, let c):
                switch decide(.insertion, ch) {
                case .accept: out += resolve(c)
                case .reject: out += anchors(in: c)
                case .keep: out.append(.insertion(ch, resolve(c)))
                }
            case .deletion(let ch, let c):
                switch decide(.deletion, ch) {
                case .accept: out += anchors(in: c)
                case .reject: out += resolve(c)
                case .keep: out.append(.deletion(ch, resolve(c)))
                }
            case .substitution(let ch, let d, let i):
                switch (decide(.deletion, ch), decide(.insertion, ch)) {
                case (.keep, .keep): out.append(.substitution(ch, deleted: resolve(d), inserted: resolve(i)))
                case (let dd, let di):
                    switch dd {
                    case .accept: out += anchors(in: d)
                    case .reject: out += resolve(d)
                    case .keep: out.append(.deletion(ch, resolve(d)))
                    }
                    switch di {
                    case .accept: out += resolve(i)
                    case .reject: out += anchors(in: i)
                    case .keep: out.append(.insertion(ch, resolve(i)))
                    }
                }
            case .move(let m, let c):
                switch decide(.move, m.change) {
                case .keep: out.append(.move(m, resolve(c)))
                case let d: out += (m.side == .to) == (d == .accept) ? resolve(c) : anchors(in: c)
                }
            case .formatChange(let f, let c):
                switch decide(.formatting, f.change) {
                case .accept: out += resolve(c)
                case .keep: out.append(.formatChange(f, resolve(c)))
                case .reject:
                    let runs = resolve(c).runs.map { r -> Run in var r = r; r.format = f.old; return r }
                    out += InlineBuilder.inlines(from: runs)
                }
            default:
                out.append(inline.mapChildren(resolve))
            }
        }
        return InlineBuilder.normalized(out)
    }

    /// The comment anchors inside removed content, so their comments keep a place.
    private func anchors(in inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        for i in inlines {
            switch i {
            case .commentStart, .commentEnd, .commentPoint: out.append(i)
            default: out += anchors(in: i.children)
            }
        }
        return out
    }
}

/// Removes comments: every comment, or those `review` does not keep (with their replies). Their anchors
/// go from the text and their bodies from the side table. A paragraph that held nothing but removed
/// comment anchors goes too (top level and nested), unless it or the paragraph before it carries a
/// paragraph mark change (removing it would change what that mark joins).
public struct DropComments: ChunkStage {
    /// The last top-level block was a paragraph or heading with a mark change.
    private var previousHadMark = false
    /// nil: every comment goes; else the comments `keeps` returns false for.
    private let review: ReviewOptions?
    /// Ids of removed comments seen so far (their anchors may come in later chunks).
    private var dropped: Set<String> = []

    /// Removes every comment.
    public init() { review = nil }

    /// Removes the comments `review` does not keep (policy, drop filters, `kind=comment` filters).
    public init(_ review: ReviewOptions) { self.review = review }

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        guard let review else { try emitStripped(chunk, remove: { _ in true }, emit: emit); return }
        var c = chunk
        var kept: [Comment] = []
        for comment in c.comments {
            if let parent = comment.parentID, dropped.contains(parent) { dropped.insert(comment.id); continue }
            if review.keeps(comment) { kept.append(comment) } else { dropped.insert(comment.id) }
        }
        c.comments = kept
        let gone = dropped
        try emitStripped(c, remove: { gone.contains($0) }, emit: emit)
    }

    private mutating func emitStripped(_ chunk: Chunk, remove: (String) -> Bool,
                                       emit: (Chunk) throws -> Void) throws {
        var c = chunk
        if review == nil { c.comments = [] }
        let stripped = Self.strip(c.block, remove)
        c.notes = c.notes.map { var n = $0; n.blocks = Self.strip(n.blocks, remove); return n }
        let emptied = Self.becameEmpty(c.block, stripped, afterMark: previousHadMark)
        previousHadMark = stripped.paragraph?.markChange != nil
        if emptied && c.notes.isEmpty { return }
        c.block = stripped
        try emit(c)
    }

    static func strip(_ block: Block, _ remove: (String) -> Bool) -> Block {
        switch block {
        case .paragraph(var p): p.content = strip(p.content, remove); return .paragraph(p)
        case .heading(let l, var p): p.content = strip(p.content, remove); return .heading(level: l, p)
        default: return block.mapBlockArrays { strip($0, remove) }
        }
    }

    /// Stripped blocks, without the paragraphs that held only removed comment anchors.
    static func strip(_ blocks: [Block], _ remove: (String) -> Bool) -> [Block] {
        var out: [Block] = []
        var afterMark = false
        for b in blocks {
            let s = strip(b, remove)
            if !becameEmpty(b, s, afterMark: afterMark) { out.append(s) }
            afterMark = s.paragraph?.markChange != nil
        }
        return out
    }

    /// True for a plain paragraph that had content and has none left without its comment anchors.
    private static func becameEmpty(_ original: Block, _ stripped: Block, afterMark: Bool) -> Bool {
        guard case .paragraph(let before) = original, case .paragraph(let after) = stripped else { return false }
        return !before.content.isEmpty && after.content.isEmpty && after.markChange == nil && after.styleChange == nil && !afterMark
    }

    static func strip(_ inlines: [Inline], _ remove: (String) -> Bool) -> [Inline] {
        InlineBuilder.normalized(inlines.compactMap { i -> Inline? in
            switch i {
            case .commentStart(let id), .commentEnd(let id), .commentPoint(let id): return remove(id) ? nil : i
            default: return i.mapChildren { strip($0, remove) }
            }
        })
    }
}

/// What to do with tracked changes.
public enum ChangeMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Keep every change as a change (the marked version).
    case marked
    /// Accept all changes (the clean version).
    case accept
    /// Reject all changes (the original version).
    case reject
}

/// Accepts or rejects every tracked change: text insertions, deletions, substitutions, moves, formatting
/// changes, paragraph-mark insertions and deletions (merging paragraphs), paragraph-style changes and
/// table-row insertions and deletions, also inside comment bodies and notes.
/// Comment anchors inside removed text are kept, so no comment loses its place.
public struct ReviewTransform: ChunkStage {
    public let mode: ChangeMode
    /// A top-level paragraph whose break goes away, waiting for the block it merges into.
    private var pending: Chunk?

    public init(_ mode: ChangeMode) { self.mode = mode }

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        guard mode != .marked else { try emit(chunk); return }
        var c = chunk
        c.comments = c.comments.map { var m = $0; m.body = resolve(m.body); return m }
        c.notes = c.notes.map { var n = $0; n.blocks = resolve(n.blocks); return n }
        c.block = resolveOne(c.block)
        if let p = pending {
            pending = nil
            if let merged = merge(p.block, into: c.block) {
                c.block = merged
                c.comments = p.comments + c.comments
                c.notes = p.notes + c.notes
            } else {
                try emit(keepAlone(p))
            }
        }
        if mergesWithNext(c.block) { pending = c } else { try emit(c) }
    }

    public mutating func finish(emit: (Chunk) throws -> Void) throws {
        if let p = pending {
            pending = nil
            try emit(keepAlone(p))
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
                if let m = merge(c, into: block) { block = m } else { out.append(clearMark(c)) }
            }
            if mergesWithNext(block) { carry = block } else { out.append(block) }
        }
        if let c = carry { out.append(clearMark(c)) }
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
                switch (row.change, mode) {
                case (.inserted?, .reject), (.deleted?, .accept): continue
                default: break
                }
                row.change = nil
                row.cells = row.cells.map { var c = $0; c.blocks = resolve(c.blocks); return c }
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
        switch (p.markChange, mode) {
        case (.inserted?, .accept), (.deleted?, .reject): p.markChange = nil
        default: break
        }
        if let sc = p.styleChange {
            if mode == .reject { p.style = sc.old }
            p.styleChange = nil
        }
        return p
    }

    private func mergesWithNext(_ block: Block) -> Bool {
        switch (block.paragraph?.markChange, mode) {
        case (.deleted?, .accept), (.inserted?, .reject): return true
        default: return false
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

    private func clearMark(_ block: Block) -> Block {
        switch block {
        case .paragraph(var p): p.markChange = nil; return .paragraph(p)
        case .heading(let l, var p): p.markChange = nil; return .heading(level: l, p)
        default: return block
        }
    }

    private func keepAlone(_ chunk: Chunk) -> Chunk {
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
            case .insertion(_, let c): out += mode == .accept ? resolve(c) : anchors(in: c)
            case .deletion(_, let c): out += mode == .reject ? resolve(c) : anchors(in: c)
            case .substitution(_, let d, let i):
                out += mode == .accept ? anchors(in: d) + resolve(i) : resolve(d) + anchors(in: i)
            case .move(let m, let c):
                let keep = (m.side == .to) == (mode == .accept)
                out += keep ? resolve(c) : anchors(in: c)
            case .formatChange(let f, let c):
                if mode == .accept {
                    out += resolve(c)
                } else {
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

/// Removes every comment: anchors from the text and bodies from the side table. A paragraph that held
/// nothing but comment anchors goes too (top level and nested), unless it or the paragraph before it
/// carries a paragraph mark change (removing it would change what that mark joins).
public struct DropComments: ChunkStage {
    /// The last top-level block was a paragraph or heading with a mark change.
    private var previousHadMark = false

    public init() {}

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        var c = chunk
        c.comments = []
        let stripped = Self.strip(c.block)
        c.notes = c.notes.map { var n = $0; n.blocks = Self.strip(n.blocks); return n }
        let emptied = Self.becameEmpty(c.block, stripped, afterMark: previousHadMark)
        previousHadMark = stripped.paragraph?.markChange != nil
        if emptied && c.notes.isEmpty { return }
        c.block = stripped
        try emit(c)
    }

    static func strip(_ block: Block) -> Block {
        switch block {
        case .paragraph(var p): p.content = strip(p.content); return .paragraph(p)
        case .heading(let l, var p): p.content = strip(p.content); return .heading(level: l, p)
        default: return block.mapBlockArrays(strip)
        }
    }

    /// Stripped blocks, without the paragraphs that held only comment anchors.
    static func strip(_ blocks: [Block]) -> [Block] {
        var out: [Block] = []
        var afterMark = false
        for b in blocks {
            let s = strip(b)
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

    static func strip(_ inlines: [Inline]) -> [Inline] {
        InlineBuilder.normalized(inlines.compactMap { i -> Inline? in
            switch i {
            case .commentStart, .commentEnd, .commentPoint: return nil
            default: return i.mapChildren(strip)
            }
        })
    }
}

import RedlineCore

/// Containers: paired tables, quotes and lists compared by their rows, stories and items.
extension StoryComparer {
    mutating func compareContainer(_ old: Block, _ new: Block) -> [Block] {
        switch (old, new) {
        case (.table(let a), .table(let b)):
            if !options.compareTables && Self.cellTexts(a) == Self.cellTexts(b) { return [new] }
            return [compareTable(a, b)]
        case (.blockQuote(let a), .blockQuote(let b)): return [.blockQuote(compareQuoted(a, b))]
        case (.list(let a), .list(let b)): return [compareList(a, b)]
        case (.codeBlock(let a), .codeBlock(let b)): return compareCode(a, b)
        default:
            if Self.strippingComments(old) != Self.strippingComments(new) {
                diagnostics.report(.compareUntrackedBlock,
                                   "a changed \(Self.kindName(new)) block cannot carry tracked changes: the new version is kept unmarked")
            }
            return [new]
        }
    }

    /// A table's text, row by row and cell by cell (what `CompareOptions.compareTables` off compares).
    static func cellTexts(_ t: Table) -> [[String]] {
        t.rows.map { $0.cells.map { $0.blocks.map(\.plainText).joined(separator: "\n") } }
    }

    /// The stories of two paired quotes compared. An empty one (a lone `>`) is taken as one empty paragraph:
    /// otherwise the other side's last break is wholly inserted (deleted), and rejecting (accepting) removes the
    /// emptied quote where OLD (NEW) has it empty.
    private mutating func compareQuoted(_ old: [Block], _ new: [Block]) -> [Block] {
        let standIn = [Block.paragraph(Paragraph([]))]
        switch (old.isEmpty, new.isEmpty) {
        case (true, false): return compare(standIn, new)
        case (false, true): return compare(old, standIn)
        default: return compare(old, new)
        }
    }

    /// Whether a list item is an empty one: no blocks, or only empty paragraphs (what the Markdown reader gives
    /// for a bare `-`, depending on the items around it).
    static func isEmptyItem(_ item: [Block]) -> Bool {
        item.allSatisfy { if case .paragraph(let p) = $0 { return p.content.isEmpty } else { return false } }
    }

    private mutating func compareList(_ a: List, _ b: List) -> Block {
        if a.kind != b.kind {
            // Only a list's items carry marks: a new start number or delimiter cannot be tracked.
            diagnostics.report(.compareUntrackedBlock,
                               "a list's numbering changed (\(Self.numbering(a.kind)) → \(Self.numbering(b.kind))): the new numbering is kept unmarked")
        }
        var l = b
        // An empty item (no blocks, or only empty paragraphs: one item either way) pairs only with an empty one,
        // and is kept as NEW has it. Paired with an item that has text, rejecting would give OLD's empty item
        // holding NEW's comments, which cannot be told from NEW's inserted item kept for its comments (the
        // exactness check drops such an item); deleted and inserted whole, each side's item stays its own.
        l.items = pairUp(a.items, b.items,
                         key: { s, item in s.keys.key(.blockQuote(Self.isEmptyItem(item) ? [] : item.map(Self.strippingComments))) },
                         pairs: { x, y in Self.isEmptyItem(x) == Self.isEmptyItem(y) },
                         paired: { s, x, y in Self.isEmptyItem(y) ? y : s.compare(x, y) },
                         deleted: { s, x in s.markedStory(x, inserted: false, wholeContainer: true) },
                         inserted: { s, y in s.markedStory(y, inserted: true, wholeContainer: true) })
        return .list(l)
    }

    private mutating func compareTable(_ a: Table, _ b: Table) -> Block {
        var t = b
        // Columns (their number and alignments) carry no change mark: NEW's are kept, and said.
        if a.columns.count != b.columns.count {
            diagnostics.report(.compareTableColumns, "a table's columns changed: the new columns are kept")
        } else if a.columns != b.columns {
            diagnostics.report(.compareTableColumns, "a table's column alignments changed: the new alignments are kept (no change mark carries them)")
        }
        let ka = a.rows.map { keys.key(.table(Table(columns: [], headerRowCount: 0, rows: [Self.stripRow($0)]))) }
        let kb = b.rows.map { keys.key(.table(Table(columns: [], headerRowCount: 0, rows: [Self.stripRow($0)]))) }
        // The result's first rows are its header rows, and review keeps as header rows those of them that stay:
        // exact when some first rows hold OLD's header rows and NEW's and no others. The rows aligned as a whole
        // leave no such place when an equal row changed sides (OLD's body row is NEW's header row) or NEW's
        // header rows, inserted, come after OLD's deleted ones (columns changed, so no row pairs): then header
        // rows are aligned with header rows and body rows with body rows.
        var plan = Self.rowPlan(ka[...], kb[...], a.rows, b.rows)
        var header = Self.headerEdge(plan, old: a.headerRowCount, new: b.headerRowCount)
        if header == nil {
            let ha = min(a.headerRowCount, a.rows.count), hb = min(b.headerRowCount, b.rows.count)
            let split = Self.rowPlan(ka[..<ha], kb[..<hb], a.rows, b.rows) + Self.rowPlan(ka[ha...], kb[hb...], a.rows, b.rows)
            if let edge = Self.headerEdge(split, old: a.headerRowCount, new: b.headerRowCount) { plan = split; header = edge }
        }
        t.rows = plan.map { step in
            switch step {
            case .paired(let i, let j):
                var row = b.rows[j]
                for c in row.cells.indices { row.cells[c].blocks = compare(a.rows[i].cells[c].blocks, row.cells[c].blocks) }
                return row
            case .deleted(let i):
                var row = a.rows[i]
                for c in row.cells.indices { row.cells[c].blocks = markedStory(row.cells[c].blocks, inserted: false) }
                row.change = .deleted(change); stats.rowChanges += 1
                return row
            case .inserted(let j):
                var row = b.rows[j]
                for c in row.cells.indices { row.cells[c].blocks = markedStory(row.cells[c].blocks, inserted: true) }
                row.change = .inserted(change); stats.rowChanges += 1
                return row
            }
        }
        t.headerRowCount = header ?? b.headerRowCount
        return .table(t)
    }

    /// How many first rows of `plan` hold exactly OLD's `old` header rows and NEW's `new` (0 when neither
    /// table has any), or nil when no first rows do.
    private static func headerEdge(_ plan: [RowStep], old: Int, new: Int) -> Int? {
        if old == 0 && new == 0 { return 0 }
        var acceptCount = 0, rejectCount = 0
        for (idx, step) in plan.enumerated() {
            if case .deleted = step {} else { acceptCount += 1 }
            if case .inserted = step {} else { rejectCount += 1 }
            if acceptCount == new && rejectCount == old { return idx + 1 }
        }
        return nil
    }

    /// One row of a compared table: OLD's row `i` paired with NEW's row `j`, deleted or inserted.
    private enum RowStep { case paired(Int, Int), deleted(Int), inserted(Int) }

    /// Rows of two ranges aligned (indices into OLD's and NEW's rows): equal rows by LCS of their keys, the
    /// rows between paired in order while they have as many cells, the rest deleted, then inserted.
    private static func rowPlan(_ ka: ArraySlice<Int>, _ kb: ArraySlice<Int>, _ a: [TableRow], _ b: [TableRow]) -> [RowStep] {
        let m = SequenceDiff.matches(Array(ka), Array(kb), cap: 256)
        var out: [RowStep] = []
        var pa = ka.startIndex, pb = kb.startIndex
        func gap(_ i: Int, _ j: Int) {
            while pa < i && pb < j && a[pa].cells.count == b[pb].cells.count { out.append(.paired(pa, pb)); pa += 1; pb += 1 }
            while pa < i { out.append(.deleted(pa)); pa += 1 }
            while pb < j { out.append(.inserted(pb)); pb += 1 }
        }
        for (i, j) in m {
            gap(ka.startIndex + i, kb.startIndex + j)
            out.append(.paired(ka.startIndex + i, kb.startIndex + j))
            pa = ka.startIndex + i + 1; pb = kb.startIndex + j + 1
        }
        gap(ka.endIndex, kb.endIndex)
        return out
    }

    private static func stripRow(_ r: TableRow) -> TableRow {
        var r = r
        for c in r.cells.indices { r.cells[c].blocks = r.cells[c].blocks.map(strippingComments) }
        return r
    }

    /// Aligns two arrays of stories (list items): equal ones by LCS, the others in order, paired where `pairs`
    /// allows, else the old one deleted and the new one inserted.
    private mutating func pairUp(_ a: [[Block]], _ b: [[Block]],
                                 key: (inout StoryComparer, [Block]) -> Int,
                                 pairs: ([Block], [Block]) -> Bool,
                                 paired: (inout StoryComparer, [Block], [Block]) -> [Block],
                                 deleted: (inout StoryComparer, [Block]) -> [Block],
                                 inserted: (inout StoryComparer, [Block]) -> [Block]) -> [[Block]] {
        var ka: [Int] = [], kb: [Int] = []
        for x in a { ka.append(key(&self, x)) }
        for y in b { kb.append(key(&self, y)) }
        let m = SequenceDiff.matches(ka, kb, cap: 256)
        var out: [[Block]] = []
        var pa = 0, pb = 0
        func gap(_ s: inout StoryComparer, _ i: Int, _ j: Int) {
            while pa < i && pb < j {
                if pairs(a[pa], b[pb]) {
                    out.append(paired(&s, a[pa], b[pb]))
                } else {
                    out.append(deleted(&s, a[pa]))
                    out.append(inserted(&s, b[pb]))
                }
                pa += 1; pb += 1
            }
            while pa < i { out.append(deleted(&s, a[pa])); pa += 1 }
            while pb < j { out.append(inserted(&s, b[pb])); pb += 1 }
        }
        for (i, j) in m {
            gap(&self, i, j)
            out.append(paired(&self, a[i], b[j]))
            pa = i + 1; pb = j + 1
        }
        gap(&self, a.count, b.count)
        return out
    }
}

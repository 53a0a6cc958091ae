import Foundation
import RedlineCore

/// A finished RTF paragraph and what decides where it goes: a heading level, a list, a table depth,
/// or a special kind recognised by its style name (code, quotation, rule).
struct ParagraphEvent {
    var paragraph: Paragraph
    var headingLevel: Int?
    var list: ListPlacement?
    var tableDepth: Int
    var special: SpecialParagraph?
}

/// A paragraph's place in a list.
struct ListPlacement {
    /// Which list (the `\ls` number, or a key for legacy `\pn` numbering).
    var key: Int
    var level: Int
    var kind: ListKind
    /// A further paragraph of the same item (no `\listtext` where the list otherwise has one).
    var continuation: Bool

    /// The key of a "List Continue" paragraph, which continues whatever list is open.
    static let continueOpenList = Int.min

    /// The level a "List Continue", "List Continue 2"... style name stands for.
    static func continuationLevel(styleName: String?) -> Int? {
        guard let n = styleName, n.hasPrefix("List Continue") else { return nil }
        let rest = n.dropFirst("List Continue".count).trimmingCharacters(in: .whitespaces)
        if rest.isEmpty { return 0 }
        guard let v = Int(rest), (2...9).contains(v) else { return nil }
        return v - 1
    }
}

/// Paragraph styles that stand for Markdown-like blocks (`BlockStyleRole`, by exact name).
typealias SpecialParagraph = BlockStyleRole

/// Turns a sequence of paragraphs into blocks: list paragraphs into nested lists, quotation paragraphs into a
/// block quote (the nesting is `ListNesting`'s; where a paragraph goes is decided here). Finished blocks wait
/// in `blocks` for the owner to take them.
struct BlockCollector {
    private var nesting = ListNesting<Int>()

    /// Finished blocks, until taken.
    var blocks: [Block] { nesting.finished }

    mutating func add(_ e: ParagraphEvent) {
        let block: Block = e.headingLevel.map { .heading(level: $0, e.paragraph) } ?? .paragraph(e.paragraph)
        if let l = e.list {
            nesting.closeQuote()
            addListItem(block, l)
            return
        }
        nesting.closeAllLists()
        switch e.special {
        case .code?:
            nesting.closeQuote()
            var text = ""
            for inline in e.paragraph.content {
                switch inline {
                case .lineBreak: text += "\n"
                default: text += [inline].plainText
                }
            }
            nesting.emit(.codeBlock(CodeBlock(text: text + "\n")))
        case .quote?:
            var p = e.paragraph
            p.style.name = nil
            nesting.openQuote()
            nesting.emit(e.headingLevel.map { .heading(level: $0, p) } ?? .paragraph(p))
        case .rule?:
            nesting.closeQuote()
            nesting.emit(.thematicBreak)
        case nil:
            nesting.closeQuote()
            // A raw block shown in its style (`RawStyles`).
            nesting.emit(e.headingLevel == nil && e.paragraph.style.name != nil ? RawStyles.block(e.paragraph) ?? block : block)
        }
    }

    /// Adds a block that is not a paragraph (a table): ends open lists and quotes first.
    mutating func add(block: Block) {
        nesting.closeAll()
        nesting.emit(block)
    }

    /// Ends open lists and quotes.
    mutating func close() {
        nesting.closeAll()
    }

    /// Takes the finished blocks.
    mutating func take() -> [Block] {
        nesting.take()
    }

    /// Ends an open quotation (an empty paragraph separates adjacent ones).
    mutating func closeQuote() {
        nesting.closeQuote()
    }

    private mutating func addListItem(_ block: Block, _ p: ListPlacement) {
        if p.key == ListPlacement.continueOpenList {
            // A "List Continue" paragraph: a further paragraph of the open item at its level.
            guard nesting.depth > 0 else { nesting.emit(block); return }
            nesting.closeLists(deeperThan: p.level, keepingOutermost: true)
            nesting.continueItem(block)
            return
        }
        if nesting.depth > 0, nesting.frame(at: 0).key != p.key, p.level <= nesting.frame(at: 0).level {
            nesting.closeAllLists()
        }
        nesting.closeLists(deeperThan: p.level, keepingOutermost: true)
        guard let top = nesting.innermost else {
            startList(block, p, after: -1)
            return
        }
        if p.continuation, top.itemCount > 0 {
            nesting.continueItem(block)
        } else if p.level > top.level {
            startList(block, p, after: top.level)
        } else if top.kind != p.kind && nesting.depth == 1 {
            nesting.closeAllLists()
            nesting.startList(key: p.key, level: p.level, kind: p.kind, item: block)
        } else {
            nesting.addItem(block)
        }
    }

    /// A list at `p`'s level inside the list at level `after` (-1: none open); the levels between, skipped
    /// (level 0, then 2; or a list that starts at level 1), are items holding only the deeper list, so the
    /// paragraph keeps its depth, as the DOCX reader reads Word's levels.
    private mutating func startList(_ block: Block, _ p: ListPlacement, after: Int) {
        if p.level > after + 1 {
            for skipped in after + 1 ..< p.level {
                nesting.startSkippedLevel(key: p.key, level: skipped, kind: p.kind)
            }
        }
        nesting.startList(key: p.key, level: p.level, kind: p.kind, item: block)
    }
}

/// One cell definition of a table row (`\clvmgf`... `\cellxN`).
struct CellDefinition {
    /// Right boundary in twips.
    var right: Int
    var mergeFirst = false, mergeContinue = false, verticalFirst = false, verticalContinue = false
    /// Redline's cell change words (`\rltclins`/`\rltcldel`, `\rltclauth`, `\rltcldttm`), and the change they make.
    var changeInserted: Bool?
    var changeAuthor = -1, changeDate = 0
    var change: RowChange?
}

/// A row's definition: its cells and whether it is a header row.
struct RowDefinition {
    var cells: [CellDefinition] = []
    var header = false
    /// `\rltrmarked`: the row's insertion (deletion) is written as its cells' text wholly inserted (deleted).
    var changeInCells = false
    /// Merge flags collected for the next `\cellx`.
    var pending = CellDefinition(right: 0)

    /// `\cellxN`: the pending definition ends at `right`.
    mutating func appendCell(right: Int) {
        var c = pending
        c.right = right
        cells.append(c)
        pending = CellDefinition(right: 0)
    }
}

/// A table being read: finished rows, the cells of the current row, and the blocks of the current cell.
struct OpenTable {
    var rows: [(cells: [[Block]], definition: RowDefinition)] = []
    var cells: [[Block]] = []
    var current = BlockCollector()
    var currentHasContent = false

    mutating func endCell() {
        current.close()
        cells.append(current.take())
        currentHasContent = false
    }

    mutating func endRow(_ definition: RowDefinition) {
        if currentHasContent { endCell() }
        rows.append((cells, definition))
        cells = []
    }

    /// The table, with column spans from the cell boundaries, row spans from vertical merges, and column
    /// alignments where every cell of a column agrees.
    mutating func build() -> Table {
        if currentHasContent { endCell() }
        if !cells.isEmpty { endRow(RowDefinition()) }
        // The grid: every right boundary any row uses.
        var boundaries = Set<Int>()
        for r in rows { for c in r.definition.cells { boundaries.insert(c.right) } }
        let grid = boundaries.sorted()
        var outRows: [TableRow] = []
        var vertical: [Int: (row: Int, cell: Int)] = [:]  // grid column → cell that a vertical merge extends
        var columnCount = grid.count
        for r in rows {
            var row = TableRow([])
            var column = 0
            var previousRight = Int.min
            for (i, blocks) in r.cells.enumerated() {
                var span = 1
                var def: CellDefinition?
                if i < r.definition.cells.count {
                    let d = r.definition.cells[i]
                    def = d
                    if !grid.isEmpty {
                        // The grid is sorted: two binary searches (a scan per cell was quadratic in a wide row).
                        let start = Self.firstIndex(in: grid, above: previousRight)
                        span = max(1, Self.firstIndex(in: grid, above: d.right) - start)
                        if start < grid.count { column = start }
                    }
                    previousRight = d.right
                }
                if let d = def, d.mergeContinue, !row.cells.isEmpty {
                    row.cells[row.cells.count - 1].columnSpan += span
                    row.cells[row.cells.count - 1].blocks += blocks
                    column += span
                    continue
                }
                // Only a cell of an earlier row can be extended: definitions out of order (`\cellx` values
                // that go back, as when `\trowd` is missing) can bring a row back to a column it opened itself.
                if let d = def, d.verticalContinue, let anchor = vertical[column], anchor.row < outRows.count {
                    outRows[anchor.row].cells[anchor.cell].rowSpan += 1
                    column += span
                    continue
                }
                if let d = def, d.verticalFirst { vertical[column] = (outRows.count, row.cells.count) } else { vertical[column] = nil }
                row.cells.append(TableCell(blocks, columnSpan: span, change: def?.change))
                column += span
            }
            columnCount = max(columnCount, row.cells.reduce(0) { $0 + $1.columnSpan })
            // A row Redline wrote with its row change in its cells' text: the row's change again.
            if r.definition.changeInCells { row = TableRowChanges.unmarked(row) }
            outRows.append(row)
        }
        var widths: [Double]?
        if grid.count == columnCount, !grid.isEmpty {
            var w: [Double] = []
            var left = 0
            for b in grid { w.append(Double(b - left) / 20); left = b }
            widths = w
        }
        let headers = rows.prefix { $0.definition.header }.count
        var table = Table(columns: Array(repeating: .none, count: columnCount), columnWidths: widths,
                          headerRowCount: headers, rows: outRows)
        table.inferColumnAlignments()
        return table
    }

    /// The index of the first element of the sorted `grid` greater than `value` (`grid.count` if none).
    static func firstIndex(in grid: [Int], above value: Int) -> Int {
        var low = 0, high = grid.count
        while low < high {
            let mid = (low + high) / 2
            if grid[mid] > value { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

import RedlineCore

/// Tables GFM's pipe form cannot hold (a cell of several blocks, a list or code in a cell, a line break, a
/// merged cell) are written as pandoc's grid tables (`GridTables`), unless the format keeps to pipe tables
/// (`gfm`). A grid table is written only when it reads back with the same layout; otherwise the pipe form
/// and its warnings.
extension MarkdownRenderer {
    /// Whether `t` needs the grid form.
    static func needsGridForm(_ t: Table) -> Bool {
        func hasBreak(_ xs: [Inline]) -> Bool {
            xs.contains { if case .lineBreak = $0 { return true }; return hasBreak($0.children) }
        }
        for row in t.rows {
            for cell in row.cells {
                if cell.columnSpan > 1 || cell.rowSpan > 1 { return true }
                let blocks = cell.blocks.filter { if case .paragraph(let p) = $0 { return !p.content.isEmpty }; return true }
                if blocks.count > 1 { return true }
                if let b = blocks.first {
                    guard case .paragraph(let p) = b else { return true }
                    if hasBreak(p.content) { return true }
                }
            }
        }
        return false
    }

    /// The grid table's lines for `t` (its row changes already in its cells' text), or nil when it would not
    /// read back with the same layout. `rowMarkers` are written at the start of each row's first cell.
    func gridTable(_ t: Table, columns: Int, rowMarkers: [String]) -> [String]? {
        // Each cell's place: the columns no row span from above covers, in order.
        var placed: [GridTables.Placed] = []
        var covered = [Int](repeating: 0, count: columns)  // per column: rows still covered from above
        for (r, row) in t.rows.enumerated() {
            var column = 0
            var first = true
            func skipCovered() {
                while column < covered.count, covered[column] > 0 { covered[column] -= 1; column += 1 }
            }
            skipCovered()
            for cell in row.cells {
                let span = max(1, cell.columnSpan), height = min(max(1, cell.rowSpan), t.rows.count - r)
                guard column + span <= columns else { return nil }
                for k in column..<(column + span) { covered[k] = height - 1 }
                let lines = gridCell(cell, marker: first ? rowMarkers[r] : "")
                placed.append(GridTables.Placed(row: r, column: column, rowSpan: height, columnSpan: span, lines: lines))
                first = false
                column += span
                skipCovered()
            }
            // The rest of the row: empty cells where nothing covers it.
            while column < columns {
                if covered[column] > 0 { covered[column] -= 1 } else {
                    placed.append(GridTables.Placed(row: r, column: column, rowSpan: 1, columnSpan: 1, lines: []))
                }
                column += 1
            }
        }
        var alignments = Array(t.columns.prefix(columns))
        while alignments.count < columns { alignments.append(.none) }
        // A change spanning a cell's lines must enclose, in the source, no other cell's marks: such a table
        // gives each cell lines of its own.
        let delimiters = ["{++", "{--", "{~~", "{==", "{>>", "++}", "--}", "~~}", "==}", "<<}"]
        let stagger = placed.contains { c in c.lines.count > 1 && c.lines.contains { l in delimiters.contains { l.contains($0) } } }
        let lines = GridTables.write(placed, rows: t.rows.count, headerRows: min(t.headerRowCount, t.rows.count),
                                     alignments: alignments, stagger: stagger)
        return readsBack(lines, placed, rows: t.rows.count, columns: columns) ? lines : nil
    }

    /// A cell's lines: its blocks as Markdown (the cell's change around each paragraph's text, as in the pipe
    /// form), `marker` and the cell's own change marker first.
    private func gridCell(_ cell: TableCell, marker: String) -> [String] {
        var marker = marker
        var blocks = cell.blocks
        let marks = options.criticMarkup && !inCommentBody
        if let change = cell.change {
            if marks {
                marker += Self.attribution(change, of: "cell")
                let ch = change.change
                for k in blocks.indices {
                    guard case .paragraph(var p) = blocks[k], !p.content.isEmpty, !p.content.contains(where: Self.isChangeInline) else { continue }
                    p.content = change.isInsertion ? [.insertion(ch, p.content)] : [.deletion(ch, p.content)]
                    blocks[k] = .paragraph(p)
                }
            } else {
                loss(.lossyTableCellChange, "tracked cell insertions and deletions were written as changes of the cells' text (the cells themselves stay)")
            }
        }
        // The cells' paragraph styles: the table's div carries the common one, the others were reported lost.
        for k in blocks.indices {
            if case .paragraph(var p) = blocks[k] { p.style = ParagraphStyle(); blocks[k] = .paragraph(p) }
        }
        // The last paragraph's break is the cell's end, which no change moves (as in the pipe form and in Word).
        if case .paragraph(var p)? = blocks.last { p.markChange = nil; blocks[blocks.count - 1] = .paragraph(p) }
        gridDepth += 1
        containerDepth += 1
        let text = sequence(blocks, tight: false, endsCell: true)
        containerDepth -= 1
        gridDepth -= 1
        var lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !marker.isEmpty {
            if case .paragraph? = blocks.first, !lines.isEmpty {
                lines[0] = marker + lines[0]
            } else {
                lines = [marker] + (lines.isEmpty ? [] : [""] + lines)
            }
        }
        return lines
    }

    static func isChangeInline(_ i: Inline) -> Bool {
        switch i {
        case .insertion, .deletion, .substitution, .move: return true
        default: return i.children.contains(where: isChangeInline)
        }
    }

    /// Whether `lines` read back (CriticMarkup pass included) as a grid table with `placed`'s layout.
    private func readsBack(_ lines: [String], _ placed: [GridTables.Placed], rows: Int, columns: Int) -> Bool {
        let bytes = Array(lines.joined(separator: "\n").utf8)
        var scanner = CriticScanner(bytes, diagnostics: Diagnostics())
        guard (try? scanner.scan()) != nil else { return false }
        let context = CriticContext(source: bytes, scanner: scanner, diagnostics: Diagnostics())
        let text = scanner.output
        var ranges: [Range<Int>] = []
        var start = 0
        for (k, b) in text.enumerated() where b == UInt8(ascii: "\n") { ranges.append(start..<k); start = k + 1 }
        ranges.append(start..<text.count)
        guard ranges.count == lines.count,
              let layout = GridTables.read(text, lines: ranges, context: context),
              layout.rowCount == rows, layout.columnCount == columns, layout.cells.count == placed.count else { return false }
        let expected = placed.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
        for (a, b) in zip(layout.cells, expected) {
            guard a.row == b.row, a.column == b.column, a.rowSpan == b.rowSpan, a.columnSpan == b.columnSpan else { return false }
        }
        return true
    }
}

extension MarkdownRenderer {
    /// `{>>@Ann (date) [row-inserted]<<}`: a row's or cell's (`what`) change, at the start of its (first) cell.
    static func attribution(_ change: RowChange, of what: String) -> String {
        let key = what + (change.isInsertion ? "-inserted" : "-deleted")
        return "{>>" + CommentText.header(author: change.change.author, date: change.change.date, attributes: [AttributeToken(key)]) + "<<}"
    }
}

extension RowChange {
    var isInsertion: Bool { if case .inserted = self { return true }; return false }
    /// The change itself (its author and date).
    var change: Change {
        switch self {
        case .inserted(let c), .deleted(let c): return c
        }
    }
}

extension Table {
    /// Moves a paragraph alignment shared by a whole column onto the column (`columns[c]`), and takes it off
    /// the column's paragraphs: a source that aligns each cell's paragraphs (DOCX, RTF) then reads as a
    /// table with aligned columns, as Markdown writes it, and the DOCX and RTF writers align the column's
    /// paragraphs again. The readers whose formats align paragraphs, not columns, call it on each table.
    ///
    /// Only cells spanning one column count, at the grid column they stand in (the columns a cell spanning
    /// rows from above covers are skipped, as the writers lay rows out); cells spanning several columns
    /// keep their alignment. A column is aligned when every paragraph and heading of its cells is left-,
    /// centre- or right-aligned alike, none with a tracked formatting change (`styleChange`: its old
    /// formatting would no longer compare with the new). Nested tables do not count (they carry their own
    /// column alignment, and the writers do not pass the outer one into them); a column holding any other
    /// block (a list, a quote, a code block...) keeps its paragraphs as they are: the writers would align
    /// that block's paragraphs with the column too.
    /// One pass over the cells to decide, one over the aligned columns' cells to strip.
    public mutating func inferColumnAlignments() {
        let n = columns.count
        guard n > 0 else { return }
        // Per column: nil while no paragraph is seen; `.some(nil)` once it cannot be aligned.
        var shared = [ParagraphAlignment??](repeating: nil, count: n)
        forEachSingleColumnCell { column, cell, _, _ in
            guard shared[column] != .some(nil) else { return }
            for b in cell.blocks {
                if case .table = b { continue }
                guard let p = b.paragraph, p.styleChange == nil, let a = p.style.alignment,
                      a == .left || a == .center || a == .right, shared[column] == nil || shared[column]! == a
                else { shared[column] = .some(nil); return }
                shared[column] = a
            }
        }
        var moved = [Bool](repeating: false, count: n)
        for c in 0..<n {
            switch shared[c] {
            case .left??: columns[c] = .left
            case .center??: columns[c] = .center
            case .right??: columns[c] = .right
            default: continue
            }
            moved[c] = true
        }
        guard moved.contains(true) else { return }
        var stripped = rows
        forEachSingleColumnCell { column, cell, r, i in
            guard moved[column] else { return }
            stripped[r].cells[i].blocks = cell.blocks.map { b in
                switch b {
                case .paragraph(var p): p.style.alignment = nil; return .paragraph(p)
                case .heading(let level, var p): p.style.alignment = nil; return .heading(level: level, p)
                default: return b
                }
            }
        }
        rows = stripped
    }

    /// Calls `body` with each cell spanning one column within `columns`, its grid column, row and index.
    /// A row's cells take, in order, the columns no cell spanning rows from above covers.
    private func forEachSingleColumnCell(_ body: (_ column: Int, _ cell: TableCell, _ row: Int, _ index: Int) -> Void) {
        var covered: [(rows: Int, span: Int)] = Array(repeating: (0, 1), count: columns.count)
        for (r, row) in rows.enumerated() {
            var col = 0
            var i = 0
            while i < row.cells.count {
                if col < covered.count, covered[col].rows > 0 {
                    covered[col].rows -= 1
                    col += covered[col].span
                    continue
                }
                let cell = row.cells[i]
                let span = max(cell.columnSpan, 1)
                if col < covered.count, cell.rowSpan > 1 { covered[col] = (cell.rowSpan - 1, span) }
                if span == 1, col < columns.count { body(col, cell, r, i) }
                col += span
                i += 1
            }
            // Cells spanning rows from above beyond this row's last cell cover their columns in it too.
            while col < covered.count {
                if covered[col].rows > 0 {
                    covered[col].rows -= 1
                    col += covered[col].span
                } else {
                    col += 1
                }
            }
        }
    }
}

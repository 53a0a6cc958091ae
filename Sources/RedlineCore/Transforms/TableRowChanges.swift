/// Table row insertions and deletions in formats with no row change (CriticMarkup, RTF as Redline writes it): a row inserted (deleted)
/// with tracking is written with every cell's text wholly inserted (deleted) by the row's change, and a
/// row read so (every non-empty cell one insertion, or deletion, by one change) is an inserted (deleted)
/// row. Accepting and rejecting then give the same tables either way round: the row, or no row.
public enum TableRowChanges {
    /// `t` with each row change moved into its cells; `lost` counts rows that cannot be written so (no
    /// text in any cell, a cell holding other blocks or changes of its own), which keep their change.
    public static func marked(_ t: Table) -> (table: Table, lost: Int) {
        var t = t
        var lost = 0
        for r in t.rows.indices {
            guard let change = t.rows[r].change else { continue }
            var cells = t.rows[r].cells
            var ok = false
            for c in cells.indices {
                var blocks: [Block] = []
                for b in cells[c].blocks {
                    guard case .paragraph(var p) = b, p.markChange == nil, p.styleChange == nil,
                          !p.content.contains(where: hasChange) else { ok = false; break }
                    if !p.content.isEmpty {
                        switch change {
                        case .inserted(let ch): p.content = [.insertion(ch, p.content)]
                        case .deleted(let ch): p.content = [.deletion(ch, p.content)]
                        }
                        ok = true
                    }
                    blocks.append(.paragraph(p))
                }
                guard blocks.count == cells[c].blocks.count, cells[c].blocks.count <= 1 else { ok = false; break }
                cells[c].blocks = blocks
            }
            if ok {
                t.rows[r].cells = cells
                t.rows[r].change = nil
            } else {
                lost += 1
            }
        }
        return (t, lost)
    }

    /// `t` with each row whose every non-empty cell is one insertion (deletion) of one change read as a row
    /// inserted (deleted) by that change, the cells' text unmarked.
    public static func unmarked(_ t: Table) -> Table {
        var t = t
        for r in t.rows.indices { t.rows[r] = unmarked(t.rows[r]) }
        return t
    }

    /// One row so (`unmarked(_: Table)`): the row unchanged unless its every non-empty cell is one insertion
    /// (deletion) of one change. The RTF reader asks it only of rows Redline's writer flagged (`\rltrmarked`).
    public static func unmarked(_ row: TableRow) -> TableRow {
        var t = Table(columns: [], headerRowCount: 0, rows: [row])
        for r in t.rows.indices where t.rows[r].change == nil {
            var change: RowChange?
            var uniform = true
            for cell in t.rows[r].cells {
                guard cell.blocks.count <= 1 else { uniform = false; break }
                guard let b = cell.blocks.first else { continue }
                guard case .paragraph(let p) = b, p.content.count == 1 else { uniform = false; break }
                let this: RowChange
                switch p.content[0] {
                case .insertion(let ch, _): this = .inserted(ch)
                case .deletion(let ch, _): this = .deleted(ch)
                default: uniform = false; continue
                }
                if let change, change != this { uniform = false; break }
                change = this
            }
            guard uniform, let change else { continue }
            for c in t.rows[r].cells.indices {
                guard case .paragraph(var p)? = t.rows[r].cells[c].blocks.first else { continue }
                switch p.content[0] {
                case .insertion(_, let x), .deletion(_, let x): p.content = x
                default: break
                }
                t.rows[r].cells[c].blocks = [.paragraph(p)]
            }
            t.rows[r].change = change
        }
        return t.rows[0]
    }

    private static func hasChange(_ i: Inline) -> Bool {
        switch i {
        case .insertion, .deletion, .substitution, .move: return true
        default: return i.children.contains(where: hasChange)
        }
    }
}

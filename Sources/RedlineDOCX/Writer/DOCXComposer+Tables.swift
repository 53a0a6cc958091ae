import RedlineCore

extension DOCXComposer {
    /// A `w:tbl`: grid from the column widths (or equal columns over the text width), header rows repeated
    /// on each page, row insertions and deletions in `w:trPr`, column spans as `w:gridSpan` and row spans as
    /// `w:vMerge` (with the covered cells written as continuations), column alignment on cell paragraphs.
    func table(_ t: Table, _ ctx: Context, into x: inout XMLText) {
        if ctx.story == .body { closePendingMove(into: &x) }
        guard !t.rows.isEmpty else { return }  // Word needs a row in every table; an empty one has no text.
        let columns = t.gridColumnCount
        let widths: [Int]
        if let w = t.columnWidths, w.count == columns {
            widths = w.map { Int(($0 * 20).rounded()) }
        } else {
            widths = Array(repeating: 9360 / columns, count: columns)
        }
        x.open("w:tbl")
        x.open("w:tblPr")
        x.val("w:tblStyle", "TableGrid")
        if t.columnWidths != nil {
            x.empty("w:tblW", [("w:w", String(widths.reduce(0, +))), ("w:type", "dxa")])
        } else {
            x.empty("w:tblW", [("w:w", "5000"), ("w:type", "pct")])
        }
        x.empty("w:tblLook", [("w:val", "04A0"), ("w:firstRow", t.headerRowCount > 0 ? "1" : "0"), ("w:lastRow", "0"),
                              ("w:firstColumn", "0"), ("w:lastColumn", "0"), ("w:noHBand", "0"), ("w:noVBand", "1")])
        x.close("w:tblPr")
        x.open("w:tblGrid")
        for w in widths { x.empty("w:gridCol", [("w:w", String(w))]) }
        x.close("w:tblGrid")
        // Grid columns still covered by a cell spanning rows from above: rows left and the cell's width.
        var covered = Array(repeating: (rows: 0, span: 1), count: columns)
        for (r, row) in t.rows.enumerated() {
            x.open("w:tr")
            var trPr = XMLText()
            if r < t.headerRowCount { trPr.empty("w:tblHeader") }
            switch row.change {
            case .inserted(let c)?: trPr.empty("w:ins", changeAttributes(c))
            case .deleted(let c)?: trPr.empty("w:del", changeAttributes(c))
            case nil: break
            }
            if !trPr.isEmpty { x.open("w:trPr"); x.append(trPr); x.close("w:trPr") }
            var col = 0
            var cells = row.cells[...]
            while col < columns {
                if covered[col].rows > 0 {
                    let span = covered[col].span
                    covered[col].rows -= 1
                    cell(TableCell([], columnSpan: span), width: widths[col..<min(col + span, columns)].reduce(0, +),
                         continued: true, ctx, into: &x)
                    col += span
                    continue
                }
                let c = cells.popFirst() ?? TableCell([])
                let span = min(max(c.columnSpan, 1), columns - col)
                if c.rowSpan > 1 { covered[col] = (c.rowSpan - 1, span) }
                var inner = ctx
                inner.cellAlignment = col < t.columns.count ? t.columns[col] : nil
                var cellValue = c
                cellValue.columnSpan = span
                cell(cellValue, width: widths[col..<col + span].reduce(0, +), continued: false, inner, into: &x)
                col += span
            }
            x.close("w:tr")
        }
        x.close("w:tbl")
    }

    private func cell(_ c: TableCell, width: Int, continued: Bool, _ ctx: Context, into x: inout XMLText) {
        x.open("w:tc")
        x.open("w:tcPr")
        x.empty("w:tcW", [("w:w", String(width)), ("w:type", "dxa")])
        if c.columnSpan > 1 { x.val("w:gridSpan", String(c.columnSpan)) }
        if continued { x.empty("w:vMerge") } else if c.rowSpan > 1 { x.val("w:vMerge", "restart") }
        if !continued {
            switch c.change {
            case .inserted(let ch)?: x.empty("w:cellIns", changeAttributes(ch))
            case .deleted(let ch)?: x.empty("w:cellDel", changeAttributes(ch))
            case nil: break
            }
        }
        x.close("w:tcPr")
        var inner = ctx
        inner.quoteDepth = 0
        inner.listLevel = -1
        blocks(c.blocks, inner, into: &x)
        // A cell must end with a paragraph.
        switch c.blocks.last {
        case .paragraph?, .heading?, .codeBlock?, .thematicBreak?: break
        case .list(let l)? where !l.items.isEmpty: break
        default: x.raw("<w:p/>")
        }
        x.close("w:tc")
    }
}

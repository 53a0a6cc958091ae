import XCTest
import RedlineCore

/// `Table.inferColumnAlignments`: the one rule the DOCX and RTF readers use to turn paragraph alignment
/// shared by a column into column alignment.
final class ColumnAlignmentInferenceTests: XCTestCase {
    private func p(_ s: String, _ a: ParagraphAlignment?) -> Block {
        .paragraph(Paragraph([.text(s)], style: ParagraphStyle(alignment: a)))
    }
    private func cell(_ blocks: Block..., span: Int = 1, rowSpan: Int = 1) -> TableCell {
        TableCell(blocks, columnSpan: span, rowSpan: rowSpan)
    }
    private func table(_ rows: [[TableCell]], columns: Int) -> Table {
        Table(columns: Array(repeating: .none, count: columns), headerRowCount: 0, rows: rows.map { TableRow($0) })
    }
    private func alignments(_ t: Table) -> [[ParagraphAlignment?]] {
        t.rows.map { $0.cells.map { $0.blocks.first?.paragraph?.style.alignment } }
    }

    func testAColumnAlignedAlikeMovesOntoTheColumnAndOffItsParagraphs() {
        var t = table([[cell(p("a", .left)), cell(p("1", .right)), cell(p("x", .center))],
                       [cell(p("b", .left)), cell(p("2", .right)), cell(p("y", .justified))]], columns: 3)
        t.inferColumnAlignments()
        XCTAssertEqual(t.columns, [.left, .right, .none], "justified has no column alignment")
        XCTAssertEqual(alignments(t), [[nil, nil, .center], [nil, nil, .justified]])
    }

    func testDisagreementUnalignedParagraphsAndEmptyColumnsStayAsTheyAre() {
        let original = table([[cell(p("a", .left)), cell(p("1", nil)), cell()],
                              [cell(p("b", .right)), cell(p("2", .center)), cell()]], columns: 3)
        var t = original
        t.inferColumnAlignments()
        XCTAssertEqual(t, original)
    }

    func testOtherBlocksAndTrackedFormattingKeepTheColumnUnaligned() {
        var changed = Paragraph([.text("c")], style: ParagraphStyle(alignment: .center))
        changed.styleChange = ParagraphStyleChange(change: Change(author: "A"), old: ParagraphStyle())
        let list = Block.list(List(kind: .bullet, items: [[p("item", nil)]]))
        let code = Block.codeBlock(CodeBlock(language: "", text: "x\n"))
        let original = table([[cell(p("a", .center)), cell(p("b", .center)), cell(p("c", .center))],
                              [cell(code), cell(p("d", .center), list), cell(.paragraph(changed))]], columns: 3)
        var t = original
        t.inferColumnAlignments()
        XCTAssertEqual(t, original)
    }

    func testHeadingsCountAndNestedTablesAreLeftAlone() {
        let inner = Block.table(table([[cell(p("in", .left))]], columns: 1))
        var t = table([[cell(.heading(level: 2, Paragraph([.text("h")], style: ParagraphStyle(alignment: .right))))],
                       [cell(p("a", .right), inner)]], columns: 1)
        t.inferColumnAlignments()
        XCTAssertEqual(t.columns, [.right])
        XCTAssertEqual(t.rows[0].cells[0].blocks, [.heading(level: 2, Paragraph([.text("h")]))])
        XCTAssertEqual(t.rows[1].cells[0].blocks, [p("a", nil), inner], "the nested table keeps its own alignment")
    }

    func testSpanningCellsAreSkippedAndCoveredColumnsKeepTheirPlace() {
        // Row 0: a cell spanning two rows in column 0, then columns 1 and 2; row 1 starts in column 1.
        // A cell spanning two columns (row 2) neither counts nor loses its alignment.
        var t = table([[cell(p("tall", .left), rowSpan: 2), cell(p("1", .center)), cell(p("x", .right))],
                       [cell(p("2", .center)), cell(p("y", .right))],
                       [cell(p("wide", .left), span: 2), cell(p("z", .right))]], columns: 3)
        t.inferColumnAlignments()
        XCTAssertEqual(t.columns, [.left, .center, .right])
        XCTAssertEqual(alignments(t), [[nil, nil, nil], [nil, nil], [.left, nil]])
    }
}

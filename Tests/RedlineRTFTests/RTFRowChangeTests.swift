import Foundation
import XCTest
import RedlineCore
@testable import RedlineRTF

/// Issue #32: a table row inserted or deleted with tracking goes through RTF (which has no row revision) as
/// its cells' text wholly inserted (deleted) by the row's change, the row flagged with Redline's own
/// `\rltrmarked`; the reader takes the row's change back from such a row only, so accepting and rejecting
/// keep or remove the row. A Word file's row whose cells' text happens to be one insertion stays text changes.
final class RTFRowChangeTests: XCTestCase {
    static let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z")
    static let bob = Change(author: "Bob", date: "2024-01-16T09:00:00Z")

    static func cell(_ s: String) -> TableCell { TableCell(s.isEmpty ? [] : [.paragraph(Paragraph([.text(s)]))]) }

    func testRowChangesComeBack() throws {
        let t = Table(columns: [.none, .none], headerRowCount: 1, rows: [
            TableRow([Self.cell("a"), Self.cell("b")]),
            TableRow([Self.cell("new"), Self.cell("")], change: .inserted(Self.ann)),
            TableRow([Self.cell("old"), Self.cell("gone")], change: .deleted(Self.bob)),
            TableRow([Self.cell("c"), Self.cell("d")]),
        ])
        let diags = Diagnostics()
        let bytes = try RTFWriter().write(Document(blocks: [.table(t)]), diagnostics: diags)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "\\rltrmarked").count - 1, 2, text)
        XCTAssertFalse(diags.all.contains { $0.code == "rtf.row-change-dropped" }, "\(diags.all)")
        let back = try RTFReader().read(.bytes(bytes))
        guard case .table(let t1)? = back.blocks.first else { return XCTFail("\(back.blocks)") }
        func anon(_ r: RowChange?) -> RowChange? {
            switch r {
            case .inserted(var c)?: c.id = nil; return .inserted(c)
            case .deleted(var c)?: c.id = nil; return .deleted(c)
            case nil: return nil
            }
        }
        XCTAssertEqual(t1.rows.map { anon($0.change) }, t.rows.map(\.change))
        XCTAssertEqual(t1.rows[1].cells.map { $0.blocks.map(\.plainText).joined() }, ["new", ""])
        for (mode, want) in [(ChangeMode.accept, 3), (.reject, 3)] {
            guard case .table(let r)? = try back.applying([ReviewTransform(mode)]).blocks.first else { return XCTFail() }
            XCTAssertEqual(r.rows.count, want, "\(mode)")
        }
    }

    /// Without the flag (a Word file, or one another program wrote) a row whose cells' text is one insertion
    /// is a row with inserted text: rejecting empties the cells and keeps the row.
    func testUnflaggedRowStaysTextChanges() throws {
        let t = Table(columns: [.none], headerRowCount: 1, rows: [
            TableRow([Self.cell("a")]),
            TableRow([TableCell([.paragraph(Paragraph([.insertion(Self.ann, [.text("typed")])]))])]),
        ])
        let bytes = try RTFWriter().write(Document(blocks: [.table(t)]))
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("\\rltrmarked"))
        let back = try RTFReader().read(.bytes(bytes))
        guard case .table(let t1)? = back.blocks.first else { return XCTFail("\(back.blocks)") }
        XCTAssertEqual(t1.rows.map(\.change), [nil, nil])
    }
}

import Foundation
import Redline
import RedlineCore
import XCTest

/// Cells inserted or deleted with tracking (`w:cellIns`/`w:cellDel` in `w:tcPr`): read, written, and applied
/// on accept and reject as Word does (an inserted cell goes when rejected, a deleted one when accepted).
final class DOCXCellChangeTests: XCTestCase {
    static let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z")

    static func cell(_ s: String, _ change: RowChange? = nil) -> TableCell {
        TableCell([.paragraph(Paragraph([.text(s)]))], change: change)
    }

    static var document: Document {
        let t = Table(columns: [.none, .none, .none], headerRowCount: 1, rows: [
            TableRow([cell("A"), cell("B"), cell("C")]),
            TableRow([cell("kept"), cell("new", .inserted(ann)), cell("old", .deleted(ann))]),
        ])
        return Document(blocks: [.table(t)])
    }

    static func cells(_ d: Document) -> [[String]] {
        d.blocks.flatMap { b -> [[String]] in
            guard case .table(let t) = b else { return [] }
            return t.rows.map { $0.cells.map { $0.blocks.map(\.plainText).joined() } }
        }
    }

    func testWrittenReadAndApplied() throws {
        let bytes = try DOCXTest.write(Self.document)
        let xml = try DOCXTest.part("word/document.xml", of: bytes)
        XCTAssertTrue(xml.contains("<w:cellIns w:id=") && xml.contains("<w:cellDel w:id="), xml)
        let docx = FormatRegistry.named("docx")!
        let back = try Converter.read(.bytes(bytes), format: docx)
        guard case .table(let t)? = back.blocks.first else { return XCTFail("no table") }
        XCTAssertEqual(t.rows[1].cells.map { $0.change.map(DOCXMarkdownRoundTripTests.anonymous) },
                       [nil, .inserted(Self.ann), .deleted(Self.ann)])
        let accepted = try back.applying([ReviewTransform(.accept)])
        let rejected = try back.applying([ReviewTransform(.reject)])
        XCTAssertEqual(Self.cells(accepted), [["A", "B", "C"], ["kept", "new"]])
        XCTAssertEqual(Self.cells(rejected), [["A", "B", "C"], ["kept", "old"]])
    }

    /// Markdown has no cell syntax: a changed cell starts with `[cell-inserted]`/`[cell-deleted]` and its text
    /// is written as a change; the reader takes the cell change back (issue #32), with no warning.
    func testMarkdownWritesTheCellsTextAsChanged() throws {
        let out = MemoryOutput()
        let diagnostics = Diagnostics()
        try Converter.write(Self.document, format: FormatRegistry.named("md")!, to: out, diagnostics: diagnostics)
        let md = String(decoding: out.bytes, as: UTF8.self)
        XCTAssertTrue(md.contains("| kept | {>>@Ann (2024-01-15T14:30:00Z) [cell-inserted]<<}{++new++}{>>@Ann (2024-01-15T14:30:00Z)<<} | "
            + "{>>@Ann (2024-01-15T14:30:00Z) [cell-deleted]<<}{--old--}{>>@Ann (2024-01-15T14:30:00Z)<<} |"), md)
        XCTAssertFalse(diagnostics.all.contains { $0.code == "lossy.table-cell-change" })
        let back = try Converter.read(.bytes(out.bytes), format: FormatRegistry.named("md")!)
        XCTAssertEqual(Self.cells(try back.applying([ReviewTransform(.accept)])), [["A", "B", "C"], ["kept", "new"]])
        XCTAssertEqual(Self.cells(try back.applying([ReviewTransform(.reject)])), [["A", "B", "C"], ["kept", "old"]])
    }
}

import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// md → md keeps a table as its author wrote it (padding, delimiter row, grid lines) while it is the table
/// that was read; a table that changed, or holds what the writer keeps beside it, is written anew.
final class TableSourceTests: XCTestCase {
    private func read(_ s: String) throws -> Document { try MarkdownReader.document(s, diagnostics: Diagnostics()) }
    private func md(_ doc: Document, _ o: WriteOptions = WriteOptions()) throws -> String {
        try MarkdownWriter.string(doc, options: o, diagnostics: Diagnostics())
    }

    static let pipe = """
        | Name   | Price |
        |:-------|------:|
        | Tea    |  1.50 |
        | Coffee |  2.00 |
        """
    static let grid = """
        +---------------+---------------+
        | Fruit         | Advantages    |
        +===============+===============+
        | Bananas       | - wrapper     |
        |               | - colour      |
        +---------------+---------------+
        """

    func testUnchangedTablesAreWrittenAsRead() throws {
        let source = "Before.\n\n" + Self.pipe + "\n\n: Prices\n\n" + Self.grid + "\n\nAfter.\n"
        let doc = try read(source)
        XCTAssertEqual(try md(doc), source)
        // The source is no part of the value: the table equals one built without it, and JSON leaves it out.
        guard case .table(let t)? = doc.blocks.first(where: { if case .table = $0 { return true }; return false }) else {
            return XCTFail("no table")
        }
        XCTAssertFalse(t.source.isEmpty)
        XCTAssertEqual(t, Table(columns: t.columns, columnWidths: t.columnWidths, headerRowCount: t.headerRowCount, rows: t.rows))
        let json = String(decoding: try JSONEncoder().encode(t), as: UTF8.self)
        XCTAssertFalse(json.contains("Coffee |"), json)
        let decoded = try JSONDecoder().decode(Table.self, from: Data(json.utf8))
        XCTAssertTrue(decoded.source.isEmpty)
        XCTAssertEqual(try md(Document(blocks: [.table(decoded)])), "| Name | Price |\n| :-- | --: |\n| Tea | 1.50 |\n| Coffee | 2.00 |\n")
    }

    func testChangedTablesAndTablesTheWriterMustWriteAreWrittenAnew() throws {
        var doc = try read(Self.pipe + "\n")
        guard case .table(var t) = doc.blocks[0] else { return XCTFail("no table") }
        t.rows[1].cells[0].blocks = [.paragraph(Paragraph([.text("Green tea")]))]
        doc.blocks[0] = .table(t)
        XCTAssertEqual(try md(doc), "| Name | Price |\n| :-- | --: |\n| Green tea | 1.50 |\n| Coffee | 2.00 |\n")
        // GitHub's dialect, marks in the table, a note or a reference link in it: written by the writer.
        var gfm = WriteOptions()
        gfm.markdownDialect = .gfm
        XCTAssertFalse(try md(try read(Self.pipe + "\n"), gfm).contains("|:-------|"))
        for cell in ["{++Tea++}", "Tea[^1]", "[Tea][t]"] {
            let source = Self.pipe.replacingOccurrences(of: "Tea   ", with: cell) + "\n\n[^1]: A note.\n\n[t]: https://example.com\n"
            let out = try md(try read(source))
            XCTAssertFalse(out.contains("|:-------|"), out)
            XCTAssertEqual(try read(out), try read(source), out)
        }
        // Accepting a change elsewhere in the document leaves an unmarked table as written.
        let marked = try read("A {++new++} word.\n\n" + Self.pipe + "\n")
        XCTAssertTrue(try md(try marked.applying([ReviewTransform(.accept)])).hasSuffix(Self.pipe + "\n"))
    }

    /// A table in a list item or quote, or one inside a grid cell, is written anew (its lines are the
    /// container's): what it reads as is the same.
    func testTablesInContainersReadTheSame() throws {
        let quoted = Self.pipe.split(separator: "\n").map { "> " + $0 }.joined(separator: "\n") + "\n"
        let doc = try read(quoted)
        XCTAssertEqual(try read(try md(doc)), doc)
    }
}

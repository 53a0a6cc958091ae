import Foundation
import XCTest
import Redline
import RedlineTestSupport

/// Issue 32: a table GFM's pipe form cannot hold (cells of several blocks, merged cells) is a pandoc grid table in
/// Markdown, read back with its spans, blocks and CriticMarkup, so DOCX → CriticMarkup → DOCX keeps accept and
/// reject exact for such tables too.
final class GridTableTests: XCTestCase {
    private let md = FormatRegistry.named("md")!

    private func para(_ inlines: [Inline], mark: ParagraphMarkChange? = nil) -> Block {
        .paragraph(Paragraph(inlines, markChange: mark))
    }

    private func table(_ doc: Document) -> Table? {
        for b in doc.blocks { if case .table(let t) = b { return t } }
        return nil
    }

    private func tables(_ doc: Document) -> [Table] {
        doc.blocks.compactMap { if case .table(let t) = $0 { return t }; return nil }
    }

    /// pandoc's manual's grid tables read as pandoc reads them: the list in a cell is a list, the spans and the
    /// alignment colons of the `=` line are the table's; pandoc 2.17 reads Redline's Markdown of the first table
    /// (it has no spans, which pandoc 2.17 cannot read) as it reads the source.
    func testPandocManualTables() throws {
        let source = try String(contentsOf: Self.corpusFile, encoding: .utf8)
        let doc = try ModelRoundTrip.read(Array(source.utf8), md)
        let ts = tables(doc)
        XCTAssertEqual(ts.count, 3, "the broken grid is no table")
        // Bananas: a list in the third cell.
        XCTAssertEqual(ts[0].headerRowCount, 1)
        guard case .list(let l)? = ts[0].rows[1].cells[2].blocks.first else { return XCTFail("no list in the cell") }
        XCTAssertEqual(l.items.count, 2)
        // Spans: Property across two columns; Temperature down three rows; Earth's column right-aligned.
        let spans = ts[1]
        XCTAssertEqual(spans.columns, [.none, .none, .right])
        XCTAssertEqual(spans.rows.map { $0.cells.map { "\($0.columnSpan)x\($0.rowSpan)" } },
                       [["2x1", "1x1"], ["1x3", "1x1", "1x1"], ["1x1", "1x1"], ["1x1", "1x1"]])
        XCTAssertEqual(spans.rows[1].cells[0].blocks.first?.plainText, "Temperature 1961-1990")
        // Headerless, a left colon in the first line; CriticMarkup and a comment inside; wide characters; code.
        let marked = ts[2]
        XCTAssertEqual(marked.headerRowCount, 0)
        XCTAssertEqual(marked.columns, [.left, .none])
        XCTAssertEqual(marked.rows[0].cells[1].blocks.count, 2)
        XCTAssertEqual(doc.comments.count, 1)
        XCTAssertEqual(marked.rows[1].cells[0].blocks.first?.plainText, "東京 and 大阪")
        guard case .codeBlock(let code)? = marked.rows[1].cells[1].blocks.first else { return XCTFail("no code in the cell") }
        XCTAssertEqual(code.text, "code in a cell\n")

        // pandoc as oracle: the first table, as Redline writes it, is the table pandoc reads from the source.
        let first = Document(blocks: [.table(ts[0])])
        let written = String(decoding: try ModelRoundTrip.write(first, md), as: UTF8.self)
        XCTAssertTrue(written.hasPrefix("+---"), written)
        let sourceTable = source.components(separatedBy: "\n\n").first { $0.contains("Bananas") }!
        XCTAssertEqual(Self.withoutWidths(try TestProcess.pandocJSON(written)), Self.withoutWidths(try TestProcess.pandocJSON(sourceTable)))
    }

    /// Generated tables (random spans, cells of one to three paragraphs, lists, insertions and deletions, inserted
    /// paragraphs inside a cell, row and cell changes, zero to two header rows, alignments) written as Markdown read
    /// back as themselves; accepting and rejecting the read table gives what accepting and rejecting the original
    /// gives; and the Markdown is a fixpoint. Through DOCX too (CriticMarkup → DOCX → CriticMarkup).
    func testGeneratedTablesRoundTrip() throws {
        var rng = SeededRandom(seed: SeededRandom.seed(default: 32))
        let docx = FormatRegistry.named("docx")!
        var spanning = 0, multiBlock = 0
        for n in 0..<80 {
            let t = generated(&rng)
            if t.rows.contains(where: { $0.cells.contains { $0.rowSpan > 1 || $0.columnSpan > 1 } }) { spanning += 1 }
            if t.rows.contains(where: { $0.cells.contains { $0.blocks.count > 1 } }) { multiBlock += 1 }
            let doc = Document(blocks: [para([.text("Before.")]), .table(t), para([.text("After.")])])
            let text = try ModelRoundTrip.write(doc, md)
            let back = try ModelRoundTrip.read(text, md)
            let context = "table \(n):\n" + String(decoding: text, as: UTF8.self)
            guard let read = table(back) else { XCTFail("no table read back: " + context); continue }
            XCTAssertEqual(read.rows.map { $0.cells.map { "\($0.columnSpan)x\($0.rowSpan)" } },
                           t.rows.map { $0.cells.map { "\($0.columnSpan)x\($0.rowSpan)" } }, context)
            // (A table the pipe form holds is one: with one header row, its alignments.)
            let grid = String(decoding: text, as: UTF8.self).contains("\n+-") || String(decoding: text, as: UTF8.self).contains("\n+:")
            if grid { XCTAssertEqual(read.headerRowCount, t.headerRowCount, context) }
            // Colons stand on the alignment line (the `=` line, else the first) where a column's edges are corners:
            // not under a merged cell.
            let alignmentRows = t.headerRowCount > 0 ? [t.headerRowCount - 1, t.headerRowCount] : [0]
            if grid, !alignmentRows.contains(where: { $0 < t.rows.count && t.rows[$0].cells.contains { $0.columnSpan > 1 } }),
               !t.rows.prefix(t.headerRowCount).contains(where: { $0.cells.contains { $0.columnSpan > 1 && $0.rowSpan > 1 } }) {
                XCTAssertEqual(read.columns, t.columns, context)
            }
            for mode in [ChangeMode.accept, .reject] {
                XCTAssertEqual(try outline(back, mode), try outline(doc, mode), "\(mode) " + context)
            }
            // Redline's Markdown reads back as itself. (The model written first may not: a cell inserted whose text
            // is one insertion by the same author reads as the cell inserted with its text, as Word shows it.)
            let again = try ModelRoundTrip.write(back, md)
            XCTAssertEqual(try ModelRoundTrip.write(try ModelRoundTrip.read(again, md), md), again, "not a fixpoint: " + context)
            // CriticMarkup → DOCX → model: the same accepted and rejected tables.
            let viaDOCX = try ModelRoundTrip.read(try ModelRoundTrip.write(back, docx), docx)
            for mode in [ChangeMode.accept, .reject] {
                XCTAssertEqual(try outline(viaDOCX, mode), try outline(doc, mode), "DOCX \(mode) " + context)
            }
        }
        XCTAssertGreaterThan(spanning, 30)
        XCTAssertGreaterThan(multiBlock, 30)
    }

    /// Grids that are not tables stay paragraphs (their text kept): a missing right border, a misplaced corner,
    /// a cell left open at the bottom, corners that do not meet.
    func testBrokenGridsStayText() throws {
        let broken = [
            "+---+---+\n| a | b\n+---+---+",
            "+---+---+\n| a | b |\n+---+--+-+",
            "+---+---+\n| a | b |\n|   |   |",
            "+---+\n| a |\n+---+---+",
            "a\n\n+---+\n+---+\n+---+",
        ]
        for text in broken {
            let doc = try ModelRoundTrip.read(Array(text.utf8), md)
            XCTAssertNil(table(doc), text)
            XCTAssertTrue(doc.blocks.first?.plainText.contains("a") ?? false, text)
        }
        // Text holding the border characters is text: `=`, `-`, `+`, `|` and `:` inside cells.
        let signs = "+-------+-----------+\n| a = b | 1 + 2 - 3 |\n|       | x: \\| y   |\n+=======+===========+\n| c     | d         |\n+-------+-----------+"
        let read = table(try ModelRoundTrip.read(Array(signs.utf8), md))
        XCTAssertEqual(read?.rows.first?.cells.map(\.blocks.first?.plainText), ["a = b", "1 + 2 - 3 x: | y"])
        XCTAssertEqual(read?.headerRowCount, 1)
        // The smallest table, and one whose only cell spans everything.
        let one = try ModelRoundTrip.read(Array("+---+\n| a |\n+---+".utf8), md)
        XCTAssertEqual(table(one)?.rows.first?.cells.first?.blocks.first?.plainText, "a")
    }

    // MARK: Helpers

    static var corpusFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/markdown/grid-tables.md")
    }

    /// pandoc's JSON without its column widths (grid tables give relative widths from their dashes).
    static func withoutWidths(_ json: String) -> String {
        let r = try! NSRegularExpression(pattern: #"\{"t":"ColWidth","c":[0-9.e-]+\}"#)
        return r.stringByReplacingMatches(in: json, range: NSRange(json.startIndex..., in: json), withTemplate: "W")
    }

    private func outline(_ d: Document, _ mode: ChangeMode) throws -> [String] {
        ModelOutline.lines(try d.applying([ReviewTransform(mode), DropComments()]).blocks).filter { $0 != "P " }
    }

    private static let words = ["alpha", "beta", "gamma", "delta", "東京", "café", "x|y", "a*b", "1.", "- dash"]

    /// A generated table in which every row starts a cell (a row wholly covered from above has no place in Markdown,
    /// nor in Word).
    private func generated(_ rng: inout SeededRandom) -> Table {
        while true {
            let t = candidate(&rng)
            if t.rows.allSatisfy({ !$0.cells.isEmpty }), !hasUnusedColumnBoundary(t, columns: t.columns.count) { return t }
        }
    }

    /// Whether a cell of `rows` spans from above row `boundary` into it.
    private func crossesRowBoundary(_ rows: [TableRow], _ boundary: Int) -> Bool {
        rows.prefix(boundary).enumerated().contains { r, row in row.cells.contains { r + $0.rowSpan > boundary } }
    }

    /// Whether some column boundary is a cell's edge nowhere (a grid table then has one column fewer).
    private func hasUnusedColumnBoundary(_ t: Table, columns: Int) -> Bool {
        guard columns > 1 else { return false }
        var used = Set<Int>()
        var covered = [Int](repeating: 0, count: columns)
        for row in t.rows {
            var c = 0
            func skip() { while c < columns, covered[c] > 0 { covered[c] -= 1; c += 1 } }
            skip()
            for cell in row.cells {
                for k in c..<(c + cell.columnSpan) { covered[k] = cell.rowSpan - 1 }
                c += cell.columnSpan
                used.insert(c)
                skip()
            }
        }
        return (1..<columns).contains { !used.contains($0) }
    }

    private func candidate(_ rng: inout SeededRandom) -> Table {
        let rows = Int.random(in: 1...5, using: &rng), columns = Int.random(in: 1...4, using: &rng)
        let ann = Change(author: "Ann", date: "2024-05-01T10:00:00Z"), bob = Change(author: "Bob", date: "2024-05-02T10:00:00Z")
        func inlines() -> [Inline] {
            var out: [Inline] = []
            for k in 0..<Int.random(in: 1...4, using: &rng) {
                if k > 0 { out.append(.text(" ")) }
                let w = Self.words.randomElement(using: &rng)!
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: out.append(.insertion(ann, [.text(w)]))
                case 1: out.append(.deletion(bob, [.text(w)]))
                case 2: out.append(.emphasis([.text(w)]))
                default: out.append(.text(w))
                }
            }
            return out
        }
        func blocks() -> [Block] {
            let count = Int.random(in: 1...3, using: &rng)
            return (0..<count).map { k in
                if Int.random(in: 0..<8, using: &rng) == 0 {
                    return .list(List(kind: .bullet, tight: true, items: [[para(inlines())], [para(inlines())]]))
                }
                // A paragraph before another may have its break inserted (typed Enter) or deleted.
                var mark: ParagraphMarkChange?
                if k < count - 1 {
                    switch Int.random(in: 0..<5, using: &rng) {
                    case 0: mark = .inserted(ann)
                    case 1: mark = .deleted(bob)
                    default: break
                    }
                }
                return para(inlines(), mark: mark)
            }
        }
        // Place cells on the grid: each free position starts a cell of a random span that fits the free space.
        var taken = [[Bool]](repeating: [Bool](repeating: false, count: columns), count: rows)
        var out: [TableRow] = []
        for r in 0..<rows {
            var cells: [TableCell] = []
            for c in 0..<columns where !taken[r][c] {
                var w = 1, h = 1
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    let maxW = (c..<columns).prefix { !taken[r][$0] }.count
                    w = Int.random(in: 1...maxW, using: &rng)
                    h = Int.random(in: 1...(rows - r), using: &rng)
                }
                for y in r..<(r + h) { for x in c..<(c + w) { taken[y][x] = true } }
                var cell = TableCell(blocks(), columnSpan: w, rowSpan: h)
                if h == 1, Int.random(in: 0..<10, using: &rng) == 0 { cell.change = .inserted(ann) }
                cells.append(cell)
            }
            var row = TableRow(cells)
            if !cells.isEmpty, Int.random(in: 0..<8, using: &rng) == 0 { row.change = Bool.random(using: &rng) ? .inserted(ann) : .deleted(bob) }
            out.append(row)
        }
        let alignments = (0..<columns).map { _ in ColumnAlignment.allCases.randomElement(using: &rng)! }
        // Header rows end where no cell spans on (the `=` line crosses the table).
        var headers = Int.random(in: 0...min(2, rows), using: &rng)
        while headers > 0, crossesRowBoundary(out, headers) { headers -= 1 }
        return Table(columns: alignments, headerRowCount: headers, rows: out)
    }
}

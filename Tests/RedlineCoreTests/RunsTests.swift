import XCTest
@testable import RedlineCore

final class RunsTests: XCTestCase {
    func testRunsRoundTripThroughBuilder() {
        let ann = Change(author: "Ann")
        let inlines: [Inline] = [
            .text("plain "),
            .strong([.text("bold "), .emphasis([.text("both")])]),
            .styled(CharacterStyle(fontFamily: "Palatino", fontSize: 13), [.text("font")]),
            .link(Link(url: "https://example.com"), [.text("link")]),
            .insertion(ann, [.text("ins "), .underline([.text("u")])]),
            .code("x < y"),
            .noteReference("1"),
        ]
        XCTAssertEqual(InlineBuilder.inlines(from: inlines.runs), inlines)
    }

    func testBuilderMergesAdjacentRuns() {
        let runs: [Run] = [.text("a", TextFormat(bold: true)), .text("b", TextFormat(bold: true)), .text("c")]
        XCTAssertEqual(InlineBuilder.inlines(from: runs), [.strong([.text("ab")]), .text("c")])
    }

    /// Many same-format runs (compare gives one a word) become one text: merged in place, every run's text
    /// kept in order, in bold, code and plain alike. (Merging by `a + b` copied the text so far for every
    /// run: quadratic, 5.4 s for a 200,000-word inserted paragraph; `hostile_compare_*` in 70-hostile.sh.)
    func testManySameFormatRunsMergeIntoOneText() {
        let words = (0..<20_000).map { "w\($0) " }
        let bold = TextFormat(bold: true)
        var code = TextFormat()
        code.code = true
        let runs = words.map { Run.text($0) } + words.map { Run.text($0, bold) } + words.map { Run.text($0, code) }
        let joined = words.joined()
        XCTAssertEqual(InlineBuilder.inlines(from: runs), [.text(joined), .strong([.text(joined)]), .code(joined)])
        XCTAssertEqual(InlineBuilder.normalized(words.map { Inline.text($0) }), [.text(joined)])
    }

    func testPairingSubstitutions() {
        let c = Change(author: "Ann", date: "d")
        let paired = InlineBuilder.pairingSubstitutions([.deletion(c, [.text("old")]), .insertion(c, [.text("new")])])
        XCTAssertEqual(paired, [.substitution(c, deleted: [.text("old")], inserted: [.text("new")])])
        let other = Change(author: "Bob", date: "d")
        XCTAssertEqual(InlineBuilder.pairingSubstitutions([.deletion(c, [.text("x")]), .insertion(other, [.text("y")])]).count, 2)
        // An insertion before a deletion stays as it is: a substitution would show the deleted text first.
        let insertedFirst: [Inline] = [.insertion(c, [.text("new")]), .deletion(c, [.text("old")])]
        XCTAssertEqual(InlineBuilder.pairingSubstitutions(insertedFirst), insertedFirst)
        XCTAssertEqual(InlineBuilder.pairingSubstitutions([.strong(insertedFirst)]), [.strong(insertedFirst)])
    }

    func testRunsWithEnclosingInsertions() {
        let ann = Change(author: "Ann"), bob = Change(author: "Bob")
        let from = Move(change: bob, name: "m1", side: .from)
        let inlines: [Inline] = [
            .deletion(bob, [.text("a")]),
            .insertion(ann, [.text("b"), .strong([.deletion(bob, [.text("c")])]), .move(from, [.text("d")])]),
            .move(Move(change: ann, name: "m1", side: .to), [.deletion(bob, [.text("e")]), .insertion(bob, [.text("f")])]),
            .deletion(bob, [.insertion(ann, [.deletion(bob, [.text("g")])])]),
        ]
        let tracked = inlines.runsWithEnclosingInsertions
        XCTAssertEqual(tracked.map(\.run), inlines.runs)
        XCTAssertEqual(tracked.map(\.insertion), [nil, nil, ann, ann, ann, nil, nil])
        let (runs, insertions) = inlines.runsAndEnclosingInsertions
        XCTAssertEqual(runs, inlines.runs)
        XCTAssertEqual(insertions, [2: ann, 3: ann, 4: ann])
    }

    func testGridColumnCountCountsColumnsCoveredFromAbove() {
        func cells(_ n: Int, rowSpan: Int = 1) -> [TableCell] { (0..<n).map { _ in TableCell([], rowSpan: rowSpan) } }
        // A cell spanning two rows in column 0: the row below has three cells of its own beside it.
        var t = Table(columns: [], headerRowCount: 0, rows: [
            TableRow(cells(3)),
            TableRow([TableCell([], rowSpan: 2)] + cells(2)),
            TableRow(cells(3)),
        ])
        XCTAssertEqual(t.gridColumnCount, 4)
        t.rows[2] = TableRow(cells(2))
        XCTAssertEqual(t.gridColumnCount, 3)
        // A span reaching past the last cell of a row below.
        t = Table(columns: [.left], headerRowCount: 0, rows: [TableRow(cells(1) + [TableCell([], columnSpan: 2, rowSpan: 2)]), TableRow(cells(1))])
        XCTAssertEqual(t.gridColumnCount, 3)
        XCTAssertEqual(Table(columns: [], headerRowCount: 0, rows: []).gridColumnCount, 1)
    }

    func testDocumentChunksCarryCommentsAndNotes() {
        let doc = Document(blocks: [
            .paragraph(Paragraph([.text("a")])),
            .paragraph(Paragraph([.commentStart("1"), .text("b"), .noteReference("n")])),
            .paragraph(Paragraph([.commentEnd("1")])),
        ], comments: [Comment(id: "1", body: []), Comment(id: "2", body: [], parentID: "1")],
           notes: [Note(id: "n", blocks: [])])
        let chunks = doc.chunks
        XCTAssertEqual(chunks.map(\.comments.count), [0, 2, 0])
        XCTAssertEqual(chunks.map(\.notes.count), [0, 1, 0])
        var source = ChunkArraySource(doc)
        XCTAssertEqual(try Document(reading: &source), doc)
    }
}

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

    func testPairingSubstitutions() {
        let c = Change(author: "Ann", date: "d")
        let paired = InlineBuilder.pairingSubstitutions([.deletion(c, [.text("old")]), .insertion(c, [.text("new")])])
        XCTAssertEqual(paired, [.substitution(c, deleted: [.text("old")], inserted: [.text("new")])])
        let other = Change(author: "Bob", date: "d")
        XCTAssertEqual(InlineBuilder.pairingSubstitutions([.deletion(c, [.text("x")]), .insertion(other, [.text("y")])]).count, 2)
        // An insertion then a deletion stays two changes: a substitution would read the deletion first.
        let insertedFirst: [Inline] = [.insertion(c, [.text("new")]), .deletion(c, [.text("old")])]
        XCTAssertEqual(InlineBuilder.pairingSubstitutions(insertedFirst), insertedFirst)
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

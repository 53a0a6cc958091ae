import XCTest
@testable import RedlineCore

final class ReviewTransformTests: XCTestCase {
    let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z")

    func para(_ i: [Inline], mark: ParagraphMarkChange? = nil) -> Block { .paragraph(Paragraph(i, markChange: mark)) }

    func testAcceptAndRejectInlineChanges() throws {
        let doc = Document(blocks: [para([
            .text("a "), .insertion(ann, [.text("new")]), .text(" "), .deletion(ann, [.text("old")]),
            .text(" "), .substitution(ann, deleted: [.text("x")], inserted: [.text("y")]),
            .move(Move(change: ann, name: "m1", side: .from), [.text(" here")]),
            .move(Move(change: ann, name: "m1", side: .to), [.text(" there")]),
        ])])
        let accepted = try doc.applying([ReviewTransform(.accept)])
        XCTAssertEqual(accepted.blocks, [para([.text("a new  y there")])])
        let rejected = try doc.applying([ReviewTransform(.reject)])
        XCTAssertEqual(rejected.blocks, [para([.text("a  old x here")])])
        let marked = try doc.applying([ReviewTransform(.marked)])
        XCTAssertEqual(marked, doc)
    }

    func testDeletedParagraphMarkMergesOnAccept() throws {
        let doc = Document(blocks: [
            para([.text("one "), .deletion(ann, [.text("gone")])], mark: .deleted(ann)),
            para([.text("two")]),
            para([.insertion(ann, [.text("inserted")])], mark: .inserted(ann)),
            para([.text("three")]),
        ])
        let accepted = try doc.applying([ReviewTransform(.accept)])
        XCTAssertEqual(accepted.blocks, [para([.text("one two")]), para([.text("inserted")]), para([.text("three")])])
        let rejected = try doc.applying([ReviewTransform(.reject)])
        XCTAssertEqual(rejected.blocks, [para([.text("one gone")]), para([.text("two")]), para([.text("three")])])
    }

    func testFormatChangeRejectRestoresOldFormat() throws {
        let f = FormatChange(change: ann, old: TextFormat(italic: true))
        let doc = Document(blocks: [para([.formatChange(f, [.strong([.text("b")])])])])
        XCTAssertEqual(try doc.applying([ReviewTransform(.reject)]).blocks, [para([.emphasis([.text("b")])])])
        XCTAssertEqual(try doc.applying([ReviewTransform(.accept)]).blocks, [para([.strong([.text("b")])])])
    }

    func testCommentAnchorsSurviveRemovedText() throws {
        let doc = Document(blocks: [para([.deletion(ann, [.commentStart("1"), .text("x")]), .text("y"), .commentEnd("1")])],
                           comments: [Comment(id: "1", body: [para([.text("c")])])])
        let accepted = try doc.applying([ReviewTransform(.accept)])
        XCTAssertEqual(accepted.blocks, [para([.commentStart("1"), .text("y"), .commentEnd("1")])])
        XCTAssertEqual(accepted.comments.count, 1)
        let dropped = try doc.applying([ReviewTransform(.accept), DropComments()])
        XCTAssertEqual(dropped.blocks, [para([.text("y")])])
        XCTAssertEqual(dropped.comments, [])
    }

    /// A paragraph that held only comment anchors goes with them (top level and nested), unless it or the
    /// paragraph before it carries a mark change; a paragraph that was empty to begin with stays.
    func testDropCommentsRemovesParagraphsLeftEmpty() throws {
        let onlyComment = para([.commentPoint("1")])
        let marked = Block.paragraph(Paragraph([.commentPoint("2")], markChange: .inserted(ann)))
        let doc = Document(blocks: [para([.text("a")]), onlyComment, .blockQuote([para([.text("q")]), onlyComment]),
                                    marked, para([.text("b")]), para([.text("c")], mark: .deleted(ann)), onlyComment,
                                    para([])],
                           comments: [Comment(id: "1", body: []), Comment(id: "2", body: [])])
        let dropped = try doc.applying([DropComments()])
        XCTAssertEqual(dropped.blocks, [para([.text("a")]), .blockQuote([para([.text("q")])]),
                                        .paragraph(Paragraph([], markChange: .inserted(ann))), para([.text("b")]),
                                        para([.text("c")], mark: .deleted(ann)), para([]), para([])])
    }

    func testTableRowChanges() throws {
        let cell = { (s: String) in TableCell([.paragraph(Paragraph([.text(s)]))]) }
        let t = Table(columns: [.none], headerRowCount: 1, rows: [
            TableRow([cell("h")]), TableRow([cell("new")], change: .inserted(ann)), TableRow([cell("old")], change: .deleted(ann)),
        ])
        let a = try Document(blocks: [.table(t)]).applying([ReviewTransform(.accept)])
        guard case .table(let at) = a.blocks[0] else { return XCTFail() }
        XCTAssertEqual(at.rows.map { $0.cells[0].blocks.first?.plainText }, ["h", "new"])
        let r = try Document(blocks: [.table(t)]).applying([ReviewTransform(.reject)])
        guard case .table(let rt) = r.blocks[0] else { return XCTFail() }
        XCTAssertEqual(rt.rows.map { $0.cells[0].blocks.first?.plainText }, ["h", "old"])
    }
}

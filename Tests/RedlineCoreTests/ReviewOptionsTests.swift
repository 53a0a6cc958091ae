import XCTest
@testable import RedlineCore

/// Per-change decisions: filters select changes by author, kind, date and id; the rest follow the mode.
final class ReviewOptionsTests: XCTestCase {
    let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z", id: "1")
    let bob = Change(author: "Bob", date: "2024-03-02T09:00:00Z", id: "2")

    func para(_ i: [Inline], mark: ParagraphMarkChange? = nil) -> Block { .paragraph(Paragraph(i, markChange: mark)) }

    func testFilterParsing() throws {
        let f = try ChangeFilter(parsing: "author=Smith, Jane,kind=insertion,deletion,id=3,4")
        XCTAssertEqual(f.author, "Smith, Jane")
        XCTAssertEqual(f.kinds, [.insertion, .deletion])
        XCTAssertEqual(f.ids, ["3", "4"])
        XCTAssertEqual(try ChangeFilter(parsing: f.description), f)
        XCTAssertThrowsError(try ChangeFilter(parsing: "kind=bogus"))
        XCTAssertThrowsError(try ChangeFilter(parsing: "before=yesterday"))
        XCTAssertThrowsError(try ChangeFilter(parsing: "nothing"))
        XCTAssertThrowsError(try ChangeFilter(parsing: "author="))
    }

    func testFilterMatching() throws {
        let ins = ChangeInfo(kind: .insertion, change: ann)
        XCTAssertTrue(try ChangeFilter(parsing: "author=ann").matches(ins))
        XCTAssertFalse(try ChangeFilter(parsing: "author=ann,kind=deletion").matches(ins))
        XCTAssertTrue(try ChangeFilter(parsing: "before=2024-02-01").matches(ins))
        XCTAssertFalse(try ChangeFilter(parsing: "after=2024-02-01").matches(ins))
        // A date-only bound against a date-time on the same day compares equal: neither before nor after.
        XCTAssertFalse(try ChangeFilter(parsing: "before=2024-01-15").matches(ins))
        XCTAssertTrue(try ChangeFilter(parsing: "id=1,7").matches(ins))
        XCTAssertFalse(try ChangeFilter(parsing: "before=2030").matches(ChangeInfo(kind: .insertion, change: Change(author: "Ann"))))
    }

    func testAcceptOneAuthorLeavesTheOthersTracked() throws {
        let doc = Document(blocks: [para([
            .insertion(ann, [.text("a")]), .deletion(bob, [.text("b")]), .insertion(bob, [.text("c")]),
            .deletion(ann, [.text("d")]),
        ])])
        let review = ReviewOptions(accept: [try ChangeFilter(parsing: "author=Ann")])
        let out = try doc.applying([ReviewTransform(review)])
        XCTAssertEqual(out.blocks, [para([.text("a"), .deletion(bob, [.text("b")]), .insertion(bob, [.text("c")])])])
    }

    func testRejectWinsOverAcceptAndModeAppliesToTheRest() throws {
        let doc = Document(blocks: [para([.insertion(ann, [.text("a")]), .insertion(bob, [.text("b")])])])
        let review = ReviewOptions(changes: .accept, accept: [try ChangeFilter(parsing: "author=Bob")],
                                   reject: [try ChangeFilter(parsing: "id=2")])
        XCTAssertEqual(try doc.applying([ReviewTransform(review)]).blocks, [para([.text("a")])])
    }

    func testSubstitutionHalvesAreDecidedByKind() throws {
        let doc = Document(blocks: [para([.substitution(ann, deleted: [.text("old")], inserted: [.text("new")])])])
        let acceptInsertions = ReviewOptions(accept: [try ChangeFilter(parsing: "kind=insertion")])
        XCTAssertEqual(try doc.applying([ReviewTransform(acceptInsertions)]).blocks,
                       [para([.deletion(ann, [.text("old")]), .text("new")])])
    }

    func testParagraphMarksAndRowsFollowTheirDecisions() throws {
        let doc = Document(blocks: [
            para([.text("one ")], mark: .deleted(ann)), para([.text("two")]),
            para([.text("three ")], mark: .deleted(bob)), para([.text("four")]),
            .table(Table(columns: [.none], headerRowCount: 0, rows: [
                TableRow([TableCell([para([.text("r1")])])], change: .inserted(ann)),
                TableRow([TableCell([para([.text("r2")])])], change: .inserted(bob)),
            ])),
        ])
        let review = ReviewOptions(accept: [try ChangeFilter(parsing: "author=Ann")])
        let out = try doc.applying([ReviewTransform(review)])
        XCTAssertEqual(out.blocks, [
            para([.text("one two")]),
            para([.text("three ")], mark: .deleted(bob)), para([.text("four")]),
            .table(Table(columns: [.none], headerRowCount: 0, rows: [
                TableRow([TableCell([para([.text("r1")])])]),
                TableRow([TableCell([para([.text("r2")])])], change: .inserted(bob)),
            ])),
        ])
    }

    func testCommentPolicies() throws {
        let doc = Document(blocks: [para([.commentStart("1"), .text("x"), .commentEnd("1"), .commentPoint("2")])],
                           comments: [Comment(id: "1", author: "Ann", body: [], resolved: true),
                                      Comment(id: "3", author: "Bob", body: [], parentID: "1"),
                                      Comment(id: "2", author: "Bob", body: [])])
        let resolvedGone = try doc.applying([DropComments(ReviewOptions(comments: .dropResolved))])
        XCTAssertEqual(resolvedGone.blocks, [para([.text("x"), .commentPoint("2")])])
        XCTAssertEqual(resolvedGone.comments.map(\.id), ["2"])
        let bobGone = try doc.applying([DropComments(ReviewOptions(dropComments: [try ChangeFilter(parsing: "author=Bob")]))])
        XCTAssertEqual(bobGone.comments.map(\.id), ["1"])
        XCTAssertEqual(bobGone.blocks, [para([.commentStart("1"), .text("x"), .commentEnd("1")])])
        XCTAssertTrue(ReviewOptions().keepsAllComments)
        XCTAssertFalse(ReviewOptions(changes: .accept).keepsAllComments)
    }
}

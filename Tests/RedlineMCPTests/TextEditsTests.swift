import XCTest
@testable import RedlineMCP
import Redline

final class TextEditsTests: XCTestCase {
    private func doc(_ inlines: [Inline]) -> Document { Document(blocks: [.paragraph(Paragraph(inlines))]) }

    func testReplaceAcrossFormattingKeepsTheRest() throws {
        let d = doc([.text("The quick "), .strong([.text("brown")]), .text(" fox")])
        let m = try TextEdits.locate(find: "quick brown", context: nil, in: d, occurrence: nil)
        let e = TextEdits.replace(in: d, at: m, with: "slow red")
        XCTAssertEqual(TextEdits.paragraphTexts(e), ["The slow red fox"])
    }

    func testDeletedTextDoesNotCount() throws {
        let d = doc([.text("a "), .deletion(Change(author: "X"), [.text("old ")]), .text("new b")])
        XCTAssertEqual(TextEdits.paragraphTexts(d), ["a new b"])
        let m = try TextEdits.locate("a new", in: d, occurrence: nil, what: "quote")
        let e = TextEdits.replace(in: d, at: m, with: "A NEW")
        XCTAssertEqual(TextEdits.paragraphTexts(e), ["A NEW b"])
    }

    func testAmbiguousAndMissingAndContext() throws {
        let d = doc([.text("one two one two")])
        XCTAssertThrowsError(try TextEdits.locate("one", in: d, occurrence: nil, what: "find"))
        XCTAssertThrowsError(try TextEdits.locate("three", in: d, occurrence: nil, what: "find"))
        let m = try TextEdits.locate("one", in: d, occurrence: 2, what: "find")
        XCTAssertEqual(m.start, 8)
        let c = try TextEdits.locate(find: "two", context: "two one", in: d, occurrence: nil)
        XCTAssertEqual(c.start, 4)
    }

    func testCommentAnchorsAroundQuote() throws {
        let d = doc([.text("Hello "), .emphasis([.text("big")]), .text(" world")])
        let m = try TextEdits.locate("big world", in: d, occurrence: nil, what: "quote")
        let e = TextEdits.addComment(to: d, at: m, comment: Comment(id: "1", author: "A", body: []))
        guard case .paragraph(let p) = e.blocks[0] else { return XCTFail() }
        XCTAssertEqual(p.content, [.text("Hello "), .emphasis([.commentStart("1"), .text("big")]), .text(" world"), .commentEnd("1")])
        XCTAssertEqual(e.comments.map(\.id), ["1"])
    }
}

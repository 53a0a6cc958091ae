import XCTest
@testable import RedlineMarkdown

/// The Markdown reader mirrors cmark's tree of a whole paragraph before converting it, one `MDNode` per
/// inline (PERFORMANCE.md, "Small runs"): block-only fields live out of line, so a node stays small.
final class MDNodeLayoutTests: XCTestCase {
    func testNodeStaysSmall() {
        XCTAssertLessThanOrEqual(MemoryLayout<MDNode>.stride, 56, "MDNode grew (it was 128 bytes): keep block fields out of line")
    }

    func testOutOfLineFieldsAreValues() throws {
        var a = MDNode(kind: .link)
        a.url = "https://e.com"
        a.startLine = 3
        var b = a
        b.url = "other"
        b.level = 2
        XCTAssertEqual(a.url, "https://e.com")
        XCTAssertEqual(a.level, 0)
        XCTAssertEqual(b.url, "other")
        XCTAssertEqual(b.startLine, 3)
        let doc = try Cmark.parse(Array("# H\n\n1) [x](u \"t\") *e*\n".utf8))
        XCTAssertEqual(doc.children[0].level, 1)
        XCTAssertEqual(doc.children[1].start, 1)
        XCTAssertTrue(doc.children[1].ordered && doc.children[1].parenDelimiter)
        let link = doc.children[1].children[0].children[0].children[0]
        XCTAssertEqual(link.kind, .link)
        XCTAssertEqual(link.url, "u")
        XCTAssertEqual(link.title, "t")
    }
}

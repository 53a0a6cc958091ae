import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// The reader's cuts between top-level blocks (`Segmenter`): where cmark may parse the parts apart.
final class SegmenterTests: XCTestCase {
    private func segments(_ s: String) -> [String] {
        let bytes = Array(s.utf8)
        return Segmenter(bytes).segments.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    func testAListAfterAnotherBlockStartsAPart() {
        // Lists each closed by an HTML block (a lone tag right after the item): many small parts, not one.
        XCTAssertEqual(segments("- a\n<mark>\n\n- b\n<mark>\n\n- c\n"), ["- a\n<mark>\n\n", "- b\n<mark>\n\n", "- c\n"])
        XCTAssertEqual(segments("- a\n# h\n\n- b\n"), ["- a\n# h\n\n", "- b\n"])
        XCTAssertEqual(segments("- a\n```\n```\n\n- b\n"), ["- a\n```\n```\n\n", "- b\n"])
        XCTAssertEqual(segments("p\n\n- a\n"), ["p\n\n", "- a\n"])
    }

    func testCodeLeftOpenInAQuoteDoesNotStopTheCuts() {
        XCTAssertEqual(segments("> ```\n\np\n\nq\n"), ["> ```\n\n", "p\n\n", "q\n"])
        XCTAssertEqual(segments("```\n\np\n\nq\n"), ["```\n\np\n\nq\n"])
    }

    func testALooseListOrAQuoteIsNotCut() {
        XCTAssertEqual(segments("- a\n\n- b\n\n- c\n"), ["- a\n\n- b\n\n- c\n"])
        XCTAssertEqual(segments("- a\nlazy\n\n- b\n"), ["- a\nlazy\n\n- b\n"])
        XCTAssertEqual(segments("> q\n\n- a\n"), ["> q\n\n- a\n"])
        XCTAssertEqual(segments("- a\n\n  b\n\n- c\n"), ["- a\n\n  b\n\n- c\n"])
    }

    func testPartsParseAsTheWholeDocument() throws {
        // What the cuts give, parsed, is what cmark gives the whole (the Markdown round trip and HTML agree).
        let text = "- a\n<mark>\n\n- b\n# h\n\n1. c\n\n2. d\n```\nx\n```\n\n- e\n"
        let doc = try MarkdownReader.document(text, diagnostics: Diagnostics())
        let kinds = doc.blocks.map { b -> String in
            switch b {
            case .list: "list"
            case .raw: "raw"
            case .heading: "heading"
            case .codeBlock: "code"
            default: "other"
            }
        }
        XCTAssertEqual(kinds, ["list", "raw", "list", "heading", "list", "code", "list"])
        if case .list(let l) = doc.blocks[4] { XCTAssertEqual(l.items.count, 2) } else { XCTFail() }
    }
}

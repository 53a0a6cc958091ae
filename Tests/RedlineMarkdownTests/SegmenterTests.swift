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
        // (The tag, heading or code is a part of its own too: each starts a new block at column 0.)
        XCTAssertEqual(segments("- a\n<mark>\n\n- b\n<mark>\n\n- c\n"), ["- a\n", "<mark>\n\n", "- b\n", "<mark>\n\n", "- c\n"])
        XCTAssertEqual(segments("- a\n# h\n\n- b\n"), ["- a\n", "# h\n\n", "- b\n"])
        XCTAssertEqual(segments("- a\n```\n```\n\n- b\n"), ["- a\n", "```\n```\n\n", "- b\n"])
        XCTAssertEqual(segments("p\n\n- a\n"), ["p\n\n", "- a\n"])
    }

    func testCodeLeftOpenInAQuoteDoesNotStopTheCuts() {
        XCTAssertEqual(segments("> ```\n\np\n\nq\n"), ["> ```\n\n", "p\n\n", "q\n"])
        XCTAssertEqual(segments("```\n\np\n\nq\n"), ["```\n\np\n\nq\n"])
    }

    func testAHeadingCodeOrHTMLAtColumnZeroIsACutWithoutABlankLine() {
        XCTAssertEqual(segments("# a\np\n# b\nq\n"), ["# a\np\n", "# b\nq\n"])
        XCTAssertEqual(segments("p\n```\nx\n```\n- a\n<div>\n"), ["p\n", "```\nx\n```\n- a\n", "<div>\n"])
        // Not a heading inside a list item, nor `#` without a space, nor a lone tag that continues a paragraph.
        XCTAssertEqual(segments("- a\n  # b\n"), ["- a\n  # b\n"])
        XCTAssertEqual(segments("#c\np\n<mark>\n"), ["#c\np\n<mark>\n"])
    }

    func testPartsWithoutBlankLinesParseAsTheWholeDocument() throws {
        let text = "# A\ntext {++ins\n# B\nmore++}\n- item\n# C\n> quote\n```\ncode\n```\n<div>\nx\n"
        let doc = try MarkdownReader.document(text, diagnostics: Diagnostics())
        XCTAssertEqual(doc.blocks.count, 9, "\(doc.blocks)")
        XCTAssertEqual(try MarkdownReader.document(try MarkdownWriter.string(doc, options: WriteOptions(), diagnostics: Diagnostics()),
                                                   diagnostics: Diagnostics()), doc)
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

/// The nesting check made before cmark parses (`Cmark.opensTooDeep`): cmark builds every level of a line of
/// markers before the depth is seen, about 300 bytes a level.
final class NestingPrecheckTests: XCTestCase {
    func testALineOpeningTooManyLevelsIsFoundBeforeParsing() {
        let deep = String(repeating: ">", count: 3_000)
        XCTAssertTrue(Cmark.opensTooDeep(Array((deep + " x\n").utf8), limit: 2_000))
        XCTAssertTrue(Cmark.opensTooDeep(Array(("p\n\n" + String(repeating: "- > 1. ", count: 1_000) + "x\n").utf8), limit: 2_000))
        XCTAssertFalse(Cmark.opensTooDeep(Array((String(repeating: "> ", count: 1_990) + "x\n").utf8), limit: 2_000))
        // Nothing opens in code, in an HTML block, or on a thematic break.
        XCTAssertFalse(Cmark.opensTooDeep(Array(("```\n" + deep + "\n```\n").utf8), limit: 2_000))
        XCTAssertFalse(Cmark.opensTooDeep(Array(("    " + deep + "\n").utf8), limit: 2_000))
        XCTAssertFalse(Cmark.opensTooDeep(Array(("<div>\n" + deep + "\n").utf8), limit: 2_000))
        XCTAssertFalse(Cmark.opensTooDeep(Array((String(repeating: "* ", count: 3_000) + "\n").utf8), limit: 2_000))
    }

    func testAMillionQuoteMarkersFailWithTheNestingError() {
        let text = String(repeating: ">", count: 1_000_000) + " <div>\n"
        XCTAssertThrowsError(try MarkdownReader.document(text, diagnostics: Diagnostics())) { error in
            XCTAssertTrue("\(error)".contains("nesting deeper than 2000"), "\(error)")
        }
        // A thematic break of many markers is read as one.
        let rule = try? MarkdownReader.document(String(repeating: "* ", count: 3_000) + "\n", diagnostics: Diagnostics())
        XCTAssertEqual(rule?.blocks, [.thematicBreak])
    }
}

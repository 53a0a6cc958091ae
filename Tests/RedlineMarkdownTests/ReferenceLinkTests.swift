import XCTest
import RedlineCore
@testable import RedlineMarkdown

/// Issue 29: reference-style links stay reference links. A link whose target a definition gives keeps that
/// definition's label (`Link.label`, not part of the link's value); the writer writes `[text][label]` (`[label]`
/// when the text is the label) and the definitions after the block that first uses them.
final class ReferenceLinkTests: XCTestCase {
    private func roundTrip(_ md: String) throws -> String {
        try MarkdownWriter.string(try MarkdownReader.document(md))
    }

    func testReferenceLinksAndTheirDefinitionsComeBack() throws {
        let md = """
        See [the manual][man] and [pandoc], then [the manual][man] again.

        [man]: https://example.com/manual "The Manual"
        [pandoc]: https://pandoc.org

        Later, [Pandoc] and an inline [link](https://example.org).

        """
        XCTAssertEqual(try roundTrip(md), md)
        let doc = try MarkdownReader.document(md)
        var labels: [String?] = []
        for b in doc.blocks { b.forEachInline { if case .link(let l, _) = $0 { labels.append(l.label) } } }
        XCTAssertEqual(labels, ["man", "pandoc", "man", "pandoc", nil])
        // The label is no part of the link's value: the same target inline or by reference is the same link.
        XCTAssertEqual(Link(url: "https://pandoc.org", label: "pandoc"), Link(url: "https://pandoc.org"))
    }

    func testDefinitionsAtTheEndAreWrittenAfterTheirFirstUse() throws {
        let md = """
        First [a].

        Second [b][b-label].

        [a]: https://a.example
        [b-label]: <https://b.example/with space>
        """
        XCTAssertEqual(try roundTrip(md), """
        First [a].

        [a]: https://a.example

        Second [b][b-label].

        [b-label]: <https://b.example/with space>

        """)
    }

    func testAReferenceLinkInsideAChangeAndAConflictingLabel() throws {
        // One label for two targets (a document assembled from two sources): the second is written inline.
        var second = Link(url: "https://two.example")
        second.label = "x"
        let doc = Document(blocks: [
            .paragraph(Paragraph([.insertion(Change(author: "Ann"), [.link(Link(url: "https://one.example", label: "x"), [.text("one")])])])),
            .paragraph(Paragraph([.link(second, [.text("two")])])),
        ])
        let md = try MarkdownWriter.string(doc)
        XCTAssertEqual(md, """
        {++[one][x]++}{>>@Ann [mark-kept]<<}

        [x]: https://one.example

        [two](https://two.example)

        """)
        let back = try MarkdownReader.document(md)
        XCTAssertEqual(back.blocks.map(\.plainText), ["one", "two"])
        guard case .insertion(_, let inner)? = back.blocks[0].paragraph?.content.first, case .link(let l, _)? = inner.first else {
            return XCTFail("\(back.blocks[0])")
        }
        XCTAssertEqual(l.url, "https://one.example")
        XCTAssertEqual(l.label, "x")
    }
}

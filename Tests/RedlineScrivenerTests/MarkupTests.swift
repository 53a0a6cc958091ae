import XCTest
@testable import RedlineScrivener
import RedlineCore

final class MarkupTests: XCTestCase {
    private func resolve(_ content: [Inline], comments: [String: (isFootnote: Bool, body: [Block])] = [:],
                         order: [String] = [], targets: [String: String] = [:]) -> (Document, Diagnostics) {
        let d = Diagnostics()
        var m = ScrivenerMarkup(comments: comments, commentOrder: order, idPrefix: "DOC", diagnostics: d) { targets[$0] }
        return (m.resolve(Document(blocks: [.paragraph(Paragraph(content))])), d)
    }

    private func body(_ s: String) -> [Block] { [.paragraph(Paragraph([.text(s)]))] }

    func testCommentAnchorBecomesARange() {
        let (doc, d) = resolve([.text("lit for "), .link(Link(url: "scrivcmt://C1"), [.text("forty years")]), .text(".")],
                               comments: ["C1": (false, body("Check."))], order: ["C1"])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("lit for "), .commentStart("C1"), .text("forty years"),
                                                          .commentEnd("C1"), .text(".")]))])
        XCTAssertEqual(doc.comments, [Comment(id: "C1", body: body("Check."))])
        XCTAssertTrue(d.all.isEmpty)
    }

    func testFootnoteAnchorKeepsTextAndAddsReference() {
        let (doc, _) = resolve([.link(Link(url: "scrivcmt://F1"), [.emphasis([.text("steps")])]), .text(" on")],
                               comments: ["F1": (true, body("127."))], order: ["F1"])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.emphasis([.text("steps")]), .noteReference("F1"), .text(" on")]))])
        XCTAssertEqual(doc.notes, [Note(id: "F1", blocks: body("127."))])
    }

    func testFormattedSpanUnderOneAnchorStaysOneComment() {
        let (doc, _) = resolve([.link(Link(url: "scrivcmt://C1"), [.text("a "), .strong([.text("b")]), .text(" c")])],
                               comments: ["C1": (false, body("x"))], order: ["C1"])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.commentStart("C1"), .text("a "), .strong([.text("b")]),
                                                          .text(" c"), .commentEnd("C1")]))])
    }

    func testMissingCommentKeepsTextWithWarning() {
        let (doc, d) = resolve([.text("Nobody "), .link(Link(url: "scrivcmt://GONE"), [.text("slept")])])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("Nobody slept")]))])
        XCTAssertEqual(d.count(of: .scrivenerCommentMissing), 1)
    }

    func testUnanchoredCommentsAttachAtTheEnd() {
        let (doc, d) = resolve([.text("Text.")], comments: ["C9": (false, body("orphan")), "F9": (true, body("fn"))],
                               order: ["C9", "F9"])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("Text."), .commentPoint("C9"), .noteReference("F9")]))])
        XCTAssertEqual(doc.comments.map(\.id), ["C9"])
        XCTAssertEqual(doc.notes.map(\.id), ["F9"])
        XCTAssertEqual(d.count(of: .scrivenerCommentUnanchored), 2)
    }

    func testInternalLinksAreRetargetedOrDropped() {
        let (doc, d) = resolve([.link(Link(url: "scrivlnk://AAA"), [.text("here")]), .text(" and "),
                                .link(Link(url: "scrivlnk://BBB"), [.text("there")]), .text(" "),
                                .link(Link(url: "https://example.org"), [.text("web")])],
                               targets: ["AAA": "02-keeper.md"])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.link(Link(url: "02-keeper.md"), [.text("here")]),
                                                          .text(" and there "),
                                                          .link(Link(url: "https://example.org"), [.text("web")])]))])
        XCTAssertEqual(d.count(of: .scrivenerLinkTargetMissing), 1)
    }

    func testInlineFootnoteAndAnnotation() {
        let (doc, _) = resolve([.text("high{\\Scrv_fn=Tide "), .emphasis([.text("tables")]),
                                .text(".\\end_Scrv_fn} and {\\Scrv_annot \\color={\\R=1.0\\G=0.6} \\text=Check wind.\\end_Scrv_annot}rose.")])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("high"), .noteReference("DOC-fn1"), .text(" and "),
                                                          .commentPoint("DOC-an2"), .text("rose.")]))])
        XCTAssertEqual(doc.notes, [Note(id: "DOC-fn1", blocks: [.paragraph(Paragraph([.text("Tide "), .emphasis([.text("tables")]), .text(".")]))])])
        XCTAssertEqual(doc.comments, [Comment(id: "DOC-an2", body: body("Check wind."))])
    }

    func testStyleMarkersAreRemoved() {
        let (doc, _) = resolve([.text("<$Scr_Ps::0>He kept the log.<!$Scr_Ps::0> <$ScrKeepWithNext>Next")])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("He kept the log. Next")]))])
    }

    func testUnfinishedInlineNoteIsLeftAsText() {
        let (doc, _) = resolve([.text("a {\\Scrv_fn=never closed")])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("a {\\Scrv_fn=never closed")]))])
    }

    func testPlainParagraphIsUntouched() {
        let content: [Inline] = [.styled(CharacterStyle(fontFamily: "Palatino", fontSize: 13), [.text("Plain.")])]
        let (doc, _) = resolve(content)
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph(content))])
    }
}

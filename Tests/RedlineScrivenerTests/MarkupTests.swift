import XCTest
@testable import RedlineScrivener
import RedlineCore
import RedlineRTF

final class MarkupTests: XCTestCase {
    private func resolve(_ content: [Inline], annotations: [(id: String, annotation: ScrivenerAnnotation)] = [])
        -> (Document, Diagnostics) {
        let d = Diagnostics()
        var m = ScrivenerMarkup(annotations: annotations, idPrefix: "DOC", diagnostics: d)
        return (m.resolve(Document(blocks: [.paragraph(Paragraph(content))])), d)
    }

    private func body(_ s: String) -> [Block] { [.paragraph(Paragraph([.text(s)]))] }

    func testAnchoredAnnotationsAreLeftToTheReader() {
        let (doc, d) = resolve([.commentStart("C1"), .text("forty"), .commentEnd("C1"), .text("x"), .noteReference("F1")],
                               annotations: [("C1", .comment(Comment(id: "C1", body: body("c")))),
                                             ("F1", .footnote(Note(id: "F1", blocks: body("f"))))])
        XCTAssertTrue(doc.comments.isEmpty && doc.notes.isEmpty, "the reader delivers anchored ones")
        XCTAssertTrue(d.all.isEmpty)
    }

    func testUnanchoredCommentsAttachAtTheEnd() {
        let (doc, d) = resolve([.text("Text.")], annotations: [("C9", .comment(Comment(id: "C9", body: body("orphan")))),
                                                              ("F9", .footnote(Note(id: "F9", blocks: body("fn"))))])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("Text."), .commentPoint("C9"), .noteReference("F9")]))])
        XCTAssertEqual(doc.comments, [Comment(id: "C9", body: body("orphan"))])
        XCTAssertEqual(doc.notes, [Note(id: "F9", blocks: body("fn"))])
        XCTAssertEqual(d.count(of: .scrivenerCommentUnanchored), 2)
    }

    func testLinksToItemsNotMigratedKeepTheirText() {
        let (doc, d) = resolve([.link(Link(url: "scrivlnk://BBB"), [.text("there")]), .text(" "),
                                .link(Link(url: "02-keeper.md"), [.text("here")])])
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("there "), .link(Link(url: "02-keeper.md"), [.text("here")])]))])
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

import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// `preserveFormatting` gaps found on RTF → Markdown → RTF: fenced divs around paragraphs that end in
/// a comment or a hard break, spaces after hard breaks, table widths and header rows, header defaults.
final class KeepFormattingTests: XCTestCase {
    private func write(_ doc: Document, keep: Bool = true) throws -> String {
        var o = WriteOptions()
        o.preserveFormatting = keep
        return try MarkdownWriter.string(doc, options: o)
    }

    func testDivClosesAfterAHardBreakAtTheEndOfItsParagraph() throws {
        let d = Diagnostics()
        for text in ["::: {align=center}\nText{>>note<<}  \n:::\n\nNext.\n", "::: {align=center}\nText\\\n:::\n\nNext.\n",
                     "> ::: {align=center}\n> Text{>>note<<}   \n> :::\n\nNext.\n"] {
            let doc = try MarkdownReader.document(text, diagnostics: d)
            let p = try XCTUnwrap(doc.blocks.first?.paragraph ?? doc.blocks.first.flatMap { b -> Paragraph? in
                if case .blockQuote(let inner) = b { return inner.first?.paragraph }
                return nil
            })
            XCTAssertEqual(p.style.alignment, .center, text)
            XCTAssertFalse(Block.paragraph(p).plainText.contains(":::"), text)
            XCTAssertEqual(doc.blocks.last?.paragraph?.style, ParagraphStyle(), text)
        }
        XCTAssertTrue(d.all.isEmpty, "\(d.all)")
    }

    func testStyledParagraphEndingInCommentAndSpacesRoundTrips() throws {
        var style = ParagraphStyle()
        style.alignment = .center
        let doc = Document(blocks: [.paragraph(Paragraph([.text("Text"), .commentPoint("1"), .text("  ")], style: style)),
                                    .paragraph(Paragraph([.text("Next.")]))],
                           comments: [Comment(id: "1", author: "Ann", body: [.paragraph(Paragraph([.text("note")]))])])
        let md = try write(doc)
        let back = try MarkdownReader.document(md)
        XCTAssertEqual(back.blocks.count, 2, md)
        XCTAssertEqual(back.blocks[0].paragraph?.style, style, md)
        XCTAssertEqual(back.blocks[1].paragraph?.style, ParagraphStyle(), md)
    }
}

extension KeepFormattingTests {
    func testSpacesAtLineEdgesSurviveWithPreserveFormatting() throws {
        let doc = Document(blocks: [
            .paragraph(Paragraph([.text("a"), .lineBreak, .text(" b")])),
            .paragraph(Paragraph([.text("  indented"), .softBreak, .text("\tx "), .lineBreak, .text("end  ")])),
        ])
        let md = try write(doc)
        XCTAssertEqual(try MarkdownReader.document(md), doc, md)
        // Without it, Markdown drops them as before (the canonical form has none).
        let plain = try MarkdownReader.document(try write(doc, keep: false))
        XCTAssertEqual(plain.blocks[0], .paragraph(Paragraph([.text("a"), .lineBreak, .text("b")])))
    }
}

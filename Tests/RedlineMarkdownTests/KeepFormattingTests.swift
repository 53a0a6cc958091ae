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

extension KeepFormattingTests {
    func testTableWidthsAndHeaderRowsSurviveWithPreserveFormatting() throws {
        let row = { (a: String, b: String) in TableRow([TableCell([.paragraph(Paragraph([.text(a)]))]), TableCell([.paragraph(Paragraph([.text(b)]))])]) }
        for (widths, headers) in [([72.0, 144.5] as [Double]?, 0), (nil, 0), ([36, 36], 1), (nil, 2)] {
            let t = Table(columns: [.left, .none], columnWidths: widths, headerRowCount: headers, rows: [row("a", "b"), row("c", "d")])
            let doc = Document(blocks: [.table(t), .paragraph(Paragraph([.text("After.")]))])
            let d = Diagnostics()
            let md = try write(doc)
            XCTAssertEqual(try MarkdownReader.document(md, diagnostics: d), doc, md)
            XCTAssertTrue(d.all.isEmpty, "\(d.all)")
        }
        // Without it: one header row, no widths, and the loss reported.
        let t = Table(columns: [.none], columnWidths: [50], headerRowCount: 0, rows: [TableRow([TableCell([.paragraph(Paragraph([.text("x")]))])])])
        let d = Diagnostics()
        let plain = try MarkdownWriter.string(Document(blocks: [.table(t)]), diagnostics: d)
        XCTAssertEqual(plain, "| x |\n| --- |\n")
        XCTAssertTrue(d.all.contains { $0.code == .lossyTableStructure })
    }
}

extension KeepFormattingTests {
    func testDefaultStylesSurviveWithPreserveFormatting() throws {
        var header = DocumentHeader(metadata: Metadata(fields: [.init(key: "title", value: .text("T"))]))
        header.defaultParagraphStyle.alignment = .justified
        header.defaultParagraphStyle.firstLineIndent = 36
        header.defaultParagraphStyle.tabStops = [TabStop(position: 36)]
        header.defaultCharacterStyle.fontFamily = "Palatino Linotype"
        header.defaultCharacterStyle.fontSize = 12.5
        let doc = Document(header: header, blocks: [.paragraph(Paragraph([.text("x")]))])
        let md = try write(doc)
        XCTAssertTrue(md.hasPrefix("---\ntitle: \"T\"\ndefault-paragraph-style: "), md)
        let d = Diagnostics()
        XCTAssertEqual(try MarkdownReader.document(md, diagnostics: d), doc, md)
        XCTAssertTrue(d.all.isEmpty, "\(d.all)")
        // Without preserveFormatting the front matter holds the metadata only.
        XCTAssertEqual(try write(doc, keep: false), "---\ntitle: \"T\"\n---\n\nx\n")
    }
}

extension KeepFormattingTests {
    func testCellParagraphStyleGoesOnTheTableDiv() throws {
        var style = ParagraphStyle()
        style.alignment = .justified
        style.name = "Table Contents"
        let cell = { (s: String, st: ParagraphStyle) in TableCell([.paragraph(Paragraph([.text(s)], style: st))]) }
        let t = Table(columns: [.none, .none], headerRowCount: 1, rows: [TableRow([cell("a", style), cell("b", style)])])
        let doc = Document(blocks: [.table(t)])
        let md = try write(doc)
        XCTAssertTrue(md.hasPrefix("::: {custom-style=\"Table Contents\" align=justified}\n\n| a | b |"), md)
        XCTAssertEqual(try MarkdownReader.document(md), doc, md)
        // Cells of different styles: the most common one is kept, the other reported.
        var other = style
        other.alignment = .center
        let mixed = Table(columns: [.none, .none], headerRowCount: 1, rows: [TableRow([cell("a", style), cell("b", other)]), TableRow([cell("c", style), cell("d", style)])])
        let d = Diagnostics()
        var o = WriteOptions()
        o.preserveFormatting = true
        let back = try MarkdownReader.document(try MarkdownWriter.string(Document(blocks: [.table(mixed)]), options: o, diagnostics: d))
        guard case .table(let bt)? = back.blocks.first else { return XCTFail("no table") }
        XCTAssertEqual(bt.rows[0].cells[1].blocks.first?.paragraph?.style, style)
        XCTAssertTrue(d.all.contains { $0.code == .lossyAlignment }, "\(d.all)")
    }
}

extension KeepFormattingTests {
    /// RTF lists (pandoc's list_multiparagraph.rtf) hold tight items of two paragraphs: written tight,
    /// the paragraphs joined into one.
    func testTightListItemWithTwoParagraphsKeepsThem() throws {
        let item = [Block.paragraph(Paragraph([.text("one")])), .paragraph(Paragraph([.text("two")]))]
        let doc = Document(blocks: [.list(List(kind: .bullet, tight: true, items: [item, [.paragraph(Paragraph([.text("three")]))]]))])
        let d = Diagnostics()
        let md = try MarkdownWriter.string(doc, diagnostics: d)
        guard case .list(let l)? = try MarkdownReader.document(md).blocks.first else { return XCTFail(md) }
        XCTAssertEqual(l.items.map(\.count), [2, 1], md)
        XCTAssertFalse(l.tight)
        XCTAssertTrue(d.all.contains { $0.code == .lossyListSpacing }, "\(d.all)")
    }
}

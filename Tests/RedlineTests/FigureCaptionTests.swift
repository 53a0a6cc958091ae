import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// Figures (issue 29): a Markdown figure, a picture alone in its paragraph whose alt text is its caption, is a
/// "Captioned Figure" paragraph and an "Image Caption" paragraph under it in DOCX and RTF (pandoc's form), so Word
/// shows the caption; read back, the caption goes into the figure again, so md → DOCX → md and md → RTF → md give
/// the figure back, once. A document with formatting of its own (Word's) gets no caption it did not have.
final class FigureCaptionTests: XCTestCase {
    /// A 2×2 PNG.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02,
        0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xFD, 0xD4, 0x9A, 0x73, 0x00, 0x00, 0x00, 0x0F, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x84, 0x19, 0x00, 0x1F, 0xEE, 0x03, 0xFD, 0x9C, 0x2D, 0xF5, 0x89,
        0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("redline-figure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(Self.png).write(to: dir.appendingPathComponent("plant.png"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func documentXML(_ docx: [UInt8]) throws -> String {
        String(decoding: try ZipEntries.read(docx).first { $0.name == "word/document.xml" }?.bytes ?? [], as: UTF8.self)
    }

    private func readMarkdown(_ text: String) throws -> Document {
        let path = dir.appendingPathComponent("paper.md").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try Converter.read(.file(path), format: FormatRegistry.markdown, options: ReadOptions(loadLinkedMedia: true), diagnostics: Diagnostics())
    }

    private func write(_ doc: Document, _ format: Format) throws -> [UInt8] {
        let out = MemoryOutput()
        try Converter.write(doc, format: format, to: out, options: WriteOptions(), diagnostics: Diagnostics())
        return out.bytes
    }

    private func read(_ bytes: [UInt8], _ format: Format) throws -> Document {
        try Converter.read(.bytes(bytes), format: format, diagnostics: Diagnostics())
    }

    /// The blocks as "style: text" lines, a picture as `[picture alt]`.
    private func outline(_ doc: Document) -> [String] {
        doc.blocks.map { b in
            let p = b.paragraph
            let text = p?.content.map { i -> String in
                if case .image(let img) = i { return "[picture \(img.alt)]" }
                return Block.paragraph(Paragraph([i])).plainText
            }.joined() ?? b.plainText
            return "\(p?.style.name ?? "-"): \(text)"
        }
    }

    static let source = """
        Text before.

        ![Height of the plants](plant.png)

        ![](plant.png)

        Text with ![an inline picture](plant.png) in it.

        """

    func testAFigureGetsACaptionInDOCXAndRTFAndComesBackOnce() throws {
        let doc = try readMarkdown(Self.source)
        let expected = ["-: Text before.", "-: [picture Height of the plants]", "-: [picture ]", "-: Text with [picture an inline picture] in it."]
        XCTAssertEqual(outline(doc), expected)
        let docx = try write(doc, FormatRegistry.docx)
        let xml = try documentXML(docx)
        // One caption: the figure's (not the picture without alt text, not the inline one).
        XCTAssertEqual(xml.components(separatedBy: "<w:pStyle w:val=\"ImageCaption\"/>").count - 1, 1, xml)
        XCTAssertTrue(xml.contains("<w:pStyle w:val=\"ImageCaption\"/></w:pPr><w:r><w:t xml:space=\"preserve\">Height of the plants</w:t>"), xml)
        XCTAssertEqual(xml.components(separatedBy: "<w:pStyle w:val=\"CaptionedFigure\"/>").count - 1, 1)
        let file = dir.appendingPathComponent("figure.docx")
        try Data(docx).write(to: file)
        try OOXMLValidate.assertValid(file.path)
        XCTAssertEqual(outline(try read(docx, FormatRegistry.docx)), expected)
        let rtf = try write(doc, FormatRegistry.rtf)
        XCTAssertTrue(String(decoding: rtf, as: UTF8.self).contains("{Height of the plants}\\par"), String(decoding: rtf, as: UTF8.self))
        XCTAssertEqual(outline(try read(rtf, FormatRegistry.rtf)), expected)
        // And again: a DOCX written from the DOCX read keeps the figure's caption (the model has no caption
        // paragraph to write twice, and a DOCX source with Redline's default styles is no "formatted" source).
        let again = try documentXML(try write(try read(docx, FormatRegistry.docx), FormatRegistry.docx))
        XCTAssertLessThanOrEqual(again.components(separatedBy: "Height of the plants</w:t>").count - 1, 1, again)
    }

    /// HTML: the figure is a `figure` with the alt text as its `figcaption` (as pandoc writes it); a picture among
    /// words or without alt text stays in its paragraph.
    func testHTMLWritesAFigure() throws {
        let doc = try readMarkdown(Self.source)
        let html = String(decoding: try write(doc, FormatRegistry.html), as: UTF8.self)
        XCTAssertEqual(html.components(separatedBy: "<figure>").count - 1, 1, html)
        XCTAssertTrue(html.contains("<figcaption aria-hidden=\"true\">Height of the plants</figcaption>\n</figure>"), html)
        XCTAssertTrue(html.contains("<p>Text with <img"), html)
    }

    /// A caption paragraph that is not the picture's alt text stays a paragraph of its own; so does a picture in a
    /// formatted document (Word's), which gets no caption added.
    func testOnlyTheAltTextsCaptionIsTakenIntoTheFigure() throws {
        let doc = try readMarkdown("![Height of the plants](plant.png)\n\n::: {custom-style=\"Image Caption\"}\nFigure 1: Another caption\n:::\n")
        let back = try read(try write(doc, FormatRegistry.docx), FormatRegistry.docx)
        XCTAssertEqual(outline(back), ["-: [picture Height of the plants]", "Image Caption: Figure 1: Another caption"])
        var formatted = doc
        formatted.blocks = [doc.blocks[0]]
        formatted.header.defaultParagraphStyle = ParagraphStyle(spaceAfter: 6)
        let xml = try documentXML(try write(formatted, FormatRegistry.docx))
        XCTAssertFalse(xml.contains("ImageCaption"), xml)
    }

    /// pandoc's own DOCX of a figure reads as the figure, once.
    func testPandocsFigureReadsAsAFigure() throws {
        try TestProcess.require("pandoc")
        let md = dir.appendingPathComponent("paper.md"), docx = dir.appendingPathComponent("pandoc.docx")
        try Self.source.write(to: md, atomically: true, encoding: .utf8)
        _ = try TestProcess.run(["pandoc", md.path, "-o", docx.path], in: dir)
        let doc = try Converter.read(.file(docx.path), format: FormatRegistry.docx, diagnostics: Diagnostics())
        let lines = outline(doc)
        XCTAssertTrue(lines.contains("-: [picture Height of the plants]"), "\(lines)")
        XCTAssertFalse(lines.contains { $0.hasSuffix(": Height of the plants") }, "\(lines)")
    }
}

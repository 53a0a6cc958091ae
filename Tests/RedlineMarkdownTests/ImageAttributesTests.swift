import Foundation
import XCTest
@testable import RedlineMarkdown
import RedlineCore
import RedlineDOCX
import RedlineTestSupport

/// A picture's attribute list (`![Height](fig.png){#fig-height width=50%}`): written back as the author wrote
/// it, its size the picture's size in DOCX (a percentage of a 6.5-inch text width), never text in Word, and back
/// from DOCX whole (custom properties `RedlineImage…`), with a size a co-author changed in Word rewritten.
final class ImageAttributesTests: XCTestCase {
    private static let source = "![Height of plants](fig.png){#fig-height width=50%}\n\nSee @fig-height and ![small](fig.png){.icon width=1in} here.\n"

    /// The source with its pictures as data URIs (a 2x2 PNG), which the DOCX writer embeds.
    private static let embedded = source.replacingOccurrences(of: "fig.png", with: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAD0lEQVR42mNgiDoBQhAKABymBIklWJjaAAAAAElFTkSuQmCC")

    private func docx(_ doc: Document) throws -> [UInt8] {
        let out = MemoryOutput()
        var chunks = ChunkArraySource(doc)
        var sink = try DOCXWriter().sink(to: out, options: WriteOptions(), diagnostics: Diagnostics())
        try Pipeline.run(source: &chunks, stages: [], sink: &sink)
        return out.bytes
    }

    private func read(docx bytes: [UInt8]) throws -> Document {
        var source = try DOCXReader().open(.bytes(bytes), options: ReadOptions(), diagnostics: Diagnostics())
        return try Document(reading: &source)
    }

    private func images(_ doc: Document) -> [Image] {
        var out: [Image] = []
        for b in doc.blocks { b.forEachParagraph { p in for i in p.content { if case .image(let x) = i { out.append(x) } } } }
        return out
    }

    func testAttributesAreReadAndWrittenAsTheAuthorWroteThem() throws {
        let doc = try MarkdownReader.document(Self.source)
        let pictures = images(doc)
        XCTAssertEqual(pictures.map(\.attributes), ["#fig-height width=50%", ".icon width=1in"])
        XCTAssertEqual(pictures.map(\.width), [234, 72])
        let d = Diagnostics()
        XCTAssertEqual(try MarkdownWriter.string(doc, diagnostics: d), Self.source)
        XCTAssertFalse(d.all.contains { $0.code == .lossyPictureSize })
        // Text after an escaped brace is no attribute list.
        let escaped = try MarkdownReader.document(#"![a](fig.png)\{>><<} and ![b](fig.png)\{x}"#)
        XCTAssertEqual(images(escaped).map(\.attributes), [nil, nil])
    }

    func testAttributesTravelThroughDOCXAndNeverShowAsText() throws {
        let doc = try MarkdownReader.document(Self.embedded)
        let bytes = try docx(doc)
        let body = String(decoding: try ZipEntries.read(bytes).first { $0.name == "word/document.xml" }?.bytes ?? [], as: UTF8.self)
        XCTAssertFalse(body.contains("{#fig-height") || body.contains("width=50%"), body)
        XCTAssertTrue(body.contains(#"cx="2971800""#), "50% of 6.5in is 3.25in")
        let back = try read(docx: bytes)
        XCTAssertEqual(images(back).map(\.attributes), ["#fig-height width=50%", ".icon width=1in"])
        let md = try MarkdownWriter.string(back)
        XCTAssertTrue(md.contains("){#fig-height width=50%}") && md.contains("){.icon width=1in} here."), md)
    }

    func testASizeChangedInWordIsWrittenBack() throws {
        let bytes = try docx(MarkdownReader.document(Self.embedded))
        // A co-author makes the first picture 2 inches wide.
        var back = try read(docx: bytes)
        if case .paragraph(var p) = back.blocks[0], case .image(var i) = p.content[0] {
            i.width = 144
            p.content[0] = .image(i)
            back.blocks[0] = .paragraph(p)
        }
        let md = try MarkdownWriter.string(back)
        XCTAssertTrue(md.contains("){#fig-height width=2in}"), md)
    }
}

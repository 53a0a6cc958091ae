import Foundation
import Redline
import RedlineCore
@testable import RedlineDOCX
import RedlineTestSupport
import XCTest

/// md → DOCX → md gives the author's own lines back (`MarkdownSources`): wrapping, `_x_`, `+` bullets, `1)`
/// numbering, table padding, while the DOCX still holds the block Redline wrote; a block a co-author changed in
/// Word is written anew, and the blocks around it keep their lines.
final class MarkdownSourceDOCXTests: XCTestCase {
    private let docx = FormatRegistry.named("docx")!, md = FormatRegistry.named("md")!

    /// Every block of it keeps its source md → md.
    static let source = """
        # Lamps and tides {#sec-lamps}

        Lighthouses were _lit_ by hand and kept
        by families for __generations__; the lamp
        burned whale oil until $\\alpha = 0.5$ of them changed.

        + first bullet, wrapped
          onto a second line
        + second bullet

        3) three
        4) four

        | Keeper   | Years |
        |----------|------:|
        | Ann      |    12 |

        A last paragraph, with a [link](https://example.com)
        and `code`.

        """

    private func toDOCX(_ markdown: String) throws -> [UInt8] {
        let out = MemoryOutput()
        try Converter.write(try Converter.read(.bytes(Array(markdown.utf8)), format: md), format: docx, to: out)
        return out.bytes
    }

    private func toMarkdown(_ bytes: [UInt8]) throws -> String {
        let out = MemoryOutput()
        try Converter.write(try Converter.read(.bytes(bytes), format: docx), format: md, to: out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    func testMarkdownThroughDOCXComesBackAsWritten() throws {
        let bytes = try toDOCX(Self.source)
        XCTAssertEqual(try toMarkdown(bytes), Self.source)
        // DOCX → DOCX keeps them too.
        let again = MemoryOutput()
        try Converter.write(try Converter.read(.bytes(bytes), format: docx), format: docx, to: again)
        XCTAssertEqual(try toMarkdown(again.bytes), Self.source)
    }

    func testThePackageIsValidAndTheSourcesAreInACustomXMLPart() throws {
        let bytes = try toDOCX(Self.source)
        let parts = try ZipEntries.read(bytes)
        let item = try XCTUnwrap(parts.first { $0.name == "customXml/item1.xml" })
        XCTAssertTrue(String(decoding: item.bytes, as: UTF8.self).contains("Lighthouses were _lit_ by hand and kept\nby families"))
        XCTAssertTrue(parts.contains { $0.name == "customXml/itemProps1.xml" })
        let path = NSTemporaryDirectory() + "markdown-sources-\(getpid()).docx"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try OOXMLValidate.assertValid(path)
        // A DOCX with nothing from Markdown has no such part.
        let plain = MemoryOutput()
        try Converter.write(Document(blocks: [.paragraph(Paragraph([.text("Typed in Word.")]))]), format: docx, to: plain)
        XCTAssertFalse(try ZipEntries.read(plain.bytes).contains { $0.name.hasPrefix("customXml/") })
    }

    /// A co-author's edit in Word (here: a word of the first bullet, and bold added in the last paragraph)
    /// makes that block Redline's to write; the others keep their lines.
    func testABlockChangedInWordIsWrittenAnew() throws {
        var parts = try ZipEntries.read(try toDOCX(Self.source))
        let k = try XCTUnwrap(parts.firstIndex { $0.name == "word/document.xml" })
        var xml = String(decoding: parts[k].bytes, as: UTF8.self)
        XCTAssertNotNil(xml.range(of: "first bullet"))
        xml = xml.replacingOccurrences(of: "first bullet", with: "First bullet")
        let plainRun = "<w:r><w:t xml:space=\"preserve\">A last paragraph, with a </w:t></w:r>"
        XCTAssertNotNil(xml.range(of: plainRun), "the test's edit needs the writer's run form")
        xml = xml.replacingOccurrences(of: plainRun, with: "<w:r><w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\">A last paragraph, with a </w:t></w:r>")
        parts[k].bytes = Array(xml.utf8)
        let back = try toMarkdown(try ZipEntries.package(parts))
        XCTAssertTrue(back.contains("Lighthouses were _lit_ by hand and kept\nby families"), back)
        XCTAssertTrue(back.contains("| Keeper   | Years |"), back)
        XCTAssertTrue(back.contains("3) three\n4) four"), back)
        XCTAssertTrue(back.contains("- First bullet, wrapped onto a second line\n- second bullet"), back)
        XCTAssertTrue(back.contains("**A last paragraph, with a** [link](https://example.com) and `code`."), back)
    }

    /// The part is only a record: a source that does not read as the block the DOCX holds (a part edited by
    /// hand or by another tool, its key left as it was) is not written; what Word shows is.
    func testASourceThatDoesNotReadAsTheBlockIsNotWritten() throws {
        var parts = try ZipEntries.read(try toDOCX(Self.source))
        let k = try XCTUnwrap(parts.firstIndex { $0.name == "customXml/item1.xml" })
        let xml = String(decoding: parts[k].bytes, as: UTF8.self)
        XCTAssertNotNil(xml.range(of: "by families"))
        parts[k].bytes = Array(xml.replacingOccurrences(of: "by families", with: "by strangers").utf8)
        let back = try toMarkdown(try ZipEntries.package(parts))
        XCTAssertFalse(back.contains("strangers"), back)
        XCTAssertTrue(back.contains("Lighthouses were *lit* by hand and kept by families for **generations**"), back)
        XCTAssertTrue(back.contains("+ first bullet, wrapped\n  onto a second line"), back)
    }

    /// A damaged sources part is passed over: the DOCX reads as it would without it.
    func testADamagedPartIsPassedOver() throws {
        var parts = try ZipEntries.read(try toDOCX(Self.source))
        let k = try XCTUnwrap(parts.firstIndex { $0.name == "customXml/item1.xml" })
        parts[k].bytes = Array(parts[k].bytes.dropLast(40))
        let back = try toMarkdown(try ZipEntries.package(parts))
        XCTAssertTrue(back.contains("Lighthouses were *lit* by hand and kept by families for **generations**"), back)
    }

    /// A heading a co-author centred, or gave another style, is no longer the heading written from Markdown.
    func testAHeadingWithAnotherStyleOrAlignmentIsNotTaken() {
        var p = Paragraph([.text("Lamps")])
        p.style.name = "heading 1"
        p.style.spaceBefore = 12
        XCTAssertTrue(MarkdownSources.Table.isAsWritten(.heading(level: 1, p)))
        p.style.alignment = .center
        XCTAssertFalse(MarkdownSources.Table.isAsWritten(.heading(level: 1, p)))
        p.style.alignment = nil
        p.style.name = "Title"
        XCTAssertFalse(MarkdownSources.Table.isAsWritten(.heading(level: 1, p)))
    }
}

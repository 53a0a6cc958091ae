import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// Raw content (HTML blocks and inlines, pandoc's `` `…`{=latex} `` and ```` ```{=latex} ````) and shortcodes are
/// written back as they stand: md → md byte for byte (pandoc reads the same AST), and through DOCX and RTF (shown as
/// text in a "Raw Block: …" / "Raw Inline: …" style) back to the same Markdown, nothing escaped or dropped.
final class RawContentTests: XCTestCase {
    static let source = """
        Text with <!-- a comment --> and `\\LaTeX`{=latex} inline, <span class="x">**bold** html</span>.

        ```{=latex}
        \\newpage
        ```

        <!-- block comment -->

        <div class="note">
        Raw HTML block.
        </div>

        {{< pagebreak >}}

        Shortcode inline {{< meta title >}} here, and {++inserted <span class="y">raw</span>++}.

        """

    private func read(_ bytes: [UInt8], _ format: String) throws -> Document { try Conversion.read(bytes, format) }

    private func write(_ doc: Document, _ format: String, _ d: Diagnostics = Diagnostics()) throws -> [UInt8] {
        try Conversion.write(doc, format, d)
    }

    func testMarkdownKeepsRawContentAsWritten() throws {
        let doc = try read(Array(Self.source.utf8), "md")
        let written = String(decoding: try write(doc, "md"), as: UTF8.self)
        XCTAssertEqual(written, Self.source)
        XCTAssertEqual(try TestProcess.pandocJSON(written), try TestProcess.pandocJSON(Self.source))
        // The raw inline is raw content in the model, not code and text.
        var raws: [String] = []
        for b in doc.blocks { b.forEachParagraph { p in for case .raw(let f, let t) in p.content { raws.append(f + ":" + t) } } }
        XCTAssertTrue(raws.contains("latex:\\LaTeX"), "\(raws)")
    }

    func testWordAndRTFGiveRawContentBack() throws {
        let doc = try read(Array(Self.source.utf8), "md")
        for format in ["docx", "rtf"] {
            let d = Diagnostics()
            let bytes = try write(doc, format, d)
            XCTAssertFalse(d.all.contains { $0.code.rawValue.hasSuffix("raw-dropped") || $0.code.rawValue == "lossy.raw" }, "\(d.all)")
            let back = try read(bytes, format)
            XCTAssertEqual(String(decoding: try write(back, "md"), as: UTF8.self), Self.source, format)
            guard format == "docx" else { continue }
            let path = NSTemporaryDirectory() + "redline-raw-\(UUID().uuidString).docx"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try OOXMLValidate.assertValid(path)
            let xml = String(decoding: try zipEntries(path)["word/document.xml"] ?? [], as: UTF8.self)
            // Shown as text in a style naming the format, so a Word user sees what it is.
            XCTAssertTrue(xml.contains("<w:pStyle w:val=\"RawBlockhtml\"/>"), xml)
            XCTAssertTrue(xml.contains("<w:rStyle w:val=\"RawInlinehtml\"/>"), xml)
            XCTAssertTrue(xml.contains("&lt;!-- a comment --&gt;"), xml)
        }
    }

    /// Accepting or rejecting the change around raw content in Word's file gives the raw content or none.
    func testRawContentInAChangeIsAcceptedAndRejected() throws {
        let doc = try read(Array(Self.source.utf8), "md")
        let back = try read(try write(doc, "docx"), "docx")
        for (mode, expected) in [(ChangeMode.accept, true), (.reject, false)] {
            let resolved = try back.applying([ReviewTransform(mode)])
            let md = String(decoding: try write(resolved, "md"), as: UTF8.self)
            XCTAssertEqual(md.contains("inserted <span class=\"y\">raw</span>"), expected, md)
        }
    }

    /// Raw HTML that would not read back as raw HTML written as it stands (plain words in Word's "Raw Block: html"
    /// or "Raw Inline: html" style, a block broken by a blank line) is written in pandoc's explicit form, which reads
    /// back as the same raw content; pandoc's ```` ```{=fmt} ```` fence is a raw block, not code.
    func testRawHTMLThatIsNotHTMLIsWrittenInPandocsExplicitForm() throws {
        let raws: [Block] = [
            .raw(format: "html", text: "plain words\n"),
            .raw(format: "html", text: "<div>\n\nafter a blank line\n"),
            .raw(format: "html", text: "<!-- open\n\nclosed -->\nmore\n"),
            .raw(format: "html", text: "<div class=\"x\">\nkept as written\n"),
            .paragraph(Paragraph([.text("A "), .raw(format: "html", text: "plain"), .text(" and "),
                                  .raw(format: "html", text: "<span\nclass=\"y\">"), .text(" end.")])),
        ]
        let written = String(decoding: try write(Document(blocks: raws), "md"), as: UTF8.self)
        XCTAssertEqual(written, """
            ```{=html}
            plain words
            ```

            ```{=html}
            <div>

            after a blank line
            ```

            ```{=html}
            <!-- open

            closed -->
            more
            ```

            <div class="x">
            kept as written

            A `plain`{=html} and <span
            class="y"> end.

            """)
        XCTAssertEqual(try read(Array(written.utf8), "md").blocks, raws)
        // pandoc reads the same raw blocks (kind 6 `<div class="x">` included) and the `{=html}` inline as raw.
        let json = try TestProcess.pandocJSON(written)
        XCTAssertEqual(json.components(separatedBy: "{\"t\":\"RawBlock\",\"c\":[\"html\"").count - 1, 4, json)
        XCTAssertTrue(json.contains("{\"t\":\"RawInline\",\"c\":[\"html\",\"plain\"]}"), json)
        // Through Word, plain words in the raw styles come back as the same raw content.
        XCTAssertEqual(try read(try write(Document(blocks: raws), "docx"), "docx").blocks, raws)
    }
}

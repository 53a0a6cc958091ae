import Foundation
import Redline
import RedlineCore
import XCTest

/// DOCX → Markdown reads as a person would write it: runs Word split for formatting Markdown does not
/// hold are one, spaces sit outside emphasis, escapes only where they change meaning, pandoc's
/// highlighted code is a code block.
final class ReadableMarkdownTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/corpus").standardized

    static func markdown(_ path: String, keepFormatting: Bool = false) throws -> (String, [Diagnostic]) {
        let full = corpus.appendingPathComponent(path).path
        guard FileManager.default.fileExists(atPath: full) else { throw XCTSkip("\(full) is not available") }
        let doc = try Converter.read(.file(full), format: FormatRegistry.named("docx")!)
        return try markdown(doc, keepFormatting: keepFormatting)
    }

    static func markdown(_ doc: Document, keepFormatting: Bool = false) throws -> (String, [Diagnostic]) {
        let out = MemoryOutput()
        var options = WriteOptions()
        options.preserveFormatting = keepFormatting
        let diagnostics = Diagnostics()
        try Converter.write(doc, format: FormatRegistry.named("md")!, to: out, options: options, diagnostics: diagnostics)
        return (String(decoding: out.bytes, as: UTF8.self), diagnostics.all)
    }

    /// pandoc's normalize.docx: "These are different fonts.", every letter a run of its own font.
    func testRunsSplitByFontsAreOne() throws {
        let (md, warnings) = try Self.markdown("pandoc/normalize.docx")
        XCTAssertTrue(md.contains("\n\nThese are different fonts.\n"), md)
        XCTAssertTrue(md.contains("**These *are ~~different~~* fonts.**"), md)
        XCTAssertFalse(md.contains("<strong>") || md.contains("<em>") || md.contains("****"), md)
        // The fonts are still reported as lost.
        XCTAssertTrue(warnings.contains { $0.code == "lossy.font" }, "\(warnings)")
        // With --keep-formatting the fonts are kept, so the runs stay apart.
        let (kept, _) = try Self.markdown("pandoc/normalize.docx", keepFormatting: true)
        XCTAssertTrue(kept.contains("font="), kept)
    }

    /// pandoc's char_styles.docx: spaces at the edge of italic go outside it (pandoc: `*This is an italic* style`).
    func testSpacesMoveOutsideEmphasis() throws {
        let (md, _) = try Self.markdown("pandoc/char_styles.docx")
        XCTAssertTrue(md.contains("*This is an italic* style *with some* words *unitalicized.*"), md)
        XCTAssertTrue(md.contains("**This is a strong** style **with some** words **ubolded.**"), md)
    }

    func testEscapesOnlyWhereTheyChangeMeaning() throws {
        let table = Table(columns: [.none], headerRowCount: 1,
                          rows: [TableRow([TableCell([.paragraph(Paragraph([.text("Rate")]))])]),
                                 TableRow([TableCell([.paragraph(Paragraph([.text("5.03")]))])])])
        let doc = Document(blocks: [.paragraph(Paragraph([.text("see group_summary and a < b, 2 * 3, #tag")])),
                                    .paragraph(Paragraph([.text("5.03 and 12. and _x_")])),
                                    .table(table)])
        let (md, _) = try Self.markdown(doc)
        XCTAssertTrue(md.contains("see group_summary and a < b, 2 \\* 3, #tag"), md)
        XCTAssertTrue(md.contains("5.03 and 12. and \\_x\\_"), md)
        XCTAssertTrue(md.contains("| 5.03 |"), md)
    }

    /// pandoc writes code as "Source Code" paragraphs whose runs carry token styles (`KeywordTok`...).
    func testPandocHighlightedCodeIsACodeBlock() throws {
        try DOCXTest.require("pandoc")
        let dir = try DOCXTest.temporaryDirectory()
        let md = dir.appendingPathComponent("code.md"), docx = dir.appendingPathComponent("code.docx")
        try "Text.\n\n```r\nx <- c(1, 2) # a comment\nprint(\"hi\")\n```\n\nAfter.\n".write(to: md, atomically: true, encoding: .utf8)
        let r = try DOCXTest.run(["pandoc", md.path, "-o", docx.path])
        XCTAssertEqual(r.status, 0, r.err)
        let doc = try Converter.read(.file(docx.path), format: FormatRegistry.named("docx")!)
        let code = doc.blocks.compactMap { b -> CodeBlock? in if case .codeBlock(let c) = b { return c }; return nil }
        XCTAssertEqual(code.map(\.text), ["x <- c(1, 2) # a comment\nprint(\"hi\")\n"])
        // pandoc uses the language only to choose the highlighter: it is nowhere in the DOCX, so none is set.
        XCTAssertEqual(code.map(\.language), [""])
    }
}

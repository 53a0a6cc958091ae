import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// pandoc's line blocks (`| line`, leading spaces kept) survive: md → md byte for byte, through DOCX (a "Line
/// Block" paragraph with hard breaks) and RTF and back, pandoc reading Redline's Markdown as it reads the
/// source, and `apply` onto Markdown writing an edit inside a line as CriticMarkup in that line.
final class LineBlockTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-line-blocks-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    static let source = """
        A poem:

        | The limerick packs laughs anatomical
        |    Into space that is quite economical.
        | *But the good ones* I've seen
        |
        | So seldom are clean.

        > | 200 Main St.
        > | Berkeley, CA 94718

        Not a block |
        | since its first line has no bar.

        """

    private func markdown(_ doc: Document) throws -> String {
        let out = MemoryOutput()
        _ = try Converter.write(doc, format: FormatRegistry.markdown, to: out, diagnostics: Diagnostics())
        return out.string
    }

    private func read(_ s: String) throws -> Document {
        try Converter.read(.bytes(Array(s.utf8)), format: FormatRegistry.markdown)
    }

    func testMarkdownKeepsLineBlocks() throws {
        let doc = try read(Self.source)
        let first = try XCTUnwrap(doc.blocks.dropFirst().first?.paragraph)
        XCTAssertEqual(first.style.name, "Line Block")
        XCTAssertEqual(ApplyPlan.text(of: first.content, view: .accept),
                       "The limerick packs laughs anatomical\n\u{A0}\u{A0}\u{A0}Into space that is quite economical.\nBut the good ones I've seen\n\nSo seldom are clean.")
        let back = try markdown(doc)
        XCTAssertEqual(back, Self.source.replacingOccurrences(of: "Not a block |\n| since", with: "Not a block \\|\n\\| since"))
        XCTAssertEqual(try TestProcess.pandocJSON(back), try TestProcess.pandocJSON(Self.source), "pandoc reads the same line blocks")
    }

    func testLineBlocksTravelThroughDOCXAndRTF() throws {
        // (Not the quoted one: DOCX and RTF give a quote's paragraphs the quote's style, so a line block in a
        // quote comes back as a quote's paragraph with hard breaks.)
        // Nor the paragraph after, whose soft break DOCX and RTF make a space.
        let doc = try read(String(Self.source.prefix { $0 != ">" }))
        let want = try markdown(doc)
        for format in [FormatRegistry.docx, FormatRegistry.rtf] {
            let out = MemoryOutput()
            _ = try Converter.write(doc, format: format, to: out, diagnostics: Diagnostics())
            if format.isSame(as: FormatRegistry.docx) {
                let path = dir + "/lines.docx"
                try Data(out.bytes).write(to: URL(fileURLWithPath: path))
                try OOXMLValidate.assertValid(path)
                let xml = String(decoding: try zipEntries(path)["word/document.xml"] ?? [], as: UTF8.self)
                XCTAssertTrue(xml.contains("<w:pStyle w:val=\"LineBlock\"/>") && xml.contains("<w:br/>"), xml)
            }
            let back = try Converter.read(.bytes(out.bytes), format: format)
            XCTAssertEqual(try markdown(back), want, format.name)
        }
    }

    func testAnEditInsideALineBlockIsWrittenInItsLine() throws {
        let original = dir + "/o.md", edited = dir + "/e.md", out = dir + "/out.md"
        try Data(Self.source.utf8).write(to: URL(fileURLWithPath: original))
        try Data(Self.source.replacingOccurrences(of: "quite economical", with: "most economical").utf8).write(to: URL(fileURLWithPath: edited))
        _ = try Application.apply(edited: edited, onto: original, options: ApplyOptions(compare: CompareOptions(author: "Ed")),
                                  toFile: out, diagnostics: Diagnostics())
        let marked = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(marked.contains("|    Into space that is {~~quite~>most~~}{>>@Ed"), marked)
        XCTAssertEqual(String(decoding: FuzzRegressionTests.rejectedAsText(Array(marked.utf8)), as: UTF8.self), Self.source)
        let accepted = try Converter.read(.file(out), format: FormatRegistry.markdown).applying([ReviewTransform(.accept)])
        XCTAssertEqual(try markdown(accepted), try markdown(try read(Self.source.replacingOccurrences(of: "quite economical", with: "most economical"))))
    }
}

import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// pandoc's heading attributes (`# Introduction {#sec-intro .unnumbered}`, `{-}`): not heading text. Kept byte for
/// byte md → md (pandoc reads the same AST), beside the heading through DOCX (custom properties, the `#id` a bookmark)
/// and RTF (a destination of Redline's own), so Word shows the text alone and Markdown gets the list back.
final class HeadingAttributeTests: XCTestCase {
    static let source = """
        # Introduction {#sec-intro .unnumbered}

        Text that cites @sec-intro.

        ## Methods{-}

        ### Data {#sec-data .appendix key="a b"}

        # Closed {#x} ##

        # Escaped \\{#y}

        # Not at the end {#z} here

        # Code `x`{.python}

        # Span [x]{.underline}

        """

    private func read(_ bytes: [UInt8], _ format: String) throws -> Document { try Conversion.read(bytes, format) }

    private func write(_ doc: Document, _ format: String, _ d: Diagnostics = Diagnostics()) throws -> [UInt8] {
        try Conversion.write(doc, format, d)
    }

    private func headings(_ doc: Document) -> [(String, String?)] {
        doc.blocks.compactMap { if case .heading(_, let p) = $0 { return (p.content.plainText, p.headingAttributes) }; return nil }
    }

    func testAttributesAreNotHeadingText() throws {
        let got = headings(try read(Array(Self.source.utf8), "md"))
        let expected: [(String, String?)] = [
            ("Introduction", " {#sec-intro .unnumbered}"), ("Methods", "{-}"), ("Data", " {#sec-data .appendix key=\"a b\"}"),
            ("Closed {#x}", nil), ("Escaped {#y}", nil), ("Not at the end {#z} here", nil),
            // A list right after a code span or a span is theirs (pandoc's reading too).
            ("Code x{.python}", nil), ("Span x", nil),
        ]
        XCTAssertEqual(got.map(\.0), expected.map(\.0))
        XCTAssertEqual(got.map(\.1), expected.map(\.1))
    }

    func testMarkdownIsKeptAsWrittenAndPandocReadsTheSame() throws {
        let written = String(decoding: try write(try read(Array(Self.source.utf8), "md"), "md"), as: UTF8.self)
        // Unchanged, every heading is written as it was (`Paragraph.source`).
        XCTAssertEqual(written, Self.source)
        // Written anew (from Word, say), only the closing `##` goes (the text it left, `{#x}`, is escaped: it
        // would read as attributes).
        var anew = try read(Array(Self.source.utf8), "md")
        for k in anew.blocks.indices {
            if case .heading(let level, var p) = anew.blocks[k] { p.source = SourceText(); anew.blocks[k] = .heading(level: level, p) }
        }
        let rewritten = String(decoding: try write(anew, "md"), as: UTF8.self)
        XCTAssertEqual(rewritten, Self.source.replacingOccurrences(of: "# Closed {#x} ##", with: "# Closed \\{#x}"))
        XCTAssertEqual(try TestProcess.pandocJSON(rewritten), try TestProcess.pandocJSON(Self.source))
        XCTAssertEqual(try TestProcess.pandocJSON(written), try TestProcess.pandocJSON(Self.source))
    }

    func testWordAndRTFKeepTheAttributesBesideTheHeading() throws {
        let doc = try read(Array(Self.source.utf8), "md")
        let markdown = String(decoding: try write(doc, "md"), as: UTF8.self)
        for format in ["docx", "rtf"] {
            let d = Diagnostics()
            let bytes = try write(doc, format, d)
            let back = try read(bytes, format)
            // The same document (Markdown written anew: Word keeps no Markdown source).
            XCTAssertEqual(try read(try write(back, "md"), "md"), try read(Array(markdown.utf8), "md"), format)
            guard format == "docx" else {
                XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("{\\*\\bkmkstart sec-intro}"))
                continue
            }
            let path = NSTemporaryDirectory() + "redline-heading-\(UUID().uuidString).docx"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try OOXMLValidate.assertValid(path)
            let xml = String(decoding: try zipEntries(path)["word/document.xml"] ?? [], as: UTF8.self)
            // Word shows the heading's text alone; the id is a bookmark in it.
            XCTAssertFalse(xml.contains("sec-intro .unnumbered"), xml)
            XCTAssertTrue(xml.contains("w:name=\"sec-intro\""), xml)
            // Reading it back reports no bookmark loss for the ids the writer put there.
            let rd = Diagnostics()
            _ = try Converter.read(.bytes(bytes), format: FormatRegistry.docx, diagnostics: rd)
            XCTAssertFalse(rd.all.contains { $0.code.rawValue == "docx.bookmark" }, "\(rd.all)")
        }
    }

    /// A heading whose text ends like attributes (from Word) is written with its brace escaped, and a heading a
    /// co-author retitled in Word loses the attributes kept for its old text rather than take another's.
    func testLookalikesAndRetitledHeadings() throws {
        let word = Document(blocks: [.heading(level: 1, Paragraph([.text("Set {#a}")]))])
        let md = String(decoding: try write(word, "md"), as: UTF8.self)
        XCTAssertEqual(md, "# Set \\{#a}\n")
        XCTAssertEqual(headings(try read(Array(md.utf8), "md")).map(\.0), ["Set {#a}"])

        // Retitled in Word: the text changes, the custom properties stay.
        let dir = NSTemporaryDirectory() + "redline-retitle-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(try write(try read(Array(Self.source.utf8), "md"), "docx")).write(to: URL(fileURLWithPath: dir + "/a.docx"))
        XCTAssertEqual(try TestProcess.run(["unzip", "-q", "a.docx", "-d", "x"], in: URL(fileURLWithPath: dir)).status, 0)
        let xmlPath = dir + "/x/word/document.xml"
        let xml = try String(contentsOfFile: xmlPath, encoding: .utf8)
        XCTAssertTrue(xml.contains(">Introduction<"))
        try xml.replacingOccurrences(of: ">Introduction<", with: ">Introduction, retitled<").write(toFile: xmlPath, atomically: true, encoding: .utf8)
        XCTAssertEqual(try TestProcess.run(["sh", "-c", "cd x && zip -q -r ../b.docx ."], in: URL(fileURLWithPath: dir)).status, 0)
        let doc = try read(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/b.docx"))), "docx")
        XCTAssertEqual(headings(doc).first?.0, "Introduction, retitled")
        XCTAssertEqual(headings(doc).first?.1, nil)
    }
}

import Foundation
import XCTest
@testable import RedlineMarkdown
import RedlineCore
import RedlineDOCX
import RedlineTestSupport

/// pandoc's `^superscript^` and `~subscript~`: read (where cmark-gfm alone made `H~2~O` strikethrough), written
/// back in the same form, literal `^` escaped only where it would make a span, and pandoc reading Redline's
/// output as it reads the source.
final class ScriptSpansTests: XCTestCase {
    private func content(_ s: String) throws -> [Inline] {
        try MarkdownReader.document(s).blocks.first?.paragraph?.content ?? []
    }

    func testCaretsAndSingleTildesMakeScripts() throws {
        XCTAssertEqual(try content("H~2~O and E = mc^2^"),
                       [.text("H"), .subscript([.text("2")]), .text("O and E = mc"), .superscript([.text("2")])])
        XCTAssertEqual(try content("10^-3^ and x~i,j~"),
                       [.text("10"), .superscript([.text("-3")]), .text(" and x"), .subscript([.text("i,j")])])
        // `~~` is strikethrough; a single tilde run with a space is text (as in pandoc), not strikethrough.
        XCTAssertEqual(try content("~~gone~~ and ~a b~"), [.strikethrough([.text("gone")]), .text(" and ~a b~")])
        // An escaped space is pandoc's no-break space inside the span.
        XCTAssertEqual(try content(#"a^b\ c^"#), [.text("a"), .superscript([.text("b\u{A0}c")])])
    }

    /// GitHub's Markdown (`-f gfm`) has no scripts: `~text~` is strikethrough there, and `^` is text.
    func testGitHubReadsSingleTildesAsStrikethrough() throws {
        var source = try MarkdownReader(scripts: false).open(.bytes(Array("~gone~ and x^2^ and H~2~O".utf8)), options: ReadOptions(),
                                                             diagnostics: Diagnostics())
        let doc = try Document(reading: &source)
        XCTAssertEqual(doc.blocks.first?.paragraph?.content,
                       [.strikethrough([.text("gone")]), .text(" and x^2^ and H"), .strikethrough([.text("2")]), .text("O")])
    }

    func testWhatIsNotASpanStaysAsItWas() throws {
        XCTAssertEqual(try content("2^10 and a^b c^d and ^^ and ~~"), [.text("2^10 and a^b c^d and ^^ and ~~")])
        // A link's destination and an autolink are not text.
        let link = try content("[l](http://a.com/~x~/y) <http://b.com/~u~>")
        XCTAssertEqual(link.first, .link(Link(url: "http://a.com/~x~/y"), [.text("l")]))
        XCTAssertTrue(link.contains(.link(Link(url: "http://b.com/~u~"), [.text("http://b.com/~u~")])), "\(link)")
        // Code and math keep their carets; an inline note's caret opens no span (it is a note: `InlineNoteTests`).
        XCTAssertEqual(try content("`a^b^`"), [.code("a^b^")])
        XCTAssertEqual(try content("$x^2$"), [.math(.inline, "x^2")])
        XCTAssertEqual(try content("Text^[a note] here."), [.text("Text"), .noteReference("inline-1"), .text(" here.")])
        // Markdown inside the span's text is not read as a span (it could cross it): literal, as written.
        XCTAssertEqual(try content("x^*a*^"), [.text("x^"), .emphasis([.text("a")]), .text("^")])
    }

    func testScriptsAreAFixpointAndLiteralCaretsAreEscaped() throws {
        for md in ["H~2~O and E = mc^2^, CO~2~ and 10^-3^ m.\n", "| a | b~i~ |\n| --- | --- |\n| c^2^ | d |\n",
                   "2^10 bytes and a^b c^d.\n"] {
            XCTAssertEqual(try MarkdownWriter.string(MarkdownReader.document(md)), md)
        }
        // Literal text that would make a span is escaped, and reads back as text.
        for text in ["x^2^", "a^b", "2^10.", "^[not a note]"] {
            let doc = Document(blocks: [.paragraph(Paragraph([.text("see "), .text(text)]))])
            let out = try MarkdownWriter.string(doc)
            XCTAssertEqual(try MarkdownReader.document(out).blocks.first?.paragraph?.content, [.text("see " + text)], out)
        }
        XCTAssertEqual(try MarkdownWriter.string(Document(blocks: [.paragraph(Paragraph([.text("a^b c")]))])), "a^b c\n")
        // Text the syntax cannot hold keeps the HTML tags; gfm, which has no such syntax, always has them.
        let wide = Document(blocks: [.paragraph(Paragraph([.text("x"), .superscript([.text("a b")]), .subscript([.text("2")])]))])
        XCTAssertEqual(try MarkdownWriter.string(wide), "x<sup>a b</sup>~2~\n")
        var gfm = WriteOptions()
        gfm.criticMarkup = false
        XCTAssertEqual(try MarkdownWriter.string(wide, options: gfm), "x<sup>a b</sup><sub>2</sub>\n")
        for doc in [wide] {
            XCTAssertEqual(try MarkdownReader.document(MarkdownWriter.string(doc)).blocks, doc.blocks)
        }
    }

    func testScriptsTravelThroughDOCX() throws {
        let md = "H~2~O and E = mc^2^.\n"
        let doc = try MarkdownReader.document(md)
        let out = MemoryOutput()
        var chunks = ChunkArraySource(doc)
        var sink = try DOCXWriter().sink(to: out, options: WriteOptions(), diagnostics: Diagnostics())
        try Pipeline.run(source: &chunks, stages: [], sink: &sink)
        var source = try DOCXReader().open(.bytes(out.bytes), options: ReadOptions(), diagnostics: Diagnostics())
        let back = try Document(reading: &source)
        XCTAssertEqual(try MarkdownWriter.string(back), md)
    }

    /// pandoc reads Redline's Markdown with the same superscripts and subscripts as the source.
    func testPandocReadsTheSameScripts() throws {
        func json(_ markdown: String) throws -> String { try TestProcess.pandocJSON(markdown) }
        let source = #"H~2~O, mc^2^, 10^-3^ m, x~i,j~, a^b\ c^, 2^10 and ~~gone~~ in [l](http://a.com/~x~/y)."# + "\n"
        let written = try MarkdownWriter.string(MarkdownReader.document(source))
        let expected = try json(source)
        XCTAssertTrue(expected.contains("Superscript") && expected.contains("Subscript"), expected)
        XCTAssertEqual(try json(written), expected, written)
    }

    /// A line of openers that never close is read in linear time (each failed search stops where the next may start).
    func testManyUnclosedCaretsAreLinear() throws {
        let line = String(repeating: "a^b ", count: 50_000) + String(repeating: "^x", count: 50_000)
            + String(repeating: "<a", count: 50_000) + " <http://a.com/~u~>"
        var last: [Inline] = []
        let elapsed = try ContinuousClock().measure { last = try MarkdownReader.document(line).blocks.first?.paragraph?.content ?? [] }
        // The autolink after the run of `<a` holds no span.
        XCTAssertFalse(last.contains(.subscript([.text("u")])))
        XCTAssertLessThan(elapsed, .seconds(20), "took \(elapsed)")
    }
}

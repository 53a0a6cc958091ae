import Foundation
import XCTest
@testable import RedlineMarkdown
@testable import RedlineHTML
import RedlineCore
import RedlineRTF
import RedlineTestSupport

/// TeX math in Markdown: pandoc's `tex_math_dollars` rules on reading (the TeX untouched by cmark), `$…$` and
/// `$$…$$` written back byte for byte, `$` of text escaped only where it would make math, and the HTML and RTF
/// writers' forms.
final class MathMarkdownTests: XCTestCase {
    private func read(_ s: String, _ d: Diagnostics = Diagnostics()) throws -> Document {
        try MarkdownReader.document(s, diagnostics: d)
    }

    private func content(_ s: String) throws -> [Inline] {
        try read(s).blocks.first?.paragraph?.content ?? []
    }

    private func md(_ doc: Document) throws -> String { try MarkdownWriter.string(doc) }

    func testDollarsMakeInlineAndDisplayMath() throws {
        XCTAssertEqual(try content("$\\alpha$"), [.math(.inline, "\\alpha")])
        XCTAssertEqual(try content("a $x^2$ b"), [.text("a "), .math(.inline, "x^2"), .text(" b")])
        XCTAssertEqual(try content("$$\\frac{a}{b}$$"), [.math(.display, "\\frac{a}{b}")])
        XCTAssertEqual(try content("x $$a\n= b$$ y"), [.text("x "), .math(.display, "a\n= b"), .text(" y")])
        // No escape processing, no emphasis inside, no entity decoding.
        XCTAssertEqual(try content("$a*b*c \\{ \\_ &amp;$"), [.math(.inline, "a*b*c \\{ \\_ &amp;")])
        XCTAssertEqual(try content("*$a_1$*"), [.emphasis([.math(.inline, "a_1")])])
    }

    func testPandocsRulesKeepPricesAndEscapesText() throws {
        XCTAssertEqual(try content("it costs $5 and $6."), [.text("it costs $5 and $6.")])
        XCTAssertEqual(try content("$ x$"), [.text("$ x$")], "opening $ before a space")
        XCTAssertEqual(try content("$x $"), [.text("$x $")], "closing $ after a space")
        XCTAssertEqual(try content("$x$5"), [.text("$x$5")], "closing $ before a digit")
        XCTAssertEqual(try content("\\$x$"), [.text("$x$")])
        XCTAssertEqual(try content("`$x$`"), [.code("$x$")])
        XCTAssertEqual(try content("$$a\n\nb$$").count, 1, "display math stops at a blank line")
        XCTAssertEqual(try read("```\n$x$\n```\n").blocks, [.codeBlock(CodeBlock(text: "$x$\n"))])
        XCTAssertEqual(try read("    $x$\n").blocks, [.codeBlock(CodeBlock(text: "$x$\n"))])
    }

    /// Markdown Redline writes is read back to the same math and written again byte for byte.
    func testMathIsAFixpoint() throws {
        for source in ["$E = mc^2$ and $$\\int_0^1 f$$\n", "Text $a$, $b$.\n", "$$\n\\begin{aligned}\n  a &= b\n\\end{aligned}\n$$\n",
                       "- $x_i$\n", "> $a$ and $$b$$\n", "| $a|b$ | c |\n| --- | --- |\n| 1 | 2 |\n", "# $x$ head\n",
                       "{++$y$++}{>>@Ann<<}\n", "**$\\sqrt{2}$**\n"] {
            let doc = try read(source)
            let once = try md(doc)
            XCTAssertEqual(try read(once), doc, source)
            XCTAssertEqual(try md(try read(once)), once, source)
        }
        for tex in MathFormulas.typical {
            let source = "Inline $\(tex)$ and\n\n$$\(tex)$$\n"
            XCTAssertEqual(try md(try read(source)), source, tex)
        }
    }

    /// `$` of text is escaped only where it would open or close math; math followed by a digit is separated.
    func testWriterEscapesDollarsThatWouldMakeMath() throws {
        for (inlines, expected) in [([Inline.text("$5 and $6")], "$5 and $6\n"),
                                    ([.text("$a$")], "\\$a\\$\n"),
                                    ([.math(.inline, "x"), .text("5")], "$x$[]{}5\n"),
                                    ([.text("pay $"), .math(.inline, "x"), .text("$")], "pay \\$$x$$\n")] {
            let doc = Document(blocks: [.paragraph(Paragraph(inlines))])
            let out = try md(doc)
            XCTAssertEqual(out, expected)
            XCTAssertEqual(try read(out).blocks, doc.blocks, out)
        }
    }

    /// TeX no `$` delimiters can hold (inline math starting with `$`: `$$` would open display math) is written
    /// as text, with a warning, so it reads back as its own characters and not as Markdown (fuzz-tex found
    /// `$sqrt[3]{8F}` written as `$$sqrt[3]{8F}$`, whose `[3]{8F}` then read as a span and lost `8F`).
    func testMathNoDelimitersHoldIsWrittenAsText() throws {
        for tex in ["$sqrt[3]{8F} = 2", "$a", "x\\"] {
            let doc = Document(blocks: [.paragraph(Paragraph([.text("a "), .math(.inline, tex), .text(" b")]))])
            let d = Diagnostics()
            let out = try MarkdownWriter.string(doc, diagnostics: d)
            XCTAssertEqual(try read(out).blocks.map(\.plainText), ["a $\(tex)$ b"], out)
            XCTAssertEqual(d.all.map(\.code), [.lossyMath], out)
        }
    }

    func testHTMLAndRTFWriters() throws {
        let doc = Document(blocks: [.paragraph(Paragraph([.math(.inline, "a<b"), .math(.display, "x^2")]))])
        let html = try HTMLWriter.string(doc)
        XCTAssertTrue(html.contains("<span class=\"math inline\">\\(a&lt;b\\)</span>"), html)
        XCTAssertTrue(html.contains("<span class=\"math display\">\\[x^2\\]</span>"), html)
        let d = Diagnostics()
        let rtf = String(decoding: try RTFWriter().write(doc, diagnostics: d), as: UTF8.self)
        XCTAssertTrue(rtf.contains("x^2"), rtf)
        XCTAssertEqual(d.count(of: .lossyMath), 2)
    }

    /// A long paragraph of lone dollars and openers that never close reads in linear time.
    func testManyUnclosedDollarsAreLinear() throws {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            _ = try read(String(repeating: "$a$1", count: 50_000))
            _ = try read(String(repeating: "$$a ", count: 50_000))
            _ = try read(String(repeating: "$a \\text{", count: 20_000))
        }
        XCTAssertLessThan(elapsed, .seconds(20), "took \(elapsed)")
    }

    /// Math over a line end does not start on a line its placeholder would make a code fence: the backtick after the
    /// `$` keeps ```` ````a ```` from being a fence (found by fuzz-roundtrip: cmark took the rest of the file for the
    /// fence's info string, and the code's text was lost).
    func testMathDoesNotHideWhatKeepsALineFromBeingAFence() throws {
        let doc = try read("````a $b`c\nd$ e\n\nAfter.\n")
        XCTAssertEqual(doc.blocks.count, 2)
        XCTAssertEqual(doc.blocks.first?.plainText, "````a $b`c d$ e")
        XCTAssertEqual(try read(try md(doc)).blocks.map(\.plainText), doc.blocks.map(\.plainText))
    }
}

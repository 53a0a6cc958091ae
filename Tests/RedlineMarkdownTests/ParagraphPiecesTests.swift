import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// A huge paragraph line is parsed by cmark in pieces cut at safe points (`ParagraphPieces`,
/// PERFORMANCE.md "Small runs"): reading in pieces must give exactly the document and warnings that
/// reading the whole gives. Pieces are made tiny here so that random inline Markdown gets cut often.
final class ParagraphPiecesTests: XCTestCase {
    private static let whole = ParagraphPieces.Sizes(piece: .max / 4, hugeLine: .max / 2)

    private func read(_ text: String, _ sizes: ParagraphPieces.Sizes) throws -> (Document, [String], Int) {
        let d = Diagnostics()
        var source = try MarkdownSource(bytes: Array(text.utf8), options: ReadOptions(), diagnostics: d, pieceSizes: sizes)
        let doc = try Document(reading: &source)
        return (doc, d.all.map(\.description), source.paragraphPiecesCut)
    }

    /// Random inline Markdown (emphasis, strong, strikethrough, code, links and images inline and by
    /// reference, autolinks, raw HTML and formatting tags, entities, escapes, CriticMarkup with comments,
    /// spans, footnotes) on a long last line after a few other lines and blocks: the same document whole
    /// and in pieces of 3 to 40 bytes. Seeded (`REDLINE_SEED=N` replays a failure).
    func testPiecewiseParsingEqualsWholeParsing() throws {
        let words = ["alpha", "beta", "Gamma", "delta", "ab", "x", "word", "é", "naïve", "1984", "a1b2"]
        let marks = ["*", "**", "_", "__", "***", "~", "~~", "`", "``", "[", "]", "](", "(", ")", "<", ">", "&", "!", "\\",
                     "{++", "++}", "{--", "--}", "{~~", "~>", "~~}", "{==", "==}", "{>>", "<<}", "@Ann ", "\"", "'",
                     "&amp;", "&copy;", "&#35;", "&#x41;", "&nbsp", "\\*", "\\_", "\\[", "\\`", "<u>", "</u>", "<sup>",
                     "</sup>", "<b>", "</b>", "<!-- c -->", "<span class=\"x\">", "</span>", "<https://e.com/a>",
                     "<me@e.com>", "[link](https://e.com \"t\")", "[ref]", "[ref][]", "[text][ref]", "![img](p.png)",
                     "![alt][ref]", "[a]{.underline}", "[b]{.smallcaps}", "]{", "[^n]", "`code`", "``a`b``",
                     "*em*", "**strong**", "~~del~~", "_u_", "{++ins++}", "{--del--}", "{~~a~>b~~}", "{==hl==}{>>c<<}",
                     "{>>@Bo note<<}", ":", "#", "|", "-", "+", "1.", "  ", "\t", "  \n", "\n", "\\\n", "{", "}", "="]
        let blocks = ["", "# Title\n\n", "> quote\n\n", "- item\n\n", "```\ncode\n```\n\n", "| a | b |\n|---|---|\n| c | d |\n\n",
                      "::: {custom-style=\"Q\"}\n", "[ref]: https://e.com/r \"R\"\n\n", "[^n]: A note.\n\n", "text\n", "***\n\n"]
        let tails = ["", "\n", "\n\nAfter.\n", "\n\n- list\n", "\n:::\n", "\n\n[ref]: https://e.com/late\n", "\n\n    code\n", "  \n"]
        let seed = SeededRandom.seed(default: 0x9A7A)
        var rng = SeededRandom(seed: seed)
        var cut = 0
        for round in 0..<800 {
            var line = ""
            let density = Int.random(in: 2...14, using: &rng)
            for _ in 0..<Int.random(in: 10...160, using: &rng) {
                if Int.random(in: 0..<density, using: &rng) == 0 {
                    line += marks[Int.random(in: 0..<marks.count, using: &rng)]
                } else {
                    line += words[Int.random(in: 0..<words.count, using: &rng)]
                    if Bool.random(using: &rng) { line += " " }
                }
            }
            var text = blocks[Int.random(in: 0..<blocks.count, using: &rng)]
            if Bool.random(using: &rng) { text += words[Int.random(in: 0..<words.count, using: &rng)] + " *first* line\n" }
            text += line.replacingOccurrences(of: "\n", with: " ") + tails[Int.random(in: 0..<tails.count, using: &rng)]
            let piece = Int.random(in: 3...40, using: &rng)
            let (expected, expectedWarnings, _) = try read(text, Self.whole)
            let (got, warnings, n) = try read(text, ParagraphPieces.Sizes(piece: piece, hugeLine: 16))
            cut += n
            XCTAssertEqual(got, expected, "seed \(seed) round \(round), pieces of \(piece): \(text.debugDescription)")
            XCTAssertEqual(warnings, expectedWarnings, "seed \(seed) round \(round): \(text.debugDescription)")
            if got != expected { break }
        }
        XCTAssertGreaterThan(cut, 1_500, "seed \(seed): too few cuts were safe to test anything")
    }

    /// The issue's shape (alternately bold and italic runs on one line), small: cut into many pieces, the
    /// same document as read whole.
    func testBoldItalicLineIsCutAndReadTheSame() throws {
        let text = (0..<3_000).map { "**b\($0)** *i\($0)* " }.joined() + "\n\nNext paragraph.\n"
        let (expected, _, _) = try read(text, Self.whole)
        let (got, _, n) = try read(text, ParagraphPieces.Sizes(piece: 256, hugeLine: 1_024))
        XCTAssertGreaterThan(n, 100)
        XCTAssertEqual(got, expected)
        XCTAssertEqual(got.blocks.count, 2)
    }

    /// Lines the cut must not touch: a link reference definition at the paragraph's start, a fenced div line,
    /// and a line that another line follows (its paragraph does not end there) are read whole.
    func testUnsafeLinesAreReadWhole() throws {
        let long = String(repeating: "word ", count: 100)
        for text in ["[a]: /u 'title \(long)'\n", "::: {custom-style=\"Q\"} \(long)\n", "\(long)\nnext line\n",
                     "> \(long)\n", "- \(long)\n"] {
            let (expected, _, _) = try read(text, Self.whole)
            let (got, _, n) = try read(text, ParagraphPieces.Sizes(piece: 8, hugeLine: 64))
            XCTAssertEqual(n, 0, text)
            XCTAssertEqual(got, expected, text)
        }
    }

    /// The pieces after the first are parsed ahead on a thread of their own (`Prefetch`): an error in a late
    /// piece (emphasis nested deeper than the limit) comes out of the read as it does when read whole.
    func testAnErrorInALatePieceIsTheReadsError() throws {
        var options = ReadOptions()
        options.limits.maxNesting = 20
        let deep = String(repeating: "*a ", count: 40) + "b" + String(repeating: " a*", count: 40)
        let text = String(repeating: "word ", count: 400) + deep + String(repeating: " word", count: 400) + "\n"
        func read(_ sizes: ParagraphPieces.Sizes) -> String {
            do {
                var source = try MarkdownSource(bytes: Array(text.utf8), options: options, diagnostics: Diagnostics(), pieceSizes: sizes)
                _ = try Document(reading: &source)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let whole = read(Self.whole)
        XCTAssertTrue(whole.contains("nesting deeper than"), whole)
        XCTAssertEqual(read(ParagraphPieces.Sizes(piece: 64, hugeLine: 256)), whole)
    }
}

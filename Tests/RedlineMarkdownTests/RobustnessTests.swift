import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// Arbitrary input never crashes the reader or the writer, and writing settles: after one read and write
/// (which puts an arbitrary document into canonical form), reading and writing again changes nothing
/// (seeded fuzzing over Markdown and CriticMarkup fragments).
final class RobustnessTests: XCTestCase {
    func testFuzzedInputIsReadAndRewrittenStably() throws {
        let atoms = ["{++", "++}", "{--", "--}", "{~~", "~>", "~~}", "{==", "==}", "{>>", "<<}", "@Ann", " | ", "[#a]",
                     "{>>/a<<}", "[", "]", "]{.underline}", "(", ")", "*", "_", "`", "```", "~~~", "\n", "\n\n", "  ",
                     "    ", "> ", "- ", "1. ", "# ", "| a |", "|---|", ":::", "::: {align=center}", "[^1]", "[^1]: ",
                     "\\", "&amp;", "<u>", "</u>", "<div>", "---\n", "text", "é", "\u{2E2A}", "\u{E001}", "\u{E100}", "\r\n",
                     "\t", "!", "<https://x.y>", "[a](b)", "\u{0}"]
        var rng = SeededRandom(seed: 0xF022)
        for round in 0..<600 {
            var s = ""
            for _ in 0..<Int.random(in: 1...40, using: &rng) { s += atoms[Int.random(in: 0..<atoms.count, using: &rng)] }
            let doc = try MarkdownReader.document(s)
            let first = try MarkdownWriter.string(doc)
            let written = try MarkdownWriter.string(try MarkdownReader.document(first))
            let again = try MarkdownReader.document(written)
            XCTAssertEqual(try MarkdownWriter.string(again), written, "round \(round): \(s.debugDescription)")
            _ = try MarkdownReader.document(String(decoding: Array(s.utf8).shuffled(using: &rng), as: UTF8.self))
        }
    }

    /// Floods that would make a naive scanner quadratic finish (a hang would time the test out).
    func testFloodsStayLinear() throws {
        let n = 200_000
        for unit in ["{>>", "]{", "` ", "{++", "[^x] ", "{== ", "\\{>>"] {
            let doc = try MarkdownReader.document(String(repeating: unit, count: n / unit.count))
            XCTAssertLessThanOrEqual(doc.blocks.count, 1)
        }
    }

    func testInvalidUTF8AndBinaryInput() throws {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<50 {
            let bytes = (0..<Int.random(in: 0...2000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var source = try MarkdownSource(bytes: bytes, options: ReadOptions(), diagnostics: Diagnostics())
            _ = try Document(reading: &source)
        }
    }
}

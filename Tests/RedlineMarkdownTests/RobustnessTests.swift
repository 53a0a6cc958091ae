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

    /// Random bytes read as Markdown: never an error; input that is not valid UTF-8 gets each bad byte
    /// replaced by U+FFFD with a `markdown.invalid-utf8` warning, and valid input no such warning. Seeded
    /// (`REDLINE_SEED=N` replays a failure).
    func testInvalidUTF8AndBinaryInput() throws {
        let seed = SeededRandom.seed(default: 7)
        var rng = SeededRandom(seed: seed)
        var invalid = 0
        for i in 0..<50 {
            var bytes = (0..<Int.random(in: 0...2000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if i % 5 == 0 { bytes = Array("Plain *text* {++with++} marks \(i).\n".utf8) }  // valid inputs too
            // A UTF-16 byte-order mark makes the input UTF-16, which has other rules.
            if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { bytes.removeFirst() }
            let d = Diagnostics()
            var source = try MarkdownSource(bytes: bytes, options: ReadOptions(), diagnostics: d)
            let doc = try Document(reading: &source)
            let valid = String(validating: bytes, as: UTF8.self) != nil
            XCTAssertEqual(d.count(of: .markdownInvalidUTF8) > 0, !valid, "seed \(seed) case \(i)")
            if !valid {
                XCTAssertTrue(doc.dump.contains("\u{FFFD}") || doc.blocks.isEmpty, "seed \(seed) case \(i): no U+FFFD in the model")
                invalid += 1
            }
        }
        XCTAssertGreaterThan(invalid, 30, "seed \(seed): the random inputs were not random enough to check anything")
    }

    /// Line breaks leading a paragraph are dropped by the reader and by the writer (Markdown has no such
    /// break), all at once: one at a time from the front was quadratic (200,000 took 15 s; the benchmark row
    /// `hostile_leading_breaks_md` times the full shape).
    func testLeadingBreaksAreDroppedWhole() throws {
        let doc = try MarkdownReader.document(String(repeating: "\\\n", count: 3_000) + "x\n")
        XCTAssertEqual(doc.blocks, [.paragraph(Paragraph([.text("x")]))])
        let many = Document(blocks: [.paragraph(Paragraph(Array(repeating: .lineBreak, count: 3_000) + [.text("y")]
                                                          + Array(repeating: .lineBreak, count: 5)))])
        XCTAssertEqual(try MarkdownWriter.string(many), "y\n")
    }

    /// The reader's queue of chunks keeps their order through any mix of appends, takes from the front and
    /// drops from the back (`ChunkQueue`, which replaced `removeFirst()` on an array: quadratic in the chunks
    /// of a group), against an array doing the same.
    func testChunkQueueKeepsOrder() {
        var rng = SeededRandom(seed: 0xC0E0)
        var queue = ChunkQueue(), model: [Chunk] = []
        for step in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let c = Chunk(.paragraph(Paragraph([.text("c\(step)")])))
                queue.append(c); model.append(c)
            case 5..<9 where !model.isEmpty:
                XCTAssertEqual(queue.removeFirst(), model.removeFirst())
            case 9:
                XCTAssertEqual(queue.popLast(), model.popLast())
            default:
                break
            }
            XCTAssertEqual(queue.count, model.count)
            XCTAssertEqual(queue.isEmpty, model.isEmpty)
        }
        while !model.isEmpty { XCTAssertEqual(queue.removeFirst(), model.removeFirst()) }
    }
}

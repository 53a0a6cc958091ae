import Foundation
import XCTest
@testable import RedlineMarkdown
import RedlineCore
import RedlineTestSupport

/// `--wrap` (issue 29), as pandoc's: `preserve` (the default) keeps the source's line breaks, `none` writes each
/// paragraph on one line, `auto` fills lines to `--columns`. Wrapping changes lines only: a wrapped document reads
/// back as the one-line document does (soft breaks are spaces), for generated documents full of Markdown and
/// CriticMarkup syntax, and pandoc reads both alike.
final class LineWrapTests: XCTestCase {
    private func options(_ wrap: LineWrap, columns: Int? = nil, formatting: Bool = false) -> WriteOptions {
        var o = WriteOptions()
        o.lineWrap = wrap
        o.columns = columns
        o.preserveFormatting = formatting
        return o
    }

    /// Soft breaks as spaces, the text runs merged again.
    private static func spaced(_ inlines: [Inline]) -> [Inline] {
        let mapped = inlines.map { i -> Inline in
            if case .softBreak = i { return .text(" ") }
            return i.mapChildren { spaced($0) }
        }
        return InlineBuilder.inlines(from: mapped.runs)
    }

    private static func spaced(_ block: Block) -> Block {
        switch block {
        case .paragraph(var p): p.content = spaced(p.content); return .paragraph(p)
        case .heading(let l, var p): p.content = spaced(p.content); return .heading(level: l, p)
        default: return block.mapBlockArrays { $0.map(spaced) }
        }
    }

    private static func spaced(_ doc: Document) -> Document {
        var d = doc
        d.blocks = d.blocks.map(spaced)
        d.notes = d.notes.map { var n = $0; n.blocks = n.blocks.map(spaced); return n }
        d.comments = d.comments.map { var c = $0; c.body = c.body.map(spaced); return c }
        return d
    }

    func testWrappedDocumentsReadBackAsTheirOneLineSelves() throws {
        var failures = 0
        for seed in UInt64(0)..<300 {
            var g = DocumentGenerator(seed: 0x3A9_0000 + seed, formatting: seed % 3 == 0)
            let doc = g.document()
            let formatting = seed % 3 == 0
            let oneLine = try MarkdownWriter.string(doc, options: options(.none, formatting: formatting))
            let columns = 16 + Int(seed % 45)
            let wrapped = try MarkdownWriter.string(doc, options: options(.auto, columns: columns, formatting: formatting))
            let a = Self.spaced(try MarkdownReader.document(oneLine)), b = Self.spaced(try MarkdownReader.document(wrapped))
            if a != b {
                failures += 1
                if failures <= 3 { XCTFail("seed \(seed), columns \(columns): the wrapped document reads otherwise\n--- none ---\n\(oneLine)\n--- auto ---\n\(wrapped)") }
            }
            // And the one-line document is the document (soft breaks aside).
            XCTAssertEqual(a, Self.spaced(try MarkdownReader.document(try MarkdownWriter.string(doc, options: options(.preserve, formatting: formatting)))),
                           "seed \(seed)")
        }
        XCTAssertEqual(failures, 0)
    }

    static let syntax = """
        Words that are block syntax at a line's start: a # b - c 1. d > e + f = g | h * i j : k ::: l 2) m === n --- \
        pandoc's too: a : definition ~ marker (@) example (@ex) labelled (@) \
        o ~~~ p <div> q [r] s {++t++} u $x$ v \\ w 10. x ## y -- z ** and [@smith2020, p. 3] then *emphasis over \
        several words* and [a link over words](https://example.com/a/long/path) and `code with spaces` end.

        > A quote whose paragraph is long enough to be wrapped at least once or twice, with 1. and # in it too.

        - A list item whose text runs long enough to wrap inside the item, keeping its indent: - + > # 3. done.
        """

    /// Lines are filled to the width (a word longer than the width stands alone), block syntax never starts a
    /// line, and pandoc reads the wrapped text as the one-line text.
    func testAutoFillsToTheWidthAndPandocAgrees() throws {
        let doc = try MarkdownReader.document(Self.syntax)
        let oneLine = try MarkdownWriter.string(doc, options: options(.none))
        XCTAssertEqual(oneLine.split(separator: "\n", omittingEmptySubsequences: true).count, 3, oneLine)
        for columns in [20, 33, 50, 72] {
            let wrapped = try MarkdownWriter.string(doc, options: options(.auto, columns: columns))
            // Lines break between words of text and before inline markup when little room is left: a line may
            // pass the width by what an emphasis, link or code span holds, not by more than its text.
            let lines = wrapped.split(separator: "\n")
            let long = lines.filter { $0.count > columns && $0.contains(" ") }
            XCTAssertLessThanOrEqual(long.count * 4, lines.count, "columns \(columns): \(long)\n\(wrapped)")
            for line in long { XCTAssertLessThan(line.count, columns + 50, "columns \(columns): \(line)") }
            XCTAssertGreaterThan(wrapped.split(separator: "\n").count, 6, wrapped)
            XCTAssertEqual(Self.spaced(try MarkdownReader.document(wrapped)), Self.spaced(doc), wrapped)
            let soft = { (s: String) in s.replacingOccurrences(of: "{\"t\":\"SoftBreak\"}", with: "{\"t\":\"Space\"}") }
            XCTAssertEqual(soft(try TestProcess.pandocJSON(wrapped)), soft(try TestProcess.pandocJSON(oneLine)), "columns \(columns):\n\(wrapped)")
        }
    }

    /// pandoc's definition lists and example lists, which Redline reads as paragraphs with soft breaks, keep the
    /// break before their markers (`:`, `~`, `(@)`) in every mode, so pandoc still reads them as lists.
    func testPandocBlocksKeepTheirLineBreaks() throws {
        let source = "Term one\n:   Definition of the first term, long enough to be wrapped at least once.\n\n(@) First example.\n(@) Second example.\n"
        let doc = try MarkdownReader.document(source)
        for wrap in [LineWrap.none, .auto] {
            let out = try MarkdownWriter.string(doc, options: options(wrap, columns: 30))
            XCTAssertTrue(out.hasPrefix("Term one\n:   Definition"), out)
            XCTAssertTrue(out.contains("First example.\n(@) Second example."), out)
            XCTAssertEqual(try TestProcess.pandocJSON(out).replacingOccurrences(of: "{\"t\":\"SoftBreak\"}", with: "{\"t\":\"Space\"}"),
                           try TestProcess.pandocJSON(source).replacingOccurrences(of: "{\"t\":\"SoftBreak\"}", with: "{\"t\":\"Space\"}"), out)
        }
    }

    /// `preserve` keeps the source's breaks; `none` joins them; headings and table cells are never wrapped.
    func testPreserveAndNone() throws {
        let source = "# A heading that is long enough to pass twenty columns\n\nOne line\nand the next.\n\n| a | b |\n| --- | --- |\n| a long cell of words | x |\n"
        let doc = try MarkdownReader.document(source)
        XCTAssertEqual(try MarkdownWriter.string(doc, options: options(.preserve)), source)
        let none = try MarkdownWriter.string(doc, options: options(.none))
        XCTAssertTrue(none.contains("One line and the next.\n"), none)
        let auto = try MarkdownWriter.string(doc, options: options(.auto, columns: 20))
        XCTAssertTrue(auto.hasPrefix("# A heading that is long enough to pass twenty columns\n"), auto)
        XCTAssertTrue(auto.contains("| a long cell of words |"), auto)
    }
}

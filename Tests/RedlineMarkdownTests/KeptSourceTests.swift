import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// md → md keeps a table, paragraph or heading as its author wrote it (padding, delimiter row, grid lines,
/// `_` or `*`, setext underlines, escapes) while it is the block that was read; one that changed, or holds what
/// the writer keeps beside it, is written anew.
final class KeptSourceTests: XCTestCase {
    private func read(_ s: String) throws -> Document { try MarkdownReader.document(s, diagnostics: Diagnostics()) }
    private func md(_ doc: Document, _ o: WriteOptions = WriteOptions()) throws -> String {
        try MarkdownWriter.string(doc, options: o, diagnostics: Diagnostics())
    }

    static let pipe = """
        | Name   | Price |
        |:-------|------:|
        | Tea    |  1.50 |
        | Coffee |  2.00 |
        """
    static let grid = """
        +---------------+---------------+
        | Fruit         | Advantages    |
        +===============+===============+
        | Bananas       | - wrapper     |
        |               | - colour      |
        +---------------+---------------+
        """

    func testUnchangedTablesAreWrittenAsRead() throws {
        let source = "Before.\n\n" + Self.pipe + "\n\n: Prices\n\n" + Self.grid + "\n\nAfter.\n"
        let doc = try read(source)
        XCTAssertEqual(try md(doc), source)
        // The source is no part of the value: the table equals one built without it, and JSON leaves it out.
        guard case .table(let t)? = doc.blocks.first(where: { if case .table = $0 { return true }; return false }) else {
            return XCTFail("no table")
        }
        XCTAssertFalse(t.source.isEmpty)
        XCTAssertEqual(t, Table(columns: t.columns, columnWidths: t.columnWidths, headerRowCount: t.headerRowCount, rows: t.rows))
        let json = String(decoding: try JSONEncoder().encode(t), as: UTF8.self)
        XCTAssertFalse(json.contains("Coffee |"), json)
        let decoded = try JSONDecoder().decode(Table.self, from: Data(json.utf8))
        XCTAssertTrue(decoded.source.isEmpty)
        XCTAssertEqual(try md(Document(blocks: [.table(decoded)])), "| Name | Price |\n| :-- | --: |\n| Tea | 1.50 |\n| Coffee | 2.00 |\n")
    }

    func testChangedTablesAndTablesTheWriterMustWriteAreWrittenAnew() throws {
        var doc = try read(Self.pipe + "\n")
        guard case .table(var t) = doc.blocks[0] else { return XCTFail("no table") }
        t.rows[1].cells[0].blocks = [.paragraph(Paragraph([.text("Green tea")]))]
        doc.blocks[0] = .table(t)
        XCTAssertEqual(try md(doc), "| Name | Price |\n| :-- | --: |\n| Green tea | 1.50 |\n| Coffee | 2.00 |\n")
        // GitHub's dialect, marks in the table, a note or a reference link in it: written by the writer.
        var gfm = WriteOptions()
        gfm.markdownDialect = .gfm
        XCTAssertFalse(try md(try read(Self.pipe + "\n"), gfm).contains("|:-------|"))
        for cell in ["{++Tea++}", "Tea[^1]", "[Tea][t]"] {
            let source = Self.pipe.replacingOccurrences(of: "Tea   ", with: cell) + "\n\n[^1]: A note.\n\n[t]: https://example.com\n"
            let out = try md(try read(source))
            XCTAssertFalse(out.contains("|:-------|"), out)
            XCTAssertEqual(try read(out), try read(source), out)
        }
        // Accepting a change elsewhere in the document leaves an unmarked table as written.
        let marked = try read("A {++new++} word.\n\n" + Self.pipe + "\n")
        XCTAssertTrue(try md(try marked.applying([ReviewTransform(.accept)])).hasSuffix(Self.pipe + "\n"))
    }

    /// A table in a list item or quote, or one inside a grid cell, is written anew (its lines are the
    /// container's): what it reads as is the same.
    func testTablesInContainersReadTheSame() throws {
        let quoted = Self.pipe.split(separator: "\n").map { "> " + $0 }.joined(separator: "\n") + "\n"
        let doc = try read(quoted)
        XCTAssertEqual(try read(try md(doc)), doc)
    }

    static let prose = """
        Introduction
        ============

        Lighthouses have been studied for _centuries_ [@smith2020, p. 12],
        as __keepers__ know \\& say [sic]. See [the archive][arch].

        Methods {#sec-methods}
        -------

        [arch]: https://archive.example.org "The Archive"

        """

    func testUnchangedParagraphsAndHeadingsAreWrittenAsRead() throws {
        let doc = try read(Self.prose)
        let out = try md(doc)
        // The definition follows the block that uses it, as the writer places them.
        XCTAssertEqual(out, Self.prose.replacingOccurrences(of: "\n[arch]: https://archive.example.org \"The Archive\"\n", with: "")
            .replacingOccurrences(of: "[arch].\n", with: "[arch].\n\n[arch]: https://archive.example.org \"The Archive\"\n"))
        XCTAssertEqual(try read(out), doc)
        // Rewrapping asked for, GitHub's dialect, a changed level or text: written anew.
        var none = WriteOptions()
        none.lineWrap = LineWrap.none
        XCTAssertTrue(try md(doc, none).contains("*centuries* [@smith2020, p. 12], as **keepers**"))
        var changed = doc
        if case .heading(_, let p) = changed.blocks[0] { changed.blocks[0] = .heading(level: 2, p) }
        if case .paragraph(var p) = changed.blocks[1] { p.content[p.content.count - 1] = .text(". More."); changed.blocks[1] = .paragraph(p) }
        let rewritten = try md(changed)
        XCTAssertTrue(rewritten.hasPrefix("## Introduction\n\nLighthouses have been studied for *centuries*"), rewritten)
        let back = try read(rewritten)
        XCTAssertEqual(back.blocks.count, changed.blocks.count, rewritten)
        for (a, b) in zip(back.blocks, changed.blocks) { XCTAssertEqual(a, b, rewritten) }
    }

    /// Lines the pre-pass took as code (a fence indented four, which cmark reads as indented code, so the
    /// lines after it are a paragraph) were read without spans: such a paragraph is written anew, or its
    /// spans would read as spans elsewhere (found by FuzzRegressionTests).
    /// CriticMarkup whose marks are on the lines around a block's own (`{==` above a heading, `==}` below) is in
    /// the block but not in its lines: the block is written anew, marks and all (fuzz-roundtrip found the
    /// highlight dropped, and `s{#s}` then read as a heading's attributes).
    func testMarksAroundABlocksLinesAreWrittenWithIt() throws {
        let out = try md(try read("{==\n# s{#s}\n==}\n"))
        XCTAssertEqual(out, "# {==s{#s}==}\n")
        XCTAssertEqual(try read(out).blocks.map(\.plainText), ["s{#s}"])
    }

    /// After a blank line a footnote goes on only with lines indented four or more (pandoc's rule): a list indented
    /// one space is the main flow's (it went into the note, which md → md then moved to the end with the note).
    func testANoteEndsAtALessIndentedLineAfterABlankLine() throws {
        let doc = try read("x[^1]\n\n[^1]: r\n\n - a\n")
        XCTAssertEqual(doc.blocks.count, 2, "\(doc.blocks)")
        XCTAssertEqual(doc.notes.first?.blocks.count, 1)
        let kept = try read("x[^1]\n\n[^1]: r\n\n    - a\n")
        XCTAssertEqual(kept.blocks.count, 1)
        XCTAssertEqual(kept.notes.first?.blocks.count, 2)
    }

    func testLinesThePrePassTookAsCodeAreWrittenAnew() throws {
        let doc = try read("    ```\nText [x]{.underline} here.\n")
        let out = try md(doc)
        XCTAssertEqual(try read(out).blocks.map(\.plainText), doc.blocks.map(\.plainText), out)
    }

    /// cmark-gfm starts a table that took a paragraph's last line as its header row on the paragraph's first line:
    /// the table's kept lines are its own (found by fuzz-roundtrip: the paragraph's text was written twice).
    func testATableRightAfterAParagraphKeepsOnlyItsOwnLines() throws {
        let source = "Some text\nmore text\n|  a | b |\n|---|--:|\n| 1 |  2 |\n"
        let doc = try read(source)
        XCTAssertEqual(doc.blocks.count, 2)
        let out = try md(doc)
        XCTAssertEqual(out, "Some text\nmore text\n\n|  a | b |\n|---|--:|\n| 1 |  2 |\n")
        XCTAssertEqual(try read(out).blocks, doc.blocks)
    }

    static let lists = """
        Intro:

        * one
        * two [sic] and _this_
            * nested
            * more

        1) first
        2) second

        - [ ] task
        - [x] done

        3. three
        3. three again

        """

    func testUnchangedListsAreWrittenAsRead() throws {
        let doc = try read(Self.lists)
        XCTAssertEqual(try md(doc), Self.lists)
        guard case .list(let l)? = doc.blocks.dropFirst().first else { return XCTFail("no list") }
        XCTAssertFalse(l.source.isEmpty)
        let json = String(decoding: try JSONEncoder().encode(l), as: UTF8.self)
        XCTAssertFalse(json.contains("* one"), json)
    }

    func testChangedListsAndListsTheWriterMustWriteAreWrittenAnew() throws {
        // A changed item: the list is written anew (`-`), and reads back as the changed list.
        var doc = try read("* one\n* two\n")
        guard case .list(var l) = doc.blocks[0] else { return XCTFail("no list") }
        l.items[1] = [.paragraph(Paragraph([.text("three")]))]
        doc.blocks[0] = .list(l)
        XCTAssertEqual(try md(doc), "- one\n- three\n")
        // Two lists: the first written anew with `-`, the second kept with `-` would join it; it is written anew.
        doc = try read("* a\n\n- b\n")
        XCTAssertEqual(doc.blocks.count, 2)
        guard case .list(var first) = doc.blocks[0] else { return XCTFail("no list") }
        first.items[0] = [.paragraph(Paragraph([.text("c")]))]
        doc.blocks[0] = .list(first)
        let out = try md(doc)
        XCTAssertEqual(try read(out).blocks.count, 2, out)
        // CriticMarkup, a comment or a div in a list: written by Redline; a list in a quote is the quote's.
        for source in ["* a {++new++}\n* b\n", "* a{>>note<<}\n* b\n", "> * a\n> * b\n", "* a\n\n  ::: x\n  b\n  :::\n"] {
            let d = try read(source)
            let out = try md(d)
            XCTAssertNotEqual(out, source)
            XCTAssertEqual(try read(out).blocks, d.blocks, out)
        }
        // GitHub output writes its own bullets.
        var gfm = WriteOptions()
        gfm.markdownDialect = .gfm
        XCTAssertEqual(try md(try read("* a\n"), gfm), "- a\n")
    }

    /// Math is kept as written inside a kept paragraph or list (`$x_1$`, `\\(…\\)` spacing, `_emphasis_` around it);
    /// a paragraph holding a note, span or CriticMarkup still is written anew.
    func testParagraphsHoldingMathAreWrittenAsRead() throws {
        let source = """
            The _rate_ is $r = \\frac{a}{b}$,  and $$x^2$$ holds __here__.

            * with $y_1$ and _z_

            """
        let doc = try read(source)
        XCTAssertEqual(try md(doc), source)
        for written in ["Math $x$ and a _note_^[A note.]\n", "Math $x$ and [_span_]{.smallcaps}\n"] {
            let d = try read(written)
            let out = try md(d)
            XCTAssertNotEqual(out, written)
            XCTAssertEqual(try read(out).blocks, d.blocks, out)
        }
    }

    /// NUL is U+FFFD to the reader (as CommonMark says), so kept lines never hand a NUL back.
    func testNULIsReadAsTheReplacementCharacter() throws {
        let doc = try read("A\u{0}b _c_\n\n* d\u{0}\n")
        XCTAssertEqual(try md(doc), "A\u{FFFD}b _c_\n\n* d\u{FFFD}\n")
    }
}

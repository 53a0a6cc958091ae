import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// Markdown writer behaviour the round-trip property test does not reach: tables with merged cells, and
/// empty paragraphs (written only when they carry something).
final class MarkdownWriterTests: XCTestCase {
    private func md(_ doc: Document, _ o: WriteOptions = WriteOptions(), _ d: Diagnostics = Diagnostics()) throws -> String {
        try MarkdownWriter.string(doc, options: o, diagnostics: d)
    }

    private func cell(_ s: String, columns: Int = 1, rows: Int = 1) -> TableCell {
        TableCell([.paragraph(Paragraph([.text(s)]))], columnSpan: columns, rowSpan: rows)
    }

    /// A row span leaves later rows without the covered cell (the model's rule). Markdown writes such a table as
    /// a pandoc grid table and reads it back with its spans; GitHub's Markdown (`pipeTablesOnly`) has no spans,
    /// so the writer puts an empty cell there, and after a column span, and warns once per merged cell.
    func testMergedCellsKeepLaterCellsInTheirColumns() throws {
        let table = Table(columns: [.none, .none, .none], headerRowCount: 1, rows: [
            TableRow([cell("A"), cell("B"), cell("C")]),
            TableRow([cell("X", rows: 2), cell("Y"), cell("Z")]),
            TableRow([cell("Y2"), cell("Z2")]),
            TableRow([cell("W", columns: 2), cell("V")]),
            TableRow([cell("P"), cell("Q", rows: 3), cell("R")]),
            TableRow([cell("P2"), cell("R2")]),
        ])
        let d = Diagnostics()
        let written = try md(Document(blocks: [.table(table)]), WriteOptions(), d)
        XCTAssertEqual(written, """
            +-----+-----+-----+
            | A   | B   | C   |
            +=====+=====+=====+
            | X   | Y   | Z   |
            |     +-----+-----+
            |     | Y2  | Z2  |
            +-----+-----+-----+
            | W         | V   |
            +-----+-----+-----+
            | P   | Q   | R   |
            +-----+     +-----+
            | P2  |     | R2  |
            +-----+-----+-----+

            """)
        XCTAssertEqual(d.count(of: .lossyTableSpan), 0)
        guard case .table(let read)? = try MarkdownReader.document(written).blocks.first else { return XCTFail() }
        var clamped = table  // Q's three rows end at the table's last row
        clamped.rows[4].cells[1].rowSpan = 2
        XCTAssertEqual(read, clamped)

        var gfm = WriteOptions()
        gfm.pipeTablesOnly = true
        let pipes = Diagnostics()
        let flat = try md(Document(blocks: [.table(table)]), gfm, pipes)
        XCTAssertEqual(flat, """
            | A | B | C |
            | --- | --- | --- |
            | X | Y | Z |
            |  | Y2 | Z2 |
            | W |  | V |
            | P | Q | R |
            | P2 |  | R2 |

            """)
        XCTAssertEqual(pipes.count(of: .lossyTableSpan), 3)
        // Read back, every cell is in its column.
        guard case .table(let back)? = try MarkdownReader.document(flat).blocks.first else { return XCTFail() }
        XCTAssertEqual(back.rows[2].cells.map(\.blocks.first?.plainText), [nil, "Y2", "Z2"])
        XCTAssertEqual(back.rows[3].cells.map(\.blocks.first?.plainText), ["W", nil, "V"])
        XCTAssertEqual(back.rows[5].cells.map(\.blocks.first?.plainText), ["P2", nil, "R2"])
    }

    /// A reference to a note the document does not hold (a DOCX document.xml without its footnotes part)
    /// writes nothing, with `markdown.missing-note`: `[^5]` would read back as the text "[^5]". A note
    /// referenced only from another note travels with it, so that reference is kept.
    func testNoteReferencesWithoutTheirNote() throws {
        let d = Diagnostics()
        let dangling = Document(blocks: [.paragraph(Paragraph([.text("a"), .noteReference("5"), .text("b"), .noteReference("5")]))])
        XCTAssertEqual(try md(dangling, WriteOptions(), d), "ab\n")
        XCTAssertEqual(d.count(of: .markdownMissingNote), 1)
        let nested = Document(blocks: [.paragraph(Paragraph([.text("a"), .noteReference("1")])),
                                       .paragraph(Paragraph([.text("c")]))],
                              notes: [Note(id: "1", blocks: [.paragraph(Paragraph([.text("n"), .noteReference("2")]))]),
                                      Note(id: "2", blocks: [.paragraph(Paragraph([.text("m")]))])])
        let e = Diagnostics()
        let text = try md(nested, WriteOptions(), e)
        XCTAssertEqual(e.count(of: .markdownMissingNote), 0, text)
        let again = try MarkdownReader.document(text)
        XCTAssertEqual(again.blocks, nested.blocks)
        XCTAssertEqual(again.notes.sorted { $0.id < $1.id }, nested.notes, text)
    }

    /// A link whose text starts with a caret is written `[\^x](url)`: `[^x](url)` reads back as the note
    /// reference `[^x]` when the document has a note x (fuzz-roundtrip: the note's text appeared).
    func testALinkTextOpeningWithACaretIsNotANoteReference() throws {
        let doc = Document(blocks: [.paragraph(Paragraph([.link(Link(url: "g"), [.text("^n"), .emphasis([.text("e")])]),
                                                          .noteReference("n")]))],
                           notes: [Note(id: "n", blocks: [.paragraph(Paragraph([.text("note")]))])])
        let text = try md(doc)
        XCTAssertTrue(text.hasPrefix("[\\^n*e*](g)[^n]"), text)
        let again = try MarkdownReader.document(text)
        XCTAssertEqual(again.blocks, doc.blocks, text)
        XCTAssertEqual(again.notes, doc.notes, text)
        // The fuzz input, minimised: a link reference definition labelled `^tide` beside the note tide.
        let read = try MarkdownReader.document("[^tide]:\n>~~~\n[^tide]\n\n[^tide]:g")
        let written = try md(read)
        XCTAssertEqual(try MarkdownReader.document(written).blocks, read.blocks, written)
        XCTAssertEqual(try MarkdownReader.document(written).notes, read.notes, written)
    }

    /// No empty span at a paragraph's end: a paragraph of spaces is left out like an empty one (docx2python's
    /// comments.docx ends in one), and a paragraph wholly inserted but for its break (LibreOffice drops the
    /// break's revision when it re-saves Redline's RTF as DOCX) says that its break stays with `[mark-kept]`.
    func testNoEmptySpanAtParagraphEnds() throws {
        let ann = Change(author: "Ann")
        let d = Diagnostics()
        let doc = Document(blocks: [.paragraph(Paragraph([.text("a")])), .paragraph(Paragraph([.insertion(ann, [.text("New.")])])),
                                    .paragraph(Paragraph([.deletion(ann, [.text("Old.")])])), .paragraph(Paragraph([.text(" \t ")]))])
        let written = try md(doc, WriteOptions(), d)
        XCTAssertEqual(written, "a\n\n{++New.++}{>>@Ann [mark-kept]<<}\n\n{--Old.--}{>>@Ann [mark-kept]<<}\n")
        XCTAssertEqual(d.count(of: .lossyUnchangedBreak), 0)
        let back = try MarkdownReader.document(written)
        XCTAssertEqual(back.blocks.map { $0.paragraph?.markChange }, [nil, nil, nil])
        XCTAssertEqual(back.blocks.map { $0.paragraph?.content }, doc.blocks.prefix(3).map { $0.paragraph?.content })
        // Accepting and rejecting give the same text (Markdown has no empty paragraph to show).
        for mode in [ChangeMode.accept, .reject] {
            XCTAssertEqual(try back.applying([ReviewTransform(mode)]).blocks.map(\.plainText).filter { !$0.isEmpty },
                           try doc.applying([ReviewTransform(mode)]).blocks.map(\.plainText).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        }
        // The reader still reads an empty span after such a paragraph as "the break stays".
        XCTAssertEqual(try MarkdownReader.document("{++New.++}[]{}\n").blocks.first?.paragraph?.markChange, nil)
    }

    /// An empty paragraph that carries nothing is not written (Markdown reads none back): after reject
    /// (the tail of a rejected multi-paragraph insertion) or after dropping comments nothing is left over.
    func testEmptyParagraphsAreWrittenOnlyWhenTheyCarrySomething() throws {
        let p = { (s: String) in Block.paragraph(Paragraph(s.isEmpty ? [] : [.text(s)])) }
        XCTAssertEqual(try md(Document(blocks: [p("a"), p(""), p("b"), p("")])), "a\n\nb\n")
        let rejected = try MarkdownReader.document("Keep.\n\n{++New one.\n\nNew two.++}\n\nEnd.\n").applying([ReviewTransform(.reject)])
        XCTAssertEqual(try md(rejected), "Keep.\n\nEnd.\n")
        let dropped = try MarkdownReader.document("a\n\n{>>note<<}\n\nb\n").applying([DropComments()])
        XCTAssertEqual(try md(dropped), "a\n\nb\n")

        // Kept: a mark change on it or on the paragraph before it, a style change, a style that is written.
        let ann = Change(author: "Ann")
        for doc in [Document(blocks: [.paragraph(Paragraph([], markChange: .deleted(ann))), p("b")]),
                    Document(blocks: [.paragraph(Paragraph([.text("a")], markChange: .inserted(ann))), p(""), p("b")]),
                    Document(blocks: [.paragraph(Paragraph([.insertion(ann, [.text("a")])], markChange: .inserted(ann))), p(""), p("b")]),
                    Document(blocks: [.paragraph(Paragraph([], styleChange: ParagraphStyleChange(change: ann, old: ParagraphStyle())))])] {
            let written = try md(doc)
            XCTAssertEqual(try MarkdownReader.document(written).blocks, doc.blocks, written)
        }
        var keep = WriteOptions()
        keep.preserveFormatting = true
        let styled = Document(blocks: [.paragraph(Paragraph([], style: ParagraphStyle(name: "Spacer")))])
        XCTAssertEqual(try MarkdownReader.document(try md(styled, keep)).blocks, styled.blocks)
        // Two lists around a left-out paragraph stay two lists.
        let list = Block.list(List(kind: .bullet, tight: true, items: [[p("x")]]))
        let lists = Document(blocks: [list, p(""), list])
        XCTAssertEqual(try MarkdownReader.document(try md(lists)).blocks, [list, list])
        // In a list item the empty paragraph holds the item's shape (before a nested list).
        let item = Block.list(List(kind: .bullet, tight: true, items: [[p(""), list]]))
        XCTAssertEqual(try MarkdownReader.document(try md(Document(blocks: [item]))).blocks, [item])
    }

    /// CriticMarkup nests only a deletion in an insertion. Other changes inside a change (from a DOCX, or a
    /// fuzzed Markdown) keep their text: a substitution in an insertion is its deletion then its inserted
    /// text, an insertion in an insertion is text, anything inside a deletion or a substitution is text;
    /// the Markdown reads back with the same text (the marks would otherwise be read as text).
    func testChangesCriticMarkupCannotNestKeepTheirText() throws {
        let a = Change(author: "A"), b = Change(author: "B")
        let doc = Document(blocks: [.paragraph(Paragraph([
            .insertion(a, [.text("one "), .substitution(b, deleted: [.text("two")], inserted: [.text("three")]), .text(" four")]),
            .text(" "),
            .insertion(a, [.text("five "), .insertion(b, [.text("six")])]),
            .text(" "),
            .deletion(a, [.text("seven "), .insertion(b, [.text("eight")]), .deletion(b, [.text(" nine")])]),
            .text(" "),
            .substitution(a, deleted: [.deletion(b, [.text("ten")])], inserted: [.insertion(b, [.text("eleven")])]),
        ]))])
        let written = try md(doc)
        XCTAssertEqual(written, """
            {++one {--two--}{>>@B<<}three four++}{>>@A<<} {++five six++}{>>@A<<} {--seven eight nine--}{>>@A<<} \
            {~~ten~>eleven~~}{>>@A<<}

            """)
        let back = try MarkdownReader.document(written)
        XCTAssertEqual(back.blocks.map(\.plainText), doc.blocks.map(\.plainText))
    }

    /// A link's URL or title holding a mark's closer (`--}`) or opener is written with the braces escaped:
    /// `[r](--})` inside a deletion would close it.
    func testBracesInLinkDestinationsAndTitlesAreEscaped() throws {
        let doc = Document(blocks: [.paragraph(Paragraph([
            .deletion(Change(), [.link(Link(url: "--}", title: "{>>x"), [.text("r")])]), .text(" after"),
        ]))])
        let written = try md(doc)
        XCTAssertEqual(written, "{--[r](<--\\}> \"\\{>>x\")--} after\n")
        XCTAssertEqual(try MarkdownReader.document(written).blocks, doc.blocks)
    }

    /// Word records each typing session as its own `w:ins`: thousands of insertions of one attribution in a
    /// row are one mark, gathered and made readable once (joining each to the one before was quadratic).
    func testManyAdjacentInsertionsOfOneAttributionAreOneMark() throws {
        let ann = Change(author: "Ann", date: "2024-01-01T00:00:00Z")
        var inlines: [Inline] = [.text("Start ")]
        for k in 0..<10_000 {
            var c = ann
            c.id = "\(k)"
            inlines.append(.insertion(c, [k % 3 == 0 ? .strong([.text("b\(k)")]) : .text("w\(k) ")]))
        }
        inlines.append(.text(" end."))
        let written = try md(Document(blocks: [.paragraph(Paragraph(inlines))]))
        XCTAssertEqual(written.components(separatedBy: "{++").count - 1, 1, String(written.prefix(200)))
        XCTAssertTrue(written.hasPrefix("Start {++**b0**w1 w2 **b3**"), String(written.prefix(200)))
        XCTAssertTrue(written.hasSuffix("++}{>>@Ann (2024-01-01T00:00:00Z)<<} end.\n"), String(written.suffix(200)))
    }
}

/// pandoc's citations and inline notes read by Redline as text come back as pandoc wrote them, not escaped:
/// pandoc (the oracle, when installed) reads the same citations from Redline's output as from the input.
final class PandocCitationWriterTests: XCTestCase {
    static let source = """
        As shown by [@smith2020; @lee2019, p. 12], and [-@doe2021] too.
        A note^[an inline note] here, [see @a, pp. 3-4; @b] there, [not a citation] and [a link](http://x.org).
        A reference [^1] stays one.

        [^1]: The note.

        """

    func written() throws -> String {
        var source = try MarkdownReader().open(.bytes(Array(Self.source.utf8)), options: ReadOptions(), diagnostics: Diagnostics())
        let doc = try Document(reading: &source)
        return try MarkdownWriter.string(doc)
    }

    func testCitationsAndInlineNotesAreNotEscaped() throws {
        let out = try written()
        XCTAssertTrue(out.contains("[@smith2020; @lee2019, p. 12]"), out)
        XCTAssertTrue(out.contains("[-@doe2021]"), out)
        XCTAssertTrue(out.contains("^[an inline note]"), out)
        XCTAssertTrue(out.contains("[see @a, pp. 3-4; @b]"), out)
        XCTAssertTrue(out.contains("[not a citation]"), out)
        XCTAssertTrue(out.contains("[^1]"), out)
    }

    /// Words in brackets that no definition gives a target are written as they are (`[sic]`), as authors write
    /// them, and so is a task list's box (`- [ ] task`: GitHub shows the box); where a reference link of the
    /// document defines their label, or they would be a link or an image, the brackets are escaped; a reference
    /// link whose label such words took is written inline.
    func testWordsInBracketsAreEscapedOnlyWhereTheyWouldBeALink() throws {
        let labelled = Inline.link(Link(url: "/u", label: "sic"), [.text("a link")])
        func para(_ c: [Inline]) -> Block { .paragraph(Paragraph(c)) }
        let textFirst = try MarkdownWriter.string(Document(blocks: [para([.text("As written [sic], x.")]), para([labelled])]))
        XCTAssertEqual(textFirst, "As written [sic], x.\n\n[a link](/u)\n")
        let linkFirst = try MarkdownWriter.string(Document(blocks: [para([labelled]), para([.text("As written [sic], x.")])]))
        XCTAssertEqual(linkFirst, "[a link][sic]\n\n[sic]: /u\n\nAs written \\[sic\\], x.\n")
        let others = try MarkdownWriter.string(Document(blocks: [
            para([.text("[x] a [ ] b ![c] d [e](f) [g][h] [i]{j} [k]")]),
        ]))
        XCTAssertEqual(others, "[x] a [ ] b !\\[c\\] d \\[e\\](f) \\[g\\][h] \\[i\\]{j} [k]\n")
        let tasks = try MarkdownWriter.string(Document(blocks: [
            .list(List(kind: .bullet, items: [[para([.text("[ ] to do")])], [para([.text("[x] done "), .insertion(Change(author: "A"), [.text("now")])])]])),
        ]))
        XCTAssertEqual(tasks, "- [ ] to do\n- [x] done {++now++}{>>@A<<}\n")
        for out in [textFirst, linkFirst, others, tasks] {
            var source = try MarkdownReader().open(.bytes(Array(out.utf8)), options: ReadOptions(), diagnostics: Diagnostics())
            let back = try Document(reading: &source)
            XCTAssertFalse(back.blocks.contains { $0.plainText.contains("a link") && $0.plainText.contains("sic") }, out)
        }
    }

    /// Words in brackets at the end of a text are written as they are unless what follows would make them a link
    /// (a link's `(`, a reference's `[`, attributes' `{`): "as noted [1]" at a paragraph's end, before emphasis or
    /// a comment stays as written.
    func testWordsInBracketsAtATextsEndAreEscapedOnlyBeforeSyntax() throws {
        func para(_ c: [Inline]) -> Block { .paragraph(Paragraph(c)) }
        let doc = Document(blocks: [
            para([.text("As noted [1]")]),
            para([.text("Said [sic]"), .emphasis([.text("b")]), .text(" and [c]"), .text("(d) and [e]"), .link(Link(url: "/u"), [.text("f")])]),
            para([.text("Then [g]"), .text("[h]"), .text(" [i]"), .text("{j} [k]"), .text(":"), .text(" [@key]"), .text(" end [1]!")]),
        ])
        let out = try MarkdownWriter.string(doc)
        XCTAssertEqual(out, """
            As noted [1]

            Said [sic]*b* and \\[c\\](d) and \\[e\\][f](/u)

            Then \\[g\\][h] \\[i\\]{j} \\[k\\]: [@key] end [1]!

            """)
        var source = try MarkdownReader().open(.bytes(Array(out.utf8)), options: ReadOptions(), diagnostics: Diagnostics())
        XCTAssertEqual(try Document(reading: &source).blocks.map(\.plainText), doc.blocks.map(\.plainText))
    }

    func testPandocReadsTheSameCitations() throws {
        func citations(_ markdown: String) throws -> [String] {
            let json = try TestProcess.pandocJSON(markdown)
            let re = try NSRegularExpression(pattern: #""citationId":"([^"]+)""#)
            return re.matches(in: json, range: NSRange(json.startIndex..., in: json)).map {
                String(json[Range($0.range(at: 1), in: json)!])
            }
        }
        let expected = try citations(Self.source)
        XCTAssertEqual(expected, ["smith2020", "lee2019", "doe2021", "a", "b"])
        XCTAssertEqual(try citations(try written()), expected)
    }

    /// A backslash before a letter, digit or non-ASCII character is literal in CommonMark: TeX (`$\alpha$`) and
    /// paths are written as they are, and read back the same; before punctuation or a space it is escaped. TeX in
    /// text (not an equation) has its dollars escaped, which would make it math.
    func testLiteralBackslashesAreNotDoubled() throws {
        let text = #"See $\alpha + \frac{1}{2}$ in C:\Users\Åsa, a\*b, a\ b and a\"#
        let doc = Document(blocks: [.paragraph(Paragraph([.text(text)]))])
        let out = try MarkdownWriter.string(doc)
        XCTAssertTrue(out.contains(#"\$\alpha + \frac\{1}\{2}\$"#) || out.contains(#"\$\alpha + \frac{1}{2}\$"#), out)
        XCTAssertTrue(out.contains(#"C:\Users\Åsa"#), out)
        XCTAssertTrue(out.contains(#"a\\\*b"#) && out.contains(#"a\\ b"#), out)
        var source = try MarkdownReader().open(.bytes(Array(out.utf8)), options: ReadOptions(), diagnostics: Diagnostics())
        let back = try Document(reading: &source)
        XCTAssertEqual(back.blocks, doc.blocks, out)
    }
}

/// A code block's whole info string (Quarto and R Markdown chunk options, pandoc attributes) comes back as written.
final class CodeInfoStringTests: XCTestCase {
    func testChunkOptionsAndAttributesAreKept() throws {
        let source = "```{r, echo=FALSE}\nplot(x)\n```\n\n```python title=\"x.py\"\nprint(1)\n```\n\n```swift\nlet x = 1\n```\n"
        var s = try MarkdownReader().open(.bytes(Array(source.utf8)), options: ReadOptions(), diagnostics: Diagnostics())
        let doc = try Document(reading: &s)
        guard case .codeBlock(let r) = doc.blocks[0], case .codeBlock(let swift) = doc.blocks[2] else { return XCTFail("\(doc.blocks)") }
        XCTAssertEqual(r.language, "{r,")
        XCTAssertEqual(r.info, "{r, echo=FALSE}")
        XCTAssertNil(swift.info)
        XCTAssertEqual(try MarkdownWriter.string(doc), source)
    }
}

import XCTest
import Redline
import RedlineCompare
import RedlineCore

/// Shapes fuzz-compare found where accepting did not give NEW or rejecting did not give OLD: a note that
/// references itself, and a deleted heading's words that the clean-up slid past NEW's inserted blocks.
final class CompareNotesAndBlocksTests: XCTestCase {
    private func read(_ markdown: String) throws -> Document {
        try Converter.read(.bytes(Array(markdown.utf8)), format: FormatRegistry.named("md")!)
    }

    /// OLD and NEW read as Markdown and compared, with and without moves: accepting gives NEW, rejecting OLD
    /// (as compare takes it: without its comments; without its tables' columns when compare reported them
    /// changed, as it keeps NEW's).
    @discardableResult
    private func compared(_ old: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) throws -> [Document] {
        let a = try read(old), b = try read(new)
        return [true, false].map { moves in
            let d = Diagnostics()
            let (r, _) = DocumentComparer.compare(old: a, new: b, options: CompareOptions(date: "2024-01-01T00:00:00Z", detectMoves: moves),
                                                  diagnostics: d)
            XCTAssertEqual(ExactnessNormalization.document(DocumentComparer.accepted(r)), ExactnessNormalization.document(b),
                           "accept (moves: \(moves))", file: file, line: line)
            var rejected = ExactnessNormalization.document(DocumentComparer.rejected(r)), oldSide = ExactnessNormalization.old(a)
            if d.count(of: .compareTableColumns) > 0 {
                rejected = ExactnessNormalization.withoutTableColumns(rejected)
                oldSide = ExactnessNormalization.withoutTableColumns(oldSide)
            }
            XCTAssertEqual(rejected, oldSide, "reject (moves: \(moves))", file: file, line: line)
            return r
        }
    }

    /// A deleted reference to a note whose other reference matched points at the matched note: rejecting
    /// gives OLD's one note (a copy named `old-1` made it two).
    func testANoteReferencingItselfStaysOneNote() throws {
        for r in try compared("Text.[^1]\n\n[^1]: See note[^1] again.\n", "Text.[^1]\n\n[^1]: Plain.\n") {
            XCTAssertEqual(r.notes.map(\.id), ["1"])
        }
        try compared("One[^a] and two[^a].\n\n[^a]: Note.\n", "One[^a] and three.\n\n[^a]: Note.\n")
    }

    /// A note referenced only from inside another note is compared too (the pairs found while comparing a
    /// note's story were not taken).
    func testANoteReferencedFromANoteIsCompared() throws {
        for r in try compared("Text.[^1]\n\n[^1]: First[^2].\n\n[^2]: Inner old.\n", "Text.[^1]\n\n[^1]: First[^2].\n\n[^2]: Inner new.\n") {
            XCTAssertEqual(r.notes.count, 2)
        }
    }

    /// A heading's pandoc attributes (`{#sec-lamps}`) go with it: an inserted heading keeps NEW's on accept, a
    /// deleted one OLD's on reject, one in both NEW's (they were dropped: fuzz-compare found it when a seed held one).
    func testHeadingAttributesGoWithTheirHeading() throws {
        func attributes(_ d: Document) -> [String?] { d.blocks.compactMap { if case .heading(_, let p) = $0 { return p.headingAttributes } else { return nil } } }
        for r in try compared("Anna reaches the island.\n", "# Lamps and tides {#sec-lamps}\n\nAnna reaches the island.\n") {
            XCTAssertEqual(attributes(DocumentComparer.accepted(r)), [" {#sec-lamps}"])
        }
        for r in try compared("# Old {.unnumbered}\n\nText.\n", "Text.\n") {
            XCTAssertEqual(attributes(DocumentComparer.rejected(r)), [" {.unnumbered}"])
        }
        for r in try compared("# Same {#a}\n\nText.\n", "# Same {#b}\n\nText.\n") {
            XCTAssertEqual(attributes(DocumentComparer.accepted(r)), [" {#b}"])
        }
    }

    /// OLD's heading words deleted before NEW's inserted list and table stay in the heading whose mark
    /// matched, so rejecting gives the heading back (it came back a plain paragraph and an empty heading).
    func testDeletedHeadingWordsPastInsertedBlocksStayInTheirHeading() throws {
        try compared("Intro.\n\n## The Storm\n\nLast.\n",
                     "Intro.\n\n- one\n- two\n\nBetween.\n\n| a | b |\n| --- | --- |\n| c | d |\n\n## Details\n\nLast.\n")
        try compared("Intro.\n\n- one\n- two\n\n## Details\n\nLast.\n", "Intro.\n\n## The Storm\n\nLast.\n")
    }

    /// NEW's comment in an inserted list item stays when the item is rejected (comments are never lost), so
    /// rejecting leaves an item holding only the comment: the exactness check drops it with the comment, as it
    /// drops such a paragraph.
    func testACommentInAnInsertedListItemIsAllThatRejectingLeaves() throws {
        try compared("Intro.\n", "Intro.\n\n- one item{>>@Editor (2024-05-01T09:00:00Z) | why?<<} here\n")
    }

    /// NEW's comment in an inserted table at the end: rejecting drops the table, and review keeps an empty
    /// last paragraph to hold the comment; the exactness check drops that paragraph with the comment.
    func testACommentInAnInsertedLastTableIsAllThatRejectingLeaves() throws {
        try compared("Intro.\n", "Intro.\n\nAdded.\n\n| a | b |\n| --- | --- |\n| c{>>@Editor (2024-05-01T09:00:00Z) | why?<<} | d |\n")
    }

    /// An empty quote (a lone ">") between a paragraph whose inserted break is rejected and the paragraph it
    /// joins: review lets the join pass it (it stopped the join, so rejecting split OLD's paragraph in two).
    func testAnEmptyQuoteDoesNotStopARejectedBreakJoining() throws {
        try compared("Alpha.\n", "Becheta.\n\n> \n\nBechetamma.\n")
        try compared("Alpha beta.\n", "Alpha.\n\n>\n\n- \n\nbeta.\n")
    }

    /// NEW's comment in an inserted list between a paragraph whose inserted break is rejected and the one it
    /// joins: the rejected list leaves only the comment's anchor, which joins the paragraph instead of keeping
    /// an empty item that split OLD's paragraph in two.
    func testACommentLeftByARejectedListDoesNotStopTheJoin() throws {
        for r in try compared("Alpha beta.\n", "# Gamma\n\n- item{>>@Ann Editor (2024-03-01T10:00:00Z) | c<<} one\n\nbeta.\n") {
            let rejected = DocumentComparer.rejected(r)
            XCTAssertEqual(rejected.blocks.count, 1)
            XCTAssertEqual(rejected.comments.count, 1)
        }
    }

    /// OLD referenced one note twice, NEW has a note for each reference: the second reference is a
    /// substitution (OLD's to the first note, NEW's to its own, inserted note), so rejecting gives one note.
    func testOneNoteReferencedTwiceAgainstTwoNotes() throws {
        for r in try compared("One[^a] and two[^a].\n\n[^a]: Note.\n", "One[^a] and two[^b].\n\n[^a]: Note.\n\n[^b]: Other.\n") {
            XCTAssertEqual(r.notes.count, 2)
        }
    }

    /// The other way round: OLD's two notes, NEW's one note referenced twice.
    func testTwoNotesAgainstOneNoteReferencedTwice() throws {
        try compared("One[^a] and two[^b].\n\n[^a]: Note.\n\n[^b]: Other.\n", "One[^a] and two[^a].\n\n[^a]: Note.\n")
    }

    /// A link whose title alone changed is a change (its words were equal tokens keyed by the URL only, so
    /// rejecting kept NEW's title).
    func testALinkTitleChangeIsAChange() throws {
        for r in try compared("See [a link](https://example.com/t \"Tydes\").\n", "See [a link](https://example.com/t \"Tides\").\n") {
            XCTAssertGreaterThan(DocumentComparer.trackedChangeCount(r), 0)
        }
        try compared("See [![pic](p.png)](https://example.com/t \"A\").\n", "See [![pic](p.png)](https://example.com/t \"B\").\n")
    }

    /// The same with the second reference in an equal paragraph after an edited one: the body's note pairs are
    /// taken in reading order (an equal block's were taken before the gaps', so the wrong reference was mended).
    func testTwoNotesAgainstOneReferencedTwiceAcrossAnEqualParagraph() throws {
        try compared("Edited here[^b].\n\nSame[^a].\n\n[^a]: A.\n\n[^b]: B.\n", "Edited there[^a].\n\nSame[^a].\n\n[^a]: A.\n")
    }

    /// A list that only turned loose (blank lines between items) is not a change the check compares.
    func testAListThatTurnedLooseIsExact() throws {
        try compared("- one\n- two\n", "- one\n\n- two\n")
    }

    /// A last heading whose words all go, in a chunk that carries comments anchored elsewhere (in NEW's note that
    /// nothing references, or in a rejected table): review keeps a paragraph to hold the comments, a plain empty
    /// one (it kept the emptied heading, so accepting left an empty heading NEW does not have).
    func testCommentsHeldPastADeletedLastHeadingLeaveNoHeading() throws {
        try compared("Intro.\n\n# Old heading\n", "Intro.\n\n[^n]: A note{>>c<<} nothing refers to.\n")
        try compared("Intro.\n", "Intro.\n\n| t{>>c<<} |\n|---|\n| x |\n\n# Added\n")
    }

    /// OLD's heading that holds only a comment: compare does not carry OLD's comments, so to it the heading is
    /// empty, and rejecting gives an empty heading back; the check takes OLD without its comments (it dropped
    /// the heading with its anchors, as it drops what held only NEW's).
    func testOldHeadingHoldingOnlyACommentIsAnEmptyHeadingToCompare() throws {
        try compared("# {>>c<<}\n", "")
        try compared("Intro.\n\n## {>>note to self<<}\n\nText.\n", "Intro.\n\nText.\n")
    }

    /// NEW's comment in an inserted table that ends the document: rejecting drops the table and keeps the
    /// comment, in an empty paragraph (with no paragraph after the table it was lost).
    func testACommentInAnInsertedTableAtTheEndIsKeptOnReject() throws {
        for r in try compared("Intro.\n", "Intro.\n\n| t{>>@Ann (2024-01-01T00:00:00Z) | keep me<<} |\n|---|\n| x |\n") {
            XCTAssertEqual(DocumentComparer.rejected(r).comments.map(\.id), r.comments.map(\.id))
            XCTAssertEqual(r.comments.count, 1)
        }
    }

    /// A table whose columns changed, so no old row pairs with a new one: NEW's header row is inserted after
    /// OLD's deleted rows, and the result's header rows were NEW's count from the top, OLD's deleted header row,
    /// so accepting gave a table without a header. Header rows now pair with header rows and body rows with
    /// body rows when the rows in order leave no place between them (found by a one-hour fuzz-compare run).
    func testAllRowsReplacedInATableWhoseColumnsChangedKeepTheHeader() throws {
        func headerRows(_ d: Document) -> Int? { if case .table(let t)? = d.blocks.first { t.headerRowCount } else { nil } }
        for r in try compared("*||*\n-|-|-\nn\n", "t||\n-|-\n") {
            XCTAssertEqual(headerRows(DocumentComparer.accepted(r)), 1)
            XCTAssertEqual(headerRows(DocumentComparer.rejected(r)), 1)
        }
        try compared("t||i\n-|-|-\n||\n", ".\n-|\n")
        try compared("| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n| 4 | 5 | 6 |\n", "| x | y |\n|---|---|\n| 1 | 2 |\n")
    }

    /// The same where a row changes sides: OLD's body row is NEW's header row (equal rows paired across the
    /// header's edge left no place for it either way).
    func testARowThatBecameTheHeaderIsReplaced() throws {
        try compared("| A |\n|---|\n| B |\n", "| B |\n|---|\n| C |\n")
        try compared("| A |\n|---|\n| B |\n", "| B |\n|---|\n| A |\n")
        try compared("::: {header-rows=0}\n\n| A |\n|---|\n| B |\n\n:::\n", "| A |\n|---|\n| B |\n")
    }

    /// An empty list item or quote deleted or inserted whole: it has no text and no break to mark, so it was
    /// written unmarked and accepting its deletion (rejecting its insertion) kept it. It now carries one empty
    /// paragraph whose break is the change (found by a one-hour fuzz-compare run: `- :::` against nothing), and
    /// review no longer joins away a list of empty items as if it held only comment anchors.
    func testADeletedOrInsertedEmptyItemOrQuoteIsMarked() throws {
        func hasQuote(_ d: Document) -> Bool { d.blocks.contains { if case .blockQuote = $0 { true } else { false } } }
        try compared("- :::\n", "")
        try compared("", "- :::\n")
        try compared("- a\n-\n- b\n", "- a\n- b\n")
        try compared("- a\n- b\n", "- a\n-\n- b\n")
        // Inside a quote, after a deleted quote, and against an item with text.
        try compared(">\n", "> - :::\n")
        try compared("Text.\n\n>\n", "- :::\n")
        try compared("- :::\n", "- a\n")
        try compared("- a\n", "- :::\n")
        // An empty item is one with or without an empty paragraph (the reader gives both for a bare `-`); one
        // paired with an item holding a comment is replaced, so rejecting gives OLD's empty item, not NEW's comment.
        try compared("-\n", "- :::\n")
        try compared("- :::\n", "- a{>>c<<}\n")
        try compared("Alpha.\n\n- \n\nbeta.\n", "Intro.\n\n- one item{>>c<<} here\n")
        // The check does not compare empty quotes (their deletion left one on accept); the result does.
        for r in try compared("Text.\n\n>\n", "Text.\n") {
            XCTAssertFalse(hasQuote(DocumentComparer.accepted(r)))
            XCTAssertTrue(hasQuote(DocumentComparer.rejected(r)))
        }
        for r in try compared("Text.\n", "Text.\n\n>\n") {
            XCTAssertTrue(hasQuote(DocumentComparer.accepted(r)))
            XCTAssertFalse(hasQuote(DocumentComparer.rejected(r)))
        }
    }

    /// NEW's inserted list item whose words were bold around a comment, between a paragraph whose inserted
    /// break is rejected and the one it joins: rejecting leaves the comment's anchor inside empty bold, which
    /// review now takes as only an anchor, so the joined paragraph is OLD's (the item stayed, with an emptied
    /// `**…**`, and OLD's paragraph came back split in two). Found by a one-hour fuzz-compare run.
    func testACommentInsideBoldInARejectedListDoesNotStopTheJoin() throws {
        for r in try compared("his dline.\n", "#ricy\n\n* **:x{>>24-0)<<} bel**\n\n>\n\nO.\n") {
            let rejected = DocumentComparer.rejected(r)
            XCTAssertEqual(rejected.blocks.filter { $0.paragraph != nil }.map(\.plainText), ["his dline."])
            XCTAssertFalse(rejected.blocks.contains { if case .list = $0 { true } else { false } })
            XCTAssertEqual(rejected.comments.count, 1)
        }
        try compared("Alpha beta.\n", "Gamma\n\n- *item{>>c<<} one*\n\nbeta.\n")
        // Struck-through text in a quote, and a quote in a quote (two more inputs of that run).
        try compared("Alpha beta.\n", "Gamma\n\n> ~~quoted{>>c<<} words~~\n\nbeta.\n")
        try compared("Alpha beta.\n", "Gamma\n\n> > ==marked{>>c<<}==\n\nbeta.\n")
    }

    /// Compare takes a soft line break as a space and a plain-paragraph style name (Body Text, Normal, a
    /// heading's own Heading N) as none, keeping NEW's form unmarked; the exactness check took them as they
    /// were, so rejecting gave NEW's soft break where OLD had a space (or NEW's style name). Found by fuzz-ci's
    /// compare run on the issue-33 work: OLD's "A paragraph" against a NEW line ending in `"#"` before
    /// "paragraph", whose space matched NEW's line end.
    func testSoftBreaksAndPlainStyleNamesAreExactAsCompareTakesThem() throws {
        try compared("text \"A paragraph in a fenced div.\"\n", "text \"#\"\nparagraph\nquote\n")
        try compared("C\nt", "C C")   // its minimal form
        try compared("One two three four.\n", "One\ntwo three\nfour.\n")
        try compared("One\ntwo three\nfour.\n", "One two three four.\n")
        // A soft break in a link is not a space to compare (a change): rejecting gives OLD's exactly.
        try compared("[one\ntwo](u) three.\n", "[one two](u) three.\n")
        try compared("::: {custom-style=\"Body Text\"}\nOne two.\n:::\n\n## Head\n", "One two.\n\n## Head\n")
        try compared("One two.\n\n## Head\n", "::: {custom-style=\"Normal\"}\nOne two.\n:::\n\n## Head\n")
        // Another style is still a paragraph-style change, which rejecting takes back.
        try compared("::: {custom-style=\"Quote Text\"}\nOne two.\n:::\n", "One two.\n")
    }

    /// NEW's comment in an inserted table, then an inserted code block that ends the document: rejecting drops
    /// the table, and review keeps the emptied last paragraph to hold the comment. It kept that paragraph's
    /// style, here the code style of the changed-code paragraph, so the check read it as an empty code block
    /// OLD does not have; the holder is a plain empty paragraph now, as `ReviewTransform.finish` meant. Found by
    /// a 20-minute fuzz-compare run after the soft-break fix.
    func testCommentsHeldPastARejectedLastCodeBlockLeaveNoCodeBlock() throws {
        for r in try compared("Intro.\n", "Intro.\n\n| a | b |\n| --- | --- |\n| c{>>why?<<} | d |\n\n```\nlet x = 1\n```\n") {
            let rejected = DocumentComparer.rejected(r)
            XCTAssertFalse(rejected.blocks.contains { $0.paragraph?.style.name == BlockStyleRole.codeName })
            XCTAssertEqual(rejected.comments.count, 1)
        }
        try compared("Intro.\n", "Intro.\n\n| a | b |\n| --- | --- |\n| c{>>why?<<} | d |\n\n## Heading\n")
    }

    /// An empty code block (an unclosed fence holding nothing: no line at all) deleted or inserted: compare
    /// writes it as the code-style paragraph DOCX and RTF write, which has no form for "no line" apart from
    /// one empty line, so rejecting gave a block of one empty line; the check takes a code block as that
    /// paragraph gives it back (its text ends with a line end). Found by minimising the input above.
    func testAnEmptyCodeBlockIsOneEmptyLine() throws {
        try compared("```", "")
        try compared("", "```")
        try compared("```\n```\n", "```\n\n```\n")
        try compared("Text.\n\n```\n```\n", "Text.\n")
    }
}

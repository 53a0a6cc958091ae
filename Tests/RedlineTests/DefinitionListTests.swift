import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// pandoc's definition lists: terms and definitions are "Definition Term" and "Definition" paragraphs (pandoc's
/// DOCX styles). md → md keeps them byte for byte (tight and loose, `:` or `~`, a definition's further
/// paragraphs) and pandoc reads the same AST from the output; Word gets pandoc's styles, which pandoc reads back as
/// the same definition list it reads from its own DOCX; DOCX and RTF give the list back.
final class DefinitionListTests: XCTestCase {
    static let source = """
        Apple
        :   A *red* fruit.
        :   A company.

        Orange

        :   A citrus fruit.

            It is also a colour.

        Banana
        ~ Yellow, and {++quite ++}long.

        > Quoted term
        > :   Quoted definition.

        - A list item

          Term in item
          :   Definition in item.

        After.

        """

    /// The top-level lists of `source`, as they come back from Word: pandoc's DOCX reader sees one definition of
    /// several paragraphs where the source has several definitions, and a blank line before each (`Para`).
    static let topLevel = """
        Apple
        :   A *red* fruit.
        :   A company.

        Orange

        :   A citrus fruit.

            It is also a colour.

        Banana
        ~ Yellow, and {++quite ++}long.

        After.

        """

    static let fromWord = """
        Apple

        :   A *red* fruit.

            A company.

        Orange

        :   A citrus fruit.

            It is also a colour.

        Banana

        :   Yellow, and {++quite ++}long.

        After.

        """

    private func read(_ markdown: String) throws -> Document {
        try Converter.read(.bytes(Array(markdown.utf8)), format: FormatRegistry.markdown)
    }

    private func markdown(_ doc: Document) throws -> String {
        let out = MemoryOutput()
        _ = try Converter.write(doc, format: FormatRegistry.markdown, to: out, diagnostics: Diagnostics())
        return out.string
    }

    private func paragraphs(_ doc: Document) -> [(String?, String, Bool)] {
        var out: [(String?, String, Bool)] = []
        for b in doc.blocks { b.forEachParagraph { out.append(($0.style.name, ApplyPlan.text(of: $0.content, view: .accept), $0.compact)) } }
        return out
    }

    func testTermsAndDefinitionsAreParagraphsInPandocsStyles() throws {
        let got = paragraphs(try read(Self.source))
        let expected: [(String?, String, Bool)] = [
            ("Definition Term", "Apple", false), ("Definition", "A red fruit.", true), ("Definition", "A company.", true),
            ("Definition Term", "Orange", false), ("Definition", "A citrus fruit.", false), ("Definition", "It is also a colour.", false),
            ("Definition Term", "Banana", false), ("Definition", "Yellow, and quite long.", true),
            ("Definition Term", "Quoted term", false), ("Definition", "Quoted definition.", true),
            (nil, "A list item", false), ("Definition Term", "Term in item", false), ("Definition", "Definition in item.", true),
            (nil, "After.", false),
        ]
        XCTAssertEqual(got.count, expected.count, "\(got)")
        for (g, e) in zip(got, expected) {
            XCTAssertEqual(g.0, e.0, "\(g)")
            XCTAssertEqual(g.1, e.1)
            XCTAssertEqual(g.2, e.2, "\(g)")
        }
    }

    func testMarkdownIsKeptByteForByteAndPandocReadsTheSame() throws {
        let written = try markdown(try read(Self.source))
        XCTAssertEqual(written, Self.source)
        XCTAssertEqual(try TestProcess.pandocJSON(written), try TestProcess.pandocJSON(Self.source))
        XCTAssertTrue(try TestProcess.pandocJSON(written).contains("DefinitionList"))
    }

    func testWordAndRTFCarryTheList() throws {
        let doc = try read(Self.topLevel)
        for format in [FormatRegistry.docx, FormatRegistry.rtf] {
            let out = MemoryOutput()
            _ = try Converter.write(doc, format: format, to: out, diagnostics: Diagnostics())
            let back = try Converter.read(.bytes(out.bytes), format: format)
            XCTAssertEqual(try markdown(back), Self.fromWord, format.name)
            // Read again, the Markdown from Word is a fixpoint.
            XCTAssertEqual(try markdown(try read(Self.fromWord)), Self.fromWord)
            guard format.isSame(as: FormatRegistry.docx) else { continue }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redline-deflist-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let ours = dir.appendingPathComponent("redline.docx").path, theirs = dir.appendingPathComponent("pandoc.docx").path
            try Data(out.bytes).write(to: URL(fileURLWithPath: ours))
            try OOXMLValidate.assertValid(ours)
            try TestProcess.require("pandoc")
            // pandoc's own DOCX of the accepted text: the oracle of what pandoc reads from a definition list in Word.
            let accepted = Self.topLevel.replacingOccurrences(of: "{++quite ++}", with: "quite ")
            try Data(accepted.utf8).write(to: dir.appendingPathComponent("in.md"))
            XCTAssertEqual(try TestProcess.run(["pandoc", "in.md", "-o", "pandoc.docx"], in: dir).status, 0)
            func ast(_ path: String) throws -> String {
                try TestProcess.run(["pandoc", "--track-changes=accept", "-f", "docx", "-t", "json", path]).out
            }
            let fromPandoc = try ast(theirs), fromRedline = try ast(ours)
            XCTAssertTrue(fromPandoc.contains("DefinitionList"), fromPandoc)
            XCTAssertEqual(fromRedline, fromPandoc)
        }
    }

    /// Text that would read as a definition, written as text: escaped.
    func testLookalikesAreEscaped() throws {
        let doc = Document(blocks: [.paragraph(Paragraph([.text("Term")])), .paragraph(Paragraph([.text(": not a definition")])),
                                    .paragraph(Paragraph([.text("Line"), .softBreak, .text(": nor this")]))])
        let written = try markdown(doc)
        XCTAssertEqual(written, "Term\n\n\\: not a definition\n\nLine\n\\: nor this\n")
        XCTAssertEqual(paragraphs(try read(written)).map(\.0), [nil, nil, nil])
        XCTAssertEqual(paragraphs(try read(written)).map(\.1), ["Term", ": not a definition", "Line : nor this"])
    }

    /// A definition whose term went (deleted in Word) is a paragraph; a term without a definition is too.
    func testAStrayTermOrDefinitionIsAParagraph() throws {
        var term = Paragraph([.text("Lonely term")]), definition = Paragraph([.text("Lonely definition")])
        term.style.name = "Definition Term"
        definition.style.name = "Definition"
        let written = try markdown(Document(blocks: [.paragraph(definition), .paragraph(Paragraph([.text("Text.")])), .paragraph(term)]))
        XCTAssertEqual(written, "Lonely definition\n\nText.\n\nLonely term\n")
    }

    /// A note in a term is written after the list (between the term and its definition it would end the list).
    func testANoteInATermGoesAfterTheList() throws {
        let source = "Term[^1]\n:   Definition.\n\n[^1]: The note.\n\nAfter.\n"
        let written = try markdown(try read(source))
        XCTAssertEqual(written, "Term[^1]\n:   Definition.\n\nAfter.\n\n[^1]: The note.\n")
        XCTAssertEqual(try markdown(try read(written)), written)
        XCTAssertEqual(try TestProcess.pandocJSON(written), try TestProcess.pandocJSON(source))
    }

    /// A second definition after a blank line keeps its own marker (it is not the first one's next paragraph), a
    /// comment in a definition's further paragraph is read there, and a comment holding blocks is written so
    /// that its lines do not read as code: each is a fixpoint (fuzz-roundtrip's `raw-block-style-text-not-html`).
    func testSecondDefinitionsAndCommentsInDefinitionsAreFixpoints() throws {
        let sources = [
            "Term\n:   One.\n\n~ Two.\n",
            "Term\n:   One.\n\n:   Two.\n\n    Two's second paragraph.\n",
            "Term\n:   One.\n\n    Further {>>@Ann | A comment.<<} paragraph.\n",
            "Term\n:   One {>>@Ann | First.\n\nSecond.<<} here.\n",
        ]
        for source in sources {
            let doc = try read(source)
            let written = try markdown(doc)
            XCTAssertEqual(written, source)
            XCTAssertEqual(try markdown(try read(written)), written)
            XCTAssertEqual(doc.comments.count, source.contains("{>>") ? 1 : 0, source)
            XCTAssertEqual(paragraphs(doc).filter { $0.0 == "Definition" }.count, source.contains("Two") ? 2 + (source.contains("second") ? 1 : 0) : source.contains("Further") ? 2 : 1, source)
        }
        // pandoc reads the first as two definitions (a block list ends, another starts), as the writer keeps it.
        XCTAssertTrue(try TestProcess.pandocJSON(sources[0]).contains("}]}],[{\"t\":\"Para\""))
    }
}

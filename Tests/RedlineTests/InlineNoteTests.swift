import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// pandoc's inline notes (`^[A note.]`): footnotes in the model, written back in the inline form (md → md byte for
/// byte, pandoc reading the same AST), real footnotes in Word and RTF that come back as `^[…]`.
final class InlineNoteTests: XCTestCase {
    static let source = """
        A claim^[An inline note with *emphasis*, `]` code.] and a reference[^1].

        - An item^[A note in an item.]

        Text ^\\[not a note\\] stays text.

        [^1]: The reference note.

        """

    private func read(_ bytes: [UInt8], _ format: String) throws -> Document { try Conversion.read(bytes, format) }

    private func write(_ doc: Document, _ format: String, _ d: Diagnostics = Diagnostics()) throws -> [UInt8] {
        try Conversion.write(doc, format, d)
    }

    func testInlineNotesAreFootnotes() throws {
        let doc = try read(Array(Self.source.utf8), "md")
        XCTAssertEqual(doc.notes.map(\.isInline), [true, false, true])
        XCTAssertEqual(doc.notes.map { $0.blocks.map(\.plainText).joined() },
                       ["An inline note with emphasis, ] code.", "The reference note.", "A note in an item."])
        // `^\[` is text.
        XCTAssertTrue(doc.blocks.map(\.plainText).contains("Text ^[not a note] stays text."))
    }

    func testMarkdownKeepsTheInlineForm() throws {
        let written = String(decoding: try write(try read(Array(Self.source.utf8), "md"), "md"), as: UTF8.self)
        // The reference note's definition goes after the block that uses it (as for every note).
        let expected = """
            A claim^[An inline note with *emphasis*, `]` code.] and a reference[^1].

            [^1]: The reference note.

            - An item^[A note in an item.]

            Text ^\\[not a note\\] stays text.

            """
        XCTAssertEqual(written, expected)
        XCTAssertEqual(try TestProcess.pandocJSON(written), try TestProcess.pandocJSON(Self.source))
        XCTAssertTrue(try TestProcess.pandocJSON(written).contains("\"Note\""))
    }

    func testWordAndRTFCarryTheNotes() throws {
        let doc = try read(Array(Self.source.utf8), "md")
        let markdown = String(decoding: try write(doc, "md"), as: UTF8.self)
        for format in ["docx", "rtf"] {
            let bytes = try write(doc, format)
            XCTAssertEqual(String(decoding: try write(try read(bytes, format), "md"), as: UTF8.self), markdown, format)
            guard format == "docx" else { continue }
            let path = NSTemporaryDirectory() + "redline-inline-note-\(UUID().uuidString).docx"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try OOXMLValidate.assertValid(path)
            let entries = try zipEntries(path)
            let notes = String(decoding: entries["word/footnotes.xml"] ?? [], as: UTF8.self)
            XCTAssertTrue(notes.contains("A note in an item."), notes)
            XCTAssertFalse(String(decoding: entries["word/document.xml"] ?? [], as: UTF8.self).contains("^[A note"))
        }
    }

    /// Text from Word that reads like an inline note is escaped; an inline note that is no longer one paragraph
    /// (edited in Word) is written as a reference and a definition.
    func testLookalikesAndNotesThatAreNoLongerInline() throws {
        let word = Document(blocks: [.paragraph(Paragraph([.text("x^[y] z")]))])
        let md = String(decoding: try write(word, "md"), as: UTF8.self)
        XCTAssertEqual(try read(Array(md.utf8), "md").notes.count, 0, md)
        var doc = try read(Array("A^[One.] b.\n".utf8), "md")
        doc.notes[0].blocks.append(.paragraph(Paragraph([.text("Two.")])))
        let written = String(decoding: try write(doc, "md"), as: UTF8.self)
        XCTAssertEqual(written, "A[^inline-1] b.\n\n[^inline-1]: One.\n\n    Two.\n")
    }

    /// A paragraph the inline renderer writes a second time (a closing `~~` before `*` falls back to `<s>`)
    /// writes its inline note as the first time: found by fuzz-roundtrip, the second pass wrote `[^inline-1]`
    /// and no definition, as the note counted as written inline.
    func testAParagraphWrittenTwiceKeepsItsInlineNote() throws {
        for source in ["*~~g^[x]~~*\n", "> **The {~~a~>b~~} rep^[a *b* [c] `]`]lace**\n"] {
            let doc = try read(Array(source.utf8), "md")
            XCTAssertEqual(doc.notes.count, 1, source)
            let md = try write(doc, "md")
            let again = try read(md, "md")
            XCTAssertEqual(again.notes.map(\.blocks), doc.notes.map(\.blocks), String(decoding: md, as: UTF8.self))
            XCTAssertEqual(again.blocks.map(\.plainText), doc.blocks.map(\.plainText), String(decoding: md, as: UTF8.self))
        }
    }

    /// Unterminated and deeply bracketed `^[` read in linear time, as text.
    func testUnclosedInlineNotesStayText() throws {
        let line = String(repeating: "a^[b [c ", count: 20_000) + "\n"
        let doc = try read(Array(line.utf8), "md")
        XCTAssertEqual(doc.notes.count, 0)
        XCTAssertEqual(doc.blocks.first?.plainText, String(line.dropLast(2)))
    }
}

import Foundation
import Redline
import RedlineCompare
import RedlineRTF
import RedlineTestSupport
import XCTest

/// Issue 33 (fuzz finding `compare/inserted-code-block-loses-its-language`): compare writes an inserted, deleted
/// or changed code block as a code-style paragraph carrying the block's info string (`Paragraph.codeInfo`), so
/// accepting gives NEW's code block with its language and rejecting OLD's, in the model and through DOCX (the
/// info string kept in the `RedlineCode` properties under the code as accepted and as rejected). A block whose
/// info string changed is OLD's deleted and NEW's inserted. RTF, which has no place for it, says so.
final class CompareCodeBlockTests: XCTestCase {
    private let md = FormatRegistry.named("md")!, docx = FormatRegistry.docx, rtf = FormatRegistry.named("rtf")!

    private func read(_ text: String, _ format: Format? = nil) throws -> Document {
        try Converter.read(.bytes(Array(text.utf8)), format: format ?? md)
    }

    private func write(_ doc: Document, _ format: Format, diagnostics: Diagnostics = Diagnostics()) throws -> [UInt8] {
        let out = MemoryOutput()
        try Converter.write(doc, format: format, to: out, diagnostics: diagnostics)
        return out.bytes
    }

    /// Each top-level block as compared here: a code block as its info string and text, a paragraph (a code-style
    /// one too, which is not what resolving should leave) as its style and text, anything else as it is.
    private func shape(_ doc: Document) -> [String] {
        doc.blocks.map { b in
            switch b {
            case .codeBlock(let c): return "code[\(c.infoString)] \(c.text.hasSuffix("\n") ? c.text : c.text + "\n")"
            case .paragraph(let p): return "paragraph[\(p.style.name ?? "")] \(b.plainText)"
            case .list(var l):
                // Tight or loose is Markdown's layout, which no mark carries (compare keeps NEW's).
                l.tight = true
                return "\(Block.list(l))"
            default: return "\(b)"
            }
        }
    }

    private let old = "Para one.\n\nPara two.\n"
    private let inserted = "Para one.\n\n```python\nprint(1)\n```\n\nPara two.\n"

    /// Compares `old` with `new` (Markdown) and checks accepting gives NEW, rejecting OLD: on the model, on the
    /// comparison written as DOCX and read back, and on that DOCX resolved in place (as Word would) and read.
    /// Resolved outside Redline, the reader cannot tell which way: a code block takes the info string kept for
    /// its code as written or accepted first, so rejecting there is checked only with `rejectedInPlace` (not when
    /// NEW's inserted code has the same text as OLD's, as when only the language changed). Returns the comparison.
    @discardableResult
    private func checkExact(_ old: String, _ new: String, rejectedInPlace: Bool = true,
                            file: StaticString = #filePath, line: UInt = #line) throws -> Document {
        let a = try read(old), b = try read(new)
        let d = Diagnostics()
        let (result, _) = DocumentComparer.compare(old: a, new: b, diagnostics: d)
        XCTAssertEqual(d.count(of: .compareUntrackedBlock), 0, "compare said it could not mark the code", file: file, line: line)
        XCTAssertGreaterThan(DocumentComparer.trackedChangeCount(result), 0, file: file, line: line)
        XCTAssertEqual(shape(DocumentComparer.accepted(result)), shape(b), "accepted", file: file, line: line)
        XCTAssertEqual(shape(DocumentComparer.rejected(result)), shape(a), "rejected", file: file, line: line)
        XCTAssertEqual(ExactnessNormalization.document(DocumentComparer.accepted(result)), ExactnessNormalization.document(b),
                       file: file, line: line)
        XCTAssertEqual(ExactnessNormalization.document(DocumentComparer.rejected(result)), ExactnessNormalization.old(a),
                       file: file, line: line)

        // Through DOCX: written with its marks, read back, resolved.
        let wd = Diagnostics()
        let bytes = try write(result, docx, diagnostics: wd)
        let again = try Converter.read(.bytes(bytes), format: docx)
        XCTAssertGreaterThan(DocumentComparer.trackedChangeCount(again), 0, file: file, line: line)
        XCTAssertEqual(shape(DocumentComparer.accepted(again)), shape(b), "accepted through DOCX", file: file, line: line)
        XCTAssertEqual(shape(DocumentComparer.rejected(again)), shape(a), "rejected through DOCX", file: file, line: line)

        // Resolved in the DOCX itself (as Word would), then read: the code the paragraph is now keys its info string.
        for (mode, side) in [(ChangeMode.accept, b), (.reject, a)] where mode == .accept || rejectedInPlace {
            let out = MemoryOutput()
            try InPlaceReview.review(.bytes(bytes), to: out, review: ReviewOptions(changes: mode))
            let resolved = try Converter.read(.bytes(out.bytes), format: docx)
            XCTAssertEqual(DocumentComparer.trackedChangeCount(resolved), 0, file: file, line: line)
            XCTAssertEqual(shape(resolved), shape(side), "\(mode) in the DOCX", file: file, line: line)
        }
        return result
    }

    /// Compares `old` with `new` and writes the comparison as CriticMarkup: the code in fences inside `{++`/`++}`
    /// and `{--`/`--}` lines, which read back give NEW accepted and OLD rejected, with no warning; and the
    /// Markdown is a fixpoint. With `throughDOCX`, that Markdown's marks also survive DOCX (which writes a code
    /// block in a list item or quote after it, a limit of its own).
    private func checkCriticMarkup(_ old: String, _ new: String, throughDOCX: Bool = true,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let a = try read(old), b = try read(new)
        let (result, _) = DocumentComparer.compare(old: a, new: b, diagnostics: Diagnostics())
        let wd = Diagnostics()
        let markdown = String(decoding: try write(result, md, diagnostics: wd), as: UTF8.self)
        XCTAssertEqual(wd.all.map(\.code), [], markdown, file: file, line: line)
        let rd = Diagnostics()
        let again = try Converter.read(.bytes(Array(markdown.utf8)), format: md, diagnostics: rd)
        XCTAssertEqual(rd.all.map(\.code), [], markdown, file: file, line: line)
        XCTAssertEqual(shape(DocumentComparer.accepted(again)), shape(b), "accepted:\n\(markdown)", file: file, line: line)
        XCTAssertEqual(shape(DocumentComparer.rejected(again)), shape(a), "rejected:\n\(markdown)", file: file, line: line)
        XCTAssertEqual(ExactnessNormalization.document(DocumentComparer.accepted(again)), ExactnessNormalization.document(b),
                       markdown, file: file, line: line)
        XCTAssertEqual(ExactnessNormalization.document(DocumentComparer.rejected(again)), ExactnessNormalization.old(a),
                       markdown, file: file, line: line)
        XCTAssertEqual(String(decoding: try write(again, md), as: UTF8.self), markdown, "not a fixpoint", file: file, line: line)
        // And through DOCX: the Markdown's marks are what compare made.
        guard throughDOCX else { return }
        let docxAgain = try Converter.read(.bytes(try write(again, docx)), format: docx)
        XCTAssertEqual(shape(DocumentComparer.accepted(docxAgain)), shape(b), "accepted through DOCX", file: file, line: line)
        XCTAssertEqual(shape(DocumentComparer.rejected(docxAgain)), shape(a), "rejected through DOCX", file: file, line: line)
    }

    func testCriticMarkupWritesWholeFencesInChanges() throws {
        try checkCriticMarkup(old, inserted)
        try checkCriticMarkup(inserted, old)
        try checkCriticMarkup(inserted, "Para one.\n\n```python\nprint(2)\nx = 3\n```\n\nPara two.\n")
        try checkCriticMarkup(inserted, "Para one.\n\n```ruby\nprint(1)\n```\n\nPara two.\n")
        // Last in the document, empty, holding backticks and tildes, an info string with a backtick (a tilde fence).
        try checkCriticMarkup("Para one.\n", "Para one.\n\n```\n```\n")
        try checkCriticMarkup("Para one.\n\n```c\na\n```\n", "Para one.\n\n```c\n````\n~~~\n```\n")
        try checkCriticMarkup("Para one.\n", "Para one.\n\n~~~ x`y\nz\n~~~\n")
        // Two in a row, and right after an inserted paragraph.
        try checkCriticMarkup(old, "Para one.\n\n```a\n1\n```\n\n```b\n2\n```\n\nPara two.\n")
        try checkCriticMarkup(old, "Para one.\n\nNew words.\n\n```a\n1\n```\n\nPara two.\n")
        // After a paragraph whose break and last words are inserted (its change left open over the break).
        try checkCriticMarkup("Para one two.\n", "Para one\n\nthree\n\n```a\n1\n```\n\ntwo.\n")
        try checkCriticMarkup("Para one two.\n\nEnd.\n", "Para one added\n\n```a\n1\n```\n\nEnd.\n")
        // In a list item and in a quote.
        try checkCriticMarkup("- one\n\n- two\n", "- one\n\n  ```python\n  x\n  ```\n\n- two\n", throughDOCX: false)
        try checkCriticMarkup("> one\n>\n> ```sh\n> ls\n> ```\n", "> one\n>\n> ```sh\n> ls -l\n> ```\n", throughDOCX: false)
        try checkCriticMarkup("- one\n", "- one\n- ```python\n  x\n  ```\n", throughDOCX: false)
        try checkCriticMarkup("- one\n- ```python\n  x\n  ```\n", "- one\n", throughDOCX: false)
        try checkCriticMarkup("1. one\n2. two\n", "1. one\n\n   ```\n   x\n   ```\n2. two\n", throughDOCX: false)
    }

    func testAnotherAuthorsChangeLeftOpenBeforeTheFenceIsClosedFirst() throws {
        // Bob inserted words and the break after them; Ann the code block after it.
        let bob = Change(author: "Bob", date: "2024-01-01T00:00:00Z"), ann = Change(author: "Ann", date: "2024-01-02T00:00:00Z")
        var code = StoryComparerShim.codeParagraph("print(1)", info: "python")
        code.content = [.insertion(ann, code.content)]
        code.markChange = .inserted(ann)
        let doc = Document(blocks: [.paragraph(Paragraph([.text("One "), .insertion(bob, [.text("more")])], markChange: .inserted(bob))),
                                    .paragraph(code), .paragraph(Paragraph([.text("Two.")]))])
        let d = Diagnostics()
        let markdown = String(decoding: try write(doc, md, diagnostics: d), as: UTF8.self)
        XCTAssertEqual(d.all.map(\.code), [], markdown)
        let again = try read(markdown)
        XCTAssertEqual(shape(DocumentComparer.accepted(again)), shape(DocumentComparer.accepted(doc)), markdown)
        XCTAssertEqual(shape(DocumentComparer.rejected(again)), shape(DocumentComparer.rejected(doc)), markdown)
        XCTAssertEqual(shape(DocumentComparer.accepted(doc)), ["paragraph[] One more", "code[python] print(1)\n", "paragraph[] Two."])
    }

    func testTheReaderTakesAFenceInAChangeAsThatCodeBlockChanged() throws {
        let doc = try read("a\n\n{++\n```python\nprint(1)\n```\n++}{>>@Ann (2024-01-01)<<}\n\nb\n")
        XCTAssertEqual(doc.blocks.count, 3, "\(doc.blocks)")
        guard case .paragraph(let p)? = doc.blocks.dropFirst().first else { return XCTFail("\(doc.blocks)") }
        XCTAssertEqual(p.codeInfo, "python")
        XCTAssertEqual(p.style.name, BlockStyleRole.codeName)
        guard case .inserted(let c)? = p.markChange else { return XCTFail("\(p)") }
        XCTAssertEqual(c.author, "Ann")
        XCTAssertEqual(shape(DocumentComparer.accepted(doc)), ["paragraph[] a", "code[python] print(1)\n", "paragraph[] b"])
        XCTAssertEqual(shape(DocumentComparer.rejected(doc)), ["paragraph[] a", "paragraph[] b"])
    }

    func testAnInsertedCodeBlockKeepsItsLanguage() throws {
        let result = try checkExact(old, inserted)
        // Accepted in the model, it is a code block again, not a code-style paragraph.
        guard case .codeBlock(let c)? = DocumentComparer.accepted(result).blocks.dropFirst().first else {
            return XCTFail("no code block: \(DocumentComparer.accepted(result).blocks)")
        }
        XCTAssertEqual(c.language, "python")
        XCTAssertEqual(c.text, "print(1)\n")
    }

    func testTheFuzzInputsMinimalForm() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root
            + "/Fuzz/regressions/compare/inserted-code-block-loses-its-language-minimal")))
        let cut = bytes.firstIndex(of: 0)!
        try checkExact(String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[(cut + 1)...], as: UTF8.self))
    }

    func testADeletedCodeBlockComesBackWithItsLanguageOnRejecting() throws {
        try checkExact(inserted, old)
    }

    func testChangedLinesKeepTheLanguage() throws {
        try checkExact("Para one.\n\n```python\nprint(1)\nx = 2\n```\n\nPara two.\n",
                       "Para one.\n\n```python\nprint(1)\nx = 3\ny = 4\n```\n\nPara two.\n")
    }

    func testAChangedLanguageIsTheOldBlockDeletedAndTheNewInserted() throws {
        // The language alone, then the language and a line, then the whole info string (pandoc's attributes).
        try checkExact(inserted, "Para one.\n\n```ruby\nprint(1)\n```\n\nPara two.\n", rejectedInPlace: false)
        try checkExact(inserted, "Para one.\n\n```ruby\nputs(1)\n```\n\nPara two.\n")
        try checkExact(inserted, "Para one.\n\n```python title=x\nprint(1)\n```\n\nPara two.\n", rejectedInPlace: false)
        // A code block ending the document, and one without a language (either way).
        try checkExact("Para one.\n\n```python\nprint(1)\n```\n", "Para one.\n\n```\nprint(1)\n```\n", rejectedInPlace: false)
        try checkExact("Para one.\n\n```\nprint(1)\n```\n", "Para one.\n\n```python\nprint(1)\n```\n", rejectedInPlace: false)
    }

    func testTwoCodeBlocksOfTheSameCodeKeepTheirOwnLanguages() throws {
        try checkExact("Para one.\n\n```c\nx\n```\n",
                       "Para one.\n\n```python\nx\n```\n\nPara two.\n\n```c\nx\n```\n", rejectedInPlace: false)
        try checkExact("Para one.\n\n```c\nx\n```\n\nPara two.\n\n```python\nx\n```\n",
                       "Para one.\n\n```c\nx\n```\n")
        // And written without changes, a code block without a language keeps none where another of the same
        // code has one (its empty info string is kept too).
        let doc = try read("```\nx\n```\n\n```python\nx\n```\n")
        XCTAssertEqual(shape(try Converter.read(.bytes(try write(doc, docx)), format: docx)), shape(doc))
    }

    /// `redline apply` of a changed language onto a DOCX Redline wrote: the block is replaced (it was left as it
    /// was), and the deleted block reads back with ORIGINAL's language (the entry kept for it as written), the
    /// inserted one with none (apply keeps no new entry).
    func testApplyingAChangedLanguageOntoADOCX() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redline-code-apply-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(try write(try read(inserted), docx)).write(to: URL(fileURLWithPath: dir + "/original.docx"))
        try Data("Para one.\n\n```ruby\nprint(1)\n```\n\nPara two.\n".utf8).write(to: URL(fileURLWithPath: dir + "/edited.md"))
        let out = MemoryOutput()
        _ = try Application.apply(edited: dir + "/edited.md", onto: dir + "/original.docx",
                                  options: ApplyOptions(compare: CompareOptions(author: "E", date: "2026-01-02T00:00:00Z")),
                                  into: out, diagnostics: Diagnostics())
        let doc = try Converter.read(.bytes(out.bytes), format: docx)
        XCTAssertEqual(shape(DocumentComparer.rejected(doc)), shape(try read(inserted)))
        XCTAssertEqual(shape(DocumentComparer.accepted(doc)), ["paragraph[] Para one.", "code[] print(1)\n", "paragraph[] Para two."])
    }

    func testRTFSaysTheLanguageOfAMarkedCodeBlockIsDropped() throws {
        let (result, _) = DocumentComparer.compare(old: try read(old), new: try read(inserted), diagnostics: Diagnostics())
        let d = Diagnostics()
        _ = try write(result, rtf, diagnostics: d)
        XCTAssertEqual(d.count(of: .rtfCodeLanguageDropped), 1)
        // And a block without a language loses nothing.
        let (plain, _) = DocumentComparer.compare(old: try read(old), new: try read("Para one.\n\n```\nx\n```\n"),
                                                  diagnostics: Diagnostics())
        let none = Diagnostics()
        _ = try write(plain, rtf, diagnostics: none)
        XCTAssertEqual(none.count(of: .rtfCodeLanguageDropped), 0)
    }
}

/// A code block's code-style paragraph as compare makes it (`StoryComparer.codeParagraph`, internal).
private enum StoryComparerShim {
    static func codeParagraph(_ text: String, info: String) -> Paragraph {
        Paragraph(CodeBlock(text: text + "\n").lineBrokenContent, style: ParagraphStyle(name: BlockStyleRole.codeName),
                  codeInfo: info)
    }
}

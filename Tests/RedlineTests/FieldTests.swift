import Foundation
import XCTest
import Redline
import RedlineTestSupport
import RedlineMarkdown

/// Issue 31: fields are kept as fields. A page number, a cross-reference, a figure number, a citation manager's
/// citation read from DOCX or RTF is `Inline.field` (its instruction, its last result); DOCX and RTF write it
/// back as a field, Markdown as `[result]{.field instr="…"}` with `--keep-formatting` (and reads that back), and
/// without it as the result with a counted `lossy.field`.
final class FieldTests: XCTestCase {
    private func write(_ doc: Document, _ format: Format, keepFormatting: Bool = false,
                       diagnostics: Diagnostics = Diagnostics()) throws -> [UInt8] {
        try ModelRoundTrip.write(doc, format, keepFormatting: keepFormatting, diagnostics: diagnostics)
    }

    private func read(_ bytes: [UInt8], _ format: Format, diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        try ModelRoundTrip.read(bytes, format, diagnostics: diagnostics)
    }

    /// Every field of `blocks` (headers and footers of their sections too), in order: its instruction, its result's
    /// text and the change it sits in.
    private struct Seen: Equatable, CustomStringConvertible {
        var instruction: String
        var result: String
        var change: String
        var description: String { "\(instruction) → \(result.debugDescription)\(change.isEmpty ? "" : " [\(change)]")" }
    }

    private func fields(_ doc: Document) -> [Seen] {
        var out: [Seen] = []
        func walk(_ inlines: [Inline], _ change: String) {
            for i in inlines {
                switch i {
                case .field(let f, let c): out.append(Seen(instruction: f.instruction, result: c.plainText, change: change))
                case .insertion(_, let c): walk(c, "inserted")
                case .deletion(_, let c): walk(c, "deleted")
                default: walk(i.children, change)
                }
            }
        }
        func blocks(_ bs: [Block]) {
            for b in bs {
                b.forEachParagraph { p in
                    walk(p.content, "")
                    for hf in p.sectionEnd?.headersFooters ?? [] { blocks(hf.blocks) }
                }
            }
        }
        blocks(doc.blocks)
        for hf in doc.finalSection?.headersFooters ?? [] { blocks(hf.blocks) }
        return out
    }

    // MARK: Reading Word's fields

    func testWordFieldsAreReadAsFields() throws {
        func r(_ t: String, bold: Bool = false) -> String {
            "<w:r>\(bold ? "<w:rPr><w:b/></w:rPr>" : "")<w:t xml:space=\"preserve\">\(t)</w:t></w:r>"
        }
        func complex(_ instruction: String, _ result: String) -> String {
            "<w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText xml:space=\"preserve\"> \(instruction) </w:instrText></w:r>"
                + "<w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>\(result)<w:r><w:fldChar w:fldCharType=\"end\"/></w:r>"
        }
        let ins = "w:id=\"1\" w:author=\"Ann\" w:date=\"2024-01-01T00:00:00Z\""
        let body = """
        <w:p>\(r("Page "))\(complex("PAGE", r("3")))\(r(" of "))\(complex("NUMPAGES \\* Arabic", r("9", bold: true)))</w:p>
        <w:p>\(r("Figure "))<w:fldSimple w:instr=" SEQ Figure \\* ARABIC "><w:r><w:t>1</w:t></w:r></w:fldSimple>\(r(": a cat"))</w:p>
        <w:p>\(complex("HYPERLINK \"https://example.com\"", r("a link")))</w:p>
        <w:p><w:ins \(ins)>\(r("see "))\(complex("REF _Ref1 \\h", r("Table 2")))</w:ins></w:p>
        <w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>IF </w:instrText></w:r>\(complex("MERGEFIELD x", r("«x»")))<w:r><w:instrText> = "y" "yes" "no"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>\(r("no"))<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
        <w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>TOC \\o "1-3"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>\(r("Intro 1"))</w:p>
        <w:p>\(r("Method 2"))<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
        <w:p>\(r("Index entry"))\(complex("XE \"cat\"", ""))</w:p>
        """
        let doc = try read(try MinimalDOCX.package(body: body), FormatRegistry.docx)
        XCTAssertEqual(fields(doc), [
            Seen(instruction: "PAGE", result: "3", change: ""),
            Seen(instruction: "NUMPAGES \\* Arabic", result: "9", change: ""),
            Seen(instruction: "SEQ Figure \\* ARABIC", result: "1", change: ""),
            Seen(instruction: "REF _Ref1 \\h", result: "Table 2", change: "inserted"),
            Seen(instruction: "XE \"cat\"", result: "", change: ""),
        ])
        let texts = doc.blocks.map { $0.plainText }
        XCTAssertEqual(texts, ["Page 3 of 9", "Figure 1: a cat", "a link", "see Table 2", "no", "Intro 1", "Method 2", "Index entry"])
        // The field's result keeps its look; the text before it is not joined into it.
        guard case .field(_, let nine)? = doc.blocks[0].paragraph?.content.last else { return XCTFail("\(doc.blocks[0])") }
        XCTAssertEqual(nine, [.strong([.text("9")])])
        XCTAssertEqual(doc.blocks[0].paragraph?.content.first, .text("Page "))
        // A HYPERLINK field is a link; a field in another's instruction, and one that spans paragraphs, keep their
        // result as text (what they were before fields were kept).
        guard case .link(let l, _)? = doc.blocks[2].paragraph?.content.first else { return XCTFail("\(doc.blocks[2])") }
        XCTAssertEqual(l.url, "https://example.com")
    }

    // MARK: Writing them back

    /// A document with fields of every shape a writer must carry: instructions with quotes, backslashes, braces
    /// and brackets, a long one (a citation manager's), a formatted result, an empty one, one inside an insertion.
    private func documentWithFields() -> Document {
        let zotero = "ADDIN ZOTERO_ITEM CSL_CITATION {\"citationID\":\"a1\",\"citationItems\":[{\"id\":1,\"itemData\":{\"title\":\""
            + String(repeating: "long [title] {x} ", count: 150) + "\"}}]}"
        let change = Change(author: "Ann", date: "2024-01-01T00:00:00Z")
        return Document(blocks: [
            .paragraph(Paragraph([.text("Page "), .field(FieldCode(instruction: "PAGE"), [.text("1")]), .text(" of "),
                                  .field(FieldCode(instruction: "NUMPAGES"), [.strong([.text("4")])])])),
            .paragraph(Paragraph([.text("As "), .field(FieldCode(instruction: zotero), [.text("(Smith, 2013)")]), .text(" shows.")])),
            .paragraph(Paragraph([.text("See "), .insertion(change, [.field(FieldCode(instruction: "REF _Ref123 \\h"), [.text("Table 2")])]),
                                  .text("; dated "), .field(FieldCode(instruction: "DATE \\@ \"d MMMM yyyy\""), [.text("1 May 2024")]),
                                  .text("."), .field(FieldCode(instruction: "XE \"cat\""), [])])),
        ])
    }

    func testFieldsSurviveDOCXRTFAndMarkdownWithKeepFormatting() throws {
        let doc = documentWithFields()
        let expected = fields(doc)
        XCTAssertEqual(expected.count, 6)
        for format in [FormatRegistry.docx, FormatRegistry.rtf, FormatRegistry.markdown] {
            let diagnostics = Diagnostics()
            let back = try read(try write(doc, format, keepFormatting: true, diagnostics: diagnostics), format)
            XCTAssertEqual(fields(back), expected, format.name)
            XCTAssertEqual(back.blocks.map(\.plainText), doc.blocks.map(\.plainText), format.name)
            XCTAssertEqual(diagnostics.count(of: .lossyField), 0, format.name)
        }
        let path = NSTemporaryDirectory() + "redline-fields-\(UUID().uuidString).docx"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try write(doc, FormatRegistry.docx)).write(to: URL(fileURLWithPath: path))
        try OOXMLValidate.assertValid(path)
    }

    func testMarkdownWithoutKeepFormattingWritesResultsAndCountsTheLoss() throws {
        let diagnostics = Diagnostics()
        let md = String(decoding: try write(documentWithFields(), FormatRegistry.markdown, diagnostics: diagnostics), as: UTF8.self)
        XCTAssertEqual(diagnostics.count(of: .lossyField), 6)
        XCTAssertTrue(md.contains("Page 1 of **4**"), md)
        XCTAssertTrue(md.contains("As (Smith, 2013) shows."), md)
        XCTAssertFalse(md.contains(".field"), md)
        XCTAssertTrue(fields(try read(Array(md.utf8), FormatRegistry.markdown)).isEmpty)
    }

    func testAFieldInAnInsertionIsAcceptedAndRejectedWithIt() throws {
        for format in [FormatRegistry.docx, FormatRegistry.rtf, FormatRegistry.markdown] {
            let back = try read(try write(documentWithFields(), format, keepFormatting: true), format)
            let accepted = try back.applying([ReviewTransform(.accept)])
            let rejected = try back.applying([ReviewTransform(.reject)])
            XCTAssertTrue(fields(accepted).contains(Seen(instruction: "REF _Ref123 \\h", result: "Table 2", change: "")), format.name)
            XCTAssertFalse(fields(rejected).contains { $0.instruction.hasPrefix("REF") }, format.name)
            XCTAssertEqual(rejected.blocks[2].plainText, "See ; dated 1 May 2024.", format.name)
        }
    }

    // MARK: Real documents

    /// A Zotero-cited Word file: each citation's field (its instruction holds the citation's data) is the same
    /// instruction, byte for byte, after DOCX → RTF → DOCX and DOCX → Markdown (`--keep-formatting`) → DOCX.
    func testZoteroCitationsSurviveRTFAndMarkdown() throws {
        let path = RepositoryPaths.sharedCorpus + "/pandoc/zotero_citations.docx"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(path) is not there") }
        let original = try Converter.read(.file(path), format: FormatRegistry.docx)
        let citations = fields(original)
        XCTAssertEqual(citations.count, 3)
        XCTAssertTrue(citations.allSatisfy { $0.instruction.hasPrefix("ADDIN ZOTERO_ITEM CSL_CITATION {") })
        for via in [FormatRegistry.rtf, FormatRegistry.markdown] {
            let there = try read(try write(original, via, keepFormatting: true), via)
            let back = try read(try write(there, FormatRegistry.docx), FormatRegistry.docx)
            XCTAssertEqual(fields(back), citations, "via \(via.name)")
        }
    }

    /// LibreOffice computes a field Redline wrote: a footer's PAGE field, written from the model to DOCX and RTF
    /// (its last result "1" on every page), shows each page's own number when LibreOffice lays the pages out.
    func testLibreOfficeComputesTheWrittenPageNumbers() throws {
        try TestProcess.require("soffice")
        try TestProcess.require("pdftotext", check: ["-v"])
        let dir = NSTemporaryDirectory() + "redline-fields-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let footer = HeaderFooter(kind: .footer, blocks: [.paragraph(Paragraph([
            .text("Folio "), .field(FieldCode(instruction: "PAGE"), [.text("1")]), .text(" of "),
            .field(FieldCode(instruction: "NUMPAGES"), [.text("1")]),
        ]))])
        var doc = Document(blocks: (1...3).map { n in
            .paragraph(Paragraph([.text("Section \(n).")], sectionEnd: n < 3 ? Section(breakKind: .nextPage) : nil))
        })
        doc.finalSection = Section(breakKind: .nextPage, headersFooters: [footer])
        doc.blocks[0] = .paragraph(Paragraph([.text("Section 1.")], sectionEnd: Section(breakKind: .nextPage, headersFooters: [footer])))
        for format in [FormatRegistry.docx, FormatRegistry.rtf] {
            let file = dir + "/pages." + format.name
            try Data(try write(doc, format)).write(to: URL(fileURLWithPath: file))
            let lo = try TestProcess.run(["soffice", "--headless", "-env:UserInstallation=file://\(dir)/lo-profile",
                                          "--convert-to", "pdf", "--outdir", dir, file])
            let text = try TestProcess.run(["pdftotext", dir + "/pages.pdf", "-"]).out
            XCTAssertFalse(text.isEmpty, "LibreOffice rendered nothing: \(lo.err)")
            for n in 1...3 { XCTAssertTrue(text.contains("Folio \(n) of 3"), "\(format.name): page \(n):\n\(text)") }
            try? FileManager.default.removeItem(atPath: dir + "/pages.pdf")
        }
    }

    // MARK: Hostile shapes

    /// A line of unclosed `[a]{.field ` spans: the long look a field's attribute list may take is budgeted for
    /// the whole input, so twice the line reads in about twice the time (not four times).
    func testManyUnclosedFieldSpansReadLinearly() throws {
        func time(_ n: Int) throws -> Double {
            let line = String(repeating: "[a]{.field instr=\"x ", count: n)
            let start = Date()
            _ = try MarkdownReader.document(line)
            return Date().timeIntervalSince(start)
        }
        _ = try time(2_000)
        let small = try time(10_000), large = try time(20_000)
        XCTAssertLessThan(large, small * 3.5 + 0.05, "10,000: \(small) s, 20,000: \(large) s")
    }
}

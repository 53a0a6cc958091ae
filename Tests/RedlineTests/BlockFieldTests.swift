import Foundation
import XCTest
import Redline
import RedlineTestSupport

/// Issue 31: a table of contents is kept as a table of contents. Word's TOC is a field whose result is whole
/// paragraphs (its entries, each with a hyperlink and a PAGEREF field): the DOCX reader keeps where it begins and
/// ends (`Paragraph.blockField`), the DOCX writer writes it back as one field around the same paragraphs, so Word can
/// update it; Markdown keeps it as a `.redline-field` div with `--keep-formatting`, and otherwise writes the entries
/// with a counted `lossy.field`.
final class BlockFieldTests: XCTestCase {
    private let docx = FormatRegistry.named("docx")!, md = FormatRegistry.named("md")!

    /// A Word TOC as Word writes it: in a content control, begun in the first entry's paragraph, ended at the start
    /// of the paragraph after the last entry.
    static func wordTOC(endInOwnParagraph: Bool = true) -> String {
        func entry(_ text: String, _ anchor: String, _ page: String, style: String = "TOC1") -> String {
            "<w:hyperlink w:anchor=\"\(anchor)\" w:history=\"1\"><w:r><w:t>\(text)</w:t></w:r><w:r><w:tab/></w:r>"
                + "<w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText xml:space=\"preserve\"> PAGEREF \(anchor) \\h </w:instrText></w:r>"
                + "<w:r><w:fldChar w:fldCharType=\"separate\"/></w:r><w:r><w:t>\(page)</w:t></w:r><w:r><w:fldChar w:fldCharType=\"end\"/></w:r></w:hyperlink>"
        }
        let end = "<w:r><w:fldChar w:fldCharType=\"end\"/></w:r>"
        return "<w:p><w:r><w:t>Before the contents.</w:t></w:r></w:p>"
            + "<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val=\"Table of Contents\"/><w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent>"
            + "<w:p><w:r><w:t>Contents</w:t></w:r></w:p>"
            + "<w:p><w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText xml:space=\"preserve\"> TOC \\o \"1-3\" \\h \\z \\u </w:instrText></w:r>"
            + "<w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>" + entry("Introduction", "_Toc1", "1") + "</w:p>"
            + "<w:p>" + entry("Methods", "_Toc2", "2") + "</w:p>"
            + "<w:p>" + entry("Results", "_Toc3", "4") + (endInOwnParagraph ? "" : end) + "</w:p>"
            + (endInOwnParagraph ? "<w:p>" + end + "</w:p>" : "")
            + "</w:sdtContent></w:sdt>"
            + "<w:p><w:bookmarkStart w:id=\"1\" w:name=\"_Toc1\"/><w:r><w:t>Introduction</w:t></w:r><w:bookmarkEnd w:id=\"1\"/></w:p>"
            + "<w:p><w:r><w:t>Body text.</w:t></w:r></w:p>"
    }

    private func validate(_ bytes: [UInt8]) throws {
        let path = NSTemporaryDirectory() + "blockfield-\(UUID().uuidString).docx"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try OOXMLValidate.assertValid(path)
    }

    private func flags(_ d: Document) -> [String] {
        d.blocks.compactMap { b -> String? in
            guard let p = b.paragraph, let f = p.blockField else { return nil }
            return "\(p.content.plainText.prefix(12).split(separator: "\t").first ?? "")|\(f.start?.instruction ?? "-")|\(f.end?.rawValue ?? "-")"
        }
    }

    /// The field's begin, separate and end in document.xml, in order, as one field around the entries.
    private func fieldChars(_ bytes: [UInt8]) throws -> [String] {
        let part = try ZipEntries.read(bytes).first { $0.name == "word/document.xml" }!
        let xml = String(decoding: part.bytes, as: UTF8.self)
        var out: [String] = []
        var rest = Substring(xml)
        while let r = rest.range(of: #"fldCharType="(begin|separate|end)"|instrText xml:space="preserve">[^<]*"#, options: .regularExpression) {
            let s = String(rest[r])
            out.append(s.hasPrefix("instr") ? String(s.split(separator: ">", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces)
                                             : String(s.dropFirst(13).dropLast()))
            rest = rest[r.upperBound...]
        }
        return out
    }

    func testWordTOCIsKeptThroughDOCX() throws {
        for endInOwnParagraph in [true, false] {
            let bytes = try MinimalDOCX.package(body: Self.wordTOC(endInOwnParagraph: endInOwnParagraph))
            let doc = try ModelRoundTrip.read(bytes, docx)
            let expected = endInOwnParagraph
                ? [#"Introduction|TOC \o "1-3" \h \z \u|-"#, "|-|beforeContent"]
                : [#"Introduction|TOC \o "1-3" \h \z \u|-"#, "Results|-|afterContent"]
            XCTAssertEqual(flags(doc), expected)
            // The entries are the document's paragraphs, their links and page numbers kept.
            XCTAssertTrue(doc.blocks.contains { $0.plainText.hasPrefix("Methods") })
            // Written back: one TOC field around the same entries (the PAGEREF fields inside it), read back alike.
            let written = try ModelRoundTrip.write(doc, docx)
            let chars = try fieldChars(written)
            XCTAssertEqual(chars.first, "begin")
            XCTAssertEqual(chars.dropFirst().first, #"TOC \o "1-3" \h \z \u"#)
            XCTAssertEqual(chars.filter { $0 == "begin" }.count, chars.filter { $0 == "end" }.count)
            XCTAssertEqual(chars.last, "end")
            XCTAssertEqual(flags(try ModelRoundTrip.read(written, docx)), flags(doc))
            try validate(written)
        }
    }

    /// Through Markdown with `--keep-formatting` (a `.redline-field` div around the entries) and back to DOCX: the
    /// same field around the same entries (an end at the start of the paragraph after them is, in Markdown, the end
    /// of the last entry: the same result).
    func testWordTOCIsKeptThroughCriticMarkup() throws {
        for endInOwnParagraph in [true, false] {
            let doc = try ModelRoundTrip.read(try MinimalDOCX.package(body: Self.wordTOC(endInOwnParagraph: endInOwnParagraph)), docx)
            let text = try ModelRoundTrip.write(doc, md, keepFormatting: true)
            let markdown = String(decoding: text, as: UTF8.self)
            XCTAssertTrue(markdown.contains(#"::: {.redline-field instr="TOC \\o \"1-3\" \\h \\z \\u"}"#), markdown)
            let back = try ModelRoundTrip.read(text, md)
            XCTAssertEqual(flags(back), [#"Introduction|TOC \o "1-3" \h \z \u|-"#, "Results|-|afterContent"], markdown)
            let again = try ModelRoundTrip.write(back, md, keepFormatting: true)
            XCTAssertEqual(try ModelRoundTrip.write(try ModelRoundTrip.read(again, md), md, keepFormatting: true), again, "not a fixpoint")
            let written = try ModelRoundTrip.write(back, docx)
            XCTAssertEqual(flags(try ModelRoundTrip.read(written, docx)), flags(back))
            try validate(written)
        }
    }

    /// Through RTF: a `\field` group whose `\fldrslt` holds the entries' paragraphs, read back as the same field (an
    /// end after the last entry's `\par` is the end before the next paragraph: the same result).
    func testWordTOCIsKeptThroughRTF() throws {
        let rtf = FormatRegistry.named("rtf")!
        for endInOwnParagraph in [true, false] {
            let doc = try ModelRoundTrip.read(try MinimalDOCX.package(body: Self.wordTOC(endInOwnParagraph: endInOwnParagraph)), docx)
            let written = try ModelRoundTrip.write(doc, rtf)
            let text = String(decoding: written, as: UTF8.self)
            XCTAssertEqual(text.components(separatedBy: #"{\field{\*\fldinst TOC \\o "1-3" \\h \\z \\u}{\fldrslt "#).count, 2, text)
            let back = try ModelRoundTrip.read(written, rtf)
            XCTAssertEqual(flags(back), [#"Introduction|TOC \o "1-3" \h \z \u|-"#, "Introduction|-|beforeContent"], text)
            // And on to DOCX: one field around the entries.
            let chars = try fieldChars(try ModelRoundTrip.write(back, docx))
            XCTAssertEqual(chars.prefix(2), ["begin", #"TOC \o "1-3" \h \z \u"#])
            XCTAssertEqual(chars.filter { $0 == "begin" }.count, chars.filter { $0 == "end" }.count)
        }
    }

    /// LibreOffice as oracle: it reads a table of contents (`text:table-of-content` in its ODT) from Word's file, from
    /// the DOCX and RTF Redline writes of it, and from the DOCX Redline writes from its CriticMarkup with
    /// `--keep-formatting`; not from the DOCX of the Markdown without it (the entries as paragraphs).
    func testLibreOfficeSeesATableOfContents() throws {
        try TestProcess.require("soffice")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redline-toc-lo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rtf = FormatRegistry.named("rtf")!
        let word = try MinimalDOCX.package(body: Self.wordTOC())
        let doc = try ModelRoundTrip.read(word, docx)
        let viaMarkdown = try ModelRoundTrip.read(try ModelRoundTrip.write(doc, md, keepFormatting: true), md)
        let flattened = try ModelRoundTrip.read(try ModelRoundTrip.write(doc, md), md)
        let files: [(String, [UInt8], Bool)] = [
            ("word.docx", word, true), ("redline.docx", try ModelRoundTrip.write(doc, docx), true),
            ("redline.rtf", try ModelRoundTrip.write(doc, rtf), true), ("critic.docx", try ModelRoundTrip.write(viaMarkdown, docx), true),
            ("flat.docx", try ModelRoundTrip.write(flattened, docx), false),
        ]
        for (name, bytes, _) in files { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
        _ = try TestProcess.run(["soffice", "--headless", "-env:UserInstallation=file://\(dir.path)/profile",
                                 "--convert-to", "odt", "--outdir", dir.appendingPathComponent("odt").path] + files.map { dir.appendingPathComponent($0.0).path })
        for (name, _, toc) in files {
            let odt = dir.appendingPathComponent("odt/" + (name as NSString).deletingPathExtension + ".odt")
            let content = try ZipEntries.read(Array(try Data(contentsOf: odt))).first { $0.name == "content.xml" }!
            let xml = String(decoding: content.bytes, as: UTF8.self)
            XCTAssertEqual(xml.contains("<text:table-of-content "), toc, name)
            XCTAssertTrue(xml.contains("Methods"), name)
        }
    }

    /// Compare keeps NEW's table of contents as one: its field marks stay on the result's paragraphs, also where an
    /// entry changed; the compared DOCX holds one TOC field.
    func testCompareKeepsTheTableOfContents() throws {
        let old = try ModelRoundTrip.read(try MinimalDOCX.package(body: Self.wordTOC()), docx)
        let new = try ModelRoundTrip.read(try MinimalDOCX.package(body: Self.wordTOC()
            .replacingOccurrences(of: "<w:t>Methods</w:t>", with: "<w:t>Materials and methods</w:t>")
            .replacingOccurrences(of: "Body text.", with: "Body text, revised.")), docx)
        let (result, _) = DocumentComparer.compare(old: old, new: new)
        XCTAssertEqual(flags(result), flags(new))
        let chars = try fieldChars(try ModelRoundTrip.write(result, docx))
        XCTAssertEqual(chars.prefix(2), ["begin", #"TOC \o "1-3" \h \z \u"#])
        XCTAssertEqual(chars.filter { $0 == "begin" }.count, chars.filter { $0 == "end" }.count)
        XCTAssertTrue(result.blocks.contains { $0.plainText.contains("Materials") })
    }

    /// A start without its end (a transform dropped the paragraph that ended it) is closed before the last
    /// section; an end without a start writes nothing.
    func testUnbalancedFieldsAreBalanced() throws {
        var start = Paragraph([.text("Entry")])
        start.blockField = BlockField(start: FieldCode(instruction: "TOC \\o"))
        var stray = Paragraph([.text("After")])
        stray.blockField = BlockField(end: .afterContent)
        for blocks in [[Block.paragraph(start)], [.paragraph(stray)], [.paragraph(start), .paragraph(stray), .paragraph(stray)]] {
            let written = try ModelRoundTrip.write(Document(blocks: blocks), docx)
            let chars = try fieldChars(written)
            XCTAssertEqual(chars.filter { $0 == "begin" }.count, chars.filter { $0 == "end" }.count, "\(chars)")
            try validate(written)
        }
    }

    /// Markdown without `--keep-formatting`: the entries as paragraphs, one `lossy.field` for the field.
    func testMarkdownWithoutKeepFormattingCountsTheField() throws {
        let doc = try ModelRoundTrip.read(try MinimalDOCX.package(body: Self.wordTOC()), docx)
        let d = Diagnostics()
        let text = String(decoding: try ModelRoundTrip.write(doc, md, diagnostics: d), as: UTF8.self)
        XCTAssertTrue(text.contains("Methods"), text)
        XCTAssertGreaterThanOrEqual(d.count(of: .lossyField), 1)
    }
}

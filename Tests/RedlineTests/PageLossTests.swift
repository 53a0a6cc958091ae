import Foundation
import XCTest
import Redline
import RedlineZip
import RedlineTestSupport

/// Headers, footers and section layout: a conversion to the same format keeps them byte for byte (the plan
/// rewrites the original in place, the identity when nothing is decided); the model carries them to DOCX and
/// RTF; a writer without pages reports their loss (`lossy.header-footer`, `lossy.section`) instead of dropping
/// them silently.
final class PageLossTests: XCTestCase {
    private var dir = ""
    /// A Word file with headers and footers in three parts (docx2python's example).
    private let withHeaders = RepositoryPaths.sharedCorpus + "/docx2python/example.docx"

    override func setUpWithError() throws {
        guard FileManager.default.fileExists(atPath: withHeaders) else { throw XCTSkip("../shared/corpus is not there") }
        dir = NSTemporaryDirectory() + "redline-page-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func entries(_ path: String) throws -> [String: [UInt8]] { try zipEntries(path) }

    func testDOCXToDOCXWithoutDecisionsKeepsEveryPartByteForByte() throws {
        let options = ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.docx)
        XCTAssertEqual(options.plan.route, .inPlace)
        let r = try RedlineBinary.run(["convert", withHeaders, "-o", dir + "/copy.docx"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("lossy.header-footer"), r.stderr)
        let before = try entries(withHeaders), after = try entries(dir + "/copy.docx")
        XCTAssertTrue(before.keys.contains { $0.hasPrefix("word/header") })
        XCTAssertEqual(Set(before.keys), Set(after.keys))
        for (name, bytes) in before where name.hasPrefix("word/header") || name.hasPrefix("word/footer") || name == "word/document.xml" {
            XCTAssertEqual(after[name], bytes, "\(name) changed")
        }
    }

    /// Issue 31: the model carries the page. DOCX and RTF keep headers and footers through the model; the
    /// writers without pages (Markdown, HTML) drop them with one counted warning; the readers report nothing.
    func testOnlyWritersWithoutPagesReportTheHeadersAndFootersTheyDrop() throws {
        for (to, extra, warns) in [("md", [String](), true), ("html", [], true), ("rtf", [], false),
                                   ("docx", ["--paragraph-style", "scrivener"], false)] {
            let out = dir + "/out." + to
            let r = try RedlineBinary.run(["convert", withHeaders, "-o", out] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stderr.contains("lossy.header-footer"), warns, "\(to): \(r.stderr)")
            if to == "rtf" {
                let rtf = try String(contentsOfFile: out, encoding: .utf8)
                XCTAssertTrue(rtf.contains("{\\header") && rtf.contains("{\\footer"), "RTF keeps them")
            }
            if to == "docx" {
                XCTAssertTrue(try entries(out).keys.contains { $0.hasPrefix("word/header") }, "DOCX keeps them")
            }
        }
        let diagnostics = Diagnostics()
        let doc = try Converter.read(.file(withHeaders), format: FormatRegistry.docx, diagnostics: diagnostics)
        XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter), 0)
        let references = try entries(withHeaders)["word/document.xml"].map { xml -> Int in
            let s = String(decoding: xml, as: UTF8.self)
            return s.components(separatedBy: "<w:headerReference").count + s.components(separatedBy: "<w:footerReference").count - 2
        } ?? 0
        XCTAssertGreaterThan(references, 0)
        XCTAssertEqual(doc.finalSection?.headersFooters.count, references)
    }

    func testSectionLayoutIsCarriedAndReportedByMarkdown() throws {
        // Two sections, the second landscape in two columns: carried by the model, reported by Markdown.
        let body = """
        <w:p><w:pPr><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr><w:r><w:t>One</w:t></w:r></w:p>
        <w:p><w:r><w:t>Two</w:t></w:r></w:p>
        <w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:cols w:num="2"/></w:sectPr>
        """
        let docx = try MinimalDOCX.package(body: body)
        let diagnostics = Diagnostics()
        let doc = try Converter.read(.bytes(docx), format: FormatRegistry.docx, diagnostics: diagnostics)
        XCTAssertEqual(doc.blocks.count, 2)
        XCTAssertEqual(diagnostics.count(of: .lossySection), 0)
        XCTAssertEqual(doc.blocks.first?.paragraph?.sectionEnd?.pageWidth, 595.3)
        XCTAssertEqual(doc.finalSection?.orientation, .landscape)
        XCTAssertEqual(doc.finalSection?.columns, 2)
        let md = MemoryOutput(), written = Diagnostics()
        try Converter.write(doc, format: FormatRegistry.markdown, to: md, diagnostics: written)
        XCTAssertEqual(written.count(of: .lossySection), 1, "the second section")
        XCTAssertEqual(written.count(of: .lossyHeaderFooter), 0)
    }

    func testRTFHeadersAndFootersAreCarried() throws {
        let rtf = #"{\rtf1\ansi{\fonttbl{\f0 Times;}}{\header\pard Letterhead\par}{\footerf\pard Page\par}\pard Body\par}"#
        let diagnostics = Diagnostics()
        let doc = try Converter.read(.bytes(Array(rtf.utf8)), format: FormatRegistry.rtf, diagnostics: diagnostics)
        XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter), 0)
        XCTAssertEqual(doc.finalSection?.headersFooters.map { "\($0.kind.rawValue)/\($0.which.rawValue)" }, ["header/default", "footer/first"])
        XCTAssertEqual(doc.finalSection?.headersFooters.map { $0.blocks.map(\.plainText) }, [["Letterhead"], ["Page"]])
        let md = MemoryOutput(), written = Diagnostics()
        try Converter.write(doc, format: FormatRegistry.markdown, to: md, diagnostics: written)
        XCTAssertEqual(md.string.trimmingCharacters(in: .whitespacesAndNewlines), "Body")
        XCTAssertEqual(written.count(of: .lossyHeaderFooter), 2)
        // RTF to RTF keeps them: the original rewritten in place.
        let out = MemoryOutput()
        try Converter.convert(.bytes(Array(rtf.utf8)), to: out, options: ConversionOptions(from: FormatRegistry.rtf, to: FormatRegistry.rtf),
                              diagnostics: Diagnostics())
        XCTAssertTrue(out.string.contains(#"{\header\pard Letterhead\par}"#), out.string)
    }

    /// RTF's section layout through the model: several sections, landscape pages, columns, line numbering and a
    /// title page are carried (and reported by Markdown, counted per section); one plain page, a one-column
    /// `\cols1`, a `\linemod0` and a `\sect` with nothing after it are not reported; RTF to RTF keeps the file.
    func testRTFSectionLayoutIsCarried() throws {
        func markdownLosses(_ rtf: String) throws -> (Document, Diagnostics) {
            let doc = try Converter.read(.bytes(Array(rtf.utf8)), format: FormatRegistry.rtf)
            let diagnostics = Diagnostics()
            try Converter.write(doc, format: FormatRegistry.markdown, to: MemoryOutput(), diagnostics: diagnostics)
            return (doc, diagnostics)
        }
        let laidOut = #"{\rtf1\ansi{\fonttbl{\f0 Times;}}\titlepg\linemod1\pard One\par\sect\sectd\lndscpsxn\cols2\pard Two\par}"#
        let (doc, d) = try markdownLosses(laidOut)
        let first = try XCTUnwrap(doc.blocks.first?.paragraph?.sectionEnd)
        XCTAssertTrue(first.titlePage)
        XCTAssertEqual(first.lineNumbering?.countBy, 1)
        XCTAssertEqual(doc.finalSection?.orientation, .landscape)
        XCTAssertEqual(doc.finalSection?.columns, 2)
        XCTAssertEqual(d.count(of: .lossySection), 2)
        for plain in [#"{\rtf1\ansi\pard One\par}"#, #"{\rtf1\ansi\cols1\linemod0\titlepg0\pard One\par\sect}"#] {
            XCTAssertEqual(try markdownLosses(plain).1.count(of: .lossySection), 0, plain)
        }
        let out = MemoryOutput(), same = Diagnostics()
        try Converter.convert(.bytes(Array(laidOut.utf8)), to: out,
                              options: ConversionOptions(from: FormatRegistry.rtf, to: FormatRegistry.rtf), diagnostics: same)
        XCTAssertEqual(out.string, laidOut, "in place, byte for byte")
        XCTAssertEqual(same.count(of: .lossySection), 0)
    }
}

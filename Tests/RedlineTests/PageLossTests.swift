import Foundation
import XCTest
import Redline
import RedlineZip
import RedlineTestSupport

/// Headers, footers and section layout, which the model does not carry: a conversion to the same format keeps
/// them (the plan rewrites the original in place, the identity when nothing is decided), every other route
/// reports their loss (`lossy.header-footer`, `lossy.section`) instead of dropping them silently.
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

    func testEveryOtherRouteReportsTheHeadersAndFootersItDrops() throws {
        for (to, extra) in [("md", [String]()), ("rtf", []), ("html", []), ("docx", ["--paragraph-style", "scrivener"])] {
            let out = dir + "/out." + to
            let r = try RedlineBinary.run(["convert", withHeaders, "-o", out] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("lossy.header-footer"), "\(to): \(r.stderr)")
        }
        let diagnostics = Diagnostics()
        _ = try Converter.read(.file(withHeaders), format: FormatRegistry.docx, diagnostics: diagnostics)
        let references = try entries(withHeaders)["word/document.xml"].map { xml -> Int in
            let s = String(decoding: xml, as: UTF8.self)
            return s.components(separatedBy: "<w:headerReference").count + s.components(separatedBy: "<w:footerReference").count - 2
        } ?? 0
        XCTAssertGreaterThan(references, 0)
        XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter), references)
    }

    func testSectionLayoutIsReported() throws {
        // Two sections, the second landscape in two columns, through the model: reported, with a count.
        let body = """
        <w:p><w:pPr><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr><w:r><w:t>One</w:t></w:r></w:p>
        <w:p><w:r><w:t>Two</w:t></w:r></w:p>
        <w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:cols w:num="2"/></w:sectPr>
        """
        let docx = try MinimalDOCX.package(body: body)
        let diagnostics = Diagnostics()
        let doc = try Converter.read(.bytes(docx), format: FormatRegistry.docx, diagnostics: diagnostics)
        XCTAssertEqual(doc.blocks.count, 2)
        XCTAssertEqual(diagnostics.count(of: .lossySection), 2)
        XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter), 0)
    }

    func testRTFHeadersAndFootersAreReported() throws {
        let rtf = #"{\rtf1\ansi{\fonttbl{\f0 Times;}}{\header\pard Letterhead\par}{\footerf\pard Page\par}\pard Body\par}"#
        let diagnostics = Diagnostics()
        let doc = try Converter.read(.bytes(Array(rtf.utf8)), format: FormatRegistry.rtf, diagnostics: diagnostics)
        XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter), 2)
        let md = MemoryOutput()
        try Converter.write(doc, format: FormatRegistry.markdown, to: md)
        XCTAssertEqual(md.string.trimmingCharacters(in: .whitespacesAndNewlines), "Body")
        // RTF to RTF keeps them: the original rewritten in place.
        let out = MemoryOutput()
        try Converter.convert(.bytes(Array(rtf.utf8)), to: out, options: ConversionOptions(from: FormatRegistry.rtf, to: FormatRegistry.rtf),
                              diagnostics: Diagnostics())
        XCTAssertTrue(out.string.contains(#"{\header\pard Letterhead\par}"#), out.string)
    }

    /// RTF's section layout through the model: several sections, landscape pages, columns, line numbering and a
    /// title page are reported once (`lossy.section`, naming them); one plain page, a one-column `\cols1`, a
    /// `\linemod0` and a `\sect` with nothing after it are not; RTF to RTF keeps them and says nothing.
    func testRTFSectionLayoutIsReported() throws {
        func read(_ rtf: String) throws -> Diagnostics {
            let diagnostics = Diagnostics()
            _ = try Converter.read(.bytes(Array(rtf.utf8)), format: FormatRegistry.rtf, diagnostics: diagnostics)
            return diagnostics
        }
        let laidOut = #"{\rtf1\ansi{\fonttbl{\f0 Times;}}\titlepg\linemod1\pard One\par\sect\sectd\lndscpsxn\cols2\pard Two\par}"#
        let d = try read(laidOut)
        XCTAssertEqual(d.count(of: .lossySection), 1)
        let message = d.all.first { $0.code == .lossySection }?.message ?? ""
        for part in ["several sections", "landscape pages", "columns", "line numbering", "a different first page"] {
            XCTAssertTrue(message.contains(part), "\(part): \(message)")
        }
        for plain in [#"{\rtf1\ansi\pard One\par}"#, #"{\rtf1\ansi\cols1\linemod0\titlepg0\pard One\par\sect}"#] {
            XCTAssertEqual(try read(plain).count(of: .lossySection), 0, plain)
        }
        let out = MemoryOutput(), same = Diagnostics()
        try Converter.convert(.bytes(Array(laidOut.utf8)), to: out,
                              options: ConversionOptions(from: FormatRegistry.rtf, to: FormatRegistry.rtf), diagnostics: same)
        XCTAssertEqual(out.string, laidOut, "in place, byte for byte")
        XCTAssertEqual(same.count(of: .lossySection), 0)
    }
}

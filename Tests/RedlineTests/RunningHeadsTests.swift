import Foundation
import XCTest
import Redline
import RedlineTestSupport

/// Issue 31: the Chromium PDF prints the page. The last section's page size, margins, headers and footers
/// become CSS paged media (`RunningHeads`): the header and footer text on every page, page numbers counted by
/// the printer from the PAGE and NUMPAGES fields, a title page's own footer, instead of `lossy.header-footer`.
final class RunningHeadsTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        try TestProcess.require("chromium")
        try TestProcess.require("pdftotext", check: ["-v"])
        dir = NSTemporaryDirectory() + "redline-heads-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func pageTexts(_ pdf: String) throws -> [String] {
        let all = try TestProcess.run(["pdftotext", "-layout", pdf, "-"]).out
        return all.split(separator: "\u{0C}", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }

    /// An A5 document long enough for several pages: a header with text left and right of tabs, a footer with
    /// the page number and count as fields (their written results wrong on purpose), and, with `titlePage`, a
    /// first-page footer of its own.
    private func document(titlePage: Bool) -> Document {
        let header = HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([.text("Redline Quarterly\t\tConfidential")]))])
        var footer = ParagraphStyle()
        footer.alignment = .center
        let folio = HeaderFooter(kind: .footer, blocks: [.paragraph(Paragraph([
            .text("Folio "), .field(FieldCode(instruction: "PAGE"), [.text("7")]), .text(" of "),
            .field(FieldCode(instruction: "NUMPAGES"), [.text("7")]),
        ], style: footer))])
        var stories = [header, folio]
        if titlePage {
            stories.append(HeaderFooter(kind: .footer, which: .first, blocks: [.paragraph(Paragraph([.text("Cover page footer")]))]))
        }
        let words = (1...120).map { "Paragraph \($0) of the body, which is long enough to wrap over a line or two of an A5 page." }
        var doc = Document(blocks: words.map { .paragraph(Paragraph([.text($0)])) })
        doc.finalSection = Section(pageWidth: 419.55, pageHeight: 595.3,
                                   margins: Section.Margins(top: 72, bottom: 72, left: 54, right: 54),
                                   titlePage: titlePage, headersFooters: stories)
        return doc
    }

    private func printed(_ doc: Document, _ name: String) throws -> (pages: [String], stderr: String, size: String) {
        let rtf = dir + "/\(name).rtf", pdf = dir + "/\(name).pdf"
        let out = MemoryOutput()
        try Converter.write(doc, format: FormatRegistry.rtf, to: out)
        try Data(out.bytes).write(to: URL(fileURLWithPath: rtf))
        let r = try RedlineBinary.run(["convert", rtf, "-o", pdf, "--pdf-engine", "chromium"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let info = try TestProcess.run(["pdfinfo", pdf]).out
        let size = info.split(separator: "\n").first { $0.hasPrefix("Page size:") }.map(String.init) ?? ""
        return (try pageTexts(pdf), r.stderr, size)
    }

    func testEveryPageShowsTheHeaderAndItsOwnNumber() throws {
        let (pages, stderr, size) = try printed(document(titlePage: false), "plain")
        XCTAssertGreaterThanOrEqual(pages.count, 3, "\(pages)")
        for (k, page) in pages.enumerated() {
            XCTAssertTrue(page.contains("Redline Quarterly") && page.contains("Confidential"), "page \(k + 1):\n\(page)")
            XCTAssertTrue(page.contains("Folio \(k + 1) of \(pages.count)"), "page \(k + 1):\n\(page)")
        }
        // Left and right of the tabs: the two texts at either edge of one line.
        let line = try XCTUnwrap(pages[0].split(separator: "\n").first { $0.contains("Redline Quarterly") })
        XCTAssertTrue(line.hasSuffix("Confidential") && line.count > 40, "\(line)")
        XCTAssertFalse(stderr.contains("lossy.header-footer"), stderr)
        // A5 as the section states it (Chromium rounds to the paper size it knows).
        let numbers = Array(size.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }.prefix(2))
        XCTAssertEqual(numbers.count, 2, size)
        XCTAssertEqual(numbers.first ?? 0, 419.55, accuracy: 1, size)
        XCTAssertEqual(numbers.last ?? 0, 595.3, accuracy: 1, size)
    }

    func testATitlePageHasItsOwnFooter() throws {
        let (pages, _, _) = try printed(document(titlePage: true), "title")
        XCTAssertGreaterThanOrEqual(pages.count, 2)
        XCTAssertTrue(pages[0].contains("Cover page footer"), pages[0])
        XCTAssertFalse(pages[0].contains("Folio"), pages[0])
        XCTAssertTrue(pages[1].contains("Folio 2 of \(pages.count)"), pages[1])
        XCTAssertFalse(pages[1].contains("Cover page footer"), pages[1])
    }

    /// A Word file's header and footer, through the model to the Chromium PDF.
    func testAWordFilesHeaderAndFooterArePrinted() throws {
        let path = RepositoryPaths.sharedCorpus + "/docx2python/example.docx"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(path) is not there") }
        let pdf = dir + "/word.pdf"
        let r = try RedlineBinary.run(["convert", path, "-o", pdf, "--pdf-engine", "chromium"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try pageTexts(pdf).joined()
        XCTAssertTrue(text.contains("Header text") && text.contains("Footer text"), text)
        XCTAssertFalse(r.stderr.contains("lossy.header-footer"), r.stderr)
    }
}

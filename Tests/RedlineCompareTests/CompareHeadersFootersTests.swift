import XCTest
import Foundation
import ArgumentParser
@testable import RedlineCompare
import Redline
import RedlineCLI
import RedlineTestSupport

/// Issue #33: headers and footers of corresponding sections are compared like the body; `--no-headers-footers`
/// keeps NEW's unmarked.
final class CompareHeadersFootersTests: XCTestCase {
    var tmp = ""
    static var source: String { CompareGoldenTests.root + "/../shared/corpus/python-docx/blk-paras-and-tables.docx" }

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-compare-hf-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    func run(_ args: [String]) throws {
        var command = try RedlineCommand.parseAsRoot(args)
        try LargeStack.run { try command.run() }
    }

    static func story(_ d: Document, _ kind: HeaderFooter.Kind) -> String {
        (d.finalSection?.story(kind, .default)?.blocks ?? []).map(\.plainText).joined(separator: "\n")
    }

    static func section(header: String, footer: String) -> Section {
        Section(headersFooters: [HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([.text(header)]))]),
                                 HeaderFooter(kind: .footer, blocks: [.paragraph(Paragraph([.text(footer)]))])])
    }

    func testModelFooterIsComparedAndExact() {
        var old = Document(blocks: [.paragraph(Paragraph([.text("Body text.")]))])
        old.finalSection = Self.section(header: "Report", footer: "Copyright 2023 Example")
        var new = old
        new.finalSection = Self.section(header: "Report", footer: "Copyright 2024 Example Inc.")
        let (result, stats) = DocumentComparer.compare(old: old, new: new, options: CompareOptions(author: "Bob"))
        XCTAssertFalse(stats.isEmpty)
        let footer = result.finalSection!.story(.footer, .default)!
        XCTAssertGreaterThan(DocumentComparer.trackedChangeCount(Document(blocks: footer.blocks)), 0)
        XCTAssertEqual(result.finalSection!.story(.header, .default), new.finalSection!.story(.header, .default))
        XCTAssertEqual(Self.story(DocumentComparer.accepted(result), .footer), "Copyright 2024 Example Inc.")
        XCTAssertEqual(Self.story(DocumentComparer.rejected(result), .footer), "Copyright 2023 Example")

        var off = CompareOptions()
        off.compareHeadersFooters = false
        let (plain, plainStats) = DocumentComparer.compare(old: old, new: new, options: off)
        XCTAssertTrue(plainStats.isEmpty)
        XCTAssertEqual(plain.finalSection, new.finalSection)

        // OLD without any section (Markdown): NEW's stories are not insertions.
        let md = Document(blocks: old.blocks)
        let (fromMarkdown, mdStats) = DocumentComparer.compare(old: md, new: new)
        XCTAssertTrue(mdStats.isEmpty)
        XCTAssertEqual(fromMarkdown.finalSection, new.finalSection)
    }

    func testKeepInputChangesKeepsTrackedStoriesAndMarksUntrackedOnes() {
        let alice = Change(author: "Alice", date: "2024-03-01T10:00:00Z")
        var old = Document(blocks: [.paragraph(Paragraph([.text("Body text.")]))])
        old.finalSection = Self.section(header: "Report", footer: "Copyright Example")
        var new = old
        new.finalSection = Section(headersFooters: [
            HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([.text("Annual report")]))]),
            HeaderFooter(kind: .footer, blocks: [.paragraph(Paragraph([.text("Copyright "), .insertion(alice, [.text("2024 ")]), .text("Example")]))])])
        var options = CompareOptions(author: "Bob")
        options.keepInputChanges = true
        let (result, _) = DocumentComparer.compare(old: old, new: new, options: options)
        XCTAssertEqual(result.finalSection?.story(.footer, .default), new.finalSection?.story(.footer, .default))
        let changes = CompareInputChangesTests.changes(result)
        XCTAssertTrue(changes.contains { $0.0 == "+2024 " && $0.1 == "Alice" }, "\(changes)")
        XCTAssertTrue(changes.contains { $0.1 == "Bob" && $0.0.contains("Annual") }, "\(changes)")
        XCTAssertEqual(Self.story(DocumentComparer.accepted(result), .header), "Annual report")
        XCTAssertEqual(Self.story(DocumentComparer.accepted(result), .footer), "Copyright 2024 Example")
        XCTAssertEqual(Self.story(DocumentComparer.rejected(result), .header), "Report")
        XCTAssertEqual(Self.story(DocumentComparer.rejected(result), .footer), "Copyright Example")
    }

    func testAStoryOnOneSideOnlyIsInsertedOrDeletedWhole() {
        var old = Document(blocks: [.paragraph(Paragraph([.text("Body.")]))])
        old.finalSection = Section(headersFooters: [HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([.text("Old header")]))])])
        var new = old
        new.finalSection = Section(headersFooters: [HeaderFooter(kind: .footer, blocks: [.paragraph(Paragraph([.text("New footer")]))])])
        let (result, _) = DocumentComparer.compare(old: old, new: new)
        XCTAssertEqual(Self.story(DocumentComparer.accepted(result), .footer), "New footer")
        XCTAssertEqual(Self.story(DocumentComparer.rejected(result), .footer), "")
        XCTAssertEqual(Self.story(DocumentComparer.rejected(result), .header), "Old header")
        XCTAssertEqual(Self.story(DocumentComparer.accepted(result), .header), "")
    }

    /// A Word file's footer edited: the DOCX result (laid into NEW's package) has the change as `w:ins`/`w:del` in
    /// its footer part and validates; accept gives NEW's footer, reject OLD's; RTF likewise; the flag turns it off.
    func testEditedFooterOfAWordFileIsATrackedChange() throws {
        guard FileManager.default.fileExists(atPath: Self.source) else { throw XCTSkip("no ../shared/corpus") }
        let oldPath = tmp + "/old.docx", newPath = tmp + "/new.docx"
        try FileManager.default.copyItem(atPath: Self.source, toPath: oldPath)
        var parts = try ZipEntries.read(Array(try Data(contentsOf: URL(fileURLWithPath: Self.source))))
        let i = try XCTUnwrap(parts.firstIndex { $0.name == "word/footer1.xml" })
        let xml = String(decoding: parts[i].bytes, as: UTF8.self)
        XCTAssertTrue(xml.contains("<w:t>Copyright</w:t>"))
        parts[i].bytes = Array(xml.replacingOccurrences(of: "<w:t>Copyright</w:t>", with: "<w:t>Copyright 2024 Example Inc.</w:t>").utf8)
        try Data(try ZipEntries.package(parts)).write(to: URL(fileURLWithPath: newPath))

        let docx = FormatRegistry.named("docx")!, rtf = FormatRegistry.named("rtf")!
        let oldDoc = try Converter.read(.file(oldPath), format: docx), newDoc = try Converter.read(.file(newPath), format: docx)
        let oldFooter = Self.story(oldDoc, .footer), newFooter = Self.story(newDoc, .footer)
        XCTAssertNotEqual(oldFooter, newFooter)
        XCTAssertTrue(newFooter.contains("2024 Example Inc."), newFooter)

        let out = tmp + "/out.docx"
        try run(["compare", oldPath, newPath, "-o", out, "--author", "Bob", "--date", "2024-05-01T09:00:00Z", "-q"])
        let entries = try zipEntries(out)
        let footers = entries.filter { $0.key.hasPrefix("word/") && $0.key.contains("footer") && $0.key.hasSuffix(".xml") }
        XCTAssertTrue(footers.values.contains { String(decoding: $0, as: UTF8.self).contains("<w:ins ") }, "\(footers.keys)")
        // The unchanged header is NEW's part byte for byte; only the changed footer is written from the comparison.
        let newHeader = try XCTUnwrap(parts.first { $0.name == "word/header1.xml" }).bytes
        XCTAssertTrue(entries.contains { $0.key.contains("header") && $0.value == newHeader }, "\(entries.keys.sorted())")
        let result = try Converter.read(.file(out), format: docx)
        XCTAssertEqual(Self.story(DocumentComparer.accepted(result), .footer), newFooter)
        XCTAssertEqual(Self.story(DocumentComparer.rejected(result), .footer), oldFooter)
        XCTAssertEqual(Self.story(DocumentComparer.accepted(result), .header), Self.story(newDoc, .header))
        try CompareOracleTests.validate([out])

        let outRTF = tmp + "/out.rtf"
        try run(["compare", oldPath, newPath, "-o", outRTF, "--author", "Bob", "-q"])
        let r = try Converter.read(.file(outRTF), format: rtf)
        // As RTF gives each side back (its round trip of a footer may differ from the DOCX's in empty paragraphs).
        func throughRTF(_ d: Document) throws -> String {
            let out = MemoryOutput()
            try Converter.write(d, format: rtf, to: out)
            return Self.story(try Converter.read(.bytes(out.bytes), format: rtf), .footer)
        }
        XCTAssertEqual(Self.story(DocumentComparer.accepted(r), .footer), try throughRTF(newDoc))
        XCTAssertEqual(Self.story(DocumentComparer.rejected(r), .footer), try throughRTF(oldDoc))
        XCTAssertTrue(try String(contentsOfFile: outRTF, encoding: .utf8).contains("\\revised"))

        let plain = tmp + "/plain.docx"
        try run(["compare", oldPath, newPath, "-o", plain, "--no-headers-footers", "-q"])
        let plainFooters = try zipEntries(plain).filter { $0.key.contains("footer") && $0.key.hasSuffix(".xml") }
        XCTAssertFalse(plainFooters.values.contains { String(decoding: $0, as: UTF8.self).contains("<w:ins ") })
        let p = try Converter.read(.file(plain), format: docx)
        XCTAssertEqual(Self.story(DocumentComparer.rejected(p), .footer), newFooter)
    }
}

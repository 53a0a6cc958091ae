import Foundation
import XCTest
import Redline
import RedlineTestSupport

/// The examples of the API documentation (Sources/Redline/Redline.docc), run as written on the sample
/// manuscript, so the article cannot drift from the library.
final class LibraryExamplesTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-library-examples-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // The sample manuscript (three reviewers' changes and comments) as the draft.docx and draft.rtf the article uses.
        let sample = RepositoryPaths.root + "/docs/samples/contract-review.md"
        for to in [FormatRegistry.docx, FormatRegistry.rtf] {
            try Converter.convert(.file(sample), toFile: "\(dir)/draft.\(to.name)",
                                  options: ConversionOptions(from: FormatRegistry.markdown, to: to), diagnostics: Diagnostics())
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func testConvertAFile() throws {
        let options = ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.markdown)
        let diagnostics = Diagnostics()
        try Converter.convert(.file("\(dir)/draft.docx"), toFile: "\(dir)/draft.md", options: options, diagnostics: diagnostics)
        let md = try String(contentsOfFile: "\(dir)/draft.md", encoding: .utf8)
        XCTAssertTrue(md.contains("{~~five~>seven~~}"), md)
        XCTAssertEqual(options.plan.route, .model)
    }

    func testAcceptOrRejectChangesInPlace() throws {
        var review = ReviewOptions(changes: .marked)
        review.accept = [try ChangeFilter(parsing: "author=Ann Editor")]
        review.reject = [try ChangeFilter(parsing: "kind=formatting")]
        let options = ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.docx, review: review)
        XCTAssertEqual(options.plan.route, .inPlace)
        try Converter.convert(.file("\(dir)/draft.docx"), toFile: "\(dir)/reviewed.docx", options: options,
                              diagnostics: Diagnostics())
        let items = try ChangeListing.list(.file("\(dir)/reviewed.docx"), format: FormatRegistry.docx)
        XCTAssertFalse(items.isEmpty)
        XCTAssertFalse(items.contains { $0.author == "Ann Editor" && $0.kind != .comment }, "Ann's changes are accepted")
        XCTAssertTrue(items.contains { $0.author == "Bob Counsel" && $0.kind != .comment }, "Bob's are left")
    }

    func testReadADocumentIntoMemory() throws {
        let document = try Converter.read(.file("\(dir)/draft.rtf"), format: FormatRegistry.rtf)
        XCTAssertFalse(document.blocks.isEmpty)
        let out = MemoryOutput()
        try Converter.write(document, format: FormatRegistry.markdown, to: out)
        XCTAssertTrue(out.string.contains("Harbour Lease"))
    }

    func testCompareTwoVersions() throws {
        var reject = ReviewOptions(changes: .reject), accept = ReviewOptions(changes: .accept)
        reject.comments = .drop
        accept.comments = .drop
        for (name, review) in [("v1", reject), ("v2", accept)] {
            try Converter.convert(.file("\(dir)/draft.docx"), toFile: "\(dir)/\(name).docx",
                                  options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.docx, review: review),
                                  diagnostics: Diagnostics())
        }
        var compare = CompareOptions(author: "Redline")
        compare.detectMoves = true
        let options = ComparisonOptions(to: FormatRegistry.docx, compare: compare)
        let stats = try Comparison.compare(old: "\(dir)/v1.docx", new: "\(dir)/v2.docx", options: options,
                                           toFile: "\(dir)/changes.docx", diagnostics: Diagnostics())
        XCTAssertGreaterThan(stats.insertions + stats.deletions + stats.substitutions, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(dir)/changes.docx"))
    }

    func testAttributedText() throws {
        let document = try Converter.read(.file("\(dir)/draft.rtf"), format: FormatRegistry.rtf)
        var text = AttributedString(redline: document)
        let range = try XCTUnwrap(text.range(of: "Harbour"))
        text.replaceSubrange(range, with: AttributedString("Harbor"))
        let edited = Document(redline: text, header: document.header, comments: document.comments)
        let out = MemoryOutput()
        try Converter.write(edited, format: FormatRegistry.docx, to: out)
        let back = try Converter.read(.bytes(out.bytes), format: FormatRegistry.docx)
        let md = MemoryOutput()
        try Converter.write(back, format: FormatRegistry.markdown, to: md)
        XCTAssertTrue(md.string.contains("Harbor Lease"), md.string)
    }
}

import Foundation
import XCTest
import Redline
@testable import RedlineConversion
@testable import RedlineCheck

/// Review filters that select nothing are counted by the engines as they decide (issue 35): the library's
/// `Converter` reports them on every route, and a batch reports them per input (`--strict-filters` failing that
/// input only), without reading the document a second time.
final class FilterTallyTests: XCTestCase {
    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-filter-tally-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    func markdown(_ author: String) -> String {
        "A {++b++}{>>@\(author) (2024-01-01T00:00:00Z)<<} c.\n\nA comment{>>@\(author) (2024-01-03T00:00:00Z): look<<} here.\n"
    }

    func convert(_ input: DocumentInput, from: Format, to: Format, _ review: ReviewOptions, strict: Bool = false) throws -> [Diagnostic] {
        var options = ConversionOptions(from: from, to: to, review: review)
        options.strictFilters = strict
        let d = Diagnostics()
        try Converter.convert(input, to: MemoryOutput(), options: options, diagnostics: d)
        return d.all
    }

    func unmatched(_ ds: [Diagnostic]) -> [String] { ds.filter { $0.code == .reviewFilterUnmatched }.map(\.message) }

    func testTheLibraryReportsAFilterThatSelectsNothingOnEveryRoute() throws {
        let md = DocumentInput.bytes(Array(markdown("Ann Smith").utf8))
        let nobody = ReviewOptions(accept: [try ChangeFilter(parsing: "author=Bob")])
        // Through the model, to Markdown and to DOCX.
        for to in [FormatRegistry.markdown, FormatRegistry.docx] {
            let w = unmatched(try convert(md, from: FormatRegistry.markdown, to: to, nobody))
            XCTAssertEqual(w.count, 1, "\(to.name): \(w)")
            XCTAssertTrue(w.first?.contains("--accept author=Bob matched no change; the document's authors are \"Ann Smith\"") == true, "\(w)")
        }
        XCTAssertTrue(unmatched(try convert(md, from: FormatRegistry.markdown, to: FormatRegistry.markdown,
                                            ReviewOptions(accept: [try ChangeFilter(parsing: "author=Ann Smith")]))).isEmpty)
        // Comments: a drop filter naming nobody, and one naming the comment's author.
        let drop = unmatched(try convert(md, from: FormatRegistry.markdown, to: FormatRegistry.markdown,
                                         ReviewOptions(dropComments: [try ChangeFilter(parsing: "author=Bob")])))
        XCTAssertEqual(drop.count, 1, "\(drop)")
        XCTAssertTrue(drop.first?.contains("--drop-comments author=Bob matched no comment") == true, "\(drop)")
        XCTAssertTrue(unmatched(try convert(md, from: FormatRegistry.markdown, to: FormatRegistry.markdown,
                                            ReviewOptions(dropComments: [try ChangeFilter(parsing: "author=Ann Smith")]))).isEmpty)
        // DOCX in place.
        let docx = RepositoryPaths.root + "/Corpus/docx/tracked-changes.docx"
        let inPlace = ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.docx, review: nobody)
        XCTAssertTrue(inPlace.reviewsInPlace)
        let w = unmatched(try convert(.file(docx), from: FormatRegistry.docx, to: FormatRegistry.docx, nobody))
        XCTAssertEqual(w.count, 1, "\(w)")
        XCTAssertTrue(w.first?.contains("--accept author=Bob matched no change; the document's authors are") == true, "\(w)")
        // RTF in place.
        let rtf = RepositoryPaths.root + "/Corpus/rtf/revisions-annotations.rtf"
        let kinds = ReviewOptions(reject: [try ChangeFilter(parsing: "kind=move")])
        let r = unmatched(try convert(.file(rtf), from: FormatRegistry.rtf, to: FormatRegistry.rtf, kinds))
        XCTAssertEqual(r.count, 1, "\(r)")
        XCTAssertTrue(r.first?.contains("--reject kind=move matched no change; its kinds are") == true, "\(r)")
        // Strict: an error, and the file is not written.
        let out = tmp + "/strict.md"
        var options = ConversionOptions(from: FormatRegistry.markdown, to: FormatRegistry.markdown, review: nobody)
        options.strictFilters = true
        XCTAssertThrowsError(try Converter.convert(md, toFile: out, options: options, diagnostics: Diagnostics())) { e in
            XCTAssertTrue("\(e)".contains("--strict-filters"), "\(e)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// `check`'s lossy conversions report it as one of their findings.
    func testCheckReportsItForItsConversions() throws {
        let path = tmp + "/ann.md"
        try markdown("Ann Smith").write(toFile: path, atomically: true, encoding: .utf8)
        let result = DocumentCheck.check(path, policy: try CheckPolicy(failOn: "lossy:md->docx"),
                                         review: ReviewOptions(accept: [try ChangeFilter(parsing: "author=Bob")]))
        let f = result.findings.filter { $0.code == DiagnosticCode.reviewFilterUnmatched.rawValue }
        XCTAssertEqual(f.map(\.category), ["lossy:md->docx"], "\(result.findings)")
        XCTAssertTrue(f.first?.message.contains("\"Ann Smith\"") == true)
    }

    func testABatchReportsEachInputsUnmatchedFiltersAndStrictFailsOnlyThatInput() throws {
        let input = tmp + "/in"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try markdown("Ann Smith").write(toFile: input + "/ann.md", atomically: true, encoding: .utf8)
        try markdown("Bob Jones").write(toFile: input + "/bob.md", atomically: true, encoding: .utf8)
        let report = tmp + "/report.jsonl"
        let r = try RedlineBinary.run(["convert", input, "-o", tmp + "/out/", "--to", "md", "--accept", "author=Ann Smith",
                                       "--report", report])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
        let ann = try XCTUnwrap(lines.first { $0.contains("ann.md") && $0.contains("\"input\"") })
        let bob = try XCTUnwrap(lines.first { $0.contains("bob.md") && $0.contains("\"input\"") })
        XCTAssertFalse(ann.contains("review.filter-unmatched"), ann)
        XCTAssertTrue(bob.contains("review.filter-unmatched"), bob)
        XCTAssertTrue(bob.contains("Bob Jones"), "names the input's authors: \(bob)")
        // --strict-filters: the input the filter does not fit fails, the other is converted.
        let strict = try RedlineBinary.run(["convert", input, "-o", tmp + "/strict/", "--to", "md", "--accept", "author=Ann Smith",
                                            "--strict-filters"])
        XCTAssertEqual(strict.status, 1, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("--strict-filters"), strict.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/strict/ann.md"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/strict/bob.md"))
    }
}

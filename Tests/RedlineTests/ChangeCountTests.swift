import Foundation
import XCTest
import Redline
@testable import RedlineCheck
@testable import RedlineConversion

/// One count of changes (issue 35): `redline changes` (its rows that are not comments), `check` (the counts of its
/// `changes` findings) and the review page (its panel's total) agree for every document with tracked changes: each
/// Word file of `../shared/corpus` (MANIFEST.tsv) and of `Corpus/`, and the Markdown and RTF documents of `Corpus/`.
final class ChangeCountTests: XCTestCase {
    /// The three counts of `path`.
    func counts(_ path: String) throws -> (listed: Int, checked: Int, page: Int, shown: Int) {
        let format = try XCTUnwrap(FormatRegistry.inferred(fromPath: path))
        let listed = try ChangeListing.changeCount(.file(path), format: format)
        let result = DocumentCheck.check(path, policy: try CheckPolicy(failOn: ""))
        XCTAssertNil(result.error, path)
        let checked = result.findings.filter { $0.category == "changes" }.reduce(0) { $0 + $1.count }
        let out = MemoryOutput()
        try Converter.convert(.file(path), to: out, options: ConversionOptions(from: format, to: FormatRegistry.html),
                              diagnostics: Diagnostics())
        let html = out.string
        // The panel's total: the source's count where the page was given it, else the changes marked on the page.
        let shown = html.components(separatedBy: " data-change=\"").count - 1
        var page = shown
        if let r = html.range(of: "data-changes=\"") {
            page = max(shown, Int(html[r.upperBound...].prefix { $0.isNumber }) ?? 0)
        }
        return (listed, checked, page, shown)
    }

    func testChangesCheckAndTheReviewPageCountAlike() throws {
        var paths: [String] = []
        let shared = RepositoryPaths.root + "/../shared/corpus/"
        if let manifest = try? String(contentsOfFile: shared + "MANIFEST.tsv", encoding: .utf8) {
            for line in manifest.split(separator: "\n").dropFirst() {
                let path = String(line.split(separator: "\t", omittingEmptySubsequences: false)[0])
                if path.hasSuffix(".docx") { paths.append(shared + path) }
            }
        }
        let corpus = RepositoryPaths.root + "/Corpus/"
        for dir in ["docx", "markdown", "rtf"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: corpus + dir))?.sorted() ?? []
            where [".docx", ".md", ".rtf"].contains(where: name.hasSuffix) {
                paths.append(corpus + dir + "/" + name)
            }
        }
        var withChanges = 0, wordWithChanges = 0
        for path in paths where FileManager.default.fileExists(atPath: path) {
            guard let c = try? counts(path) else { continue }  // a file Redline cannot read (Corpus/bad) has no count
            XCTAssertEqual(c.checked, c.listed, "check vs changes: \(path)")
            XCTAssertEqual(c.page, c.listed, "review page vs changes: \(path)")
            XCTAssertLessThanOrEqual(c.shown, c.listed, "the page marks more changes than are listed: \(path)")
            if c.listed > 0 {
                withChanges += 1
                if path.hasSuffix(".docx") { wordWithChanges += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(withChanges, 10)
        if FileManager.default.fileExists(atPath: shared) { XCTAssertGreaterThanOrEqual(wordWithChanges, 20) }
    }

    /// A move is one change on the page (both places, every piece), as it is one row of `redline changes`.
    func testAMoveIsOneChangeOnThePage() throws {
        let path = RepositoryPaths.root + "/Corpus/docx/moves-and-formatting.docx"
        let c = try counts(path)
        XCTAssertEqual(c.shown, c.listed)
        XCTAssertEqual(c.page, c.listed)
    }
}

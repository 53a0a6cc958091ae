import XCTest
import Foundation
import Redline
import RedlineZip
import RedlineTestSupport

/// `redline combine` on real Word files: every file of `../shared/corpus` with two or more tracked changes is
/// split into one copy per reviewer (per author where it has several, else its changes dealt out in turn), each
/// copy keeping its own changes tracked and the others rejected in place; the copies are combined onto the
/// file's rejected version. The result must be the file again: its reject view ORIGINAL's, its accept view the
/// file's, every part ORIGINAL holds outside the body and comments byte for byte.
final class CombineWordFilesTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-combine-word-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func reviewed(_ input: String, _ review: ReviewOptions, to output: String) throws {
        try Converter.convert(.file(input), toFile: output,
                              options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.docx, review: review),
                              diagnostics: Diagnostics())
    }

    /// The document as Markdown with its changes accepted or rejected.
    private func text(_ path: String, _ changes: ChangeMode) throws -> String {
        let out = dir + "/view-\(UUID().uuidString.prefix(8)).md"
        try Converter.convert(.file(path), toFile: out,
                              options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.markdown, changes: changes),
                              diagnostics: Diagnostics())
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    private func entries(_ path: String) throws -> [String: [UInt8]] { try zipEntries(path) }

    func testWordFilesSplitByReviewerCombineBack() throws {
        let root = RepositoryPaths.sharedCorpus
        guard let walk = FileManager.default.enumerator(atPath: root) else { throw XCTSkip("../shared/corpus is not there") }
        let files = walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".docx") }.sorted()
        var tried = 0, rejectExact = 0, acceptExact = 0, rowsBefore = 0, rowsAfter = 0
        var report: [String] = []
        for f in files {
            let path = root + "/" + f
            guard let rows = try? ChangeListing.rows(.file(path), format: FormatRegistry.docx) else { continue }
            let changes = rows.filter { $0.kind != .comment }
            guard changes.count >= 2 else { continue }
            let authors = Array(Set(changes.map { $0.author ?? "" })).sorted()
            let groups: [[ChangeRow]] = authors.count >= 2
                ? authors.map { a in changes.filter { ($0.author ?? "") == a } }
                : [stride(from: 0, to: changes.count, by: 2).map { changes[$0] },
                   stride(from: 1, to: changes.count, by: 2).map { changes[$0] }]
            let name = f.replacingOccurrences(of: "/", with: "-")
            let original = dir + "/\(name)-original.docx"
            try reviewed(path, ReviewOptions(changes: .reject), to: original)
            var copies: [String] = []
            var options = CombineOptions()
            for (i, _) in groups.enumerated() {
                let others = Set(groups.enumerated().filter { $0.offset != i }
                    .flatMap { $0.element.flatMap { $0.id.split(separator: ",").map(String.init) } })
                let copy = dir + "/\(name)-copy\(i).docx"
                try reviewed(path, ReviewOptions(reject: [ChangeFilter(ids: others)]), to: copy)
                copies.append(copy)
                options.reviewerOf[copy] = authors.count >= 2 ? (authors[i].isEmpty ? "Unknown" : authors[i]) : "Reviewer \(i + 1)"
            }
            let out = dir + "/\(name)-combined.docx"
            let result: CombineResult
            do {
                result = try Combination.combine(original: original, copies: copies, options: options, toFile: out,
                                                 diagnostics: Diagnostics())
            } catch {
                XCTFail("\(f): combine failed: \(error)")
                continue
            }
            tried += 1
            // Every part but the body, the comments' parts and the lists naming them: ORIGINAL's bytes.
            let o = try entries(original), r = try entries(out)
            for (part, bytes) in o where !part.hasPrefix("word/document") && !part.hasPrefix("word/comments")
                && part != "[Content_Types].xml" && part != "word/_rels/document.xml.rels" {
                XCTAssertEqual(r[part], bytes, "\(f): \(part) changed")
            }
            let rejected = try text(out, .reject) == text(path, .reject)
            let accepted = try text(out, .accept) == text(path, .accept)
            let after = try ChangeListing.rows(.file(out), format: FormatRegistry.docx).filter { $0.kind != .comment }.count
            if rejected { rejectExact += 1 }
            if accepted { acceptExact += 1 }
            rowsBefore += changes.count
            rowsAfter += after
            report.append("\(f): \(groups.count) copies, reject \(rejected ? "exact" : "differs"), accept \(accepted ? "exact" : "differs"), "
                          + "changes \(changes.count) → \(after), conflicts \(result.conflicts.count)")
        }
        if tried == 0 { throw XCTSkip("no Word file with tracked changes in ../shared/corpus") }
        print("combine, Word files split by reviewer: \(tried) files, reject exact \(rejectExact), accept exact \(acceptExact), "
              + "changes \(rowsBefore) → \(rowsAfter)\n  " + report.joined(separator: "\n  "))
        // Measured 2026-11-29: 9 files, reject exact 9, accept exact 6, changes 60 → 34 (before paragraph-property
        // steps: reject 7, accept 5, 60 → 45; RP022's numbering and Format revision's changes now land as they were).
        // What differs: changes made on top of another reviewer's (RP047: "Eric White" deletes inside "Test User"'s
        // insertion, so neither copy holds the other's layer), merged cells (RP036), and a split and a join of the
        // same paragraph dealt to different copies (a conflict, kept as a comment).
        XCTAssertGreaterThanOrEqual(rejectExact, tried, report.joined(separator: "\n"))
        XCTAssertGreaterThanOrEqual(acceptExact, tried - 3, report.joined(separator: "\n"))
    }
}

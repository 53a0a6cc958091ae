import XCTest
import Foundation
import Redline
@testable import RedlineConversion
import RedlineTestSupport

/// `ApplyPlan.viewTexts` (one side's leaf texts, read off the document without working the view out), which
/// `apply`'s read-back check compares, run together as the check runs them (`Application.bare`), equals the
/// texts of the view itself (`DocumentComparer.accepted`/`rejected`, then `ApplyPlan.leafTexts`): on generated
/// documents holding every kind of change (moves, rows, paragraph marks, formatting) and on every DOCX and RTF
/// of `Corpus/` and the shared corpus.
final class ViewTextsTests: XCTestCase {
    private func check(_ doc: Document, _ label: String) {
        for (view, resolved) in [(ApplyPlan.View.accept, DocumentComparer.accepted(doc)),
                                 (.reject, DocumentComparer.rejected(doc))] {
            let quick = Application.bare(ApplyPlan.viewTexts(of: doc, view: view))
            let slow = Application.bare(ApplyPlan.leafTexts(of: resolved))
            XCTAssertEqual(String(decoding: quick, as: UTF8.self), String(decoding: slow, as: UTF8.self), "\(label): \(view)")
        }
    }

    func testGeneratedDocuments() {
        let base = SeededRandom.seed(default: 0x7E47)
        let count = ProcessInfo.processInfo.environment["REDLINE_SEED"] != nil ? 1 : 300
        var changed = 0
        for i in 0..<count {
            let seed = base &+ UInt64(i)
            var g = ReviewDocumentGenerator(seed: seed, rich: i % 2 == 0, lists: i % 3 != 1)
            let doc = g.document()
            if DocumentComparer.trackedChangeCount(doc) > 0 { changed += 1 }
            check(doc, "seed \(seed)")
        }
        XCTAssertGreaterThan(changed, count / 2, "the generator made documents with changes")
    }

    func testCorpusFiles() throws {
        var paths = ReviewEngineOracleTests.files(under: RepositoryPaths.root + "/Corpus", ext: "docx")
            + ReviewEngineOracleTests.files(under: RepositoryPaths.root + "/Corpus", ext: "rtf")
        let shared = URL(fileURLWithPath: RepositoryPaths.sharedCorpus).standardized.path
        if FileManager.default.fileExists(atPath: shared + "/MANIFEST.tsv") {
            paths += ReviewEngineOracleTests.files(under: shared, ext: "docx") + ReviewEngineOracleTests.files(under: shared, ext: "rtf")
        }
        var read = 0, withChanges = 0
        for path in paths where !path.contains("/bad/") {
            guard let doc = try? Converter.read(.file(path), format: FormatRegistry.inferred(fromPath: path)!) else { continue }
            read += 1
            if DocumentComparer.trackedChangeCount(doc) > 0 { withChanges += 1 }
            check(doc, path)
        }
        XCTAssertGreaterThan(read, 20)
        XCTAssertGreaterThan(withChanges, 5, "files with tracked changes among them")
    }
}

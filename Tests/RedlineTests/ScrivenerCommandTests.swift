import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion

/// `redline scrivener` as a user runs it: outputs, report, exit status, messages.
final class ScrivenerCommandTests: XCTestCase {
    private var garden: String { RepositoryPaths.root + "/Corpus/scrivener/Garden.scriv" }

    private func temporary() throws -> String {
        let dir = NSTemporaryDirectory() + "redline-scrivener-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    func testMigratesToDOCXWithAReportBatchToolsRead() throws {
        let dir = try temporary()
        let r = try RedlineBinary.run(["scrivener", garden, "-o", dir + "/garden.docx", "--report", dir + "/report.jsonl"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("migrated 3 of 3 binder items into 1 file"), r.stderr)
        XCTAssertTrue(r.stderr.contains("note[scrivener.excluded]"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/garden.docx"))
        let (records, summary) = try BatchReport.read(dir + "/report.jsonl")
        XCTAssertEqual(records.count, 4)
        XCTAssertEqual(summary?.failed, 0)
    }

    func testBadProjectsAndRequests() throws {
        let dir = try temporary()
        try FileManager.default.createDirectory(atPath: dir + "/Empty.scriv", withIntermediateDirectories: true)
        let empty = try RedlineBinary.run(["scrivener", dir + "/Empty.scriv", "-o", dir + "/x.docx"])
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.hasPrefix("redline: error: ") && empty.stderr.contains("no .scrivx binder"), empty.stderr)

        let format = try RedlineBinary.run(["scrivener", garden, "-o", dir + "/x", "--to", "odt"])
        XCTAssertEqual(format.status, 2, format.stderr)

        let inside = try RedlineBinary.run(["scrivener", garden, "-o", garden + "/out.docx"])
        XCTAssertEqual(inside.status, 2, inside.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: garden + "/out.docx"))
    }
}

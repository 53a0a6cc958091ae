import Foundation
import RedlineCore
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion

/// What a batch encodes per input, cut for compare batches of small pairs (PERFORMANCE.md, "Compare
/// batches"): a worker's result sends the warnings and stats once, and the journal's compaction writes the
/// lines it appended instead of encoding each record again.
final class BatchProtocolCostTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws { dir = try BatchFixture.directory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func record(_ name: String) -> (BatchRecord, UpToDateRecord) {
        var r = BatchRecord(input: "new/\(name).docx", format: "docx", status: .converted,
                            outputs: [BatchRecord.Output(path: "out/\(name).md", variant: "compared")])
        r.old = "old/\(name).docx"
        r.warnings = [WarningCount(code: "compare.input-changes", count: 56, message: "the inputs already held 56 tracked changes \(name)",
                                   location: nil, severity: .warning),
                      WarningCount(code: "docx.bookmark", count: 2, message: "bookmarks / are not kept",
                                   location: SourceLocation(paragraph: 1), severity: .warning)]
        r.stats = ["insertions": 10, "deletions": 8, "moves": 0]
        var u = UpToDateRecord(key: "\(name).md", options: "704d4a29e75651d6",
                               input: .init(path: "new/\(name).docx", size: 12147, mtime: 1795556504541193339, hash: "e42f0793e7fe8f0b"),
                               outputs: [.init(path: "out/\(name).md", size: 3372, mtime: 1795556766742605044)],
                               warnings: r.warnings)
        u.other = .init(path: "old/\(name).docx", size: 12130, mtime: 1795556504539009087, hash: "fccccfe68958ce79")
        u.stats = r.stats
        return (r, u)
    }

    func testWorkerResultSendsWarningsAndStatsOnce() throws {
        let (r, u) = record("a")
        let line = try JSONEncoder().encode(BatchWorkerResult(record: r, upToDate: u))
        let text = String(decoding: line, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "tracked changes a").count, 2, "the warning goes once: \(text)")
        XCTAssertEqual(text.components(separatedBy: "\"insertions\"").count, 2, "the stats go once: \(text)")
        let back = try JSONDecoder().decode(BatchWorkerResult.self, from: line)
        XCTAssertEqual(back.record, r)
        XCTAssertEqual(back.upToDateRecord, u)
        // An up-to-date record that tells something else goes whole.
        var other = u
        other.warnings = []
        let b2 = try JSONDecoder().decode(BatchWorkerResult.self, from: JSONEncoder().encode(BatchWorkerResult(record: r, upToDate: other)))
        XCTAssertEqual(b2.upToDateRecord, other)
        var noStats = u
        noStats.stats = nil
        let b3 = try JSONDecoder().decode(BatchWorkerResult.self, from: JSONEncoder().encode(BatchWorkerResult(record: r, upToDate: noStats)))
        XCTAssertEqual(b3.upToDateRecord, noStats)
        let b4 = try JSONDecoder().decode(BatchWorkerResult.self, from: JSONEncoder().encode(BatchWorkerResult(record: r, upToDate: nil)))
        XCTAssertNil(b4.upToDateRecord)
        XCTAssertEqual(b4.record, r)
    }

    /// Compaction writes, for each input, the line its record encodes to (appended, found up to date, or
    /// carried over from an earlier run), sorted by key, whichever way the line was made.
    func testCompactedJournalHoldsEachRecordsEncoding() throws {
        let out = dir + "/out"
        let records = ["c", "a", "d", "b"].map { record($0).1 }
        do {
            let journal = try UpToDateJournal(outputDirectory: out, shard: nil)
            for r in records { journal.append(r) }
            journal.compact(touched: Set(records.map(\.key)))
        }
        let path = UpToDateJournal.path(outputDirectory: out, shard: nil)
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let want = try records.sorted { $0.key < $1.key }.map { String(decoding: try e.encode($0), as: UTF8.self) + "\n" }.joined()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), want)
        XCTAssertEqual(UpToDateJournal.records(in: path), records.sorted { $0.key < $1.key })
        // A second run touching one input again, the others carried over: the same file.
        do {
            let journal = try UpToDateJournal(outputDirectory: out, shard: nil)
            journal.append(records[0])
            journal.compact(touched: [records[0].key])
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), want)
    }
}

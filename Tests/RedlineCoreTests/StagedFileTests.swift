import Foundation
import XCTest
@testable import RedlineCore

/// The one atomic-write mechanism (`StagedFile`, `AtomicFile`): temporaries carry their process, are
/// removed on discard and failure, and clean-up removes only those whose process is gone.
final class StagedFileTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "/staged-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    func testTemporaryCarriesThePIDAndCommitReplacesTheTarget() throws {
        try "old".write(toFile: dir + "/out.md", atomically: false, encoding: .utf8)
        let file = try StagedFile(path: dir + "/out.md")
        let name = (file.temporaryPath as NSString).lastPathComponent
        XCTAssertTrue(name.hasPrefix(".out.md.redline-\(getpid())-"), name)
        XCTAssertEqual(Temporaries.parse(name)?.target, "out.md")
        XCTAssertEqual(Temporaries.parse(name)?.pid, getpid())
        try file.output.write("new")
        XCTAssertEqual(try String(contentsOfFile: dir + "/out.md", encoding: .utf8), "old")
        try file.commit()
        XCTAssertEqual(try String(contentsOfFile: dir + "/out.md", encoding: .utf8), "new")
        XCTAssertEqual(names(), ["out.md"])
    }

    func testFailedWriteLeavesTheTargetAndNoTemporary() throws {
        try "old".write(toFile: dir + "/out.md", atomically: false, encoding: .utf8)
        struct Stop: Error {}
        XCTAssertThrowsError(try AtomicFile.write(to: dir + "/out.md") { out in
            try out.write("half")
            throw Stop()
        })
        XCTAssertEqual(try String(contentsOfFile: dir + "/out.md", encoding: .utf8), "old")
        XCTAssertEqual(names(), ["out.md"])
        do { _ = try StagedFile(path: dir + "/dropped.md") }  // released without commit: discarded
        XCTAssertEqual(names(), ["out.md"])
    }

    func testCleanUpRemovesOnlyTemporariesOfGoneProcesses() throws {
        let dead = ".a.md.redline-999999999-AbCdEf", live = ".a.md.redline-1-AbCdEf", mine = ".b.md.redline-\(getpid())-AbCdEf"
        let other = ".c.md.redline-999999999-AbCdEf", unrelated = [".a.md.redline-AbCdEf", ".a.md.redline-x-AbCdEf", "a.md"]
        for n in [dead, live, mine, other] + unrelated { FileManager.default.createFile(atPath: dir + "/" + n, contents: Data()) }
        XCTAssertEqual(StagedFile.removeStaleTemporaries(for: [dir + "/a.md", dir + "/b.md"]), 1)
        XCTAssertEqual(names(), ([live, mine, other] + unrelated).sorted())
        XCTAssertEqual(Temporaries.removeStale(in: dir), 1)
        XCTAssertEqual(names(), ([live, mine] + unrelated).sorted())
    }
}

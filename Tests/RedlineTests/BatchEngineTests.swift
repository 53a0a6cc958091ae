import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion

/// The batch engine on the test lines format: discovery, mirroring, failures, existing outputs,
/// up-to-date records, shards, three-way export, reports.
final class BatchEngineTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws { dir = try BatchFixture.directory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func options(_ out: String, existing: ExistingOutputs = .refuse, variants: [OutputVariant] = [.converting(.marked)],
                 jobs: Int = 4) -> BatchOptions {
        BatchOptions(from: nil, to: LinesFormat.format, variants: variants, outputDirectory: out, existing: existing,
                     jobs: jobs, toolVersion: "test")
    }

    func selection(_ paths: [String], manifest: String? = nil, exclude: [String] = []) -> InputSelection {
        InputSelection(paths: paths, manifest: manifest, include: [Glob("*.lines")], exclude: exclude.map(Glob.init),
                       skipDirectories: [dir + "/out"])
    }

    /// Runs with the lines format standing in for the registry's inference.
    func run(_ inputs: [BatchInput], _ o: BatchOptions) throws -> (records: [BatchRecord], summary: BatchSummary) {
        var o = o
        o.from = LinesFormat.format
        return try Batch.run(inputs, options: o)
    }

    func makeTree() throws {
        try BatchFixture.write("a\n+b\n", to: dir + "/in/one.lines")
        try BatchFixture.write("# Title\n-gone\n!\n", to: dir + "/in/sub/two.lines")
        try BatchFixture.write("x\n", to: dir + "/in/sub/deeper/three.lines")
        try BatchFixture.write("BAD\n", to: dir + "/in/sub/bad.lines")
        try BatchFixture.write("ignored\n", to: dir + "/in/notes.txt")
        try BatchFixture.write("hidden\n", to: dir + "/in/.hidden/four.lines")
    }

    func testDirectoryOutputsMirrorTheTreeAndFailuresAreReportedNotFatal() throws {
        try makeTree()
        let inputs = try selection([dir + "/in"]).discover()
        XCTAssertEqual(inputs.map(\.relativePath), ["one.lines", "sub/bad.lines", "sub/deeper/three.lines", "sub/two.lines"])
        let (records, summary) = try run(inputs, options(dir + "/out"))
        XCTAssertEqual(BatchFixture.files(in: dir + "/out"), ["one.lines", "sub/deeper/three.lines", "sub/two.lines"])
        XCTAssertEqual(try String(contentsOfFile: dir + "/out/one.lines", encoding: .utf8), "a\n{+b+}\n")
        XCTAssertEqual(summary.inputs, 4)
        XCTAssertEqual(summary.converted, 3)
        XCTAssertEqual(summary.failed, 1)
        let bad = try XCTUnwrap(records.first { $0.input.hasSuffix("bad.lines") })
        XCTAssertEqual(bad.status, .failed)
        XCTAssertEqual(bad.error?.kind, .malformedInput)
        XCTAssertEqual(bad.error?.message, "bad lines file")
        let two = try XCTUnwrap(records.first { $0.input.hasSuffix("two.lines") })
        XCTAssertEqual(Set(two.warnings.map(\.code.rawValue)), ["test.reader-warning", "test.lossy-heading"])
        XCTAssertEqual(summary.warnings.map(\.code.rawValue), ["test.lossy-heading", "test.reader-warning"])
    }

    func testFilesNamedDirectlyLandByNameAndManifestPathsAreKept() throws {
        try makeTree()
        try BatchFixture.write("# a manifest\none.lines\n\nsub/two.lines\n", to: dir + "/in/list.txt")
        let fromManifest = try selection([], manifest: dir + "/in/list.txt").discover()
        XCTAssertEqual(fromManifest.map(\.relativePath), ["one.lines", "sub/two.lines"])
        XCTAssertEqual(fromManifest.map(\.path), [dir + "/in/one.lines", dir + "/in/sub/two.lines"])
        let named = try selection([dir + "/in/sub/two.lines", dir + "/in/missing.lines"]).discover()
        XCTAssertEqual(named.map(\.relativePath), ["missing.lines", "two.lines"])
        XCTAssertNotNil(named[0].problem)
        let (records, _) = try run(named, options(dir + "/out"))
        XCTAssertEqual(records.first { $0.input.hasSuffix("missing.lines") }?.status, .failed)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/out/two.lines"))
    }

    func testExcludeGlobsAndOutputDirectoryInsideInputIsNotReadBack() throws {
        try makeTree()
        let inputs = try InputSelection(paths: [dir + "/in"], include: [Glob("*.lines")], exclude: [Glob("sub/deeper/")],
                                        skipDirectories: [dir + "/in/out"]).discover()
        XCTAssertEqual(inputs.map(\.relativePath), ["one.lines", "sub/bad.lines", "sub/two.lines"])
        _ = try run(inputs, options(dir + "/in/out"))
        let again = try InputSelection(paths: [dir + "/in"], include: [Glob("*.lines")],
                                       skipDirectories: [dir + "/in/out"]).discover()
        XCTAssertFalse(again.contains { $0.path.contains("/out/") })
    }

    func testExistingOutputsStopTheBatchUnlessOverwriteOrSkip() throws {
        try makeTree()
        let inputs = try selection([dir + "/in"]).discover()
        _ = try run(inputs, options(dir + "/out"))
        XCTAssertThrowsError(try run(inputs, options(dir + "/out"))) { e in
            XCTAssertEqual((e as? RedlineError)?.kind, .usage)
            XCTAssertTrue("\(e)".contains("3 outputs already exist"), "\(e)")
        }
        let (_, s) = try run(inputs, options(dir + "/out", existing: .overwrite))
        XCTAssertEqual(s.converted, 3)
    }

    func testSkipExistingRedoesOnlyWhatChanged() throws {
        try makeTree()
        let inputs = try selection([dir + "/in"]).discover()
        _ = try run(inputs, options(dir + "/out", existing: .skipUpToDate))
        var (records, summary) = try run(inputs, options(dir + "/out", existing: .skipUpToDate))
        XCTAssertEqual(summary.skipped, 3)
        XCTAssertEqual(summary.failed, 1, "a failed input is tried again")
        XCTAssertEqual(records.first { $0.input.hasSuffix("two.lines") }?.warnings.count, 2, "skipped inputs keep their warnings")

        // A line torn by a kill (no newline) is skipped, and does not swallow the next run's first line.
        let journal = dir + "/out/.redline/journal.jsonl"
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: journal))
        h.seekToEndOfFile()
        h.write(Data("{\"key\":\"one.lin".utf8))
        try h.close()
        (_, summary) = try run(inputs, options(dir + "/out", existing: .skipUpToDate))
        XCTAssertEqual(summary.skipped, 3)

        // Touched without change: still up to date. Changed content: converted again.
        try BatchFixture.write("x\n", to: dir + "/in/sub/deeper/three.lines")
        try BatchFixture.write("a\n+c\n", to: dir + "/in/one.lines")
        (records, summary) = try run(inputs, options(dir + "/out", existing: .skipUpToDate))
        XCTAssertEqual(records.filter { $0.status == .converted }.map(\.input), [dir + "/in/one.lines"])
        XCTAssertEqual(try String(contentsOfFile: dir + "/out/one.lines", encoding: .utf8), "a\n{+c+}\n")

        // An output edited or removed by hand: converted again.
        try "edited\n".write(toFile: dir + "/out/sub/two.lines", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: dir + "/out/sub/deeper/three.lines")
        (records, summary) = try run(inputs, options(dir + "/out", existing: .skipUpToDate))
        XCTAssertEqual(summary.converted, 2)
        XCTAssertEqual(summary.skipped, 1)

        // Other options: everything again.
        (_, summary) = try run(inputs, options(dir + "/out", existing: .skipUpToDate, variants: [.converting(.accept)]))
        XCTAssertEqual(summary.converted, 3)
        XCTAssertEqual(try String(contentsOfFile: dir + "/out/one.lines", encoding: .utf8), "a\nc\n")
    }

    /// Temporaries of our outputs whose process is gone (999999999 is above any pid_max) are removed; those
    /// of other targets, and those of a live process (pid 1: a shard or another run still writing), are not.
    func testStaleTemporariesOfOurOutputsAreRemovedOthersAreNot() throws {
        try makeTree()
        let inputs = try selection([dir + "/in"]).discover()
        try BatchFixture.write("partial", to: dir + "/out/.one.lines.redline-999999999-AbC123")
        try BatchFixture.write("partial", to: dir + "/out/sub/.two.lines.redline-999999999-zzzzzz")
        try BatchFixture.write("someone else's", to: dir + "/out/.other.lines.redline-999999999-AbC123")
        try BatchFixture.write("in progress", to: dir + "/out/sub/.two.lines.redline-1-AbC123")
        _ = try run(inputs, options(dir + "/out", existing: .skipUpToDate))
        XCTAssertEqual(BatchFixture.files(in: dir + "/out"),
                       [".other.lines.redline-999999999-AbC123", "one.lines", "sub/.two.lines.redline-1-AbC123",
                        "sub/deeper/three.lines", "sub/two.lines"])
    }

    func testShardsTogetherMakeExactlyOneRun() throws {
        for i in 0..<60 { try BatchFixture.write("p\(i)\n+i\(i)\n", to: dir + "/in/d\(i % 7)/f\(i).lines") }
        let all = try selection([dir + "/in"]).discover()
        let (whole, _) = try run(all, options(dir + "/whole"))
        var merged: [BatchRecord] = []
        var reports: [String] = []
        for k in 1...4 {
            let shard = try Shard(index: k, count: 4)
            let part = all.filter { shard.contains($0.relativePath) }
            XCTAssertFalse(part.isEmpty)
            var o = options(dir + "/sharded")
            o.shard = shard
            let (records, summary) = try run(part, o)
            merged += records
            reports.append(dir + "/r\(k).jsonl")
            try BatchReport.write(records, summary: summary, to: reports.last!)
        }
        XCTAssertEqual(BatchFixture.contents(of: dir + "/whole"), BatchFixture.contents(of: dir + "/sharded"))
        let m = try BatchReport.merge(reports)
        func strip(_ r: [BatchRecord]) -> [BatchRecord] {
            r.map { var x = $0; x.seconds = 0; x.outputs = x.outputs.map { .init(path: ($0.path as NSString).lastPathComponent, variant: $0.variant) }; return x }
                .sorted { $0.input < $1.input }
        }
        XCTAssertEqual(strip(m.records), strip(whole))
        XCTAssertEqual(m.summary.inputs, 60)
        XCTAssertNil(m.summary.shard)
        XCTAssertThrowsError(try BatchReport.merge([reports[0], reports[1], reports[0]]))
    }

    func testShardParsingAndStability() throws {
        XCTAssertThrowsError(try Shard(parsing: "0/4"))
        XCTAssertThrowsError(try Shard(parsing: "5/4"))
        XCTAssertThrowsError(try Shard(parsing: "2"))
        let s = try Shard(parsing: "3/8")
        XCTAssertEqual(s.description, "3/8")
        // Same path, same shard, on every machine and run: FNV-1a 64 of "a" and its 0 separator.
        XCTAssertEqual(StableHash.of("a"), 0x089b_e207_b544_f1e4)
        var counts = [Int](repeating: 0, count: 8)
        for i in 0..<8000 {
            let hits = try (1...8).filter { try Shard(index: $0, count: 8).contains("dir/file-\(i).docx") }
            XCTAssertEqual(hits.count, 1)
            counts[hits[0] - 1] += 1
        }
        XCTAssertTrue(counts.allSatisfy { (800...1200).contains($0) }, "\(counts)")
    }

    func testExportWritesThreeVersionsFromOneParse() throws {
        try BatchFixture.write("keep\n+added\n-removed\n", to: dir + "/in/doc.lines")
        let inputs = try selection([dir + "/in/doc.lines"]).discover()
        let before = LinesFormat.opens.value
        let (records, summary) = try run(inputs, options(dir + "/out", variants: try OutputVariant.threeWay()))
        XCTAssertEqual(LinesFormat.opens.value - before, 1)
        XCTAssertEqual(summary.converted, 1)
        XCTAssertEqual(records[0].outputs.map(\.variant), ["clean", "original", "marked"])
        func read(_ name: String) throws -> String { try String(contentsOfFile: dir + "/out/" + name, encoding: .utf8) }
        XCTAssertEqual(try read("doc.clean.lines"), "keep\nadded\n")
        XCTAssertEqual(try read("doc.original.lines"), "keep\nremoved\n")
        XCTAssertEqual(try read("doc.marked.lines"), "keep\n{+added+}\n{-removed-}\n")

        let renamed = try OutputVariant.threeWay(suffixes: ["", "v0", "review"])
        _ = try run(inputs, options(dir + "/out2", variants: renamed))
        XCTAssertEqual(BatchFixture.files(in: dir + "/out2"), ["doc.lines", "doc.review.lines", "doc.v0.lines"])
        XCTAssertThrowsError(try OutputVariant.threeWay(suffixes: ["a", "a", "b"]))
        XCTAssertThrowsError(try OutputVariant.threeWay(suffixes: ["a", "b"]))
    }

    func testCollidingOutputsAndSelfOverwriteAreUsageErrors() throws {
        try BatchFixture.write("a\n", to: dir + "/x/doc.lines")
        try BatchFixture.write("b\n", to: dir + "/y/doc.lines")
        let both = try selection([dir + "/x/doc.lines", dir + "/y/doc.lines"]).discover()
        XCTAssertThrowsError(try run(both, options(dir + "/out"))) { e in
            XCTAssertEqual((e as? RedlineError)?.kind, .usage)
            XCTAssertTrue("\(e)".contains("would both write"), "\(e)")
        }
        let one = try selection([dir + "/x"]).discover()
        XCTAssertThrowsError(try run(one, options(dir + "/x", existing: .overwrite))) { e in
            XCTAssertTrue("\(e)".contains("replaced by its own output"), "\(e)")
        }
        // Another input's output landing on an input: refused too.
        try BatchFixture.write("c\n", to: dir + "/z/doc.lines")
        try BatchFixture.write("d\n", to: dir + "/z/doc.txt")
        let mixed = try InputSelection(paths: [dir + "/z"], include: [Glob("*.txt"), Glob("*.lines")]).discover()
        XCTAssertThrowsError(try run(mixed, options(dir + "/z", existing: .overwrite))) { e in
            XCTAssertTrue("\(e)".contains("would both write") || "\(e)".contains("would be replaced"), "\(e)")
        }
        XCTAssertEqual(try String(contentsOfFile: dir + "/z/doc.lines", encoding: .utf8), "c\n")
        XCTAssertEqual(try String(contentsOfFile: dir + "/x/doc.lines", encoding: .utf8), "a\n")
    }

    func testUnwritableOutputDirectoryFailsAtOnceWithOneError() throws {
        try BatchFixture.write("a\n", to: dir + "/in/doc.lines")
        try BatchFixture.write("a file\n", to: dir + "/blocker")
        let inputs = try selection([dir + "/in"]).discover()
        XCTAssertThrowsError(try run(inputs, options(dir + "/blocker/out"))) { e in
            XCTAssertEqual((e as? RedlineError)?.kind, .io)
            XCTAssertTrue("\(e)".contains("cannot create the output directory \(dir!)/blocker/out"), "\(e)")
            XCTAssertTrue("\(e)".contains("not a directory"), "\(e)")
        }
    }

    func testGlobs() {
        XCTAssertTrue(Glob("*.docx").matches("a/b/c.docx"))
        XCTAssertFalse(Glob("*.docx").matches("a/b/c.md"))
        XCTAssertTrue(Glob("drafts/**/*.md").matches("drafts/x.md"))
        XCTAssertTrue(Glob("drafts/**/*.md").matches("drafts/1/2/x.md"))
        XCTAssertFalse(Glob("drafts/**/*.md").matches("old/drafts/x.md"))
        XCTAssertTrue(Glob("**/drafts/*.md").matches("old/drafts/x.md"))
        XCTAssertTrue(Glob("old/").matches("old/a/b.md"))
        XCTAssertTrue(Glob("ch[0-9]?.md").matches("ch12.md"))
        XCTAssertFalse(Glob("a/*.md").matches("a/b/c.md"))
    }

    func testReportIsJSONLinesSortedWithSummaryLast() throws {
        try makeTree()
        let inputs = try selection([dir + "/in"]).discover()
        let (records, summary) = try run(inputs, options(dir + "/out"))
        try BatchReport.write(records, summary: summary, to: dir + "/report.jsonl")
        let lines = try String(contentsOfFile: dir + "/report.jsonl", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 5)
        let objects = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(objects.map { $0["type"] as? String }, ["input", "input", "input", "input", "summary"])
        XCTAssertEqual(objects[0]["input"] as? String, dir + "/in/one.lines")
        XCTAssertEqual(objects[1]["status"] as? String, "failed")
        XCTAssertEqual((objects[1]["error"] as? [String: Any])?["kind"] as? String, "malformed-input")
        XCTAssertGreaterThan(objects[0]["seconds"] as? Double ?? 0, 0)
        XCTAssertEqual(objects[4]["failed"] as? Int, 1)
        let back = try BatchReport.read(dir + "/report.jsonl")
        XCTAssertEqual(back.records, records.sorted { $0.input < $1.input })
        XCTAssertEqual(back.summary, summary)
    }
}

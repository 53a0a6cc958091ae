import Foundation
import XCTest

/// Batches in worker processes (`--isolation processes`, the default): a worker that really crashes
/// (`REDLINE_TEST_CRASH_ON`, `BatchWorker.crashVariable`, makes it trap in the middle of writing) fails
/// only the input it was converting; the batch goes on in a new worker, leaves no temporary behind, exits 1,
/// and `--skip-existing` then converts only what is missing.
final class BatchWorkerTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-workers-\(UUID().uuidString)"
        for d in ["in/a", "in/b", "tmp"] {
            try FileManager.default.createDirectory(atPath: tmp + "/" + d, withIntermediateDirectories: true)
        }
        let docs = ["a/one.md": "# One\n\nText {++added++} here.\n", "a/crash1.md": "# Crash\n\nNever converted.\n",
                    "b/two.md": "Two {--gone--} {>>note<<}.\n", "b/crash2.md": "Also *never*.\n",
                    "b/three.md": "| a | b |\n|---|---|\n| 1 | 2 |\n", "four.md": "Four **bold**.\n"]
        for (name, text) in docs { try text.write(toFile: tmp + "/in/" + name, atomically: true, encoding: .utf8) }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    /// Runs `redline ARGS` with `environment` added (and TMPDIR pointing into the test's folder).
    private func redline(_ arguments: [String], _ environment: [String] = []) throws -> RedlineBinary.Result {
        try RedlineBinary.run(["/usr/bin/env", "TMPDIR=\(tmp!)/tmp"] + environment + [RedlineBinary.executable] + arguments,
                              raw: true)
    }

    private func files(under dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).sorted()
    }

    private func report(_ path: String) throws -> [String: [String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var byInput: [String: [String: Any]] = [:]
        for line in text.split(separator: "\n") {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            if let input = o["input"] as? String { byInput[(input as NSString).lastPathComponent] = o }
        }
        return byInput
    }

    func testACrashingInputFailsAloneAndTheBatchGoesOn() throws {
        let out = tmp + "/out", reportPath = tmp + "/report.jsonl"
        // A worker directory left by a batch killed outright (its process is gone) is removed.
        try FileManager.default.createDirectory(atPath: tmp + "/tmp/redline-worker-999999999-AbCdEf", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: tmp + "/tmp/redline-worker-999999999-AbCdEf/spill", contents: Data("x".utf8))
        // One worker: after each crash a new one must take over the rest.
        let r = try redline(["convert", tmp + "/in", "-o", out, "--to", "docx", "--jobs", "1", "--report", reportPath],
                            ["REDLINE_TEST_CRASH_ON=crash1.md,crash2.md"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let records = try report(reportPath)
        XCTAssertEqual(records.count, 6)
        for name in ["crash1.md", "crash2.md"] {
            let record = try XCTUnwrap(records[name])
            XCTAssertEqual(record["status"] as? String, "failed")
            let error = try XCTUnwrap(record["error"] as? [String: Any])
            XCTAssertEqual(error["kind"] as? String, "crashed")
            let message = try XCTUnwrap(error["message"] as? String)
            XCTAssertTrue(message.hasPrefix("crashed: signal \(SIGILL) (SIGILL) while converting \(tmp!)/in/"), message)
            XCTAssertTrue(message.contains(name) && message.contains("Fatal error"), message)
            XCTAssertTrue(r.stderr.contains("FAILED \(tmp!)/in/"), r.stderr)
        }
        for name in ["one.md", "two.md", "three.md", "four.md"] {
            XCTAssertEqual(records[name]?["status"] as? String, "converted", name)
        }
        XCTAssertEqual(files(under: out).filter { !$0.hasPrefix(".redline") },
                       ["a", "a/one.docx", "b", "b/three.docx", "b/two.docx", "four.docx"],
                       "the crashed inputs' staged outputs are removed")
        XCTAssertEqual(files(under: tmp + "/tmp"), [], "each worker's temporary directory is removed, and stale ones")
        try OOXMLValidate.assertValid(tmp + "/out/a/one.docx")

        // Resuming converts only what is missing.
        let again = try redline(["convert", tmp + "/in", "-o", out, "--to", "docx", "--skip-existing", "--report", reportPath])
        XCTAssertEqual(again.status, 0, again.stderr)
        let resumed = try report(reportPath)
        XCTAssertEqual(resumed["crash1.md"]?["status"] as? String, "converted")
        XCTAssertEqual(resumed["crash2.md"]?["status"] as? String, "converted")
        XCTAssertEqual(resumed["one.md"]?["status"] as? String, "skipped")
        XCTAssertEqual(resumed["four.md"]?["status"] as? String, "skipped")
    }

    /// Threads and worker processes write the same bytes and the same report (warnings included).
    func testThreadsAndProcessesAgree() throws {
        _ = FileManager.default.createFile(atPath: tmp + "/in/b/bad.md", contents: Data([0x41, 0xff, 0x42, 0x0a]))  // a warning
        var reports: [String] = []
        for isolation in ["threads", "processes"] {
            let out = tmp + "/out-" + isolation, reportPath = tmp + "/\(isolation).jsonl"
            let r = try redline(["convert", tmp + "/in", "-o", out, "--to", "rtf", "--isolation", isolation,
                                 "--jobs", "2", "--report", reportPath])
            XCTAssertEqual(r.status, 0, r.stderr)
            let text = try String(contentsOfFile: reportPath, encoding: .utf8)
            reports.append(text.replacingOccurrences(of: out, with: "OUT")
                .replacingOccurrences(of: #""seconds":[0-9.e-]+"#, with: "", options: .regularExpression))
        }
        XCTAssertEqual(reports[0], reports[1])
        XCTAssertTrue(reports[0].contains("\"warnings\":[{"), "a warning travels back from the worker: \(reports[0])")
        for f in files(under: tmp + "/out-threads") where f.hasSuffix(".rtf") {
            XCTAssertEqual(FileManager.default.contents(atPath: tmp + "/out-threads/" + f),
                           FileManager.default.contents(atPath: tmp + "/out-processes/" + f), f)
        }
    }

    /// Two trees to compare: pairs under `old/` and `new/` (one of them a DOCX, one that crashes a worker), and
    /// a file on each side alone.
    private func makeCompareTrees() throws {
        for d in ["old/sub", "new/sub"] {
            try FileManager.default.createDirectory(atPath: tmp + "/" + d, withIntermediateDirectories: true)
        }
        let pairs: [(String, String?, String?)] = [("one.md", "# One\n\nThe lease runs for five years.\n", "# One\n\nThe lease runs for seven years.\n"),
                     ("sub/crash.md", "Old text.\n", "New text.\n"),
                     ("sub/two.md", "Keep this. Drop that.\n", "Keep this.\n\nA new paragraph.\n"),
                     ("only-old.md", "Gone.\n", nil), ("only-new.md", nil, "Arrived.\n")]
        for (name, old, new) in pairs {
            if let old { try old.write(toFile: tmp + "/old/" + name, atomically: true, encoding: .utf8) }
            if let new { try new.write(toFile: tmp + "/new/" + name, atomically: true, encoding: .utf8) }
        }
        let docx = RepositoryPaths.root + "/Corpus/docx/tracked-changes.docx"
        let r = try redline(["convert", docx, "--changes", "reject", "-o", tmp + "/old/sub/three.docx"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let a = try redline(["convert", docx, "--changes", "accept", "-o", tmp + "/new/sub/three.docx"])
        XCTAssertEqual(a.status, 0, a.stderr)
    }

    /// A compare batch runs its pairs in worker processes too: a pair whose worker crashes fails alone
    /// (status failed, kind crashed, naming the pair), the others are compared, nothing is left behind,
    /// and `--skip-existing` then compares only that pair.
    func testACrashingPairFailsAloneInACompareBatch() throws {
        try makeCompareTrees()
        let out = tmp + "/cmp", reportPath = tmp + "/cmp.jsonl"
        let r = try redline(["compare", tmp + "/old", tmp + "/new", "-o", out, "--to", "docx", "--jobs", "1",
                             "--date", "2024-01-01T00:00:00Z", "--report", reportPath],
                            ["REDLINE_TEST_CRASH_ON=crash.md"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let records = try report(reportPath)
        XCTAssertEqual(records.count, 6)
        let crashed = try XCTUnwrap(records["crash.md"])
        XCTAssertEqual(crashed["status"] as? String, "failed")
        XCTAssertEqual(crashed["old"] as? String, tmp + "/old/sub/crash.md")
        let error = try XCTUnwrap(crashed["error"] as? [String: Any])
        XCTAssertEqual(error["kind"] as? String, "crashed")
        let message = try XCTUnwrap(error["message"] as? String)
        XCTAssertTrue(message.hasPrefix("crashed: signal \(SIGILL) (SIGILL) while comparing \(tmp!)/new/sub/crash.md"), message)
        XCTAssertTrue(message.contains("Fatal error"), message)
        for name in ["one.md", "two.md", "three.docx"] {
            XCTAssertEqual(records[name]?["status"] as? String, "converted", name)
        }
        XCTAssertEqual(records["only-old.md"]?["status"] as? String, "unpaired")
        XCTAssertEqual(records["only-new.md"]?["status"] as? String, "unpaired")
        XCTAssertEqual(files(under: out).filter { !$0.hasPrefix(".redline") },
                       ["one.docx", "sub", "sub/three.docx", "sub/two.docx"], "the crashed pair's staged output is removed")
        XCTAssertEqual(files(under: tmp + "/tmp"), [], "each worker's temporary directory is removed")
        try OOXMLValidate.assertValid(out + "/sub/three.docx")

        let again = try redline(["compare", tmp + "/old", tmp + "/new", "-o", out, "--to", "docx", "--skip-existing",
                                 "--date", "2024-01-01T00:00:00Z", "--report", reportPath])
        XCTAssertEqual(again.status, 0, again.stderr)
        let resumed = try report(reportPath)
        XCTAssertEqual(resumed["crash.md"]?["status"] as? String, "converted")
        XCTAssertEqual(resumed["one.md"]?["status"] as? String, "skipped")
        XCTAssertEqual(resumed["three.docx"]?["status"] as? String, "skipped")
    }

    /// A compare batch writes the same bytes and the same report (warnings and counts included) on threads
    /// and in worker processes, Markdown and DOCX alike.
    func testCompareThreadsAndProcessesAgree() throws {
        try makeCompareTrees()
        for to in ["md", "docx"] {
            var reports: [String] = []
            for isolation in ["threads", "processes"] {
                let out = tmp + "/cmp-\(to)-" + isolation, reportPath = tmp + "/\(to)-\(isolation).jsonl"
                let r = try redline(["compare", tmp + "/old", tmp + "/new", "-o", out, "--to", to, "--isolation", isolation,
                                     "--jobs", "2", "--date", "2024-01-01T00:00:00Z", "--report", reportPath])
                XCTAssertEqual(r.status, 0, r.stderr)
                let text = try String(contentsOfFile: reportPath, encoding: .utf8)
                reports.append(text.replacingOccurrences(of: out, with: "OUT")
                    .replacingOccurrences(of: #""seconds":[0-9.e-]+"#, with: "", options: .regularExpression))
            }
            XCTAssertEqual(reports[0], reports[1], to)
            XCTAssertTrue(reports[0].contains("\"stats\":{"), "the counts travel back from the worker: \(reports[0])")
            if to == "md" {
                XCTAssertTrue(reports[0].contains("\"warnings\":[{"), "a warning travels back from the worker: \(reports[0])")
            }
            let written = files(under: tmp + "/cmp-\(to)-threads").filter { $0.hasSuffix("." + to) }
            XCTAssertEqual(written.count, 4, "\(written)")
            for f in written {
                XCTAssertEqual(FileManager.default.contents(atPath: tmp + "/cmp-\(to)-threads/" + f),
                               FileManager.default.contents(atPath: tmp + "/cmp-\(to)-processes/" + f), f)
            }
        }
    }

    /// The hidden worker command refuses to run without a batch on the other end.
    func testWorkerByHandIsAUsageError() throws {
        let r = try RedlineBinary.run(["batch-worker"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("started by a batch"), r.stderr)
    }
}

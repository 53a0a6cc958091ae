import Foundation
import XCTest
import Redline

/// The `redline` binary in batch mode, as scripts and clusters run it: hostile inputs, SIGKILL and
/// resume, unwritable output, shards and merged reports, export, and check's outputs and exit codes.
final class BatchCommandTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws { dir = try BatchFixture.directory() }
    override func tearDownWithError() throws {
        _ = try? RedlineBinary.run(["/bin/chmod", "-R", "u+rwX", dir], raw: true)
        try? FileManager.default.removeItem(atPath: dir)
    }

    func requireFormats(_ names: String...) throws {
        for n in names {
            guard let f = FormatRegistry.named(n), f.reader != nil, f.writer != nil else {
                throw FormatMissing("the \(n) reader and writer are not registered yet")
            }
        }
    }

    /// Writes `count` small Markdown documents with tracked changes and comments under `root`.
    func writeMarkdown(_ count: Int, under root: String, paragraphs: Int = 3) throws {
        for i in 0..<count {
            var text = "# Document \(i)\n\n"
            for p in 0..<paragraphs {
                text += "Paragraph \(p) of \(i) has {++an insertion++} and {--a deletion--} and "
                    + "{==a remark==}{>>Ann: check \(i).\(p)<<}.\n\n"
            }
            try BatchFixture.write(text, to: root + "/d\(i % 10)/doc\(i).md")
        }
    }

    // MARK: Reliability

    /// 1,000 DOCX of which 100 are corrupt or hostile: the batch finishes, reports each failure by
    /// name and reason, and converts every good one.
    func testThousandDocumentsWithTenPercentHostileFinishAndReportEachFailure() throws {
        guard FormatRegistry.named("docx")?.reader != nil else { throw FormatMissing("the DOCX reader is not registered yet") }
        let target = FormatRegistry.named("md")?.writer != nil ? "md" : "docx"
        let input = dir + "/in"
        try BatchFixture.write("", to: input + "/.keep")
        let made = try RedlineBinary.run(["/usr/bin/python3", "-c", RedlineBinary.makeDocxScript, input + "/good", "900"], raw: true)
        try XCTSkipIf(made.status != 0, "python3 could not write DOCX fixtures: \(made.stderr)")

        let bad = RepositoryPaths.root + "/Corpus/bad/"
        let hostile: [(String, (String) throws -> Void)] = [
            ("truncated", { try FileManager.default.copyItem(atPath: bad + "truncated.docx", toPath: $0) }),
            ("not-a-zip", { try FileManager.default.copyItem(atPath: bad + "not-a-zip.docx", toPath: $0) }),
            ("zip-bomb", { try FileManager.default.copyItem(atPath: bad + "zip-bomb.docx", toPath: $0) }),
            ("xxe", { try FileManager.default.copyItem(atPath: bad + "xxe.docx", toPath: $0) }),
            ("billion-laughs", { try FileManager.default.copyItem(atPath: bad + "billion-laughs.docx", toPath: $0) }),
            ("malformed-xml", { try FileManager.default.copyItem(atPath: bad + "malformed-xml.docx", toPath: $0) }),
            ("wrong-extension-rtf", { try "{\\rtf1\\ansi Hello}".write(toFile: $0, atomically: false, encoding: .utf8) }),
            ("wrong-extension-doc", { try FileManager.default.copyItem(atPath: bad + "legacy.doc", toPath: $0) }),
            ("empty", { try Data().write(to: URL(fileURLWithPath: $0)) }),
            ("unreadable", { path in
                try FileManager.default.copyItem(atPath: bad + "good.docx", toPath: path)
                chmod(path, 0)
            }),
        ]
        var badPaths: [String: String] = [:]
        for i in 0..<100 {
            let (kind, make) = hostile[i % hostile.count]
            let path = input + "/bad/\(kind)-\(i).docx"
            try FileManager.default.createDirectory(atPath: input + "/bad", withIntermediateDirectories: true)
            try make(path)
            badPaths[path] = kind
        }
        // Unreadable files mean nothing to root, so as root the batch runs as nobody (setpriv).
        let asNobody = getuid() == 0
        if asNobody {
            try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "running as root without setpriv")
            _ = try RedlineBinary.run(["/bin/chmod", "-R", "a+rwX", dir], raw: true)
            for (p, kind) in badPaths where kind == "unreadable" { chmod(p, 0) }
        }
        let r = try RedlineBinary.run(["convert", input, "-o", dir + "/out", "--to", target, "--report", dir + "/report.jsonl"],
                                 asNobody: asNobody)
        XCTAssertEqual(r.status, 1, r.stderr.suffix(2000).description)
        let report = try BatchReport.read(dir + "/report.jsonl")
        let summary = try XCTUnwrap(report.summary)
        XCTAssertEqual(summary.inputs, 1000)
        XCTAssertEqual(summary.converted, 900, r.stderr.suffix(3000).description)
        XCTAssertEqual(summary.failed, 100)
        for record in report.records {
            if let kind = badPaths[record.input] {
                XCTAssertEqual(record.status, .failed, "\(kind): \(record)")
                let message = try XCTUnwrap(record.error?.message, kind)
                XCTAssertFalse(message.isEmpty, kind)
                XCTAssertTrue(r.stderr.contains("FAILED \(record.input): "), kind)
                XCTAssertTrue(record.outputs.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }, kind)
                if kind == "unreadable" { XCTAssertTrue(message.contains("ermission"), message) }
            } else {
                XCTAssertEqual(record.status, .converted, "\(record)")
                let out = try XCTUnwrap(record.outputs.first?.path)
                XCTAssertGreaterThan((try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0, 0, out)
            }
        }
        XCTAssertEqual(BatchFixture.files(in: dir + "/out").count, 900)
    }

    /// SIGKILL part way, then `--skip-existing`: the outputs equal an uninterrupted run's, and no
    /// partial or temporary file is left.
    func testKilledBatchResumesToTheSameOutputsWithNoTemporaries() throws {
        // Markdown inputs when the Markdown format is there, else DOCX (the mechanism is the same).
        let format: String
        if let md = FormatRegistry.named("md"), md.reader != nil, md.writer != nil {
            try writeMarkdown(1000, under: dir + "/in", paragraphs: 40)
            format = "md"
        } else if let docx = FormatRegistry.named("docx"), docx.reader != nil, docx.writer != nil {
            let made = try RedlineBinary.run(["/usr/bin/python3", "-c", RedlineBinary.makeDocxScript, dir + "/in", "1000"], raw: true)
            try XCTSkipIf(made.status != 0, "python3 could not write DOCX fixtures: \(made.stderr)")
            format = "docx"
        } else {
            throw FormatMissing("no format reads and writes")
        }
        let whole = try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/whole", "-j", "2", "--changes", "accept",
                                      "--to", format])
        XCTAssertEqual(whole.status, 0, whole.stderr.suffix(1000).description)

        let args = ["convert", dir + "/in", "-o", dir + "/resumed", "-j", "2", "--changes", "accept", "--skip-existing",
                    "--to", format, "--report", dir + "/resumed.jsonl"]
        let process = try RedlineBinary.start(args)
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline
                && BatchFixture.files(in: dir + "/resumed").filter({ $0.hasSuffix("." + format) }).count < 300 {
            usleep(2000)
        }
        XCTAssertTrue(process.isRunning, "the batch finished before it could be killed; make the inputs larger")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        let partial = BatchFixture.files(in: dir + "/resumed").filter { !$0.contains(".redline-") }.count
        XCTAssertLessThan(partial, 1000)

        let again = try RedlineBinary.run(args)
        XCTAssertEqual(again.status, 0, again.stderr.suffix(1000).description)
        let summary = try XCTUnwrap(BatchReport.read(dir + "/resumed.jsonl").summary)
        XCTAssertGreaterThan(summary.skipped, 0)
        XCTAssertGreaterThan(summary.converted, 0)
        XCTAssertEqual(summary.skipped + summary.converted, 1000)
        XCTAssertEqual(BatchFixture.contents(of: dir + "/resumed"), BatchFixture.contents(of: dir + "/whole"))
        let leftovers = BatchFixture.files(in: dir + "/resumed", includingRecords: true).filter { $0.contains(".redline-") }
        XCTAssertEqual(leftovers, [])
    }

    func testUnwritableOutputDirectoryIsOneClearErrorAtOnce() throws {
        try requireFormats("md")
        try writeMarkdown(5, under: dir + "/in")
        try BatchFixture.write("a file", to: dir + "/blocker")
        let r = try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/blocker/out"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot create the output directory"), r.stderr)

        if getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            // A directory only root may write, and the batch run as nobody.
            _ = try RedlineBinary.run(["/bin/chmod", "-R", "a+rX", dir], raw: true)
            try FileManager.default.createDirectory(atPath: dir + "/locked", withIntermediateDirectories: true)
            chmod(dir + "/locked", 0o755)
            let denied = try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/locked"], asNobody: true)
            XCTAssertEqual(denied.status, 1)
            XCTAssertEqual(denied.stderr, "redline: error: cannot write in \(dir!)/locked: Permission denied\n")
            XCTAssertEqual(BatchFixture.files(in: dir + "/locked"), [])
        }
    }

    // MARK: Shards, reports, progress

    func testShardsThroughTheCommandLineMergeIntoOneRun() throws {
        try requireFormats("md")
        try writeMarkdown(40, under: dir + "/in")
        let one = try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/one", "--report", dir + "/one.jsonl"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stderr.contains("[40/40] ok "), one.stderr)
        for k in 1...3 {
            let r = try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/one", "--shard", "\(k)/3",
                                      "--report", dir + "/s\(k).jsonl", "--overwrite", "-q"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("(shard \(k)/3)"), r.stderr)
        }
        let merged = try RedlineBinary.run(["report", "merge", dir + "/s1.jsonl", dir + "/s2.jsonl", dir + "/s3.jsonl",
                                       "-o", dir + "/merged.jsonl"])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        func strip(_ path: String) throws -> [BatchRecord] {
            try BatchReport.read(path).records.map { var r = $0; r.seconds = 0; return r }
        }
        XCTAssertEqual(try strip(dir + "/merged.jsonl"), try strip(dir + "/one.jsonl"))
        let overlap = try RedlineBinary.run(["report", "merge", dir + "/s1.jsonl", dir + "/s1.jsonl"])
        XCTAssertEqual(overlap.status, 1)
        XCTAssertEqual(try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/x", "--shard", "4/3"]).status, 2)
    }

    func testExistingOutputsAndBadFlagsAreUsageErrors() throws {
        try requireFormats("md")
        try writeMarkdown(3, under: dir + "/in")
        XCTAssertEqual(try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/out"]).status, 0)
        let again = try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/out"])
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.contains("3 outputs already exist"), again.stderr)
        XCTAssertEqual(try RedlineBinary.run(["convert", dir + "/in", "-o", dir + "/out", "--overwrite", "--skip-existing"]).status, 2)
        XCTAssertEqual(try RedlineBinary.run(["convert", dir + "/in"]).status, 2, "several inputs need -o DIR")
    }

    // MARK: Export

    func testExportWritesCleanOriginalAndMarkedFromOneCommand() throws {
        try requireFormats("md")
        try BatchFixture.write("Keep {++new++}{--old--} text.{>>Ann: why?<<}\n", to: dir + "/draft.md")
        let r = try RedlineBinary.run(["export", dir + "/draft.md", "--to", "md", "-o", dir + "/v"])
        XCTAssertEqual(r.status, 0, r.stderr)
        func read(_ n: String) throws -> String { try String(contentsOfFile: dir + "/v/" + n, encoding: .utf8) }
        XCTAssertEqual(try read("draft.clean.md"), "Keep new text.\n")
        XCTAssertEqual(try read("draft.original.md"), "Keep old text.\n")
        XCTAssertTrue(try read("draft.marked.md").contains("{++new++}"))
        XCTAssertTrue(try read("draft.marked.md").contains("{>>"))
        let named = try RedlineBinary.run(["export", dir + "/draft.md", "-o", dir + "/w", "--names", ",was,review"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(BatchFixture.files(in: dir + "/w"), ["draft.md", "draft.review.md", "draft.was.md"])
        XCTAssertEqual(try RedlineBinary.run(["export", dir + "/draft.md", "-o", dir + "/z", "--names", "a,b"]).status, 2)
    }

    // MARK: Check

    func testCheckFailsOnlyOnWhatFailOnNames() throws {
        try requireFormats("md")
        try BatchFixture.write("# Intro\n\nSee [intro](#intro). Keep {++new++} text.{>>Ann: why?<<}\n", to: dir + "/a.md")
        try BatchFixture.write("# Clean\n\nNothing to see.\n", to: dir + "/b.md")
        XCTAssertEqual(try RedlineBinary.run(["check", dir + "/a.md", dir + "/b.md"]).status, 0)
        let changes = try RedlineBinary.run(["check", dir + "/a.md", dir + "/b.md", "--fail-on", "changes"])
        XCTAssertEqual(changes.status, 1)
        XCTAssertTrue(changes.stdout.contains("\(dir!)/a.md: FAILED (changes)"), changes.stdout)
        XCTAssertTrue(changes.stdout.contains("\(dir!)/b.md: clean"), changes.stdout)
        XCTAssertEqual(try RedlineBinary.run(["check", dir + "/b.md", "--fail-on", "all"]).status, 0)
        XCTAssertEqual(try RedlineBinary.run(["check", dir + "/a.md", "--fail-on", "nonsense"]).status, 2)
        XCTAssertEqual(try RedlineBinary.run(["check", dir + "/missing.md"]).status, 1)

        let json = try RedlineBinary.run(["check", dir, "--format", "json", "--fail-on", "comments"])
        XCTAssertEqual(json.status, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((object["files"] as? [Any])?.count, 2)

        let github = try RedlineBinary.run(["check", dir + "/a.md", "--format", "github", "--fail-on", "comments"])
        // Markdown findings carry their line and column (GitHub shows them on that line of the diff).
        XCTAssertTrue(github.stdout.contains("::error file=\(dir!)/a.md,line="), github.stdout)
        XCTAssertTrue(github.stdout.contains(",title=redline comments::"), github.stdout)
        // The comment's own position: line 3, column 42 is its "{>>" (the insertion's "{++" is column 27).
        XCTAssertTrue(github.stdout.contains("::error file=\(dir!)/a.md,line=3,col=42,title=redline comments::paragraph 2"), github.stdout)
        XCTAssertTrue(github.stdout.contains("::warning file=\(dir!)/a.md,line=3,col=27,title=redline changes::paragraph 2"), github.stdout)

        let junit = try RedlineBinary.run(["check", dir + "/a.md", dir + "/b.md", "--format", "junit", "-o", dir + "/j.xml",
                                      "--fail-on", "changes"])
        XCTAssertEqual(junit.status, 1)
        let xml = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
        XCTAssertTrue(xml.contains("<testsuites name=\"redline check\" tests=\"10\" failures=\"1\" errors=\"0\">"), xml)
    }

    /// Real Word documents from ../shared/corpus: changes and comments found, failing only when named;
    /// a link to a bookmark (which the DOCX reader does not keep) is not called broken.
    func testCheckOnRealDocx() throws {
        guard FormatRegistry.named("docx")?.reader != nil else { throw FormatMissing("the DOCX reader is not registered yet") }
        let corpus = RepositoryPaths.root + "/../shared/corpus/"
        let files = ["pandoc/track_changes_scrubbed_metadata.docx", "mammoth.js/comments.docx", "python-docx/par-hlink-frags.docx"]
            .map { corpus + $0 }
        try XCTSkipIf(!files.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the shared corpus is not beside the repository")
        XCTAssertEqual(try RedlineBinary.run(["check"] + files).status, 0, "links and footnotes are fine")
        let r = try RedlineBinary.run(["check"] + files + ["--fail-on", "changes,comments", "--format", "json"])
        XCTAssertEqual(r.status, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        var codes: [String: [String]] = [:]
        for f in object["files"] as? [[String: Any]] ?? [] {
            let name = ((f["input"] as? String) ?? "" as String).components(separatedBy: "/").last ?? ""
            codes[name] = (f["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        XCTAssertEqual(codes["track_changes_scrubbed_metadata.docx"], ["change.substitution", "comment.open"])
        XCTAssertEqual(codes["comments.docx"], ["comment.open", "comment.open"])
        XCTAssertEqual(codes["par-hlink-frags.docx"], ["link.unverified"])
    }

    func testCheckLossyRunsTheConversionAndReportsItsWarnings() throws {
        try requireFormats("md", "gfm")
        try BatchFixture.write("Text {++new++}.{>>Ann: a comment<<}\n", to: dir + "/a.md")
        try BatchFixture.write("Plain text.\n", to: dir + "/b.md")
        let report = try RedlineBinary.run(["check", dir + "/a.md", "--lossy", "md->gfm", "--format", "json"])
        XCTAssertEqual(report.status, 0, "--lossy reports without failing: \(report.stdout)")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let file = try XCTUnwrap((object["files"] as? [[String: Any]])?.first)
        XCTAssertEqual((file["checked"] as? [String])?.last, "lossy:md->gfm")
        let lossy = (file["findings"] as? [[String: Any]] ?? []).filter { ($0["category"] as? String) == "lossy:md->gfm" }
        XCTAssertEqual(lossy.count, 2, report.stdout)
        XCTAssertTrue(lossy.allSatisfy { ($0["failing"] as? Bool) == false })

        let fail = try RedlineBinary.run(["check", dir + "/a.md", dir + "/b.md", "--fail-on", "lossy:md->gfm"])
        XCTAssertEqual(fail.status, 1, fail.stdout)
        XCTAssertTrue(fail.stdout.contains("\(dir!)/a.md: FAILED (lossy:md->gfm)"), fail.stdout)
        XCTAssertTrue(fail.stdout.contains("\(dir!)/b.md: clean"), fail.stdout)
        // A target for another input format does not apply to Markdown inputs.
        XCTAssertEqual(try RedlineBinary.run(["check", dir + "/a.md", "--fail-on", "lossy:docx->gfm"]).status, 0)
    }
}


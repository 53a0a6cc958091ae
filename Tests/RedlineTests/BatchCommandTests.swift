import Foundation
import XCTest
import Redline

/// The `redline` binary in batch mode, as scripts and clusters run it: hostile inputs, SIGKILL and
/// resume, unwritable output, shards and merged reports, export, and check's outputs and exit codes.
final class BatchCommandTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws { dir = try BatchFixture.directory() }
    override func tearDownWithError() throws {
        _ = try? BatchCLI.run(["/bin/chmod", "-R", "u+rwX", dir], raw: true)
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
        let made = try BatchCLI.run(["/usr/bin/python3", "-c", BatchCLI.makeDocxScript, input + "/good", "900"], raw: true)
        try XCTSkipIf(made.status != 0, "python3 could not write DOCX fixtures: \(made.stderr)")

        let bad = RepositoryRoot.path + "/Corpus/bad/"
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
            _ = try BatchCLI.run(["/bin/chmod", "-R", "a+rwX", dir], raw: true)
            for (p, kind) in badPaths where kind == "unreadable" { chmod(p, 0) }
        }
        let r = try BatchCLI.run(["convert", input, "-o", dir + "/out", "--to", target, "--report", dir + "/report.jsonl"],
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
            let made = try BatchCLI.run(["/usr/bin/python3", "-c", BatchCLI.makeDocxScript, dir + "/in", "1000"], raw: true)
            try XCTSkipIf(made.status != 0, "python3 could not write DOCX fixtures: \(made.stderr)")
            format = "docx"
        } else {
            throw XCTSkip("no format reads and writes yet")
        }
        let whole = try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/whole", "-j", "2", "--changes", "accept",
                                      "--to", format])
        XCTAssertEqual(whole.status, 0, whole.stderr.suffix(1000).description)

        let args = ["convert", dir + "/in", "-o", dir + "/resumed", "-j", "2", "--changes", "accept", "--skip-existing",
                    "--to", format, "--report", dir + "/resumed.jsonl"]
        let process = try BatchCLI.start(args)
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

        let again = try BatchCLI.run(args)
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
        let r = try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/blocker/out"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot create the output directory"), r.stderr)

        if getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            // A directory only root may write, and the batch run as nobody.
            _ = try BatchCLI.run(["/bin/chmod", "-R", "a+rX", dir], raw: true)
            try FileManager.default.createDirectory(atPath: dir + "/locked", withIntermediateDirectories: true)
            chmod(dir + "/locked", 0o755)
            let denied = try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/locked"], asNobody: true)
            XCTAssertEqual(denied.status, 1)
            XCTAssertEqual(denied.stderr, "redline: error: cannot write in \(dir!)/locked: Permission denied\n")
            XCTAssertEqual(BatchFixture.files(in: dir + "/locked"), [])
        }
    }

    // MARK: Shards, reports, progress

    func testShardsThroughTheCommandLineMergeIntoOneRun() throws {
        try requireFormats("md")
        try writeMarkdown(40, under: dir + "/in")
        let one = try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/one", "--report", dir + "/one.jsonl"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stderr.contains("[40/40] ok "), one.stderr)
        for k in 1...3 {
            let r = try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/one", "--shard", "\(k)/3",
                                      "--report", dir + "/s\(k).jsonl", "--overwrite", "-q"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("(shard \(k)/3)"), r.stderr)
        }
        let merged = try BatchCLI.run(["report", "merge", dir + "/s1.jsonl", dir + "/s2.jsonl", dir + "/s3.jsonl",
                                       "-o", dir + "/merged.jsonl"])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        func strip(_ path: String) throws -> [BatchRecord] {
            try BatchReport.read(path).records.map { var r = $0; r.seconds = 0; return r }
        }
        XCTAssertEqual(try strip(dir + "/merged.jsonl"), try strip(dir + "/one.jsonl"))
        let overlap = try BatchCLI.run(["report", "merge", dir + "/s1.jsonl", dir + "/s1.jsonl"])
        XCTAssertEqual(overlap.status, 1)
        XCTAssertEqual(try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/x", "--shard", "4/3"]).status, 2)
    }

    func testExistingOutputsAndBadFlagsAreUsageErrors() throws {
        try requireFormats("md")
        try writeMarkdown(3, under: dir + "/in")
        XCTAssertEqual(try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/out"]).status, 0)
        let again = try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/out"])
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.contains("3 outputs already exist"), again.stderr)
        XCTAssertEqual(try BatchCLI.run(["convert", dir + "/in", "-o", dir + "/out", "--overwrite", "--skip-existing"]).status, 2)
        XCTAssertEqual(try BatchCLI.run(["convert", dir + "/in"]).status, 2, "several inputs need -o DIR")
    }

    // MARK: Export

    func testExportWritesCleanOriginalAndMarkedFromOneCommand() throws {
        try requireFormats("md")
        try BatchFixture.write("Keep {++new++}{--old--} text.{>>Ann: why?<<}\n", to: dir + "/draft.md")
        let r = try BatchCLI.run(["export", dir + "/draft.md", "--to", "md", "-o", dir + "/v"])
        XCTAssertEqual(r.status, 0, r.stderr)
        func read(_ n: String) throws -> String { try String(contentsOfFile: dir + "/v/" + n, encoding: .utf8) }
        XCTAssertEqual(try read("draft.clean.md"), "Keep new text.\n")
        XCTAssertEqual(try read("draft.original.md"), "Keep old text.\n")
        XCTAssertTrue(try read("draft.marked.md").contains("{++new++}"))
        XCTAssertTrue(try read("draft.marked.md").contains("{>>"))
        let named = try BatchCLI.run(["export", dir + "/draft.md", "-o", dir + "/w", "--names", ",was,review"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(BatchFixture.files(in: dir + "/w"), ["draft.md", "draft.review.md", "draft.was.md"])
        XCTAssertEqual(try BatchCLI.run(["export", dir + "/draft.md", "-o", dir + "/z", "--names", "a,b"]).status, 2)
    }

    // MARK: Check

    func testCheckFailsOnlyOnWhatFailOnNames() throws {
        try requireFormats("md")
        try BatchFixture.write("# Intro\n\nSee [intro](#intro). Keep {++new++} text.{>>Ann: why?<<}\n", to: dir + "/a.md")
        try BatchFixture.write("# Clean\n\nNothing to see.\n", to: dir + "/b.md")
        XCTAssertEqual(try BatchCLI.run(["check", dir + "/a.md", dir + "/b.md"]).status, 0)
        let changes = try BatchCLI.run(["check", dir + "/a.md", dir + "/b.md", "--fail-on", "changes"])
        XCTAssertEqual(changes.status, 1)
        XCTAssertTrue(changes.stdout.contains("\(dir!)/a.md: FAILED (changes)"), changes.stdout)
        XCTAssertTrue(changes.stdout.contains("\(dir!)/b.md: clean"), changes.stdout)
        XCTAssertEqual(try BatchCLI.run(["check", dir + "/b.md", "--fail-on", "all"]).status, 0)
        XCTAssertEqual(try BatchCLI.run(["check", dir + "/a.md", "--fail-on", "nonsense"]).status, 2)
        XCTAssertEqual(try BatchCLI.run(["check", dir + "/missing.md"]).status, 1)

        let json = try BatchCLI.run(["check", dir, "--format", "json", "--fail-on", "comments"])
        XCTAssertEqual(json.status, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((object["files"] as? [Any])?.count, 2)

        let github = try BatchCLI.run(["check", dir + "/a.md", "--format", "github", "--fail-on", "comments"])
        XCTAssertTrue(github.stdout.contains("::error file=\(dir!)/a.md,title=redline comments::"), github.stdout)
        XCTAssertTrue(github.stdout.contains("::warning file=\(dir!)/a.md,title=redline changes::"), github.stdout)

        let junit = try BatchCLI.run(["check", dir + "/a.md", dir + "/b.md", "--format", "junit", "-o", dir + "/j.xml",
                                      "--fail-on", "changes"])
        XCTAssertEqual(junit.status, 1)
        let xml = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
        XCTAssertTrue(xml.contains("<testsuites name=\"redline check\" tests=\"10\" failures=\"1\" errors=\"0\">"), xml)
    }

    /// Real Word documents from ../shared/corpus: changes and comments found, failing only when named;
    /// a link to a bookmark (which the DOCX reader does not keep) is not called broken.
    func testCheckOnRealDocx() throws {
        guard FormatRegistry.named("docx")?.reader != nil else { throw FormatMissing("the DOCX reader is not registered yet") }
        let corpus = RepositoryRoot.path + "/../shared/corpus/"
        let files = ["pandoc/track_changes_scrubbed_metadata.docx", "mammoth.js/comments.docx", "python-docx/par-hlink-frags.docx"]
            .map { corpus + $0 }
        try XCTSkipIf(!files.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the shared corpus is not beside the repository")
        XCTAssertEqual(try BatchCLI.run(["check"] + files).status, 0, "links and footnotes are fine")
        let r = try BatchCLI.run(["check"] + files + ["--fail-on", "changes,comments", "--format", "json"])
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
        let report = try BatchCLI.run(["check", dir + "/a.md", "--lossy", "md->gfm", "--format", "json"])
        XCTAssertEqual(report.status, 0, "--lossy reports without failing: \(report.stdout)")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let file = try XCTUnwrap((object["files"] as? [[String: Any]])?.first)
        XCTAssertEqual((file["checked"] as? [String])?.last, "lossy:md->gfm")
        let lossy = (file["findings"] as? [[String: Any]] ?? []).filter { ($0["category"] as? String) == "lossy:md->gfm" }
        XCTAssertEqual(lossy.count, 2, report.stdout)
        XCTAssertTrue(lossy.allSatisfy { ($0["failing"] as? Bool) == false })

        let fail = try BatchCLI.run(["check", dir + "/a.md", dir + "/b.md", "--fail-on", "lossy:md->gfm"])
        XCTAssertEqual(fail.status, 1, fail.stdout)
        XCTAssertTrue(fail.stdout.contains("\(dir!)/a.md: FAILED (lossy:md->gfm)"), fail.stdout)
        XCTAssertTrue(fail.stdout.contains("\(dir!)/b.md: clean"), fail.stdout)
        // A target for another input format does not apply to Markdown inputs.
        XCTAssertEqual(try BatchCLI.run(["check", dir + "/a.md", "--fail-on", "lossy:docx->gfm"]).status, 0)
    }
}

/// Runs the built `redline` (`.build/<config>/redline`, beside the test bundle) with output in files.
enum BatchCLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: String {
        let bundle = Bundle.main.bundleURL.path
        let candidates = [(bundle as NSString).deletingLastPathComponent + "/redline", bundle + "/redline",
                          RepositoryRoot.path + "/.build/debug/redline"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    /// Runs `redline ARGS` (or, with `raw`, the program ARGS[0]); `asNobody` drops to uid 65534 first.
    static func run(_ arguments: [String], raw: Bool = false, asNobody: Bool = false) throws -> Result {
        let out = NSTemporaryDirectory() + "redline-cli-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: out + ".out", contents: nil)
        FileManager.default.createFile(atPath: out + ".err", contents: nil)
        defer { unlink(out + ".out"); unlink(out + ".err") }
        let p = process(raw ? arguments : [executable] + arguments, asNobody: asNobody)
        p.standardOutput = FileHandle(forWritingAtPath: out + ".out")
        p.standardError = FileHandle(forWritingAtPath: out + ".err")
        try p.run()
        p.waitUntilExit()
        func read(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Result(status: p.terminationStatus, stdout: read(out + ".out"), stderr: read(out + ".err"))
    }

    /// Starts `redline ARGS` with its output discarded (to be killed).
    static func start(_ arguments: [String]) throws -> Process {
        let p = process([executable] + arguments, asNobody: false)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    private static func process(_ command: [String], asNobody: Bool) -> Process {
        let p = Process()
        let full = asNobody ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command : command
        p.executableURL = URL(fileURLWithPath: full[0])
        p.arguments = Array(full.dropFirst())
        p.standardInput = FileHandle.nullDevice
        return p
    }

    /// Python that writes N small, different DOCX files (with tracked changes and a comment) into a directory.
    static let makeDocxScript = #"""
import os, sys, zipfile
out, n = sys.argv[1], int(sys.argv[2])
W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
CT = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      '<Default Extension="xml" ContentType="application/xml"/>'
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
for i in range(n):
    d = os.path.join(out, 'batch%d' % (i % 10))
    os.makedirs(d, exist_ok=True)
    body = ''.join('<w:p><w:r><w:t xml:space="preserve">Paragraph %d of document %d </w:t></w:r>'
                   '<w:ins w:id="%d" w:author="Ann" w:date="2024-01-15T14:30:00Z"><w:r><w:t>added</w:t></w:r></w:ins>'
                   '<w:del w:id="%d" w:author="Bob"><w:r><w:delText>removed</w:delText></w:r></w:del></w:p>' % (p, i, 2 * p + 1, 2 * p + 2)
                   for p in range(5))
    doc = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="%s"><w:body>%s</w:body></w:document>' % (W, body)
    with zipfile.ZipFile(os.path.join(d, 'doc%04d.docx' % i), 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr('[Content_Types].xml', CT)
        z.writestr('_rels/.rels', RELS)
        z.writestr('word/document.xml', doc)
"""#
}

/// The repository root (three levels above this file).
enum RepositoryRoot {
    static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}

import Foundation
import XCTest

/// Inputs hostile testing found (issue 15), through the `redline` binary: one readable result or error and
/// an exit status, never a crash, in every output format, from a file, standard input and a batch.
final class HostileInputTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    private func write(_ bytes: [UInt8], _ name: String) -> String {
        let path = tmp + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func testInvalidUTF8InAttributionConvertsToEveryFormat() throws {
        let input = write(Array("{>>@".utf8) + [0xFF] + Array("<<}\n\nText {++x++}{>>@A".utf8) + [0xC3] + Array(" | b<<}\n".utf8), "p.md")
        for format in ["md", "gfm", "html", "docx", "rtf"] {
            for changes in ["marked", "accept", "reject"] {
                let r = try RedlineBinary.run(["convert", input, "-o", tmp + "/out.\(format)", "--to", format, "--changes", changes])
                XCTAssertEqual(r.status, 0, "\(format) \(changes): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("markdown.invalid-utf8"), r.stderr)
            }
        }
        let viaStdin = try RedlineBinary.run(["/bin/sh", "-c", "'\(RedlineBinary.executable)' convert - --from md --to docx -o '\(tmp!)/stdin.docx' < '\(input)'"], raw: true)
        XCTAssertEqual(viaStdin.status, 0, viaStdin.stderr)
        // A batch: the file converts with its warning, its neighbours too.
        try FileManager.default.createDirectory(atPath: tmp + "/in", withIntermediateDirectories: true)
        for k in 0..<3 { try "ok \(k)\n".write(toFile: tmp + "/in/\(k).md", atomically: true, encoding: .utf8) }
        _ = write(Array("{>>@".utf8) + [0xFF] + Array("<<}".utf8), "in/bad.md")
        let batch = try RedlineBinary.run(["convert", tmp + "/in", "-o", tmp + "/out", "--to", "docx"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp + "/out").filter { !$0.hasPrefix(".") }.sorted(),
                       ["0.docx", "1.docx", "2.docx", "bad.docx"])
    }

    func testInputsThatAreNotRegularFilesAreLimited() throws {
        for ext in ["md", "rtf", "docx"] {
            let link = tmp + "/zero." + ext
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
            let r = try RedlineBinary.run(["convert", link, "-o", tmp + "/out.html"])
            XCTAssertEqual(r.status, 1, r.stderr)
            if ext == "md" { XCTAssertTrue(r.stderr.contains("Limits.maxStreamedInputBytes"), r.stderr) }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out.html"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp).filter { $0.contains(".redline-") }, [])
    }

    func testDirectoryIntoItselfFindingNothingIsAnError() throws {
        try "a\n".write(toFile: tmp + "/a.md", atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["convert", tmp, "-o", tmp])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("no input found"), r.stderr)
    }

    /// A temporary left by a run killed outright (its process is gone) is removed by the next run writing
    /// in that directory; one of a live process is not.
    func testStaleTemporariesAreRemovedByTheNextRun() throws {
        let dead = tmp + "/.x.md.redline-999999999-AbCdEf", live = tmp + "/.y.md.redline-\(getpid())-AbCdEf"
        for p in [dead, live] { FileManager.default.createFile(atPath: p, contents: Data("partial".utf8)) }
        try "a\n".write(toFile: tmp + "/in.md", atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["convert", tmp + "/in.md", "-o", tmp + "/out.md"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
    }

    /// Scratch files (zip spool, spill files, pictures) go to a directory of the process's own in TMPDIR
    /// (`ScratchDirectory`): removed at the end of a run, and those of runs killed outright (their process
    /// is gone) by the next run; a live process's is kept.
    func testScratchDirectoriesOfRunsKilledOutrightAreRemoved() throws {
        let scratch = tmp + "/scratch"
        for d in ["redline-999999999-AbCdEf", "redline-worker-999999999-AbCdEf", "redline-\(getpid())-AbCdEf", "redline-zip-AbCdEf"] {
            try FileManager.default.createDirectory(atPath: scratch + "/" + d, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: scratch + "/" + d + "/archive.zip", contents: Data("partial".utf8))
        }
        try "a {++b++}\n".write(toFile: tmp + "/in.md", atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["/usr/bin/env", "TMPDIR=" + scratch, RedlineBinary.executable, "convert", tmp + "/in.md",
                                       "-o", tmp + "/out.docx"], raw: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch).sorted(),
                       ["redline-\(getpid())-AbCdEf", "redline-zip-AbCdEf"],
                       "the dead runs' directories and the run's own are removed; a live process's and unknown names are kept")
    }

    /// SIGTERM during a write removes the temporary and the scratch directory before the process dies of the signal.
    func testTerminatedRunLeavesNoTemporary() throws {
        // The input is a named pipe no one writes to: the run creates its temporary output, then waits for
        // input for as long as the test likes, so the signal always arrives while the temporary exists
        // (a large regular file could finish first on a fast machine).
        let input = tmp + "/big.md"
        XCTAssertEqual(mkfifo(input, 0o600), 0, "mkfifo")
        try FileManager.default.createDirectory(atPath: tmp + "/out", withIntermediateDirectories: true)
        let scratch = tmp + "/scratch"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let p = try RedlineBinary.start(["convert", input, "-o", tmp + "/out/big.docx"], environment: ["TMPDIR": scratch])
        var sawTemporary = false
        for _ in 0..<1_000 where p.isRunning {
            if (try? FileManager.default.contentsOfDirectory(atPath: tmp + "/out"))?.contains(where: { $0.contains(".redline-") }) == true {
                sawTemporary = true
                break
            }
            usleep(10_000)
        }
        XCTAssertTrue(sawTemporary, "the run waiting on its input should hold a temporary output")
        p.terminate()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp + "/out"), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch), [], "its scratch directory is removed too")
    }
}

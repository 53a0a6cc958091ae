import Foundation
import XCTest

/// pandoc's spellings (`-f`, `-t`, `--track-changes=accept|reject|all`, `-s`) give the same output as
/// Redline's own flags.
final class PandocAliasTests: XCTestCase {
    func testAliasesGiveTheSameOutputsAsTheLongFlags() throws {
        let dir = NSTemporaryDirectory() + "redline-alias-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sample = RepositoryPaths.root + "/docs/samples/contract-review.md"
        let docx = dir + "/reviewed.docx"
        XCTAssertEqual(try RedlineBinary.run(["convert", sample, "-o", docx, "-q"]).status, 0)
        let pairs: [([String], [String])] = [
            (["-f", "md", "-t", "html", "-s"], ["--from", "md", "--to", "html"]),
            (["-t", "rtf", "--track-changes=accept"], ["--to", "rtf", "--changes", "accept"]),
            (["-t", "md", "--track-changes=reject"], ["--to", "md", "--changes", "reject"]),
            (["-t", "md", "--track-changes=all"], ["--to", "md", "--changes", "marked"]),
            (["-t", "md", "--track-changes", "all"], ["--to", "md"]),
            (["--standalone", "-t", "html", "--track-changes=accept"], ["--to", "html", "--changes", "accept"]),
        ]
        for input in [sample, docx] {
            for (alias, long) in pairs {
                let a = try RedlineBinary.run(["convert", input, "-q"] + alias)
                let b = try RedlineBinary.run(["convert", input, "-q"] + long)
                XCTAssertEqual(a.status, 0, a.stderr)
                XCTAssertFalse(a.stdout.isEmpty)
                XCTAssertEqual(a.stdout, b.stdout, "\(alias) vs \(long) on \(input)")
            }
        }
        // Files too: -t docx and --track-changes into a file equal the long spelling byte for byte.
        XCTAssertEqual(try RedlineBinary.run(["convert", sample, "-o", dir + "/a.docx", "-t", "docx", "--track-changes=accept"]).status, 0)
        XCTAssertEqual(try RedlineBinary.run(["convert", sample, "-o", dir + "/b.docx", "--to", "docx", "--changes", "accept"]).status, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/a.docx"), FileManager.default.contents(atPath: dir + "/b.docx"))
        // Disagreeing spellings are a usage error.
        let clash = try RedlineBinary.run(["convert", sample, "--track-changes=accept", "--changes", "reject"])
        XCTAssertEqual(clash.status, 2)
        XCTAssertTrue(clash.stderr.contains("disagree"), clash.stderr)
    }
}

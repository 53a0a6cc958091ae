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

    /// `export` and `compare` take the same aliases, with the same bytes as the long flags.
    func testExportAndCompareTakeTheAliasesToo() throws {
        let dir = NSTemporaryDirectory() + "redline-alias-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sample = RepositoryPaths.root + "/docs/samples/contract-review.md"
        let exports: [([String], [String])] = [
            (["-f", "md", "-t", "html", "-s"], ["--from", "md", "--to", "html"]),
            (["-t", "docx", "--standalone"], ["--to", "docx"]),
            (["-t", "rtf", "--track-changes=all"], ["--to", "rtf", "--changes", "marked"]),
        ]
        for (n, (alias, long)) in exports.enumerated() {
            let a = try RedlineBinary.run(["export", sample, "-q", "-o", dir + "/ea\(n)"] + alias)
            let b = try RedlineBinary.run(["export", sample, "-q", "-o", dir + "/eb\(n)"] + long)
            XCTAssertEqual(a.status, 0, a.stderr)
            XCTAssertEqual(b.status, 0, b.stderr)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/ea\(n)").filter { !$0.hasPrefix(".") }.sorted()
            XCTAssertEqual(names.count, 3, "\(alias): three versions")
            XCTAssertEqual(names, try FileManager.default.contentsOfDirectory(atPath: dir + "/eb\(n)").filter { !$0.hasPrefix(".") }.sorted())
            for name in names {
                let x = FileManager.default.contents(atPath: dir + "/ea\(n)/" + name)
                XCTAssertNotNil(x)
                XCTAssertEqual(x, FileManager.default.contents(atPath: dir + "/eb\(n)/" + name), "export \(alias) vs \(long): \(name)")
            }
        }
        let old = dir + "/old.md", new = dir + "/new.md"
        try "# Lease\n\nThe lease runs for five years.\n".write(toFile: old, atomically: true, encoding: .utf8)
        try "# Lease\n\nThe lease runs for seven years, renewable.\n".write(toFile: new, atomically: true, encoding: .utf8)
        let fixed = ["--author", "Ann", "--date", "2024-01-15T00:00:00Z", "-q"]
        for (alias, long) in [(["-f", "md", "-t", "html", "-s"], ["--from", "md", "--to", "html"]),
                              (["-t", "md"], ["--to", "md"])] {
            let a = try RedlineBinary.run(["compare", old, new] + fixed + alias)
            let b = try RedlineBinary.run(["compare", old, new] + fixed + long)
            XCTAssertEqual(a.status, 0, a.stderr)
            XCTAssertTrue(a.stdout.contains("seven"), a.stdout)
            XCTAssertEqual(a.stdout, b.stdout, "compare \(alias) vs \(long)")
        }
        XCTAssertEqual(try RedlineBinary.run(["compare", old, new, "-o", dir + "/a.docx", "-t", "docx"] + fixed).status, 0)
        XCTAssertEqual(try RedlineBinary.run(["compare", old, new, "-o", dir + "/b.docx", "--to", "docx"] + fixed).status, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/a.docx"), FileManager.default.contents(atPath: dir + "/b.docx"))
    }
}

import XCTest
import Foundation
import ArgumentParser
@testable import RedlineCompare
import Redline
import RedlineCLI

/// `redline compare` and `redline check --against` through the command parser, as a user runs them.
final class CompareCommandTests: XCTestCase {
    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-compare-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    func write(_ text: String, _ name: String) throws -> String {
        let path = tmp + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs the command in this process; a batch on threads (the test runner cannot be a batch's worker process).
    func run(_ args: [String]) throws {
        var isDirectory: ObjCBool = false
        let batch = args.first == "compare" && args.count > 2
            && FileManager.default.fileExists(atPath: args[1], isDirectory: &isDirectory) && isDirectory.boolValue
        var command = try RedlineCommand.parseAsRoot(args + (batch ? ["--isolation", "threads"] : []))
        try LargeStack.run { try command.run() }
    }

    func testDefaultsAreReproducible() {
        XCTAssertEqual(RedlineCommand.Compare.defaultDate(["SOURCE_DATE_EPOCH": "86400"]), "1970-01-02T00:00:00Z")
        XCTAssertEqual(RedlineCommand.Compare.defaultAuthor(["USER": "ann"]), "ann")
        XCTAssertEqual(RedlineCommand.Compare.defaultAuthor(["REDLINE_AUTHOR": "Ann Smith", "USER": "ann"]), "Ann Smith")
        XCTAssertEqual(RedlineCommand.Compare.defaultAuthor([:]), "Redline")
    }

    func testMarkdownAgainstDOCXToDOCXIsExactAndValid() throws {
        let old = try write("A first paragraph.\n\nThe quikc brown fox.\n", "old.md")
        let newMD = try write("A first paragraph.\n\nThe quick brown fox.\n\nAn added one.\n", "new.md")
        let newDOCX = tmp + "/new.docx"
        try run(["convert", newMD, "-o", newDOCX, "-q"])
        let out = tmp + "/changes.docx"
        try run(["compare", old, newDOCX, "-o", out, "--author", "Ann", "--date", "2024-05-01T09:00:00Z", "-q"])
        let docx = FormatRegistry.named("docx")!
        let result = try Converter.read(.file(out), format: docx)
        let md = FormatRegistry.named("md")!
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.accepted(result)), CompareOracleTests.text(try Converter.read(.file(newMD), format: md)))
        XCTAssertEqual(CompareOracleTests.text(DocumentComparer.rejected(result)), CompareOracleTests.text(try Converter.read(.file(old), format: md)))
        var authors = Set<String>()
        for b in result.blocks { b.forEachInline { if case .substitution(let c, _, _) = $0 { authors.insert(c.author ?? "") } } }
        XCTAssertEqual(authors, ["Ann"])
        try CompareOracleTests.validate([out])
    }

    func testBadInputNamesTheFileAndWritesNothing() throws {
        let good = try write("Text.\n", "good.md")
        let bad = try write("not a zip", "bad.docx")
        let out = tmp + "/out.md"
        XCTAssertThrowsError(try run(["compare", bad, good, "-o", out])) { e in
            XCTAssertTrue("\(e)".contains("bad.docx"), "\(e)")
        }
        XCTAssertThrowsError(try run(["compare", tmp + "/missing.md", good, "-o", out])) { e in
            XCTAssertTrue("\(e)".contains("missing.md"), "\(e)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp).sorted(), ["bad.docx", "good.md"])
    }

    func testDirectoriesPairByPathWithoutExtension() throws {
        _ = try write("One.\n", "old/a.md")
        _ = try write("One, two.\n", "new/a.md")
        _ = try write("Deep text here.\n", "old/sub/b.md")
        _ = try write("Deep text there.\n", "new/sub/b.md")
        _ = try write("Only old.\n", "old/gone.md")
        _ = try write("Only new.\n", "new/fresh.md")
        let report = tmp + "/report.jsonl"
        try run(["compare", tmp + "/old", tmp + "/new", "-o", tmp + "/out", "--report", report, "-q", "--jobs", "2",
                 "--date", "2024-05-01T09:00:00Z"])
        let a = try String(contentsOfFile: tmp + "/out/a.md", encoding: .utf8)
        XCTAssertTrue(a.contains("{++, two++}"), a)
        XCTAssertTrue(try String(contentsOfFile: tmp + "/out/sub/b.md", encoding: .utf8).contains("{~~here~>there~~}"))
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 5, "four pairs or singles and a summary")
        XCTAssertEqual(lines.filter { $0.contains("\"status\":\"unpaired\"") }.count, 2)
        XCTAssertTrue(lines.last!.contains("\"converted\":2") && lines.last!.contains("\"unpaired\":2"), String(lines.last!))
        // Up to date: skipped on a second run.
        try run(["compare", tmp + "/old", tmp + "/new", "-o", tmp + "/out", "--report", report, "-q", "--skip-existing",
                 "--date", "2024-05-01T09:00:00Z"])
        XCTAssertTrue(try String(contentsOfFile: report, encoding: .utf8).contains("\"skipped\":2"))
    }

    func testCheckAgainstFailsOnChangesOnly() throws {
        let a = try write("Same text.\n", "a.md")
        let b = try write("Same text, edited.\n", "b.md")
        let out = tmp + "/check.txt"
        XCTAssertNoThrow(try run(["check", a, "--against", a, "--fail-on", "changes", "-o", out]))
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).contains("no changes"))
        XCTAssertThrowsError(try run(["check", b, "--against", a, "--fail-on", "changes", "-o", out])) { e in
            XCTAssertEqual((e as? ExitCode)?.rawValue, 1)
        }
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).contains("insertions: 1"))
        XCTAssertNoThrow(try run(["check", b, "--against", a, "--fail-on", "comments", "-o", out]))
    }
}

import Foundation
import XCTest
import Redline
@testable import RedlineCLI

/// `QuickConvert` reads the common `convert IN -o OUT` command line without ArgumentParser: it must ask for
/// exactly the conversion ArgumentParser's reading asks for, and leave every other command line to it.
final class QuickConvertTests: XCTestCase {
    var tmp: String!
    var md: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-quick-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp + "/dir", withIntermediateDirectories: true)
        md = tmp + "/in.md"
        try "Hello {++big ++}world.\n".write(toFile: md, atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    /// Everything `SingleConversion.run` depends on, as text.
    private func summary(_ c: SingleConversion) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let parts = [try encoder.encode(c.options.review), try encoder.encode(c.options.read),
                     try encoder.encode(c.options.write)].map { String(decoding: $0, as: UTF8.self) }
        return ([c.input, c.output, c.options.from.name, c.options.to.name, "\(c.options.strictFilters)",
                 "\(c.options.allowsInPlace)", "\(c.quiet)", c.warningsJSON ?? "nil", "\(c.verbose)"] + parts)
            .joined(separator: " | ")
    }

    func testTheCommonCommandLinesAskForWhatArgumentParserReads() throws {
        let md: String = self.md, tmp: String = self.tmp
        let lines: [[String]] = [
            ["convert", md, "-o", tmp + "/a.docx"],
            ["convert", md, "--output", tmp + "/a.rtf", "-q"],
            ["convert", md, "--output=" + tmp + "/a.html", "--changes", "accept"],
            ["convert", md, "-o", tmp + "/a.txt", "--to", "docx"],
            ["convert", "-q", md, "--to=md", "--changes=reject"],
            ["convert", md, "-f", "markdown", "-t", "gfm"],
            ["convert", md],
            ["convert", "--quiet", "--from=commonmark", md, "-o", tmp + "/b.md", "--changes", "marked"],
        ]
        for line in lines {
            let quick = try XCTUnwrap(try QuickConvert.conversion(line), "\(line)")
            let parsed = try RedlineCommand.Convert.parse(Array(line.dropFirst()))
            XCTAssertFalse(parsed.isBatch, "\(line)")
            XCTAssertEqual(try summary(quick), try summary(try parsed.singleConversion()), "\(line)")
        }
    }

    func testEveryOtherCommandLineIsLeftToArgumentParser() throws {
        let md: String = self.md, tmp: String = self.tmp
        let other = tmp + "/other.md"
        try "x\n".write(toFile: other, atomically: true, encoding: .utf8)
        let lines: [[String]] = [
            ["--version"], ["convert"], ["convert", "--help"], ["convert", md, "-h"], ["compare", md, other],
            ["convert", "-"], ["convert", md, "-o", "-"], ["convert", tmp + "/missing.md", "-o", tmp + "/x.md"],
            ["convert", tmp + "/dir", "-o", tmp + "/out"], ["convert", md, "-o", tmp + "/dir"],
            ["convert", md, "-o", tmp + "/new/"], ["convert", md, other, "-o", tmp + "/out"],
            ["convert", md, "-q", "-q"], ["convert", md, "-o", tmp + "/a.md", "-o", tmp + "/b.md"],
            ["convert", md, "-o"], ["convert", md, "--to"], ["convert", md, "--to="],
            ["convert", md, "--changes", "bogus"], ["convert", md, "--track-changes", "accept"],
            ["convert", md, "-t", "markdown+smart"], ["convert", md, "--keep-formatting"],
            ["convert", md, "--accept", "author=A"], ["convert", md, "--warnings-json", tmp + "/w.json"],
            ["convert", md, "--", "-x"], ["convert", md, "-qo", tmp + "/a.md"], ["convert", md, "--verbose"],
            ["convert", md, "--quiet=yes"], ["convert", md, "-o=" + tmp + "/a.md"],
        ]
        for line in lines { XCTAssertNil(try QuickConvert.conversion(line), "\(line)") }
    }

    /// A format name neither reading knows is the same usage error.
    func testAnUnknownFormatIsTheSameError() throws {
        let md: String = self.md
        let line = ["convert", md, "--to", "odt"]
        var quick: String?, parsed: String?
        XCTAssertThrowsError(try QuickConvert.conversion(line)) { quick = ($0 as? RedlineError)?.message }
        let command = try RedlineCommand.Convert.parse(Array(line.dropFirst()))
        XCTAssertThrowsError(try command.singleConversion()) { parsed = ($0 as? RedlineError)?.message }
        XCTAssertNotNil(quick)
        XCTAssertEqual(quick, parsed)
    }

    /// Through the binary: the quick reading converts, reports warnings and fails as before.
    func testTheBinaryConvertsAndFailsAsBefore() throws {
        let r = try RedlineBinary.run(["convert", md, "-o", tmp + "/c.md", "--changes", "accept"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try String(contentsOfFile: tmp + "/c.md", encoding: .utf8), "Hello big world.\n")
        let bad = try RedlineBinary.run(["convert", md, "-o", tmp + "/c.odt"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("redline: error: '"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/c.odt"))
    }
}

import XCTest
import Foundation

/// `redline apply` and `redline combine` as a user runs them: files and directories, exit statuses, outputs
/// written whole or not at all, ORIGINAL never written unless `--in-place`.
final class ApplyCombineCommandTests: XCTestCase {
    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-applycli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    @discardableResult
    func write(_ text: String, _ name: String) throws -> String {
        let path = tmp + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }

    static let original = "# Notes\n\nThe first paragraph has words.\n\nThe second paragraph too.\n"

    func testApplyWritesStandardOutputAndLeavesTheOriginalAlone() throws {
        let o = try write(Self.original, "notes.md")
        let e = try write(Self.original.replacingOccurrences(of: "has words", with: "has more words"), "edited.md")
        let r = try RedlineBinary.run(["apply", e, "--onto", o, "--author", "Ann", "--date", "2026-01-01"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "# Notes\n\nThe first paragraph has{++ more++}{>>@Ann (2026-01-01)<<} words.\n\nThe second paragraph too.\n")
        XCTAssertEqual(read(o), Self.original)
        let inPlace = try RedlineBinary.run(["apply", e, "--onto", o, "--in-place", "--changes", "accept"])
        XCTAssertEqual(inPlace.status, 0, inPlace.stderr)
        XCTAssertEqual(read(o), read(e))
    }

    func testApplyOntoDOCXNeedsAnOutputAndBadInputFailsCleanly() throws {
        let o = try write(Self.original, "notes.md")
        let docx = tmp + "/notes.docx"
        XCTAssertEqual(try RedlineBinary.run(["convert", o, "-o", docx]).status, 0)
        let e = try write(Self.original.replacingOccurrences(of: "too", with: "as well"), "edited.md")
        let r = try RedlineBinary.run(["apply", e, "--onto", docx])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("-o"), r.stderr)
        let out = tmp + "/out.docx"
        let ok = try RedlineBinary.run(["apply", e, "--onto", docx, "-o", out])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let listed = try RedlineBinary.run(["changes", out])
        XCTAssertTrue(listed.stdout.contains("\"too\" -> \"as well\""), listed.stdout)
        let broken = try write("not a zip", "broken.docx")
        let bad = try RedlineBinary.run(["apply", e, "--onto", broken, "-o", tmp + "/never.docx"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/never.docx"))
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
    }

    func testDirectoriesPairByRelativePath() throws {
        try write(Self.original, "book/ch1.md")
        try write(Self.original.replacingOccurrences(of: "first", with: "opening"), "book/part/ch2.md")
        try write(Self.original.replacingOccurrences(of: "words", with: "letters"), "edited/ch1.md")
        try write(Self.original.replacingOccurrences(of: "second", with: "last"), "alice/ch1.md")
        try write(Self.original.replacingOccurrences(of: "The first", with: "A first"), "bob/ch1.md")
        let a = try RedlineBinary.run(["apply", tmp + "/edited", "--onto", tmp + "/book", "-o", tmp + "/out", "-q"])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertTrue(read(tmp + "/out/ch1.md").contains("{~~words~>letters~~}"), read(tmp + "/out/ch1.md"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out/part/ch2.md"), "no edited version: left out")
        let c = try RedlineBinary.run(["combine", tmp + "/book", tmp + "/alice", tmp + "/bob", "-o", tmp + "/comb", "-q"])
        XCTAssertEqual(c.status, 0, c.stderr)
        let combined = read(tmp + "/comb/ch1.md")
        XCTAssertTrue(combined.contains("{~~second~>last~~}{>>@alice"), combined)
        XCTAssertTrue(combined.contains("{~~The~>A~~}{>>@bob"), combined)
    }
}

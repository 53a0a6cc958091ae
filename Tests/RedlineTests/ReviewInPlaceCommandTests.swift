import Foundation
import Redline
import RedlineZip
import XCTest

/// `redline convert`/`export` DOCX → DOCX review in place, and `redline changes`, as users run them.
final class ReviewInPlaceCommandTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-review-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    static let sample = RepositoryPaths.sharedCorpus + "/Open-Xml-PowerTools/RP047-Inserted-and-Deleted-Paragraph-Mark.docx"

    func parts(_ path: String) throws -> [String: [UInt8]] {
        let a = try ZipArchive(path: path)
        var out: [String: [UInt8]] = [:]
        for e in a.entries where !e.isDirectory { out[e.name] = try a.read(e) }
        return out
    }

    func requireSample() throws {
        guard FileManager.default.fileExists(atPath: Self.sample) else { throw XCTSkip("the shared corpus is not there") }
    }

    func testConvertDOCXToDOCXReviewsInPlace() throws {
        try requireSample()
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
        let out = tmp + "/clean.docx"
        let r = try RedlineBinary.run(["convert", Self.sample, "-o", out, "--changes", "accept"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let a = try parts(Self.sample), b = try parts(out)
        XCTAssertEqual(Set(a.keys), Set(b.keys), "the same parts (the model path would write others)")
        for (name, bytes) in b where name != "word/document.xml" { XCTAssertEqual(bytes, a[name], name) }
        XCTAssertFalse(String(decoding: b["word/document.xml"]!, as: UTF8.self).contains("<w:ins "))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: Self.sample)), before, "the input is never modified")
    }

    func testExportToDOCXWritesThreeVersionsInPlace() throws {
        try requireSample()
        let r = try RedlineBinary.run(["export", Self.sample, "--to", "docx", "-o", tmp + "/v/", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let base = tmp + "/v/RP047-Inserted-and-Deleted-Paragraph-Mark"
        let input = try parts(Self.sample)
        XCTAssertEqual(try parts(base + ".marked.docx"), input, "marked: the input's parts unchanged")
        for v in ["clean", "original"] {
            let p = try parts(base + ".\(v).docx")
            XCTAssertEqual(Set(p.keys), Set(input.keys), v)
            for (name, bytes) in p where name != "word/document.xml" { XCTAssertEqual(bytes, input[name], "\(v): \(name)") }
            let doc = String(decoding: p["word/document.xml"]!, as: UTF8.self)
            XCTAssertFalse(doc.contains("<w:ins ") || doc.contains("<w:del "), v)
        }
    }

    func testChangesListsInEachFormat() throws {
        try requireSample()
        let text = try RedlineBinary.run(["changes", Self.sample])
        XCTAssertEqual(text.status, 0, text.stderr)
        let xml = String(decoding: try parts(Self.sample)["word/document.xml"]!, as: UTF8.self)
        let revisions = xml.components(separatedBy: "<w:ins ").count - 1 + xml.components(separatedBy: "<w:del ").count - 1
        let json = try RedlineBinary.run(["changes", Self.sample, "--format", "json"])
        let rows = try JSONDecoder().decode([ChangeRow].self, from: Data(json.stdout.utf8))
        // One row per change as a reader sees it: every revision element is in exactly one row.
        XCTAssertEqual(rows.flatMap { $0.id.split(separator: ",") }.count, revisions)
        XCTAssertEqual(text.stdout.split(separator: "\n").count, rows.count)
        let csv = try RedlineBinary.run(["changes", Self.sample, "--format", "csv"])
        XCTAssertEqual(csv.stdout.split(separator: "\r\n").count, rows.count + 1)
        XCTAssertTrue(csv.stdout.hasPrefix("id,kind,change,author,date,story,paragraph,heading,before,after,to_story,to_paragraph,anchor,body,thread,resolved"))
        let r = try RedlineBinary.run(["changes", Self.sample, "--format", "bogus"])
        XCTAssertEqual(r.status, 2)
        let md = tmp + "/in.md"
        try "A {++b++} c {--d--} e.\n".write(toFile: md, atomically: true, encoding: .utf8)
        let mdList = try RedlineBinary.run(["changes", md, "--format", "csv"])
        XCTAssertEqual(mdList.status, 0, mdList.stderr)
        XCTAssertTrue(mdList.stdout.contains("\r\n1,insertion,") && mdList.stdout.contains("\r\n2,deletion,"), mdList.stdout)
    }

    /// `--accept id=` with ids `redline changes` listed: exactly those go, in place.
    func testListedIDsRoundTripThroughTheCommandLine() throws {
        let path = RepositoryPaths.sharedCorpus + "/Open-Xml-PowerTools/RP036-Vert-Merged-Cells.docx"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("the shared corpus is not there") }
        func ids(_ file: String) throws -> [String] {
            let r = try RedlineBinary.run(["changes", file, "--format", "json"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try JSONDecoder().decode([ChangeRow].self, from: Data(r.stdout.utf8)).map(\.id)
        }
        let before = try ids(path)
        let insertions = try JSONDecoder().decode([ChangeRow].self,
            from: Data(try RedlineBinary.run(["changes", path, "--format", "json"]).stdout.utf8)).filter { $0.kind == .insertion }.map(\.id)
        XCTAssertFalse(insertions.isEmpty)
        let out = tmp + "/sel.docx"
        let r = try RedlineBinary.run(["convert", path, "-o", out, "--accept", "id=" + insertions.joined(separator: ",")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try ids(out), before.filter { !insertions.contains($0) })
        let input = try parts(path), output = try parts(out)
        for (name, bytes) in output where name != "word/document.xml" { XCTAssertEqual(bytes, input[name], name) }
    }

    func testBadInputIsOneErrorAndNoOutput() throws {
        let bad = tmp + "/bad.docx"
        try Data("PK\u{3}\u{4}broken".utf8).write(to: URL(fileURLWithPath: bad))
        let out = tmp + "/out.docx"
        let r = try RedlineBinary.run(["convert", bad, "-o", out, "--changes", "accept"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let l = try RedlineBinary.run(["changes", bad])
        XCTAssertEqual(l.status, 1)
    }
}

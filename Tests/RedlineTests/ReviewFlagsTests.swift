import Foundation
import XCTest
import Redline
import RedlineCLI

/// The review options group (`--changes`, `--accept`, `--reject`, `--comments`, `--drop-comments`) as
/// convert, export, check and batch fingerprints see it.
final class ReviewFlagsTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-review-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        try "A {++ann++}{>>@Ann<<} {++bob++}{>>@Bob<<} {--gone--}{>>@Ann<<} x{==y==}{>>@Bob | note<<} z{==w==}{>>@Ann | keep<<}.\n"
            .write(toFile: tmp + "/in.md", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    func convert(_ extra: [String]) throws -> String {
        let r = try RedlineBinary.run(["convert", tmp + "/in.md", "--to", "md", "-q"] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    func testConvertFiltersDecidePerChangeAndComment() throws {
        let ann = try convert(["--accept", "author=Ann"])
        XCTAssertTrue(ann.hasPrefix("A ann {++bob++}{>>@Bob<<}  x"), ann)
        XCTAssertFalse(ann.contains("gone"), ann)
        let rejected = try convert(["--changes", "accept", "--reject", "kind=deletion", "--comments", "keep"])
        XCTAssertTrue(rejected.hasPrefix("A ann bob gone x"), rejected)
        XCTAssertTrue(rejected.contains("note"), rejected)
        let dropped = try convert(["--drop-comments", "author=Bob"])
        XCTAssertFalse(dropped.contains("note"), dropped)
        XCTAssertTrue(dropped.contains("keep"), dropped)
        XCTAssertTrue(dropped.contains("{++bob++}"), dropped)
        let bad = try RedlineBinary.run(["convert", tmp + "/in.md", "--accept", "colour=red"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("colour=red"), bad.stderr)
    }

    func testExportAppliesFiltersToTheMarkedVersionOnly() throws {
        let r = try RedlineBinary.run(["export", tmp + "/in.md", "-o", tmp + "/out", "--to", "md", "-q",
                                       "--accept", "author=Bob", "--drop-comments", "author=Ann"])
        XCTAssertEqual(r.status, 0, r.stderr)
        func read(_ name: String) throws -> String { try String(contentsOfFile: tmp + "/out/in.\(name).md", encoding: .utf8) }
        XCTAssertTrue(try read("clean").hasPrefix("A ann bob  x"))
        XCTAssertTrue(try read("original").hasPrefix("A   gone x"))
        let marked = try read("marked")
        XCTAssertTrue(marked.hasPrefix("A {++ann++}{>>@Ann<<} bob {--gone--}{>>@Ann<<}"), marked)
        XCTAssertTrue(marked.contains("note") && !marked.contains("keep"), marked)
        XCTAssertEqual(try RedlineBinary.run(["export", tmp + "/in.md", "-o", tmp + "/out2", "--changes", "accept"]).status, 2)
    }

    func testCheckMeasuresTheLossesOfTheReviewedConversion() throws {
        func lossy(_ extra: [String]) throws -> [String] {
            let r = try RedlineBinary.run(["check", tmp + "/in.md", "--lossy", "md->gfm", "--format", "json"] + extra)
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let file = (json?["files"] as? [[String: Any]])?.first ?? [:]
            return (file["findings"] as? [[String: Any]] ?? []).filter { ($0["category"] as? String) == "lossy:md->gfm" }
                .compactMap { $0["code"] as? String }
        }
        XCTAssertTrue(try lossy([]).contains("lossy.insertions-accepted"))
        XCTAssertFalse(try lossy(["--changes", "reject", "--comments", "drop"]).contains("lossy.insertions-accepted"))
    }

    func testFingerprintCoversTheWholeOptions() throws {
        func fingerprint(_ review: ReviewOptions, _ write: WriteOptions = WriteOptions()) throws -> String {
            BatchOptions(to: try XCTUnwrap(FormatRegistry.named("md")), variants: [.converting(review)], write: write,
                         outputDirectory: tmp).fingerprint
        }
        let base = try fingerprint(ReviewOptions())
        XCTAssertEqual(base, try fingerprint(ReviewOptions()))
        var keep = WriteOptions()
        keep.preserveFormatting = true
        let others = [try fingerprint(ReviewOptions(accept: [try ChangeFilter(parsing: "author=Ann")])),
                      try fingerprint(ReviewOptions(accept: [try ChangeFilter(parsing: "author=Bob")])),
                      try fingerprint(ReviewOptions(comments: .dropResolved)),
                      try fingerprint(ReviewOptions(dropComments: [try ChangeFilter(parsing: "id=3")])),
                      try fingerprint(ReviewOptions(), keep)]
        XCTAssertEqual(Set(others + [base]).count, others.count + 1)
        // Sets encode sorted: the same filter gives the same fingerprint however it was built.
        let a = ChangeFilter(kinds: [.insertion, .deletion, .move, .table], ids: ["1", "2", "3", "10"])
        let b = ChangeFilter(kinds: [.table, .move, .deletion, .insertion], ids: ["10", "3", "2", "1"])
        XCTAssertEqual(try fingerprint(ReviewOptions(reject: [a])), try fingerprint(ReviewOptions(reject: [b])))
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys]
        XCTAssertEqual(String(decoding: try json.encode(a), as: UTF8.self),
                       #"{"ids":["1","10","2","3"],"kinds":["deletion","insertion","move","table"]}"#)
    }

    func testSkipExistingConvertsAgainWhenAFilterChanges() throws {
        try FileManager.default.createDirectory(atPath: tmp + "/dir", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: tmp + "/in.md", toPath: tmp + "/dir/in.md")
        let run = { (extra: [String]) throws -> String in
            let r = try RedlineBinary.run(["convert", self.tmp + "/dir", "-o", self.tmp + "/out", "--to", "md", "--skip-existing"] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stderr
        }
        XCTAssertTrue(try run([]).contains("1 converted"))
        XCTAssertTrue(try run([]).contains("1 up to date"))
        XCTAssertTrue(try run(["--accept", "author=Ann"]).contains("1 converted"))
        XCTAssertTrue(try String(contentsOfFile: tmp + "/out/in.md", encoding: .utf8).hasPrefix("A ann {++bob++}"))
        XCTAssertTrue(try run(["--accept", "author=Ann"]).contains("1 up to date"))
        XCTAssertTrue(try run(["--accept", "author=Ann", "--comments", "drop-resolved"]).contains("1 converted"))
    }
}

import Foundation
import Redline
import RedlineCore
import RedlineTestSupport
import XCTest

/// `redline convert`/`export`/`changes` RTF → RTF review in place, as users run them.
final class ReviewInPlaceRTFCommandTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-rtf-review-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    static let sample = RepositoryPaths.root + "/Tests/Fixtures/rtf-review/word-features.rtf"

    func text(_ path: String) throws -> String { String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) }

    func testConvertRTFToRTFReviewsInPlace() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
        let out = tmp + "/clean.rtf"
        let r = try RedlineBinary.run(["convert", Self.sample, "-o", out, "--changes", "accept"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let s = try text(out)
        // The input's own header and tables: the model path would write its own.
        XCTAssertTrue(s.hasPrefix(#"{\rtf1\ansi\ansicpg1252\deff0\uc1\nouicompat"#), s)
        XCTAssertTrue(s.contains(#"{\header\pard\plain\ql\f0\fs20 Running head\par}"#))
        XCTAssertFalse(s.contains(#"\revised"#) || s.contains(#"\deleted"#))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: Self.sample)), before, "the input is never modified")
    }

    func testExportToRTFWritesThreeVersionsInPlace() throws {
        let r = try RedlineBinary.run(["export", Self.sample, "--to", "rtf", "-o", tmp + "/v/", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let base = tmp + "/v/word-features"
        XCTAssertEqual(try text(base + ".marked.rtf"), try text(Self.sample), "marked: the input, byte for byte")
        for v in ["clean", "original"] {
            let s = try text(base + ".\(v).rtf")
            XCTAssertTrue(s.contains(#"{\header\pard\plain\ql\f0\fs20 Running head\par}"#), v)
            XCTAssertFalse(s.contains(#"\revised"#) || s.contains(#"\deleted"#) || s.contains(#"\annotation"#), v)
        }
        XCTAssertTrue(try text(base + ".clean.rtf").contains("Ann's whole paragraph"))
        XCTAssertFalse(try text(base + ".original.rtf").contains("Ann's whole paragraph"))
    }

    func testListedIDsRoundTripThroughTheCommandLine() throws {
        func items(_ file: String) throws -> [ChangeRow] {
            let r = try RedlineBinary.run(["changes", file, "--format", "json"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try JSONDecoder().decode([ChangeRow].self, from: Data(r.stdout.utf8)).filter { $0.kind != .comment }
        }
        let before = try items(Self.sample)
        let bob = before.filter { $0.author == "Bob Reviewer" && $0.story == "body" }.map(\.id)
        XCTAssertGreaterThanOrEqual(bob.count, 4)
        let out = tmp + "/sel.rtf"
        let r = try RedlineBinary.run(["convert", Self.sample, "-o", out, "--reject", "id=" + bob.joined(separator: ",")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let after = try items(out)
        XCTAssertFalse(after.contains { $0.author == "Bob Reviewer" }, "\(after)")
        XCTAssertEqual(after.count, before.count - before.filter { bob.contains($0.id) }.count)
    }

    func testBadInputIsOneErrorAndNoOutput() throws {
        let bad = tmp + "/bad.rtf"
        try Data("not rtf".utf8).write(to: URL(fileURLWithPath: bad))
        let out = tmp + "/out.rtf"
        let r = try RedlineBinary.run(["convert", bad, "-o", out, "--changes", "accept"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try text(bad), "not rtf")
    }
}

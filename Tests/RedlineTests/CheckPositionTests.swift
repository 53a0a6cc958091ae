import Foundation
import XCTest
import Redline
import RedlineMarkdown

/// `check` on Markdown sources: each finding carries the line and column of its mark, in the GitHub
/// annotations (`line=`, `col=`), the JSON and the JUnit report; other formats keep paragraph numbers.
final class CheckPositionTests: XCTestCase {
    let source = """
    ---
    title: T
    ---

    # Título{++ nuevo++}{>>@Ann (2024-01-15T14:30:00Z)<<}

    Ça va {~~bien~>mal~~}{>>@Bob<<} and
    then {==this==}{>>@Cy | Why?<<}{>>@Ann | Because.<<} ends. A point{>>@Bob | Here.<<}

    {--Gone.--}{>>@Ann [move=m1]<<}

    {++Gone.++}{>>@Ann [move=m1]<<} See [there](#nowhere).

    """

    func testMarkPositionsFindEachMarkAsTheReaderSeesIt() throws {
        let p = try MarkPositions(scanning: Array(source.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        XCTAssertEqual(p.firstChange["change.insertion"], .init(line: 5, column: 9))  // columns count characters
        XCTAssertEqual(p.firstChange["change.substitution"], .init(line: 7, column: 7))
        XCTAssertEqual(p.firstChange["change.move"], .init(line: 10, column: 1))
        XCTAssertNil(p.firstChange["change.deletion"], "the deletion is a move's source")
        XCTAssertEqual(p.comments.count, 2, "two threads (by their first comment); attributions are not comments")
        XCTAssertEqual(Set(p.comments.values), [.init(line: 8, column: 6), .init(line: 8, column: 67)])
        XCTAssertEqual(p.first("](#nowhere"), .init(line: 12, column: 43))
    }

    func testReportsCarryLineAndColumnForMarkdown() throws {
        let dir = NSTemporaryDirectory() + "redline-check-pos-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/draft.md"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        var policy = try CheckPolicy(failOn: "changes")
        policy.lossy = []
        let result = DocumentCheck.check(path, policy: policy)
        XCTAssertNil(result.error)

        let github = try CheckReport.render([result], as: .github)
        XCTAssertTrue(github.contains("::error file=\(path),line=5,col=9,title=redline changes::paragraph 1 (line 5, column 9): 1 tracked insertion by Ann"), github)
        XCTAssertTrue(github.contains(",line=8,col=6,title=redline comments::paragraph 2 (line 8, column 6): open comment by Cy: \"Why?\" (1 reply)"), github)
        XCTAssertTrue(github.contains(",line=8,col=67,title=redline comments::paragraph 2 (line 8, column 67): open comment by Bob: \"Here.\""), github)
        XCTAssertTrue(github.contains(",line=12,col=43,title=redline links::"), github)

        let json = try CheckReport.render([result], as: .json)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = try XCTUnwrap((object["files"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]])
        let insertion = try XCTUnwrap(findings.first { $0["code"] as? String == "change.insertion" })
        XCTAssertEqual(insertion["location"] as? [String: Int], ["line": 5, "paragraph": 1])
        XCTAssertEqual(insertion["column"] as? Int, 9)

        let junit = try CheckReport.render([result], as: .junit)
        XCTAssertTrue(junit.contains("paragraph 1 (line 5, column 9): 1 tracked insertion by Ann"), junit)
    }

    /// A kind with several marks: each mark's own line and column, in the GitHub annotations (one per
    /// mark), the JSON (`marks`) and the JUnit report; not only the first mark of the kind.
    func testEveryMarkOfAKindHasItsOwnPosition() throws {
        let dir = NSTemporaryDirectory() + "redline-check-pos-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/many.md"
        try """
        # Many

        One {++first++} insertion.

        Two: a {++second++} and
        then a {++third++} one, {--cut--} too.

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let p = try MarkPositions(scanning: Array(try String(contentsOfFile: path, encoding: .utf8).utf8))
        XCTAssertEqual(p.changes["change.insertion"], [.init(line: 3, column: 5), .init(line: 5, column: 8), .init(line: 6, column: 8)])
        XCTAssertEqual(p.changes["change.deletion"], [.init(line: 6, column: 25)])
        XCTAssertEqual(p.changes["change.move"], nil)
        XCTAssertEqual(try MarkPositions(scanning: Array(source.utf8)).changes["change.move"],
                       [.init(line: 10, column: 1), .init(line: 12, column: 1)], "a move's two ends")
        var policy = try CheckPolicy(failOn: "")
        policy.lossy = []
        let result = DocumentCheck.check(path, policy: policy)
        XCTAssertNil(result.error)
        let github = try CheckReport.render([result], as: .github)
        for (k, (line, col)) in [(3, 5), (5, 8), (6, 8)].enumerated() {
            XCTAssertTrue(github.contains("::warning file=\(path),line=\(line),col=\(col),title=redline changes::"), github)
            XCTAssertTrue(github.contains("3 tracked insertions (mark \(k + 1) of 3)"), github)
        }
        XCTAssertTrue(github.contains(",line=6,col=25,title=redline changes::paragraph 3 (line 6, column 25): 1 tracked deletion"), github)
        let json = try CheckReport.render([result], as: .json)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = try XCTUnwrap((object["files"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]])
        let insertion = try XCTUnwrap(findings.first { $0["code"] as? String == "change.insertion" })
        XCTAssertEqual(insertion["marks"] as? [[String: Int]], [["line": 3, "column": 5], ["line": 5, "column": 8], ["line": 6, "column": 8]])
        let junit = try CheckReport.render([result], as: .junit)
        XCTAssertTrue(junit.contains("(marks at 3:5, 5:8, 6:8)"), junit)
    }
}

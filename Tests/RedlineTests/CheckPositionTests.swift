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
}

import XCTest
@testable import RedlineMarkdown
import RedlineTestSupport

/// `CommentText` reads an ASCII comment header by Unicode scalars, others by characters (PERFORMANCE.md,
/// "Comments"): on ASCII text without a carriage return the two must read the same.
final class CommentHeaderTests: XCTestCase {
    func testScalarsReadAsCharactersOnASCIIHeaders() {
        var rng = SeededRandom(seed: SeededRandom.seed(default: 15))
        let pieces = ["Ann", " ", "Bob Smith", "(", ")", "2024-05-01T10:00:00Z", "[", "]", "resolved", "initials=AB",
                      "\"a]b\"", "#r1", "|", " | ", "\\", "\\(", "\\|", "\t", "\n", "body text", "=", "x"]
        var fast = 0
        for round in 0..<5000 {
            let n = 1 + Int(rng.next() % 9)
            let text = (0..<n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            let s = Substring(text)
            var byScalars = CommentText(""), byCharacters = CommentText("")
            let a = byScalars.parseHeader(s, units: s.unicodeScalars)
            let b = byCharacters.parseHeader(s, units: s)
            XCTAssertEqual(a, b, "round \(round): \(text.debugDescription)")
            guard a, b else { continue }
            fast += 1
            XCTAssertEqual(byScalars.author, byCharacters.author, text.debugDescription)
            XCTAssertEqual(byScalars.date, byCharacters.date, text.debugDescription)
            XCTAssertEqual(byScalars.attributes, byCharacters.attributes, text.debugDescription)
            XCTAssertEqual(byScalars.body, byCharacters.body, text.debugDescription)
            XCTAssertEqual(byScalars.isAttributionOnly, byCharacters.isAttributionOnly, text.debugDescription)
        }
        XCTAssertGreaterThan(fast, 500)
        // A carriage return before a line feed is one character, not a line end: read by characters, as
        // before (by scalars the header would end at the line feed).
        let crlf = CommentText("@Ann\r\n(2024) | x")
        XCTAssertEqual(crlf.date, "2024")
    }
}

import XCTest
@testable import RedlineMarkdown
import RedlineTestSupport

/// `CommentText` reads an ASCII comment header by Unicode scalars, others by characters, and takes its text
/// a run at a time (PERFORMANCE.md, "Comments"): on ASCII text without a carriage return the two must read
/// the same, and both what the header reading did before, a character at a time (`reference`).
final class CommentHeaderTests: XCTestCase {
    func testHeadersReadAsBeforeByScalarsAndByCharacters() {
        var rng = SeededRandom(seed: SeededRandom.seed(default: 15))
        let pieces = ["Ann", " ", "Bob Smith", "(", ")", "2024-05-01T10:00:00Z", "[", "]", "resolved", "initials=AB",
                      "\"a]b\"", "#r1", "|", " | ", "\\", "\\(", "\\|", "\t", "\n", "body text", "=", "x",
                      "Zoë", "(\u{301}", "|\u{301}", "\\\u{301}"]
        var fast = 0
        for round in 0..<5000 {
            let n = 1 + Int(rng.next() % 9)
            let text = (0..<n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            let s = Substring(text)
            var byScalars = CommentText(""), byCharacters = CommentText("")
            let a = byScalars.parseHeader(s, units: s.unicodeScalars)
            let b = byCharacters.parseHeader(s, units: s)
            let ascii = text.utf8.allSatisfy { $0 < 0x80 }
            if ascii { XCTAssertEqual(a, b, "round \(round): \(text.debugDescription)") }
            let r = Self.reference(s)
            XCTAssertEqual(b, r != nil, text.debugDescription)
            guard b, let r else { continue }
            XCTAssertEqual(byCharacters.author, r.author, text.debugDescription)
            XCTAssertEqual(byCharacters.date, r.date, text.debugDescription)
            XCTAssertEqual(byCharacters.body, r.body, text.debugDescription)
            XCTAssertEqual(byCharacters.isAttributionOnly, r.attributionOnly, text.debugDescription)
            guard ascii, a else { continue }
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

    /// The header reading as it was, a character at a time: author, date, body, whether it is an attribution
    /// only; nil when the text is not a header. (Attributes are parsed by `AttributeList` either way.)
    static func reference(_ s: Substring) -> (author: String?, date: String?, body: Substring, attributionOnly: Bool)? {
        var i = s.startIndex
        var name = ""
        func at(_ c: Character) -> Bool { i < s.endIndex && s[i] == c }
        func skipSpaces() { while at(" ") || at("\t") { i = s.index(after: i) } }
        while i < s.endIndex, s[i] != "(", s[i] != "[", s[i] != "|", s[i] != "\n" {
            if s[i] == "\\", s.index(after: i) < s.endIndex { i = s.index(after: i) }
            name.append(s[i]); i = s.index(after: i)
        }
        if at("\n") { return nil }
        var date: String?
        if at("(") {
            i = s.index(after: i)
            var d = ""
            while i < s.endIndex, s[i] != ")" {
                if s[i] == "\n" { return nil }
                if s[i] == "\\", s.index(after: i) < s.endIndex { i = s.index(after: i) }
                d.append(s[i]); i = s.index(after: i)
            }
            guard at(")") else { return nil }
            i = s.index(after: i)
            date = d
            skipSpaces()
        }
        if at("[") {
            let start = s.index(after: i)
            var j = start
            var quoted = false
            while j < s.endIndex {
                if s[j] == "\\", s.index(after: j) < s.endIndex { j = s.index(j, offsetBy: 2); continue }
                if s[j] == "\"" { quoted.toggle() }
                if s[j] == "]", !quoted { break }
                if s[j] == "\n" { return nil }
                j = s.index(after: j)
            }
            guard j < s.endIndex, AttributeList.parse(s[start..<j]) != nil else { return nil }
            i = s.index(after: j)
            skipSpaces()
        }
        let trimmed = name.trimmingSpaces
        let author = trimmed.isEmpty ? nil : trimmed
        if i == s.endIndex { return (author, date, s[s.endIndex...], true) }
        guard at("|") else { return nil }
        i = s.index(after: i)
        skipSpaces()
        return (author, date, s[i...], false)
    }
}

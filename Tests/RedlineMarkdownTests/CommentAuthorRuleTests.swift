@testable import RedlineMarkdown
import XCTest

/// `CommentText.isPersonName` and `feedbackAuthor` run their tests cheapest first (PERFORMANCE.md, "CriticMarkup
/// comments"): the answers must be those of the rule as first written, kept here as the oracle, on names,
/// labels, sentences, colons near and far, non-ASCII letters, combining marks and CR LF.
final class CommentAuthorRuleTests: XCTestCase {
    /// The rule as it was written before the reordering.
    private func oracleIsPersonName(_ s: Substring) -> Bool {
        guard !s.isEmpty, s.count <= 60, !CommentText.labels.contains(s.lowercased()) else { return false }
        let words = s.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count <= 4, !words.contains(where: \.isEmpty) else { return false }
        for (n, w) in words.enumerated() {
            guard let first = w.first, w.allSatisfy({ $0.isLetter || $0 == "." || $0 == "'" || $0 == "’" || $0 == "-" })
            else { return false }
            if !(first.isUppercase || (n > 0 && CommentText.particles.contains(String(w)))) { return false }
        }
        guard let last = s.last else { return false }
        if last == "." {
            guard let lw = words.last, lw.count == 2, lw.first!.isUppercase else { return false }
        } else if !last.isLetter {
            return false
        }
        if words.count == 1, s.count < 2 { return false }
        return true
    }

    private func oracleFeedbackAuthor(_ raw: Substring) -> Substring.Index? {
        guard let colon = raw.firstIndex(of: ":"),
              raw.index(after: colon) < raw.endIndex, raw[raw.index(after: colon)] == " ",
              raw.distance(from: raw.startIndex, to: colon) <= 60 else { return nil }
        return oracleIsPersonName(raw[..<colon]) ? colon : nil
    }

    private var samples: [String] {
        var out = ["", "A", "Ann", "ann", "Ann Editor", "Ann S.", "Ann S", "Ann St.", "Vincent van Gogh", "van Gogh",
                   "Note", "TODO", "Thank You", "Nota Bene", "Ann: fix this", "Ann Editor: see chapter two", "Ann:x",
                   "Ann Editor:", "Was it brass? Earlier chapters say copper.", "Chloé Copy", "Émile Zola", "Zoë",
                   "O'Brien", "Jean-Luc Picard", "Ann  Editor", " Ann", "Ann ", "Ann Bob Carl Dee", "Ann Bob Carl Dee Eve",
                   "Ann\u{301} Editor", "Ann E\u{301}ditor", ":\u{301} x", "Ann:\u{301} x", "Ann\r\nEditor", "Ann\r\n: x",
                   "X\u{301}", "É", "Łukasz", "ǅemal", "Ⅻ King", "Ann 2", "Ann-", "Ann’s", "Ann’", "Ann.",
                   "A. B.", "Ann del Rio", "Ann Del", "Ann de", "ANN", "Ann\tEditor", "Ann: ", "Ann : x"]
        let long = String(repeating: "Abcdefghij", count: 6)
        out += [long, long + "k", String(long.dropLast()), long + ": x", String(long.dropLast()) + ": x",
                "Ann" + String(repeating: "e\u{301}", count: 29), "Ann" + String(repeating: "e\u{301}", count: 30),
                "Ann" + String(repeating: "é", count: 57) + ": x", "Ann" + String(repeating: "é", count: 58) + ": x",
                String(repeating: "x ", count: 40) + "Ann: y", "Ann: " + String(repeating: "word ", count: 30)]
        // Every prefix and suffix of a few of them: colons and cuts at every place.
        for s in ["Ann Editor: see chapter two", "Émile van Zola: yes", "Note: a label"] {
            for k in 0...s.count { out.append(String(s.prefix(k))); out.append(String(s.suffix(k))) }
        }
        return out
    }

    func testReorderedRuleGivesTheOracleAnswers() {
        for s in samples {
            let sub = Substring(s)
            XCTAssertEqual(CommentText.isPersonName(sub), oracleIsPersonName(sub), "isPersonName(\(s.debugDescription))")
            XCTAssertEqual(CommentText.feedbackAuthor(sub), oracleFeedbackAuthor(sub), "feedbackAuthor(\(s.debugDescription))")
            // Inside a larger string too (substring indices).
            let outer = "{>>" + s + "<<}"
            let inner = outer.dropFirst(3).dropLast(3)
            XCTAssertEqual(CommentText.isPersonName(inner), oracleIsPersonName(inner), "inner \(s.debugDescription)")
            XCTAssertEqual(CommentText.feedbackAuthor(inner), oracleFeedbackAuthor(inner), "inner \(s.debugDescription)")
        }
    }
}

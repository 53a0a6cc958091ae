import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// `redline combine` as a property, through every format it writes into: generated ORIGINALs, 2–6 reviewers each
/// replacing, inserting or deleting words anywhere (several in one paragraph), ORIGINAL and every copy written as
/// Markdown, DOCX or RTF. Without conflicts, rejecting everything gives ORIGINAL, accepting one reviewer's changes
/// and rejecting the rest gives that copy, accepting everything gives every edit. With overlapping edits, every
/// overlap is listed once and the preferred reviewer's text is what accepting everything gives there.
final class CombinePropertyTests: XCTestCase {
    private var dir = ""
    private static let words = ["alpha", "beta", "gamma", "delta", "river", "stone", "light", "paper", "green", "north"]

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-combine-property-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func source(_ ps: [[String]]) -> String {
        ps.map { $0.joined(separator: " ") + "." }.joined(separator: "\n\n") + "\n"
    }

    private func file(_ text: String, _ name: String, _ format: Format) throws -> String {
        try FormatFixtures.file(text, name, as: format, in: dir)
    }

    private func paragraphs(_ path: String, _ format: Format, _ review: ReviewOptions) throws -> [String] {
        try FormatFixtures.paragraphs(path, format, review, in: dir)
    }

    private func expected(_ ps: [[String]]) -> [String] {
        ps.map { $0.joined(separator: " ") + "." }
    }

    /// One reviewer's edits: (paragraph, word index) → the word's replacement ("" deletes it; "a b" inserts after).
    private typealias Edits = [[Int: String]]

    private func applying(_ edits: Edits, to ps: [[String]]) -> [[String]] {
        ps.enumerated().map { p, words in
            var out: [String] = []
            for (i, w) in words.enumerated() {
                guard let r = edits[p][i] else { out.append(w); continue }
                out.append(contentsOf: r.split(separator: " ").map(String.init))
            }
            return out
        }
    }

    private func run(_ format: Format, rounds: Int, seed: UInt64) throws {
        var rng = SeededRandom(seed: SeededRandom.seed(default: seed))
        for round in 0..<rounds {
            var ps: [[String]] = []
            for _ in 0..<Int.random(in: 3...6, using: &rng) {
                ps.append((0..<Int.random(in: 10...18, using: &rng)).map { _ in Self.words.randomElement(using: &rng)! })
            }
            let reviewers = Int.random(in: 2...6, using: &rng)
            // Words taken by a reviewer, and their neighbours, are not edited by another: no two edits meet.
            var taken = Set<[Int]>()
            var edits: [Edits] = []
            for k in 0..<reviewers {
                var mine: Edits = ps.map { _ in [:] }
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let p = Int.random(in: 0..<ps.count, using: &rng), i = Int.random(in: 1..<(ps[p].count - 1), using: &rng)
                    guard !taken.contains([p, i]) else { continue }
                    for d in -1...1 { taken.insert([p, i + d]) }
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: mine[p][i] = "r\(k)word"
                    case 1: mine[p][i] = ps[p][i] + " n\(k)word"
                    default: mine[p][i] = ""
                    }
                }
                edits.append(mine)
            }
            let original = try file(source(ps), "\(format.name)-o\(round)", format)
            var options = CombineOptions()
            options.date = "2026-01-02T00:00:00Z"
            var copies: [String] = []
            for (k, e) in edits.enumerated() {
                let copy = try file(source(applying(e, to: ps)), "\(format.name)-r\(round)-\(k)", format)
                copies.append(copy)
                options.reviewerOf[copy] = "Reviewer\(k)"
            }
            let out = dir + "/\(format.name)-out\(round).\(format.name)"
            let result = try Combination.combine(original: original, copies: copies, options: options, toFile: out,
                                                 diagnostics: Diagnostics())
            let what = "\(format.name) round \(round), \(reviewers) reviewers"
            XCTAssertTrue(result.conflicts.isEmpty, "\(what): \(result.conflicts)")
            XCTAssertEqual(try paragraphs(out, format, ReviewOptions(changes: .reject)), expected(ps), "\(what): reject")
            var all = ps.map { _ in [Int: String]() }
            for e in edits { for (p, m) in e.enumerated() { all[p].merge(m) { a, _ in a } } }
            XCTAssertEqual(try paragraphs(out, format, ReviewOptions(changes: .accept)), expected(applying(all, to: ps)),
                           "\(what): accept")
            for (k, e) in edits.enumerated() {
                let only = ReviewOptions(changes: .reject, accept: [ChangeFilter(author: "Reviewer\(k)")])
                XCTAssertEqual(try paragraphs(out, format, only), expected(applying(e, to: ps)), "\(what): Reviewer\(k) alone")
            }
        }
    }

    func testReviewersComposeInMarkdown() throws { try run(FormatRegistry.markdown, rounds: 8, seed: 5101) }

    func testReviewersComposeInDOCX() throws { try run(FormatRegistry.docx, rounds: 8, seed: 5102) }

    func testReviewersComposeInRTF() throws { try run(FormatRegistry.rtf, rounds: 8, seed: 5103) }

    /// Two reviewers replacing the same word differently, through each format: one conflict listed per overlap,
    /// the preferred reviewer's word in the accepted text, the other's proposal a comment by them, and rejecting
    /// everything still gives ORIGINAL.
    func testOverlapsAreListedOnceAndThePreferredTextWins() throws {
        for format in [FormatRegistry.markdown, FormatRegistry.docx, FormatRegistry.rtf] {
            let ps = [["alpha", "beta", "gamma", "delta", "river"], ["stone", "light", "paper", "green", "north"]]
            let original = try file(source(ps), "\(format.name)-conflict-o", format)
            var a = ps, b = ps
            a[0][2] = "ann"; b[0][2] = "bob"     // an overlap
            a[1][4] = "annonly"                  // no overlap
            let ca = try file(source(a), "\(format.name)-conflict-a", format)
            let cb = try file(source(b), "\(format.name)-conflict-b", format)
            var options = CombineOptions()
            options.date = "2026-01-02T00:00:00Z"
            options.reviewerOf = [ca: "Ann", cb: "Bob"]
            options.prefer = "Bob"
            let out = dir + "/\(format.name)-conflict-out.\(format.name)"
            let result = try Combination.combine(original: original, copies: [ca, cb], options: options, toFile: out,
                                                 diagnostics: Diagnostics())
            XCTAssertEqual(result.conflicts.count, 1, "\(format.name): \(result.conflicts)")
            XCTAssertEqual(try paragraphs(out, format, ReviewOptions(changes: .reject)), expected(ps), format.name)
            var both = b
            both[1][4] = "annonly"
            XCTAssertEqual(try paragraphs(out, format, ReviewOptions(changes: .accept, comments: .drop)), expected(both), format.name)
            let rows = try ChangeListing.rows(.file(out), format: format)
            XCTAssertEqual(rows.filter { $0.change == "conflict" }.count, 1, "\(format.name): \(rows)")
        }
    }
}

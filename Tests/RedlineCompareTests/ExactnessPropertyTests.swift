import XCTest
import Foundation
@testable import RedlineCompare
import RedlineCore
import Redline

/// The heart of compare: for every generated pair, accepting the result gives NEW and rejecting it gives OLD.
final class ExactnessPropertyTests: XCTestCase {
    /// Seeds run per test (`COMPARE_PAIRS` overrides; `COMPARE_SEED` replays one seed).
    static var pairCount: Int { Int(ProcessInfo.processInfo.environment["COMPARE_PAIRS"] ?? "") ?? 1000 }
    static var seeds: [UInt64] {
        if let s = ProcessInfo.processInfo.environment["COMPARE_SEED"], let v = UInt64(s) { return [v] }
        return (0..<UInt64(pairCount)).map { $0 &* 7919 &+ 17 }
    }

    /// One generated pair: OLD, NEW and the edits applied.
    static func pair(_ seed: UInt64) -> (Document, Document, [String: Int]) {
        var g = PairGenerator(seed: seed)
        let items = g.items()
        let oldNotes = g.notes
        let oldDoc = g.document(items, notes: oldNotes)
        let edited = g.edited(items)
        let newDoc = g.document(edited, notes: g.notes)
        return (oldDoc, newDoc, g.applied)
    }

    /// A document as CriticMarkup with formatting, for failure messages.
    static func md(_ d: Document) -> String {
        let out = MemoryOutput()
        var w = WriteOptions(); w.preserveFormatting = true
        try? Converter.write(d, format: FormatRegistry.named("md")!, to: out, options: w)
        return out.string.replacingOccurrences(of: "{>>@Redline (2024-01-01T00:00:00Z)<<}", with: "")
    }

    static func firstDifference(_ x: Document, _ y: Document) -> String {
        for (k, (p, q)) in zip(x.blocks, y.blocks).enumerated() where p != q { return "block \(k):\n  got  \(p)\n  want \(q)" }
        if x.blocks.count != y.blocks.count { return "block count \(x.blocks.count) vs \(y.blocks.count)" }
        if x.notes != y.notes { return "notes:\n  got  \(x.notes)\n  want \(y.notes)" }
        return "header or comments"
    }

    func check(_ options: CompareOptions, file: StaticString = #filePath, line: UInt = #line) {
        var failures = 0
        var kinds: [String: Int] = [:]
        for seed in Self.seeds {
            let (a, b, applied) = Self.pair(seed)
            for (k, v) in applied { kinds[k, default: 0] += v }
            let (result, _) = DocumentComparer.compare(old: a, new: b, options: options)
            let acc = Normalize.document(DocumentComparer.accepted(result))
            let rej = Normalize.document(DocumentComparer.rejected(result))
            let na = Normalize.document(a), nb = Normalize.document(b)
            if acc != nb || rej != na {
                failures += 1
                if failures <= 3 {
                    XCTFail("seed \(seed) (\(applied.keys.sorted().joined(separator: ", "))): accept \(acc == nb ? "ok" : "differs"), reject \(rej == na ? "ok" : "differs")\n\(Self.firstDifference(acc == nb ? rej : acc, acc == nb ? na : nb))\n--- OLD\n\(Self.md(na))--- NEW\n\(Self.md(nb))--- RESULT\n\(Self.md(result))--- ACCEPTED\n\(Self.md(acc))--- REJECTED\n\(Self.md(rej))", file: file, line: line)
                }
            }
        }
        XCTAssertEqual(failures, 0, "\(failures) of \(Self.seeds.count) pairs not exact; edits: \(kinds.sorted { $0.key < $1.key })", file: file, line: line)
        // The generator must have produced every kind of edit.
        if Self.seeds.count >= 500 {
            for k in ["insert words", "delete words", "substitute", "move words", "move block", "split", "merge",
                      "formatting", "heading", "paragraph style", "insert paragraph", "delete block",
                      "table row inserted", "table row deleted", "table cell edited", "note edited", "note added",
                      "picture replaced", "picture resized", "code edited"] {
                XCTAssertGreaterThan(kinds[k] ?? 0, 0, "no \(k) edits generated", file: file, line: line)
            }
        }
    }

    func testAcceptGivesNewRejectGivesOld() { check(CompareOptions(date: "2024-01-01T00:00:00Z")) }

    func testCharacterGranularity() {
        check(CompareOptions(granularity: .character))
    }

    func testWithoutMoves() { check(CompareOptions(detectMoves: false)) }
}

import XCTest
@testable import RedlineCompare
import RedlineCore

/// Guards for the two-thread gap diff and the byte-keyed token keys (PERFORMANCE.md, Compare): what two
/// threads make is what one makes, and keys are equal exactly when their strings are.
final class ParallelCompareTests: XCTestCase {
    /// Generated pairs compared on one thread and with every story split across two give the same document
    /// and counts (a small `parallelMinimum` makes even these short stories go to two threads).
    func testTwoThreadsGiveWhatOneGives() {
        let seeds: [UInt64] = (0..<300).map { $0 &* 7919 &+ 17 }
        for options in [CompareOptions(date: "2024-01-01T00:00:00Z"), CompareOptions(date: "2024-01-01T00:00:00Z", granularity: .character),
                        CompareOptions(date: "2024-01-01T00:00:00Z", detectMoves: false)] {
            for seed in seeds {
                let (a, b, _) = ExactnessPropertyTests.pair(seed)
                let (one, s1) = DocumentComparer.compare(old: a, new: b, options: options, diagnostics: Diagnostics(), parallelMinimum: .max)
                let (two, s2) = DocumentComparer.compare(old: a, new: b, options: options, diagnostics: Diagnostics(), parallelMinimum: 2)
                XCTAssertEqual(one, two, "seed \(seed)")
                XCTAssertEqual(s1, s2, "seed \(seed)")
                if one != two { return }
            }
        }
    }

    /// A long story split between the threads: moves across the split are still found, equal paragraphs on
    /// both halves kept, and the result is exact.
    func testMovesAcrossTheSplitAreFound() {
        var old: [String] = [], new: [String] = []
        for k in 0..<400 {
            let p = "Paragraph \(k) tells of river \(k % 7) and the stone \(k % 11) in the morning light."
            old.append(p)
            new.append(k % 3 == 0 ? p : p.replacingOccurrences(of: "stone", with: "house"))
        }
        // A paragraph moved from the start to the end, across wherever the split falls.
        let moved = "This long paragraph about the quiet harbour travels from the very start to the far end."
        old.insert(moved, at: 5)
        new.append(moved)
        let a = CompareBasicTests.doc(old), b = CompareBasicTests.doc(new)
        let options = CompareOptions(date: "2024-01-01T00:00:00Z")
        let (one, s1) = DocumentComparer.compare(old: a, new: b, options: options, diagnostics: Diagnostics(), parallelMinimum: .max)
        let (two, s2) = DocumentComparer.compare(old: a, new: b, options: options, diagnostics: Diagnostics(), parallelMinimum: 100)
        XCTAssertEqual(one, two)
        XCTAssertEqual(s1, s2)
        XCTAssertGreaterThanOrEqual(s2.moves, 1)
        XCTAssertEqual(Normalize.document(DocumentComparer.accepted(two)), Normalize.document(b))
        XCTAssertEqual(Normalize.document(DocumentComparer.rejected(two)), Normalize.document(a))
    }

    /// Keys interned by bytes are equal exactly when the strings are equal as Swift strings: ASCII by bytes,
    /// canonically equivalent spellings (composed and decomposed, the Kelvin sign and K) as one key.
    func testKeysAreEqualExactlyWhenStringsAre() {
        var t = KeyTable()
        let words = ["hello", "Hello", "hello ", "", "K", "\u{212A}", "caf\u{E9}", "cafe\u{301}", "cafe", ";", "\u{37E}",
                     "`", "\u{1FEF}", "\u{212A}elvin", "Kelvin", "東京", "\u{1}3\u{1}https://x", "\u{2}br"]
        var keys: [Int] = []
        for w in words {
            var s = w
            keys.append(s.withUTF8 { t.key(bytes: $0) })
        }
        for (i, x) in words.enumerated() {
            for (j, y) in words.enumerated() {
                XCTAssertEqual(keys[i] == keys[j], x == y, "\(x.debugDescription) vs \(y.debugDescription)")
            }
            XCTAssertEqual(t.key(x), keys[i])
        }
        // Another table's keys translated into this one's: the same strings, the same keys.
        var other = KeyTable()
        let otherKeys = words.reversed().map { other.key($0) }
        let map = t.translation(of: other)
        for (k, w) in zip(otherKeys, words.reversed()) { XCTAssertEqual(Int(map[Int32(k)]), t.key(w)) }
        XCTAssertEqual(map[0], 0)
    }

    /// The byte table keeps every entry as it grows (open addressing, rehashed at half full).
    func testByteInternerKeepsEveryEntry() {
        var table = ByteInterner()
        var next: Int32 = 1
        func key(_ s: String) -> Int32 {
            var s = s
            return s.withUTF8 { b in
                let (k, added) = table.key(b, ifNew: next)
                if added { next += 1 }
                return k
            }
        }
        let first = (0..<20_000).map { key("w\($0)") }
        XCTAssertEqual(first, (1...20_000).map(Int32.init))
        XCTAssertEqual((0..<20_000).map { key("w\($0)") }, first)
        var seen = 0
        table.forEach { _, _ in seen += 1 }
        XCTAssertEqual(seen, 20_000)
    }

    /// The build is cut just after a paragraph break at or past the middle, never before an equal block token
    /// (a nested story, whose moves are numbered in order), and not at all for short scripts.
    func testBuildSplitsAfterABreakWithNoNestedStoryAfter() {
        var tokens: [Token] = []
        func tok(_ kind: Token.Kind) -> Int32 {
            tokens.append(kind == .mark || kind == .block ? Token(kind: kind, key: 1, extra: 0)
                          : Token(kind: kind, key: 2, piece: Piece(run: 0, start: 0, end: 1), chars: 1))
            return Int32(tokens.count - 1)
        }
        // Ten paragraphs of three words each.
        var ops: [Op] = []
        for _ in 0..<10 {
            for _ in 0..<3 { let t = tok(.word); ops.append(Op(kind: .equal, tok: t, other: t)) }
            let m = tok(.mark); ops.append(Op(kind: .equal, tok: m, other: m))
        }
        var v = TokenView(old: tokens, new: tokens)
        XCTAssertEqual(StoryComparer.buildSplit(ops, v, minimum: 2), 24)      // after the sixth break (op 23)
        XCTAssertNil(StoryComparer.buildSplit(ops, v, minimum: 1_000))
        // An equal block late in the script: the cut comes after it.
        let b = tok(.block)
        ops.insert(Op(kind: .equal, tok: b, other: b), at: 32)
        v = TokenView(old: tokens, new: tokens)
        XCTAssertEqual(StoryComparer.buildSplit(ops, v, minimum: 2), 37)
        // One at the very end: no cut.
        ops.append(Op(kind: .equal, tok: b, other: b))
        XCTAssertNil(StoryComparer.buildSplit(ops, v, minimum: 2))
    }
}

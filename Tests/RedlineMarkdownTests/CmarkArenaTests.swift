import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// cmark-gfm parses into a per-thread arena (`CmarkArena`, PERFORMANCE.md, "Small runs"): what cmark asks
/// of `calloc` and `realloc` holds, and parses on several threads at once do not share one.
final class CmarkArenaTests: XCTestCase {
    func testAllocationsAreZeroedAlignedAndKeepTheirBytesWhenGrown() {
        let arena = CmarkArena()
        var pieces: [(UnsafeMutableRawPointer, Int)] = []
        for k in 0..<2_000 {
            let size = [1, 7, 16, 33, 200, 4_000, CmarkArena.blockSize / 4 + 1][k % 7]
            let p = arena.allocate(1, size)
            XCTAssertEqual(Int(bitPattern: p) % 16, 0)
            XCTAssertTrue((0..<size).allSatisfy { p.load(fromByteOffset: $0, as: UInt8.self) == 0 }, "zeroed")
            p.initializeMemory(as: UInt8.self, repeating: UInt8(k % 251), count: size)
            pieces.append((p, size))
        }
        // Grown in place (the last piece) and by copying (an earlier one): the bytes stay.
        for (index, grow) in [(pieces.count - 1, 3 * CmarkArena.blockSize), (0, 100), (1, 5_000)] {
            let (p, size) = pieces[index]
            let q = arena.reallocate(p, grow)
            XCTAssertTrue((0..<size).allSatisfy { q.load(fromByteOffset: $0, as: UInt8.self) == UInt8(index % 251) })
            q.storeBytes(of: 0xAB, toByteOffset: grow - 1, as: UInt8.self)
        }
        // Pieces allocated before are untouched by the growing.
        for (k, (p, size)) in pieces.enumerated() where k >= 2 && k < pieces.count - 1 {
            XCTAssertEqual(p.load(fromByteOffset: size - 1, as: UInt8.self), UInt8(k % 251))
        }
        let last = arena.allocate(1, 8)
        let grown = arena.reallocate(last, 64)
        XCTAssertEqual(grown, last, "the last piece grows in place")
        XCTAssertEqual(arena.reallocate(grown, 10), grown, "shrinking keeps the piece")
    }

    /// Blocks come from `malloc`, which hands back memory another arena dirtied: every allocation is still
    /// zeroed (only what is handed out is zeroed, not the whole block).
    func testAllocationsAreZeroedInReusedMemory() {
        for round in 0..<4 {
            do {
                let dirty = CmarkArena()
                for _ in 0..<600 {
                    dirty.allocate(1, 4_000).initializeMemory(as: UInt8.self, repeating: 0xA5, count: 4_000)
                }
            }
            let arena = CmarkArena()
            for k in 0..<600 {
                let size = [24, 4_000, 130][k % 3]
                let p = arena.allocate(k % 2 + 1, size)
                XCTAssertTrue((0..<((k % 2 + 1) * size)).allSatisfy { p.load(fromByteOffset: $0, as: UInt8.self) == 0 },
                              "round \(round), piece \(k) not zeroed")
            }
        }
    }

    func testParsesOnManyThreadsAtOnceGiveWhatOneGives() throws {
        let text = Array(String(repeating: "**b** *i* [l](u) `c` ~~s~~ <b>h</b>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n", count: 200).utf8)
        let expected = Self.dump(try Cmark.parse(text))
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            results.add((try? Cmark.parse(text)).map(Self.dump) ?? "failed")
        }
        XCTAssertEqual(results.all.count, 8)
        for r in results.all { XCTAssertEqual(r, expected) }
    }

    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
    }

    private static func dump(_ n: MDNode) -> String {
        "\(n.kind)(\(n.literal)|" + n.children.map(dump).joined(separator: ",") + ")"
    }
}

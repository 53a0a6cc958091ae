import RedlineCore
import RedlineXML
import XCTest

/// The reader's per-reader tables made cheap for the dozen readers a small DOCX opens (PERFORMANCE.md,
/// "Compare batches"): local names from a raw slot table whose strings live beside it, and name numbers
/// shared between readers of the same list.
final class XMLReaderNameTableTests: XCTestCase {
    /// Thousands of distinct names, so slots are taken over again and again: every name read right.
    func testManyDistinctNamesReadRight() throws {
        let names = (0..<3000).map { "e\($0)x" }
        let xml = "<root>" + names.map { "<\($0)/>" }.joined() + names.reversed().map { "<\($0)>t</\($0)>" }.joined() + "</root>"
        let x = try XMLReader(bytes: Array(xml.utf8), name: "t.xml")
        var seen: [String] = [], open: [String] = []
        while let k = try x.next() {
            if k == .start { seen.append(x.localName); open.append(x.localName) }
            if k == .end { XCTAssertEqual(x.localName, open.removeLast()) }
        }
        XCTAssertTrue(open.isEmpty)
        XCTAssertEqual(seen, ["root"] + names + names.reversed())
    }

    /// Readers given different lists number names by their own list, whatever was cached for others,
    /// also when more lists than the cache keeps come and go, and from several threads.
    func testNameNumbersFollowEachReadersList() throws {
        @Sendable func ids(_ names: [String]) throws -> [Int] {
            let x = try XMLReader(bytes: Array("<r><a/><b/><c/></r>".utf8), name: "t.xml", names: names)
            var out: [Int] = []
            while let k = try x.next() {
                if k == .start { out.append(x.nameID) }
            }
            return out
        }
        let lists: [[String]] = [["a", "b"], ["b", "a"], ["c", "b", "a", "r"], [], ["a", "a", "b"]]
            + (0..<12).map { ["x\($0)", "c"] }
        for _ in 0..<3 {
            for list in lists {
                let want = ["r", "a", "b", "c"].map { n in list.firstIndex(of: n) ?? -1 }
                XCTAssertEqual(try ids(list), want, "\(list)")
                XCTAssertEqual(try ids(list.map { String($0) }), want, "an equal list in other storage")
            }
        }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let list = lists[i % lists.count]
            let want = ["r", "a", "b", "c"].map { n in list.firstIndex(of: n) ?? -1 }
            if (try? ids(list)) != want { failures.add() }
        }
        XCTAssertEqual(failures.count, 0)
    }

    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.lock(); n += 1; lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return n }
    }
}

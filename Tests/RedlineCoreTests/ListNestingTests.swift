import XCTest
@testable import RedlineCore

/// `ListNesting`: how a flat stream of paragraphs becomes nested lists and block quotes.
final class ListNestingTests: XCTestCase {
    private func p(_ s: String) -> Block { .paragraph(Paragraph([.text(s)])) }
    private let bullet = ListKind.bullet
    private let ordered = ListKind.ordered(start: 1, delimiter: ".")

    func testDeeperListsNestInTheLastItemAndCloseIntoIt() {
        var n = ListNesting<String>()
        n.startList(key: "a", level: 0, kind: bullet, item: p("1"))
        n.startList(key: "a", level: 1, kind: ordered, item: p("1.1"))
        n.addItem(p("1.2"))
        XCTAssertEqual(n.depth, 2)
        XCTAssertEqual(n.innermost?.itemCount, 2)
        n.closeLists(deeperThan: 0)
        n.addItem(p("2"))
        XCTAssertTrue(n.finished.isEmpty, "nothing is finished while a list is open")
        n.closeAllLists()
        let inner = Block.list(List(kind: ordered, items: [[p("1.1")], [p("1.2")]]))
        XCTAssertEqual(n.take(), [.list(List(kind: bullet, items: [[p("1"), inner], [p("2")]]))])
        XCTAssertTrue(n.finished.isEmpty)
    }

    func testClosingDeeperListsCanKeepTheOutermost() {
        var n = ListNesting<Int>()
        n.startList(key: 1, level: 2, kind: bullet, item: p("deep"))
        n.closeLists(deeperThan: 0, keepingOutermost: true)
        XCTAssertEqual(n.depth, 1)
        n.closeLists(deeperThan: 0)
        XCTAssertEqual(n.depth, 0)
        XCTAssertEqual(n.take(), [.list(List(kind: bullet, items: [[p("deep")]]))])
    }

    func testContinuationClosesDeeperListsAndLoosens() {
        var n = ListNesting<String>()
        n.startList(key: "a", level: 0, kind: bullet, item: p("1"))
        n.startList(key: "b", level: 1, kind: bullet, item: p("1.1"))
        XCTAssertEqual(n.lastDepth { $0.key == "a" }, 0)
        XCTAssertNil(n.lastDepth { $0.level == 5 })
        n.continueItem(p("more of 1"), depth: 0, loose: true)
        XCTAssertEqual(n.depth, 1)
        n.closeAllLists()
        var list = List(kind: bullet, items: [[p("1"), .list(List(kind: bullet, items: [[p("1.1")]])), p("more of 1")]])
        list.tight = false
        XCTAssertEqual(n.take(), [.list(list)])
    }

    func testAListClosedUnderAnEmptyParentMakesAnItem() {
        var n = ListNesting<Int>()
        n.startList(key: 1, level: 0, kind: bullet, item: p("1"))
        n.startList(key: 1, level: 1, kind: bullet, item: p("1.1"))
        n.closeInnermost()
        n.closeAllLists()
        XCTAssertEqual(n.take(), [.list(List(kind: bullet, items: [[p("1"), .list(List(kind: bullet, items: [[p("1.1")]]))]]))])
    }

    func testQuotesGatherFinishedBlocksListsIncluded() {
        var n = ListNesting<String>()
        n.emit(p("before"))
        n.openQuote()
        XCTAssertTrue(n.isQuoting)
        n.emit(p("q1"))
        n.startList(key: "a", level: 0, kind: bullet, item: p("item"))
        n.openQuote()  // already open: nothing
        n.closeAll()
        XCTAssertFalse(n.isQuoting)
        n.closeQuote()  // none open: nothing
        n.emit(p("after"))
        XCTAssertEqual(n.take(), [p("before"), .blockQuote([p("q1"), .list(List(kind: bullet, items: [[p("item")]]))]), p("after")])
    }
}

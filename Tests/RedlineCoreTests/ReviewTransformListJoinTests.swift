import XCTest
@testable import RedlineCore

/// Issue #32: `ReviewTransform` joins a paragraph whose mark goes as Word's flat paragraphs do, across list
/// items and levels (the full property test against a reference is `WordFlatParagraphRuleTests`); here the
/// shapes one by one, and long runs of joins, which must stay linear.
final class ReviewTransformListJoinTests: XCTestCase {
    static let bob = Change(author: "Bob", date: "2024-01-16T09:00:00Z")

    static func p(_ s: String, goes: Bool = false) -> Block {
        .paragraph(Paragraph([.text(s)], markChange: goes ? .deleted(bob) : nil))
    }

    static func texts(_ blocks: [Block], _ depth: Int = 0) -> [String] {
        blocks.flatMap { b -> [String] in
            switch b {
            case .paragraph(let p): return ["\(depth)|" + p.content.plainText]
            case .list(let l): return l.items.flatMap { ["\(depth + 1)["] + texts($0, depth + 1) + ["]"] }
            default: return ["?"]
            }
        }
    }

    static func accepted(_ blocks: [Block]) throws -> [String] {
        texts(try Document(blocks: blocks).applying([ReviewTransform(.accept)]).blocks)
    }

    func testItemJoinsTheNextItemAndTheListAfterIt() throws {
        // - A (goes) / - B (goes) / paragraph C: one paragraph ABC, the list gone.
        let list = Block.list(List(kind: .bullet, items: [[Self.p("A", goes: true)], [Self.p("B", goes: true)]]))
        XCTAssertEqual(try Self.accepted([list, Self.p("C")]), ["0|ABC"])
        // A paragraph before a list joins its first item.
        let l2 = Block.list(List(kind: .bullet, items: [[Self.p("B")], [Self.p("C")]]))
        XCTAssertEqual(try Self.accepted([Self.p("A", goes: true), l2]), ["1[", "1|AB", "]", "1[", "1|C", "]"])
    }

    func testItemWithoutItsParagraphContinuesTheItemBefore() throws {
        // 1. One / 2. Two (goes) / 1. Nested / 3. Three: no empty item 2.
        let l = Block.list(List(kind: .ordered(start: 1, delimiter: "."), items: [
            [Self.p("One")],
            [Self.p("Two", goes: true), .list(List(kind: .bullet, items: [[Self.p("Nested")]]))],
            [Self.p("Three")],
        ]))
        XCTAssertEqual(try Self.accepted([l]), ["1[", "1|One", "2[", "2|TwoNested", "]", "]", "1[", "1|Three", "]"])
    }

    func testNoJoinIntoAnItemStartingWithAHeading() throws {
        let l = Block.list(List(kind: .bullet, items: [[.heading(level: 2, Paragraph([.text("H")]))]]))
        XCTAssertEqual(try Self.accepted([Self.p("A", goes: true), l]).first, "0|A")
    }

    func testLongRunsOfJoinsStayLinear() throws {
        let n = 20_000
        // Every item's mark goes: one paragraph.
        let chain = Block.list(List(kind: .bullet, items: (0..<n).map { [Self.p("x", goes: $0 < n - 1)] }))
        XCTAssertEqual(try Self.accepted([chain]), ["1[", "1|" + String(repeating: "x", count: n), "]"])
        // Every item's paragraph joins the list nested in it: all continue the first item.
        var items: [[Block]] = [[Self.p("first")]]
        for _ in 0..<n {
            items.append([Self.p("p", goes: true), .list(List(kind: .bullet, items: [[Self.p("q")]]))])
        }
        let r = try Document(blocks: [.list(List(kind: .bullet, items: items))]).applying([ReviewTransform(.accept)])
        guard case .list(let l)? = r.blocks.first, l.items.count == 1, case .list(let nested)? = l.items[0].last else {
            return XCTFail("\(r.blocks.count) blocks")
        }
        XCTAssertEqual(nested.items.count, n)
    }
}

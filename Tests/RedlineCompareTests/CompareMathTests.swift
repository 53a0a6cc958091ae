import XCTest
@testable import RedlineCompare
import RedlineCore

/// Equations in compare: the same TeX is the same equation; a changed one is the whole old equation deleted
/// and the whole new one inserted, and accepting or rejecting gives NEW or OLD exactly.
final class CompareMathTests: XCTestCase {
    private func doc(_ inlines: [Inline]) -> Document { Document(blocks: [.paragraph(Paragraph(inlines))]) }

    private func compared(_ old: [Inline], _ new: [Inline]) -> [Inline] {
        let a = doc(old), b = doc(new)
        let (r, _) = DocumentComparer.compare(old: a, new: b, options: CompareOptions(date: "2024-01-01T00:00:00Z"))
        XCTAssertEqual(Normalize.document(DocumentComparer.accepted(r)), Normalize.document(b), "accept")
        XCTAssertEqual(Normalize.document(DocumentComparer.rejected(r)), Normalize.document(a), "reject")
        return r.blocks.first?.paragraph?.content ?? []
    }

    private func changes(_ inlines: [Inline]) -> (deleted: [Inline], inserted: [Inline]) {
        var d: [Inline] = [], i: [Inline] = []
        for x in inlines {
            switch x {
            case .deletion(_, let c): d += c
            case .insertion(_, let c): i += c
            case .substitution(_, let dd, let ii): d += dd; i += ii
            default: break
            }
        }
        return (d, i)
    }

    func testEqualEquationsAreEqual() {
        let same: [Inline] = [.text("Let "), .math(.inline, "x^2"), .text(" be.")]
        XCTAssertEqual(compared(same, same), same)
    }

    func testAChangedEquationIsDeletedAndInsertedWhole() {
        let result = compared([.text("Let "), .math(.inline, "x^2"), .text(" be.")],
                              [.text("Let "), .math(.inline, "x^3"), .text(" be.")])
        let (d, i) = changes(result)
        XCTAssertEqual(d, [.math(.inline, "x^2")], "\(result)")
        XCTAssertEqual(i, [.math(.inline, "x^3")], "\(result)")
        // Inline and display math of the same TeX differ too.
        let kinds = changes(compared([.math(.inline, "a")], [.math(.display, "a")]))
        XCTAssertEqual(kinds.deleted, [.math(.inline, "a")])
        XCTAssertEqual(kinds.inserted, [.math(.display, "a")])
    }
}

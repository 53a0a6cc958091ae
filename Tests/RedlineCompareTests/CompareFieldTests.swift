import XCTest
@testable import RedlineCompare
import RedlineCore

/// Fields in compare (issue 33, Word's "Fields" option): a field is one unit, compared by its instruction and its
/// result, so a changed field is the old one deleted and the new one inserted and accept/reject give NEW and OLD;
/// `compareFields` off (`--no-fields`) makes every field equal to any other, NEW's kept unmarked.
final class CompareFieldTests: XCTestCase {
    private func doc(_ inlines: [Inline]) -> Document { Document(blocks: [.paragraph(Paragraph(inlines))]) }

    private func field(_ instruction: String, _ result: String) -> Inline {
        .field(FieldCode(instruction: instruction), [.text(result)])
    }

    private func compare(_ old: [Inline], _ new: [Inline], fields: Bool = true) -> Document {
        var options = CompareOptions(date: "2024-01-01T00:00:00Z")
        options.compareFields = fields
        return DocumentComparer.compare(old: doc(old), new: doc(new), options: options).0
    }

    private func marks(_ d: Document) -> (deleted: [Inline], inserted: [Inline]) {
        var del: [Inline] = [], ins: [Inline] = []
        d.blocks.first?.forEachInline { x in
            switch x {
            case .deletion(_, let c): del += c
            case .insertion(_, let c): ins += c
            case .substitution(_, let dd, let ii): del += dd; ins += ii
            default: break
            }
        }
        return (del, ins)
    }

    func testAChangedFieldIsDeletedAndInsertedWholeAndResolvesExactly() {
        let old: [Inline] = [.text("See "), field("REF _Ref1 \\h", "Table 2"), .text(" on page "), field("PAGEREF _Ref1", "4"), .text(".")]
        let new: [Inline] = [.text("See "), field("REF _Ref1 \\h", "Table 3"), .text(" on page "), field("PAGEREF _Ref1", "4"), .text(".")]
        let r = compare(old, new)
        let (d, i) = marks(r)
        XCTAssertEqual(d, [field("REF _Ref1 \\h", "Table 2")], "\(r.blocks)")
        XCTAssertEqual(i, [field("REF _Ref1 \\h", "Table 3")], "\(r.blocks)")
        XCTAssertEqual(Normalize.document(DocumentComparer.accepted(r)), Normalize.document(doc(new)))
        XCTAssertEqual(Normalize.document(DocumentComparer.rejected(r)), Normalize.document(doc(old)))
        // The instruction alone changing is a change too (a date field given another format).
        let (d2, i2) = marks(compare([field("DATE \\@ \"d MMMM\"", "1 May")], [field("DATE \\@ \"MMMM d\"", "1 May")]))
        XCTAssertEqual(d2.count + i2.count, 2)
        // Equal fields are equal.
        XCTAssertEqual(marks(compare(old, old)).deleted, [])
    }

    func testNoFieldsKeepsNewsFieldsUnmarked() {
        let old: [Inline] = [.text("Printed "), field("DATE", "1 May 2024"), .text(", page "), field("PAGE", "3")]
        let new: [Inline] = [.text("Printed "), field("DATE", "2 June 2025"), .text(", page "), field("PAGE", "4")]
        XCTAssertEqual(marks(compare(old, new)).inserted.count, 2)
        let r = compare(old, new, fields: false)
        let (d, i) = marks(r)
        XCTAssertEqual(d + i, [], "\(r.blocks)")
        XCTAssertEqual(r.blocks.first?.paragraph?.content, new)
        // Text around the fields is still compared.
        let edited = compare(old, [.text("Updated "), field("DATE", "2 June 2025"), .text(", page "), field("PAGE", "4")], fields: false)
        XCTAssertEqual(marks(edited).inserted, [.text("Updated")])
    }
}

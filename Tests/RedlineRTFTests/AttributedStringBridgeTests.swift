import Foundation
import XCTest
import Redline
import RedlineRTF

/// Document → AttributedString → Document keeps what attributed text carries.
final class AttributedStringBridgeTests: XCTestCase {
    /// A field shows as its result (with the result's formatting and the field's change), not as nothing.
    func testAFieldIsItsResult() {
        let ann = Change(author: "Ann")
        let doc = Document(blocks: [.paragraph(Paragraph([
            .text("Page "), .field(FieldCode(instruction: "PAGE"), [.strong([.text("3")])]),
            .text(", see "), .insertion(ann, [.field(FieldCode(instruction: "REF x"), [.text("Table 2")])]),
        ]))])
        let text = AttributedString(redline: doc)
        XCTAssertEqual(String(text.characters), "Page 3, see Table 2\n")
        XCTAssertTrue(text.runs.contains { $0.redlineTextFormat?.bold == true })
        XCTAssertTrue(text.runs.contains { $0.redlineChange == .insertion(ann) })
    }

    func testRoundTripOfParagraphsFormattingAndReviewMarks() throws {
        let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z")
        let doc = Document(blocks: [
            .heading(level: 1, Paragraph([.text("Chapter One")], style: ParagraphStyle(alignment: .center))),
            .paragraph(Paragraph([
                .text("It was "), .strong([.text("dark")]), .text(" and "),
                .styled(CharacterStyle(fontFamily: "Palatino", fontSize: 13, color: RGBColor(red: 200, green: 0, blue: 0)), [.emphasis([.text("cold")])]),
                .text(". "), .insertion(ann, [.text("Very ")]), .deletion(ann, [.text("quite ")]),
                .link(Link(url: "https://example.com", title: "Ex"), [.text("link")]), .lineBreak, .text("next "),
                .commentStart("c1"), .text("commented"),
            ], style: .scrivener, markChange: .inserted(ann))),
            .paragraph(Paragraph([.text("across"), .commentEnd("c1"), .text(" paragraphs.")],
                                 style: ParagraphStyle(name: "Body Text", lineSpacing: .exactly(14), tabStops: [TabStop(position: 36)]))),
        ])
        let text = AttributedString(redline: doc)
        XCTAssertEqual(String(text.characters), "Chapter One\nIt was dark and cold. Very quite link\u{2028}next commented\nacross paragraphs.\n")
        let first = try XCTUnwrap(text.runs.first)
        XCTAssertEqual(first.redlineHeadingLevel, 1)
        XCTAssertEqual(first.redlineParagraphStyle?.alignment, .center)
        XCTAssertTrue(text.runs.contains { $0.link == URL(string: "https://example.com") })
        XCTAssertTrue(text.runs.contains { $0.redlineChange == .insertion(ann) })
        let back = Document(redline: text)
        XCTAssertEqual(back.blocks, doc.blocks)
    }

    func testRTFThroughAttributedString() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus/rtf/scrivener-manuscript.rtf").path
        var doc = try RTFReader().read(.file(path))
        // A comment on no text (a Scrivener comment link with an empty result) has no range to carry.
        func dropEmptyRanges(_ xs: [Inline]) -> [Inline] {
            var out: [Inline] = []
            for x in xs {
                if case .commentEnd(let id) = x, case .commentStart(id)? = out.last { out.removeLast(); continue }
                out.append(x.mapChildren(dropEmptyRanges))
            }
            return InlineBuilder.normalized(out)
        }
        doc.blocks = doc.blocks.map { b in
            guard case .paragraph(var p) = b else { return b }
            p.content = dropEmptyRanges(p.content)
            return .paragraph(p)
        }
        let back = Document(redline: AttributedString(redline: doc), header: doc.header, comments: doc.comments)
        XCTAssertEqual(back.blocks, doc.blocks)
        let rtf = try RTFWriter().write(Document(header: back.header, blocks: back.blocks))
        let reread = try RTFReader().read(.bytes(rtf)).blocks
        if reread != doc.blocks { XCTFail(RTFTestSupport.difference(reread, doc.blocks)) }
    }
}

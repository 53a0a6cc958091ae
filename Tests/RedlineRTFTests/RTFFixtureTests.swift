import Foundation
import XCTest
import RedlineCore
@testable import RedlineRTF

/// The hand-made fixtures under Corpus/rtf read as they should.
final class RTFFixtureTests: XCTestCase {
    private func fixture(_ name: String, reader: RTFReader = RTFReader(), _ d: Diagnostics = Diagnostics()) throws -> Document {
        try reader.read(.file(RTFTestSupport.repository.appendingPathComponent("Corpus/rtf/\(name).rtf").path), diagnostics: d)
    }

    func testScrivenerManuscript() throws {
        let comment = Comment(id: "x", author: "Mara", body: [.paragraph(Paragraph([.text("Check the colour.")]))])
        let note = Note(id: "y", blocks: [.paragraph(Paragraph([.text("Ada’s first words in the book.")]))])
        let reader = RTFReader(scrivenerAnnotations: ["2F1D6C3A-7E0B-4D1F-9A61-6C0D2B7E8F10": .comment(comment),
                                                      "0B9E2F77-4C15-4E8A-B0D3-7A6E1C2D9F44": .footnote(note)])
        let diags = Diagnostics()
        let d = try fixture("scrivener-manuscript", reader: reader, diags)
        XCTAssertTrue(diags.all.isEmpty, "\(diags.all)")
        XCTAssertEqual(d.metadata.title, "The Lighthouse Keeper")
        XCTAssertEqual(d.metadata.authors, ["Mara Quill"])
        let body = d.blocks.compactMap(\.paragraph)
        XCTAssertEqual(body.first?.style.alignment, .center)
        let prose = body[1]
        XCTAssertEqual(prose.style.firstLineIndent, 36)
        XCTAssertEqual(prose.style.lineSpacing, .multiple(1.2))
        XCTAssertEqual(prose.content.runs.first?.format.style.fontFamily, "Palatino-Roman")
        XCTAssertEqual(prose.content.runs.first?.format.style.fontSize, 13)
        XCTAssertEqual(d.comments.map(\.id), ["2F1D6C3A-7E0B-4D1F-9A61-6C0D2B7E8F10"])
        XCTAssertEqual(d.comments.first?.body, comment.body)
        XCTAssertEqual(d.notes.map(\.id), ["0B9E2F77-4C15-4E8A-B0D3-7A6E1C2D9F44"])
        var links: [String] = []
        var anchored = ""
        d.blocks.forEach { b in
            b.forEachInline { i in
                if case .link(let l, _) = i { links.append(l.url) }
            }
        }
        XCTAssertEqual(links, ["#8A0C4E22-1B33-4C6F-8D2E-1F0A9B3C7D55", "https://en.wikipedia.org/wiki/Logbook"])
        for p in body {
            var inside = false
            for r in p.content.runs {
                switch r.content {
                case .atom(.commentStart): inside = true
                case .atom(.commentEnd): inside = false
                case .text(let t) where inside: anchored += t
                default: break
                }
            }
        }
        XCTAssertEqual(anchored, "pewter")
        XCTAssertTrue(RTFTestSupport.text(d).contains("“You’ll want the long coat,” said Ada"))
    }

    func testRevisionsAndAnnotations() throws {
        let d = try fixture("revisions-annotations")
        XCTAssertEqual(d.metadata.title, "Review Draft")
        guard case .heading(1, let h)? = d.blocks.first else { return XCTFail("heading first: \(d.blocks)") }
        XCTAssertEqual(h.content.plainText, "The Report")
        let p1 = try XCTUnwrap(d.blocks[1].paragraph)
        let ann = Change(author: "Ann Editor", date: "2024-01-15T14:30:00Z")
        func unstyled(_ xs: [Inline]) -> [Inline] {
            InlineBuilder.normalized(xs.flatMap { x -> [Inline] in
                if case .styled(_, let c) = x { return unstyled(c) }
                return [x.mapChildren(unstyled)]
            })
        }
        let marks = unstyled(p1.content)
        XCTAssertTrue(marks.contains(.substitution(ann, deleted: [.text("Tuesday")], inserted: [.text("Wednesday")])), "\(p1.content)")
        XCTAssertTrue(marks.contains(.insertion(Change(author: "Ben Writer", date: "2024-01-15T14:31:00Z"), [.text("unusually ")])))
        XCTAssertEqual(d.comments.count, 2)
        XCTAssertEqual(d.comments[0].id, "1")
        XCTAssertEqual(d.comments[0].author, "Ann Editor")
        XCTAssertEqual(d.comments[0].initials, "AE")
        XCTAssertEqual(d.comments[0].date, "2024-01-15T14:30:00Z")
        XCTAssertEqual(d.comments[0].body.first?.plainText, " Which year? Please name it.")
        XCTAssertEqual(d.comments[1].author, "Ben Writer")
        let split = try XCTUnwrap(d.blocks[2].paragraph)
        XCTAssertEqual(split.markChange, .inserted(ann))
        XCTAssertEqual(split.content.plainText, "Three proposals were tabled")
        let last = try XCTUnwrap(d.blocks.last?.paragraph)
        XCTAssertEqual(last.style.alignment, .justified)
        XCTAssertEqual(last.style.firstLineIndent, 18)
        XCTAssertEqual(d.notes.first?.blocks.first?.plainText, " Acting secretary for this meeting only.")
        // Accepting keeps the inserted paragraph break; rejecting removes it with the inserted text.
        let clean = try d.applying([ReviewTransform(.accept)])
        XCTAssertTrue(RTFTestSupport.text(clean).contains("met on Wednesday to discuss"))
        XCTAssertTrue(RTFTestSupport.text(clean).contains("Three proposals were tabled\nThe first concerned staffing. The second, concerned"), RTFTestSupport.text(clean))
        let original = try d.applying([ReviewTransform(.reject)])
        XCTAssertTrue(RTFTestSupport.text(original).contains("Three proposals were tabled. The second, which was withdrawn, concerned the library roof."),
                      RTFTestSupport.text(original))
    }
}

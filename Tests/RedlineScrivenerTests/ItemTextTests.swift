import XCTest
@testable import RedlineScrivener
import RedlineCore

/// Reading items of the hand-built projects through the RTF reader: text, comments, footnotes, links.
final class ItemTextTests: XCTestCase {
    private func item(_ p: ScrivenerProject, _ title: String) throws -> BinderItem {
        var found: BinderItem?
        for root in p.binder.items { root.walk { i, _ in if i.title == title && found == nil { found = i } } }
        return try XCTUnwrap(found, title)
    }

    func testArrivalCommentsFootnotesLinksAndInlineNotes() throws {
        let d = Diagnostics()
        let p = try ScrivenerProject(path: Fixtures.lighthouse, diagnostics: d)
        let text = try p.readText(of: try item(p, "Arrival"), diagnostics: d) { $0.hasSuffix("4A06") ? "keeper.md" : nil }
        XCTAssertEqual(text.synopsis, "Anna reaches the island and meets the keeper.")
        XCTAssertEqual(text.notes.map(\.plainText), ["Remember the storm from the opening.", "Second line of notes."])
        let doc = text.document
        XCTAssertEqual(doc.blocks.map(\.plainText), [
            "The lamp had been lit every night for forty years.",
            "She climbed the stairs slowly, counting the steps and remembering her father.",
            "The keeper was waiting (see The Keeper). The tide was high and the wind rose.",
            "#",
            "Café au lait — she said “enough” and meant it.",
        ])
        var anchors: [Inline] = []
        var links: [String] = []
        for b in doc.blocks {
            b.forEachInline { i in
                switch i {
                case .commentStart, .commentEnd, .commentPoint, .noteReference: anchors.append(i)
                case .link(let l, _): links.append(l.url)
                default: break
                }
            }
        }
        let c = "C3E1A7F0-1D2B-4C5D-8E9F-0A1B2C3D4E"
        XCTAssertEqual(anchors, [.commentStart(c + "01"), .commentEnd(c + "01"), .noteReference(c + "02"),
                                 .noteReference("8A5C2E10-3B7D-4F21-9E6A-0C1D2E3F4A04-fn1"),
                                 .commentPoint("8A5C2E10-3B7D-4F21-9E6A-0C1D2E3F4A04-an2")])
        XCTAssertEqual(links, ["keeper.md"])
        XCTAssertEqual(doc.comments.map { $0.body.map(\.plainText) },
                       [["Forty or fifty? Check the parish records."], ["Check the wind direction."]])
        XCTAssertEqual(doc.notes.map { $0.blocks.map(\.plainText) },
                       [["There are 127 steps in the tower."], ["Tide tables for 1923, page 12."]])
        // Scrivener's paragraph formatting comes through: first-line indent 0.5 in, 1.2 line height, centred break.
        let first = try XCTUnwrap(doc.blocks[0].paragraph)
        XCTAssertEqual(first.style.firstLineIndent, 36)
        XCTAssertEqual(first.style.lineSpacing, .multiple(1.2))
        XCTAssertEqual(doc.blocks[3].paragraph?.style.alignment, .center)
        XCTAssertTrue(d.all.isEmpty, "\(d.all)")
    }

    func testUnanchoredCommentMissingCommentAndLinkIntoTrash() throws {
        let d = Diagnostics()
        let p = try ScrivenerProject(path: Fixtures.lighthouse, diagnostics: d)
        let keeper = try p.readText(of: try item(p, "The Keeper"), diagnostics: d) { _ in nil }
        XCTAssertEqual(keeper.document.blocks.map(\.plainText),
                       ["He had never left the island. He kept the log in a green book.", "He said nothing at all."])
        XCTAssertEqual(keeper.document.comments.map(\.id), ["C3E1A7F0-1D2B-4C5D-8E9F-0A1B2C3D4E03"])
        XCTAssertEqual(d.count(of: .scrivenerCommentUnanchored), 1)

        let storm = try p.readText(of: try item(p, "Storm"), diagnostics: d) { _ in nil }
        XCTAssertEqual(storm.document.blocks.map(\.plainText),
                       ["The storm came in the night, as in the old opening.", "Nobody slept."])
        XCTAssertEqual(d.count(of: .scrivenerLinkTargetMissing), 1)
        XCTAssertEqual(d.count(of: .rtfScrivenerAnnotationMissing), 1, "an anchor whose comment is gone")
    }

    func testScrivener2Item() throws {
        let d = Diagnostics()
        let p = try ScrivenerProject(path: Fixtures.garden, diagnostics: d)
        let gate = try p.readText(of: try item(p, "The gate"), diagnostics: d) { _ in nil }
        XCTAssertEqual(gate.synopsis, "The gate and the roses.")
        XCTAssertEqual(gate.notes.map(\.plainText), ["Ask about the roses."])
        XCTAssertEqual(gate.document.comments.map(\.id), ["5B0C2D3E-4F50-4A6B-8C7D-9E0F1A2B3C01"])
        XCTAssertEqual(gate.document.notes.map(\.id), ["5B0C2D3E-4F50-4A6B-8C7D-9E0F1A2B3C02"])
        let dusk = try p.readText(of: try item(p, "Dusk"), diagnostics: d) { $0 == "4" ? "gate.md" : nil }
        var links: [String] = []
        for b in dusk.document.blocks { b.forEachInline { if case .link(let l, _) = $0 { links.append(l.url) } } }
        XCTAssertEqual(links, ["gate.md"])
    }

    func testEmptyDocumentIsANote() throws {
        let d = Diagnostics()
        let p = try ScrivenerProject(path: Fixtures.lighthouse, diagnostics: d)
        let text = try p.readText(of: try item(p, "Epilogue"), diagnostics: d) { _ in nil }
        XCTAssertTrue(text.document.blocks.isEmpty)
        XCTAssertEqual(d.all.map(\.severity), [.note])
    }
}

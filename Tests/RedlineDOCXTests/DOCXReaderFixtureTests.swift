import Foundation
import RedlineCore
import RedlineDOCX
import XCTest

/// Our own fixtures (Corpus/docx, made by Corpus/docx/make-fixtures.py as Word writes them, and saved
/// again through LibreOffice): what the reader makes of each feature, and accept/reject results.
final class DOCXReaderFixtureTests: XCTestCase {
    private func fixture(_ name: String, _ diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        try Fixtures.read(Fixtures.repo.appendingPathComponent("Corpus/docx/\(name)").path, diagnostics: diagnostics)
    }

    private func texts(_ doc: Document, _ mode: ChangeMode) throws -> [String] {
        Fixtures.paragraphs(try doc.applying([ReviewTransform(mode)]))
    }

    func testTrackedChanges() throws {
        let doc = try fixture("tracked-changes.docx")
        XCTAssertEqual(doc.blocks.first, .heading(level: 1, Paragraph([.text("Tracked changes")],
            style: ParagraphStyle(name: "heading 1", spaceBefore: 12, spaceAfter: 0))))
        let ann = Change(author: "Ann Editor", date: "2024-03-01T10:00:00Z")
        guard case .paragraph(let p)? = doc.blocks.dropFirst().first else { return XCTFail("no paragraph") }
        XCTAssertEqual(p.content.count, 5)
        if case .substitution(let c, let d, let i) = p.content[3] {
            XCTAssertEqual(c.author, ann.author)
            XCTAssertEqual(d, [.text("old")])
            XCTAssertEqual(i, [.text("new")])
        } else {
            XCTFail("no substitution: \(p.content[3])")
        }
        let marks = doc.blocks.compactMap { $0.paragraph?.markChange }
        XCTAssertEqual(marks.count, 2)
        let scrubbed = doc.blocks[7].paragraph?.content[1]
        XCTAssertEqual(scrubbed, .insertion(Change(author: "Author", id: "10"), [.text(" anonymous")]))
        XCTAssertEqual(try texts(doc, .accept), [
            "Tracked changes", "The editor quickly fixed the new wording.", "A deletion and an insertion by Bob.",
            "This paragraph was split ", "here, and this one was merged with the one before.", "Inserted then deleted: kept.",
            "Scrubbed: anonymous.", "Formatted insertion: bold and italic.",
        ])
        XCTAssertEqual(try texts(doc, .reject), [
            "Tracked changes", "The editor fixed the old wording.", "A deletion that Bob made and an insertion.",
            "This paragraph was split here, and this one ", "was merged with the one before.", "Inserted then deleted: .",
            "Scrubbed:.", "Formatted insertion:.",
        ])
    }

    func testComments() throws {
        let doc = try fixture("comments.docx")
        XCTAssertEqual(doc.comments.map(\.id), ["0", "1", "2", "3", "4", "5"])
        XCTAssertEqual(doc.comments[4].parentID, "3", "a reply")
        XCTAssertEqual(doc.comments.filter(\.resolved).map(\.id), ["5"])
        XCTAssertEqual(doc.comments[3].body.count, 2, "a two-paragraph comment")
        XCTAssertEqual(doc.comments[3].body.first?.paragraph?.content,
                       [.text("Is this "), .strong([.text("right")]), .text("?")])
        XCTAssertEqual(doc.comments.map(\.initials), ["AE", "BW", "AE", "AE", "BW", "BW"])
        var anchors: [String] = []
        for b in doc.blocks {
            b.forEachInline { i in
                switch i {
                case .commentStart(let id): anchors.append("<" + id)
                case .commentEnd(let id): anchors.append(id + ">")
                case .commentPoint(let id): anchors.append("." + id)
                default: break
                }
            }
        }
        XCTAssertEqual(anchors, ["<0", "<1", "0>", "1>", ".2", "<3", "3>", "<5", "5>"], "ranges cross and overlap; replies have none")
        // The range start of comment 0 is in one paragraph, its end in the next.
        XCTAssertTrue(doc.blocks[1].paragraph!.content.contains(.commentStart("0")))
        XCTAssertTrue(doc.blocks[2].paragraph!.content.contains(.commentEnd("0")))
    }

    func testCommentsTravelWithTheirFirstBlock() throws {
        var source = try DOCXReader().open(.file(Fixtures.repo.appendingPathComponent("Corpus/docx/comments.docx").path),
                                                       options: ReadOptions(), diagnostics: Diagnostics())
        var perChunk: [[String]] = []
        while let c = try source.next() { perChunk.append(c.comments.map(\.id)) }
        XCTAssertEqual(perChunk, [[], ["0", "1"], [], ["2", "3", "4"], ["5"]])
    }

    func testMovesAndFormattingChanges() throws {
        let doc = try fixture("moves-and-formatting.docx")
        let ann = Change(author: "Ann Editor", date: "2024-03-01T10:00:00Z")
        XCTAssertEqual(doc.blocks[2].paragraph?.content,
                       [.move(Move(change: Change(author: ann.author, date: ann.date, id: "2"), name: "move1", side: .from),
                              [.text("This sentence moves down.")])])
        if case .move(let m, _)? = doc.blocks[4].paragraph?.content.first { XCTAssertEqual(m.side, .to); XCTAssertEqual(m.name, "move1") }
        guard let p = doc.blocks[5].paragraph, case .formatChange(let bold, let boldText) = p.content[1],
              case .formatChange(let italic, _) = p.content[3] else { return XCTFail("no formatting changes") }
        XCTAssertEqual(boldText, [.strong([.text("bold was applied")])])
        XCTAssertEqual(bold.old, TextFormat())
        XCTAssertEqual(italic.old, TextFormat(italic: true))
        let centred = try XCTUnwrap(doc.blocks[6].paragraph)
        XCTAssertEqual(centred.style, ParagraphStyle(alignment: .center, firstLineIndent: -18, leftIndent: 36))
        XCTAssertEqual(centred.styleChange?.old, ParagraphStyle(alignment: .left))
        XCTAssertEqual(doc.blocks[7].paragraph?.style.name, "Quote")
        XCTAssertEqual(doc.blocks[7].paragraph?.styleChange?.old, ParagraphStyle())
        let rejected = try doc.applying([ReviewTransform(.reject)])
        XCTAssertEqual(rejected.blocks[6].paragraph?.style, ParagraphStyle(alignment: .left))
        XCTAssertEqual(try texts(doc, .accept), ["Moves and formatting", "First paragraph stays.", "", "Middle paragraph stays.",
                                                 "This sentence moves down.", "Some bold was applied and italic removed.",
                                                 "This paragraph was centred and indented.", "Restyled as a quote."])
    }

    func testListsTablesNotesLinksFields() throws {
        let d = Diagnostics()
        let doc = try fixture("lists-tables-notes.docx", d)
        guard case .list(let first) = doc.blocks[1] else { return XCTFail("no list") }
        XCTAssertEqual(first.kind, .ordered(start: 1, delimiter: "."))
        XCTAssertEqual(first.items.count, 3)
        guard case .list(let nested)? = first.items[1].last else { return XCTFail("no nested list") }
        XCTAssertEqual(nested.kind, .ordered(start: 1, delimiter: ")"))
        XCTAssertEqual(nested.items.count, 2)
        guard case .list(let continued) = doc.blocks[3], case .list(let bullets) = doc.blocks[4],
              case .list(let restarted) = doc.blocks[5] else { return XCTFail("lists") }
        XCTAssertEqual(continued.kind, .ordered(start: 4, delimiter: "."), "numbering continues after an interruption")
        XCTAssertEqual(bullets.kind, .bullet)
        XCTAssertEqual(restarted.kind, .ordered(start: 5, delimiter: "."), "w:startOverride")
        XCTAssertEqual(restarted.items.count, 3, "another w:num of the same definition counts on in the same list")
        XCTAssertEqual(first.items[0].first?.paragraph?.style, ParagraphStyle())

        let links = doc.blocks[6].paragraph?.content.compactMap { i -> String? in if case .link(let l, _) = i { return l.url } else { return nil } }
        XCTAssertEqual(links, ["https://example.org/", "#details"])
        XCTAssertTrue(doc.blocks[6].paragraph!.content.contains(.noteReference("1")))
        XCTAssertEqual(doc.notes.map(\.id), ["1"])
        XCTAssertEqual(doc.notes[0].kind, .footnote)

        guard case .table(let t) = doc.blocks[7] else { return XCTFail("no table") }
        XCTAssertEqual(t.headerRowCount, 1)
        XCTAssertEqual(t.columnWidths, [150, 150, 150])
        XCTAssertEqual(t.rows[1].cells[0].rowSpan, 2, "vMerge")
        XCTAssertEqual(t.rows[2].cells.count, 2, "the merged cell is not repeated")
        XCTAssertEqual(t.rows[3].cells[1].columnSpan, 2, "gridSpan")
        XCTAssertEqual(t.rows[3].change, .inserted(Change(author: "Bob Writer", date: "2024-03-02T11:30:00Z", id: "31")))
        if case .deleted? = t.rows[4].change {} else { XCTFail("deleted row") }
        XCTAssertEqual(doc.blocks[8], .heading(level: 2, Paragraph([.text("Details")], style: ParagraphStyle(name: "heading 2", spaceBefore: 12, spaceAfter: 0))))
        XCTAssertEqual(doc.blocks[9].paragraph?.content, [
            .text("Field result: "), .link(Link(url: "https://example.org/field"), [.text("a field link")]),
            .text(", a tab\tand a break"), .lineBreak, .text("then more."),
        ])
        XCTAssertEqual(d.count(of: .docxBookmark), 1)
        let accepted = try doc.applying([ReviewTransform(.accept)])
        guard case .table(let ta) = accepted.blocks[7] else { return XCTFail() }
        XCTAssertEqual(ta.rows.count, 4)
        let rejected = try doc.applying([ReviewTransform(.reject)])
        guard case .table(let tr) = rejected.blocks[7] else { return XCTFail() }
        XCTAssertEqual(tr.rows.count, 4)
        XCTAssertEqual(tr.rows.last?.cells.first?.blocks.first?.plainText, "Cy")
    }

    func testLibreOfficeSavedCopiesKeepTheChanges() throws {
        for name in ["tracked-changes", "comments"] {
            let ours = try fixture("\(name).docx"), lo = try fixture("libreoffice-\(name).docx")
            for mode in [ChangeMode.accept, .reject] {
                XCTAssertEqual(try texts(lo, mode).filter { !$0.isEmpty }, try texts(ours, mode).filter { !$0.isEmpty }, "\(name) \(mode)")
            }
            // LibreOffice writes comments in anchor order and drops the reply link (it keeps `done`).
            XCTAssertEqual(lo.comments.map { $0.body.map(\.plainText) }.sorted { "\($0)" < "\($1)" },
                           ours.comments.map { $0.body.map(\.plainText) }.sorted { "\($0)" < "\($1)" }, name)
            XCTAssertEqual(lo.comments.filter(\.resolved).count, ours.comments.filter(\.resolved).count, name)
        }
    }

    func testStrictNamespaces() throws {
        let path = Fixtures.shared("mammoth.js/strict-format.docx")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: path), "shared corpus not found")
        let doc = try Fixtures.read(path)
        XCTAssertFalse(Fixtures.paragraphs(doc).joined().isEmpty)
        let transitional = try Fixtures.read(Fixtures.shared("mammoth.js/comments.docx"))
        XCTAssertEqual(transitional.comments.count, 2)
    }

    func testLocalisedHeadingStylesUseTheOutlineLevel() throws {
        let path = Fixtures.shared("pandoc/german_styled_lists.docx")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: path), "shared corpus not found")
        let doc = try Fixtures.read(path)
        XCTAssertTrue(doc.blocks.contains { if case .list = $0 { return true } else { return false } })
    }
}

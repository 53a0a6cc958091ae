import Foundation
import XCTest
import RedlineCore
@testable import RedlineRTF

/// read(write(doc)) == doc for generated documents, and RTF → RTF on the corpus.
final class RTFRoundTripTests: XCTestCase {
    func testGeneratedDocumentsRoundTrip() throws {
        for i in 0..<200 {
            var generator = DocumentGenerator(seed: 0x5EED + UInt64(i))
            let doc = generator.document()
            let diags = Diagnostics()
            let bytes = try RTFWriter().write(doc, diagnostics: diags)
            let back = try RTFReader().read(.bytes(bytes))
            if back != doc {
                try? Data(bytes).write(to: URL(fileURLWithPath: "/tmp/rtf-roundtrip-failure.rtf"))
                XCTAssertEqual(back.header, doc.header, "header, document \(i)")
                XCTAssertEqual(back.comments, doc.comments, "comments, document \(i)")
                XCTAssertEqual(back.notes, doc.notes, "notes, document \(i)")
                for (a, b) in zip(back.blocks, doc.blocks) where a != b {
                    XCTFail("document \(i): " + RTFTestSupport.difference(a, b))
                    break
                }
                XCTAssertEqual(back.blocks.count, doc.blocks.count, "block count, document \(i)")
                return
            }
            XCTAssertTrue(diags.all.isEmpty, "document \(i): \(diags.all)")
        }
    }

    func testCorpusRTFToRTFKeepsTextAndStructure() throws {
        for f in RTFTestSupport.corpusRTFs() {
            let doc = try RTFTestSupport.readFile(f)
            let bytes = try RTFWriter().write(doc)
            var back = try RTFReader().read(.bytes(bytes))
            // RTF always states column widths (\cellx); a table read without a consistent grid had none.
            back.blocks = zip(back.blocks, doc.blocks).map { b, original in
                guard case .table(var t) = b, case .table(let o) = original, o.columnWidths == nil else { return b }
                t.columnWidths = nil
                return .table(t)
            }
            if back.blocks != doc.blocks { XCTFail(f + " " + RTFTestSupport.difference(back.blocks, doc.blocks)) }
            XCTAssertEqual(back.comments, doc.comments, f)
            XCTAssertEqual(back.notes, doc.notes, f)
        }
    }
}

/// A small deterministic random number generator (SplitMix64) for reproducible property tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}

/// Generates documents in the part of the model RTF carries exactly.
struct DocumentGenerator {
    var rng: SeededGenerator
    var comments: [Comment] = []
    var notes: [Note] = []
    var commentCounter = 0

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func pick<T>(_ xs: [T]) -> T { xs[int(0...(xs.count - 1))] }

    static var words: [String] { ["alpha", "beta", "café", "naïve", "Ελλάδα", "Привет", "日本語", "{brace}", "back\\slash", "😀", "“quoted”", "em—dash", "tab\there", "x"] }

    mutating func word() -> String { pick(Self.words) }

    mutating func change() -> Change {
        Change(author: pick([nil, "Ann", "Bob Ö"]), date: pick([nil, "2024-01-15T14:30:00Z", "2023-12-31T23:59:00Z"]))
    }

    mutating func format() -> TextFormat {
        var f = TextFormat()
        f.bold = chance(0.2)
        f.italic = chance(0.2)
        f.underline = chance(0.1)
        f.strikethrough = chance(0.1)
        if chance(0.1) { f.superscript = true } else if chance(0.1) { f.subscript = true }
        f.smallCaps = chance(0.05)
        f.highlight = chance(0.05)
        if chance(0.05) { f.code = true; return f }
        if chance(0.2) { f.style.fontFamily = pick(["Palatino", "Courier New", "Helvetica Neue"]) }
        if chance(0.2) { f.style.fontSize = pick([9, 10.5, 12, 13, 24]) }
        if chance(0.1) { f.style.color = RGBColor(red: UInt8(int(0...255)), green: 10, blue: 200) }
        if chance(0.05) { f.style.backgroundColor = RGBColor(red: 200, green: 220, blue: 255) }
        f.style.allCaps = chance(0.03)
        f.style.doubleStrikethrough = chance(0.03)
        if chance(0.03) { f.style.name = "Strong Emphasis" }
        return f
    }

    mutating func inlines(allowNotes: Bool, allowComments: Bool) -> [Inline] {
        var runs: [Run] = [.text(word())]
        for _ in 0..<int(0...8) {
            var r = Run(.text(pick([" ", ", ", " and "]) + word()), format: format())
            if chance(0.1) { r.link = Link(url: pick(["https://example.com/a?b=c", "#chapter-2"]), title: pick(["", "A title"])) }
            if chance(0.1) { r.change = chance(0.5) ? .insertion(change()) : .deletion(change()) }
            if chance(0.05) { runs.append(Run(.lineBreak, format: r.format)) }
            runs.append(r)
            if allowComments && chance(0.05) {
                commentCounter += 1
                let id = "c\(commentCounter)"
                let body = Block.paragraph(Paragraph([.text("Remark \(commentCounter) " + word())]))
                comments.append(Comment(id: id, author: pick([nil, "Ann"]), initials: pick([nil, "A"]),
                                        date: pick([nil, "2024-02-03T04:05:00Z"]), body: [body]))
                if chance(0.5) {
                    runs.insert(Run(.atom(.commentStart(id))), at: max(0, runs.count - 1))
                    runs.append(Run(.atom(.commentEnd(id))))
                } else {
                    runs.append(Run(.atom(.commentPoint(id))))
                }
                if chance(0.3) {
                    commentCounter += 1
                    comments.append(Comment(id: "c\(commentCounter)", author: "Bob", body: [.paragraph(Paragraph([.text("Reply")]))],
                                            parentID: id))
                }
            }
            if allowNotes && chance(0.05) {
                let id = "\(notes.count + 1)"
                notes.append(Note(id: id, kind: chance(0.2) ? .endnote : .footnote,
                                  blocks: [.paragraph(Paragraph([.text("Note " + word())]))]))
                runs.append(Run(.atom(.noteReference(id))))
            }
        }
        runs.append(.text(" end"))
        return InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs))
    }

    mutating func paragraphStyle(list: Bool = false) -> ParagraphStyle {
        var s = ParagraphStyle()
        if !list && chance(0.2) { s.name = pick(["Body Text", "First Paragraph", "Épigraphe"]) }
        if chance(0.3) { s.alignment = pick([.center, .right, .justified]) }
        if !list {
            if chance(0.3) { s.firstLineIndent = pick([36, -18, 12.5]) }
            if chance(0.2) { s.leftIndent = pick([36, 72, 0.5]) }
            if chance(0.2) {
                s.tabStops = [TabStop(position: 36), TabStop(position: 432, alignment: .right, leader: .dot),
                              TabStop(position: 200, alignment: pick([.center, .decimal]), leader: pick([.none, .hyphen, .underscore]))]
            }
        }
        if chance(0.2) { s.rightIndent = pick([18, 36]) }
        if chance(0.3) { s.lineSpacing = pick([.multiple(1.2), .multiple(1.5), .multiple(2), .exactly(14), .atLeast(12.5)]) }
        if chance(0.2) { s.spaceBefore = pick([6, 12]) }
        if chance(0.2) { s.spaceAfter = pick([6, 10.5]) }
        return s
    }

    mutating func paragraph(list: Bool = false, inTable: Bool = false) -> Paragraph {
        var p = Paragraph(inlines(allowNotes: !inTable && !list, allowComments: !inTable), style: paragraphStyle(list: list))
        if inTable { p.style.alignment = nil }
        if !inTable && chance(0.05) {
            p.markChange = chance(0.5) ? .inserted(Change(author: "Ann")) : .deleted(Change(author: "Bob", date: "2024-01-15T14:30:00Z"))
        }
        return p
    }

    mutating func list(level: Int) -> List {
        let kind: ListKind = chance(0.5) ? .bullet : .ordered(start: pick([1, 3]), delimiter: pick([".", ")"]))
        var items: [[Block]] = []
        for _ in 0..<int(1...3) {
            var item: [Block] = [.paragraph(paragraph(list: true))]
            if chance(0.2) { item.append(.paragraph(paragraph(list: true))) }
            if level < 2 && chance(0.2) { item.append(.list(list(level: level + 1))) }
            items.append(item)
        }
        return List(kind: kind, items: items)
    }

    mutating func table(depth: Int) -> Table {
        let columns = int(1...3)
        var rows: [TableRow] = []
        for _ in 0..<int(1...3) {
            var cells: [TableCell] = []
            for _ in 0..<columns {
                var blocks: [Block] = [.paragraph(paragraph(inTable: true))]
                if depth < 2 && chance(0.1) { blocks.append(.table(table(depth: depth + 1))) }
                if chance(0.2) { blocks.append(.paragraph(paragraph(inTable: true))) }
                cells.append(TableCell(blocks))
            }
            rows.append(TableRow(cells))
        }
        let columnKinds: [ColumnAlignment] = (0..<columns).map { _ in pick([.none, .none, .center, .right]) }
        return Table(columns: columnKinds, columnWidths: (0..<columns).map { _ in Double(int(2...20) * 12) },
                     headerRowCount: chance(0.3) ? 1 : 0, rows: rows)
    }

    mutating func block() -> Block {
        switch int(0...12) {
        case 0: return .heading(level: int(1...6), Paragraph(inlines(allowNotes: false, allowComments: false)))
        case 1: return .list(list(level: 0))
        case 2: return .table(table(depth: 1))
        case 3: return .codeBlock(CodeBlock(text: "let x = 1 {}\n  \\ indented\n\nlast\n"))
        case 4: return .blockQuote([.paragraph(Paragraph(inlines(allowNotes: false, allowComments: false))),
                                   .paragraph(Paragraph([.text("Second quoted")]))])
        case 5: return .thematicBreak
        default: return .paragraph(paragraph())
        }
    }

    mutating func document() -> Document {
        var header = DocumentHeader()
        if chance(0.5) {
            header.metadata["title"] = .text("A Title " + word())
            header.metadata["author"] = .list(["Ann Author", "Bob"])
            header.metadata["created"] = .text("2024-03-09T08:05:00Z")
            header.metadata["status"] = .text("draft")
        }
        if chance(0.3) {
            header.defaultCharacterStyle = CharacterStyle(fontFamily: "Palatino", fontSize: 13)
            header.defaultParagraphStyle = .scrivener
        }
        var blocks: [Block] = []
        for _ in 0..<int(1...8) { blocks.append(block()) }
        return Document(header: header, blocks: blocks, comments: comments, notes: notes)
    }
}

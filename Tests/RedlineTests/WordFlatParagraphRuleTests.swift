import Foundation
import Redline
import XCTest

/// Issue #32: accept and reject give what Word gives, by every route. Word's rule is written down here as a
/// small reference over a flat list of paragraphs (Word has no nested lists: a list item is a paragraph with
/// a list level): each paragraph has text runs (plain, inserted, deleted), its mark (plain, inserted, deleted)
/// and its list level; a paragraph whose mark goes (accepting a deleted mark, rejecting an inserted one) joins
/// the next paragraph, and the joined paragraph takes the next one's properties (its list level). A mark
/// that goes before a table or at the end stays (Word cannot join there) unless its paragraph is left empty,
/// which then goes. Table rows and cells inserted (deleted) go on reject (accept); a cell that goes moves the
/// cells after it left. RTF has no cell revision of its own: Redline's RTF carries cell changes in words of its own
/// (`\rltclins`, `\rltcldel`), so RTF round trips are checked for every document too.
///
/// Generated documents (lists of mixed levels, mark changes at every position: first and last item, across
/// levels, into and out of lists, around tables; tracked rows and cells) are checked by every route: the model
/// (`ReviewTransform`), DOCX in place, and the DOCX, RTF and CriticMarkup round trips, each compared with the
/// reference as (depth, text) per paragraph and one line per table row. Replay with `REDLINE_SEED=<seed>`.
final class WordFlatParagraphRuleTests: XCTestCase {
    enum Mark { case ins, del }

    struct FlatParagraph {
        var runs: [(text: String, change: Mark?)]
        var mark: Mark?
        /// The list level (0 the outermost), nil outside a list.
        var level: Int?
    }

    struct FlatRow {
        var cells: [String]
        var change: Mark?
        /// Each cell's own insertion or deletion (`w:cellIns`, `w:cellDel`), nil for none.
        var cellChanges: [Mark?] = []
    }

    enum Element {
        case paragraph(FlatParagraph)
        case table([FlatRow])
    }

    /// One line per paragraph (`depth|text`, depth 0 outside lists, n inside n lists) or table row
    /// (`row|a|b`). Empty paragraphs outside lists are left out (Markdown has none; Word's own are
    /// immaterial to the text).
    static func reference(_ doc: [Element], _ mode: ChangeMode) -> [String] {
        var out: [String] = []
        var carry = ""
        for (i, e) in doc.enumerated() {
            switch e {
            case .table(let rows):
                for r in rows {
                    if mode == .accept && r.change == .del { continue }
                    if mode == .reject && r.change == .ins { continue }
                    // A cell inserted (deleted) goes on reject (accept); the cells after it move left.
                    let cells = r.cells.indices.filter { c in
                        let m = c < r.cellChanges.count ? r.cellChanges[c] : nil
                        return !(mode == .accept && m == .del) && !(mode == .reject && m == .ins)
                    }.map { r.cells[$0] }
                    out.append((["row"] + cells).joined(separator: "|"))
                }
            case .paragraph(let p):
                var text = carry
                carry = ""
                for r in p.runs {
                    if r.change == .del && mode == .accept { continue }
                    if r.change == .ins && mode == .reject { continue }
                    text += r.text
                }
                let goes = (mode == .accept && p.mark == .del) || (mode == .reject && p.mark == .ins)
                let nextIsParagraph: Bool = {
                    guard i + 1 < doc.count, case .paragraph = doc[i + 1] else { return false }
                    return true
                }()
                if goes && nextIsParagraph { carry = text; continue }
                if goes && text.isEmpty { continue }
                let depth = p.level.map { $0 + 1 } ?? 0
                if depth == 0 && text.isEmpty { continue }
                out.append("\(depth)|\(text)")
            }
        }
        return out
    }

    /// The same lines from a model document.
    static func lines(_ blocks: [Block]) -> [String] {
        var out: [String] = []
        func walk(_ bs: [Block], _ depth: Int) {
            for b in bs {
                switch b {
                case .paragraph(let p), .heading(_, let p):
                    let t = p.content.plainText
                    if depth == 0 && t.isEmpty { continue }
                    out.append("\(depth)|\(t)")
                case .list(let l):
                    for item in l.items { walk(item, depth + 1) }
                case .blockQuote(let q): walk(q, depth)
                case .table(let t):
                    for r in t.rows { out.append((["row"] + r.cells.map { $0.blocks.map(\.plainText).joined() }).joined(separator: "|")) }
                default: break
                }
            }
        }
        walk(blocks, 0)
        return out
    }

    // MARK: Generating

    static let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z")
    static let bob = Change(author: "Bob", date: "2024-01-16T09:00:00Z")

    static func generate(_ rng: inout SeededRandom) -> [Element] {
        var out: [Element] = []
        var word = 0
        func text() -> String { word += 1; return "w\(word)" }
        func change(_ p: Int) -> Mark? {
            let r = Int.random(in: 0..<100, using: &rng)
            return r < p ? .ins : r < 2 * p ? .del : nil
        }
        func paragraph(level: Int?) -> FlatParagraph {
            var runs: [(String, Mark?)] = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) { runs.append((text(), change(20))) }
            return FlatParagraph(runs: runs, mark: change(25), level: level)
        }
        for _ in 0..<Int.random(in: 2...5, using: &rng) {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<3:
                out.append(.paragraph(paragraph(level: nil)))
            case 3..<8:
                var level = 0
                for _ in 0..<Int.random(in: 1...5, using: &rng) {
                    out.append(.paragraph(paragraph(level: level)))
                    level = max(0, min(level + Int.random(in: -1...1, using: &rng), 2))
                }
            default:
                var rows = [FlatRow(cells: [text(), text()], change: nil)]
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    var row = FlatRow(cells: [text(), text()], change: change(30))
                    // A cell inserted or deleted with tracking, in a row that is not itself changed.
                    if row.change == nil, Int.random(in: 0..<100, using: &rng) < 30 {
                        row.cellChanges = [nil, nil]
                        row.cellChanges[Int.random(in: 0...1, using: &rng)] = change(50)
                    }
                    rows.append(row)
                }
                out.append(.table(rows))
            }
        }
        // Word's last paragraph mark cannot change.
        if case .paragraph(var p)? = out.last {
            p.mark = nil
            out[out.count - 1] = .paragraph(p)
        } else {
            out.append(.paragraph(FlatParagraph(runs: [(text(), nil)], mark: nil, level: nil)))
        }
        return out
    }

    /// The flat paragraphs as a model document: consecutive list paragraphs one bullet list, a higher
    /// level a list nested in the item before.
    static func model(_ flat: [Element]) -> Document {
        func change(_ m: Mark, _ c: Change) -> Bool { true }
        func paragraph(_ p: FlatParagraph) -> Block {
            var content: [Inline] = []
            for r in p.runs {
                switch r.change {
                case nil: content.append(.text(r.text))
                case .ins: content.append(.insertion(ann, [.text(r.text)]))
                case .del: content.append(.deletion(bob, [.text(r.text)]))
                }
            }
            let mark: ParagraphMarkChange? = p.mark.map { $0 == .ins ? .inserted(ann) : .deleted(bob) }
            return .paragraph(Paragraph(content, markChange: mark))
        }
        /// Items at `level` from `ps[i...]`, nested deeper ones inside.
        func list(_ ps: [FlatParagraph], _ i: inout Int, level: Int) -> List {
            var items: [[Block]] = []
            while i < ps.count, let l = ps[i].level, l >= level {
                if l == level {
                    items.append([paragraph(ps[i])])
                    i += 1
                } else {
                    let nested = list(ps, &i, level: level + 1)
                    if items.isEmpty { items.append([]) }
                    items[items.count - 1].append(.list(nested))
                }
            }
            return List(kind: .bullet, tight: true, items: items)
        }
        var blocks: [Block] = []
        var k = 0
        while k < flat.count {
            switch flat[k] {
            case .table(let rows):
                let t = Table(columns: [.none, .none], headerRowCount: 1, rows: rows.map { r in
                    TableRow(r.cells.indices.map { c in
                                 var cell = TableCell([.paragraph(Paragraph([.text(r.cells[c])]))])
                                 let m = c < r.cellChanges.count ? r.cellChanges[c] : nil
                                 cell.change = m.map { $0 == .ins ? .inserted(ann) : .deleted(bob) }
                                 return cell
                             },
                             change: r.change.map { $0 == .ins ? .inserted(ann) : .deleted(bob) })
                })
                blocks.append(.table(t))
                k += 1
            case .paragraph(let p) where p.level == nil:
                blocks.append(paragraph(p))
                k += 1
            case .paragraph:
                var ps: [FlatParagraph] = []
                while k < flat.count, case .paragraph(let p) = flat[k], p.level != nil { ps.append(p); k += 1 }
                var i = 0
                blocks.append(.list(list(ps, &i, level: 0)))
            }
        }
        return Document(blocks: blocks)
    }

    // MARK: Routes

    static let docx = FormatRegistry.named("docx")!, rtf = FormatRegistry.named("rtf")!, md = FormatRegistry.named("md")!

    static func write(_ doc: Document, _ format: Format) throws -> [UInt8] {
        let out = MemoryOutput()
        try Converter.write(doc, format: format, to: out)
        return out.bytes
    }

    static func routes(_ doc: Document, _ mode: ChangeMode) throws -> [(String, [String])] {
        var out: [(String, [String])] = []
        out.append(("model", lines(try doc.applying([ReviewTransform(mode)]).blocks)))
        let docxBytes = try write(doc, docx)
        let inPlace = MemoryOutput()
        try InPlaceReview.review(.bytes(docxBytes), format: docx, to: inPlace, review: ReviewOptions(changes: mode))
        out.append(("docx in place", lines(try Converter.read(.bytes(inPlace.bytes), format: docx).blocks)))
        for f in [docx, rtf, md] {
            let back = try Converter.read(.bytes(try write(doc, f)), format: f)
            out.append(("\(f.name) round trip", lines(try back.applying([ReviewTransform(mode)]).blocks)))
        }
        // Markdown → DOCX → accept/reject: the file a Markdown user hands to a Word user.
        let fromMD = try Converter.read(.bytes(try write(doc, md)), format: md)
        let viaMD = try Converter.read(.bytes(try write(fromMD, docx)), format: docx)
        out.append(("md → docx", lines(try viaMD.applying([ReviewTransform(mode)]).blocks)))
        return out
    }

    /// Routes that may still differ from Word's rule on the 150 documents of the default seed, and at most how
    /// many: none. (The DOCX in-place route differed in list depth only, 11 and 16 documents, then 9 and 12
    /// once levels skipped inside a list were read at their depth; 0 since a list that starts at a deeper level
    /// is read at its depth too.)
    static let knownDifferences: [String: Int] = [:]

    static func hasCellChanges(_ flat: [Element]) -> Bool {
        flat.contains { if case .table(let rows) = $0 { return rows.contains { $0.cellChanges.contains { $0 != nil } } }; return false }
    }

    /// The lines without each paragraph's depth.
    static func withoutDepth(_ lines: [String]) -> [String] {
        lines.map { $0.hasPrefix("row|") ? $0 : String($0.drop { $0 != "|" }) }
    }

    func testGeneratedDocumentsFollowWordsRule() throws {
        let base = SeededRandom.seed(default: 32)
        var failures: [String: Int] = [:]
        var examples: [String: String] = [:]
        let count = ProcessInfo.processInfo.environment["REDLINE_SEED"] != nil ? 1 : 150
        var cellDocuments = 0
        for n in 0..<count {
            let seed = base &+ UInt64(n)
            var rng = SeededRandom(seed: seed)
            let flat = Self.generate(&rng)
            let doc = Self.model(flat)
            if Self.hasCellChanges(flat) { cellDocuments += 1 }
            for mode in [ChangeMode.accept, .reject] {
                let want = Self.reference(flat, mode)
                for (route, got) in try Self.routes(doc, mode) where got != want {
                    let depthOnly = route == "docx in place" && Self.withoutDepth(got) == Self.withoutDepth(want)
                    let key = "\(route)\(depthOnly ? " (list depth)" : "") \(mode.rawValue)"
                    failures[key, default: 0] += 1
                    if examples[key] == nil {
                        examples[key] = "seed \(seed): want \(want)\n got \(got)"
                    }
                }
            }
        }
        if count == 150 { XCTAssertGreaterThan(cellDocuments, 10, "documents with tracked cell insertions or deletions") }
        for (k, v) in failures.sorted(by: { $0.key < $1.key }) {
            let ceiling = count == 150 ? Self.knownDifferences[k] ?? 0 : 0
            let message = "\(k): \(v) of \(count) documents differ from Word's rule; first: \(examples[k]!)"
            if v > ceiling { XCTFail(message) } else { print("known difference (at most \(ceiling)): " + message) }
        }
        for (k, ceiling) in Self.knownDifferences where count == 150 && (failures[k] ?? 0) < ceiling {
            print("\(k): now \(failures[k] ?? 0) documents differ, fewer than the \(ceiling) known: lower knownDifferences")
        }
    }

    // MARK: The issue's cases

    /// A deleted mark between list items of different levels: the joined paragraph takes the next one's
    /// level, and no empty item is left (accepting gave an extra `2.` with nothing in it).
    func testDeletedMarkBetweenLevels() throws {
        let flat: [Element] = [
            .paragraph(FlatParagraph(runs: [("One", nil)], mark: nil, level: 0)),
            .paragraph(FlatParagraph(runs: [("Two", nil)], mark: .del, level: 0)),
            .paragraph(FlatParagraph(runs: [("Nested", nil)], mark: nil, level: 1)),
            .paragraph(FlatParagraph(runs: [("Three", nil)], mark: nil, level: 0)),
            .paragraph(FlatParagraph(runs: [("End", nil)], mark: nil, level: nil)),
        ]
        XCTAssertEqual(Self.reference(flat, .accept), ["1|One", "2|TwoNested", "1|Three", "0|End"])
        let doc = Self.model(flat)
        // The item left without its paragraph continues the one before: One (TwoNested nested in it), Three.
        let accepted = try doc.applying([ReviewTransform(.accept)])
        guard case .list(let l)? = accepted.blocks.first else { return XCTFail("\(accepted.blocks)") }
        XCTAssertEqual(l.items.count, 2, "\(l.items)")
        XCTAssertEqual(l.items.first?.count, 2, "\(l.items)")
        for mode in [ChangeMode.accept, .reject] {
            for (route, got) in try Self.routes(doc, mode) {
                XCTAssertEqual(got, Self.reference(flat, mode), "\(route) \(mode)")
            }
        }
    }

    /// `{--text--}{>>@Ann (date) [mark-kept]<<}`: a paragraph deleted (inserted) but for its break reads back
    /// so, and through DOCX accepting keeps it apart from the next paragraph.
    func testMarkKeptSurvivesCriticMarkup() throws {
        let flat: [Element] = [
            .paragraph(FlatParagraph(runs: [("Gone", .del)], mark: nil, level: nil)),
            .paragraph(FlatParagraph(runs: [("New", .ins)], mark: nil, level: nil)),
            .paragraph(FlatParagraph(runs: [("Kept", nil)], mark: nil, level: nil)),
        ]
        let doc = Self.model(flat)
        let text = String(decoding: try Self.write(doc, Self.md), as: UTF8.self)
        XCTAssertEqual(text, "{--Gone--}{>>@Bob (2024-01-16T09:00:00Z) [mark-kept]<<}\n\n"
            + "{++New++}{>>@Ann (2024-01-15T14:30:00Z) [mark-kept]<<}\n\nKept\n")
        let back = try Converter.read(.bytes(Array(text.utf8)), format: Self.md)
        XCTAssertEqual(back.blocks.map { $0.paragraph?.markChange }, [nil, nil, nil])
        for mode in [ChangeMode.accept, .reject] {
            for (route, got) in try Self.routes(doc, mode) {
                XCTAssertEqual(got, Self.reference(flat, mode), "\(route) \(mode)")
            }
        }
    }

    /// A row that is no row change but whose every cell's text is one deletion (insertion) by one author would
    /// read back as a deleted (inserted) row: `{>>@ [row-kept]<<}` at its first cell says it is not, so
    /// accepting leaves the row with its cells emptied, as Word does.
    func testRowKeptIsNoRowChange() throws {
        let t = Table(columns: [.none, .none], headerRowCount: 1, rows: [
            TableRow([TableCell([.paragraph(Paragraph([.text("a")]))]), TableCell([.paragraph(Paragraph([.text("b")]))])]),
            TableRow([TableCell([.paragraph(Paragraph([.deletion(Self.bob, [.text("x")])]))]),
                      TableCell([.paragraph(Paragraph([.deletion(Self.bob, [.text("y")])]))])]),
            TableRow([TableCell([.paragraph(Paragraph([.text("old")]))]), TableCell([])], change: .deleted(Self.bob)),
            // A cell of an empty paragraph is written empty: the other cell alone would make the row deleted.
            TableRow([TableCell([.paragraph(Paragraph([]))]), TableCell([.paragraph(Paragraph([.deletion(Self.bob, [.text("z")])]))])]),
        ])
        let doc = Document(blocks: [.table(t)])
        let text = String(decoding: try Self.write(doc, Self.md), as: UTF8.self)
        XCTAssertTrue(text.contains("| {>>@ [row-kept]<<}{--x--}"), text)
        XCTAssertEqual(text.components(separatedBy: "[row-kept]").count, 3, text)
        let back = try Converter.read(.bytes(Array(text.utf8)), format: Self.md)
        guard case .table(let t1)? = back.blocks.first else { return XCTFail(text) }
        XCTAssertEqual(t1.rows.map { $0.change.map(DOCXRowAnon.anonymous) }, [nil, nil, .deleted(Self.bob), nil], text)
        for mode in [ChangeMode.accept, .reject] {
            let want = Self.lines(try doc.applying([ReviewTransform(mode)]).blocks)
            XCTAssertEqual(Self.lines(try back.applying([ReviewTransform(mode)]).blocks), want, "\(mode)")
            let viaDOCX = try Converter.read(.bytes(try Self.write(back, Self.docx)), format: Self.docx)
            XCTAssertEqual(Self.lines(try viaDOCX.applying([ReviewTransform(mode)]).blocks), want, "md → docx \(mode)")
        }
        XCTAssertEqual(Self.lines(try back.applying([ReviewTransform(.accept)]).blocks), ["row|a|b", "row||", "row||"])
    }

    /// Rows the cells' text cannot carry (no text, a cell with changes of its own) and cell insertions and
    /// deletions go through CriticMarkup as `[row-deleted]`, `[cell-inserted]`… attributions.
    func testRowAndCellChangesSurviveCriticMarkup() throws {
        let t = Table(columns: [.none, .none, .none], headerRowCount: 1, rows: [
            TableRow([TableCell([.paragraph(Paragraph([.text("A")]))]), TableCell([.paragraph(Paragraph([.text("B")]))]),
                      TableCell([.paragraph(Paragraph([.text("C")]))])]),
            TableRow([TableCell([]), TableCell([]), TableCell([])], change: .deleted(Self.bob)),
            TableRow([TableCell([.paragraph(Paragraph([.text("x"), .insertion(Self.ann, [.text("y")])]))]),
                      TableCell([.paragraph(Paragraph([.text("z")]))]), TableCell([])], change: .deleted(Self.bob)),
            TableRow([TableCell([.paragraph(Paragraph([.text("kept")]))]),
                      TableCell([.paragraph(Paragraph([.text("new")]))], change: .inserted(Self.ann)),
                      TableCell([.paragraph(Paragraph([.text("old")]))], change: .deleted(Self.bob))]),
        ])
        let doc = Document(blocks: [.table(t)])
        let d = Diagnostics()
        let out = MemoryOutput()
        try Converter.write(doc, format: Self.md, to: out, diagnostics: d)
        let text = String(decoding: out.bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("{>>@Bob (2024-01-16T09:00:00Z) [row-deleted]<<}"), text)
        XCTAssertTrue(text.contains("{>>@Ann (2024-01-15T14:30:00Z) [cell-inserted]<<}"), text)
        XCTAssertFalse(d.all.contains { $0.code == "lossy.table-row-change" || $0.code == "lossy.table-cell-change" }, "\(d.all)")
        let back = try Converter.read(.bytes(out.bytes), format: Self.md)
        guard case .table(let t1)? = back.blocks.first else { return XCTFail(text) }
        func anon(_ r: RowChange?) -> RowChange? { r.map(DOCXRowAnon.anonymous) }
        XCTAssertEqual(t1.rows.map { anon($0.change) }, t.rows.map(\.change), text)
        XCTAssertEqual(t1.rows[3].cells.map { anon($0.change) }, t.rows[3].cells.map(\.change), text)
        for mode in [ChangeMode.accept, .reject] {
            let want = Self.lines(try doc.applying([ReviewTransform(mode)]).blocks)
            XCTAssertEqual(Self.lines(try back.applying([ReviewTransform(mode)]).blocks), want, "\(mode)")
            let viaDOCX = try Converter.read(.bytes(try Self.write(back, Self.docx)), format: Self.docx)
            XCTAssertEqual(Self.lines(try viaDOCX.applying([ReviewTransform(mode)]).blocks), want, "md → docx \(mode)")
        }
    }
}

enum DOCXRowAnon {
    static func anonymous(_ r: RowChange) -> RowChange {
        switch r {
        case .inserted(var c): c.id = nil; return .inserted(c)
        case .deleted(var c): c.id = nil; return .deleted(c)
        }
    }
}

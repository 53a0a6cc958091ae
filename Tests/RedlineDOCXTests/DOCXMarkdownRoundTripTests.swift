import Foundation
import Redline
import RedlineCore
import XCTest

/// DOCX → CriticMarkup → DOCX keeps what a reviewer decides on: for every DOCX with tracked changes in
/// `../shared/corpus`, the text after accepting every change and after rejecting every change is the same
/// before and after the trip through Markdown. The similarity per file (words, 2·LCS / (n + m)) is printed;
/// `REDLINE_SIMILARITY=1` prints every file's.
final class DOCXMarkdownRoundTripTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/corpus").standardized

    /// Whether the document holds a tracked change anywhere (text, paragraph marks, rows, cells).
    static func hasChanges(_ d: Document) throws -> Bool {
        try d.applying([ReviewTransform(.accept), DropComments()]) != d.applying([ReviewTransform(.reject), DropComments()])
    }

    static func words(_ d: Document, _ mode: ChangeMode) throws -> [Substring] {
        let x = try d.applying([ReviewTransform(mode), DropComments()])
        return x.blocks.map(\.plainText).joined(separator: " ").split(whereSeparator: \.isWhitespace)
    }

    /// 2·LCS / (n + m) over words (1 when equal).
    static func similarity(_ a: [Substring], _ b: [Substring]) -> Double {
        if a == b { return 1 }
        guard !a.isEmpty || !b.isEmpty else { return 1 }
        var prev = [Int](repeating: 0, count: b.count + 1), cur = prev
        for i in 1...max(a.count, 1) where !a.isEmpty {
            for j in 1...max(b.count, 1) where !b.isEmpty {
                cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : max(prev[j], cur[j - 1])
            }
            swap(&prev, &cur)
        }
        return 2 * Double(prev[b.count]) / Double(a.count + b.count)
    }

    func testAcceptedAndRejectedTextSurviveMarkdown() throws {
        guard let e = FileManager.default.enumerator(atPath: Self.corpus.path) else { throw XCTSkip("no ../shared/corpus") }
        let docx = FormatRegistry.named("docx")!, md = FormatRegistry.named("md")!
        var checked = 0
        var report: [String] = []
        for case let rel as String in e where rel.hasSuffix(".docx") {
            let path = Self.corpus.appendingPathComponent(rel).path
            guard let doc0 = try? Converter.read(.file(path), format: docx), try Self.hasChanges(doc0) else { continue }
            let text = MemoryOutput()
            try Converter.write(doc0, format: md, to: text)
            let fromMarkdown = try Converter.read(.bytes(text.bytes), format: md)
            let out = MemoryOutput()
            try Converter.write(fromMarkdown, format: docx, to: out)
            let doc1 = try Converter.read(.bytes(out.bytes), format: docx)
            checked += 1
            var line = rel
            for mode in [ChangeMode.accept, .reject] {
                let (w0, w1) = (try Self.words(doc0, mode), try Self.words(doc1, mode))
                line += String(format: "  %@ %.4f", mode.rawValue, Self.similarity(w0, w1))
                XCTAssertEqual(w1, w0, "\(rel): \(mode)ed text differs after DOCX → Markdown → DOCX")
            }
            report.append(line)
        }
        XCTAssertGreaterThan(checked, 10)
        if ProcessInfo.processInfo.environment["REDLINE_SIMILARITY"] != nil { print(report.sorted().joined(separator: "\n")) }
    }

    /// Issue #32: DOCX → CriticMarkup → DOCX keeps the accepted and the rejected document exactly, as text and
    /// block structure (`ModelOutline`: paragraphs, list items, table rows and cells; empty paragraphs outside
    /// lists left out, as Markdown has none), for every DOCX with tracked changes in `../shared/corpus` and in
    /// `Corpus/` (whose `docx/lists-tables-notes.docx` has tracked rows; the shared corpus's one file with cell
    /// revisions is `RP036-Vert-Merged-Cells.docx`).
    /// Prints the count of exact files and the others (`REDLINE_SIMILARITY=1`: with the first difference).
    func testAcceptedAndRejectedStructureSurviveMarkdown() throws {
        let repoCorpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus")
        guard FileManager.default.fileExists(atPath: Self.corpus.path) else { throw XCTSkip("no ../shared/corpus") }
        let docx = FormatRegistry.named("docx")!, md = FormatRegistry.named("md")!
        func outline(_ d: Document, _ mode: ChangeMode) throws -> [String] {
            ModelOutline.lines(try d.applying([ReviewTransform(mode), DropComments()]).blocks).filter { $0 != "P " }
        }
        var exact = 0, checked = 0
        var inexact: [String] = []
        let files = [Self.corpus, repoCorpus].flatMap { root -> [(String, String)] in
            let e = FileManager.default.enumerator(atPath: root.path)
            return (e?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".docx") }.sorted()
                .map { ($0, root.appendingPathComponent($0).path) }
        }
        for (rel, path) in files {
            guard let doc0 = try? Converter.read(.file(path), format: docx), try Self.hasChanges(doc0) else { continue }
            checked += 1
            let text = MemoryOutput()
            try Converter.write(doc0, format: md, to: text)
            let out = MemoryOutput()
            try Converter.write(try Converter.read(.bytes(text.bytes), format: md), format: docx, to: out)
            let doc1 = try Converter.read(.bytes(out.bytes), format: docx)
            var differs: [String] = []
            for mode in [ChangeMode.accept, .reject] {
                let (a, b) = (try outline(doc0, mode), try outline(doc1, mode))
                if a != b {
                    let k = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                    differs.append("\(mode): \(k < a.count ? a[k] : "-") / \(k < b.count ? b[k] : "-")")
                }
            }
            if differs.isEmpty { exact += 1 } else { inexact.append(rel + "  " + differs.joined(separator: "; ")) }
        }
        print("DOCX → CriticMarkup → DOCX: \(exact) of \(checked) files exact on accept and reject")
        for line in inexact.sorted() { print("  inexact: " + line) }
        XCTAssertGreaterThanOrEqual(exact, Self.exactFloor, inexact.sorted().joined(separator: "\n"))
    }

    /// The exact files of `testAcceptedAndRejectedStructureSurviveMarkdown` on the shared corpus and `Corpus/`
    /// (issue #32).
    static let exactFloor = 22

    /// The Markdown of every DOCX and RTF in `Corpus/` and `../shared/corpus` holds no empty span `[]{}`.
    func testNoEmptySpansInCorpusMarkdown() throws {
        let roots = [Self.corpus, URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus")]
        let md = FormatRegistry.named("md")!
        var checked = 0
        for root in roots {
            guard let e = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let rel as String in e {
                let ext = (rel as NSString).pathExtension.lowercased()
                guard ext == "docx" || ext == "rtf", let format = FormatRegistry.named(ext) else { continue }
                guard let doc = try? Converter.read(.file(root.appendingPathComponent(rel).path), format: format) else { continue }
                let out = MemoryOutput()
                try Converter.write(doc, format: md, to: out)
                let text = String(decoding: out.bytes, as: UTF8.self)
                XCTAssertFalse(text.contains("[]{}"), "\(rel): an empty span in its Markdown")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    /// Word's empty paragraphs in Markdown without an empty span: an empty numbered paragraph is a bare list
    /// marker, an empty paragraph inserted after a paragraph (that paragraph's mark inserted) is the closer of
    /// that break change alone, an empty paragraph whose own mark is deleted is `{--` blank line `--}`. The
    /// DOCX written from that Markdown is valid and gives the same Markdown back; accepted and rejected text
    /// are the source's.
    func testWordEmptyParagraphsWithoutEmptySpans() throws {
        let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z", id: "1"), bob = Change(author: "Bob", date: "2024-01-16T09:00:00Z", id: "2")
        func para(_ t: String, _ m: ParagraphMarkChange? = nil) -> Block { .paragraph(Paragraph(t.isEmpty ? [] : [.text(t)], markChange: m)) }
        let list = List(kind: .ordered(start: 1, delimiter: "."), tight: true, items: [[para("a")], [para("")], [para("b")]])
        let doc0 = try Converter.read(.bytes(DOCXTest.write(Document(blocks: [
            para("Before."), .list(list), para("Typed, then Enter twice.", .inserted(ann)), para(""), para("After."),
            para("", .deleted(bob)), para("End."),
        ]))), format: FormatRegistry.named("docx")!)
        let md = MemoryOutput()
        try Converter.write(doc0, format: FormatRegistry.named("md")!, to: md)
        let text = String(decoding: md.bytes, as: UTF8.self)
        XCTAssertEqual(text, """
            Before.

            1. a
            2.
            3. b

            Typed, then Enter twice.{++

            ++}{>>@Ann (2024-01-15T14:30:00Z)<<}

            After.

            {--

            --}{>>@Bob (2024-01-16T09:00:00Z)<<}End.

            """)
        let docx = try DOCXTest.file(DOCXTest.write(try Converter.read(.bytes(md.bytes), format: FormatRegistry.named("md")!)))
        try OOXMLValidate.assertValid(docx.path)
        let doc1 = try Converter.read(.file(docx.path), format: FormatRegistry.named("docx")!)
        let again = MemoryOutput()
        try Converter.write(doc1, format: FormatRegistry.named("md")!, to: again)
        XCTAssertEqual(String(decoding: again.bytes, as: UTF8.self), text)
        for mode in [ChangeMode.accept, .reject] {
            XCTAssertEqual(try doc1.applying([ReviewTransform(mode)]).blocks.map(\.plainText),
                           try doc0.applying([ReviewTransform(mode)]).blocks.map(\.plainText), "\(mode)")
        }
    }

    /// Redline's RTF re-saved by LibreOffice as DOCX: LibreOffice drops the revision of a wholly inserted
    /// (deleted) paragraph's break, and the Markdown of that DOCX still holds no empty span; its accepted and
    /// rejected text are those of the source.
    func testLibreOfficeResavedRTFGivesNoEmptySpan() throws {
        try DOCXTest.require("soffice")
        let source = "Before.\n\n{++An inserted paragraph.++}{>>@Ann (2024-01-15T14:30:00Z)<<}\n\n"
            + "{--A deleted paragraph.--}{>>@Bob (2024-01-15T14:30:00Z)<<}\n\nAfter.\n"
        let doc0 = try Converter.read(.bytes(Array(source.utf8)), format: FormatRegistry.named("md")!)
        let dir = try DOCXTest.temporaryDirectory(), profile = try DOCXTest.temporaryDirectory()
        let rtf = dir.appendingPathComponent("ours.rtf")
        let out = MemoryOutput()
        try Converter.write(doc0, format: FormatRegistry.named("rtf")!, to: out)
        try Data(out.bytes).write(to: rtf)
        let r = try DOCXTest.run(["soffice", "--headless", "-env:UserInstallation=file://\(profile.path)",
                                  "--convert-to", "docx", "--outdir", dir.path, rtf.path])
        let docx = dir.appendingPathComponent("ours.docx")
        guard FileManager.default.fileExists(atPath: docx.path) else { return XCTFail("LibreOffice wrote no DOCX: \(r.err)") }
        let doc1 = try Converter.read(.file(docx.path), format: FormatRegistry.named("docx")!)
        let md = MemoryOutput()
        try Converter.write(doc1, format: FormatRegistry.named("md")!, to: md)
        let text = String(decoding: md.bytes, as: UTF8.self)
        XCTAssertFalse(text.contains("[]{}"), text)
        XCTAssertTrue(text.contains("{++An inserted paragraph.++}"), text)
        for mode in [ChangeMode.accept, .reject] {
            XCTAssertEqual(try Self.words(doc1, mode), try Self.words(doc0, mode), "\(mode)")
        }
    }

    /// Table row insertions and deletions survive Markdown: each cell's text wholly inserted (deleted) by
    /// the row's change reads back as the row change.
    func testTableRowChangesSurviveMarkdown() throws {
        let docx = FormatRegistry.named("docx")!, md = FormatRegistry.named("md")!
        let doc0 = try Converter.read(.bytes(DOCXTest.write(DOCXWriterSamples.marked)), format: docx)
        func rowChanges(_ d: Document) -> [RowChange?] {
            d.blocks.flatMap { b -> [RowChange?] in if case .table(let t) = b { return t.rows.map(\.change) }; return [] }
        }
        XCTAssertTrue(rowChanges(doc0).contains { $0 != nil }, "the sample has row changes")
        let text = MemoryOutput()
        let diagnostics = Diagnostics()
        try Converter.write(doc0, format: md, to: text, diagnostics: diagnostics)
        XCTAssertFalse(diagnostics.all.contains { $0.code == "lossy.table-row-change" }, "\(diagnostics.all)")
        let fromMarkdown = try Converter.read(.bytes(text.bytes), format: md)
        XCTAssertEqual(rowChanges(fromMarkdown).map { $0.map(Self.anonymous) }, rowChanges(doc0).map { $0.map(Self.anonymous) },
                       String(decoding: text.bytes, as: UTF8.self))
        let back = try Converter.read(.bytes(DOCXTest.write(fromMarkdown)), format: docx)
        XCTAssertEqual(rowChanges(back).map { $0.map(Self.anonymous) }, rowChanges(doc0).map { $0.map(Self.anonymous) })
    }

    /// A row change without its revision id (CriticMarkup writes none).
    static func anonymous(_ r: RowChange) -> RowChange {
        switch r {
        case .inserted(var c): c.id = nil; return .inserted(c)
        case .deleted(var c): c.id = nil; return .deleted(c)
        }
    }
}

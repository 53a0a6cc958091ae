import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import XCTest

/// DOCX → model → DOCX → model is identical up to the normalisations `DOCXRoundTrip.normalised` documents,
/// over every DOCX in `../shared/corpus` and the writer's own sample; every DOCX written is opened by
/// LibreOffice (same words, every change shown) and python-docx.
final class DOCXWriterRoundTripTests: XCTestCase {
    static var docx: Format { FormatRegistry.named("docx")! }

    /// The model of a DOCX.
    static func read(_ bytes: [UInt8], diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        try Converter.read(.bytes(bytes), format: docx, diagnostics: diagnostics)
    }

    func testSampleSurvivesAWriteAndRead() throws {
        let original = DOCXWriterSamples.marked
        let model = try Self.read(DOCXTest.write(original))
        let expected = original
        // A thematic break reads back as the empty "Horizontal Rule" paragraph it is written as, unless the
        // reader maps it back.
        // The reader gives a code block back as a paragraph with line breaks (without the last line end).
        func text(_ d: Document) -> [String] {
            DOCXRoundTrip.normalised(d).blocks.map { $0.plainText.hasSuffix("\n") ? String($0.plainText.dropLast()) : $0.plainText }
        }
        XCTAssertEqual(text(model), text(expected))
        // Comments keep author, initials, date, body, replies and resolved state; notes their kind and text.
        func summary(_ c: Comment) -> String {
            "\(c.author ?? "-") \(c.initials ?? "-") \(c.date ?? "-") \(c.resolved) "
                + "\(c.parentID == nil ? "top" : "reply") \(c.body.map(\.plainText).joined(separator: "|"))"
        }
        XCTAssertEqual(model.comments.map(summary), original.comments.map(summary))
        XCTAssertEqual(model.notes.map { "\($0.kind) \($0.blocks.map(\.plainText))" },
                       original.notes.map { "\($0.kind) \($0.blocks.map(\.plainText))" })
        XCTAssertEqual(model.metadata.title, "The Marked Sample")
        XCTAssertEqual(model.metadata.authors, ["Ann Editor", "Bob Author"], "dc:creator \"Ann Editor; Bob Author\" is split on ';'")
        let again = try Self.read(DOCXTest.write(model))
        DOCXRoundTrip.assertEqual(DOCXRoundTrip.normalised(again), DOCXRoundTrip.normalised(model), "sample")
    }

    func testCorpusDocumentsRoundTrip() throws {
        let files = DOCXRoundTrip.corpusFiles()
        guard !files.isEmpty else { throw XCTSkip("no ../shared/corpus beside the repository") }
        let out = try DOCXTest.temporaryDirectory()
        var written: [(URL, Document)] = []
        for file in files {
            let name = file.lastPathComponent
            let first: Document
            do {
                first = try Self.read(try DOCXInput.bytes(file))
            } catch let e as RedlineError {
                // A file the reader refuses (unsupported or damaged) has nothing to round-trip.
                print("round trip: skipping \(name): \(e.message)")
                continue
            }
            let bytes = try DOCXTest.write(first)
            XCTAssertEqual(bytes, try DOCXTest.write(first), "\(name): not deterministic")
            let second = try Self.read(bytes)
            DOCXRoundTrip.assertEqual(DOCXRoundTrip.normalised(second), DOCXRoundTrip.normalised(first), name)
            let url = out.appendingPathComponent(file.deletingPathExtension().lastPathComponent + "-" + String(written.count) + ".docx")
            try Data(bytes).write(to: url)
            written.append((url, first))
        }
        XCTAssertGreaterThan(written.count, 20)
        try DOCXRoundTrip.checkConsumers(written)
    }
}

/// File access for the corpus.
enum DOCXInput {
    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}

/// What a DOCX round trip may change, and the consumer checks for many files at once.
enum DOCXRoundTrip {
    /// The repository root (three levels above this file).
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Every `.docx` under `../shared/corpus`, sorted.
    static func corpusFiles() -> [URL] {
        let root = URL(fileURLWithPath: RepositoryPaths.sharedCorpus).standardized
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return e.compactMap { $0 as? URL }.filter { $0.pathExtension == "docx" }.sorted { $0.path < $1.path }
    }

    /// The documented normalisations of a DOCX round trip:
    /// - change ids are renumbered (the writer gives fresh unique ids), so they are dropped;
    /// - comment and note ids are renumbered in order of first use, so they become their order;
    /// - document defaults: a source without any gets the writer's plain defaults, so they are dropped;
    /// - images and raw content are not written (reported as `docx.image-dropped` / `docx.raw-dropped`).
    /// `block` with every field's result left out.
    static func withoutFieldResults(_ block: Block) -> Block {
        struct Strip: ModelRewriter {
            mutating func rewriteInline(_ inline: Inline) -> [Inline] {
                if case .field = inline { return [] }
                return [descend(into: inline)]
            }
        }
        var s = Strip()
        return s.rewriteBlocks([block]).first ?? block
    }

    static func normalised(_ d: Document) -> Document {
        var commentIDs: [String: String] = [:]
        for c in d.comments where commentIDs[c.id] == nil { commentIDs[c.id] = "c\(commentIDs.count)" }
        var noteIDs: [String: String] = [:]
        for n in d.notes where noteIDs[n.id] == nil { noteIDs[n.id] = "n\(noteIDs.count)" }
        var n = Normaliser(commentIDs: commentIDs, noteIDs: noteIDs)
        var out = d
        out.header.defaultParagraphStyle = ParagraphStyle()
        out.header.defaultCharacterStyle = CharacterStyle()
        out.blocks = n.rewriteBlocks(d.blocks)
        out.comments = d.comments.compactMap { n.rewriteComment($0) }.map { c in
            var c = c
            c.id = commentIDs[c.id] ?? c.id
            c.parentID = c.parentID.map { commentIDs[$0] ?? $0 }
            return c
        }
        out.notes = d.notes.compactMap { n.rewriteNote($0) }.map { note in
            var note = note
            note.id = noteIDs[note.id] ?? note.id
            return note
        }
        return out
    }

    /// The rewriter behind `normalised`: change ids dropped, comment and note ids renumbered, images left out,
    /// raw content as the text DOCX shows.
    struct Normaliser: ModelRewriter {
        let commentIDs: [String: String]
        let noteIDs: [String: String]

        func change(_ c: Change) -> Change { var c = c; c.id = nil; return c }

        mutating func rewriteInlines(_ list: [Inline]) -> [Inline] { InlineBuilder.normalized(descend(into: list)) }

        mutating func rewriteInline(_ i: Inline) -> [Inline] {
            switch i {
            case .insertion(let c, let k): return [.insertion(change(c), rewriteInlines(k))]
            case .deletion(let c, let k): return [.deletion(change(c), rewriteInlines(k))]
            case .substitution(let c, let a, let b):
                return [.substitution(change(c), deleted: rewriteInlines(a), inserted: rewriteInlines(b))]
            case .move(var m, let k): m.change = change(m.change); return [.move(m, rewriteInlines(k))]
            case .formatChange(var f, let k): f.change = change(f.change); return [.formatChange(f, rewriteInlines(k))]
            case .commentStart(let id): return [.commentStart(commentIDs[id] ?? id)]
            case .commentEnd(let id): return [.commentEnd(commentIDs[id] ?? id)]
            case .commentPoint(let id): return [.commentPoint(commentIDs[id] ?? id)]
            case .noteReference(let id): return [.noteReference(noteIDs[id] ?? id)]
            case .image: return []
            // Raw content is shown as its text (`RawStyles`).
            case .raw(_, let t): return [.text(t)]
            default: return [descend(into: i)]
            }
        }

        mutating func rewriteParagraph(_ paragraph: Paragraph) -> Paragraph {
            var p = descend(into: paragraph)
            switch p.markChange {
            case .inserted(let c)?: p.markChange = .inserted(change(c))
            case .deleted(let c)?: p.markChange = .deleted(change(c))
            case nil: break
            }
            if var s = p.styleChange { s.change = change(s.change); p.styleChange = s }
            return p
        }

        mutating func rewriteBlock(_ b: Block) -> Block? {
            if case .raw(_, let t) = b { return .paragraph(Paragraph([.text(t.hasSuffix("\n") ? String(t.dropLast()) : t)])) }
            return descend(into: b)
        }

        mutating func rewriteRow(_ row: TableRow) -> TableRow? {
            var r = row
            switch r.change {
            case .inserted(let c)?: r.change = .inserted(change(c))
            case .deleted(let c)?: r.change = .deleted(change(c))
            case nil: break
            }
            return descend(into: r)
        }
    }

    /// Asserts two models are equal, naming the first block, comment or note that differs.
    static func assertEqual(_ a: Document, _ b: Document, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        if a == b { return }
        if a.header != b.header { XCTFail("\(name): header differs:\n\(a.header)\n\(b.header)", file: file, line: line) }
        for (i, (x, y)) in zip(a.blocks, b.blocks).enumerated() where x != y {
            XCTFail("\(name): block \(i) differs:\n  after : \(x)\n  before: \(y)", file: file, line: line)
            return
        }
        if a.blocks.count != b.blocks.count {
            XCTFail("\(name): \(a.blocks.count) blocks after, \(b.blocks.count) before", file: file, line: line)
        }
        for (x, y) in zip(a.comments, b.comments) where x != y {
            XCTFail("\(name): comment differs:\n  after : \(x)\n  before: \(y)", file: file, line: line)
            return
        }
        if a.comments.count != b.comments.count {
            XCTFail("\(name): \(a.comments.count) comments after, \(b.comments.count) before", file: file, line: line)
        }
        for (x, y) in zip(a.notes, b.notes) where x != y {
            XCTFail("\(name): note differs:\n  after : \(x)\n  before: \(y)", file: file, line: line)
            return
        }
        if a.notes.count != b.notes.count {
            XCTFail("\(name): \(a.notes.count) notes after, \(b.notes.count) before", file: file, line: line)
        }
    }

    /// LibreOffice converts all files in one run and shows the same words (every change shown); python-docx
    /// opens each.
    static func checkConsumers(_ written: [(URL, Document)]) throws {
        try DOCXTest.require("soffice")
        let dir = try DOCXTest.temporaryDirectory()
        let profile = try DOCXTest.temporaryDirectory()
        let r = try DOCXTest.run(["soffice", "--headless", "-env:UserInstallation=file://\(profile.path)",
                                  "--convert-to", "txt:Text", "--outdir", dir.path] + written.map(\.0.path))
        try? FileManager.default.removeItem(at: profile)
        for (url, document) in written {
            let txt = dir.appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".txt")
            guard let data = FileManager.default.contents(atPath: txt.path) else {
                XCTFail("LibreOffice could not open \(url.lastPathComponent): \(r.err)")
                continue
            }
            // Note marks may be glued to the word before them ("noted1", "endnotedi"): accept the word without them.
            var theirs: Set<Substring> = []
            for w in DOCXTest.words(String(decoding: data, as: UTF8.self)) {
                theirs.insert(w[...])
                theirs.insert(w.reversed().drop { $0.isNumber }.reversed().reduce(into: "") { $0.append($1) }[...])
                theirs.insert(String(w.reversed().drop { "ivxlc".contains($0) }.reversed())[...])
            }
            // A field's result is what LibreOffice computes again (a save date, a page number): not compared. Nor
            // is a text box's text: LibreOffice's text export leaves out inline shapes' text (its PDF shows it:
            // `TextBoxTests.testLibreOfficeShowsTheBoxText`).
            let ours = DOCXTest.words(normalised(document).blocks.filter { $0.textBox == nil }
                .map { withoutFieldResults($0).plainText }.joined(separator: "\n"))
            let missing = ours.filter { !theirs.contains($0[...]) }
            XCTAssertEqual(missing, [], "\(url.lastPathComponent): words LibreOffice does not show")
        }
        try DOCXTest.require("python-docx", check: ["python3", "-c", "import docx"])
        let script = "import docx,sys\nfor f in sys.argv[1:]:\n  docx.Document(f)\nprint('ok')"
        let py = try DOCXTest.run(["python3", "-c", script] + written.map(\.0.path))
        XCTAssertEqual(py.status, 0, "python-docx could not open one of the files: \(py.err)")
    }
}

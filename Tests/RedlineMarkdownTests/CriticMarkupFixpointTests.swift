import Foundation
import XCTest
@testable import RedlineMarkdown
import RedlineCore
import RedlineDOCX
import RedlineRTF

/// CriticMarkup → DOCX → CriticMarkup and CriticMarkup → RTF → CriticMarkup are fixpoints: the Markdown
/// Redline writes for a document comes back byte for byte after a trip through Word's or RTF's model, for
/// every CriticMarkup file of `Corpus/` and `../shared/corpus` and the property test's generated documents.
/// (A source is first normalised by one read and write: the fixpoint is of what Redline writes.)
final class CriticMarkupFixpointTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The CriticMarkup sources: every Markdown file in `Corpus/` and the CriticMarkup test files in the shared corpus.
    static func sources() throws -> [(name: String, text: String)] {
        var out: [(String, String)] = []
        for dir in ["Corpus/markdown", "Corpus/demo"] {
            let url = repo.appendingPathComponent(dir)
            for f in (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted() ?? [] where f.hasSuffix(".md") {
                out.append((dir + "/" + f, try String(contentsOfFile: url.appendingPathComponent(f).path, encoding: .utf8)))
            }
        }
        let shared = repo.appendingPathComponent("../shared/corpus").standardized
        for f in ["MultiMarkdown-6/CriticMarkup.text", "pymdown-extensions/critic (view).txt", "CriticMarkup-toolkit/README.md"] {
            guard var text = try? String(contentsOfFile: shared.appendingPathComponent(f).path, encoding: .utf8) else { continue }
            // MultiMarkdown's metadata block (`Title: …`) is no YAML: start after it.
            if f.hasPrefix("MultiMarkdown"), let blank = text.range(of: "\n\n") { text = String(text[blank.upperBound...]) }
            out.append(("shared/" + f, text))
        }
        return out
    }

    static func viaDOCX(_ doc: Document) throws -> Document {
        let out = MemoryOutput()
        var source = ChunkArraySource(doc)
        var sink = try DOCXWriter().sink(to: out, options: WriteOptions(), diagnostics: Diagnostics())
        try Pipeline.run(source: &source, stages: [], sink: &sink)
        var back = try DOCXReader().open(.bytes(out.bytes), options: ReadOptions(), diagnostics: Diagnostics())
        return try Document(reading: &back)
    }

    static func viaRTF(_ doc: Document) throws -> Document {
        try RTFReader().read(.bytes(RTFWriter().write(doc)))
    }

    /// The first lines where two texts differ.
    static func difference(_ a: String, _ b: String) -> String {
        let la = a.split(separator: "\n", omittingEmptySubsequences: false), lb = b.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for k in 0..<max(la.count, lb.count) where (k < la.count ? la[k] : "∅") != (k < lb.count ? lb[k] : "∅") {
            out.append("line \(k + 1):\n  was  \(k < la.count ? la[k] : "∅")\n  back \(k < lb.count ? lb[k] : "∅")")
            if out.count >= 4 { break }
        }
        return out.joined(separator: "\n")
    }

    /// Markdown `md` (as Redline writes it) comes back unchanged through `trip`; the failure message otherwise.
    static func check(_ md: String, _ trip: (Document) throws -> Document) throws -> String? {
        let back = try MarkdownWriter.string(trip(MarkdownReader.document(md)))
        return back == md ? nil : difference(md, back)
    }

    /// What a trip through DOCX or RTF drops taken out of a document beforehand: through RTF the paragraphs and headings left with
    /// nothing but spaces (its reader does not read those back) and the heading level of a list item's first
    /// heading (RTF numbers the heading's paragraph, and its reader reads a numbered paragraph as the item's). A trip's accepted and rejected words are compared with this
    /// document's: a dropped block between a paragraph whose break goes and the paragraph after it changes what
    /// the break joins (Word's flat rule), which is the trip's loss, not the review's.
    struct TripDrops: ModelRewriter, ChunkStage {
        let native: String

        mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
            if let c = rewriteChunk(chunk) { try emit(c) }
        }

        mutating func rewriteBlocks(_ blocks: [Block]) -> [Block] { blocks.compactMap { rewriteBlock($0) } }

        mutating func rewriteBlock(_ block: Block) -> Block? {
            switch block {
            case .list(var l) where native == "rtf":
                for i in l.items.indices {
                    if case .heading(_, let p)? = l.items[i].first { l.items[i][0] = .paragraph(p) }
                }
                return descend(into: .list(l))
            case .paragraph(let p), .heading(_, let p):
                guard let r = descend(into: block), let q = r.paragraph, q.content != p.content else { return descend(into: block) }
                let blank = q.content.allSatisfy { if case .text(let t) = $0 { return t.allSatisfy(\.isWhitespace) } else { return false } }
                return native == "rtf" && blank && q.markChange == nil && q.styleChange == nil ? nil : r
            default: return descend(into: block)
            }
        }

        mutating func rewriteInlines(_ inlines: [Inline]) -> [Inline] { InlineBuilder.normalized(descend(into: inlines)) }
    }

    /// The words of a document after accepting (or rejecting) every change, comments dropped.
    static func words(_ doc: Document, _ mode: ChangeMode) throws -> [Substring] {
        let d = try doc.applying([ReviewTransform(mode), DropComments()])
        return d.blocks.map(\.plainText).joined(separator: " ").split(whereSeparator: \.isWhitespace)
    }

    /// One trip through `format` keeps the accepted and the rejected text, and the Markdown it gives is a
    /// fixpoint of the trip (a second trip gives it back byte for byte). What the format cannot hold (RTF:
    /// moves, formatting changes, resolved states; DOCX: soft line breaks, front matter beyond core
    /// properties) goes in the first trip, with its warning.
    func testCorpusFilesAreFixpointsThroughDOCXAndRTF() throws {
        let sources = try Self.sources()
        XCTAssertGreaterThanOrEqual(sources.count, 6)
        for (name, text) in sources {
            let doc0 = try MarkdownReader.document(text)
            let md0 = try MarkdownWriter.string(doc0)
            for (format, trip) in [("docx", Self.viaDOCX), ("rtf", Self.viaRTF)] as [(String, (Document) throws -> Document)] {
                let doc1 = try trip(MarkdownReader.document(md0))
                for mode in [ChangeMode.accept, .reject] {
                    XCTAssertEqual(try Self.words(doc1, mode), try Self.words(doc0, mode), "\(name) → \(format): \(mode)ed text differs")
                }
                let md1 = try MarkdownWriter.string(doc1)
                if let d = try Self.check(md1, trip) { XCTFail("\(name) → \(format) → md is no fixpoint:\n\(d)") }
            }
        }
    }

    func testSmallCasesAreFixpoints() throws {
        for md in ["Before.\n\n{++foo++}\n\n{--bar--}\n\nAfter.\n",
                   "{++A wholly inserted paragraph.++}{>>@Ann (2024-01-15T14:30:00Z)<<}\n\nNext.\n",
                   "Split {++here.\n\nAnd++} there.\n",
                   "foo **{>>bar<<}**\n"] {
            let normal = try MarkdownWriter.string(MarkdownReader.document(md))
            XCTAssertEqual(normal, md, "not canonical")
            for (format, trip) in [("docx", Self.viaDOCX), ("rtf", Self.viaRTF)] as [(String, (Document) throws -> Document)] {
                if let d = try Self.check(normal, trip) { XCTFail("\(format): \(d)") }
            }
        }
    }

    /// The smallest shapes of the generated documents that lost accepted or rejected text on the first trip:
    /// a table row deleted (inserted) with tracking through RTF (seeds 0x5EED0001, …: RTF has no row
    /// revision, so the writer marks the cells' text), a heading in a block quote and a heading in a list item
    /// through DOCX (seeds 0x5EED004D and 0x5EED0035: written as a Quote paragraph with an outline level, and
    /// indented as the item's continuation, so that a changed break before them still joins the two).
    func testShapesKeepTheirAcceptedAndRejectedText() throws {
        for md in ["| a | b |\n| --- | --- |\n| {--x--}{>>@Ann<<} | {--y--}{>>@Ann<<} |\n| {++z++}{>>@Bob<<} |  |\n",
                   "> # Head{--\n>\n> --}{>>@Ann<<}tail\n",
                   "> # Head\n>\n> tail\n",
                   "- item{++\n\n  # ++}{>>@Ann<<}head\n",
                   "- item\n\n  ## head\n\n  more\n\n- next\n"] {
            let doc0 = try MarkdownReader.document(md)
            let normal = try MarkdownWriter.string(doc0)
            for (format, trip) in [("docx", Self.viaDOCX), ("rtf", Self.viaRTF)] as [(String, (Document) throws -> Document)] {
                let doc1 = try trip(doc0)
                for mode in [ChangeMode.accept, .reject] {
                    XCTAssertEqual(try Self.words(doc1, mode), try Self.words(doc0, mode), "\(format), \(mode): \(md)")
                }
                if let d = try Self.check(normal, trip) { XCTFail("\(format): \(md)\n\(d)") }
            }
        }
    }

    /// The property test's documents (without formatting, which Markdown then does not write): one trip keeps
    /// their accepted and rejected text word for word, and the Markdown after it is a fixpoint of the trip,
    /// for all 300 through DOCX and through RTF.
    func testGeneratedDocumentsAreFixpoints() throws {
        var failures: [String: Int] = [:]
        for seed in (0..<UInt64(300)).map({ 0x5EED_0000 + $0 }) {
            var g = DocumentGenerator(seed: seed, formatting: false)
            let doc0 = g.document()
            for (format, trip) in [("docx", Self.viaDOCX), ("rtf", Self.viaRTF)] as [(String, (Document) throws -> Document)] {
                let doc1 = try trip(doc0)
                let md = try MarkdownWriter.string(doc1)
                // The first trip keeps the accepted and the rejected text, word for word (what it loses, such
                // as RTF's moves as a deletion and an insertion, changes no word of either).
                let kept = try doc0.applying([TripDrops(native: format == "rtf" ? "rtf" : "")])
                for mode in [ChangeMode.accept, .reject] where try Self.words(doc1, mode) != Self.words(kept, mode) {
                    failures[format, default: 0] += 1
                    XCTFail("seed \(seed) → \(format): \(mode)ed text differs after the first trip")
                }
                guard let d = try Self.check(md, trip) else { continue }
                failures[format, default: 0] += 1
                XCTFail("seed \(seed) → \(format) → md is no fixpoint:\n\(d)")
                if ProcessInfo.processInfo.environment["REDLINE_FIXPOINT_VERBOSE"] != nil { print("seed \(seed) → \(format) → md differs:\n\(d)\n--- markdown ---\n\(md)") }
            }
        }
        if ProcessInfo.processInfo.environment["REDLINE_FIXPOINT_VERBOSE"] != nil { print("generated documents that are no fixpoint: \(failures)") }
    }
}

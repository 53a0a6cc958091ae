import Foundation
import RedlineCore
import RedlineDOCX
import XCTest

/// Real consumers open what the DOCX writer writes: LibreOffice (its text shows every change),
/// pandoc (`--track-changes=all` sees the same insertions, deletions and comments) and python-docx.
final class DOCXWriterConsumerTests: XCTestCase {
    /// Documents every consumer test opens.
    static var documents: [(String, Document)] {
        [("marked", DOCXWriterSamples.marked)]
    }

    func testLibreOfficeShowsEveryWordWithEveryChange() throws {
        for (name, document) in Self.documents {
            let docx = try DOCXTest.file(DOCXTest.write(document), named: "\(name).docx")
            let theirs = DOCXTest.words(try DOCXTest.libreOfficeText(docx))
            // An image's alt text is no text LibreOffice shows.
            let ours = DOCXTest.words(DOCXRoundTrip.normalised(document).blocks.map(\.plainText).joined(separator: "\n"))
            XCTAssertFalse(ours.isEmpty)
            DOCXTest.assertSameWords(ours, theirs, name)
        }
    }

    /// LibreOffice lays the document out (PDF) with every line in its place, with the Scrivener preset
    /// and without: words read off the page in order.
    func testLibreOfficeRendersTheLayoutInOrder() throws {
        var scrivener = WriteOptions()
        scrivener.paragraphPreset = .scrivener
        scrivener.characterPreset = CharacterStyle(fontFamily: "Palatino", fontSize: 13)
        for (label, options) in [("plain", WriteOptions()), ("scrivener", scrivener)] {
            let document = DOCXWriterSamples.marked
            let docx = try DOCXTest.file(DOCXTest.write(document, options: options), named: "\(label).docx")
            // Small capitals are drawn as capitals: compare without case.
            let page = DOCXTest.words(try DOCXTest.renderedText(docx).lowercased())
            // The rendering shows the body, the footnote at the page foot, then the endnotes.
            var shown = DOCXRoundTrip.normalised(document)
            shown.blocks += shown.notes.filter { $0.kind == .footnote }.flatMap(\.blocks)
                + shown.notes.filter { $0.kind == .endnote }.flatMap(\.blocks)
            let ours = DOCXTest.words(shown.blocks.map(\.plainText).joined(separator: "\n").lowercased())
            DOCXTest.assertSameWords(ours, page, label)
        }
    }

    func testPandocSeesTheSameChangesAndComments() throws {
        for (name, document) in Self.documents {
            let docx = try DOCXTest.file(DOCXTest.write(document), named: "\(name).docx")
            let native = try DOCXTest.pandocNative(docx)
            XCTAssertEqual(Self.pandocMarks(native), Self.expectedMarks(document), name)
            // pandoc reads ranged comments (a reply is anchored with its parent); it ignores point comments.
            XCTAssertEqual(Self.pandocComments(native), Self.expectedRangedComments(document), name)
        }
    }

    /// The ECMA-376 schemas accept it (Word refuses what they reject), with either preset and in each
    /// change mode's output.
    func testItValidatesAgainstTheSchemas() throws {
        let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/tools/ooxml-validate").standardized.path
        try DOCXTest.require("ooxml-validate", check: ["python3", "-c", "import lxml; open('\(tool)')"])
        var scrivener = WriteOptions()
        scrivener.paragraphPreset = .scrivener
        var files: [String] = []
        for (name, document) in Self.documents {
            for (label, options) in [("plain", WriteOptions()), ("scrivener", scrivener)] {
                files.append(try DOCXTest.file(DOCXTest.write(document, options: options), named: "\(name)-\(label).docx").path)
            }
        }
        let r = try DOCXTest.run(["python3", tool] + files)
        XCTAssertEqual(r.status, 0, r.out + r.err)
    }

    func testPythonDocxOpensIt() throws {
        for (name, document) in Self.documents {
            let docx = try DOCXTest.file(DOCXTest.write(document), named: "\(name).docx")
            let paragraphs = try DOCXTest.pythonDocxParagraphs(docx)
            XCTAssertTrue(paragraphs.contains("The end."), "\(name): \(paragraphs)")
        }
    }

    // MARK: What to expect

    /// (kind, author) of every tracked text change in reading order, as pandoc names them
    /// (a move is a deletion and an insertion to pandoc, a paragraph mark change a paragraph-…).
    static func expectedMarks(_ d: Document) -> [String] {
        var out: [String] = []
        func walk(_ inlines: [Inline]) {
            for i in inlines {
                switch i {
                case .insertion(let c, let k): out.append("insertion \(c.author ?? "")"); walk(k)
                case .deletion(let c, let k): out.append("deletion \(c.author ?? "")"); walk(k)
                case .substitution(let c, let del, let ins):
                    out.append("deletion \(c.author ?? "")"); walk(del)
                    out.append("insertion \(c.author ?? "")"); walk(ins)
                case .move(let m, let k):
                    out.append((m.side == .from ? "deletion " : "insertion ") + (m.change.author ?? "")); walk(k)
                default: walk(i.children)
                }
            }
        }
        func block(_ b: Block) {
            if let p = b.paragraph {
                walk(p.content)
                switch p.markChange {
                case .inserted(let c)?: out.append("paragraph-insertion \(c.author ?? "")")
                case .deleted(let c)?: out.append("paragraph-deletion \(c.author ?? "")")
                case nil: break
                }
            } else {
                b.childBlocks.forEach(block)
            }
        }
        d.blocks.forEach(block)
        return out
    }

    /// The authors of comments anchored by a range, and of their replies, sorted.
    static func expectedRangedComments(_ d: Document) -> [String] {
        var ranged: Set<String> = []
        for b in d.blocks { b.forEachInline { if case .commentStart(let id) = $0 { ranged.insert(id) } } }
        return d.comments.filter { ranged.contains($0.parentID ?? $0.id) }.map { $0.author ?? "" }.sorted()
    }

    /// "kind author" for each insertion, deletion and paragraph mark change in pandoc's native output.
    static func pandocMarks(_ native: String) -> [String] {
        spans(native, classes: ["insertion", "deletion", "paragraph-insertion", "paragraph-deletion"])
    }

    /// The authors of pandoc's comment-start spans, sorted.
    static func pandocComments(_ native: String) -> [String] {
        spans(native, classes: ["comment-start"]).map { String($0.dropFirst("comment-start ".count)) }.sorted()
    }

    /// "class author" for each span of `classes` in pandoc's native output, in order. pandoc prints a span's
    /// attributes on one line or over several: match across white space.
    private static func spans(_ native: String, classes: Set<String>) -> [String] {
        let squeezed = native.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        var out: [String] = []
        var rest = squeezed[...]
        while let r = rest.range(of: "( \"\" , [ \"") {
            let after = rest[r.upperBound...]
            let cls = String(after.prefix { $0 != "\"" })
            rest = after
            guard classes.contains(cls), after.dropFirst(cls.count).hasPrefix("\" ] ,") else { continue }
            var author = ""
            if let end = after.range(of: "] )"), let a = after[..<end.lowerBound].range(of: "( \"author\" , \"") {
                author = String(after[a.upperBound...].prefix { $0 != "\"" })
            }
            out.append("\(cls) \(author)")
        }
        return out
    }
}

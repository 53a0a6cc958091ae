import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import XCTest

/// CriticMarkup → DOCX → CriticMarkup gives the same CriticMarkup, authors and dates included; and the
/// DOCX that Markdown sources make is one that LibreOffice, pandoc and python-docx read.
///
/// Documented normalisations (not exercised here): dates become xsd:dateTime (`2024-01-15 14:30` comes back
/// as `2024-01-15T14:30:00Z`), note labels become the reader's (`[^1]` → `[^fn1]`). Block quotes, code
/// blocks, thematic breaks and table column alignment are written (Quote / Source Code / Horizontal Rule
/// styles, cell alignment) but the DOCX reader gives them back as styled paragraphs.
final class DOCXWriterCriticMarkupTests: XCTestCase {
    /// CriticMarkup sources: every mark, with and without attribution, comments with ranges and replies.
    static let sources: [(String, String)] = [
        ("marks", """
        # A heading with {++an insertion++}

        Plain text with {--a deletion--} and {~~old~>new~~} words, then {==a highlight==}{>>a comment<<}.

        **Bold** and *italic* and `code` and [a link](https://example.com/) survive.

        """),
        ("attributed", """
        Text {++inserted by Ann++}{>>@Ann Editor (2024-01-15T14:30:00Z)<<} and {--deleted by Bob--}{>>@Bob (2024-02-01T09:00:00Z)<<}.

        A {==commented span==}{>>@Ann Editor (2024-01-15T14:31:00Z) | Which span?<<} ends here.

        """),
        ("paragraph marks", """
        Split here{++

        ++}and here. Merged {--

        --}text.

        """),
        ("threads", """
        A {==thread==}{>>@Ann (2024-01-15T14:30:00Z) | Question?<<}{>>@Bob (2024-01-16T10:00:00Z) | Answer.<<} here.

        A point comment{>>@Ann (2024-01-15T14:30:00Z) | Point.<<} here, {~~old~>new~~}{>>@Ann (2024-01-15T14:30:00Z)<<} swap.

        Start {==across

        paragraphs==}{>>@Ann | Long.<<} end.

        """),
        ("lists", """
        - one {++more++}
        - two

        1. first
        2. second {--item--}

        """),
    ]

    func testCriticMarkupSurvivesARoundTripThroughDOCX() throws {
        guard let md = FormatRegistry.named("md"), md.reader != nil, md.writer != nil else {
            throw XCTSkip("needs the Markdown reader and writer")
        }
        let docx = FormatRegistry.named("docx")!
        for (name, source) in Self.sources {
            let model = try Converter.read(.bytes(Array(source.utf8)), format: md)
            let canonical = try Self.markdown(model, md)
            let bytes = try DOCXTest.write(model)
            let back = Self.unknownAuthorsAsNone(try Converter.read(.bytes(bytes), format: docx))
            XCTAssertEqual(try Self.markdown(back, md), canonical, name)
        }
    }

    func testAcceptAndRejectWriteTheCleanAndOriginalDocuments() throws {
        guard let md = FormatRegistry.named("md"), md.reader != nil else { throw XCTSkip("needs the Markdown reader") }
        let docx = FormatRegistry.named("docx")!
        let source = "Keep {++new++}{--old--} and {~~this~>that~~}.{++\n\n++}Split.\n"
        for (mode, expected) in [(ChangeMode.accept, ["Keep new and that.", "Split."]), (.reject, ["Keep old and this.Split."])] {
            let out = MemoryOutput()
            try Converter.convert(.bytes(Array(source.utf8)), to: out,
                                  options: ConversionOptions(from: md, to: docx, changes: mode), diagnostics: Diagnostics())
            let xml = try DOCXTest.part("word/document.xml", of: out.bytes)
            for tag in ["<w:ins ", "<w:del ", "<w:delText"] { XCTAssertFalse(xml.contains(tag), "\(mode): \(tag)") }
            let back = try Converter.read(.bytes(out.bytes), format: docx)
            XCTAssertEqual(back.blocks.map(\.plainText), expected, "\(mode)")
        }
    }

    func testConsumersReadDOCXMadeFromCriticMarkup() throws {
        guard let md = FormatRegistry.named("md"), md.reader != nil else { throw XCTSkip("needs the Markdown reader") }
        var written: [(URL, Document)] = []
        for (name, source) in Self.sources {
            let model = try Converter.read(.bytes(Array(source.utf8)), format: md)
            let url = try DOCXTest.file(try DOCXTest.write(model), named: "\(name.replacingOccurrences(of: " ", with: "-")).docx")
            let native = try DOCXTest.pandocNative(url)
            XCTAssertEqual(DOCXWriterConsumerTests.pandocMarks(native), DOCXWriterConsumerTests.expectedMarks(model), name)
            XCTAssertEqual(DOCXWriterConsumerTests.pandocComments(native), DOCXWriterConsumerTests.expectedRangedComments(model), name)
            written.append((url, model))
        }
        try DOCXRoundTrip.checkConsumers(written)
    }

    /// Documented normalisation: Word requires `w:author`, so a change or comment with no author is written
    /// with an empty one, which the DOCX reader gives back as "" (read as no author here).
    static func unknownAuthorsAsNone(_ d: Document) -> Document {
        func fix(_ c: Change) -> Change { var c = c; if c.author == "" { c.author = nil }; return c }
        func inlines(_ list: [Inline]) -> [Inline] {
            list.map { i in
                switch i {
                case .insertion(let c, let k): return .insertion(fix(c), inlines(k))
                case .deletion(let c, let k): return .deletion(fix(c), inlines(k))
                case .substitution(let c, let a, let b): return .substitution(fix(c), deleted: inlines(a), inserted: inlines(b))
                case .move(var m, let k): m.change = fix(m.change); return .move(m, inlines(k))
                case .formatChange(var f, let k): f.change = fix(f.change); return .formatChange(f, inlines(k))
                default: return i.mapChildren(inlines)
                }
            }
        }
        func blocks(_ list: [Block]) -> [Block] {
            list.map { b in
                func para(_ p: Paragraph) -> Paragraph {
                    var p = p
                    p.content = inlines(p.content)
                    switch p.markChange {
                    case .inserted(let c)?: p.markChange = .inserted(fix(c))
                    case .deleted(let c)?: p.markChange = .deleted(fix(c))
                    case nil: break
                    }
                    return p
                }
                switch b {
                case .paragraph(let p): return .paragraph(para(p))
                case .heading(let l, let p): return .heading(level: l, para(p))
                default: return b.mapBlockArrays(blocks)
                }
            }
        }
        var out = d
        out.blocks = blocks(d.blocks)
        out.comments = d.comments.map { c in
            var c = c
            if c.author == "" { c.author = nil }
            c.body = blocks(c.body)
            return c
        }
        out.notes = d.notes.map { n in var n = n; n.blocks = blocks(n.blocks); return n }
        return out
    }

    static func markdown(_ d: Document, _ md: Format) throws -> String {
        let out = MemoryOutput()
        try Converter.write(d, format: md, to: out)
        return out.string
    }
}

import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import XCTest

/// CriticMarkup → DOCX → CriticMarkup gives the same CriticMarkup, authors and dates included; and the
/// DOCX that Markdown sources make is one that LibreOffice, pandoc and python-docx read.
///
/// Documented normalisations (not exercised here): dates become xsd:dateTime (`2024-01-15 14:30` comes back
/// as `2024-01-15T14:30:00Z`), note labels become numbers in order (`[^a]` → `[^1]`). Block quotes, code
/// blocks, thematic breaks, table column alignment and list-item continuation paragraphs come back as
/// such (`DOCXBlockStyleTests`).
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
            throw FormatMissing("needs the Markdown reader and writer")
        }
        let docx = FormatRegistry.named("docx")!
        for (name, source) in Self.sources {
            let model = try Converter.read(.bytes(Array(source.utf8)), format: md)
            let canonical = try Self.markdown(model, md)
            let bytes = try DOCXTest.write(model)
            let back = try Converter.read(.bytes(bytes), format: docx)
            XCTAssertEqual(try Self.markdown(back, md), canonical, name)
        }
    }

    func testAcceptAndRejectWriteTheCleanAndOriginalDocuments() throws {
        guard let md = FormatRegistry.named("md"), md.reader != nil else { throw FormatMissing("needs the Markdown reader") }
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
        guard let md = FormatRegistry.named("md"), md.reader != nil else { throw FormatMissing("needs the Markdown reader") }
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

    static func markdown(_ d: Document, _ md: Format) throws -> String {
        let out = MemoryOutput()
        try Converter.write(d, format: md, to: out)
        return out.string
    }
}

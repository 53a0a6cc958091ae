import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import XCTest

/// CriticMarkup → DOCX → CriticMarkup gives the same CriticMarkup, authors and dates included; and the
/// DOCX that Markdown sources make is one that LibreOffice, pandoc and python-docx read.
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
            let back = try Converter.read(.bytes(bytes), format: docx)
            XCTAssertEqual(try Self.markdown(back, md), canonical, name)
        }
    }

    func testConsumersReadDOCXMadeFromCriticMarkup() throws {
        guard let md = FormatRegistry.named("md"), md.reader != nil else { throw XCTSkip("needs the Markdown reader") }
        for (name, source) in Self.sources {
            let model = try Converter.read(.bytes(Array(source.utf8)), format: md)
            let url = try DOCXTest.file(try DOCXTest.write(model), named: "\(name).docx")
            let native = try DOCXTest.pandocNative(url)
            XCTAssertEqual(DOCXWriterConsumerTests.pandocMarks(native), DOCXWriterConsumerTests.expectedMarks(model), name)
            XCTAssertEqual(DOCXWriterConsumerTests.pandocComments(native), DOCXWriterConsumerTests.expectedRangedComments(model), name)
            let text = try DOCXTest.libreOfficeText(url)
            let ours = DOCXTest.words(model.blocks.map(\.plainText).joined(separator: "\n"))
            let theirs = Set(DOCXTest.words(text))
            XCTAssertEqual(ours.filter { !theirs.contains($0) }, [], name)
            _ = try DOCXTest.pythonDocxParagraphs(url)
        }
    }

    static func markdown(_ d: Document, _ md: Format) throws -> String {
        let out = MemoryOutput()
        try Converter.write(d, format: md, to: out)
        return out.string
    }
}

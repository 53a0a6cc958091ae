import Foundation
import XCTest
@testable import RedlineMarkdown
import RedlineCore
import RedlineDOCX
import RedlineRTF
import RedlineTestSupport

/// Fenced divs with classes (`::: {.callout-note}`, `::: warning`): kept md → md and through DOCX (a paragraph
/// style named by the classes), written as one div around the blocks they hold, and a closing fence on a
/// paragraph's last line closes the div it belongs to.
final class DivClassTests: XCTestCase {
    private static let source = """
        ::: {.callout-note}
        ## Note

        A note.

        - item one
        - item two

        Second paragraph.
        :::

        After.

        ::: warning
        Careful.
        :::

        """

    /// pandoc's own form: the fence lines touch the first and last blocks where those are paragraphs or headings.
    private static let written = """
        ::: {.callout-note}
        ## Note

        A note.

        - item one
        - item two

        Second paragraph.
        :::

        After.

        ::: {.warning}
        Careful.
        :::

        """

    func testClassesBecomeTheStyleOfEveryBlockInTheDiv() throws {
        let doc = try MarkdownReader.document(Self.source)
        XCTAssertEqual(doc.blocks.count, 6)
        var names: [String?] = []
        for b in doc.blocks { b.forEachParagraph { names.append($0.style.name) } }
        XCTAssertEqual(names, [".callout-note", ".callout-note", ".callout-note", ".callout-note", ".callout-note", nil, ".warning"])
        // The closing fence on the last paragraph's last line is no text.
        XCTAssertEqual(doc.blocks[3].paragraph?.content, [.text("Second paragraph.")])
    }

    func testDivsAreWrittenBackAndAreAFixpoint() throws {
        let d = Diagnostics()
        let out = try MarkdownWriter.string(MarkdownReader.document(Self.source), diagnostics: d)
        XCTAssertEqual(out, Self.written)
        XCTAssertEqual(try MarkdownWriter.string(MarkdownReader.document(out)), out)
        XCTAssertFalse(d.all.contains { $0.code == .markdownUnknownAttribute || $0.code == .lossyParagraphStyle }, "\(d.all)")
    }

    func testDivsTravelThroughDOCX() throws {
        let doc = try MarkdownReader.document(Self.source)
        let out = MemoryOutput()
        var chunks = ChunkArraySource(doc)
        var sink = try DOCXWriter().sink(to: out, options: WriteOptions(), diagnostics: Diagnostics())
        try Pipeline.run(source: &chunks, stages: [], sink: &sink)
        var source = try DOCXReader().open(.bytes(out.bytes), options: ReadOptions(), diagnostics: Diagnostics())
        let back = try Document(reading: &source)
        XCTAssertEqual(try MarkdownWriter.string(back), Self.written)
        // The heading in the div is still a heading; the paragraphs in the same style are not.
        XCTAssertEqual(back.blocks.filter { if case .heading = $0 { return true } else { return false } }.count, 1)
    }

    /// pandoc reads the written Markdown with the same divs, classes and blocks as the source.
    func testPandocReadsTheSameDivs() throws {
        func json(_ markdown: String) throws -> String { try TestProcess.pandocJSON(markdown) }
        let expected = try json(Self.source)
        XCTAssertTrue(expected.contains("callout-note") && expected.contains("\"warning\""), expected)
        XCTAssertEqual(try json(Self.written), expected)
    }

    func testOrdinaryStyleNamesAreNotClasses() {
        XCTAssertEqual(DivClasses.classes(of: ".callout-note"), ["callout-note"])
        XCTAssertEqual(DivClasses.classes(of: ".column-margin .aside"), ["column-margin", "aside"])
        XCTAssertNil(DivClasses.classes(of: "callout-note"))
        XCTAssertNil(DivClasses.classes(of: "annotation text"))
        XCTAssertNil(DivClasses.classes(of: ".a b"))
        XCTAssertNil(DivClasses.classes(of: "Quote"))
        XCTAssertNil(DivClasses.classes(of: "Heading 1"))
        XCTAssertNil(DivClasses.classes(of: ".1abc"))
        XCTAssertNil(DivClasses.classes(of: ""))
    }

    /// Quarto's divs: an id, key-value attributes (quoted or bare, as written), with or without classes.
    private static let quarto = #"""
        ::: {#fig-plots layout-ncol=2}
        First.

        Second.
        :::

        ::: {.callout-tip #tip-1 title="A \"quoted\" title; with {braces}" collapse=true}
        ## Tip

        Text.
        :::

        Between.

        ::: {layout="[[1,1],[1]]"}
        Grid.
        :::

        """#

    /// A div's id and attributes are kept as written md → md, and through DOCX and RTF (the style name).
    func testIdsAndAttributesAreKeptAsWritten() throws {
        let d = Diagnostics()
        let doc = try MarkdownReader.document(Self.quarto, diagnostics: d)
        var names: [String?] = []
        for b in doc.blocks { b.forEachParagraph { names.append($0.style.name) } }
        XCTAssertEqual(names, ["#fig-plots layout-ncol=2", "#fig-plots layout-ncol=2",
                               #".callout-tip #tip-1 title="A \"quoted\" title; with {braces}" collapse=true"#,
                               #".callout-tip #tip-1 title="A \"quoted\" title; with {braces}" collapse=true"#,
                               nil, #"layout="[[1,1],[1]]""#])
        XCTAssertEqual(try MarkdownWriter.string(doc), Self.quarto)
        XCTAssertFalse(d.all.contains { $0.code == .markdownUnknownAttribute }, "\(d.all)")
        for writer in [DOCXWriter() as any FormatWriter, RTFWriter()] {
            let out = MemoryOutput()
            var chunks = ChunkArraySource(doc)
            var sink = try writer.sink(to: out, options: WriteOptions(), diagnostics: Diagnostics())
            try Pipeline.run(source: &chunks, stages: [], sink: &sink)
            let reader: any FormatReader = writer is DOCXWriter ? DOCXReader() : RTFReader()
            var source = try reader.open(.bytes(out.bytes), options: ReadOptions(), diagnostics: Diagnostics())
            XCTAssertEqual(try MarkdownWriter.string(Document(reading: &source)), Self.quarto, "\(type(of: writer))")
        }
    }

    /// pandoc reads the same ids, classes and attributes from the written Markdown as from the source.
    func testPandocReadsTheSameAttributes() throws {
        let json = try TestProcess.pandocJSON(Self.quarto)
        XCTAssertTrue(json.contains("fig-plots") && json.contains("layout-ncol") && json.contains("collapse"), json)
        XCTAssertEqual(try TestProcess.pandocJSON(MarkdownWriter.string(MarkdownReader.document(Self.quarto))), json)
    }

    func testWhichStyleNamesAreDivs() {
        for name in ["#x", "k=v", #".a #b k="v w""#, "layout-ncol=2 gap=1em", ".callout-note"] {
            XCTAssertNotNil(DivClasses.attributes(of: name), name)
        }
        for name in ["Heading 1", "Normal", "Quote", "a b", "", " #x", "#", "a=b c", "=v", "k=\"open", "Title: x=1"] {
            XCTAssertNil(DivClasses.attributes(of: name), name)
        }
    }

    /// A heading of two lines is written setext: a fence line right above it would be one of its lines (found by
    /// fuzz-roundtrip: the div's class read back as heading text), so the fence is set apart.
    func testAFenceIsSetApartFromASetextHeading() throws {
        for source in ["::: foo\n\nTitle one\ntwo\n---\n\nText.\n:::\n", "::: foo\n\nTitle one\ntwo\n===\n:::\n"] {
            let doc = try MarkdownReader.document(source, diagnostics: Diagnostics())
            for keep in [false, true] {
                var o = WriteOptions()
                o.preserveFormatting = keep
                let out = try MarkdownWriter.string(doc, options: o, diagnostics: Diagnostics())
                let back = try MarkdownReader.document(out, diagnostics: Diagnostics())
                XCTAssertEqual(back.blocks, doc.blocks, out)
                XCTAssertTrue(out.contains("}\n\nTitle one\ntwo\n"), out)
            }
        }
    }
}

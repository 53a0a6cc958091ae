import XCTest
import Redline
@testable import RedlineCompare
import RedlineTestSupport

/// A document compared with its own conversion to another format is unchanged: Word's heading and body
/// formatting is not a change against Markdown, which carries none, nor a zero indent Word states and RTF
/// leaves out.
final class CompareAcrossFormatsTests: XCTestCase {
    /// Every Markdown file of `Corpus/markdown` whose DOCX keeps all of it (features.md links a picture that is
    /// not there and nests a quote, which DOCX flattens), accepted, against its DOCX, both ways round.
    func testAMarkdownFileAndItsDOCXCompareEqual() throws {
        var carrying = 0
        for name in ["chapter", "dialects", "edge-cases", "nested-changes", "paragraph-breaks", "review-for-word"] {
            let path = RepositoryPaths.root + "/Corpus/markdown/\(name).md"
            let marked = try Converter.read(.file(path), format: FormatRegistry.markdown)
            // The clean version as a Markdown file holds it (`convert --changes accept`).
            let cleanBytes = MemoryOutput()
            try Converter.write(DocumentComparer.accepted(marked), format: FormatRegistry.markdown, to: cleanBytes)
            let md = try Converter.read(.bytes(cleanBytes.bytes), format: FormatRegistry.markdown)
            let bytes = MemoryOutput()
            try Converter.write(md, format: FormatRegistry.docx, to: bytes)
            let docx = try Converter.read(.bytes(bytes.bytes), format: FormatRegistry.docx)
            if DocumentComparer.carriesParagraphFormatting(docx) { carrying += 1 }
            let rtfBytes = MemoryOutput()
            try Converter.write(docx, format: FormatRegistry.rtf, to: rtfBytes)
            let rtf = try Converter.read(.bytes(rtfBytes.bytes), format: FormatRegistry.rtf)
            // RTF states no zero indents and no note style names, where the DOCX reader gives Word's.
            let (_, docxRTF) = DocumentComparer.compare(old: docx, new: rtf,
                                                        options: DocumentComparer.acrossFormats(CompareOptions(), old: docx, new: rtf))
            XCTAssertTrue(docxRTF.isEmpty, "\(name), docx -> its rtf: \(docxRTF.text)")
            for (old, new, way) in [(md, docx, "md -> docx"), (docx, md, "docx -> md")] {
                let (_, stats) = DocumentComparer.compare(old: old, new: new,
                                                          options: DocumentComparer.acrossFormats(CompareOptions(), old: old, new: new))
                XCTAssertTrue(stats.isEmpty, "\(name), \(way): \(stats.text)")
            }
        }
        XCTAssertGreaterThanOrEqual(carrying, 4, "Word's headings carry their style's formatting")
    }

    /// The rule needs one side without any paragraph formatting: two sides that both carry it are compared, and
    /// within one format every difference is a change.
    func testParagraphFormattingIsComparedWhenBothSidesCarryIt() {
        func doc(_ alignment: ParagraphAlignment?) -> Document {
            var style = ParagraphStyle()
            style.alignment = alignment
            return Document(blocks: [.paragraph(Paragraph([.text("One.")], style: style)),
                                     .paragraph(Paragraph([.text("Two.")], style: ParagraphStyle(name: "Body Text")))])
        }
        func changes(_ old: Document, _ new: Document) -> Int {
            DocumentComparer.compare(old: old, new: new,
                                     options: DocumentComparer.acrossFormats(CompareOptions(), old: old, new: new)).1.paragraphStyleChanges
        }
        XCTAssertEqual(changes(doc(.center), doc(.right)), 1)
        XCTAssertEqual(changes(doc(nil), doc(.right)), 1, "OLD's second paragraph has a style of its own")
        let plain = Document(blocks: [.paragraph(Paragraph([.text("One.")])), .paragraph(Paragraph([.text("Two.")]))])
        XCTAssertEqual(changes(plain, doc(.right)), 0)
        XCTAssertEqual(changes(doc(.right), plain), 0)
        XCTAssertEqual(DocumentComparer.compare(old: plain, new: doc(.right)).1.paragraphStyleChanges, 1, "one format")
    }
}

import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// pandoc's table captions (`: Caption` or `Table: Caption`, right after or before a table) are "Table Caption"
/// paragraphs: md → md byte for byte, through DOCX (Word's caption-style paragraph, not literal `: ` text) and
/// RTF and back; text that only looks like one (escaped) stays text, and `: text` not beside a table is a
/// definition of the paragraph before it, as pandoc reads it (`DefinitionListTests`).
final class TableCaptionTests: XCTestCase {
    static let source = """
        | A | B |
        | --- | --- |
        | 1 | 2 |

        : Sales by region {#tbl-sales}

        Between.

        Table: The second table

        | C |
        | --- |
        | 3 |

        Text.

        :   not beside a table

        """

    private func markdown(_ doc: Document) throws -> String {
        let out = MemoryOutput()
        _ = try Converter.write(doc, format: FormatRegistry.markdown, to: out, diagnostics: Diagnostics())
        return out.string
    }

    func testCaptionsAreReadAndWrittenBack() throws {
        let doc = try Converter.read(.bytes(Array(Self.source.utf8)), format: FormatRegistry.markdown)
        let captions = doc.blocks.compactMap(\.paragraph).filter { $0.style.name == "Table Caption" }
        XCTAssertEqual(captions.map { ApplyPlan.text(of: $0.content, view: .accept) }, ["Sales by region {#tbl-sales}", "Table: The second table"])
        XCTAssertEqual(try markdown(doc), Self.source)
        XCTAssertEqual(try TestProcess.pandocJSON(try markdown(doc)), try TestProcess.pandocJSON(Self.source))
        for format in [FormatRegistry.docx, FormatRegistry.rtf] {
            let out = MemoryOutput()
            _ = try Converter.write(doc, format: format, to: out, diagnostics: Diagnostics())
            if format.isSame(as: FormatRegistry.docx) {
                let path = NSTemporaryDirectory() + "redline-captions-\(UUID().uuidString).docx"
                defer { try? FileManager.default.removeItem(atPath: path) }
                try Data(out.bytes).write(to: URL(fileURLWithPath: path))
                try OOXMLValidate.assertValid(path)
                let xml = String(decoding: try zipEntries(path)["word/document.xml"] ?? [], as: UTF8.self)
                XCTAssertEqual(xml.components(separatedBy: "<w:pStyle w:val=\"TableCaption\"/>").count - 1, 2, xml)
                XCTAssertFalse(xml.contains(">: Sales"), "no literal `: ` in Word")
            }
            let back = try Converter.read(.bytes(out.bytes), format: format)
            XCTAssertEqual(try markdown(back), Self.source, format.name)
        }
    }

    func testLookalikesStayText() throws {
        let source = "| A |\n| --- |\n| 1 |\n\n\\: escaped, not a caption\n"
        let doc = try Converter.read(.bytes(Array(source.utf8)), format: FormatRegistry.markdown)
        XCTAssertNil(doc.blocks.last?.paragraph?.style.name)
        XCTAssertEqual(try markdown(doc), source)
        // A caption whose table went (a plain paragraph now) is written as its text, escaped where needed.
        var p = Paragraph([.text("Lonely caption")])
        p.style.name = "Table Caption"
        let lonely = try markdown(Document(blocks: [.paragraph(p)]))
        XCTAssertEqual(lonely, "Lonely caption\n")
    }
}

import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import RedlineZip
import XCTest

/// Block types written as paragraph styles (quotes, code, rules), table column alignment, list-item
/// continuation paragraphs and note labels (numbered 1, 2, ... by the reader) come back: Markdown → DOCX →
/// Markdown is identical, and a DOCX
/// from Word or pandoc with these styles reads as the blocks they stand for.
final class DOCXBlockStyleTests: XCTestCase {
    static let source = """
    # Blocks

    > A quoted paragraph.
    >
    > Another one, with *emphasis*.
    >
    > 1. a list
    > 2. in the quote

    Between, with a note[^1] and another[^2].

    ```
    let x = 1

      indented line
    ```

    ---

    1. one

    2. two

       continued

       - nested
       - bullets

       continued after the nested list

    3. three

    | left | centre | right | none |
    | :-- | :-: | --: | --- |
    | 1 | 2 | 3 | 4 |
    | a | b | c | d |

    [^1]: The first note.

    [^2]: The second, with *emphasis*.

    """

    func testMarkdownBlocksSurviveARoundTripThroughDOCX() throws {
        guard let md = FormatRegistry.named("md"), md.reader != nil, md.writer != nil else {
            throw FormatMissing("needs the Markdown reader and writer")
        }
        let model = try Converter.read(.bytes(Array(Self.source.utf8)), format: md)
        let back = try Converter.read(.bytes(try DOCXTest.write(model)), format: FormatRegistry.named("docx")!)
        XCTAssertEqual(try DOCXWriterCriticMarkupTests.markdown(back, md), try DOCXWriterCriticMarkupTests.markdown(model, md))
        XCTAssertEqual(back.blocks.map(Self.kind), ["heading", "quote", "paragraph", "code", "rule", "list", "table"])
        // DOCX → model → DOCX → model keeps them too.
        let again = try Converter.read(.bytes(try DOCXTest.write(back)), format: FormatRegistry.named("docx")!)
        XCTAssertEqual(again.blocks, back.blocks)
    }

    func testWordAndPandocBlockStylesReadAsBlocks() throws {
        let styles = """
        <w:style w:type="paragraph" w:default="1" w:styleId="Standard"><w:name w:val="Normal"/></w:style>
        <w:style w:type="paragraph" w:styleId="Zitat"><w:name w:val="Quote"/><w:basedOn w:val="Standard"/></w:style>
        <w:style w:type="paragraph" w:styleId="IntensivesZitat"><w:name w:val="Intense Quote"/></w:style>
        <w:style w:type="paragraph" w:styleId="BlockText"><w:name w:val="Blocktext"/></w:style>
        <w:style w:type="paragraph" w:styleId="MyQuote"><w:name w:val="My quote"/><w:basedOn w:val="Zitat"/></w:style>
        <w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style>
        <w:style w:type="paragraph" w:styleId="HorizontalRule"><w:name w:val="Horizontal Rule"/></w:style>
        """
        func p(_ style: String, _ runs: String) -> String {
            "<w:p><w:pPr><w:pStyle w:val=\"\(style)\"/></w:pPr>\(runs)</w:p>"
        }
        let body = p("Zitat", "<w:r><w:t>q1</w:t></w:r>") + p("IntensivesZitat", "<w:r><w:t>q2</w:t></w:r>")
            + p("BlockText", "<w:r><w:t>q3</w:t></w:r>") + p("MyQuote", "<w:r><w:t>q4</w:t></w:r>")
            + p("Standard", "<w:r><w:t>plain</w:t></w:r>")
            + p("SourceCode", "<w:r><w:t xml:space=\"preserve\">a  b</w:t><w:br/><w:t>c</w:t></w:r>")
            + p("SourceCode", "<w:ins w:id=\"1\" w:author=\"A\"><w:r><w:t>tracked</w:t></w:r></w:ins>")
            + p("HorizontalRule", "") + p("HorizontalRule", "<w:r><w:t>not empty</w:t></w:r>")
        let doc = try Self.read(body: body, styles: styles)
        XCTAssertEqual(doc.blocks.map(Self.kind), ["quote", "paragraph", "code", "paragraph", "rule", "paragraph"])
        guard case .blockQuote(let quoted)? = doc.blocks.first else { return XCTFail("no quote") }
        XCTAssertEqual(quoted.map(\.plainText), ["q1", "q2", "q3", "q4"])
        // Word's own quote style says nothing the block quote does not; the others keep their names.
        XCTAssertEqual(quoted.map { $0.paragraph?.style.name }, [nil, "Intense Quote", "Blocktext", "My quote"])
        XCTAssertEqual(doc.blocks[2], .codeBlock(CodeBlock(text: "a  b\nc\n")))
        // A code paragraph with a tracked change stays a paragraph (a code block cannot carry the change).
        XCTAssertEqual(doc.blocks[3].paragraph?.style.name, "Source Code")
        XCTAssertEqual(doc.blocks[5].plainText, "not empty")
    }

    static func kind(_ b: Block) -> String {
        switch b {
        case .paragraph: return "paragraph"
        case .heading: return "heading"
        case .blockQuote: return "quote"
        case .list: return "list"
        case .codeBlock: return "code"
        case .table: return "table"
        case .thematicBreak: return "rule"
        case .raw: return "raw"
        }
    }

    /// A minimal package with `body` as the body of `document.xml` and `styles` inside `w:styles`.
    static func read(body: String, styles: String, diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        let w = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\""
        let zip = try ZipWriter()
        try zip.add("[Content_Types].xml", text: """
            <?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
            <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
            <Default Extension="xml" ContentType="application/xml"/>\
            <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>\
            <Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>
            """)
        try zip.add("_rels/.rels", text: """
            <?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>
            """)
        try zip.add("word/_rels/document.xml.rels", text: """
            <?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>
            """)
        try zip.add("word/styles.xml", text: "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:styles \(w)>\(styles)</w:styles>")
        try zip.add("word/document.xml", text: "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document \(w)><w:body>\(body)</w:body></w:document>")
        var bytes: [UInt8] = []
        try zip.finish { bytes += $0 }
        return try Converter.read(.bytes(bytes), format: FormatRegistry.named("docx")!, diagnostics: diagnostics)
    }
}

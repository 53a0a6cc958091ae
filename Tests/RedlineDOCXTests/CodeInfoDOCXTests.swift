import Foundation
import XCTest
@testable import RedlineDOCX
import RedlineCore
import RedlineTestSupport

/// A code block's info string (```` ```python ````, ```` ```{r, echo=FALSE} ````) travels through DOCX in custom
/// properties `RedlineCode1…` keyed by the code's text: back while the code is as written, gone (the code kept)
/// once a co-author changed it, and never shown as document metadata.
final class CodeInfoDOCXTests: XCTestCase {
    private func roundTrip(_ doc: Document) throws -> (Document, [UInt8]) {
        let bytes = try DOCXTest.write(doc)
        var source = try DOCXReader().open(.bytes(bytes), options: ReadOptions(), diagnostics: Diagnostics())
        return (try Document(reading: &source), bytes)
    }

    func testInfoStringsComeBack() throws {
        let blocks: [Block] = [
            .codeBlock(CodeBlock(text: "x <- 1\n", infoString: "{r, echo=FALSE}")),
            .codeBlock(CodeBlock(text: "print(1)\n", infoString: "python")),
            .codeBlock(CodeBlock(text: "plain\n")),
            .codeBlock(CodeBlock(text: "print(1)\n", infoString: "python title=x")),
        ]
        let (back, bytes) = try roundTrip(Document(blocks: blocks))
        XCTAssertEqual(back.blocks, blocks)
        XCTAssertEqual(back.metadata.fields.filter { $0.key.hasPrefix("Redline") }, [])
        XCTAssertTrue(try DOCXTest.part("docProps/custom.xml", of: bytes).contains("RedlineCode1"))
    }

    func testEditedCodeKeepsItsTextWithoutTheInfo() throws {
        let doc = Document(blocks: [.codeBlock(CodeBlock(text: "a = 1\n", infoString: "python"))])
        var bytes = try DOCXTest.write(doc)
        // A co-author's edit: the code's text in document.xml changes.
        let xml = try DOCXTest.part("word/document.xml", of: bytes).replacingOccurrences(of: "a = 1", with: "a = 2")
        var parts = try ZipEntries.read(bytes)
        for k in parts.indices where parts[k].name == "word/document.xml" { parts[k].bytes = Array(xml.utf8) }
        bytes = try ZipEntries.package(parts)
        var source = try DOCXReader().open(.bytes(bytes), options: ReadOptions(), diagnostics: Diagnostics())
        let back = try Document(reading: &source)
        XCTAssertEqual(back.blocks, [.codeBlock(CodeBlock(text: "a = 2\n"))])
    }
}

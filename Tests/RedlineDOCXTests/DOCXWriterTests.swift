import Foundation
import RedlineCore
@testable import RedlineDOCX
import XCTest

/// The DOCX writer: package structure, review markup as Word writes it, determinism, diagnostics.
final class DOCXWriterTests: XCTestCase {
    func testPackageHasEveryPartItNeeds() throws {
        let docx = try DOCXTest.file(DOCXTest.write(DOCXWriterSamples.marked))
        let list = try DOCXTest.run(["unzip", "-Z1", docx.path]).out.split(separator: "\n").map(String.init)
        XCTAssertEqual(list, [
            "[Content_Types].xml", "_rels/.rels", "docProps/core.xml", "docProps/custom.xml", "word/document.xml",
            "word/_rels/document.xml.rels", "word/styles.xml", "word/settings.xml", "word/numbering.xml",
            "word/footnotes.xml", "word/_rels/footnotes.xml.rels", "word/endnotes.xml", "word/_rels/endnotes.xml.rels",
            "word/comments.xml", "word/_rels/comments.xml.rels", "word/commentsExtended.xml", "word/commentsIds.xml",
        ])
    }

    func testSameInputGivesTheSameBytes() throws {
        let a = try DOCXTest.write(DOCXWriterSamples.marked)
        let b = try DOCXTest.write(DOCXWriterSamples.marked)
        XCTAssertEqual(a, b)
        XCTAssertEqual(Array(a.prefix(4)), [0x50, 0x4B, 0x03, 0x04])
    }
}

import XCTest
@testable import RedlineDOCX
import RedlineCore

/// The DOCX writer hands the body's XML to the part's spool whenever an element closes with a megabyte
/// gathered (`XMLText.spill`), so a huge paragraph is not held whole as XML (PERFORMANCE.md, "Small runs").
final class BodySpillTests: XCTestCase {
    func testSpilledBufferStaysSmallAndLosesNothing() {
        var spilled: [UInt8] = []
        var x = XMLText()
        x.spill = { spilled += $0; $0.removeAll(keepingCapacity: true) }
        var whole = XMLText()
        var largest = 0
        for k in 0..<200_000 {
            x.open("w:r"); x.text("word \(k) "); x.close("w:r")
            whole.open("w:r"); whole.text("word \(k) "); whole.close("w:r")
            largest = max(largest, x.bytes.count)
        }
        XCTAssertLessThan(largest, XMLText.spillSize + 64)
        XCTAssertGreaterThan(spilled.count, 2 * XMLText.spillSize)
        XCTAssertEqual(spilled + x.bytes, whole.bytes)
    }

    /// A paragraph of 100,000 alternately bold and italic runs (about 8 MB of XML) written and read back.
    func testHugeParagraphIsWrittenWhole() throws {
        let runs = (0..<100_000).map { k in Run.text("w\(k) ", TextFormat(bold: k % 2 == 0, italic: k % 2 == 1)) }
        let doc = Document(blocks: [.paragraph(Paragraph(InlineBuilder.inlines(from: runs))), .paragraph(Paragraph([.text("After.")]))])
        let bytes = try DOCXTest.write(doc)
        var source = try DOCXReader().open(.bytes(bytes), options: ReadOptions(), diagnostics: Diagnostics())
        let back = try Document(reading: &source)
        XCTAssertEqual(back.blocks.count, 2)
        guard case .paragraph(let p)? = back.blocks.first else { return XCTFail("no paragraph") }
        XCTAssertEqual(p.content.runs.map { $0.format.bold }, runs.map { $0.format.bold })
        XCTAssertEqual(p.content.runs.compactMap { if case .text(let t) = $0.content { t } else { nil } }.joined(),
                       runs.compactMap { if case .text(let t) = $0.content { t } else { nil } }.joined())
    }
}

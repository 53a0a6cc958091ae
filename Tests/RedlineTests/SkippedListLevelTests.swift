import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// A list level skipped inside a list (Word's level 0, then level 2, as a join across levels leaves it), or a
/// list that starts at level 1, is read at its depth, as an item holding only the deeper list, and written back
/// without an empty paragraph of its own.
final class SkippedListLevelTests: XCTestCase {
    private func docx(_ markdown: String) throws -> [UInt8] {
        let out = MemoryOutput()
        let doc = try Converter.read(.bytes(Array(markdown.utf8)), format: FormatRegistry.markdown)
        _ = try Converter.write(doc, format: FormatRegistry.docx, to: out, diagnostics: Diagnostics())
        return out.bytes
    }

    /// Each paragraph's list depth and text, in order.
    private func depths(_ blocks: [Block], _ depth: Int = 0) -> [String] {
        blocks.flatMap { b -> [String] in
            switch b {
            case .paragraph(let p): return ["\(depth)|\(ApplyPlan.text(of: p.content, view: .accept))"]
            case .list(let l): return l.items.flatMap { depths($0, depth + 1) }
            default: return []
            }
        }
    }

    func testASkippedLevelKeepsItsDepthThroughDOCX() throws {
        let source = "1. a\n   - - x\n     - y\n2. b\n"
        let bytes = try docx(source)
        // Written as Word would have it: a at level 0, x and y at level 2, no empty level-1 paragraph.
        let path = NSTemporaryDirectory() + "redline-skipped-\(UUID().uuidString).docx"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let xml = try XCTUnwrap(zipEntries(path)["word/document.xml"].map { String(decoding: $0, as: UTF8.self) })
        XCTAssertEqual(xml.components(separatedBy: "<w:ilvl ").count - 1, 4, xml)
        XCTAssertFalse(xml.contains("<w:ilvl w:val=\"1\"/>"), xml)
        let back = try Converter.read(.bytes(bytes), format: FormatRegistry.docx)
        XCTAssertEqual(depths(back.blocks), ["1|a", "3|x", "3|y", "1|b"])
        let md = MemoryOutput()
        _ = try Converter.write(back, format: FormatRegistry.markdown, to: md, diagnostics: Diagnostics())
        XCTAssertEqual(md.string, source)
    }

    func testAListStartingDeeperKeepsItsDepth() throws {
        // A top-level list's only item holding only a list has no paragraph (Word's list starting at level 1,
        // read back at its depth); in a list of several items it keeps an empty numbered paragraph, or the
        // deeper list would read as the item before's (or the items after it as a list of their own).
        for (source, want) in [("Text.\n\n- - x\n  - y\n", ["0|Text.", "2|x", "2|y"]),
                               ("Text.\n\n- a\n-\n  - x\n", ["0|Text.", "1|a", "1|", "2|x"]),
                               ("Text.\n\n1)\n   1) x\n2) b\n", ["0|Text.", "1|", "2|x", "1|b"])] {
            let bytes = try docx(source)
            let back = try Converter.read(.bytes(bytes), format: FormatRegistry.docx)
            XCTAssertEqual(depths(back.blocks), want, source)
            let md = MemoryOutput()
            _ = try Converter.write(back, format: FormatRegistry.markdown, to: md, diagnostics: Diagnostics())
            XCTAssertEqual(md.string, source)
            // RTF reads levels the same way.
            let rtf = MemoryOutput()
            _ = try Converter.write(back, format: FormatRegistry.rtf, to: rtf, diagnostics: Diagnostics())
            let fromRTF = try Converter.read(.bytes(rtf.bytes), format: FormatRegistry.rtf)
            XCTAssertEqual(depths(fromRTF.blocks).filter { $0 != "1|" }, want.filter { $0 != "1|" }, "RTF: \(source)")
        }
    }
}

import Foundation
import XCTest
@testable import RedlineCore

/// A run is small (PERFORMANCE.md, "Small runs"): a paragraph of a million runs is held as runs while
/// `InlineBuilder` nests it, so each byte of `Run` is a megabyte there. Link, change and format change
/// (rare) and the character style (rare outside DOCX/RTF) live out of line, shared between copies; these
/// tests fail when a field moves back inline, and check that the out-of-line parts still compare, hash,
/// encode and mutate as stored fields did.
final class RunLayoutTests: XCTestCase {
    func testRunAndTextFormatStaySmall() {
        XCTAssertLessThanOrEqual(MemoryLayout<TextFormat>.size, 24, "TextFormat grew: keep rare fields out of line")
        XCTAssertLessThanOrEqual(MemoryLayout<Run>.stride, 56, "Run grew (it was 320 bytes): keep rare fields out of line")
    }

    func testOutOfLinePartsBehaveAsFields() throws {
        let style = CharacterStyle(fontFamily: "Palatino", fontSize: 13)
        var a = Run(.text("x"), format: TextFormat(bold: true, style: style), link: Link(url: "https://e.com"),
                    change: .insertion(Change(author: "Ann")),
                    formatChange: FormatChange(change: Change(author: "Bob"), old: TextFormat(italic: true)))
        let b = a
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        // Mutating a copy never touches the original (the boxes are shared until then).
        a.change = nil
        a.format.style.fontSize = 14
        XCTAssertEqual(b.change, .insertion(Change(author: "Ann")))
        XCTAssertEqual(b.format.style.fontSize, 13)
        XCTAssertEqual(a.format.style.fontFamily, "Palatino")
        XCTAssertEqual(a.link, Link(url: "https://e.com"))
        XCTAssertNotEqual(a, b)
        // Equal values in different boxes are equal.
        var c = Run(.text("x"), format: TextFormat(bold: true, style: CharacterStyle(fontFamily: "Palatino", fontSize: 14)))
        c.link = Link(url: "https://e.com")
        c.formatChange = a.formatChange
        XCTAssertEqual(a, c)
        XCTAssertEqual(a.hashValue, c.hashValue)
        // An empty style and no extras are the plain run.
        var d = Run.text("y")
        d.format.style = CharacterStyle()
        d.link = nil
        XCTAssertEqual(d, Run.text("y"))
        XCTAssertTrue(d.format.isPlain)
        // Codable as the stored fields were: absent optionals are absent keys.
        for run in [a, b, d] {
            let data = try JSONEncoder().encode(run)
            XCTAssertEqual(try JSONDecoder().decode(Run.self, from: data), run)
        }
        let plain = String(decoding: try JSONEncoder().encode(d), as: UTF8.self)
        XCTAssertFalse(plain.contains("link") || plain.contains("change"), plain)
        XCTAssertTrue(plain.contains("\"style\""), plain)
    }
}

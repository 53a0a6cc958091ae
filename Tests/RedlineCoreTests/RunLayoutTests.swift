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

    /// Text, code, the toggles and the anchors are held in place (no box per inline); the cases with large
    /// payloads stay boxed, so an inline is at most 24 bytes (it was a pointer to a box for every case).
    func testInlineHoldsSmallCasesInPlace() throws {
        XCTAssertLessThanOrEqual(MemoryLayout<Inline>.stride, 24, "Inline grew: box the cases with large payloads (`indirect case`)")
        XCTAssertGreaterThan(MemoryLayout<Inline>.size, 8, "Inline is a box pointer again: the small cases should be held in place")
        // Values, equality, hashing and coding are the enum's as before, boxed or not.
        let change = Change(author: "Ann", date: "2024-01-01T00:00:00Z")
        let inlines: [Inline] = [
            .text("a"), .strong([.emphasis([.text("b"), .code("c")])]), .lineBreak, .softBreak,
            .styled(CharacterStyle(fontFamily: "Palatino"), [.text("d")]), .link(Link(url: "https://e.com"), [.text("e")]),
            .image(Image(source: "p.png", alt: "p")), .raw(format: "html", text: "<br>"), .noteReference("1"),
            .insertion(change, [.text("f")]), .deletion(change, [.text("g")]), .text(" "),
            .substitution(change, deleted: [.text("h")], inserted: [.text("i")]),
            .move(Move(change: change, name: "m", side: .to), [.text("j")]),
            .formatChange(FormatChange(change: change, old: TextFormat(bold: true)), [.text("k")]),
            .commentStart("c1"), .commentEnd("c1"), .commentPoint("c2"),
        ]
        let copy = inlines
        XCTAssertEqual(copy, inlines)
        XCTAssertEqual(Set(inlines).count, inlines.count)
        XCTAssertEqual(try JSONDecoder().decode([Inline].self, from: JSONEncoder().encode(inlines)), inlines)
        XCTAssertEqual(InlineBuilder.inlines(from: inlines.runs).runs, inlines.runs)
    }

    /// `isPlain` reads the fields; it agrees with comparing to an empty format.
    func testIsPlainAgreesWithEquality() {
        var formats = [TextFormat(), TextFormat(code: true), TextFormat(style: CharacterStyle(fontSize: 12)),
                       TextFormat(style: CharacterStyle())]
        for k in 1...8 { var f = TextFormat(); f.toggle(k); formats.append(f) }
        for f in formats { XCTAssertEqual(f.isPlain, f == TextFormat(), "\(f)") }
        var f = TextFormat(style: CharacterStyle(allCaps: true))
        XCTAssertFalse(f.isPlain)
        f.style.allCaps = false
        XCTAssertTrue(f.isPlain)
        XCTAssertTrue(Run.text("x").hasNoExtras)
        XCTAssertFalse(Run(.text("x"), link: Link(url: "u")).hasNoExtras)
        XCTAssertFalse(Run(.text("x"), change: .deletion(Change())).hasNoExtras)
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

private extension TextFormat {
    mutating func toggle(_ k: Int) {
        switch k {
        case 1: bold = true
        case 2: italic = true
        case 3: underline = true
        case 4: strikethrough = true
        case 5: superscript = true
        case 6: self.subscript = true
        case 7: smallCaps = true
        default: highlight = true
        }
    }
}

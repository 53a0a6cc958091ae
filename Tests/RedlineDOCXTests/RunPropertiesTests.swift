import XCTest
@testable import RedlineDOCX
import RedlineCore

/// A run's properties are written straight into the body's buffer and `w:val` properties without an
/// attribute array (PERFORMANCE.md, "Small runs"): the bytes are what the general paths wrote.
final class RunPropertiesTests: XCTestCase {
    func testValWritesWhatEmptyWithAnAttributeWrites() {
        for value in ["single", "", "a\"b&c<d>", "tab\there", "line\nend", "ünïcode", "\u{1}control"] {
            var fast = XMLText(), general = XMLText()
            fast.val("w:u", value)
            general.empty("w:u", [("w:val", value)])
            XCTAssertEqual(fast.bytes, general.bytes, value)
        }
        var x = XMLText()
        x.raw("<w:r>")
        let mark = x.count
        x.raw("<w:rPr>")
        x.removeLast(x.count - mark)
        XCTAssertEqual(String(decoding: x.bytes, as: UTF8.self), "<w:r>")
    }

    func testRunPropertiesInTheBody() throws {
        let change = Change(author: "Ann", date: "2024-01-01T00:00:00Z")
        let runs: [Run] = [
            .text("plain "), .text("bold ", TextFormat(bold: true)),
            .text("big ", TextFormat(style: CharacterStyle(fontSize: 14, color: RGBColor(red: 255, green: 0, blue: 0)))),
            Run(.text("link "), link: Link(url: "https://example.com")),
            Run(.text("was bold "), formatChange: FormatChange(change: change, old: TextFormat(bold: true))),
            .text("code", TextFormat(code: true)),
        ]
        let doc = Document(blocks: [.paragraph(Paragraph(InlineBuilder.inlines(from: runs)))])
        let xml = try DOCXTest.part("word/document.xml", of: DOCXTest.write(doc))
        for expected in [
            "<w:r><w:t xml:space=\"preserve\">plain </w:t></w:r>",
            "<w:r><w:rPr><w:b/><w:bCs/></w:rPr><w:t xml:space=\"preserve\">bold </w:t></w:r>",
            "<w:r><w:rPr><w:color w:val=\"FF0000\"/><w:sz w:val=\"28\"/><w:szCs w:val=\"28\"/></w:rPr><w:t xml:space=\"preserve\">big </w:t></w:r>",
            "<w:r><w:rPr><w:rStyle w:val=\"Hyperlink\"/></w:rPr><w:t xml:space=\"preserve\">link </w:t></w:r>",
            "<w:r><w:rPr><w:rPrChange w:id=",
            "<w:r><w:rPr><w:rStyle w:val=\"VerbatimChar\"/></w:rPr><w:t xml:space=\"preserve\">code</w:t></w:r>",
        ] {
            XCTAssertTrue(xml.contains(expected), "missing \(expected) in \(xml)")
        }
    }

    func testRunPropertiesCacheKeepsTheLastFewUnstyledLooks() {
        var cache = RunPropertiesCache()
        let looks = [TextFormat(), TextFormat(bold: true), TextFormat(italic: true), TextFormat(code: true), TextFormat(underline: true)]
        for (k, f) in looks.enumerated() { cache.keep([UInt8(k)], for: f, inLink: false) }
        XCTAssertNil(cache.element(for: looks[0], inLink: false), "the oldest of five is dropped")
        for k in 1..<5 { XCTAssertEqual(cache.element(for: looks[k], inLink: false), [UInt8(k)]) }
        XCTAssertNil(cache.element(for: looks[4], inLink: true), "in a link is another look")
        let styled = TextFormat(style: CharacterStyle(fontSize: 14))
        cache.keep([9], for: styled, inLink: false)
        XCTAssertNil(cache.element(for: styled, inLink: false), "a look with a character style is not kept")
    }

    /// Runs cycling through more looks than the cache keeps, in and out of links: every run's properties
    /// are what `Properties.run` writes for it afresh.
    func testCachedRunPropertiesAreWhatIsWrittenAfresh() throws {
        let looks = [TextFormat(), TextFormat(bold: true), TextFormat(italic: true), TextFormat(bold: true, italic: true),
                     TextFormat(code: true), TextFormat(underline: true, highlight: true),
                     TextFormat(strikethrough: true, superscript: true)]
        var runs: [Run] = []
        var expected: [String] = []
        var rng = SystemRandomNumberGenerator()
        var previous = -1
        for k in 0..<300 {
            var look = Int.random(in: 0..<looks.count, using: &rng)
            if look == previous { look = (look + 1) % looks.count }
            previous = look
            let inLink = k % 50 >= 40
            let f = looks[look]
            runs.append(Run(.text("r\(k) "), format: f, link: inLink ? Link(url: "https://example.com") : nil))
            var props = XMLText()
            Properties.run(f, styleID: f.code ? "VerbatimChar" : inLink ? "Hyperlink" : nil, into: &props)
            expected.append(props.isEmpty ? "" : "<w:rPr>" + String(decoding: props.bytes, as: UTF8.self) + "</w:rPr>")
        }
        let doc = Document(blocks: [.paragraph(Paragraph(InlineBuilder.inlines(from: runs)))])
        let xml = try DOCXTest.part("word/document.xml", of: DOCXTest.write(doc))
        for (k, rPr) in expected.enumerated() {
            let run = "<w:r>" + rPr + "<w:t xml:space=\"preserve\">r\(k) </w:t></w:r>"
            XCTAssertTrue(xml.contains(run), "missing \(run)")
        }
    }
}

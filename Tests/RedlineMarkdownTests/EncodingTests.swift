import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// Input that is not valid UTF-8 is repaired once, at the door, with a warning; UTF-16 with a byte-order
/// mark is decoded. (A byte 0xFF inside a comment's attribution used to trap: issue 15.)
final class EncodingTests: XCTestCase {
    private func read(_ bytes: [UInt8]) throws -> (Document, Diagnostics) {
        let d = Diagnostics()
        var source = try MarkdownSource(bytes: bytes, options: ReadOptions(), diagnostics: d)
        return (try Document(reading: &source), d)
    }

    func testInvalidByteInEveryCriticMarkupPositionIsRepairedWithAWarning() throws {
        let shapes = ["{>>@\u{1}<<}", "{>>@A (\u{1}) [resolved] | b<<}", "{>>\u{1}: x<<}", "{>>Ann\u{1}<<}",
                      "a {++x++}{>>@\u{1}<<} b", "{==x==}{>>@\u{1}<<}", "{~~a~>b~~}{>>@Ann (\u{1})<<}",
                      "{>>/\u{1}<<}", "[x]{\u{1}}", "[^\u{1}]\n\n[^\u{1}]: n", "{>>@A | \u{1}<<}{>>@\u{1}<<}"]
        for shape in shapes {
            for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x80], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xC0, 0x80]] {
                var bytes: [UInt8] = []
                for b in shape.utf8 { if b == 1 { bytes += bad } else { bytes.append(b) } }
                let (doc, d) = try read(bytes)
                XCTAssertFalse(doc.blocks.isEmpty && doc.comments.isEmpty, shape)
                XCTAssertEqual(d.all.first { $0.code == .markdownInvalidUTF8 }?.location?.line, 1, "\(shape) \(bad)")
            }
        }
    }

    func testValidUTF8IsNotWarnedAbout() throws {
        let (_, d) = try read(Array("\u{FEFF}é {>>@Zoë (2024) | ok 😀<<}\n".utf8))
        XCTAssertNil(d.all.first { $0.code == .markdownInvalidUTF8 })
    }

    func testUTF16WithByteOrderMarkIsDecoded() throws {
        let text = "# Title é\n\nHello {++big ++}world 😀.\n"
        let units = Array(text.utf16)
        let le: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let (expected, _) = try read(Array(text.utf8))
        for bytes in [le, be] {
            let (doc, d) = try read(bytes)
            XCTAssertEqual(doc.blocks, expected.blocks)
            XCTAssertTrue(d.all.isEmpty, "\(d.all)")
        }
        // A lone surrogate is replaced and reported.
        let (_, d) = try read([0xFF, 0xFE, 0x61, 0x00, 0x00, 0xD8, 0x0A, 0x00])
        XCTAssertEqual(d.all.first { $0.code == .markdownInvalidUTF8 }?.count, 1)
    }

    func testRepairIsLinearAndKeepsValidText() {
        var bytes: [UInt8] = []
        for _ in 0..<100_000 { bytes += [0x61, 0xFF, 0xC3, 0xA9] }
        let (out, report) = TextDecoding.utf8(bytes)
        XCTAssertEqual(report.replaced, 100_000)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), String(repeating: "a\u{FFFD}é", count: 100_000))
        XCTAssertNotNil(String(validating: out, as: UTF8.self))
    }

    /// cmark-gfm is quadratic in the cells of a table row: past `Limits.maxTableColumns` the pipes are text.
    func testVeryWideTableKeepsItsTextWithAWarning() throws {
        let n = 5_000
        let md = "|" + (0..<n).map { "c\($0)" }.joined(separator: "|") + "|\n|" + Array(repeating: "-", count: n).joined(separator: "|")
            + "|\n|" + (0..<n).map { "v\($0)" }.joined(separator: "|") + "|\n"
        let (doc, d) = try read(Array(md.utf8))
        XCTAssertEqual(d.all.first { $0.code == .markdownTableTooWide }?.count, 3)
        let text = doc.blocks.map(\.plainText).joined(separator: " ")
        XCTAssertTrue(text.contains("c4999") && text.contains("v4999") && text.contains("v0"), String(text.prefix(200)))
        // A table under the limit is a table, without a warning.
        let (small, d2) = try read(Array("|a|b|\n|-|-|\n|1|2|\n".utf8))
        if case .table = small.blocks.first {} else { XCTFail("\(small.blocks)") }
        XCTAssertTrue(d2.all.isEmpty)
    }
}

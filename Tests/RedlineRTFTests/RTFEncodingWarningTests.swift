import Foundation
import RedlineCore
import RedlineRTF
import XCTest

/// Bytes RTF cannot decode are replaced or left out with a warning, never silently (issue 15).
final class RTFEncodingWarningTests: XCTestCase {
    private func diagnostics(_ rtf: [UInt8]) throws -> (String, Diagnostics) {
        let d = Diagnostics()
        let doc = try RTFReader().read(.bytes(rtf), diagnostics: d)
        return (doc.blocks.map(\.plainText).joined(separator: "\n"), d)
    }

    func testBadHexEscapeIsLeftOutWithAWarning() throws {
        let (text, d) = try diagnostics(Array(#"{\rtf1\ansi a\'zzb\'4g c\'41\par}"#.utf8))
        XCTAssertEqual(text, "ab cA")
        XCTAssertEqual(d.all.first { $0.code == .rtfBadHexEscape }?.count, 2)
    }

    func testInvalidUTF8InCodePage65001IsReplacedWithAWarning() throws {
        let (text, d) = try diagnostics(Array(#"{\rtf1\ansi\ansicpg65001 caf"#.utf8) + [0xC3, 0xA9, 0x20, 0xFF] + Array(#" x\par}"#.utf8))
        XCTAssertEqual(text, "café \u{FFFD} x")
        XCTAssertEqual(d.all.first { $0.code == .rtfInvalidUTF8 }?.count, 1)
        let (_, clean) = try diagnostics(Array(#"{\rtf1\ansi\ansicpg65001 caf"#.utf8) + [0xC3, 0xA9] + Array(#"\par}"#.utf8))
        XCTAssertNil(clean.all.first { $0.code == .rtfInvalidUTF8 })
    }
}

import XCTest
@testable import RedlineCore

/// `appendText` grows the text in its own buffer (PERFORMANCE.md, "Text that grows in place"): joining a
/// paragraph's many pieces stays linear only if no append copies the text so far. Checked without timing:
/// a string with room to spare keeps its buffer's address through an append made through an array element,
/// as the readers and writers call it. This holds the debug build to it; a first version that switched on
/// `self` passed here but copied in the release build (the optimizer kept the switch subject alive), which
/// only the bench rows `hostile_compare_empty` and `hostile_many_insertions_docx` show (time doubling 4x).
final class TextGrowthTests: XCTestCase {
    /// A string of `count` letters with room for many more, and the address of its bytes.
    private func roomy(_ count: Int) -> (String, UInt) {
        var s = String(repeating: "a", count: count)
        s.reserveCapacity(count * 8)
        var address: UInt = 0
        s.withUTF8 { address = UInt(bitPattern: $0.baseAddress) }
        return (s, address)
    }

    private func address(_ s: String) -> UInt {
        var s = s
        var address: UInt = 0
        s.withUTF8 { address = UInt(bitPattern: $0.baseAddress) }
        return address
    }

    func testInlineTextAndCodeGrowInPlace() {
        for code in [false, true] {
            let (s, before) = roomy(1000)
            var out: [Inline] = [.lineBreak, code ? .code(s) : .text(s)]
            _ = consume s
            out[1].appendText("bbb")
            out[1].appendText("ccc")
            switch out[1] {
            case .text(let t) where !code, .code(let t) where code:
                XCTAssertEqual(t.count, 1006)
                XCTAssertTrue(t.hasSuffix("abbbccc"))
                XCTAssertEqual(address(t), before, "the text was copied (code: \(code))")
            default:
                XCTFail("\(out[1])")
            }
        }
        var other: [Inline] = [.softBreak]
        other[0].appendText("x")
        XCTAssertEqual(other, [.softBreak])
    }

    func testRunTextGrowsInPlace() {
        let (s, before) = roomy(1000)
        var runs = [Run(.text(s))]
        _ = consume s
        runs[0].content.appendText("bbb")
        guard case .text(let t) = runs[0].content else { return XCTFail() }
        XCTAssertEqual(t.count, 1003)
        XCTAssertEqual(address(t), before, "the text was copied")
        var lineBreak = Run.Content.lineBreak
        lineBreak.appendText("x")
        XCTAssertEqual(lineBreak, .lineBreak)
    }
}

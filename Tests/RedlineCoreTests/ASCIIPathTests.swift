import RedlineCore
import XCTest

/// `ASCIIPath` splits exactly as `String.split` does on ASCII text, and declines anything else
/// (PERFORMANCE.md, "Compare batches": relationship targets and zip entry names split per byte).
final class ASCIIPathTests: XCTestCase {
    func testSplitsAsStringSplitDoes() {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [String] = ["a", "b", "/", "/", "\\", ".", "..", "\r\n", "\r", "\n", " ", "-", ":", "%2F"]
        for _ in 0..<5000 {
            let s = (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
            for omitting in [true, false] {
                XCTAssertEqual(ASCIIPath.components(s, omittingEmpty: omitting),
                               s.split(separator: "/", omittingEmptySubsequences: omitting), "\(s.debugDescription)")
                XCTAssertEqual(ASCIIPath.components(s, separator: "-", omittingEmpty: omitting),
                               s.split(separator: "-", omittingEmptySubsequences: omitting), "\(s.debugDescription)")
                XCTAssertEqual(ASCIIPath.componentsEitherSlash(s, omittingEmpty: omitting),
                               s.split(omittingEmptySubsequences: omitting) { $0 == "/" || $0 == "\\" }, "\(s.debugDescription)")
            }
        }
    }

    func testDeclinesTextThatIsNotASCII() {
        for s in ["média/a.png", "/\u{301}..", "a/b\u{0}é", "日本/x"] {
            XCTAssertNil(ASCIIPath.components(s, omittingEmpty: true), s)
            XCTAssertNil(ASCIIPath.componentsEitherSlash(s, omittingEmpty: false), s)
            XCTAssertFalse(ASCIIPath.isASCII(s))
        }
        XCTAssertTrue(ASCIIPath.isASCII(""))
        XCTAssertEqual(ASCIIPath.components("", omittingEmpty: false), [""])
        XCTAssertEqual(ASCIIPath.components("", omittingEmpty: true), [])
        XCTAssertNil(ASCIIPath.components("a-b", separator: "é", omittingEmpty: true))
        XCTAssertNil(ASCIIPath.components("redline-1-é", separator: "-", omittingEmpty: false))
    }
}

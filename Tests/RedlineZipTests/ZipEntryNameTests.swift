import RedlineZip
import XCTest

/// `ZipEntryName.isSafe` checks an ASCII name over its bytes (PERFORMANCE.md, "Compare batches"): the same
/// answers as the Character-based checks it had, kept here as the oracle, on random names.
final class ZipEntryNameTests: XCTestCase {
    /// The checks as they were, on Characters.
    private func oracle(_ name: String) -> Bool {
        if name.isEmpty || name.hasPrefix("/") || name.hasPrefix("\\") || name.contains("\0") { return false }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return false }
        let parts = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
        return !parts.contains("..")
    }

    func testSameAnswersAsTheCharacterChecks() {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [String] = ["a", "C", "z", "Z", "@", "[", "`", "{", "1", ":", "/", "\\", ".", "..", "\0", "\r\n", " ", "é", "\u{301}"]
        var unsafe = 0
        for _ in 0..<20000 {
            let name = (0..<Int.random(in: 0...7, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
            XCTAssertEqual(ZipEntryName.isSafe(name), oracle(name), name.debugDescription)
            if !oracle(name) { unsafe += 1 }
        }
        XCTAssertGreaterThan(unsafe, 1000)
        for name in ["word/document.xml", "C:x", "c:/x", "1:x", "@:x", "a/../b", "..", "a\\..\\b", "/x", "\\x", "a\0b", "",
                     "word/..\u{301}/x", "é:x", "a/./b", "...", "x/"] {
            XCTAssertEqual(ZipEntryName.isSafe(name), oracle(name), name.debugDescription)
        }
    }
}

import XCTest
@testable import RedlineMarkdown

/// The Markdown writer's ASCII fast paths give what the Unicode properties give (PERFORMANCE.md, "Small runs").
final class CharacterClassTests: XCTestCase {
    func testASCIIWhitespaceIsThePropertys() {
        for v in UInt32(0)..<0x80 {
            let u = Unicode.Scalar(v)!
            XCTAssertEqual(CharacterClass.isASCIIWhitespace(u), u.properties.isWhitespace, "U+\(String(v, radix: 16))")
        }
    }

    func testIsSpaceIsTheCategorysForASCII() {
        var characters: [Character] = (UInt32(0)..<0x80).map { Character(Unicode.Scalar($0)!) }
        characters += ["\r\n", "\u{A0}", "\u{2003}", "\u{3000}", "a\u{301}", "\u{85}"]
        for c in characters {
            let slow = c == " " || c == "\t" || c.unicodeScalars.first.map { $0.properties.generalCategory == .spaceSeparator } == true
            XCTAssertEqual(ReadableInlines.isSpace(c), slow, "\(c.unicodeScalars.map { $0.value })")
        }
    }

    /// The space splitting of the Markdown writer gives what walking the characters gives.
    func testSpaceSplitsAreTheCharacterWalks() {
        var samples = ["", " ", "  ", "\t", "a", " a", "a ", "  ab  ", " \u{301}x", "x \u{301}", "\u{A0}a\u{A0}", " \u{3000}b ",
                       "\r\n ", " \r\n", "é ", " é", "\u{600} x", "x\u{600} ", " \u{200D}", "👍🏽 ", " 👍🏽", "\t \t"]
        var generator = SystemRandomNumberGenerator()
        let pieces = [" ", "\t", "a", "\u{301}", "\u{A0}", "\r", "\n", "é", "\u{200D}", "\u{600}", "\u{2003}", "x"]
        for _ in 0..<2_000 {
            samples.append((0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for s in samples {
            let lead = s.prefix(while: ReadableInlines.isSpace).count
            XCTAssertEqual(Array(s[..<ReadableInlines.endOfLeadingSpaces(s)].utf8), Array(s.prefix(lead).utf8), s.debugDescription)
            let trail = s.reversed().prefix(while: ReadableInlines.isSpace).count
            XCTAssertEqual(Array(s[ReadableInlines.startOfTrailingSpaces(s)...].utf8), Array(s.suffix(trail).utf8), s.debugDescription)
            XCTAssertEqual(Array(s[..<ReadableInlines.startOfTrailingSpaces(s)].utf8), Array(s.dropLast(trail).utf8), s.debugDescription)
        }
    }
}

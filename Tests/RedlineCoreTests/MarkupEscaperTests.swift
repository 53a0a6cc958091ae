import XCTest
@testable import RedlineCore

/// The one XML/HTML escaper, in each of the contexts the writers use it in.
final class MarkupEscaperTests: XCTestCase {
    let sample = "a&b<c>d\"e\tf\ng\rh\u{1}i\u{7F}j\u{FFFE}k\u{FFFF}lé"

    func testEachContext() {
        XCTAssertEqual(MarkupEscaper.html.escaped(sample),
                       "a&amp;b&lt;c&gt;d&quot;e\tf\ng\rh\u{1}i\u{7F}j\u{FFFE}k\u{FFFF}lé")
        XCTAssertEqual(MarkupEscaper.xmlText.escaped(sample),
                       "a&amp;b&lt;c&gt;d\"e\tf\ng\rhi\u{7F}jklé")
        XCTAssertEqual(MarkupEscaper.xmlAttribute.escaped(sample),
                       "a&amp;b&lt;c&gt;d&quot;e&#9;f&#10;g&#13;hi\u{7F}jklé")
        XCTAssertEqual(MarkupEscaper.copiedXMLText.escaped(sample),
                       "a&amp;b&lt;c&gt;d\"e\tf\ng&#13;h\u{1}i\u{7F}j\u{FFFE}k\u{FFFF}lé")
        XCTAssertEqual(MarkupEscaper.copiedXMLAttribute.escaped(sample),
                       "a&amp;b&lt;c&gt;d&quot;e&#9;f&#10;g&#13;h\u{1}i\u{7F}j\u{FFFE}k\u{FFFF}lé")
        XCTAssertEqual(MarkupEscaper.xmlReport.escaped(sample),
                       "a&amp;b&lt;c&gt;d&quot;e\tf&#10;g\rhi\u{7F}jklé")
    }

    func testNothingToEscapeIsCopiedAndEdgesAreKept() {
        XCTAssertEqual(MarkupEscaper.xmlText.escaped("plain text, ünïcode 🎉"), "plain text, ünïcode 🎉")
        XCTAssertEqual(MarkupEscaper.xmlText.escaped(""), "")
        XCTAssertEqual(MarkupEscaper.xmlText.escaped("&"), "&amp;")
        XCTAssertEqual(MarkupEscaper.xmlReport.escaped("\u{FFFF}"), "")
        XCTAssertEqual(MarkupEscaper.xmlReport.escaped("x\u{EF}"), "x\u{EF}")  // U+00EF, not a noncharacter
    }
}

import XCTest
@testable import RedlineMarkdown

/// The two double-quoted syntaxes the Markdown writer uses: attribute values and YAML front matter.
final class QuotedStringTests: XCTestCase {
    func testAttributeValuesEscapeWhatEndsASpanOrAnAttributeList() {
        XCTAssertEqual(AttributeList.quoted("Heading-1"), "Heading-1", "bare when safe")
        XCTAssertEqual(AttributeList.quoted("a \"b\" \\ <c> {d} [e]\n\r\t\u{1}"),
                       "\"a \\\"b\\\" \\\\ \\<c\\> {d\\} [e\\]\\n\\r\\t\u{1}\"")
    }

    func testFrontMatterEscapesControlCharactersAsYAMLDoes() {
        XCTAssertEqual(FrontMatter.quote("a \"b\" \\ <c>\n\r\t\u{1}\u{7F}\u{85}\u{FEFF}é"),
                       "\"a \\\"b\\\" \\\\ <c>\\n\\r\\t\\u0001\\u007f\\u0085\\ufeffé\"")
    }
}

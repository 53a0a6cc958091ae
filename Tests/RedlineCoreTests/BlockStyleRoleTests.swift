import XCTest
@testable import RedlineCore

/// The block style names readers recognise and writers write.
final class BlockStyleRoleTests: XCTestCase {
    func testLooseMatchIgnoresCaseAndSpaces() {
        XCTAssertEqual(BlockStyleRole(matching: "Quote"), .quote)
        XCTAssertEqual(BlockStyleRole(matching: "IntenseQuote"), .quote)
        XCTAssertEqual(BlockStyleRole(matching: "block text"), .quote)
        XCTAssertEqual(BlockStyleRole(matching: "SourceCode"), .code)
        XCTAssertEqual(BlockStyleRole(matching: "Horizontal Rule"), .rule)
        XCTAssertNil(BlockStyleRole(matching: "Normal"))
        XCTAssertNil(BlockStyleRole(matching: nil))
    }

    func testExactMatchTakesTheWrittenNamesOnly() {
        XCTAssertEqual(BlockStyleRole(exactName: "Block Text"), .quote)
        XCTAssertEqual(BlockStyleRole(exactName: BlockStyleRole.codeName), .code)
        XCTAssertEqual(BlockStyleRole(exactName: BlockStyleRole.ruleName), .rule)
        XCTAssertNil(BlockStyleRole(exactName: "Quote"))
        XCTAssertNil(BlockStyleRole(exactName: "source code"))
    }

    func testHeadingLevels() {
        XCTAssertEqual(BlockStyleRole.headingLevel(styleName: "heading 1"), 1)
        XCTAssertEqual(BlockStyleRole.headingLevel(styleName: "Heading 3"), 3)
        XCTAssertEqual(BlockStyleRole.headingLevel(styleName: "heading 9"), 6)
        XCTAssertNil(BlockStyleRole.headingLevel(styleName: "heading 10"))
        XCTAssertNil(BlockStyleRole.headingLevel(styleName: "Heading"))
        XCTAssertNil(BlockStyleRole.headingLevel(styleName: "Subheading 1"))
    }
}

import XCTest
@testable import RedlineCompare
import RedlineCore

final class CompareBasicTests: XCTestCase {
    func testPlaceholder() {}
}

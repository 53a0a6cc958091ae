import XCTest
import RedlineCore

/// Buffers the readers reuse from paragraph to paragraph keep their storage only while it is small, so a
/// huge paragraph's run buffer is not held for the rest of the document (PERFORMANCE.md, "Small runs").
final class ReusableBufferTests: XCTestCase {
    func testSmallBufferKeepsItsStorageAndHugeOneIsFreed() {
        var small = Array(repeating: Run.text("a"), count: 100)
        ReusableBuffer.empty(&small)
        XCTAssertTrue(small.isEmpty)
        XCTAssertGreaterThanOrEqual(small.capacity, 100)
        var huge = Array(repeating: Run.text("a"), count: ReusableBuffer.keptCapacity + 1)
        ReusableBuffer.empty(&huge)
        XCTAssertTrue(huge.isEmpty)
        XCTAssertEqual(huge.capacity, 0)
    }
}

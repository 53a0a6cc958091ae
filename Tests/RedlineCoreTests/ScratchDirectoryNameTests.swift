import XCTest
@testable import RedlineCore

/// `ScratchDirectory` recognises its directories' names on `readdir`'s bytes; these are the names it takes
/// (the process ID) and those it must leave alone.
final class ScratchDirectoryNameTests: XCTestCase {
    private func pid(_ name: String) -> pid_t? {
        var bytes = Array(name.utf8) + [0, 0x41]  // NUL-terminated, with bytes after it as in a dirent
        return bytes.withUnsafeMutableBufferPointer { ScratchDirectory.scratchPID(UnsafeBufferPointer($0)) }
    }

    func testTheScratchNamesGiveTheirProcess() {
        XCTAssertEqual(pid("redline-123-AbCdEf"), 123)
        XCTAssertEqual(pid("redline-worker-4567-x1Y2z3"), 4567)
        XCTAssertEqual(pid("redline-999999999-AbCdEf"), 999_999_999)
    }

    func testOtherNamesAreLeftAlone() {
        for name in ["redline-zip-AbCdEf", "redline-123-AbCdE", "redline-123-AbCdEfG", "redline-123-Ab-dEf",
                     "redline-0-AbCdEf", "redline--AbCdEf", "redline-worker-AbCdEf", "redline-123",
                     "redline-123-", "redline-99999999999-AbCdEf", "redline-docx-tests-6F9619FF-8B86-D011",
                     "Redline-123-AbCdEf", "xredline-123-AbCdEf", "redline", "", "redline-123-AbCdEf.md"] {
            XCTAssertNil(pid(name), name)
        }
    }
}

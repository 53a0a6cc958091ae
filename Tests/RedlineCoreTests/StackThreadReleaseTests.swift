import Foundation
import RedlineCore
import XCTest

/// `StackThread.release` lets go of a value on a thread of its own, and `waitForReleases` returns only once
/// every value given to it is gone (what the fuzzers wait on before LeakSanitizer looks).
final class StackThreadReleaseTests: XCTestCase {
    /// Counts its deinits.
    private final class Tracked: @unchecked Sendable {
        static let lock = NSLock()
        nonisolated(unsafe) static var gone = 0
        let payload = [Int](repeating: 7, count: 10_000)
        deinit {
            Self.lock.lock()
            Self.gone += 1
            Self.lock.unlock()
        }
    }

    func testWaitForReleasesReturnsOnceEveryValueIsGone() {
        Tracked.lock.lock(); Tracked.gone = 0; Tracked.lock.unlock()
        for _ in 0..<50 { StackThread.release([Tracked(), Tracked()]) }
        StackThread.waitForReleases()
        Tracked.lock.lock(); let gone = Tracked.gone; Tracked.lock.unlock()
        XCTAssertEqual(gone, 100)
        // Nothing in flight: returns at once.
        StackThread.waitForReleases()
    }
}

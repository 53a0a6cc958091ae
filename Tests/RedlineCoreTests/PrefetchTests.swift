import Foundation
import XCTest
@testable import RedlineCore

/// `Prefetch` gives exactly what calling its producer in turn gives, runs at most `capacity` items ahead,
/// and stops cleanly when dropped early.
final class PrefetchTests: XCTestCase {
    private struct Failure: Error, Equatable { let at: Int }

    /// A producer's state: counts up to `end`, or throws at `failAt`; records how far it got.
    private final class Counter: @unchecked Sendable {
        let lock = NSLock()
        private var made = 0
        var count: Int { lock.lock(); defer { lock.unlock() }; return made }
        func step(end: Int, failAt: Int?) throws -> Int? {
            lock.lock(); defer { lock.unlock() }
            if let f = failAt, made == f { throw Failure(at: f) }
            guard made < end else { return nil }
            made += 1
            return made
        }
    }

    func testItemsComeInOrderThenNil() throws {
        let counter = Counter()
        let ahead = Prefetch { try counter.step(end: 1_000, failAt: nil) }
        var got: [Int] = []
        while let n = try ahead.next() { got.append(n) }
        XCTAssertEqual(got, Array(1...1_000))
        XCTAssertNil(try ahead.next(), "nil again after the end")
    }

    func testTheErrorComesAfterTheItemsBeforeIt() throws {
        let counter = Counter()
        let ahead = Prefetch { try counter.step(end: 100, failAt: 7) }
        var got: [Int] = []
        do {
            while let n = try ahead.next() { got.append(n) }
            XCTFail("no error")
        } catch let e as Failure {
            XCTAssertEqual(e, Failure(at: 7))
        }
        XCTAssertEqual(got, Array(1...7))
        XCTAssertEqual(counter.count, 7, "the producer is not called after it threw")
    }

    func testTheProducerRunsAtMostCapacityAhead() throws {
        let counter = Counter()
        let ahead = Prefetch(capacity: 3) { try counter.step(end: 1_000, failAt: nil) }
        for expected in 1...20 {
            XCTAssertEqual(try ahead.next(), expected)
            Thread.sleep(forTimeInterval: 0.002)
            // Taken: `expected`; waiting: at most 3; being made: at most 1.
            XCTAssertLessThanOrEqual(counter.count, expected + 4)
        }
    }

    func testStoppingEarlyEndsTheThread() throws {
        let counter = Counter()
        var ahead: Prefetch<Int>? = Prefetch { try counter.step(end: .max, failAt: nil) }
        XCTAssertEqual(try ahead?.next(), 1)
        ahead = nil  // deinit stops and joins
        let after = counter.count
        Thread.sleep(forTimeInterval: 0.02)
        XCTAssertEqual(counter.count, after, "the producer ran on after the prefetcher was dropped")
        XCTAssertLessThanOrEqual(after, 4)
    }

    func testWalkingAValueGivesWhatSteppingItGives() throws {
        struct Fibonacci: Sendable { var a = 0, b = 1, left = 50 }
        let ahead = Prefetch(walking: Fibonacci()) { s -> Int? in
            guard s.left > 0 else { return nil }
            s.left -= 1
            (s.a, s.b) = (s.b, s.a + s.b)
            return s.a
        }
        var got: [Int] = []
        while let n = try ahead.next() { got.append(n) }
        var s = Fibonacci(), expected: [Int] = []
        while s.left > 0 { s.left -= 1; (s.a, s.b) = (s.b, s.a + s.b); expected.append(s.a) }
        XCTAssertEqual(got, expected)
    }
}

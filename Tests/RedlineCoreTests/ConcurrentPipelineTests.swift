import Foundation
import XCTest
@testable import RedlineCore

/// `Pipeline.runConcurrently` gives what `Pipeline.run` gives: chunks, errors, diagnostics and their order.
final class ConcurrentPipelineTests: XCTestCase {
    /// A source of `count` paragraphs that reports a warning now and then, and can fail at one chunk.
    struct Source: ChunkSource {
        var header = DocumentHeader()
        var count: Int
        var failAt: Int?
        var diagnostics: Diagnostics
        var made = 0
        var progress: Progress?

        mutating func next() throws -> Chunk? {
            guard made < count else { return nil }
            made += 1
            if made == failAt { throw RedlineError.malformed("reader failed at \(made)") }
            if made % 7 == 0 { diagnostics.report(DiagnosticCode("read.\(made % 3)"), "read \(made)", at: SourceLocation(paragraph: made)) }
            progress?.read()
            return Chunk(.paragraph(Paragraph([.text("p\(made)")])))
        }
    }

    /// A sink collecting the text of what it gets, reporting now and then, and able to fail at one chunk.
    struct Sink: ChunkSink {
        var failAt: Int?
        var diagnostics: Diagnostics
        var written: [String] = []
        var finished = false
        var progress: Progress?

        mutating func begin(_ header: DocumentHeader) throws { diagnostics.report("write.begin", "begin") }
        mutating func write(_ chunk: Chunk) throws {
            if written.count + 1 == failAt { throw RedlineError.io("writer failed at \(written.count + 1)") }
            written.append(chunk.block.plainText)
            if written.count % 5 == 0 { diagnostics.report(DiagnosticCode("write.\(written.count % 4)"), "wrote \(written.count)") }
            progress?.wrote()
        }
        mutating func finish() throws {
            finished = true
            progress?.finish()
            diagnostics.report("write.finish", "finish")
        }
    }

    /// How far the reader is ahead of the writer, at most.
    final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var reads = 0
        private(set) var writes = 0
        private(set) var finished = false
        private(set) var maxAhead = 0
        func read() { lock.lock(); reads += 1; maxAhead = max(maxAhead, reads - writes); lock.unlock() }
        func wrote() { lock.lock(); writes += 1; lock.unlock() }
        func finish() { lock.lock(); finished = true; lock.unlock() }
    }

    private func lines(_ d: Diagnostics) -> [String] { d.all.map { "\($0.code) ×\($0.count) \($0.location?.description ?? "-") \($0.message)" } }

    /// One thread, one diagnostics object: the reference.
    private func sequential(count: Int, readFail: Int? = nil, writeFail: Int? = nil,
                            progress: Progress? = nil) -> (Sink, [String], String?) {
        let d = Diagnostics()
        var source = Source(count: count, failAt: readFail, diagnostics: d, progress: progress)
        var sink = Sink(failAt: writeFail, diagnostics: d, progress: progress)
        var failure: String?
        do { try Pipeline.run(source: &source, stages: [], sink: &sink) } catch { failure = "\(error)" }
        return (sink, lines(d), failure)
    }

    private func concurrent(count: Int, readFail: Int? = nil, writeFail: Int? = nil, capacity: Int = 16,
                            progress: Progress? = nil) -> (Sink, [String], String?, Int) {
        let readSide = Diagnostics(), writeSide = Diagnostics(), merged = Diagnostics()
        var source = Source(count: count, failAt: readFail, diagnostics: readSide, progress: progress)
        var sink = Sink(failAt: writeFail, diagnostics: writeSide, progress: progress)
        var failure: String?
        do {
            try Pipeline.runConcurrently(source: &source, stages: [], sink: &sink, readSide: readSide,
                                         writeSide: writeSide, capacity: capacity)
        } catch {
            failure = "\(error)"
        }
        merged.absorb([readSide, writeSide])
        return (sink, lines(merged), failure, source.made)
    }
    func testSameChunksAndDiagnosticsInTheSameOrder() {
        for count in [0, 1, 3, 40, 1_000] {
            let (a, aLines, aError) = sequential(count: count)
            let (b, bLines, bError, _) = concurrent(count: count)
            XCTAssertEqual(a.written, b.written)
            XCTAssertTrue(b.finished)
            XCTAssertEqual(aLines, bLines, "count \(count)")
            XCTAssertNil(aError)
            XCTAssertNil(bError)
        }
        // `run` with two diagnostics (the one-thread fallback of `runConcurrently`) stamps alike.
        let readSide = Diagnostics(), writeSide = Diagnostics(), merged = Diagnostics()
        var source = Source(count: 40, diagnostics: readSide)
        var sink = Sink(diagnostics: writeSide)
        XCTAssertNoThrow(try Pipeline.run(source: &source, stages: [], sink: &sink, readSide: readSide, writeSide: writeSide))
        merged.absorb([readSide, writeSide])
        XCTAssertEqual(lines(merged), sequential(count: 40).1)
        // The order interleaves the two sides as one thread would (not all reads first).
        let (_, lines, _, _) = concurrent(count: 40)
        XCTAssertEqual(lines.map { String($0.prefix(while: { $0 != " " })) },
                       ["write.begin", "write.1", "read.1", "write.2", "read.2", "write.3", "write.0", "read.0", "write.finish"])
    }

    func testReaderErrorWritesWhatCameBeforeAndDoesNotFinish() {
        let p = Progress(), q = Progress()
        let (_, aLines, aError) = sequential(count: 100, readFail: 30, progress: p)
        let (_, bLines, bError, _) = concurrent(count: 100, readFail: 30, progress: q)
        XCTAssertEqual(p.writes, 29)
        XCTAssertEqual(q.writes, 29)
        XCTAssertFalse(q.finished)
        XCTAssertNotNil(bError)
        XCTAssertEqual(bError, aError)
        XCTAssertEqual(bLines, aLines)
    }

    func testWriterErrorWinsAndStopsTheReader() {
        let q = Progress()
        let (_, _, aError) = sequential(count: 10_000, writeFail: 5)
        let (_, _, bError, made) = concurrent(count: 10_000, writeFail: 5, capacity: 8, progress: q)
        XCTAssertEqual(q.writes, 4)
        XCTAssertFalse(q.finished)
        XCTAssertNotNil(bError)
        XCTAssertEqual(bError, aError)
        XCTAssertLessThan(made, 100, "the reader went on after the writer failed")
        // Both fail: the writer failed on an earlier chunk, so its error is the one `run` gives.
        let (_, _, bothError, _) = concurrent(count: 100, readFail: 50, writeFail: 3)
        XCTAssertEqual(bothError, sequential(count: 100, readFail: 50, writeFail: 3).2)
    }

    func testTheReaderStaysWithinTheQueueOfTheWriter() {
        let progress = Progress()
        let (b, _, _, _) = concurrent(count: 20_000, capacity: 8, progress: progress)
        XCTAssertEqual(b.written.count, 20_000)
        // At most `capacity` queued and `capacity` in the writer's batch.
        XCTAssertLessThanOrEqual(progress.maxAhead, 2 * 8 + 1)
    }

    func testLargeStackRunsDeepRecursionAndPassesErrorsBack() throws {
        func depth(_ n: Int) -> Int {
            var pad = (n, n, n, n, n, n, n, n)  // some stack per level
            return withUnsafeMutablePointer(to: &pad) { $0.pointee.0 == 0 ? 0 : 1 + depth(n - 1) }
        }
        // 8 MiB (a main thread) would not hold this; 256 MiB does.
        XCTAssertEqual(try LargeStack.run { depth(200_000) }, 200_000)
        XCTAssertThrowsError(try LargeStack.run { throw RedlineError.limit("too deep") }) { e in
            XCTAssertEqual((e as? RedlineError)?.message, "too deep")
        }
    }
}

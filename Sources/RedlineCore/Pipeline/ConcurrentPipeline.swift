import Foundation

extension Pipeline {
    /// `run` on two threads: the source reads on the calling thread while the stages and the sink write on
    /// a second one, so reading chunk k+1 overlaps writing chunk k. The writer takes queued chunks in
    /// batches; at most `capacity` wait in the queue and `capacity` in the writer's batch, so memory stays
    /// bounded as in `run`.
    ///
    /// The results equal `run`'s: the same chunks in the same order; on failure the error `run` would have
    /// thrown (the writer's when it failed first, else the reader's), and the sink is not finished.
    /// Diagnostics stay deterministic when the reader reports into `readSide` and the stages and sink into
    /// `writeSide`: their stamps are set as `run` would interleave the two (2k while the source makes
    /// chunk k, 2k+1 while the chain writes it), so `Diagnostics.absorb([readSide, writeSide])` gives
    /// `run`'s order.
    public static func runConcurrently<Source: ChunkSource, Sink: ChunkSink>(
        source: inout Source, stages: [any ChunkStage], sink: inout Sink,
        readSide: Diagnostics? = nil, writeSide: Diagnostics? = nil, capacity: Int = 32
    ) throws {
        let handoff = ChunkHandoff(capacity: capacity)
        let writer = ChainThread(chain: StageChain(stages: stages, sink: sink), header: source.header,
                                 handoff: handoff, diagnostics: writeSide)
        let job: any ThreadJob = writer  // the thread sees no generic type (a metatype is not Sendable)
        guard let thread = StackThread.spawn(name: "redline-writer", { job.run() }) else {
            // No second thread to be had: this one does both.
            return try run(source: &source, stages: stages, sink: &sink, readSide: readSide, writeSide: writeSide)
        }
        var readError: (any Error)?
        var k = 0
        while true {
            k += 1
            readSide?.stamp = 2 * k
            let chunk: Chunk?
            do {
                chunk = try source.next()
            } catch {
                readError = error
                break
            }
            guard let chunk, handoff.put(chunk) else { break }  // the end, or the writer has stopped
        }
        handoff.close(failed: readError != nil)
        thread.join()
        if let writeError = writer.error { throw writeError }
        if let readError { throw readError }
        sink = writer.chain.sink
    }
}

/// Work for a thread, seen through no generic type.
private protocol ThreadJob: AnyObject, Sendable {
    func run()
}

/// The second thread of `Pipeline.runConcurrently`: takes chunks from the handoff through the chain.
///
/// `@unchecked Sendable`: `chain` and `error` are touched only by the thread until it ends, then only by
/// the thread that joined it.
private final class ChainThread<Sink: ChunkSink>: ThreadJob, @unchecked Sendable {
    private(set) var chain: StageChain<Sink>
    private(set) var error: (any Error)?
    private let header: DocumentHeader
    private let handoff: ChunkHandoff
    private let diagnostics: Diagnostics?

    init(chain: StageChain<Sink>, header: DocumentHeader, handoff: ChunkHandoff, diagnostics: Diagnostics?) {
        self.chain = chain
        self.header = header
        self.handoff = handoff
        self.diagnostics = diagnostics
    }

    func run() {
        do {
            diagnostics?.stamp = 1
            try chain.begin(header)
            var k = 0
            while true {
                switch handoff.take() {
                case .chunks(let chunks):
                    for chunk in chunks {
                        k += 1
                        diagnostics?.stamp = 2 * k + 1
                        try chain.write(chunk)
                    }
                case .end:
                    diagnostics?.stamp = 2 * (k + 1) + 1
                    try chain.finish()
                    return
                case .failed:
                    return
                }
            }
        } catch {
            self.error = error
            handoff.abandon()
        }
    }
}

/// A bounded queue of chunks between one reading thread and one writing thread. Chunks are handed over
/// in batches (the writer wakes when `batch` are queued or the reader is done), so the threads do not
/// wake each other for every paragraph.
final class ChunkHandoff: @unchecked Sendable {  // every field is guarded by `condition`
    enum Item { case chunks([Chunk]), end, failed }

    private let condition = NSCondition()
    private var items: [Chunk] = []
    private var closed = false
    private var failed = false
    private var abandoned = false
    private var writerWaiting = false
    private var readerWaiting = false
    private let capacity: Int
    private let batch: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        batch = max(1, capacity / 4)
    }

    /// Reader: queues `chunk`, waiting while the queue is full; false when the writer has stopped.
    func put(_ chunk: Chunk) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while items.count >= capacity && !abandoned {
            readerWaiting = true
            condition.wait()
            readerWaiting = false
        }
        if abandoned { return false }
        items.append(chunk)
        if writerWaiting && items.count >= batch { condition.broadcast() }
        return true
    }

    /// Reader: no more chunks. `failed`: the reader failed; the writer writes what is queued (its own
    /// error there would have come first) but does not finish.
    func close(failed: Bool) {
        condition.lock(); defer { condition.unlock() }
        closed = true
        self.failed = failed
        condition.broadcast()
    }

    /// Writer: the queued chunks, waiting for a batch; after the last, `.end`, or `.failed` when the
    /// reader failed.
    func take() -> Item {
        condition.lock(); defer { condition.unlock() }
        while items.count < batch && !closed {
            writerWaiting = true
            condition.wait()
            writerWaiting = false
        }
        guard !items.isEmpty else { return failed ? .failed : .end }
        let taken = items
        items.removeAll(keepingCapacity: true)
        if readerWaiting { condition.broadcast() }
        return .chunks(taken)
    }

    /// Writer: it has stopped (an error); the reader stops at its next `put`.
    func abandon() {
        condition.lock(); defer { condition.unlock() }
        abandoned = true
        items.removeAll()
        condition.broadcast()
    }
}

import Foundation
import RedlineCore

/// What the parsing thread hands the reader: the events of one piece of input (`last` after the end of
/// the input), or the error that ended parsing.
enum ParsedPiece {
    case events(EventBatch, last: Bool)
    case failure(RedlineError)
}

/// Runs a `ChunkParser` on a thread of its own, at most two pieces ahead of the reader, so that reading
/// and inflating the input and libxml2's parsing overlap the caller's work on the events. The reader
/// gets exactly what parsing on its own thread would give, in the same order, errors included; memory
/// stays bounded (three batches at most). When the reader goes away (done, or stopped early by an
/// error), the thread is told to stop and joined before the reader's deinit returns.
final class BackgroundParser {
    private let channel = PieceChannel(capacity: 2)
    private let thread: StackThread?
    /// With one thread only (`StackThread.singleThreaded`, for counting instructions): the parser, run by
    /// `next` on the caller's thread, a piece at a time, as an inline `XMLReader` would.
    private let inline: Inline?

    /// Starts the thread, which owns `parser` from now on (and frees it when it ends).
    init(_ parser: sending ChunkParser) throws {
        let channel = self.channel
        let inline = Inline(parser)
        if StackThread.singleThreaded {
            self.inline = inline
            thread = nil
            return
        }
        self.inline = nil
        let started = StackThread.spawn(name: "redline-xml") {
            while var batch = channel.batchToFill() {
                let piece = inline.parse(into: &batch)
                channel.deliver(piece)
                if case .events(_, last: false) = piece { continue }
                return
            }
        }
        guard let started else { throw RedlineError.limit("cannot start a thread to parse \(inline.parser.name)") }
        thread = started
    }

    deinit {
        channel.stop()
        thread?.join()
    }

    /// The next piece, waiting for the thread if it is not parsed yet. `spent` (the reader's previous
    /// batch) goes back to the thread for reuse and is left empty.
    func next(returning spent: inout EventBatch) -> ParsedPiece {
        if let inline {
            var batch = spent
            spent = EventBatch()
            batch.reset()
            return inline.parse(into: &batch)
        }
        return channel.next(returning: &spent)
    }

    /// The parser and what one step of it gives. `@unchecked Sendable`: used by one thread only, the parsing
    /// thread or (one thread only) the reader's.
    private final class Inline: @unchecked Sendable {
        let parser: ChunkParser
        init(_ parser: sending ChunkParser) { self.parser = parser }

        func parse(into batch: inout EventBatch) -> ParsedPiece {
            do {
                let more = try parser.parse(into: &batch)
                return .events(batch, last: !more)
            } catch let e as RedlineError {
                return .failure(e)
            } catch {
                return .failure(.io("\(parser.name): \(error)"))
            }
        }
    }
}

/// The hand-over between the parsing thread and the reader. Every property is read and written with
/// `condition` locked, which is what makes sharing it between the two threads safe (hence the unchecked
/// `Sendable`). Batches hold pointers to libxml2's interned names, which never change once interned.
private final class PieceChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    /// Parsed pieces the reader has not taken yet, oldest first.
    private var ready: [ParsedPiece] = []
    /// Batches the reader is done with, for the thread to parse into.
    private var spares: [EventBatch] = []
    /// The reader is gone: the thread stops at its next hand-over.
    private var stopped = false

    init(capacity: Int) { self.capacity = capacity }

    /// Parsing thread: a batch to parse the next piece into, once fewer than `capacity` pieces wait;
    /// nil when the reader has stopped.
    func batchToFill() -> EventBatch? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && ready.count >= capacity { condition.wait() }
        if stopped { return nil }
        return spares.popLast() ?? EventBatch()
    }

    /// Parsing thread: hands over a parsed piece (dropped when the reader has stopped).
    func deliver(_ piece: ParsedPiece) {
        condition.lock()
        if !stopped { ready.append(piece) }
        condition.broadcast()
        condition.unlock()
    }

    /// Reader: gives back `spent` and waits for the next piece. The thread always ends with a last
    /// piece or a failure, so a reader that stops asking after those never waits in vain.
    func next(returning spent: inout EventBatch) -> ParsedPiece {
        condition.lock()
        defer { condition.unlock() }
        spares.append(spent)
        spent = EventBatch()
        condition.broadcast()
        while ready.isEmpty { condition.wait() }
        return ready.removeFirst()
    }

    /// Reader: stops the thread (it may be waiting for room, or finishing a piece).
    func stop() {
        condition.lock()
        stopped = true
        ready.removeAll()
        spares.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

import Foundation

/// Runs a producer on a thread of its own, a few items ahead of its consumer: `next()` gives exactly
/// what calling the producer again and again would (its items in order, then nil or its error), while the
/// producer already works on the items after. Used where one long piece of input is read in parts whose
/// making does not depend on what the consumer does with them (`ParagraphPieces` in the Markdown reader:
/// cmark parses the next part of a huge line while the converter builds runs of this one; PERFORMANCE.md,
/// "Small runs").
///
/// At most `capacity` items wait. The producer is not called again after it gave nil or threw. Dropping the
/// prefetcher (or `stop()`) stops the producer after the item it is making and waits for its thread. When
/// no thread can be had, `next()` calls the producer itself.
///
/// `@unchecked Sendable`: the items pass through a queue guarded by a lock, an item touched by the
/// producer until it is queued and by the consumer after; the producer is called by its thread only (or,
/// without one, by the consumer only); the prefetcher itself is used by one consumer.
public final class Prefetch<Element>: @unchecked Sendable {
    private let queue: Queue
    private var thread: StackThread?
    /// The producer, kept only when no thread could be started.
    private var inline: (() throws -> Element?)?
    private var inlineEnded = false

    /// Starts `produce` on a thread named `name`, keeping up to `capacity` items ready.
    public init(capacity: Int = 2, name: String = "redline-ahead", _ produce: sending @escaping () throws -> Element?) {
        let queue = Queue(capacity: max(1, capacity))
        self.queue = queue
        let box = ProducerBox(produce)
        // The thread holds the queue, not the prefetcher, so dropping the prefetcher stops it.
        thread = StackThread.spawn(name: name) { queue.run(box.produce) }
        if thread == nil { inline = box.produce }
    }

    /// Walks `state` on the thread: the items are what `step` gives, called again and again on it.
    public convenience init<State: Sendable>(walking state: State, capacity: Int = 2, name: String = "redline-ahead",
                                             _ step: @escaping @Sendable (inout State) throws -> Element?) {
        let box = StateBox(state)
        self.init(capacity: capacity, name: name) { try step(&box.state) }
    }

    deinit { stop() }

    /// The next item, nil after the last, or the error the producer threw in its place.
    public func next() throws -> Element? {
        guard let produce = inline else { return try queue.take() }
        if inlineEnded { return nil }
        do {
            guard let item = try produce() else { inlineEnded = true; return nil }
            return item
        } catch {
            inlineEnded = true
            throw error
        }
    }

    /// Stops the producer after the item it is making and waits for its thread; `next()` then gives what
    /// was already made.
    public func stop() {
        queue.stop()
        thread?.join()
        thread = nil
    }

    /// The items between the two threads; every field is guarded by `condition`.
    private final class Queue: @unchecked Sendable {
        private let condition = NSCondition()
        private var items: [Element] = []
        private var ended = false
        private var error: (any Error)?
        private var stopped = false
        private let capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        /// Consumer: the next item, nil at the end (or once stopped), or the producer's error.
        func take() throws -> Element? {
            condition.lock()
            defer { condition.unlock() }
            while items.isEmpty && !ended && !stopped { condition.wait() }
            guard items.isEmpty else {
                let item = items.removeFirst()
                condition.broadcast()
                return item
            }
            if let error { throw error }
            return nil
        }

        func stop() {
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }

        /// Producer thread: makes items while there is room, until the end, an error or `stop`.
        func run(_ produce: () throws -> Element?) {
            while true {
                condition.lock()
                while items.count >= capacity && !stopped { condition.wait() }
                let stop = stopped
                condition.unlock()
                if stop { return }
                let result = Result { try produce() }
                condition.lock()
                switch result {
                case .success(let item?): items.append(item)
                case .success(nil): ended = true
                case .failure(let e): error = e; ended = true
                }
                let done = ended
                condition.broadcast()
                condition.unlock()
                if done { return }
            }
        }
    }

    /// The state `init(walking:)` steps (`@unchecked Sendable`: only the producer touches it).
    private final class StateBox<State>: @unchecked Sendable {
        var state: State
        init(_ state: State) { self.state = state }
    }

    /// The producer, handed to the thread (`@unchecked Sendable`: only that thread calls it).
    private final class ProducerBox: @unchecked Sendable {
        let produce: () throws -> Element?
        init(_ produce: @escaping () throws -> Element?) { self.produce = produce }
    }
}

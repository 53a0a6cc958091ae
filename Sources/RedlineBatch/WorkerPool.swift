import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// The one pool of workers in Redline: the batch (`convert`/`export` with -o DIR), `check` over many
/// files and anything else that does independent items in parallel run their items here.
///
///     items in `order` ─▶ N workers (threads with large stacks), each: take the next item, run it, repeat
///                         ─▶ the calling thread waits, calling `tick` every 200 ms
///
/// A worker is made per thread by `worker()`: its `run` is called for each item it takes and its
/// `finish` once when the items run out, so a worker may hold state for its whole life (the batch's
/// `WorkerProcess`, the PDF render queue's membership).
package enum WorkerPool {
    /// What one pool thread does.
    struct Worker {
        var run: (Int) -> Void
        var finish: () -> Void = {}
    }

    /// Runs every item of `order` once, on `count` threads named `name`. Returns when all are done.
    static func run(count: Int, order: [Int], name: String, tick: (() -> Void)? = nil,
                    worker: @escaping @Sendable () -> Worker) {
        let queue = ItemQueue(order)
        let group = DispatchGroup()
        var threads: [StackThread] = []
        for _ in 0..<max(1, min(count, order.count)) {
            group.enter()
            let work: @Sendable () -> Void = {
                let w = worker()
                while let i = queue.take() { w.run(i) }
                w.finish()
                group.leave()
            }
            // Large stacks: documents nest as deep as the readers allow. No thread to be had: this one works.
            if let t = StackThread.spawn(name: name, work) { threads.append(t) } else { work() }
        }
        while group.wait(timeout: .now() + .milliseconds(200)) == .timedOut { tick?() }
        for t in threads { t.join() }
    }

    /// `body(0..<count)` on up to `jobs` threads; results in index order.
    package static func map<T: Sendable>(count: Int, jobs: Int, name: String, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let results = Results<T>(count)
        run(count: jobs, order: Array(0..<count), name: name) {
            Worker(run: { results.put($0, body($0)) })
        }
        return results.values.map { $0! }
    }
}

/// The items not yet taken, in order.
private final class ItemQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let order: [Int]
    private var next = 0
    init(_ order: [Int]) { self.order = order }
    func take() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < order.count else { return nil }
        defer { next += 1 }
        return order[next]
    }
}

/// Results of `WorkerPool.map`, filled from its threads.
private final class Results<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [T?]
    init(_ n: Int) { slots = Array(repeating: nil, count: n) }
    func put(_ i: Int, _ v: T) { lock.lock(); slots[i] = v; lock.unlock() }
    var values: [T?] { lock.lock(); defer { lock.unlock() }; return slots }
}

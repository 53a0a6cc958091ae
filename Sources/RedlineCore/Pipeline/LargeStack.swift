import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Work on threads with a large stack. Readers, transforms and writers recurse over nested blocks, as deep
/// as the readers' limits allow (`Limits.maxNesting`); a main thread's 8 MiB (or a worker's 512 KiB) is
/// not enough for that, a reserved 256 MiB is. Pages are committed only when touched.
public enum LargeStack {
    /// The stack reserved for each thread.
    public static let size = 256 << 20

    /// Runs `body` on a thread with a large stack and waits for it; its result or error. On a thread
    /// that already has one (a `StackThread`), or when the system refuses a new thread, `body` runs on
    /// the calling thread.
    public static func run<T>(_ body: () throws -> T) throws -> T {
        if StackThread.isCurrent { return try body() }
        return try withoutActuallyEscaping(body) { body in
            let call = Call(body)
            guard let thread = StackThread.spawn(name: "redline", { call.run() }) else { return try body() }
            thread.join()
            return try call.result!.get()
        }
    }

    /// `body` and its result. `@unchecked Sendable`: the spawned thread touches it until it ends, the
    /// caller only after joining it.
    private final class Call<T>: @unchecked Sendable {
        let body: () throws -> T
        var result: Result<T, any Error>?
        init(_ body: @escaping () throws -> T) { self.body = body }
        func run() { result = Result { try body() } }
    }
}

/// A POSIX thread with a `LargeStack.size` stack, to be joined: the one way Redline starts threads.
public final class StackThread {
    private var thread: pthread_t

    private init(_ thread: pthread_t) { self.thread = thread }

    /// Starts `body` on a new thread named `name` (at most 15 bytes shown, e.g. by `top -H`); nil when
    /// the system refuses one. `body` is `sending`: the caller keeps no access to what it captures.
    public static func spawn(name: String, _ body: sending @escaping () -> Void) -> StackThread? {
        if singleThreaded { return nil }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, LargeStack.size)
        // Safety: the box is retained once for the new thread, which takes that retain back (`takeRetainedValue`);
        // when no thread starts, it is released here instead. Either way once.
        let context = Unmanaged.passRetained(Box {
            Thread.current.name = name
            Thread.current.threadDictionary[marker] = true
            body()
        }).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return nil
        }
        #if canImport(Darwin)
        return thread.map(StackThread.init)
        #else
        return StackThread(thread)
        #endif
    }

    /// `REDLINE_SINGLE_THREAD=1`: every `spawn` refuses, so each caller does the work on its own thread (what
    /// it does when the system refuses a thread), and a process does all its work on one thread. For counting
    /// instructions (`make perf-check`): with a second thread, how the two take turns changes what malloc and
    /// the hand-overs do by a fraction of a per cent from run to run. Not for use otherwise: the main thread's
    /// stack is not large.
    public static let singleThreaded: Bool = {
        guard let v = getenv("REDLINE_SINGLE_THREAD") else { return false }
        return String(cString: v) == "1"
    }()

    /// Waits for the thread to end.
    public func join() { pthread_join(thread, nil) }

    /// Lets go of `value` on a thread of its own: where it is the last reference to a large document, freeing
    /// its nodes is off the caller's path (`redline apply` drops the models it compared while it writes). Let go
    /// of here when no thread starts. At most one such thread is left to end on its own: each call joins the one
    /// before, and `waitForReleases` the last.
    public static func release<T>(_ value: sending T) {
        var held: T? = value
        guard let thread = spawn(name: "redline-free", {
            held = nil
            _ = held
        }) else { return }
        pendingRelease.swap(thread)?.join()
    }

    /// Waits until every value given to `release` has been let go of and its thread has ended (its
    /// thread-local objects too): for a leak checker (the fuzzers', after each input), which would take one
    /// still being freed for a leak.
    public static func waitForReleases() { pendingRelease.swap(nil)?.join() }

    /// The `release` thread not joined yet.
    private static let pendingRelease = Slot()

    /// One thread, swapped under a lock.
    private final class Slot: @unchecked Sendable {
        // (@unchecked: `thread` is read and written under `lock` only.)
        private let lock = NSLock()
        private var thread: StackThread?

        func swap(_ new: StackThread?) -> StackThread? {
            lock.lock()
            defer { lock.unlock() }
            let old = thread
            thread = new
            return old
        }
    }

    /// Runs `first` on a new thread while `second` runs on this one; both results, or the first error
    /// (`first`'s when both fail). Both run here, one after the other, when no thread starts. The two must
    /// share nothing mutable.
    public static func both<A, B>(_ first: @escaping () throws -> A, _ second: () throws -> B) throws -> (A, B) {
        let call = SideCall(first)
        let thread = spawn(name: "redline-side") { call.run() }
        if thread == nil { call.run() }
        let b = Result { try second() }
        thread?.join()
        return (try call.result!.get(), try b.get())
    }

    /// Whether the calling thread is one of these (so has a large stack).
    public static var isCurrent: Bool { Thread.current.threadDictionary[marker] != nil }

    private static let marker = "redline.StackThread"

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}

/// `StackThread.both`'s first body and its result. `@unchecked Sendable`: the spawned thread touches it until
/// it ends, the joiner only after `join`.
private final class SideCall<T>: @unchecked Sendable {
    let body: () throws -> T
    var result: Result<T, any Error>?
    init(_ body: @escaping () throws -> T) { self.body = body }
    func run() { result = Result { try body() } }
}

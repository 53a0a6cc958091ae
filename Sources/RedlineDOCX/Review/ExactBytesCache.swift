import Foundation
import RedlineCore

/// The results of a pure function of a part's bytes (and the limits it ran under), kept by the exact bytes:
/// compare's DOCX output repairs and orders NEW's `styles.xml` for every pair, and the versions of a pair,
/// like the documents of one template, nearly always share theirs (PERFORMANCE.md, "Compare batches").
/// A hit costs a hash and a compare of the bytes instead of a parse and a re-serialisation. Only results
/// are kept: an input that throws is worked on (and throws) every time. Parts over `maxBytes` are not kept;
/// at most `capacity` results are (the oldest goes first). Thread-safe.
final class ExactBytesCache<Value>: @unchecked Sendable {
    static var maxBytes: Int { 1 << 20 }
    let capacity: Int

    private struct Key: Hashable {
        let bytes: [UInt8]
        let limits: Limits
        let hash: Int
        init(_ bytes: [UInt8], _ limits: Limits) {
            self.bytes = bytes
            self.limits = limits
            var h = Hasher()
            bytes.withUnsafeBytes { h.combine(bytes: $0) }
            h.combine(limits)
            hash = h.finalize()
        }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        static func == (a: Key, b: Key) -> Bool { a.hash == b.hash && a.limits == b.limits && a.bytes == b.bytes }
    }

    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    private var order: [Key] = []
    private var hitCount = 0

    init(capacity: Int = 16) { self.capacity = capacity }

    /// Results served from the cache so far (for tests).
    var hits: Int {
        lock.lock(); defer { lock.unlock() }
        return hitCount
    }

    /// `make()`'s result for `bytes` under `limits`: kept from an earlier call with the same bytes and limits,
    /// or made now (and kept).
    func value(for bytes: [UInt8], limits: Limits, _ make: () throws -> Value) rethrows -> Value {
        guard bytes.count <= Self.maxBytes else { return try make() }
        let key = Key(bytes, limits)
        lock.lock()
        if let v = values[key] {
            hitCount += 1
            lock.unlock()
            return v
        }
        lock.unlock()
        let v = try make()
        lock.lock()
        if values[key] == nil {
            values[key] = v
            order.append(key)
            if order.count > capacity { values[order.removeFirst()] = nil }
        }
        lock.unlock()
        return v
    }
}

import Foundation
import RedlineCore
import RedlineXML
import RedlineZip

/// Style sheets this process has parsed, by the exact bytes of their `styles.xml`: the two versions a
/// comparison reads nearly always share theirs, and so do the documents of one template in a batch.
/// Parsing a typical 20 KB `styles.xml` took a sixth of a small pair's comparison; a hit costs a hash
/// and a compare of the bytes. Exact: the key is the whole part, and `StyleSheet` depends on nothing else
/// (it reports no warnings). When two readers want the same bytes at once (OLD and NEW are read on two
/// threads), one parses and the other waits for its sheet. Parts over `maxBytes` are parsed as they
/// stream, never kept; at most `capacity` sheets are kept (the oldest goes first).
final class StyleSheetCache: @unchecked Sendable {
    static let shared = StyleSheetCache()
    static let capacity = 16
    static let maxBytes = 1 << 20

    /// A part's bytes with their hash computed once.
    private struct Key: Hashable {
        let bytes: [UInt8]
        let hash: Int
        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var h = Hasher()
            bytes.withUnsafeBytes { h.combine(bytes: $0) }
            hash = h.finalize()
        }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        static func == (a: Key, b: Key) -> Bool { a.hash == b.hash && a.bytes == b.bytes }
    }

    private let condition = NSCondition()
    private var sheets: [Key: StyleSheet] = [:]
    private var order: [Key] = []
    private var parsing: Set<Key> = []
    private var hitCount = 0

    /// Sheets served from the cache so far (for tests).
    var hits: Int {
        condition.lock(); defer { condition.unlock() }
        return hitCount
    }

    /// The style sheet of `entry` (the package's `styles.xml`).
    func sheet(_ entry: ZipEntry, in package: DOCXPackage, diagnostics: Diagnostics) throws -> StyleSheet {
        guard entry.declaredSize <= UInt64(Self.maxBytes) else {
            return try StyleSheet(try package.xml(entry), diagnostics: diagnostics)
        }
        let bytes = try package.archive.read(entry)
        func parse() throws -> StyleSheet {
            try StyleSheet(try XMLReader(bytes: bytes, name: entry.name, namespaces: OOXML.table, names: OOXML.names,
                                         limits: package.limits), diagnostics: diagnostics)
        }
        guard bytes.count <= Self.maxBytes else { return try parse() }
        let key = Key(bytes)
        condition.lock()
        while true {
            if let s = sheets[key] {
                hitCount += 1
                condition.unlock()
                return s
            }
            if !parsing.contains(key) { break }
            condition.wait()
        }
        parsing.insert(key)
        condition.unlock()
        let result = Result { try parse() }
        condition.lock()
        parsing.remove(key)
        if case .success(let s) = result {
            sheets[key] = s
            order.append(key)
            if order.count > Self.capacity { sheets[order.removeFirst()] = nil }
        }
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }
}

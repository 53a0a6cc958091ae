import RedlineCore
import RedlineConversion
import RedlineCompare
/// A deterministic share of the inputs: `--shard K/N` takes the inputs whose relative path hashes to K
/// (1-based) of N. The share depends only on each input's own relative path, never on the listing order
/// or the other inputs, so N machines running the same command with K = 1...N cover every input
/// exactly once, and adding files does not move the others.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// This shard, 1...count.
    public let index: Int
    /// How many shards there are.
    public let count: Int

    /// A shard; throws a usage error unless 1 ≤ index ≤ count.
    public init(index: Int, count: Int) throws {
        guard count >= 1, (1...count).contains(index) else {
            throw RedlineError.usage("--shard \(index)/\(count): K must be between 1 and N")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (e.g. `3/8`).
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw RedlineError.usage("--shard '\(text)': expected K/N, e.g. 1/4")
        }
        try self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// True when the input at `relativePath` belongs to this shard.
    public func contains(_ relativePath: String) -> Bool {
        // FNV's low bits are weak on short keys; a splitmix64 finaliser spreads them.
        var x = StableHash.of(relativePath)
        x = (x ^ (x >> 30)) &* 0xbf58_476d_1ce4_e5b9
        x = (x ^ (x >> 27)) &* 0x94d0_49bb_1331_11eb
        x ^= x >> 31
        return Int(x % UInt64(count)) == index - 1
    }
}

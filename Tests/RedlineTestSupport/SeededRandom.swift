import Foundation

/// A small deterministic random number generator (SplitMix64), so a failing seed can be replayed.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }

    /// The seed a randomized test uses: `REDLINE_SEED` from the environment (to replay a failure), else
    /// `fallback` (fixed, so every run checks the same cases).
    public static func seed(default fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["REDLINE_SEED"].flatMap { UInt64($0) } ?? fallback
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

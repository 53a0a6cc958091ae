import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// FNV-1a, 64 bits: a hash that is the same on every machine and in every run (unlike `Hasher`), for
/// sharding and for recognising unchanged inputs. Not a cryptographic hash.
public struct StableHash: Sendable {
    /// The hash so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    /// Mixes in `bytes`.
    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var h = value
        for b in bytes {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01b3
        }
        value = h
    }

    /// Mixes in the UTF-8 of `string` and a separator, so ("ab","c") and ("a","bc") differ.
    public mutating func combine(_ string: String) {
        var s = string
        s.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(0)) { combine($0) }
    }

    /// The value as 16 hex digits.
    public var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The hash of `string`.
    public static func of(_ string: String) -> UInt64 {
        var h = StableHash()
        h.combine(string)
        return h.value
    }

    /// The hash of a file's content, read in 256 KiB pieces.
    public static func ofFile(_ path: String) throws -> StableHash {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw RedlineError.io("cannot open the file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var h = StableHash()
        var buffer = [UInt8](unsafeUninitializedCapacity: 1 << 18) { _, count in count = 1 << 18 }  // only what is read is used
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw RedlineError.io("cannot read the file: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return h }
            buffer.withUnsafeBytes { h.combine(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
    }
}

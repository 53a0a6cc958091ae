/// SHA-256 (FIPS 180-4), streaming: the content hash that names a picture in a `MediaStore`.
/// Foundation on Linux has no digest API and Redline takes no crypto dependency for one hash.
struct SHA256 {
    private var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    private var block: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    init() { block.reserveCapacity(64) }

    mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) != nil { return }
        Array(bytes).withUnsafeBytes { update($0) }
    }

    /// Hashes `bytes`: whole 64-byte blocks straight from the buffer, the rest kept for the next call.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var i = 0
        if !block.isEmpty {
            let take = min(64 - block.count, bytes.count)
            block.append(contentsOf: bytes[0..<take])
            i = take
            if block.count == 64 {
                block.withUnsafeBytes { compress($0.baseAddress!) }
                block.removeAll(keepingCapacity: true)
            }
        }
        while i + 64 <= bytes.count {
            compress(bytes.baseAddress! + i)
            i += 64
        }
        if i < bytes.count { block.append(contentsOf: bytes[i...]) }
    }

    /// The digest as 64 lowercase hex digits.
    mutating func hexDigest() -> String {
        let bits = length &* 8
        block.append(0x80)
        if block.count > 56 {
            while block.count < 64 { block.append(0) }
            block.withUnsafeBytes { compress($0.baseAddress!) }
            block.removeAll(keepingCapacity: true)
        }
        while block.count < 56 { block.append(0) }
        for i in (0..<8).reversed() { block.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        block.withUnsafeBytes { compress($0.baseAddress!) }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for word in h {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int(word >> UInt32(shift) & 15)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The message schedule, kept between blocks (no allocation per block).
    private var w = [UInt32](repeating: 0, count: 64)

    private mutating func compress(_ p: UnsafeRawPointer) {
        for i in 0..<16 { w[i] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
        for i in 0..<64 {
            let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ Self.k[i] &+ w[i]
            let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
            hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }
}

/// Content hashes for pictures (and tests that compare them).
public enum ContentHash {
    /// The SHA-256 of `bytes` as 64 lowercase hex digits.
    public static func sha256<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var h = SHA256()
        h.update(bytes)
        return h.hexDigest()
    }
}

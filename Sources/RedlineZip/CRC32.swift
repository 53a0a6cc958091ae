/// CRC-32 (IEEE 802.3, as zip uses), computed over the inflated bytes of an entry so a damaged stored
/// entry is refused instead of converted (libzip does not check stored entries).
///
/// Slicing-by-8: eight bytes a step through eight tables (table k gives the CRC of a byte followed by k
/// zero bytes), instead of one table lookup and shift per byte. See PERFORMANCE.md.
struct CRC32 {
    private(set) var value: UInt32 = 0

    /// `tables[k * 256 + n]`: table 0 is the classic byte table; table k extends table k-1 by a zero byte.
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let prev = t[(k - 1) * 256 + n]
                t[k * 256 + n] = t[Int(prev & 0xFF)] ^ (prev >> 8)
            }
        }
        return t
    }()

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var c = ~value
        let n = bytes.count
        Self.tables.withUnsafeBufferPointer { t in
            var i = 0
            while i &+ 8 <= n {
                let lo = c ^ (UInt32(bytes[i]) | UInt32(bytes[i &+ 1]) << 8 | UInt32(bytes[i &+ 2]) << 16
                              | UInt32(bytes[i &+ 3]) << 24)
                let hi = UInt32(bytes[i &+ 4]) | UInt32(bytes[i &+ 5]) << 8 | UInt32(bytes[i &+ 6]) << 16
                    | UInt32(bytes[i &+ 7]) << 24
                c = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i &+= 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
                i &+= 1
            }
        }
        value = ~c
    }

}

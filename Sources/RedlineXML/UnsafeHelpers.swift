@preconcurrency internal import CLibXML2

// RedlineXML's raw-pointer helpers for libxml2's strings, each with the argument why its pointer use is
// sound. The SAX callbacks' own pointer work (the parser's user data, the attribute and text pointers libxml2
// passes) stays in XMLEvents.swift and XMLChunkParser.swift, with comments there; helpers shared with other
// modules are in RedlineCore/BuildingBlocks/UnsafeHelpers.swift.

/// The slot of an interned libxml2 string in a direct-mapped table of `1 << bits` slots: the top `bits` bits
/// of the pointer's Fibonacci hash. One definition for both tables (`InternedNumbers`, `XMLReader.localName`),
/// so a table's size and the shift cannot disagree.
///
/// Safety: `index` reads the pointer's bits only, never what it points to. A table made by `table(bits:)`
/// has `count(bits:)` slots, every one initialized (to no string, -1), and `index` is below that count (it
/// keeps the top `bits` bits), so a slot read or written through it is in bounds; its owner deallocates it
/// once, in its `deinit`, and no slot's pointer is kept past that. The strings a slot points to are the
/// parser's interned names, which live as long as its dictionary (`NameDictionary`, which the reader keeps).
enum PointerSlot {
    @inline(__always)
    static func index(_ p: UnsafePointer<xmlChar>, bits: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: p) &* 0x9E37_79B9_7F4A_7C15) >> UInt(UInt.bitWidth - bits))
    }

    /// The number of slots of a table indexed with `bits` bits.
    static func count(bits: Int) -> Int {
        assert(bits > 0 && bits < 16, "a slot table of 2^\(bits) entries")
        return 1 << bits
    }

    /// A new table of `count(bits:)` slots, each holding no string and -1; the caller deallocates it.
    static func table(bits: Int) -> UnsafeMutablePointer<(UnsafePointer<xmlChar>?, Int32)> {
        let count = count(bits: bits)
        let slots = UnsafeMutablePointer<(UnsafePointer<xmlChar>?, Int32)>.allocate(capacity: count)
        slots.initialize(repeating: (nil, -1), count: count)
        return slots
    }
}

/// The bytes of the NUL-terminated libxml2 string `p`, without the NUL.
///
/// Safety: `xmlStrlen` counts up to the NUL that ends every string libxml2 hands out, so the buffer covers
/// the string's own bytes and no more. It is valid as long as `p` is: a caller copies the bytes (into an
/// arena or an output buffer) before the callback or the parser's dictionary that owns `p` is gone, and
/// keeps no buffer.
@inline(__always)
func xmlStringBytes(_ p: UnsafePointer<xmlChar>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: p, count: Int(xmlStrlen(p)))
}

/// Emptying a buffer that is reused from one paragraph (or block) to the next: it keeps its capacity only
/// up to `keptCapacity` elements. A huge paragraph's buffer is freed, not held for the rest of the document
/// while the next stages work on that paragraph (PERFORMANCE.md, "Small runs"; `ReusableBufferTests`).
public enum ReusableBuffer {
    /// The most elements an emptied buffer keeps room for.
    public static let keptCapacity = 16_384

    /// Empties `buffer`, keeping its storage unless it is larger than `keptCapacity` elements.
    public static func empty<T>(_ buffer: inout [T]) {
        if buffer.capacity > keptCapacity { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
    }
}

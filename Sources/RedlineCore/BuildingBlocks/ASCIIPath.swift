/// Splitting an all-ASCII path or URI at `/` (and `\`) over its UTF-8 bytes, for the names every package
/// part has (zip entry names, relationship types and targets), where `String.split` walks Characters at
/// several thousand instructions a name. For ASCII text each Character is one byte (CR LF, the one
/// two-byte Character, holds no separator), so the pieces are exactly those `split` gives; for any other
/// text these return nil and the caller splits as before (PERFORMANCE.md, "Compare batches").
public enum ASCIIPath {
    /// `s.split(separator: "/", omittingEmptySubsequences: omittingEmpty)` when `s` is all ASCII, else nil.
    @inlinable
    public static func components(_ s: String, omittingEmpty: Bool) -> [Substring]? {
        pieces(s, omittingEmpty: omittingEmpty) { $0 == UInt8(ascii: "/") }
    }

    /// `s.split(separator: separator, omittingEmptySubsequences: omittingEmpty)` when `s` is all ASCII (and
    /// `separator` an ASCII character), else nil.
    @inlinable
    public static func components(_ s: String, separator: Character, omittingEmpty: Bool) -> [Substring]? {
        guard let b = separator.asciiValue else { return nil }
        return pieces(s, omittingEmpty: omittingEmpty) { $0 == b }
    }

    /// `s.split(omittingEmptySubsequences: omittingEmpty) { $0 == "/" || $0 == "\\" }` when `s` is all ASCII,
    /// else nil.
    @inlinable
    public static func componentsEitherSlash(_ s: String, omittingEmpty: Bool) -> [Substring]? {
        pieces(s, omittingEmpty: omittingEmpty) { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }
    }

    /// True when every byte of `s` is ASCII.
    @inlinable
    public static func isASCII(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { b in b.allSatisfy { $0 < 0x80 } }
    }

    @inlinable
    static func pieces(_ s: String, omittingEmpty: Bool, isSeparator: (UInt8) -> Bool) -> [Substring]? {
        guard isASCII(s) else { return nil }
        let utf8 = s.utf8
        var out: [Substring] = []
        var start = utf8.startIndex
        var i = start
        while i != utf8.endIndex {
            if isSeparator(utf8[i]) {
                if !(omittingEmpty && start == i) { out.append(s[start..<i]) }
                start = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        if !(omittingEmpty && start == utf8.endIndex) { out.append(s[start...]) }
        return out
    }
}

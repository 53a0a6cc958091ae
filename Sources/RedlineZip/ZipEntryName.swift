import RedlineCore

/// Checks on zip entry names, which come from untrusted input.
public enum ZipEntryName {
    /// True when `name` is a relative path that stays inside the archive: not empty, not absolute
    /// (`/x`, `\x`, `C:x`), no `..` component (with `/` or `\` as separator), no NUL.
    public static func isSafe(_ name: String) -> Bool {
        // Nearly every name is ASCII: the same checks over its bytes (a Character is a byte there).
        if let parts = ASCIIPath.componentsEitherSlash(name, omittingEmpty: false) {
            let u = name.utf8
            guard let first = u.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "\\"), !u.contains(0) else { return false }
            if u.count >= 2, u[u.index(after: u.startIndex)] == UInt8(ascii: ":"),
               (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20) { return false }
            return !parts.contains("..")
        }
        if name.isEmpty || name.hasPrefix("/") || name.hasPrefix("\\") || name.contains("\0") { return false }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return false }
        let parts = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
        return !parts.contains("..")
    }
}

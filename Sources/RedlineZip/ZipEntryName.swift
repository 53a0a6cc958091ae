/// Checks on zip entry names, which come from untrusted input.
public enum ZipEntryName {
    /// True when `name` is a relative path that stays inside the archive: not empty, not absolute
    /// (`/x`, `\x`, `C:x`), no `..` component (with `/` or `\` as separator), no NUL.
    public static func isSafe(_ name: String) -> Bool {
        if name.isEmpty || name.hasPrefix("/") || name.hasPrefix("\\") || name.contains("\0") { return false }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return false }
        let parts = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
        return !parts.contains("..")
    }
}

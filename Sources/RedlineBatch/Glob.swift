#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RedlineCore
import RedlineConversion
import RedlineCompare

/// A shell-style path pattern for `--include`/`--exclude`: `*`, `?` and `[...]` within one path
/// component, `**` across any number of components. A pattern without `/` matches a file's name in any
/// directory (`*.docx`); a pattern with `/` matches the path relative to the input directory
/// (`drafts/**/*.md`).
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let components: [String]
    private let anchored: Bool

    /// Parses `pattern` (a leading `./` or `/` is ignored; a trailing `/` means "everything under").
    public init(_ pattern: String) {
        self.pattern = pattern
        var p = Substring(pattern)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        while p.hasPrefix("/") { p = p.dropFirst() }
        var parts = p.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if p.hasSuffix("/") { parts.append("**") }
        anchored = p.contains("/")
        components = parts.isEmpty ? ["**"] : parts
    }

    public var description: String { pattern }

    /// True when `relativePath` (components separated by `/`) matches.
    public func matches(_ relativePath: String) -> Bool {
        let path = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if anchored { return Self.match(components[...], path[...]) }
        guard let name = path.last else { return false }
        return Self.match(components[...], [name][...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            var p = path
            while true {
                if match(rest, p) { return true }
                if p.isEmpty { return false }
                p = p.dropFirst()
            }
        }
        guard let name = path.first, fnmatch(first, name, 0) == 0 else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }
}

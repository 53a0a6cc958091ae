import Foundation
import RedlineCore

/// The directory a server's tools may work in. Every path a tool is given is resolved against it (relative
/// paths from the root, `..` and symbolic links resolved) and refused when the result lies outside it.
public struct ToolRoot: Sendable {
    /// The root, absolute and with every symbolic link resolved.
    public let path: String

    /// The root `directory` (which must exist and be a directory).
    public init(_ directory: String) throws {
        guard let real = Self.realPath(directory) else { throw ToolError("root '\(directory)': no such directory") }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDir), isDir.boolValue else {
            throw ToolError("root '\(directory)' is not a directory")
        }
        path = real
    }

    /// An existing file to read: resolved, inside the root, a regular file.
    public func input(_ given: String, argument: String = "path") throws -> String {
        guard !given.isEmpty else { throw ToolError("'\(argument)' is empty") }
        guard !given.utf8.contains(0) else { throw ToolError("'\(argument)' contains a NUL byte") }
        let joined = absolute(given)
        guard let real = Self.realPath(joined) else { throw ToolError("\(short(given)): no such file") }
        try requireInside(real, given: given)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDir), !isDir.boolValue,
              DocumentInput.isRegularFile(real) else {
            throw ToolError("\(short(given)): not a regular file")
        }
        return real
    }

    /// A file to write: its directory must exist inside the root; an existing file there (or the file a
    /// symbolic link there points to) must be inside the root too. Returns the path writes go to.
    public func output(_ given: String, argument: String = "output") throws -> String {
        guard !given.isEmpty else { throw ToolError("'\(argument)' is empty") }
        guard !given.utf8.contains(0) else { throw ToolError("'\(argument)' contains a NUL byte") }
        let joined = absolute(given)
        let name = (joined as NSString).lastPathComponent
        guard !name.isEmpty, name != ".", name != "..", !joined.hasSuffix("/") else {
            throw ToolError("\(short(given)): not a file name")
        }
        let parent = (joined as NSString).deletingLastPathComponent
        guard let realParent = Self.realPath(parent) else { throw ToolError("\(short(given)): no such directory") }
        try requireInside(realParent, given: given)
        let target = realParent + "/" + name
        var st = stat()
        if lstat(target, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFLNK {
                // A link is followed by the writer: where it points must be inside too (and exist).
                guard let real = Self.realPath(target) else {
                    throw ToolError("\(short(given)): a symbolic link to a missing file")
                }
                try requireInside(real, given: given)
                return real
            }
            if (st.st_mode & S_IFMT) == S_IFDIR { throw ToolError("\(short(given)): is a directory") }
        }
        return target
    }

    /// The path as the root sees it (for messages): relative to the root.
    public func display(_ real: String) -> String {
        if real == path { return "." }
        if real.hasPrefix(path + "/") { return String(real.dropFirst(path.count + 1)) }
        return real
    }

    /// A path as messages quote it (at most 200 characters).
    private func short(_ given: String) -> String {
        given.count > 200 ? String(given.prefix(197)) + "..." : given
    }

    private func absolute(_ given: String) -> String {
        given.hasPrefix("/") ? given : path + "/" + given
    }

    private func requireInside(_ real: String, given: String) throws {
        guard real == path || real.hasPrefix(path == "/" ? "/" : path + "/") else {
            throw ToolError("\(short(given)): outside the root directory (\(path)); tools only work on files under it")
        }
    }

    /// `realpath(3)`: absolute, `.`/`..` and every symbolic link resolved; nil when the path does not exist.
    static func realPath(_ p: String) -> String? {
        guard let r = realpath(p, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }
}

/// A tool's failure, reported to the client as a tool result with `isError` (never a protocol error).
public struct ToolError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

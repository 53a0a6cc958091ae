import Foundation
import RedlineCore

/// A `.scriv` folder on disk: where its binder is, and the only way to read its files. Every path is built
/// from checked names and resolved (symbolic links included) before use; nothing outside the folder is read.
public struct ProjectFolder: Sendable {
    /// The folder, with symbolic links resolved.
    public let root: String
    /// The binder file (`*.scrivx`) inside it.
    public let binderPath: String
    /// The project's name: the folder's name without `.scriv`.
    public let name: String

    /// Largest binder read (bytes).
    public static let maxBinderBytes = Limits.maxScrivenerFileBytes
    /// Largest text, notes or comments file read (bytes).
    public static let maxFileBytes = Limits.maxScrivenerFileBytes

    /// Finds the binder of the project at `path` (the `.scriv` folder, or its `.scrivx` file).
    /// Throws a `RedlineError` when there is no folder or no binder in it.
    public init(path: String, diagnostics: Diagnostics) throws {
        var folder = path
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        if folder.lowercased().hasSuffix(".scrivx") { folder = (folder as NSString).deletingLastPathComponent }
        if folder.isEmpty { folder = "." }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir) else {
            throw RedlineError.io("\(path): no such project folder")
        }
        guard isDir.boolValue else {
            throw RedlineError.unsupported("\(path): not a Scrivener project (a .scriv project is a folder)")
        }
        guard let real = Self.realPath(folder) else { throw RedlineError.io("\(path): cannot open the project folder") }
        root = real
        let base = (real as NSString).lastPathComponent
        let projectName = base.lowercased().hasSuffix(".scriv") ? String(base.dropLast(6)) : base
        name = projectName

        let entries = (try? FileManager.default.contentsOfDirectory(atPath: real)) ?? []
        let binders = entries.filter { $0.lowercased().hasSuffix(".scrivx") && !$0.hasPrefix(".") }.sorted()
        guard !binders.isEmpty else {
            throw RedlineError.malformed("\(path): no .scrivx binder in the folder; is this a Scrivener project?")
        }
        let chosen = binders.first { $0.dropLast(7) == projectName } ?? binders[0]
        if binders.count > 1 {
            diagnostics.report(.scrivenerSeveralBinders,
                               "the project folder holds \(binders.count) binders; read \(chosen)")
        }
        guard let file = Self.contained(real + "/" + chosen, in: real) else {
            throw RedlineError.malformed("\(path): the binder \(chosen) leads outside the project folder")
        }
        binderPath = file
    }

    /// True when `id` can name a file: letters, digits and hyphens only (a UUID or a Scrivener 2 number).
    public static func isSafeID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D
        }
    }

    /// The existing regular file at `relative` (components joined by "/", each a checked name), resolved;
    /// nil when it does not exist. Reports and returns nil when it resolves outside the project.
    public func file(_ relative: String, diagnostics: Diagnostics) -> String? {
        let path = root + "/" + relative
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else { return nil }
        guard let resolved = Self.contained(path, in: root) else {
            diagnostics.report(.scrivenerOutsideProject, "\(relative) leads outside the project folder; not read")
            return nil
        }
        return resolved
    }

    /// The existing directory at `relative`, resolved and inside the project; nil otherwise.
    public func directory(_ relative: String, diagnostics: Diagnostics) -> String? {
        let path = root + "/" + relative
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return nil }
        guard let resolved = Self.contained(path, in: root) else {
            diagnostics.report(.scrivenerOutsideProject, "\(relative) leads outside the project folder; not read")
            return nil
        }
        return resolved
    }

    /// Reads a whole file found by `file(_:diagnostics:)`, refusing files over `maxFileBytes`.
    public static func read(_ path: String, limit: Int = maxFileBytes) throws -> [UInt8] {
        guard let h = FileHandle(forReadingAtPath: path) else { throw RedlineError.io("cannot open \(path)") }
        defer { try? h.close() }
        do {
            let data = try h.read(upToCount: limit + 1) ?? Data()
            if data.count > limit {
                throw RedlineError.limit("\(path) is larger than \(limit >> 20) MB")
            }
            return [UInt8](data)
        } catch let e as RedlineError {
            throw e
        } catch {
            throw RedlineError.io("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// True when `path` (which need not exist yet) lies inside the project folder, links resolved: an output
    /// there would change the project.
    public func contains(_ path: String) -> Bool {
        var existing = (path as NSString).standardizingPath
        if !existing.hasPrefix("/") { existing = FileManager.default.currentDirectoryPath + "/" + existing }
        var rest: [String] = []
        while Self.realPath(existing) == nil, existing != "/", !existing.isEmpty {
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        let real = ([Self.realPath(existing) ?? existing] + rest).joined(separator: "/")
        return real == root || real.hasPrefix(root + "/")
    }

    /// `path` with symbolic links resolved, when that lies inside `root` (or is `root`); nil otherwise.
    static func contained(_ path: String, in root: String) -> String? {
        guard let real = realPath(path) else { return nil }
        return real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/") ? real : nil
    }

    /// The canonical absolute path (symbolic links, `.` and `..` resolved); nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}

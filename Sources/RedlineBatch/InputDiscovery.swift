import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// One input of a batch: where to read it and where it sits in the tree the outputs mirror.
public struct BatchInput: Sendable, Hashable {
    /// The path to open.
    public var path: String
    /// The path the output mirrors, relative to the output directory (before the extension changes).
    public var relativePath: String
    /// Size in bytes (0 when unknown).
    public var size: Int64
    /// Why this input cannot be converted, found while looking for it (missing, not a regular file,
    /// an unreadable directory). The batch reports it as a failure and carries on.
    public var problem: RedlineError?
    /// A compare batch's pairing: this input is NEW and `.old(path)` its OLD version, or it was found on
    /// one side only. nil in a conversion batch.
    public var pair: ComparePairing?

    public init(path: String, relativePath: String, size: Int64 = 0, problem: RedlineError? = nil,
                pair: ComparePairing? = nil) {
        self.path = path
        self.relativePath = relativePath
        self.size = size
        self.problem = problem
        self.pair = pair
    }
}

/// How an input of a compare batch is paired (by relative path without extension).
public enum ComparePairing: Sendable, Hashable, Codable {
    /// The input is NEW; OLD is at this path.
    case old(String)
    /// The input is in the OLD tree only.
    case onlyOld
    /// The input is in the NEW tree only.
    case onlyNew
}

/// Which files a batch converts: files and directories named on the command line, a manifest, and
/// include/exclude globs for what is found inside directories.
///
/// - A file named on the command line is always taken; its output takes its name (`ch/01.docx` →
///   `OUT/01.md`), as `cp` would.
/// - A file named in the manifest is always taken; its output mirrors the path as the manifest writes it
///   when that is relative and does not climb out with `..` (`ch/01.docx` → `OUT/ch/01.md`), else takes
///   its name.
/// - A directory is walked recursively (hidden entries and symbolic links to directories are skipped);
///   a file found inside is taken when it matches an `include` glob (by default: any extension a
///   registered reader knows) and no `exclude` glob; its output mirrors its path below the directory.
/// - A manifest lists one path per line (blank lines and `#` comments ignored); relative paths are
///   relative to the manifest's directory; `-` reads the list from standard input.
public struct InputSelection: Sendable {
    /// Files and directories named on the command line.
    public var paths: [String]
    /// A file listing inputs (`-`: standard input).
    public var manifest: String?
    /// Globs a file found in a directory must match (empty: any readable extension).
    public var include: [Glob]
    /// Globs that leave out files found in directories.
    public var exclude: [Glob]
    /// Directories that are never entered (the output directory, when it lies inside an input directory).
    public var skipDirectories: [String]
    /// Whether a file found in a directory is taken when no include glob is given.
    public var isCandidate: @Sendable (String) -> Bool

    public init(paths: [String], manifest: String? = nil, include: [Glob] = [], exclude: [Glob] = [],
                skipDirectories: [String] = [],
                isCandidate: @escaping @Sendable (String) -> Bool = { FormatRegistry.inferred(fromPath: $0)?.reader != nil }) {
        self.paths = paths
        self.manifest = manifest
        self.include = include
        self.exclude = exclude
        self.skipDirectories = skipDirectories
        self.isCandidate = isCandidate
    }

    /// Every input, sorted by relative path, each path once. Throws only when the manifest cannot be read.
    public func discover() throws -> [BatchInput] {
        var found: [BatchInput] = []
        let skip = Set(skipDirectories.map(Self.canonical))
        for p in paths { add(p, relativeTo: nil, manifest: false, into: &found, skip: skip) }
        if let manifest {
            let (lines, base) = try Self.readManifest(manifest)
            for l in lines { add(l, relativeTo: base, manifest: true, into: &found, skip: skip) }
        }
        var seen = Set<String>()
        return found
            .filter { seen.insert(Self.canonical($0.path)).inserted }
            .sorted { $0.relativePath < $1.relativePath }
    }

    /// A file or directory as named by the user.
    private func add(_ named: String, relativeTo base: String?, manifest: Bool, into found: inout [BatchInput], skip: Set<String>) {
        let path = base.map { named.hasPrefix("/") ? named : $0 + "/" + named } ?? named
        let rel = manifest ? Self.mirrorPath(named) : Self.fileName(named)
        var st = stat()
        guard stat(path, &st) == 0 else {
            found.append(BatchInput(path: path, relativePath: rel,
                                    problem: .io(String(cString: strerror(errno)))))
            return
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            walk(directory: path, prefix: "", into: &found, skip: skip)
        case S_IFREG:
            found.append(BatchInput(path: path, relativePath: rel, size: Int64(st.st_size)))
        default:
            found.append(BatchInput(path: path, relativePath: rel, problem: .io("not a regular file")))
        }
    }

    private func walk(directory: String, prefix: String, into found: inout [BatchInput], skip: Set<String>) {
        guard !skip.contains(Self.canonical(directory)) else { return }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            found.append(BatchInput(path: directory, relativePath: prefix.isEmpty ? "." : prefix,
                                    problem: .io("cannot list the directory: \(Self.reason(error))")))
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let rel = prefix.isEmpty ? name : prefix + "/" + name
            var lst = stat()
            guard lstat(path, &lst) == 0 else { continue }
            var st = lst
            if lst.st_mode & S_IFMT == S_IFLNK {
                guard stat(path, &st) == 0, st.st_mode & S_IFMT != S_IFDIR else { continue }
            }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                walk(directory: path, prefix: rel, into: &found, skip: skip)
            case S_IFREG:
                if wanted(rel) { found.append(BatchInput(path: path, relativePath: rel, size: Int64(st.st_size))) }
            default:
                if wanted(rel) {
                    found.append(BatchInput(path: path, relativePath: rel, problem: .io("not a regular file")))
                }
            }
        }
    }

    private func wanted(_ rel: String) -> Bool {
        let included = include.isEmpty ? isCandidate(rel) : include.contains { $0.matches(rel) }
        return included && !exclude.contains { $0.matches(rel) }
    }

    /// The manifest's lines and the directory its relative paths are relative to.
    static func readManifest(_ path: String) throws -> ([String], String?) {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: path) else {
                throw RedlineError.usage("cannot read the manifest \(path)")
            }
            data = d
        }
        let lines = String(decoding: data, as: UTF8.self)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let base = path == "-" ? nil : (path as NSString).deletingLastPathComponent
        return (lines, base.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The relative path an output mirrors for a file named by the user: the path itself when it is
    /// relative and does not climb out with `..`, else its last component.
    static func mirrorPath(_ named: String) -> String {
        let parts = named.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if named.hasPrefix("/") || parts.contains("..") || parts.isEmpty {
            return parts.last.map(String.init) ?? named
        }
        return parts.joined(separator: "/")
    }

    /// The last component of `path`.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// An absolute, symlink-free form of `path` for comparisons (the path itself when it does not exist).
    static func canonical(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return path }
        defer { free(r) }
        return String(cString: r)
    }

    static func reason(_ error: any Error) -> String {
        if let e = error as? CocoaError, let u = e.userInfo[NSUnderlyingErrorKey] as? POSIXError {
            return String(cString: strerror(u.code.rawValue))
        }
        return error.localizedDescription
    }
}

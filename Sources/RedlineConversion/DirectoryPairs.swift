import Foundation
import RedlineCore

/// Files of several directory trees paired by relative path without extension (`ch1.md` with `ch1.docx`), for
/// `apply` and `combine` over directories: ORIGINAL's tree decides which files there are.
public enum DirectoryPairs {
    /// One ORIGINAL file and its counterpart in each other tree (nil where a tree has none).
    public struct Pair: Sendable {
        /// The ORIGINAL's path relative to its tree.
        public var relative: String
        public var original: String
        public var others: [String?]
    }

    /// The files under `root` that Redline reads, relative paths sorted.
    public static func files(under root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var out: [String] = []
        while let rel = walker.nextObject() as? String {
            let name = (rel as NSString).lastPathComponent
            guard !name.hasPrefix("."), FormatRegistry.inferred(fromPath: rel)?.reader != nil else { continue }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + rel, isDirectory: &isDir), !isDir.boolValue { out.append(rel) }
        }
        return out.sorted()
    }

    static func stem(_ rel: String) -> String { (rel as NSString).deletingPathExtension }

    /// The ORIGINAL files of `original` that `accepts` takes, each with its counterparts in `others`.
    public static func pairs(original: String, others: [String], accepts: (Format) -> Bool) -> [Pair] {
        let byStem = others.map { dir -> [String: String] in
            var m: [String: String] = [:]
            for rel in files(under: dir) where m[stem(rel)] == nil { m[stem(rel)] = dir + "/" + rel }
            return m
        }
        return files(under: original).compactMap { rel in
            guard let f = FormatRegistry.inferred(fromPath: rel), accepts(f) else { return nil }
            return Pair(relative: rel, original: original + "/" + rel, others: byStem.map { $0[stem(rel)] })
        }
    }

    /// Whether `path` is a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var d: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &d) && d.boolValue
    }
}

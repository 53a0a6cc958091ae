import Foundation

/// Paths the tests need: the repository root, its Corpus, and the shared corpus beside the repository.
public enum RepositoryPaths {
    /// The repository root (three levels above this file: Tests/RedlineTestSupport/RepositoryPaths.swift).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `../shared/corpus` beside the repository.
    public static var sharedCorpus: String { root + "/../shared/corpus" }

    /// Extensions of documents (anything else under Corpus/ is a generator script or a note).
    public static let documentExtensions: Set<String> = ["md", "markdown", "docx", "rtf", "html", "doc", "odt", "txt"]

    /// Every golden-tested input under Corpus/<family>/ (sorted; `bad/`, `demo/` and `scrivener/` excluded).
    public static func corpusInputs() throws -> [String] {
        let base = root + "/Corpus"
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var out: [String] = []
        while let rel = walker.nextObject() as? String {
            let parts = rel.split(separator: "/")
            if parts.count == 1 && ["bad", "scrivener", "demo", "compare"].contains(String(parts[0])) {
                walker.skipDescendants()
                continue
            }
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: base + "/" + rel, isDirectory: &isDir)
            if isDir.boolValue || parts.count < 2 || parts.contains(where: { $0.hasPrefix(".") }) { continue }
            // Documents only: fixture generators (make-fixtures.py) and notes beside them are not inputs.
            let ext = (rel as NSString).pathExtension.lowercased()
            if !documentExtensions.contains(ext) { continue }
            out.append(base + "/" + rel)
        }
        return out.sorted()
    }
}

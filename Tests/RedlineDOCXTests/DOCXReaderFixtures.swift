import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import XCTest

/// The repository root, the shared corpus beside it, and small helpers for the DOCX tests.
enum Fixtures {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let corpus = URL(fileURLWithPath: RepositoryPaths.sharedCorpus).standardized

    static func bad(_ name: String) -> String { repo.appendingPathComponent("Corpus/bad/\(name)").path }
    static func shared(_ name: String) -> String { corpus.appendingPathComponent(name).path }

    /// Every DOCX under the shared corpus (relative paths, sorted).
    static func sharedDOCX() -> [String] {
        guard let e = FileManager.default.enumerator(atPath: corpus.path) else { return [] }
        return e.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".docx") }.sorted()
    }

    /// Reads a DOCX into a document.
    static func read(_ path: String, diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        var source = try DOCXReader().open(.file(path), options: ReadOptions(), diagnostics: diagnostics)
        return try Document(reading: &source)
    }

    /// The text of every paragraph, depth first (table cells and list items included).
    static func paragraphs(_ doc: Document) -> [String] {
        var out: [String] = []
        for b in doc.blocks { b.forEachParagraph { out.append($0.content.plainText) } }
        return out
    }
}

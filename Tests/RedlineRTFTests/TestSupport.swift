import Foundation
import RedlineCore
@testable import RedlineRTF

/// Paths and helpers shared by the RTF tests.
enum RTFTestSupport {
    /// The repository root (this file is Tests/RedlineRTFTests/TestSupport.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `<repo>/../shared/corpus`.
    static let corpus = URL(fileURLWithPath: RepositoryPaths.sharedCorpus).standardized

    static func corpusFile(_ relative: String) -> String { corpus.appendingPathComponent(relative).path }

    /// Every `.rtf` in the given corpus folders.
    static func corpusRTFs(_ folders: [String] = ["pandoc", "striprtf-kota7", "rtfparserkit", "RtfPipe"]) -> [String] {
        folders.flatMap { f -> [String] in
            let dir = corpus.appendingPathComponent(f)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.filter { $0.hasSuffix(".rtf") }.sorted().map { dir.appendingPathComponent($0).path }
        }
    }

    /// Reads RTF text.
    static func read(_ rtf: String, diagnostics: Diagnostics = Diagnostics(), reader: RTFReader = RTFReader()) throws -> Document {
        try reader.read(.bytes(Array(rtf.utf8)), diagnostics: diagnostics)
    }

    static func readFile(_ path: String, diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        try RTFReader().read(.file(path), diagnostics: diagnostics)
    }

    /// The document's text with every change shown, blocks separated by newlines.
    static func text(_ d: Document) -> String { d.blocks.map(\.plainText).joined(separator: "\n") }

    /// Whitespace-separated words.
    static func words(_ s: String) -> [String] { s.split(whereSeparator: { $0.isWhitespace }).map(String.init) }

    /// Where two values' descriptions first differ, with some context (for readable failures).
    static func difference<T>(_ a: T, _ b: T) -> String {
        let x = Array(String(describing: a).replacingOccurrences(of: "RedlineCore.", with: ""))
        let y = Array(String(describing: b).replacingOccurrences(of: "RedlineCore.", with: ""))
        var i = 0
        while i < x.count, i < y.count, x[i] == y[i] { i += 1 }
        let from = max(0, i - 150)
        return "got: …" + String(x[from..<min(x.count, i + 150)]) + "\nwant: …" + String(y[from..<min(y.count, i + 150)])
    }
}

import Foundation
import Redline

/// Test documents written as Markdown into a scratch directory and converted to any format Redline writes, and a
/// file read back as its paragraphs: what the apply and combine tests that run through every format share.
enum FormatFixtures {
    /// `markdown` as `format` at `dir/name.EXT` (the Markdown file itself for Markdown).
    static func file(_ markdown: String, _ name: String, as format: Format, in dir: String) throws -> String {
        let md = dir + "/\(name).md"
        try Data(markdown.utf8).write(to: URL(fileURLWithPath: md))
        guard !format.isSame(as: FormatRegistry.markdown) else { return md }
        let path = dir + "/\(name).\(format.name)"
        try Converter.convert(.file(md), toFile: path, options: ConversionOptions(from: FormatRegistry.markdown, to: format),
                              diagnostics: Diagnostics())
        return path
    }

    /// The paragraphs of `path` (in `format`) as Markdown under `review`, trimmed, empty ones left out.
    static func paragraphs(_ path: String, _ format: Format, _ review: ReviewOptions, in dir: String) throws -> [String] {
        let out = dir + "/view-\(UUID().uuidString.prefix(8)).md"
        try Converter.convert(.file(path), toFile: out,
                              options: ConversionOptions(from: format, to: FormatRegistry.markdown, review: review),
                              diagnostics: Diagnostics())
        return try String(contentsOfFile: out, encoding: .utf8)
            .components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}

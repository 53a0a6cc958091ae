import Foundation
import Redline

/// Prints warnings to standard error and, when asked, writes them as JSON.
public enum WarningReport {
    /// The JSON form: `{"input": ..., "warnings": [{code, severity, message, location, count}]}`.
    public struct FileWarnings: Codable, Sendable {
        public var input: String
        public var warnings: [Diagnostic]
    }

    /// Prints `diagnostics` for a person (`terminalLines`) unless `quiet`, and writes every one as JSON to `path`.
    /// `target` is the output format's name, for the folded line.
    public static func emit(_ diagnostics: [Diagnostic], for input: String, quiet: Bool, json path: String?,
                            target: String? = nil) throws {
        if !quiet {
            let text = terminalLines(diagnostics, target: target).map { "redline: \(input): \($0)\n" }.joined()
            if !text.isEmpty { FileHandle.standardError.write(Data(text.utf8)) }
        }
        if let path {
            let data = try jsonData(FileWarnings(input: input, warnings: diagnostics))
            try AtomicFile.write(to: path) { try $0.write(bytes: [UInt8](data) + [10]) }
        }
    }

    /// Formatting a target format cannot hold, by code, with the words the folded line uses: the expected
    /// losses of converting to a format with less formatting (and what `--keep-formatting` keeps in Markdown).
    public static let formattingLosses: [(code: DiagnosticCode, label: String)] = [
        ("lossy.paragraph-style", "paragraph styles"), ("lossy.alignment", "alignment"),
        ("lossy.paragraph-indent", "indents"), ("lossy.line-spacing", "line spacing"),
        ("lossy.paragraph-spacing", "paragraph spacing"), ("lossy.tab-stops", "tab stops"),
        ("lossy.font", "fonts"), ("lossy.font-size", "font sizes"), ("lossy.color", "colours"),
        ("lossy.background-color", "background colours"), ("lossy.highlight", "highlights"),
        ("lossy.caps", "caps"), ("lossy.character-style", "character styles"), ("lossy.list-spacing", "list spacing"),
    ]

    /// The lines a person reads on the terminal: what matters in full, one line each (text boxes, equations,
    /// dropped comments and changes, broken input, ...), then the expected formatting losses of the target
    /// folded into one line: `formatting Markdown cannot hold: paragraph styles ×29, alignment ×4; --keep-formatting keeps it`.
    /// (`--warnings-json` and batch reports keep every diagnostic as it is.)
    public static func terminalLines(_ diagnostics: [Diagnostic], target: String?) -> [String] {
        let labels = Dictionary(formattingLosses.map { ($0.code, $0.label) }, uniquingKeysWith: { a, _ in a })
        var lines: [String] = []
        var folded: [(label: String, count: Int, hint: Bool)] = []
        for d in diagnostics {
            if let label = labels[d.code], d.severity == .warning {
                folded.append((label, d.count, d.message.contains("--keep-formatting")))
            } else {
                lines.append(d.description)
            }
        }
        guard !folded.isEmpty else { return lines }
        let order = Dictionary(formattingLosses.enumerated().map { ($1.label, $0) }, uniquingKeysWith: { a, _ in a })
        let parts = folded.sorted { order[$0.label]! < order[$1.label]! }.map { $0.count > 1 ? "\($0.label) ×\($0.count)" : $0.label }
        var line = "warning: formatting \(displayName(target)) cannot hold: " + parts.joined(separator: ", ")
        if folded.contains(where: \.hint) { line += "; --keep-formatting keeps it" }
        lines.append(line)
        return lines
    }

    /// A format's name as a person says it.
    static func displayName(_ format: String?) -> String {
        guard let format else { return FormatRegistry.markdown.displayName }
        return FormatRegistry.named(format)?.displayName ?? format.uppercased()
    }

    /// Stable, pretty JSON (sorted keys).
    public static func jsonData(_ value: some Encodable) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try e.encode(value)
    }
}

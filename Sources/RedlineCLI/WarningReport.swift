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
                            target: String? = nil, verbose: Bool = false) throws {
        if !quiet {
            let lines = verbose ? diagnostics.map(\.description) : terminalLines(diagnostics, target: target)
            let text = lines.map { "redline: \(input): \($0)\n" }.joined()
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
        ("lossy.field", "fields"),
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

    /// The warnings of many parts of one run (a Scrivener project's binder items), one line per code in order of
    /// first appearance: its total count, how many parts, the first message, and up to `examples` parts (with
    /// their own message when it differs), then how many more: `-v` prints every part's lines instead, and the
    /// JSON outputs keep them all.
    ///
    ///     warning[lossy.font] ×40 in 12 items: fonts dropped — Draft / One; Draft / Two; Draft / Three; and 9 more
    public static func groupedLines(_ parts: [(place: String, diagnostics: [Diagnostic])], examples: Int = 3,
                                    noun: (one: String, many: String) = ("item", "items")) -> [String] {
        var order: [DiagnosticCode] = []
        var groups: [DiagnosticCode: [(place: String, diagnostic: Diagnostic)]] = [:]
        for part in parts {
            for d in part.diagnostics {
                if groups[d.code] == nil { order.append(d.code) }
                groups[d.code, default: []].append((part.place, d))
            }
        }
        return order.map { code in
            let group = groups[code]!
            let first = group[0].diagnostic
            if group.count == 1 { return "\(first.description) — \(group[0].place)" }
            let total = group.reduce(0) { $0 + $1.diagnostic.count }
            var line = "\(first.severity.rawValue)[\(code)] ×\(total) in \(group.count) \(noun.many): \(first.message) — "
            line += group.prefix(examples).map { e in
                e.diagnostic.message == first.message ? e.place : "\(e.place) (\(e.diagnostic.message))"
            }.joined(separator: "; ")
            if group.count > examples {
                let more = group.count - examples
                line += "; and \(more) more \(more == 1 ? noun.one : noun.many) (-v lists every one)"
            }
            return line
        }
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

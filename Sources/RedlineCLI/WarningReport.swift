import Foundation
import Redline

/// Prints warnings to standard error and, when asked, writes them as JSON.
public enum WarningReport {
    /// The JSON form: `{"input": ..., "warnings": [{code, severity, message, location, count}]}`.
    public struct FileWarnings: Codable, Sendable {
        public var input: String
        public var warnings: [Diagnostic]
    }

    public static func emit(_ diagnostics: [Diagnostic], for input: String, quiet: Bool, json path: String?) throws {
        if !quiet {
            for d in diagnostics {
                FileHandle.standardError.write(Data("redline: \(input): \(d)\n".utf8))
            }
        }
        if let path {
            let data = try jsonData(FileWarnings(input: input, warnings: diagnostics))
            try AtomicFile.write(to: path) { try $0.write(bytes: [UInt8](data) + [10]) }
        }
    }

    /// Stable, pretty JSON (sorted keys).
    public static func jsonData(_ value: some Encodable) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try e.encode(value)
    }
}

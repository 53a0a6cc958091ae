import Foundation
import Redline

/// Writes a model in a format and reads it back, in memory: the helpers the page, field and text-box tests share.
enum ModelRoundTrip {
    /// `doc` written as `format` (`keepFormatting`: `--keep-formatting`).
    static func write(_ doc: Document, _ format: Format, keepFormatting: Bool = false,
                      diagnostics: Diagnostics = Diagnostics()) throws -> [UInt8] {
        let out = MemoryOutput()
        var options = WriteOptions()
        options.preserveFormatting = keepFormatting
        try Converter.write(doc, format: format, to: out, options: options, diagnostics: diagnostics)
        return out.bytes
    }

    /// `bytes` read as `format`.
    static func read(_ bytes: [UInt8], _ format: Format, diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        try Converter.read(.bytes(bytes), format: format, diagnostics: diagnostics)
    }
}

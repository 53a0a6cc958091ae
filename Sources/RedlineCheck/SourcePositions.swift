import Foundation
import RedlineMarkdown
import RedlineCore
import RedlineConversion
import RedlineBatch

/// Source positions for `check` findings in text formats, so CI annotations land on the line.
enum SourcePositions {
    /// The marks of a Markdown (CriticMarkup) file; nil for other formats, or when it cannot be read
    /// (the check then reports paragraphs only; reading errors are the reader's to report).
    static func marks(of path: String, format: Format) -> MarkPositions? {
        guard format.reader is MarkdownReader, let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? MarkPositions(scanning: [UInt8](data))
    }
}

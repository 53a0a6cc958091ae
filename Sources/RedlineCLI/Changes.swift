import ArgumentParser
import Foundation
import Redline

extension RedlineCommand {
    /// `redline changes FILE`: the tracked changes and comments of a document, one per line.
    public struct Changes: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "changes",
            abstract: "List the tracked changes and comments of a DOCX, RTF or CriticMarkup document.",
            discussion: """
            One row per change as a reader sees it: an insertion, a deletion, a
            substitution (a deletion directly followed by an insertion by the same
            author), a move (both places in one row), a split or join (an inserted
            or deleted paragraph mark), formatting; and one per comment, with the
            text it is on (anchor) and its body. Each row gives the id(s) that
            --accept/--reject id= take to decide it, the author, date, story
            (body, footnote 3, header1, comment 4...), paragraph number and the
            heading above. Text is shortened in the table, in full in JSON and
            CSV. The count is the review page's and check's.
              redline changes draft.docx
              redline changes draft.docx --format csv > changes.csv
              redline convert draft.docx -o out.docx --accept id=3,7
            """)

        @Argument(help: "The document, or - for standard input (then name its format with --from).")
        public var input: String

        @Option(help: "Input format (default: from the extension).")
        public var from: String?

        @Option(help: "Listing format: text, json or csv.")
        public var format: String = "text"

        public init() {}

        public func run() throws {
            guard ["text", "json", "csv"].contains(format) else {
                throw RedlineError.usage("--format: expected text, json or csv, not '\(format)'")
            }
            let f = try ConversionFlags.format(named: from, path: input, fallback: input == "-" ? "md" : nil)
            let source: DocumentInput
            if input == "-" {
                source = .bytes([UInt8](FileHandle.standardInput.readDataToEndOfFile()))
            } else {
                guard FileManager.default.fileExists(atPath: input) else { throw RedlineError.io("\(input): no such file") }
                source = .file(input)
            }
            let rows: [ChangeRow]
            do {
                rows = try ChangeListing.rows(source, format: f)
            } catch let e as RedlineError {
                throw RedlineError(e.kind, "\(source.displayName): \(e.message)")
            }
            FileHandle.standardOutput.write(Data(try ChangeListing.render(rows, as: format).utf8))
        }
    }
}

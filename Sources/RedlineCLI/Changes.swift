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
            One line per tracked change and per comment: id, kind, author, date, story (body, footnote 3,
            header1, comment 4...), paragraph number and the heading above, the text before and after
            (shortened); for comments the commented text, the comment, the comment it replies to and
            whether it is resolved. The ids are the ones --accept/--reject id=N select. DOCX ids are the
            document's w:id; RTF and CriticMarkup changes are numbered in reading order.
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
            let items: [ChangeListItem]
            do {
                items = try ChangeListing.list(source, format: f)
            } catch let e as RedlineError {
                throw RedlineError(e.kind, "\(source.displayName): \(e.message)")
            }
            FileHandle.standardOutput.write(Data(try ChangeListing.render(items, as: format).utf8))
        }
    }
}

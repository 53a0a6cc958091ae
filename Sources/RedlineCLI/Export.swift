import ArgumentParser
import Foundation
import Redline

extension RedlineCommand {
    /// `redline export`: the clean, original and marked versions of each input, from one parse.
    public struct Export: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the clean, original and marked versions of documents, reading each once.",
            discussion: """
            For each input, writes into DIR (mirroring the input tree, as convert does):
              NAME.clean.EXT     every tracked change accepted, comments dropped
              NAME.original.EXT  every tracked change rejected, comments dropped
              NAME.marked.EXT    changes and comments kept
            --names renames the three (in that order); an empty name writes that \
            version as NAME.EXT. --accept/--reject filters resolve the changes they \
            select in the marked version (the others stay marked); --comments and \
            --drop-comments apply to all three.
            Examples:
              redline export draft.docx --to md -o versions/
              redline export drafts/ --to docx -o versions/ --names ok,was,review
            Takes the batch options of convert (--manifest, --include, --exclude, \
            --jobs, --report, --overwrite, --skip-existing, --shard).

            Exit status: 0 every input exported, 1 an input failed, 2 usage error.
            """)

        @Argument(help: "Input files or directories.")
        public var inputs: [String] = []

        @Option(name: .shortAndLong, help: "The output directory.")
        public var output: String

        @Option(name: [.customShort("f"), .long], help: "Input format (default: from each input's extension).")
        public var from: String?

        @Option(name: [.customShort("t"), .long], help: "Output format: md, docx, rtf, html, pdf... (default: md).")
        public var to: String = "md"

        @Flag(name: [.customShort("s"), .long], help: "Accepted for pandoc compatibility: HTML output is always a standalone page.")
        public var standalone = false

        @Option(help: ArgumentHelp("Names of the clean, original and marked versions.", valueName: "clean,original,marked"))
        public var names: String = "clean,original,marked"

        @OptionGroup public var review: ReviewFlags

        @OptionGroup public var formatting: FormattingFlags

        @Option(name: .customLong("warnings-json"), help: "Also write every input's warnings as JSON to this file.")
        public var warningsJSON: String?

        @Flag(name: .shortAndLong, help: "No progress; print only failures and the summary.")
        public var quiet = false

        @OptionGroup public var batch: BatchFlags

        public init() {}

        public func run() throws {
            let from = try from.map { try ConversionFlags.format(named: $0, path: nil, fallback: nil) }
            let to = try ConversionFlags.format(named: to, path: nil, fallback: nil)
            let suffixes = names.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let variants = try OutputVariant.threeWay(suffixes: suffixes, review: review.review)
            try batch.run(inputs: inputs, output: output, from: from, to: to, variants: variants, write: formatting.writeOptions,
                          quiet: quiet, warningsJSON: warningsJSON, strictFilters: review.strictFilters)
        }
    }
}

import ArgumentParser
import Foundation
import Redline

extension RedlineCommand {
    /// `redline convert`: one document from one format to another, or many into a directory.
    public struct Convert: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert a document, or many documents into a directory.",
            discussion: """
            Formats come from the extensions unless --from/--to name them (pandoc's names \
            too: markdown, commonmark, gfm, html5...); '-' or no input is standard input, \
            '-' or no -o standard output.
            Examples:
              redline convert draft.docx -o draft.md      # changes as CriticMarkup
              redline convert draft.docx -o clean.md --changes accept
              redline convert notes.md -o notes.docx --paragraph-style scrivener

            Batch: several inputs, directories (recursive) or --manifest, with -o DIR. \
            Outputs mirror the input tree under DIR: a file named directly lands as \
            DIR/NAME, a directory's files keep their path below it, a manifest's \
            relative paths are kept as written. Inputs convert independently in \
            --jobs worker processes; a failed input never stops the others, and \
            an input that crashes Redline is reported failed ("crashed: signal \
            N while converting X") while the rest convert; one still converting \
            after --timeout seconds (default: the larger of 600 s and 10 s per \
            MiB of input) is killed and reported failed ("timed out: ...").
              redline convert manuscripts/ -o out/ --report report.jsonl
              redline convert --manifest list.txt -o out/ --to docx --skip-existing
              redline convert archive/ -o out/ --include '*.docx' --shard 2/8
            Existing outputs stop the batch before anything is written, unless \
            --overwrite (replace them) or --skip-existing (keep those whose input \
            and options are unchanged: an interrupted batch resumes where it \
            stopped). Outputs are written to a temporary file, renamed into place.

            Exit status: 0 every input converted (or up to date), 1 an input \
            failed, 2 usage error.
            """)

        @Argument(help: "Input files or directories, or - for standard input.")
        public var inputs: [String] = []

        @Option(name: .shortAndLong, help: "The output file, or - for standard output (default); with several inputs, a directory.")
        public var output: String = "-"

        @OptionGroup public var flags: ConversionFlags

        @OptionGroup public var batch: BatchFlags

        public init() {}

        /// No input and no manifest: standard input, as pandoc reads it (`cat x.md | redline convert -t docx -o x.docx`).
        public mutating func validate() throws {
            if inputs.isEmpty && batch.manifest == nil { inputs = ["-"] }
        }

        /// True when this is a batch (several inputs, a directory, a manifest, or an output directory).
        var isBatch: Bool {
            inputs.count != 1 || batch.manifest != nil || inputs.contains { BatchFlags.isDirectory($0) }
                || (output != "-" && (output.hasSuffix("/") || BatchFlags.isDirectory(output)))
        }

        public func run() throws {
            if isBatch { try runBatch(); return }
            if batch.report != nil || batch.shard != nil {
                throw RedlineError.usage("--report and --shard are for batches: name an output directory (-o DIR/)")
            }
            if batch.timeout != nil {
                throw RedlineError.usage("--timeout is for batches, whose documents convert in worker processes; a single conversion runs in this process: stop it with timeout(1), whose SIGTERM removes its temporaries")
            }
            flags.emitPandocWarnings()
            try singleConversion().run()
        }

        /// The conversion of the one input these flags ask for.
        func singleConversion() throws -> SingleConversion {
            let input = inputs[0]
            let from = try flags.format(named: flags.from, path: input, fallback: input == "-" ? "md" : nil)
            let to = try ConversionFlags.outputFormat(named: flags.to, path: output)
            var options = ConversionOptions(from: from, to: to, review: flags.review.review,
                                            read: flags.readOptions, write: flags.writeOptions(output: output))
            options.strictFilters = flags.review.strictFilters
            return SingleConversion(input: input, output: output, options: options, quiet: flags.quiet,
                                    warningsJSON: flags.warningsJSON, verbose: flags.verbose)
        }

        func runBatch() throws {
            flags.emitPandocWarnings()
            let from = try flags.from.map { try ConversionFlags.format(named: $0, path: nil, fallback: nil) }
            let to = try ConversionFlags.format(named: flags.to, path: nil, fallback: "md")
            let variant = OutputVariant.converting(flags.review.review)
            try batch.run(inputs: inputs, output: output, from: from, to: to, variants: [variant],
                          write: flags.writeOptions(), read: flags.readOptions, quiet: flags.quiet, warningsJSON: flags.warningsJSON,
                          strictFilters: flags.review.strictFilters)
        }
    }
}

import ArgumentParser
import Foundation
import Redline

/// Options of `convert`: formats, review (changes, comments), formatting, warnings.
public struct ConversionFlags: ParsableArguments {
    @Option(name: [.customShort("f"), .long], help: "Input format (default: from the input's extension).")
    public var from: String?

    @Option(name: [.customShort("t"), .long], help: "Output format (default: from the output's extension, else md).")
    public var to: String?

    @Flag(name: [.customShort("s"), .long], help: "Accepted for pandoc compatibility: HTML output is always a standalone page.")
    public var standalone = false

    @OptionGroup public var review: ReviewFlags

    @OptionGroup public var formatting: FormattingFlags

    @Option(name: .customLong("extract-media"),
            help: "Markdown/HTML output: write pictures into this folder (default: a folder beside the output, OUT.media).")
    public var extractMedia: String?

    @Flag(name: .customLong("embed-media"), help: "HTML output: pictures as data: URIs in the page (one self-contained file).")
    public var embedMedia = false

    @Option(name: .customLong("resource-path"),
            help: "Markdown input: a folder pictures may also be loaded from besides the Markdown file's own (repeatable).")
    public var resourcePath: [String] = []

    @Option(name: .customLong("warnings-json"), help: "Also write the warnings as JSON to this file.")
    public var warningsJSON: String?

    @Flag(name: .shortAndLong, help: "Do not print warnings to standard error.")
    public var quiet = false

    public init() {}

    /// The write options these flags ask for (an `--extract-media` folder linked from `output`).
    public func writeOptions(output: String? = nil) -> WriteOptions {
        var w = formatting.writeOptions
        w.embedMedia = embedMedia
        if let extractMedia { w.mediaOutput = .folder(extractMedia, for: output == "-" ? nil : output) }
        return w
    }

    /// The read options these flags ask for.
    public var readOptions: ReadOptions { ReadOptions(resourcePaths: resourcePath) }

    /// Resolves a format name, or infers one from a path.
    public func format(named name: String?, path: String?, fallback: String?) throws -> Format {
        try Self.format(named: name, path: path, fallback: fallback)
    }

    /// Resolves a format name, or infers one from a path, or takes `fallback`.
    public static func format(named name: String?, path: String?, fallback: String?) throws -> Format {
        if let name {
            guard let f = FormatRegistry.named(name) else {
                throw RedlineError.usage("unknown format '\(name)' (see 'redline formats')")
            }
            return f
        }
        if let path, path != "-", let f = FormatRegistry.inferred(fromPath: path) { return f }
        if let fallback, let f = FormatRegistry.named(fallback) { return f }
        throw RedlineError.usage("cannot tell the format of '\(path ?? "-")'; name it with --from/--to")
    }

    /// The format to write: `name` when given, else the one whose writer claims `path`'s extension, else
    /// Markdown for standard output or a name without extension. An extension no registered writer claims
    /// (`a.pdf` before a PDF writer exists, `a.odt`, `a.xyz`) is a usage error naming it and the formats there are.
    public static func outputFormat(named name: String?, path: String) throws -> Format {
        if name != nil { return try format(named: name, path: nil, fallback: nil) }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard path != "-", let dot = file.lastIndex(of: "."), dot != file.startIndex,
              file.index(after: dot) != file.endIndex else {
            return try format(named: nil, path: nil, fallback: "md")
        }
        let ext = file[file.index(after: dot)...].lowercased()
        if let f = FormatRegistry.all.first(where: { $0.writer != nil && $0.extensions.contains(ext) }) { return f }
        let known = FormatRegistry.all.filter { $0.writer != nil }.map { f in
            f.extensions.isEmpty ? f.name : "\(f.name) (" + f.extensions.map { "." + $0 }.joined(separator: ", ") + ")"
        }
        throw RedlineError.usage("'\(path)': Redline does not write '.\(ext)' files; it writes "
            + known.joined(separator: ", ") + " (name one with --to)")
    }
}

extension RedlineCommand {
    /// `redline convert`: one document from one format to another, or many into a directory.
    public struct Convert: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert a document, or many documents into a directory.",
            discussion: """
            Formats come from the extensions unless --from/--to name them; '-' is standard input or output.
            Examples:
              redline convert draft.docx -o draft.md                 # tracked changes as CriticMarkup
              redline convert draft.docx -o clean.md --changes accept
              redline convert notes.md -o notes.docx --paragraph-style scrivener

            Batch: several inputs, directories (recursive) or --manifest, with -o DIR.
            Outputs mirror the input tree under DIR: a file named directly lands as
            DIR/NAME, a directory's files keep their path below it, a manifest's
            relative paths are kept as written. Inputs convert independently on
            --jobs threads; a failed input never stops the others.
              redline convert manuscripts/ -o out/ --report report.jsonl
              redline convert --manifest list.txt -o out/ --to docx --skip-existing
              redline convert archive/ -o out/ --include '*.docx' --shard 2/8
            Existing outputs stop the batch before anything is written, unless
            --overwrite (replace them) or --skip-existing (keep those whose input
            and options are unchanged: an interrupted batch resumes where it
            stopped). Outputs are written to a temporary file, renamed into place.

            Exit status: 0 every input converted (or up to date), 1 an input
            failed, 2 usage error.
            """)

        @Argument(help: "Input files or directories, or - for standard input.")
        public var inputs: [String] = []

        @Option(name: .shortAndLong, help: "The output file, or - for standard output (default); with several inputs, a directory.")
        public var output: String = "-"

        @OptionGroup public var flags: ConversionFlags

        @OptionGroup public var batch: BatchFlags

        public init() {}

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
            let input = inputs[0]
            let from = try flags.format(named: flags.from, path: input, fallback: input == "-" ? "md" : nil)
            let to = try ConversionFlags.outputFormat(named: flags.to, path: output)
            let options = ConversionOptions(from: from, to: to, review: flags.review.review,
                                            read: flags.readOptions, write: flags.writeOptions(output: output))
            let diagnostics = Diagnostics()
            let source: DocumentInput
            if input == "-" {
                source = .bytes(try DocumentInput.standardInput())
            } else {
                guard FileManager.default.fileExists(atPath: input) else {
                    throw RedlineError.io("\(input): no such file")
                }
                source = .file(input)
            }
            do {
                if output == "-" {
                    let out = FileDescriptorOutput(fd: 1, name: "standard output")
                    try Converter.convert(source, to: out, options: options, diagnostics: diagnostics)
                } else {
                    try Converter.convert(source, toFile: output, options: options, diagnostics: diagnostics)
                }
            } catch let e as RedlineError {
                throw RedlineError(e.kind, "\(source.displayName): \(e.message)")
            }
            try WarningReport.emit(diagnostics.all, for: source.displayName, quiet: flags.quiet, json: flags.warningsJSON,
                                   target: to.name)
        }

        func runBatch() throws {
            let from = try flags.from.map { try ConversionFlags.format(named: $0, path: nil, fallback: nil) }
            let to = try ConversionFlags.format(named: flags.to, path: nil, fallback: "md")
            let variant = OutputVariant.converting(flags.review.review)
            try batch.run(inputs: inputs, output: output, from: from, to: to, variants: [variant],
                          write: flags.writeOptions(), read: flags.readOptions, quiet: flags.quiet, warningsJSON: flags.warningsJSON)
        }
    }
}

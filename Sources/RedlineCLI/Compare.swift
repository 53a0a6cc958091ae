import ArgumentParser
import Foundation
import Redline

extension CompareGranularity: RawValueArgument {}

extension RedlineCommand {
    /// `redline compare`: tracked changes from two versions of a document (or of a tree of documents).
    public struct Compare: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract: "Compare two versions of a document: NEW with every change from OLD as a tracked change.",
            discussion: """
            Accepting every change of the result gives NEW, rejecting every change gives OLD. Either side may be \
            any format Redline reads (a draft.md against an edited.docx is fine); the output is CriticMarkup \
            Markdown unless -o's extension or --to names another format (as for convert). DOCX output from a \
            DOCX NEW has NEW's styles, headers, footers, sections and page settings; headers and footers that \
            differ are compared like the body. Tracked changes already in an input are accepted before comparing \
            (with a warning) unless --keep-input-changes keeps them; NEW's comments are kept, OLD's are not.
              redline compare draft.docx edited.docx -o changes.docx
              redline compare v1.md v2.md --stats
              redline compare old/ new/ -o changes/ --to docx --report report.jsonl
            Two directories compare files paired by relative path without extension, as a batch like convert's \
            (--jobs, --report, --shard, --isolation, progress; existing outputs need --overwrite or --skip-existing, \
            which keeps those whose two inputs and options are unchanged); each pair is compared in a worker \
            process unless --isolation threads, so a pair that crashes Redline fails alone. A file on one side \
            only is reported (status unpaired), not an error. --manifest is not for compare.

            Exit status: 0 compared, 1 a document failed, 2 usage error.
            """)

        @Argument(help: "The old version (file or directory).")
        public var old: String

        @Argument(help: "The new version (file or directory).")
        public var new: String

        @Option(name: .shortAndLong, help: "The output file, or - for standard output (default); a directory when comparing directories.")
        public var output: String = "-"

        @Option(name: [.customShort("t"), .long], help: "Output format (default: from the output's extension, else md).")
        public var to: String?

        @Option(name: [.customShort("f"), .long], help: "Format of both inputs (default: from each input's extension).")
        public var from: String?

        @Flag(name: [.customShort("s"), .long], help: "Accepted for pandoc compatibility: HTML output is always a standalone page.")
        public var standalone = false

        @Option(help: "The author of the changes (default: $REDLINE_AUTHOR, $GIT_AUTHOR_NAME, $USER, else Redline).")
        public var author: String?

        @Option(help: "The date of the changes, ISO 8601 (default: now, or $SOURCE_DATE_EPOCH when set).")
        public var date: String?

        @Option(help: "Mark whole words (word) or single characters (character).")
        public var granularity: CompareGranularity = .word

        @Flag(name: .customLong("no-moves"), help: "Show moved text as a deletion and an insertion.")
        public var noMoves = false

        @Flag(name: .customLong("ignore-formatting"), help: "Do not mark formatting or paragraph-style changes.")
        public var ignoreFormatting = false

        @Flag(name: .customLong("ignore-case"), help: "Words differing only in letter case are equal (NEW's spelling kept, unmarked).")
        public var ignoreCase = false

        @Flag(name: .customLong("ignore-whitespace"), help: "Runs of spaces, tabs and newlines are equal whatever their length (NEW's kept).")
        public var ignoreWhitespace = false

        @Flag(name: .customLong("no-notes"), help: "Do not compare footnote and endnote text: a kept note has NEW's text, unmarked.")
        public var noNotes = false

        @Flag(name: .customLong("no-comments"), help: "Leave NEW's comments out of the result.")
        public var noComments = false

        @Flag(name: .customLong("no-tables"), help: "Compare tables as text: tables whose cells hold the same text are equal (NEW's structure and formatting kept).")
        public var noTables = false

        @Flag(name: .customLong("no-headers-footers"), help: "Do not compare headers and footers: the result has NEW's, unmarked.")
        public var noHeadersFooters = false

        @Flag(name: .customLong("no-fields"), help: "Do not compare fields (page numbers, dates, cross-references): a field that changed is equal, NEW's kept unmarked.")
        public var noFields = false
        @Flag(name: .customLong("no-textboxes"), help: "Do not compare the text in text boxes: NEW's boxes are kept unmarked.")
        public var noTextBoxes = false

        @Flag(name: .customLong("keep-input-changes"), help: "Keep NEW's tracked changes with their authors and dates (OLD's too where NEW still carries them); the differences found by comparison are added as changes by --author.")
        public var keepInputChanges = false

        @Flag(help: "Print counts of insertions, deletions, moves, formatting changes and words changed.")
        public var stats = false

        @OptionGroup public var formatting: FormattingFlags

        @OptionGroup public var media: MediaFlags

        @Option(name: .customLong("warnings-json"), help: "Also write the warnings (of both inputs, the comparison and the writer) as JSON to this file.")
        public var warningsJSON: String?

        @Flag(name: .shortAndLong, help: "Do not print warnings or progress to standard error.")
        public var quiet = false

        @OptionGroup public var batch: BatchFlags

        public init() {}

        /// The comparison options these flags ask for.
        public var compareOptions: CompareOptions {
            var o = CompareOptions(author: author ?? Self.defaultAuthor(), date: date ?? Self.defaultDate(),
                                   granularity: granularity, detectMoves: !noMoves, ignoreFormatting: ignoreFormatting)
            o.ignoreCase = ignoreCase
            o.ignoreWhitespace = ignoreWhitespace
            o.compareNotes = !noNotes
            o.keepComments = !noComments
            o.compareTables = !noTables
            o.compareHeadersFooters = !noHeadersFooters
            o.compareFields = !noFields
            o.compareTextBoxes = !noTextBoxes
            o.keepInputChanges = keepInputChanges
            return o
        }

        /// True when the date of the marks was chosen (`--date`, `$SOURCE_DATE_EPOCH`), not the time of the run.
        var dateGiven: Bool { date != nil || ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] != nil }

        /// The write options these flags ask for (an `--extract-media` folder linked from `output`).
        func writeOptions(output: String? = nil) -> WriteOptions {
            media.applied(to: formatting.writeOptions, output: output)
        }

        /// The read options these flags ask for.
        var readOptions: ReadOptions { media.readOptions }

        public func run() throws {
            let oldIsDirectory = BatchFlags.isDirectory(old), newIsDirectory = BatchFlags.isDirectory(new)
            if oldIsDirectory || newIsDirectory {
                guard oldIsDirectory && newIsDirectory else {
                    throw RedlineError.usage("compare two files or two directories, not one of each")
                }
                try runBatch()
                return
            }
            if batch.report != nil || batch.shard != nil || batch.manifest != nil {
                throw RedlineError.usage("--report, --shard and --manifest are for comparing directories: redline compare OLD_DIR NEW_DIR -o OUT_DIR")
            }
            let to = try ConversionFlags.outputFormat(named: self.to, path: output)
            let from = try self.from.map { try ConversionFlags.format(named: $0, path: nil, fallback: nil) }
            let options = ComparisonOptions(from: from, to: to, compare: compareOptions, read: readOptions,
                                            write: writeOptions(output: output))
            let diagnostics = Diagnostics()
            let s: CompareStats
            if output == "-" {
                let out = FileDescriptorOutput(fd: 1, name: "standard output")
                s = try Comparison.compare(old: old, new: new, options: options, into: out, diagnostics: diagnostics)
            } else {
                s = try Comparison.compare(old: old, new: new, options: options, toFile: output, diagnostics: diagnostics)
            }
            try WarningReport.emit(diagnostics.all, for: new, quiet: quiet, json: warningsJSON, target: to.name)
            if stats {
                let text = s.text + "\n"
                if output == "-" { FileHandle.standardError.write(Data(text.utf8)) } else { print(text, terminator: "") }
            }
        }

        // MARK: One pair

        /// Reads both inputs (OLD on a second thread), naming the file in any error.
        static func readBoth(_ old: String, _ new: String, from: String?) throws -> ((Document, Format), (Document, Format)) {
            let format = try from.map { try ConversionFlags.format(named: $0, path: nil, fallback: nil) }
            let r = try Comparison.readBoth(old: old, new: new, from: format, options: ReadOptions(), diagnostics: Diagnostics())
            return (r.old, r.new)
        }

        /// `insertions: 3`, `deletions: 2`, ... one line each, as `--stats` prints it.
        public static func statsText(_ s: CompareStats) -> String { s.text }

        /// The author for marks when none is given: $REDLINE_AUTHOR, $GIT_AUTHOR_NAME, $USER, $LOGNAME, else Redline.
        public static func defaultAuthor(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
            for k in ["REDLINE_AUTHOR", "GIT_AUTHOR_NAME", "USER", "LOGNAME", "USERNAME"] {
                if let v = env[k]?.trimmingCharacters(in: .whitespaces), !v.isEmpty { return v }
            }
            return "Redline"
        }

        /// Now (or $SOURCE_DATE_EPOCH) as ISO 8601 in UTC, to the second.
        public static func defaultDate(_ env: [String: String] = ProcessInfo.processInfo.environment,
                                       now: Date = Date()) -> String {
            var date = now
            if let s = env["SOURCE_DATE_EPOCH"], let t = Int64(s.trimmingCharacters(in: .whitespaces)) {
                date = Date(timeIntervalSince1970: TimeInterval(t))
            }
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withInternetDateTime]
            f.timeZone = TimeZone(identifier: "UTC")
            return f.string(from: date)
        }

        // MARK: Directories

        /// Compares two trees on the shared batch engine: files paired by relative path without extension,
        /// each pair one job (its report line, its up-to-date record over both inputs); a file on one side
        /// only is reported `unpaired`, not an error.
        func runBatch() throws {
            guard output != "-" else { throw RedlineError.usage("comparing directories needs an output directory: -o DIR") }
            guard batch.manifest == nil else { throw RedlineError.usage("compare pairs two directories; --manifest is for convert") }
            let to = try ConversionFlags.format(named: self.to, path: nil, fallback: "md")
            let from = try self.from.map { try ConversionFlags.format(named: $0, path: nil, fallback: nil) }
            var found = try Self.pairs(old: old, new: new, selection: batch.selection, output: output)
            guard !found.isEmpty else { throw RedlineError.usage("no input found in \(old) or \(new)") }
            if let shard = try batch.shard.map(Shard.init(parsing:)) {
                found = found.filter { shard.contains(($0.relativePath as NSString).deletingPathExtension) }
            }
            var options = BatchOptions(from: from, to: to, variants: [OutputVariant(name: "compared", suffix: "", review: ReviewOptions())],
                                       read: readOptions, write: writeOptions(), outputDirectory: output,
                                       existing: batch.existing, jobs: batch.selection.threads,
                                       toolVersion: RedlineVersion.string, shard: try batch.shard.map(Shard.init(parsing:)),
                                       isolation: try batch.isolation.batchIsolation())
            options.compare = CompareBatchOptions(options: compareOptions, dateGiven: dateGiven)
            options.timeout = batch.timeLimit
            let summary = try batch.run(found, options: options, quiet: quiet, warningsJSON: warningsJSON)
            if stats {
                let sums = summary.stats ?? [:]
                print(CompareStats().fields.map { "\($0.label): \(sums[$0.key] ?? 0)" }.joined(separator: "\n"))
            }
            if summary.failed > 0 { throw ExitCode(1) }
        }

        /// The batch inputs of two trees: each NEW file paired with the OLD file at the same relative path
        /// without extension (the first by name when several extensions share one), then the files of
        /// either side alone. `--include`/`--exclude` select on both sides.
        static func pairs(old: String, new: String, selection: SelectionFlags, output: String) throws -> [BatchInput] {
            func side(_ root: String) throws -> [String: BatchInput] {
                let found = try InputSelection(paths: [root], include: selection.include.map(Glob.init),
                                               exclude: selection.exclude.map(Glob.init), skipDirectories: [output]).discover()
                var out: [String: BatchInput] = [:]
                for f in found {
                    let stem = (f.relativePath as NSString).deletingPathExtension
                    if out[stem] == nil { out[stem] = f }
                }
                return out
            }
            let a = try side(old), b = try side(new)
            var inputs: [BatchInput] = []
            for stem in Set(a.keys).union(b.keys).sorted() {
                switch (a[stem], b[stem]) {
                case let (o?, n?):
                    var input = n
                    input.size += o.size
                    input.problem = n.problem ?? o.problem.map { RedlineError($0.kind, "\(o.path): \($0.message)") }
                    input.pair = .old(o.path)
                    inputs.append(input)
                case let (o?, nil):
                    var input = o
                    input.pair = .onlyOld
                    inputs.append(input)
                case let (nil, n?):
                    var input = n
                    input.pair = .onlyNew
                    inputs.append(input)
                case (nil, nil): break
                }
            }
            return inputs
        }
    }
}

import ArgumentParser
import Foundation
import Redline

extension CompareGranularity: ExpressibleByArgument {}

extension RedlineCommand {
    /// `redline compare`: tracked changes from two versions of a document (or of a tree of documents).
    public struct Compare: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract: "Compare two versions of a document: NEW with every change from OLD as a tracked change.",
            discussion: """
            Accepting every change of the result gives NEW, rejecting every change gives OLD. Either side may be
            any format Redline reads (a draft.md against an edited.docx is fine); the output is CriticMarkup
            Markdown unless -o's extension or --to names another format. DOCX output uses NEW's styles when NEW
            is a DOCX. Tracked changes already in an input are accepted before comparing (with a warning);
            NEW's comments are kept, OLD's are not.
              redline compare draft.docx edited.docx -o changes.docx
              redline compare v1.md v2.md --stats
              redline compare old/ new/ -o changes/ --to docx --report report.jsonl
            Two directories compare files paired by relative path without extension; a file on one side only
            is reported, not an error.

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

        @Flag(help: "Print counts of insertions, deletions, moves, formatting changes and words changed.")
        public var stats = false

        @Option(name: [.customShort("j"), .long], help: "Directories: how many pairs compare at once (default: all cores).")
        public var jobs: Int?

        @Option(help: ArgumentHelp("Directories: write a JSON Lines report, one line per pair, then a summary.", valueName: "file"))
        public var report: String?

        @Flag(name: .customLong("skip-existing"), help: "Directories: keep outputs newer than both inputs.")
        public var skipExisting = false

        @Option(help: ArgumentHelp("Directories: compare only shard K of N (by relative path).", valueName: "K/N"))
        public var shard: String?

        @Flag(name: .customLong("keep-formatting"),
              help: "Keep paragraph and character formatting in Markdown as pandoc-style attributes.")
        public var keepFormatting = false

        @Option(name: .customLong("warnings-json"), help: "Also write the warnings as JSON to this file.")
        public var warningsJSON: String?

        @Flag(name: .shortAndLong, help: "Do not print warnings or progress to standard error.")
        public var quiet = false

        public init() {}

        public func validate() throws {
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
            if let shard { _ = try Shard(parsing: shard) }
        }

        /// The comparison options these flags ask for.
        public var compareOptions: CompareOptions {
            CompareOptions(author: author ?? Self.defaultAuthor(), date: date ?? Self.defaultDate(),
                           granularity: granularity, detectMoves: !noMoves, ignoreFormatting: ignoreFormatting)
        }

        public func run() throws {
            let oldIsDirectory = BatchFlags.isDirectory(old), newIsDirectory = BatchFlags.isDirectory(new)
            if oldIsDirectory || newIsDirectory {
                guard oldIsDirectory && newIsDirectory else {
                    throw RedlineError.usage("compare two files or two directories, not one of each")
                }
                try runBatch()
                return
            }
            let to = try ConversionFlags.format(named: self.to, path: output, fallback: "md")
            let diagnostics = Diagnostics()
            let s = try Self.compareFiles(old: old, new: new, from: from, output: output, to: to,
                                          options: compareOptions, keepFormatting: keepFormatting,
                                          diagnostics: diagnostics)
            try WarningReport.emit(diagnostics.all, for: new, quiet: quiet, json: warningsJSON)
            if stats {
                let text = Self.statsText(s) + "\n"
                if output == "-" { FileHandle.standardError.write(Data(text.utf8)) } else { print(text, terminator: "") }
            }
        }

        // MARK: One pair

        /// Reads one input, naming the file in any error.
        static func read(_ path: String, from: String?) throws -> (Document, Format) {
            guard FileManager.default.fileExists(atPath: path) else { throw RedlineError.io("\(path): no such file") }
            let format = try ConversionFlags.format(named: from, path: path, fallback: nil)
            guard format.reader != nil else { throw RedlineError.usage("\(path): Redline cannot read \(format.name)") }
            do {
                return (try Converter.read(.file(path), format: format), format)
            } catch let e as RedlineError {
                throw RedlineError(e.kind, "\(path): \(e.message)")
            }
        }

        /// Reads OLD on a second thread while NEW is read on this one (errors name their file, OLD's first).
        static func readBoth(_ old: String, _ new: String, from: String?) throws -> ((Document, Format), (Document, Format)) {
            final class Slot: @unchecked Sendable { var result: Result<(Document, Format), any Error>? }
            let slot = Slot()
            let thread = StackThread.spawn(name: "redline-old") { slot.result = Result { try read(old, from: from) } }
            if thread == nil { slot.result = Result { try read(old, from: from) } }
            let b = Result { try read(new, from: from) }
            thread?.join()
            return (try slot.result!.get(), try b.get())
        }

        /// Compares two files and writes the result to `output` ('-': standard output), whole or not at all;
        /// returns the counts of what changed.
        public static func compareFiles(old: String, new: String, from: String?, output: String, to: Format,
                                        options: CompareOptions, keepFormatting: Bool = false,
                                        diagnostics: Diagnostics) throws -> CompareStats {
            let ((a, _), (b, newFormat)) = try readBoth(old, new, from: from)
            let (doc, s) = try LargeStack.run { DocumentComparer.compare(old: a, new: b, options: options, diagnostics: diagnostics) }
            var write = WriteOptions()
            write.preserveFormatting = keepFormatting
            if newFormat.name == "docx" && to.name == "docx" { write.referenceDocument = new }
            do {
                if output == "-" {
                    let out = FileDescriptorOutput(fd: 1, name: "standard output")
                    try Converter.write(doc, format: to, to: out, options: write, diagnostics: diagnostics)
                } else {
                    try AtomicFile.write(to: output) { out in
                        try Converter.write(doc, format: to, to: out, options: write, diagnostics: diagnostics)
                    }
                }
            } catch let e as RedlineError {
                throw RedlineError(e.kind, "\(output == "-" ? "standard output" : output): \(e.message)")
            }
            return s
        }

        /// `insertions 3, deletions 2, ...` as `--stats` prints it.
        public static func statsText(_ s: CompareStats) -> String {
            """
            insertions: \(s.insertions)
            deletions: \(s.deletions)
            substitutions: \(s.substitutions)
            moves: \(s.moves)
            formatting changes: \(s.formatChanges)
            paragraph style changes: \(s.paragraphStyleChanges)
            paragraph breaks inserted or deleted: \(s.paragraphMarkChanges)
            table rows inserted or deleted: \(s.rowChanges)
            words inserted: \(s.wordsInserted)
            words deleted: \(s.wordsDeleted)
            words changed: \(s.wordsChanged)
            """
        }

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

        /// The files under `root` Redline reads, by relative path without extension.
        static func readableFiles(_ root: String) -> [String: String] {
            var out: [String: String] = [:]
            let base = URL(fileURLWithPath: root).standardizedFileURL.path
            guard let e = FileManager.default.enumerator(atPath: base) else { return out }
            while let rel = e.nextObject() as? String {
                let full = base + "/" + rel
                guard !BatchFlags.isDirectory(full), FormatRegistry.inferred(fromPath: full)?.reader != nil else { continue }
                let stem = (rel as NSString).deletingPathExtension
                if out[stem] == nil || rel < out[stem]! { out[stem] = rel }
            }
            return out
        }

        func runBatch() throws {
            guard output != "-" else { throw RedlineError.usage("comparing directories needs an output directory: -o DIR") }
            let to = try ConversionFlags.format(named: self.to, path: nil, fallback: "md")
            guard let ext = to.extensions.first ?? (to.name == "gfm" ? "md" : nil) else {
                throw RedlineError.usage("cannot name outputs for format \(to.name)")
            }
            let oldFiles = Self.readableFiles(old), newFiles = Self.readableFiles(new)
            let shard = try self.shard.map(Shard.init(parsing:))
            var stems = Set(oldFiles.keys).union(newFiles.keys).sorted()
            if let shard { stems = stems.filter { shard.contains($0) } }
            struct Job: Sendable { var stem: String; var old: String?; var new: String? }
            let jobsList = stems.map { Job(stem: $0, old: oldFiles[$0].map { old + "/" + $0 }, new: newFiles[$0].map { new + "/" + $0 }) }
            let options = compareOptions
            let keepFormatting = self.keepFormatting, skipExisting = self.skipExisting, from = self.from
            let outDir = output
            try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)

            final class Results: @unchecked Sendable {
                let lock = NSLock()
                var next = 0
                var lines: [(Int, String)] = []
                var failed = 0, compared = 0, skipped = 0, unpaired = 0
                var total = CompareStats()
            }
            let results = Results()
            let quiet = self.quiet
            let work: @Sendable () -> Void = {
                while true {
                    results.lock.lock()
                    let k = results.next
                    results.next += 1
                    results.lock.unlock()
                    guard k < jobsList.count else { return }
                    let job = jobsList[k]
                    let started = Date()
                    var record: [String: Any] = ["pair": job.stem]
                    let target = outDir + "/" + job.stem + "." + ext
                    var status = "compared"
                    var s = CompareStats()
                    let diagnostics = Diagnostics()
                    if let o = job.old, let n = job.new {
                        record["old"] = o; record["new"] = n; record["output"] = target
                        if skipExisting, Self.isUpToDate(target, o, n) {
                            status = "skipped"
                        } else {
                            do {
                                try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                                        withIntermediateDirectories: true)
                                s = try Self.compareFiles(old: o, new: n, from: from, output: target, to: to,
                                                          options: options, keepFormatting: keepFormatting,
                                                          diagnostics: diagnostics)
                                record["stats"] = Self.statsObject(s)
                            } catch let e as RedlineError {
                                status = "failed"; record["error"] = e.message
                            } catch {
                                status = "failed"; record["error"] = "\(error)"
                            }
                        }
                    } else {
                        status = "unpaired"
                        if let o = job.old { record["old"] = o } else { record["new"] = job.new! }
                    }
                    record["status"] = status
                    if !diagnostics.all.isEmpty {
                        record["warnings"] = diagnostics.all.map { ["code": $0.code.rawValue, "message": $0.message, "count": $0.count] as [String: Any] }
                    }
                    record["seconds"] = (Date().timeIntervalSince(started) * 1000).rounded() / 1000
                    let line = (try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                    results.lock.lock()
                    results.lines.append((k, line))
                    switch status {
                    case "failed": results.failed += 1
                    case "skipped": results.skipped += 1
                    case "unpaired": results.unpaired += 1
                    default: results.compared += 1; results.total.add(s)
                    }
                    results.lock.unlock()
                    if !quiet && status != "compared" && status != "skipped" {
                        let msg = status == "failed" ? "redline: error: \(record["error"] ?? "")\n"
                            : "redline: \(job.stem): only in \(job.old != nil ? "OLD" : "NEW") (\(job.old ?? job.new!))\n"
                        FileHandle.standardError.write(Data(msg.utf8))
                    }
                }
            }
            let n = min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, max(jobsList.count, 1))
            let threads = (0..<n).compactMap { i in StackThread.spawn(name: "redline-cmp\(i)", work) }
            if threads.isEmpty { work() }
            for t in threads { t.join() }

            let summary = "\(results.compared) compared, \(results.skipped) up to date, \(results.unpaired) on one side only, \(results.failed) failed"
            if let report {
                var text = results.lines.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\n")
                let sum: [String: Any] = ["summary": ["compared": results.compared, "skipped": results.skipped,
                                                      "unpaired": results.unpaired, "failed": results.failed,
                                                      "stats": Self.statsObject(results.total)]]
                let sumLine = (try? JSONSerialization.data(withJSONObject: sum, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                text += (text.isEmpty ? "" : "\n") + sumLine + "\n"
                try AtomicFile.write(to: report) { try $0.write(bytes: Array(text.utf8)) }
            }
            if !quiet { FileHandle.standardError.write(Data("redline: \(summary)\n".utf8)) }
            if stats { print(Self.statsText(results.total)) }
            if results.failed > 0 { throw ExitCode(1) }
        }

        static func isUpToDate(_ target: String, _ a: String, _ b: String) -> Bool {
            let fm = FileManager.default
            guard let t = (try? fm.attributesOfItem(atPath: target))?[.modificationDate] as? Date,
                  let ta = (try? fm.attributesOfItem(atPath: a))?[.modificationDate] as? Date,
                  let tb = (try? fm.attributesOfItem(atPath: b))?[.modificationDate] as? Date else { return false }
            return t >= ta && t >= tb
        }

        static func statsObject(_ s: CompareStats) -> [String: Int] {
            ["insertions": s.insertions, "deletions": s.deletions, "substitutions": s.substitutions, "moves": s.moves,
             "formatChanges": s.formatChanges, "paragraphStyleChanges": s.paragraphStyleChanges,
             "paragraphMarkChanges": s.paragraphMarkChanges, "rowChanges": s.rowChanges,
             "wordsInserted": s.wordsInserted, "wordsDeleted": s.wordsDeleted]
        }
    }
}

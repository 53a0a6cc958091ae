import ArgumentParser
import Foundation
import Redline

/// Options of the commands that convert many inputs (`convert` with -o DIR, `export`).
public struct BatchFlags: ParsableArguments {
    @Option(help: "A file listing inputs, one per line ('#' comments; '-' reads standard input).")
    public var manifest: String?

    @OptionGroup public var selection: SelectionFlags

    @Option(help: ArgumentHelp("Write a JSON Lines report: one line per input (outputs, status, error, warnings, seconds), then a summary line.",
                               valueName: "file"))
    public var report: String?

    @Flag(help: "Replace outputs that already exist.")
    public var overwrite = false

    @Flag(name: .customLong("skip-existing"),
          help: "Keep outputs that are up to date (same input, same options); convert the rest. Resumes an interrupted batch.")
    public var skipExisting = false

    @Option(help: ArgumentHelp("Convert only shard K of N (1 ≤ K ≤ N), a stable share by each input's relative path; N runs with K = 1...N cover every input once.",
                               valueName: "K/N"))
    public var shard: String?

    @Option(help: ArgumentHelp("Where inputs convert: 'processes' (worker processes: an input that crashes Redline fails alone, the batch goes on) or 'threads' (in this process). PDF output always uses threads.",
                               valueName: "processes|threads"))
    public var isolation: IsolationMode = .processes

    @Option(help: ArgumentHelp("Seconds a worker process may spend on one document before it is killed and the document fails (kind 'timeout'); 0 for no limit. Default: the larger of 600 s and 10 s per MiB of input.",
                               valueName: "seconds"))
    public var timeout: Double?

    public init() {}

    /// The time limit per document (`--timeout`, else sized by the input).
    var timeLimit: DocumentTimeLimit {
        guard let timeout else { return .sized }
        return timeout == 0 ? .none : .seconds(timeout)
    }

    public func validate() throws {
        if let timeout {
            guard timeout.isFinite, timeout >= 0 else { throw ValidationError("--timeout takes seconds, 0 or more (0: no limit)") }
            if isolation == .threads && timeout > 0 {
                throw ValidationError("--timeout needs worker processes (--isolation processes): a thread cannot be stopped")
            }
        }
        if overwrite && skipExisting { throw ValidationError("--overwrite and --skip-existing exclude each other") }
        if let shard { _ = try Shard(parsing: shard) }
    }

    /// True when `path` is an existing directory.
    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return path != "-" && FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    /// Discovers the inputs, converts this shard of them into `output`, writes the report, prints the
    /// summary, and exits 1 when an input failed.
    func run(inputs: [String], output: String, from: Format?, to: Format, variants: [OutputVariant],
             write: WriteOptions, read: ReadOptions = ReadOptions(), quiet: Bool, warningsJSON: String?,
             strictFilters: Bool = false) throws {
        guard output != "-" else {
            throw RedlineError.usage("a batch (several inputs, a directory, --manifest, --report or --shard) needs an output directory: -o DIR")
        }
        guard !inputs.contains("-") else {
            throw RedlineError.usage("standard input ('-') converts alone; list files with --manifest - instead")
        }
        guard !inputs.isEmpty || manifest != nil else { throw RedlineError.usage("no input given") }
        let shard = try self.shard.map(Shard.init(parsing:))
        let chosen = InputSelection(paths: inputs, manifest: manifest, include: selection.include.map(Glob.init),
                                    exclude: selection.exclude.map(Glob.init), skipDirectories: [output])
        var found = try chosen.discover()
        if found.isEmpty {
            // Nothing to do is a mistake (a wrong directory, an --include matching nothing, -o DIR the input).
            let same = inputs.contains { URL(fileURLWithPath: $0).standardized.path == URL(fileURLWithPath: output).standardized.path }
            throw RedlineError.usage("no input found in \(inputs.joined(separator: ", "))" + (same ? " (the output directory is never read as input: write elsewhere)" : ""))
        }
        if let shard { found = found.filter { shard.contains($0.relativePath) } }
        var options = BatchOptions(from: from, to: to, variants: variants, read: read, write: write, outputDirectory: output,
                                   existing: existing, jobs: selection.threads,
                                   toolVersion: RedlineVersion.string, shard: shard, isolation: try isolation.batchIsolation())
        options.timeout = timeLimit
        options.strictFilters = strictFilters
        let summary = try run(found, options: options, quiet: quiet, warningsJSON: warningsJSON)
        if summary.failed > 0 { throw ExitCode(1) }
    }

    /// What to do with outputs that exist (`--overwrite`, `--skip-existing`, else refuse).
    var existing: ExistingOutputs { overwrite ? .overwrite : (skipExisting ? .skipUpToDate : .refuse) }

    /// Runs the batch on inputs already found (and sharded) with progress, writes the report and the
    /// warnings JSON, and returns the summary (convert, export and compare share this).
    @discardableResult
    func run(_ found: [BatchInput], options: BatchOptions, quiet: Bool, warningsJSON: String?) throws -> BatchSummary {
        let display = ProgressDisplay(quiet: quiet)
        let (records, summary) = try Batch.run(found, options: options, observer: display)
        if let report { try BatchReport.write(records, summary: summary, to: report) }
        if let warningsJSON {
            let all = records.sorted { $0.input < $1.input }.map { r in
                WarningReport.FileWarnings(input: r.input, warnings: r.warnings.map(\.diagnostic))
            }
            let data = try WarningReport.jsonData(all)
            try AtomicFile.write(to: warningsJSON) { try $0.write(bytes: [UInt8](data) + [10]) }
        }
        return summary
    }
}

/// `--isolation`: where a batch converts its inputs.
public enum IsolationMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case processes, threads

    public static var allValueStrings: [String] { ArgumentValues.strings(Self.self) }
    public static var allValueDescriptions: [String: String] { [:] }

    /// The batch's isolation; worker processes run this very executable (`redline batch-worker`).
    func batchIsolation() throws -> BatchIsolation {
        guard self == .processes else { return .threads }
        guard let executable = Self.executable else {
            throw RedlineError.io("cannot find Redline's own executable to start worker processes; pass --isolation threads")
        }
        return .processes(executable: executable)
    }

    /// This process's executable file.
    static var executable: String? {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executablePath
    }
}

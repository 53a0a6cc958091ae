import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// A warning code and how often it occurred, for reports.
public struct WarningCount: Codable, Sendable, Hashable {
    /// The stable diagnostic code.
    public var code: DiagnosticCode
    /// How many times it occurred.
    public var count: Int
    /// The first message reported under this code.
    public var message: String
    /// Where it first happened, when the reader or writer said.
    public var location: SourceLocation?
    /// Its severity (nil in records written before severities were kept: a warning).
    public var severity: Diagnostic.Severity?

    public init(code: DiagnosticCode, count: Int, message: String, location: SourceLocation? = nil,
                severity: Diagnostic.Severity? = nil) {
        self.code = code
        self.count = count
        self.message = message
        self.location = location
        self.severity = severity
    }

    /// One diagnostic's count, keeping its message, location and severity.
    public init(_ d: Diagnostic) {
        self.init(code: d.code, count: d.count, message: d.message, location: d.location, severity: d.severity)
    }

    /// The diagnostic this count stands for.
    public var diagnostic: Diagnostic {
        Diagnostic(code: code, severity: severity ?? .warning, message: message, location: location, count: count)
    }

    /// The diagnostics folded by code (counts summed, first message and location kept), in order of first report.
    public static func folding(_ diagnostics: [Diagnostic]) -> [WarningCount] {
        folding(diagnostics.map(WarningCount.init))
    }

    /// Counts folded by code, in order of first appearance.
    public static func folding(_ counts: [WarningCount]) -> [WarningCount] {
        var out: [WarningCount] = []
        var index: [DiagnosticCode: Int] = [:]
        for c in counts {
            if let i = index[c.code] { out[i].count += c.count } else {
                index[c.code] = out.count
                out.append(c)
            }
        }
        return out
    }
}

/// One line of a batch report: what happened to one input. Made by the batch (its memberwise initializers,
/// and its `Output`'s and `Failure`'s, are the compiler's, internal); callers read it or decode it from a report.
public struct BatchRecord: Codable, Sendable, Hashable {
    /// The outcome for an input.
    public enum Status: String, Codable, Sendable {
        /// Converted; every output written.
        case converted
        /// Its outputs were already up to date (`--skip-existing`).
        case skipped
        /// Not converted; `error` says why. No output of it was written or changed.
        case failed
        /// Compare batches: found in one tree only (`onlyIn`), so nothing to compare it with; not an error.
        case unpaired
    }

    /// One output file.
    public struct Output: Codable, Sendable, Hashable {
        /// Where the output was (or would have been) written.
        public var path: String
        /// `marked`, `clean` or `original`.
        public var variant: String

        /// An output at `path` of `variant`.
        public init(path: String, variant: String) { (self.path, self.variant) = (path, variant) }
    }

    /// A failure's kind (`RedlineError.Kind`) and message.
    public struct Failure: Codable, Sendable, Hashable {
        /// The kind of failure (stable, for scripts).
        public var kind: RedlineError.Kind
        /// One readable line.
        public var message: String

        /// A failure of `kind` that says `message`.
        public init(kind: RedlineError.Kind, message: String) { (self.kind, self.message) = (kind, message) }
    }

    /// Always `input`, to tell these lines from the summary line.
    public var type = "input"
    /// The input's path.
    public var input: String
    /// The input's format, when known.
    public var format: String?
    /// What happened to it.
    public var status: Status
    /// Its outputs, one per version.
    public var outputs: [Output]
    /// Why it failed (status `failed` only).
    public var error: Failure?
    /// Its warnings (reader's and every writer's), folded by code.
    public var warnings: [WarningCount] = []
    /// Wall-clock seconds this input took.
    public var seconds: Double = 0
    /// Compare batches: the OLD version `input` (NEW) was compared with.
    public var old: String?
    /// Compare batches, status `unpaired`: the tree the input was found in alone, `old` or `new`.
    public var onlyIn: String?
    /// Compare batches: the counts of what changed (`CompareStats.jsonObject`).
    public var stats: [String: Int]?

    /// A record of `input` with what became of it; the other fields are set afterwards.
    public init(input: String, format: String?, status: Status, outputs: [Output]) {
        (self.input, self.format, self.status, self.outputs) = (input, format, status, outputs)
    }
}

extension BatchRecord.Failure {
    /// The failure an error stands for (an error that is not a `RedlineError` counts as malformed input).
    public init(_ error: any Error) {
        if let e = error as? RedlineError {
            self.init(kind: e.kind, message: e.message)
        } else {
            self.init(kind: .malformedInput, message: String(describing: error))
        }
    }
}

/// The last line of a batch report.
public struct BatchSummary: Codable, Sendable, Hashable {
    /// Always `summary`.
    public var type = "summary"
    /// Inputs in the run (converted + skipped + failed + unpaired).
    public var inputs: Int
    /// Inputs converted.
    public var converted: Int
    /// Inputs whose outputs were up to date.
    public var skipped: Int
    /// Inputs that failed.
    public var failed: Int
    /// Every warning of every input, counts summed by code.
    public var warnings: [WarningCount]
    /// Wall-clock seconds of the run (of the longest shard, after a merge).
    public var seconds: Double
    /// The shard this run covered (`K/N`); absent for a whole run or a merge.
    public var shard: String?
    /// Compare batches: inputs found in one tree only (absent when none).
    public var unpaired: Int?
    /// Compare batches: the counts of what changed, summed over every compared (or up-to-date) pair.
    public var stats: [String: Int]?

    /// The summary of `records`.
    public init(records: [BatchRecord], seconds: Double, shard: String? = nil) {
        inputs = records.count
        converted = records.filter { $0.status == .converted }.count
        skipped = records.filter { $0.status == .skipped }.count
        failed = records.filter { $0.status == .failed }.count
        let alone = records.filter { $0.status == .unpaired }.count
        unpaired = alone > 0 ? alone : nil
        let counted = records.compactMap(\.stats)
        stats = counted.isEmpty ? nil : counted.reduce(into: [:]) { sum, s in sum.merge(s, uniquingKeysWith: +) }
        warnings = WarningCount.folding(records.flatMap(\.warnings)).sorted { $0.code < $1.code }
        self.seconds = seconds
        self.shard = shard
    }
}

/// Batch reports as JSON Lines: one `BatchRecord` per input, sorted by input path, then one `BatchSummary`.
public enum BatchReport {
    /// The report's text.
    public static func jsonLines(_ records: [BatchRecord], summary: BatchSummary) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = ""
        for r in records.sorted(by: { $0.input < $1.input }) {
            out += String(decoding: try e.encode(r), as: UTF8.self) + "\n"
        }
        out += String(decoding: try e.encode(summary), as: UTF8.self) + "\n"
        return out
    }

    /// Writes the report to `path` whole or not at all.
    public static func write(_ records: [BatchRecord], summary: BatchSummary, to path: String) throws {
        let text = try jsonLines(records, summary: summary)
        StagedFile.removeStaleTemporaries(for: [path])
        let file = try StagedFile(path: path)
        try file.output.write(text)
        try file.commit()
    }

    /// Reads a report: its input lines and its summary (nil when the run did not get to write one).
    public static func read(_ path: String) throws -> (records: [BatchRecord], summary: BatchSummary?) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RedlineError.io("cannot read the report \(path)")
        }
        struct Kind: Decodable { var type: String? }
        let d = JSONDecoder()
        var records: [BatchRecord] = []
        var summary: BatchSummary?
        for (n, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.allSatisfy({ $0 == 32 || $0 == 13 }) {
            do {
                switch try d.decode(Kind.self, from: line).type {
                case "input": records.append(try d.decode(BatchRecord.self, from: line))
                case "summary": summary = try d.decode(BatchSummary.self, from: line)
                default: throw RedlineError.malformed("no \"type\" of input or summary")
                }
            } catch {
                throw RedlineError.malformed("\(path) line \(n + 1) is not a Redline report line: \(InputSelection.reason(error))")
            }
        }
        return (records, summary)
    }

    /// Merges per-shard reports into one: every input line, sorted, and a summary over all of them.
    /// An input found in two reports is an error (the shards overlapped, or a report was given twice).
    public static func merge(_ paths: [String]) throws -> (records: [BatchRecord], summary: BatchSummary) {
        var records: [BatchRecord] = []
        var from: [String: String] = [:]
        var seconds = 0.0
        for p in paths {
            let (r, s) = try read(p)
            for record in r {
                if let other = from[record.input] {
                    throw RedlineError.malformed("\(record.input) is in both \(other) and \(p)")
                }
                from[record.input] = p
            }
            records += r
            seconds = max(seconds, s?.seconds ?? r.map(\.seconds).reduce(0, +))
        }
        records.sort { $0.input < $1.input }
        return (records, BatchSummary(records: records, seconds: seconds))
    }
}

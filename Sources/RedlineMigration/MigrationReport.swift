import Foundation
import RedlineCore
import RedlineConversion
import RedlineBatch

/// What happened to one migrated binder item. In a report it is a batch report line (`BatchRecord`:
/// `type`, `input`, `format`, `status`, `outputs`, `error`, `warnings`, `seconds`) with two more fields,
/// `binder` (its place in the binder) and `id`, so `redline report merge` and batch tooling read it as is.
public struct MigrationRecord: Sendable, Hashable, Encodable {
    /// The item's text file in the project (whether or not it exists), or the project for the project line.
    public var input: String
    /// The item's place in the binder: titles from the Draft (or Research) folder down, joined by " / ".
    public var binder: String
    /// The binder item's UUID (Scrivener 3) or ID (Scrivener 2).
    public var id: String
    /// The files written for it.
    public var outputs: [String]
    /// `marked`, `clean` or `original`.
    public var variant: String
    /// Why it could not be migrated; nil when it was.
    public var failure: RedlineError?
    /// What was lost or found wrong (reader's and writer's).
    public var diagnostics: [Diagnostic]
    /// Seconds spent reading and writing it.
    public var seconds: Double

    public init(input: String, binder: String, id: String, outputs: [String] = [], variant: String = "marked",
                failure: RedlineError? = nil, diagnostics: [Diagnostic] = [], seconds: Double = 0) {
        self.input = input
        self.binder = binder
        self.id = id
        self.outputs = outputs
        self.variant = variant
        self.failure = failure
        self.diagnostics = diagnostics
        self.seconds = seconds
    }

    public var succeeded: Bool { failure == nil }

    /// The batch report line for this item.
    public var batchRecord: BatchRecord {
        var record = BatchRecord(input: input, format: "scrivener", status: succeeded ? .converted : .failed,
                                 outputs: outputs.map { BatchRecord.Output(path: $0, variant: variant) })
        record.error = failure.map { BatchRecord.Failure(kind: $0.kind, message: $0.message) }
        record.warnings = WarningCount.folding(diagnostics)
        record.seconds = seconds
        return record
    }

    private enum ExtraKeys: String, CodingKey { case binder, id }

    public func encode(to encoder: any Encoder) throws {
        try batchRecord.encode(to: encoder)
        var c = encoder.container(keyedBy: ExtraKeys.self)
        try c.encode(binder, forKey: .binder)
        try c.encode(id, forKey: .id)
    }
}

/// What a migration did: one record per item, and what concerned the project as a whole.
public struct MigrationReport: Sendable {
    public var records: [MigrationRecord] = []
    /// Project-wide diagnostics: left-out items, binder problems.
    public var project: [Diagnostic] = []
    /// Every file written, in order.
    public var outputs: [String] = []
    /// Wall-clock seconds of the whole migration.
    public var seconds: Double = 0

    public init() {}

    /// True when some item could not be migrated.
    public var hasFailures: Bool { records.contains { !$0.succeeded } }

    /// Every diagnostic of every record and of the project, merged by code with counts added.
    public var totals: [Diagnostic] {
        let all = Diagnostics()
        for d in project { all.report(d) }
        for r in records { for d in r.diagnostics { all.report(d) } }
        return all.all
    }

    /// The report as JSON Lines in the batch report's format: one line per item in binder order, one for
    /// the project itself (its project-wide warnings; `input` the project), then the summary line.
    public func jsonLines(project path: String) throws -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let projectLine = MigrationRecord(input: path, binder: "", id: "", outputs: [], diagnostics: project)
        var out: [UInt8] = []
        for r in records + [projectLine] {
            out += try e.encode(r)
            out.append(10)
        }
        out += try e.encode(BatchSummary(records: (records + [projectLine]).map(\.batchRecord), seconds: seconds))
        out.append(10)
        return out
    }
}

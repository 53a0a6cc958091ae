import Foundation
import RedlineCore

/// One line of a migration's JSON Lines report: one migrated binder item (or index, or research file).
/// The fields match the batch report (`input`, `outputs`, `status`, `error`, `warnings`, `time`).
public struct MigrationRecord: Codable, Sendable, Hashable {
    /// The item's text file in the project, or the project folder for items without one.
    public var input: String
    /// The item's place in the binder: titles from the Draft (or Research) folder down, joined by " / ".
    public var binder: String
    /// The binder item's UUID (Scrivener 3) or ID (Scrivener 2).
    public var id: String
    /// The files written for it.
    public var outputs: [String]
    /// `ok` or `failed`.
    public var status: String
    public var error: String?
    /// What was lost or found wrong: codes with counts (reader's and writer's).
    public var warnings: [Diagnostic]
    /// Seconds spent reading and writing it.
    public var time: Double

    public init(input: String, binder: String, id: String, outputs: [String] = [], status: String = "ok",
                error: String? = nil, warnings: [Diagnostic] = [], time: Double = 0) {
        self.input = input
        self.binder = binder
        self.id = id
        self.outputs = outputs
        self.status = status
        self.error = error
        self.warnings = warnings
        self.time = time
    }
}

/// What a migration did: one record per item, and what concerned the project as a whole.
public struct MigrationReport: Sendable {
    public var records: [MigrationRecord] = []
    /// Project-wide diagnostics: left-out items, binder problems.
    public var project: [Diagnostic] = []
    /// Every file written, in order.
    public var outputs: [String] = []

    public init() {}

    /// True when some item could not be migrated.
    public var hasFailures: Bool { records.contains { $0.status != "ok" } }

    /// Every warning of every record and of the project, merged by code with counts added.
    public var totals: [Diagnostic] {
        let all = Diagnostics()
        for d in project { all.report(d) }
        for r in records { for d in r.warnings { all.report(d) } }
        return all.all
    }

    /// The report as JSON Lines: one object per record, then one for the project (`input` the project).
    public func jsonLines(project path: String) throws -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out: [UInt8] = []
        for r in records {
            out += try e.encode(r)
            out.append(10)
        }
        let summary = MigrationRecord(input: path, binder: "", id: "", outputs: outputs,
                                      status: hasFailures ? "failed" : "ok", warnings: project)
        out += try e.encode(summary)
        out.append(10)
        return out
    }
}

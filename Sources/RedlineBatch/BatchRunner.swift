import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// How far a batch has got.
public struct BatchProgress: Sendable {
    /// Inputs in the batch.
    public var total: Int
    /// Inputs finished (in any way).
    public var done = 0
    /// Inputs that failed.
    public var failed = 0
    /// Inputs that were up to date.
    public var skipped = 0
    /// Seconds since the batch started.
    public var elapsed = 0.0

    /// Inputs finished per second so far.
    public var rate: Double { elapsed > 0 ? Double(done) / elapsed : 0 }

    /// Seconds still to go at the rate so far (nil before the first input finishes).
    public var remaining: Double? { done > 0 && rate > 0 ? Double(total - done) / rate : nil }
}

/// Watches a batch run: told of each finished input (from the worker threads, one call at a time),
/// and ticked a few times a second from the waiting thread so a display can move while a large input
/// converts.
public protocol BatchObserver: AnyObject, Sendable {
    func inputFinished(_ record: BatchRecord, progress: BatchProgress)
    func tick(_ progress: BatchProgress)
    func batchFinished(_ summary: BatchSummary)
}

/// Converts many inputs in parallel, each independently (its own reader, writers and `Diagnostics`),
/// so one bad input never stops the others, and (with `BatchIsolation.processes`) in worker processes,
/// so even a crash while converting one input only fails that input.
///
///     inputs ─▶ BatchPlan (outputs, collisions, existing files) ─▶ WorkerPool: N threads ─▶ records ─▶ summary
///                                                 each input: settled here (failed up front, up to date),
///                                                 or converted (in a WorkerProcess, or on the thread):
///                                                 read once, write every version to temporaries, rename
///                                                 all; then its line in the up-to-date journal
public enum Batch {
    /// Runs the batch. Throws only for problems with the batch as a whole (usage, an output directory
    /// that cannot be written); a problem with one input becomes a `failed` record.
    public static func run(_ inputs: [BatchInput], options: BatchOptions,
                           observer: (any BatchObserver)? = nil) throws -> (records: [BatchRecord], summary: BatchSummary) {
        guard options.to.writer != nil else { throw RedlineError.usage("Redline cannot write \(options.to.name)") }
        try BatchPlan.prepareOutputDirectory(options.outputDirectory)
        let jobs = try BatchPlan.jobs(for: inputs, options: options)
        let journalPath = UpToDateJournal.path(outputDirectory: options.outputDirectory, shard: options.shard)
        StagedFile.removeStaleTemporaries(for: jobs.flatMap { $0.outputs.map(\.path) } + [journalPath])
        let journal = try UpToDateJournal(outputDirectory: options.outputDirectory, shard: options.shard)

        let start = DispatchTime.now()
        let state = RunState(jobs: jobs, start: start)
        let fingerprint = options.fingerprint
        // Formats that gather many documents into one run of another program (PDF) convert on threads.
        let executable = options.to.batchWidth == nil ? options.isolation.executable : nil
        let setup = BatchWorkerSetup(options: options, fingerprint: fingerprint)
        if executable != nil { WorkerProcess.removeStaleDirectories() }
        // Every worker joins (a PDF render queue) before any starts, so the first to finish cannot take
        // itself for the only one and start an engine run without the others.
        let width = min(max(options.jobs, options.to.batchWidth ?? 0), max(jobs.count, 1))
        let leaves = Leaves((0..<width).map { _ in options.to.batchWorker?() })
        WorkerPool.run(count: width, order: state.order, name: "redline-batch",
                       tick: { observer?.tick(state.progress) }) {
            let done = leaves.take()
            let process = executable.map { WorkerProcess(executable: $0, setup: setup) }
            return WorkerPool.Worker(run: { i in
                let jobStart = DispatchTime.now()
                var record: BatchRecord
                if options.compare != nil,
                   let r = settledComparison(jobs[i], options: options, fingerprint: fingerprint, journal: journal) {
                    record = r
                } else if let compare = options.compare {
                    let compared = process?.convert(jobs[i], timeLimit: options.timeout)
                        ?? Batch.compare(jobs[i], compare: compare, options: options, fingerprint: fingerprint)
                    record = compared.record
                    if let r = compared.upToDate { journal.append(r) }
                } else if let r = settled(jobs[i], options: options, fingerprint: fingerprint, journal: journal) {
                    record = r
                } else {
                    let converted = process?.convert(jobs[i], timeLimit: options.timeout)
                        ?? convert(jobs[i], options: options, fingerprint: fingerprint)
                    record = converted.record
                    if let r = converted.upToDate { journal.append(r) }
                }
                record.seconds = seconds(since: jobStart)
                state.finish(i, record, observer: observer)
            }, finish: {
                process?.stop()
                done?()
            })
        }
        let records = state.records
        journal.compact(touched: Set(jobs.map(\.recordKey)))
        if records.contains(where: { $0.status == .converted }) { flushToDisk(options.outputDirectory) }
        let summary = BatchSummary(records: records, seconds: state.progress.elapsed, shard: options.shard?.description)
        observer?.batchFinished(summary)
        return (records, summary)
    }

    /// The record of an input that needs no conversion: one that cannot be converted (a problem found
    /// while looking for it, no reader) or whose outputs are up to date. Nil when it must be converted.
    static func settled(_ job: BatchJob, options: BatchOptions, fingerprint: String, journal: UpToDateJournal) -> BatchRecord? {
        var record = job.pendingRecord
        let problem: RedlineError?
        if let p = job.input.problem {
            problem = p
        } else if job.format == nil {
            problem = .unsupported("cannot tell the format of \(job.input.path) from its extension; name it with --from")
        } else if job.format?.reader == nil {
            problem = .unsupported("Redline cannot read \(job.format!.name)")
        } else {
            problem = nil
        }
        if let problem {
            record.error = BatchRecord.Failure(problem)
            return record
        }
        if options.existing == .skipUpToDate,
           let r = journal.upToDate(job.recordKey, options: fingerprint, input: job.input.path, outputs: job.outputs.map(\.path)) {
            record.status = .skipped
            record.warnings = r.warnings
            return record
        }
        return nil
    }

    /// Converts one input into all its versions (in this process: on a pool thread, or in a worker
    /// process for the batch that started it). Returns its record and, when every output was written, the
    /// up-to-date record the batch appends to its journal.
    static func convert(_ job: BatchJob, options: BatchOptions, fingerprint: String) -> (record: BatchRecord, upToDate: UpToDateRecord?) {
        job.run { record in
            guard let format = job.format, let reader = format.reader else {
                throw RedlineError.unsupported("Redline cannot read \(job.input.path)")
            }
            let paths = job.outputs.map(\.path)
            let inputState = try UpToDateRecord.inputState(of: job.input.path)
            let readDiagnostics = Diagnostics()
            var branchDiagnostics: [Diagnostics] = []
            var files: [StagedFile] = []
            defer { for f in files { f.discard() } }
            // Each version's review filters, tallied by its engines, for those that select nothing in this input.
            let tallies = job.outputs.map { $0.variant.review.hasFilters ? FilterTally() : nil }
            let filterDiagnostics = Diagnostics()
            try LargeStack.run {  // documents nest as deep as the readers allow (inline on a batch worker)
                if try reviewInPlace(job, format: format, options: options, files: &files, tallies: tallies) { return }
                let read = options.conversion(from: format, review: ReviewOptions()).readOptions
                var source = try reader.open(.file(job.input.path), options: read, diagnostics: readDiagnostics)
                var branches: [TeeBranch] = []
                for ((variant, path), tally) in zip(job.outputs, tallies) {
                    try BatchPlan.makeDirectories((path as NSString).deletingLastPathComponent)
                    let file = try StagedFile(path: path)
                    files.append(file)
                    let diagnostics = Diagnostics()
                    diagnostics.stamp = 1  // as a single-file conversion's writer side, while its sink is built
                    branchDiagnostics.append(diagnostics)
                    branches.append(try branch(variant, format: format, options: options, into: file.output,
                                               diagnostics: diagnostics, outputPath: path, input: .file(job.input.path),
                                               tally: tally))
                }
                try TeePipeline.run(source: &source, branches: &branches, readSide: readDiagnostics,
                                    branchSides: branchDiagnostics, finishTogether: options.to.batchWorker != nil)
            }
            // Said once for the input when several versions share the filters (export's clean and original).
            var said: Set<String> = []
            for ((variant, _), tally) in zip(job.outputs, tallies) {
                guard let tally else { continue }
                let each = Diagnostics()
                try FilterReport.report(variant.review, tally: tally, strict: options.strictFilters, into: each)
                for d in each.all where said.insert(d.message).inserted { filterDiagnostics.report(d) }
            }
            for f in files { try f.commit() }
            record.status = .converted
            // Merged as a single-file conversion merges its reader's and writer's: the same warnings, in
            // the same order, with the same locations and severities.
            let merged = Diagnostics()
            merged.absorb([filterDiagnostics, readDiagnostics] + branchDiagnostics)
            record.warnings = WarningCount.folding(merged.all)
            let outputStates = paths.compactMap { UpToDateRecord.state(of: $0) }
            guard outputStates.count == paths.count else { return nil }
            return UpToDateRecord(key: job.recordKey, options: fingerprint, input: inputState, outputs: outputStates,
                                  warnings: record.warnings, mediaFiles: paths.flatMap { options.mediaFiles(forOutput: $0) })
        }
    }

    /// DOCX → DOCX or RTF → RTF with review decisions in some version and no option that needs the model: every
    /// version is the original package reviewed in place (`InPlaceReview`; the marked one a copy).
    static func reviewInPlace(_ job: BatchJob, format: Format, options: BatchOptions, files: inout [StagedFile],
                              tallies: [FilterTally?]) throws -> Bool {
        let reviews = job.outputs.map { $0.variant.review }
        guard let reviewer = reviews.lazy.compactMap({ options.conversion(from: format, review: $0).plan.reviewer }).first
        else { return false }
        for (((_, path), review), tally) in zip(zip(job.outputs, reviews), tallies) {
            var review = review
            review.tally = tally
            try BatchPlan.makeDirectories((path as NSString).deletingLastPathComponent)
            let file = try StagedFile(path: path)
            files.append(file)
            try reviewer.review(.file(job.input.path), review: review, limits: options.read.limits, into: file.output)
            try file.output.flush()
        }
        return true
    }

    /// The stages and writer that make one version.
    static func branch(_ variant: OutputVariant, format: Format, options: BatchOptions, into output: any ByteOutput,
                       diagnostics: Diagnostics, outputPath: String? = nil, input: DocumentInput? = nil,
                       tally: FilterTally? = nil) throws -> TeeBranch {
        var conversion = options.conversion(from: format, review: variant.review)
        conversion.review.tally = tally
        if let input { conversion = conversion.counting(input) }
        if let outputPath { conversion.write.mediaOutput = options.mediaOutput(forOutput: outputPath) }
        return try conversion.branch(into: output, diagnostics: diagnostics)
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// Makes the batch's outputs durable once at the end, instead of one `fsync` per file (an output
    /// that did not reach the disk before a power loss fails its up-to-date check and is converted again).
    static func flushToDisk(_ directory: String) {
        let fd = open(directory, O_RDONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        #if os(Linux)
        linuxSyncfs(fd)
        #else
        fsync(fd)
        #endif
    }
}

/// The PDF queue memberships taken before the pool starts, one handed to each pool thread.
private final class Leaves: @unchecked Sendable {
    private let lock = NSLock()
    private var leaves: [(@Sendable () -> Void)?]
    init(_ leaves: [(@Sendable () -> Void)?]) { self.leaves = leaves }
    func take() -> (@Sendable () -> Void)? {
        lock.lock(); defer { lock.unlock() }
        return leaves.popLast() ?? nil
    }
}

/// The work list and results shared by the worker threads.
private final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    /// The order inputs are taken in.
    let order: [Int]
    private var results: [BatchRecord?]
    private var counts: BatchProgress
    private let start: DispatchTime

    init(jobs: [BatchJob], start: DispatchTime) {
        // Largest inputs first, so no big one is left running alone at the end.
        order = jobs.indices.sorted {
            (jobs[$0].input.size, jobs[$1].input.relativePath) > (jobs[$1].input.size, jobs[$0].input.relativePath)
        }
        results = Array(repeating: nil, count: jobs.count)
        counts = BatchProgress(total: jobs.count)
        self.start = start
    }

    func finish(_ i: Int, _ record: BatchRecord, observer: (any BatchObserver)?) {
        lock.lock(); defer { lock.unlock() }
        results[i] = record
        counts.done += 1
        if record.status == .failed { counts.failed += 1 }
        if record.status == .skipped { counts.skipped += 1 }
        counts.elapsed = Batch.seconds(since: start)
        observer?.inputFinished(record, progress: counts)
    }

    var progress: BatchProgress {
        lock.lock(); defer { lock.unlock() }
        var p = counts
        p.elapsed = Batch.seconds(since: start)
        return p
    }

    var records: [BatchRecord] {
        lock.lock(); defer { lock.unlock() }
        return results.compactMap { $0 }
    }
}

#if os(Linux)
/// `syncfs(2)`: Glibc declares it only under `_GNU_SOURCE`, which Swift's Glibc module does not set.
@_silgen_name("syncfs")
@discardableResult
private func linuxSyncfs(_ fd: Int32) -> Int32
#endif

import Foundation
import RedlineCompare
import RedlineCore
import RedlineConversion

extension Batch {
    /// The record of a compare job that needs no comparison: a problem found while pairing, an input found
    /// on one side only (`unpaired`, nothing written), or outputs up to date for both inputs. Nil when the
    /// pair must be compared (`compare(_:compare:options:fingerprint:)`, on a thread or in a worker).
    static func settledComparison(_ job: BatchJob, options: BatchOptions, fingerprint: String,
                                  journal: UpToDateJournal) -> BatchRecord? {
        var record = job.pendingRecord
        if let problem = job.input.problem {
            record.error = BatchRecord.Failure(problem)
            return record
        }
        let old: String
        switch job.input.pair {
        case .old(let path)?: old = path
        case .onlyOld?, .onlyNew?, nil:
            record.status = .unpaired
            record.onlyIn = job.input.pair == .onlyOld ? "old" : "new"
            return record
        }
        guard let (_, path) = job.outputs.first else {
            record.error = BatchRecord.Failure(RedlineError.usage("a compare job without an output"))
            return record
        }
        if options.existing == .skipUpToDate,
           let r = journal.upToDate(job.recordKey, options: fingerprint, input: job.input.path, other: old, outputs: [path]) {
            record.old = old
            record.status = .skipped
            record.warnings = r.warnings
            record.stats = r.stats
            return record
        }
        return nil
    }

    /// One job of a compare batch (in this process: on a pool thread, or in a worker process for the batch
    /// that started it): the input (NEW) compared with its paired OLD version into its one output, through
    /// a temporary renamed into place. Returns its record and, when the output was written, the up-to-date
    /// record (covering both inputs) the batch appends to its journal.
    static func compare(_ job: BatchJob, compare: CompareBatchOptions, options: BatchOptions,
                        fingerprint: String) -> (record: BatchRecord, upToDate: UpToDateRecord?) {
        job.run { record in
            guard case .old(let old)? = job.input.pair else { throw RedlineError.usage("a compare job without its OLD version") }
            guard let (_, path) = job.outputs.first else { throw RedlineError.usage("a compare job without an output") }
            record.old = old
            let newState = try UpToDateRecord.inputState(of: job.input.path)
            let oldState: UpToDateRecord.FileState
            do { oldState = try UpToDateRecord.inputState(of: old) } catch let e as RedlineError {
                throw RedlineError(e.kind, "\(old): \(e.message)")
            }
            var write = options.write
            write.mediaOutput = options.mediaOutput(forOutput: path)
            let comparison = ComparisonOptions(from: options.from, to: options.to, compare: compare.options,
                                               read: options.read, write: write)
            let diagnostics = Diagnostics()
            try BatchPlan.makeDirectories((path as NSString).deletingLastPathComponent)
            let file = try StagedFile(path: path)
            let stats: CompareStats
            do {
                stats = try LargeStack.run {
                    try Comparison.compare(old: old, new: job.input.path, options: comparison, into: file.output,
                                           diagnostics: diagnostics)
                }
                try file.commit()
            } catch {
                file.discard()
                throw error
            }
            record.status = .converted
            record.warnings = WarningCount.folding(diagnostics.all)
            record.stats = stats.jsonObject
            guard let out = UpToDateRecord.state(of: path) else { return nil }
            var r = UpToDateRecord(key: job.recordKey, options: fingerprint, input: newState, outputs: [out],
                                   warnings: record.warnings, mediaFiles: options.mediaFiles(forOutput: path))
            r.other = oldState
            r.stats = record.stats
            return r
        }
    }
}

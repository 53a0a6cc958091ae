import Foundation
import RedlineCompare

extension Batch {
    /// One job of a compare batch: the input (NEW) compared with its paired OLD version into its one
    /// output, through a temporary renamed into place, with its up-to-date record (covering both
    /// inputs); an input found on one side only is recorded `unpaired` and writes nothing.
    static func compareJob(_ job: BatchJob, compare: CompareBatchOptions, record: BatchRecord, options: BatchOptions,
                           fingerprint: String, journal: UpToDateJournal) throws -> BatchRecord {
        var record = record
        let old: String
        switch job.input.pair {
        case .old(let path)?: old = path
        case .onlyOld?, .onlyNew?, nil:
            record.status = .unpaired
            record.onlyIn = job.input.pair == .onlyOld ? "old" : "new"
            return record
        }
        record.old = old
        guard let (_, path) = job.outputs.first else { throw RedlineError.usage("a compare job without an output") }
        if options.existing == .skipUpToDate,
           let r = journal.upToDate(job.recordKey, options: fingerprint, input: job.input.path, other: old, outputs: [path]) {
            record.status = .skipped
            record.warnings = r.warnings
            record.stats = r.stats
            return record
        }
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
        if let out = UpToDateRecord.state(of: path) {
            var r = UpToDateRecord(key: job.recordKey, options: fingerprint, input: newState, outputs: [out],
                                   warnings: record.warnings)
            r.other = oldState
            r.stats = record.stats
            let media = options.mediaFiles(forOutput: path).compactMap { UpToDateRecord.state(of: $0) }
            if !media.isEmpty { r.media = media }
            journal.append(r)
        }
        return record
    }
}

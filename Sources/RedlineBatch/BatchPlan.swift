import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// One input's work: its format and where each of its versions goes.
struct BatchJob: Sendable {
    var input: BatchInput
    /// nil when no reader knows the input's extension (the job fails with that reason).
    var format: Format?
    var outputs: [(variant: OutputVariant, path: String)]
    /// The key of this input's up-to-date record: its first output, relative to the output directory.
    var recordKey: String

    /// This job's record before anything is done: failed, with the outputs it would write.
    var pendingRecord: BatchRecord {
        BatchRecord(input: input.path, format: format?.name, status: .failed,
                    outputs: outputs.map { BatchRecord.Output(path: $0.path, variant: $0.variant.name) })
    }

    /// Does the job's work on its `pendingRecord`: the record as `work` leaves it and the up-to-date
    /// record it returns, or, when `work` throws, the record failed with the error and no up-to-date record.
    func run(_ work: (inout BatchRecord) throws -> UpToDateRecord?) -> (record: BatchRecord, upToDate: UpToDateRecord?) {
        var record = pendingRecord
        do {
            let upToDate = try work(&record)
            return (record, upToDate)
        } catch {
            record.status = .failed
            record.error = BatchRecord.Failure(error)
            return (record, nil)
        }
    }
}

/// Turns inputs into jobs and checks the plan as a whole before anything is written: no two inputs
/// write the same output, no output replaces an input, and existing outputs are only touched when asked.
enum BatchPlan {
    static func jobs(for inputs: [BatchInput], options: BatchOptions) throws -> [BatchJob] {
        let outCanonical = InputSelection.canonical(options.outputDirectory)
        var writer: [String: String] = [:]
        var jobs: [BatchJob] = []
        var existing: [String] = []
        var inputAt: [String: String] = [:]
        for input in inputs where input.problem == nil { inputAt[InputSelection.canonical(input.path)] = input.path }
        for input in inputs {
            let format = options.from ?? FormatRegistry.inferred(fromPath: input.path)
            var outputs: [(variant: OutputVariant, path: String)] = []
            // A compare input found on one side only writes nothing.
            let writes: Bool
            switch input.pair {
            case .onlyOld?, .onlyNew?: writes = false
            case .old?, nil: writes = true
            }
            for v in options.variants where writes {
                let rel = options.outputRelativePath(input.relativePath, v)
                let path = options.underOutput(rel)
                if input.problem == nil {
                    if let other = writer[rel] {
                        throw RedlineError.usage("\(other) and \(input.path) would both write \(path); convert them into different directories")
                    }
                    writer[rel] = input.path
                    if let replaced = inputAt[outCanonical + "/" + rel] {
                        let whose = replaced == input.path ? "its own output" : "the output of \(input.path)"
                        throw RedlineError.usage("the input \(replaced) would be replaced by \(whose); choose another output directory")
                    }
                    if options.existing == .refuse, access(path, F_OK) == 0 { existing.append(path) }
                }
                outputs.append((v, path))
            }
            jobs.append(BatchJob(input: input, format: format, outputs: outputs,
                                 recordKey: options.outputRelativePath(input.relativePath, options.variants[0])))
        }
        if let first = existing.first {
            let n = existing.count
            throw RedlineError.usage("\(n) output\(n == 1 ? "" : "s") already exist\(n == 1 ? "s" : "") (first: \(first)); pass --overwrite to replace them, or --skip-existing to keep those that are up to date")
        }
        return jobs
    }

    /// Creates the output directory and proves it can be written, so an unwritable directory fails
    /// at once with one clear message instead of once per input.
    static func prepareOutputDirectory(_ dir: String) throws {
        do {
            try makeDirectories(dir)
        } catch let e as RedlineError {
            throw RedlineError.io("cannot create the output directory \(dir): \(e.message)")
        }
        let probe = try StagedFile(path: dir + "/.write-probe")
        probe.discard()
    }

    /// `mkdir -p`: safe when several threads create the same directories.
    static func makeDirectories(_ path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else { throw RedlineError.io("\(path) is not a directory") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw RedlineError.io(String(cString: strerror(errno)))
        }
    }
}

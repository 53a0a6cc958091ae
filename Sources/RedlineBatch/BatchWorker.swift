import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// The worker side of a batch run in worker processes (`BatchIsolation.processes`): the batch starts
/// `redline batch-worker` (a hidden command) with a socket as file descriptor 3 and talks to it in JSON
/// lines:
///
///     batch ──▶ worker   BatchWorkerSetup   once: the options, by format name
///     batch ──▶ worker   BatchWorkerJob     one input to convert (or, in a compare batch, to compare
///                                           with its OLD version)
///     batch ◀── worker   BatchWorkerResult  its record (and up-to-date record), then the next job ...
///
/// The worker does one job at a time with `Batch.convert` (or `Batch.compare`), exactly as a batch thread
/// does, and stops at the end of its input. The batch keeps the journal and the report; a worker only writes
/// outputs (through `StagedFile`s) and its own temporaries (under a `TMPDIR` of its own).
public enum BatchWorker {
    /// The descriptor a worker reads jobs from and writes results to.
    public static let descriptor: Int32 = 3

    /// Test only: a comma-separated list of input file names (no directory; NEW's in a compare batch) on which a worker crashes
    /// as a bug would, in the middle of writing: it stages its first output and a temporary file of its
    /// own, writes a little, then traps (`fatalError`). Unset, it does nothing; threads never look at it.
    /// `BatchWorkerTests` uses it to prove that a crash fails only its input and leaves nothing behind.
    static let crashVariable = "REDLINE_TEST_CRASH_ON"

    /// Test only, like `crashVariable`: input file names on which a worker hangs, as a bug would, in the
    /// middle of writing: it stages its first output and a temporary file of its own, then sleeps for ever.
    /// `BatchWorkerTests` uses it to prove that `--timeout` kills it, fails only that input and leaves nothing.
    static let hangVariable = "REDLINE_TEST_HANG_ON"

    /// What `hangVariable` does.
    private static func hangWhileWriting(_ job: BatchJob) -> Never {
        let staged = try? StagedFile(path: job.outputs[0].path)
        try? staged?.output.write("half an output")
        try? staged?.output.flush()
        _ = FileManager.default.createFile(atPath: NSTemporaryDirectory() + "/redline-test-spill", contents: Data("spill".utf8))
        while true { sleep(3600) }
    }

    /// What `crashVariable` does.
    private static func crashWhileWriting(_ job: BatchJob) -> Never {
        let staged = try? StagedFile(path: job.outputs[0].path)
        try? staged?.output.write("half an output")
        try? staged?.output.flush()
        _ = FileManager.default.createFile(atPath: NSTemporaryDirectory() + "/redline-test-spill", contents: Data("spill".utf8))
        fatalError("\(crashVariable): crashing on \(job.input.path) as asked")
    }

    /// Serves jobs on `descriptor` until the batch closes it. Returns false when the setup line is missing
    /// or unreadable (nothing was converted).
    public static func serve(descriptor fd: Int32 = descriptor) -> Bool {
        let channel = LineChannel(fd: fd)
        let decoder = JSONDecoder()
        guard let line = channel.readLine(),
              let setup = try? decoder.decode(BatchWorkerSetup.self, from: Data(line)),
              let options = try? setup.options()
        else { return false }
        func names(_ variable: String) -> Set<String> {
            Set((ProcessInfo.processInfo.environment[variable] ?? "").split(separator: ",").map(String.init))
        }
        let crashOn = names(crashVariable), hangOn = names(hangVariable)
        while let line = channel.readLine() {
            let result: BatchWorkerResult
            do {
                let job = try decoder.decode(BatchWorkerJob.self, from: Data(line)).job(options: options)
                if crashOn.contains((job.input.path as NSString).lastPathComponent) {
                    crashWhileWriting(job)
                }
                if hangOn.contains((job.input.path as NSString).lastPathComponent) {
                    hangWhileWriting(job)
                }
                let (record, upToDate) = options.compare.map {
                    Batch.compare(job, compare: $0, options: options, fingerprint: setup.fingerprint)
                } ?? Batch.convert(job, options: options, fingerprint: setup.fingerprint)
                result = BatchWorkerResult(record: record, upToDate: upToDate)
            } catch {
                result = BatchWorkerResult(failure: BatchRecord.Failure(error))
            }
            guard channel.write(line: result) else { return true }
        }
        return true
    }
}

/// The first line a worker reads: the batch's options, formats by name.
struct BatchWorkerSetup: Codable, Sendable {
    var from: String?
    var to: String
    var variants: [OutputVariant]
    var read: ReadOptions
    var write: WriteOptions
    var outputDirectory: String
    var existing: String
    var toolVersion: String
    var fingerprint: String
    /// A compare batch's options (nil for convert and export).
    var compare: CompareBatchOptions?
    /// `BatchOptions.strictFilters`.
    var strictFilters: Bool?

    init(options: BatchOptions, fingerprint: String) {
        from = options.from?.name
        to = options.to.name
        variants = options.variants
        read = options.read
        write = options.write
        outputDirectory = options.outputDirectory
        existing = options.existing.rawValue
        toolVersion = options.toolVersion
        self.fingerprint = fingerprint
        compare = options.compare
        strictFilters = options.strictFilters
    }

    func options() throws -> BatchOptions {
        func format(_ name: String) throws -> Format {
            guard let f = FormatRegistry.named(name) else { throw RedlineError.usage("worker: unknown format \(name)") }
            return f
        }
        var options = BatchOptions(from: try from.map(format), to: try format(to), variants: variants, read: read,
                                   write: write, outputDirectory: outputDirectory,
                                   existing: ExistingOutputs(rawValue: existing) ?? .refuse, jobs: 1, toolVersion: toolVersion)
        options.compare = compare
        options.strictFilters = strictFilters ?? false
        return options
    }
}

/// One input for a worker to convert (only inputs with a known, readable format are sent), or the NEW
/// version of a pair to compare with `old`.
struct BatchWorkerJob: Codable, Sendable {
    var path: String
    /// A compare batch: the OLD version this input is compared with.
    var old: String?
    var relativePath: String
    var size: Int64
    var format: String
    /// Index into the setup's variants, and the output path, per version.
    var outputs: [Output]
    var recordKey: String

    struct Output: Codable, Sendable {
        var variant: Int
        var path: String
    }

    init(_ job: BatchJob, variants: [OutputVariant]) {
        path = job.input.path
        if case .old(let o)? = job.input.pair { old = o }
        relativePath = job.input.relativePath
        size = job.input.size
        format = job.format?.name ?? ""
        outputs = job.outputs.map { o in Output(variant: variants.firstIndex(of: o.variant) ?? 0, path: o.path) }
        recordKey = job.recordKey
    }

    func job(options: BatchOptions) throws -> BatchJob {
        // A compare job's format may be unknown (each side's is told from its extension when read).
        let f = FormatRegistry.named(format)
        guard f != nil || old != nil else { throw RedlineError.usage("worker: unknown format \(format)") }
        let outputs = try self.outputs.map { o -> (variant: OutputVariant, path: String) in
            guard options.variants.indices.contains(o.variant) else { throw RedlineError.usage("worker: no version \(o.variant)") }
            return (options.variants[o.variant], o.path)
        }
        return BatchJob(input: BatchInput(path: path, relativePath: relativePath, size: size, pair: old.map { .old($0) }),
                        format: f, outputs: outputs, recordKey: recordKey)
    }
}

/// A worker's answer to one job. The up-to-date record's warnings and stats are the record's (a job's
/// record and its journal line tell the same): they are sent once, which halves the line each side
/// encodes and decodes per input (PERFORMANCE.md, "Compare batches").
struct BatchWorkerResult: Codable, Sendable {
    var record: BatchRecord?
    /// The up-to-date record; without its warnings and stats when `sharesRecord` (read `upToDateRecord`).
    private var upToDate: UpToDateRecord?
    /// True when `upToDate`'s warnings and stats were left out as equal to `record`'s.
    private var sharesRecord: Bool?
    /// The job could not even be understood (a worker of another build).
    var failure: BatchRecord.Failure?

    init(record: BatchRecord, upToDate: UpToDateRecord?) {
        self.record = record
        if var u = upToDate, u.warnings == record.warnings, u.stats == record.stats {
            u.warnings = []
            u.stats = nil
            sharesRecord = true
            self.upToDate = u
        } else {
            self.upToDate = upToDate
        }
    }

    init(failure: BatchRecord.Failure) { self.failure = failure }

    /// The up-to-date record the worker made, whole.
    var upToDateRecord: UpToDateRecord? {
        guard var u = upToDate, sharesRecord == true, let record else { return upToDate }
        u.warnings = record.warnings
        u.stats = record.stats
        return u
    }
}

/// JSON lines over a file descriptor (a socket), read in 64 KiB pieces.
final class LineChannel {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; nil at the end of input or on an error.
    func readLine() -> [UInt8]? {
        if case .line(let l) = readLine(deadline: nil) { return l }
        return nil
    }

    /// What `readLine(deadline:)` found.
    enum Read {
        case line([UInt8])
        /// The end of input, or an error.
        case closed
        /// Nothing complete arrived before the deadline.
        case timedOut
    }

    /// The next line without its newline, waiting until `deadline` at most (nil: for ever).
    func readLine(deadline: DispatchTime?) -> Read {
        while true {
            if let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<nl])
                start = nl + 1
                if start > 65536 { buffer.removeFirst(start); start = 0 }
                return .line(line)
            }
            if let deadline {
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < deadline.uptimeNanoseconds else { return .timedOut }
                let ms = Int32(min((deadline.uptimeNanoseconds - now + 999_999) / 1_000_000, UInt64(Int32.max)))
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, ms)
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { continue }  // the deadline is checked again above
            }
            var piece = [UInt8](repeating: 0, count: 65536)
            let n = piece.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .closed }
            buffer += piece[..<n]
        }
    }

    #if os(Linux)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0  // SO_NOSIGPIPE is set on the socket instead
    #endif

    /// Writes `value` as one JSON line; false when the other side is gone. Never raises SIGPIPE.
    func write<T: Encodable>(line value: T) -> Bool {
        guard var bytes = try? [UInt8](JSONEncoder().encode(value)) else { return false }
        bytes.append(UInt8(ascii: "\n"))
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Self.noSignal) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}

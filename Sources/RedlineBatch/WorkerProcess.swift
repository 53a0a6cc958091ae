import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// The batch side of one worker process (`BatchWorker` is the other): started on first use, sent one job
/// at a time, and replaced when it dies. A worker that dies (a signal: a trap, a stack overflow, the
/// out-of-memory killer) fails only the job it was converting: its record says so, its outputs' staged
/// temporaries are removed, and its private `TMPDIR` (the reader's and writers' spill files, picture
/// stores) goes with it. The next job starts a new worker. A worker that hangs is killed when its job's
/// time limit (`DocumentTimeLimit`, `--timeout`) passes, with the same clean-up.
final class WorkerProcess {
    private let executable: String
    private let setup: BatchWorkerSetup
    private var pid: pid_t = 0
    private var channel: LineChannel?
    /// The worker's own temporary directory (its `TMPDIR`), which also holds its standard error.
    private var directory: String?

    init(executable: String, setup: BatchWorkerSetup) {
        self.executable = executable
        self.setup = setup
    }

    deinit { stop() }

    /// Converts `job` in the worker (starting one if none is running); in a compare batch, compares it
    /// with its OLD version. A worker still at it after `timeLimit`'s seconds for the job's input size is
    /// killed (SIGKILL) and the job fails with kind `timeout`.
    func convert(_ job: BatchJob, timeLimit: DocumentTimeLimit = .none) -> (record: BatchRecord, upToDate: UpToDateRecord?) {
        var record = job.pendingRecord
        if case .old(let old)? = job.input.pair { record.old = old }
        do {
            if channel == nil { try start() }
            let message = BatchWorkerJob(job, variants: setup.variants)
            if !channel!.write(line: message) {
                // The worker died before this job reached it (between jobs): not this input's doing.
                stop()
                try start()
                guard channel!.write(line: message) else { throw RedlineError.io("cannot start a worker process: it ended at once") }
            }
            let channel = channel!
            let limit = timeLimit.seconds(forInputSize: job.input.size)
            switch channel.readLine(deadline: limit.map { .now() + .nanoseconds(Int(min($0, 1e9) * 1e9)) }) {
            case .line(let line):
                let result = try JSONDecoder().decode(BatchWorkerResult.self, from: Data(line))
                if let r = result.record { return (r, result.upToDateRecord) }
                record.error = result.failure
                return (record, nil)
            case .timedOut:
                kill(pid, SIGKILL)
                stop()
                StagedFile.removeStaleTemporaries(for: job.outputs.map(\.path))
                let s = DocumentTimeLimit.format(limit ?? 0)
                record.error = BatchRecord.Failure(kind: .timeout, message: "timed out: still \(setup.compare == nil ? "converting" : "comparing") \(job.input.path) after \(s) s, "
                                                   + "so its worker was killed (\(timeLimit.origin))")
                return (record, nil)
            case .closed:
                break
            }
            let death = stop()
            // Whatever the worker had staged for this input is garbage now.
            StagedFile.removeStaleTemporaries(for: job.outputs.map(\.path))
            record.error = BatchRecord.Failure(kind: .crashed, message: "crashed: \(death.how) while \(setup.compare == nil ? "converting" : "comparing") \(job.input.path)"
                                               + (death.said.map { " (\($0))" } ?? ""))
        } catch {
            stop()
            record.error = BatchRecord.Failure(error)
        }
        return (record, nil)
    }

    /// Ends the worker (closing its socket ends its loop), waits for it and removes its temporary
    /// directory. Returns how it ended, in words, and the last telling line it wrote to standard error.
    @discardableResult
    func stop() -> (how: String, said: String?) {
        guard pid > 0 else { return ("no worker", nil) }
        if let channel { close(channel.fd) }
        channel = nil
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
        let how = Self.describe(status: status)
        var said: String?
        if let directory {
            said = Self.lastMessage(directory + "/stderr")
            try? FileManager.default.removeItem(atPath: directory)
        }
        directory = nil
        return (how, said)
    }

    /// Where workers' temporary directories go: `TMPDIR`, else /tmp.
    private static var base: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Removes the temporary directories of workers whose batch is gone (a batch killed outright cannot
    /// remove them itself). They are named `redline-worker-PID-XXXXXX` after the batch's process.
    static func removeStaleDirectories() {
        let base = Self.base
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix("redline-worker-") {
            let parts = name.split(separator: "-")
            guard parts.count == 4, let pid = pid_t(parts[2]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: base + "/" + name)
        }
    }

    private func start() throws {
        let base = Self.base
        var template = Array((base + "/redline-worker-\(getpid())-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw RedlineError.io("cannot start a worker process: cannot create a directory in \(base): \(String(cString: strerror(errno)))")
        }
        let dir = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var pair: [Int32] = [-1, -1]
        #if os(Linux)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            try? FileManager.default.removeItem(atPath: dir)
            throw RedlineError.io("cannot start a worker process: \(String(cString: strerror(errno)))")
        }
        #if !os(Linux)
        var one: Int32 = 1
        setsockopt(pair[0], SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        fcntl(pair[1], F_SETFD, FD_CLOEXEC)
        #endif
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = dir
        // A crash report with a symbolicated backtrace takes seconds; the batch reports the signal.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        let child: pid_t
        do {
            child = try Self.spawn(executable, arguments: ["batch-worker"], environment: environment, socket: pair[1],
                                   stderr: dir + "/stderr")
        } catch {
            close(pair[0]); close(pair[1])
            try? FileManager.default.removeItem(atPath: dir)
            throw error
        }
        close(pair[1])
        pid = child
        directory = dir
        let channel = LineChannel(fd: pair[0])
        self.channel = channel
        guard channel.write(line: setup) else {
            let death = stop()
            throw RedlineError.io("cannot start a worker process: \(death.how)" + (death.said.map { ": \($0)" } ?? ""))
        }
    }

    /// `posix_spawn`s `path` with standard input on /dev/null, `socket` as descriptor 3
    /// (`BatchWorker.descriptor`) and standard output and error into the file `stderr`.
    private static func spawn(_ path: String, arguments: [String], environment: [String: String], socket: Int32,
                              stderr: String) throws -> pid_t {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // Standard output joins standard error in the file (a sandbox may refuse /dev/null for writing).
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_adddup2(&actions, socket, BatchWorker.descriptor)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard status == 0 else {
            throw RedlineError.io("cannot start a worker process (\(path)): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// "signal 4 (SIGILL)", "exit status 3", ...
    static func describe(status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "the worker exited with status \((status >> 8) & 0xff)" }
        let names: [Int32: String] = [SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS",
                                      SIGFPE: "SIGFPE", SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
                                      SIGINT: "SIGINT", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ"]
        var s = "signal \(signal)"
        if let name = names[signal] { s += " (\(name)\(signal == SIGKILL ? ": killed, out of memory?" : ""))" }
        return s
    }

    /// The last telling line a dead worker wrote to standard error ("Fatal error: ..."), shortened.
    static func lastMessage(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
        let lines = String(decoding: data.suffix(16384), as: UTF8.self).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let line = lines.last(where: { $0.contains("Fatal error") || $0.contains("error:") }) ?? lines.last else { return nil }
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }
}

import Foundation

/// A directory of this process's own for every scratch file (the DOCX writer's zip spool, the RTF
/// writer's spill file, picture stores, PDF engine files): `$TMPDIR/redline-PID-XXXXXX`, made when a command
/// starts and made the process's `TMPDIR`, so readers and writers need not know about it.
///
/// Nothing is left behind however the process ends: a normal end removes it (`leave`); SIGINT, SIGTERM and
/// SIGHUP remove it in the signal handler (`AtomicFile`'s, which runs `rm -rf` on it in a child process:
/// `fork` and `execv` are async-signal-safe); after a SIGKILL or a crash the next command to start removes
/// every `redline-PID-XXXXXX` (and batch worker's `redline-worker-PID-XXXXXX`) whose process is gone.
/// A batch worker process gets its `TMPDIR` from its batch and never enters one of its own.
public enum ScratchDirectory {
    nonisolated(unsafe) private static var path: String?
    nonisolated(unsafe) private static var previous: String?
    /// `rm -rf PATH` as C strings made in advance, for the signal handler. Safety: made once (`enter` runs
    /// before threads start) and never freed, so a handler that runs at any moment reads live memory.
    nonisolated(unsafe) private static var removeArguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    /// Removes the stale directories in `TMPDIR`, makes this process's own and points `TMPDIR` at it.
    /// Call once, when the process starts work and before it starts threads. Does nothing when the
    /// directory cannot be made (scratch files then go to `TMPDIR` itself, as before).
    public static func enter() {
        guard path == nil else { return }
        let env = ProcessInfo.processInfo.environment["TMPDIR"]
        let base = env.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        removeStale(in: base)
        guard let dir = makeTemporaryDirectory(base + "/redline-\(getpid())-XXXXXX") else { return }
        path = dir
        previous = env
        let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 4)
        argv[0] = strdup("rm"); argv[1] = strdup("-rf"); argv[2] = strdup(dir); argv[3] = nil
        removeArguments = argv
        setenv("TMPDIR", dir, 1)
        Temporaries.installHandlers()
    }

    /// Removes the directory and restores `TMPDIR`, when the command is done.
    public static func leave() {
        guard let dir = path else { return }
        try? FileManager.default.removeItem(atPath: dir)
        if let previous { setenv("TMPDIR", previous, 1) } else { unsetenv("TMPDIR") }
        path = nil
    }

    /// In a signal handler: `rm -rf` the directory in a child process and wait for it.
    static func removeForSignal() {
        guard let argv = removeArguments else { return }
        let child = fork()
        if child == 0 {
            execv("/bin/rm", argv)
            _exit(127)
        }
        if child > 0 {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// Removes `redline-PID-XXXXXX` and `redline-worker-PID-XXXXXX` directories in `base` whose process is gone.
    /// Names are matched on `readdir`'s bytes: a crowded `/tmp` (thousands of entries) costs no `String` per entry.
    static func removeStale(in base: String) {
        guard let dir = opendir(base) else { return }
        var stale: [String] = []
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(dir) {
            // The name in place, up to its NUL: a record is only as long as its name (`d_reclen`), so copying
            // the whole 256-byte `d_name` read past the end of `readdir`'s buffer (a crash, now and then).
            let cName = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: UInt8.self)
            let raw = UnsafeBufferPointer(start: cName, count: strlen(UnsafeRawPointer(cName).assumingMemoryBound(to: CChar.self)))
            guard let pid = scratchPID(raw), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            stale.append(String(decoding: raw, as: UTF8.self))
        }
        closedir(dir)
        for name in stale { try? FileManager.default.removeItem(atPath: base + "/" + name) }
    }

    /// The process ID in a scratch directory's name (`redline-PID-XXXXXX` or `redline-worker-PID-XXXXXX`, the
    /// bytes up to a NUL), or nil for any other name.
    static func scratchPID(_ name: UnsafeBufferPointer<UInt8>) -> pid_t? {
        func matches(_ literal: StaticString, at i: Int) -> Bool {
            let n = literal.utf8CodeUnitCount
            guard i + n <= name.count else { return false }
            for k in 0..<n where name[i + k] != literal.utf8Start[k] { return false }
            return true
        }
        guard matches("redline-", at: 0) else { return nil }
        var i = matches("worker-", at: 8) ? 15 : 8
        var pid = 0, digits = 0
        while i < name.count, name[i] >= UInt8(ascii: "0"), name[i] <= UInt8(ascii: "9"), digits < 10 {
            pid = pid * 10 + Int(name[i] - UInt8(ascii: "0"))
            digits += 1
            i += 1
        }
        guard digits > 0, pid > 0, pid <= Int(Int32.max), i < name.count, name[i] == UInt8(ascii: "-") else { return nil }
        for k in 1...6 {
            guard i + k < name.count, name[i + k] != 0, name[i + k] != UInt8(ascii: "-") else { return nil }
        }
        guard i + 7 == name.count || name[i + 7] == 0 else { return nil }
        return pid_t(pid)
    }
}

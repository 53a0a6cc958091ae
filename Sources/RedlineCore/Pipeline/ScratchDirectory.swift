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
    static func removeStale(in base: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix("redline-") {
            // Split per byte when ASCII (a crowded /tmp held thousands of other `redline-` names: splitting
            // them by Character took 25 ms at every start).
            let parts = ASCIIPath.components(name, separator: "-", omittingEmpty: false)
                ?? name.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3 || (parts.count == 4 && parts[1] == "worker"), parts.last!.count == 6,
                  let pid = pid_t(parts[parts.count - 2]), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(atPath: base + "/" + name)
        }
    }
}

import Foundation
import RedlineCore

/// Writes a file whole or not at all: into a temporary file beside the target, renamed into place.
/// Temporaries are named `.NAME.redline-PID-XXXXXX`: a run stopped by SIGINT, SIGTERM or SIGHUP removes its
/// own before it ends, and one killed outright (SIGKILL, a crash) leaves them for the next run writing in
/// that directory, which removes those whose process is gone (once per directory and process).
public enum AtomicFile {
    /// Calls `body` with an output into a temporary file in the target's directory; on success the file
    /// is flushed, synced and renamed to `path` (replacing it); on failure it is removed.
    public static func write(to path: String, _ body: (any ByteOutput) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        Temporaries.installHandlers()
        Temporaries.removeStale(in: dir)
        var template = Array((dir + "/.\(url.lastPathComponent).redline-\(getpid())-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw RedlineError.io("cannot write in \(dir): \(String(cString: strerror(errno)))")
        }
        let tmp = String(cString: template)
        let slot = Temporaries.register(tmp)
        var ok = false
        defer {
            if !ok { unlink(tmp) }
            Temporaries.unregister(slot)
        }
        do {
            let out = FileDescriptorOutput(fd: fd, name: path)
            try body(out)
            try out.flush()
            fchmod(fd, 0o644)
            fsync(fd)
            close(fd)
        } catch {
            close(fd)
            throw error
        }
        guard rename(tmp, path) == 0 else {
            throw RedlineError.io("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        ok = true
    }
}

/// The temporaries this process has open, in C memory a signal handler can walk (it only calls `unlink`,
/// which is async-signal-safe, and `raise`).
enum Temporaries {
    private static let capacity = 256
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var cleaned = Set<String>()

    /// Remembers `path` for the signal handler; returns its slot (-1 when all are taken: then only the
    /// next run's clean-up removes it after a kill).
    static func register(_ path: String) -> Int {
        lock.lock(); defer { lock.unlock() }
        for i in 0..<capacity where slots[i] == nil {
            slots[i] = strdup(path)
            return i
        }
        return -1
    }

    static func unregister(_ slot: Int) {
        guard slot >= 0 else { return }
        lock.lock(); defer { lock.unlock() }
        let p = slots[slot]
        slots[slot] = nil
        free(p)
    }

    /// On SIGINT, SIGTERM and SIGHUP: removes the open temporaries and the scratch directory
    /// (`ScratchDirectory`), then dies of the signal as before.
    static func installHandlers() {
        lock.lock(); defer { lock.unlock() }
        guard !installed else { return }
        installed = true
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = { sig in
                Temporaries.removeAllForSignal()
                ScratchDirectory.removeForSignal()
                signal(sig, SIG_DFL)
                raise(sig)
            }
            #else
            action.__sigaction_u.__sa_handler = { sig in
                Temporaries.removeAllForSignal()
                ScratchDirectory.removeForSignal()
                signal(sig, SIG_DFL)
                raise(sig)
            }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var old = sigaction()
            sigaction(sig, nil, &old)
            // A signal the parent ignores (nohup) stays ignored.
            #if os(Linux)
            let ignored = unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            #else
            let ignored = unsafeBitCast(old.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            #endif
            if !ignored { sigaction(sig, &action, nil) }
        }
    }

    private static func removeAllForSignal() {
        for i in 0..<capacity { if let p = slots[i] { unlink(p) } }
    }

    /// Removes `.NAME.redline-PID-XXXXXX` files in `dir` whose process no longer runs (a run killed
    /// outright). Once per directory and process: a batch writing thousands of files lists each directory once.
    static func removeStale(in dir: String) {
        lock.lock()
        let first = cleaned.insert(dir).inserted
        lock.unlock()
        guard first, let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names where name.hasPrefix(".") {
            guard let r = name.range(of: ".redline-", options: .backwards) else { continue }
            let parts = name[r.upperBound...].split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), parts[1].count == 6, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(dir + "/" + name) }
        }
    }
}

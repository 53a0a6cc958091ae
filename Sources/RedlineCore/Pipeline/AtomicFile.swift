import Foundation

// The one way Redline writes a file whole or not at all. Every output (single conversions, batches,
// Scrivener migrations, reports, extracted pictures) goes through `StagedFile`; `AtomicFile.write` is the
// one-file shorthand. A temporary is named `.NAME.redline-PID-XXXXXX` beside its target:
// - a run stopped by SIGINT, SIGTERM or SIGHUP removes its open temporaries before it dies of the signal;
// - a run killed outright (SIGKILL, a crash) leaves them, and the next run writing there removes those
//   whose process is gone (`AtomicFile` once per directory, a batch for its own targets, a batch whose
//   worker process died for that worker's outputs); a live process's temporaries are never touched, so
//   shards and concurrent runs sharing a directory never remove each other's work in progress.

/// An output file being written: bytes go to a temporary file beside the target, and `commit` renames it
/// into place, so the target is always either its old self or the complete new file.
///
/// Two kinds of target are not replaced: a symbolic link is followed (the file it names is staged and
/// replaced, the link stays), and an existing target that is not a regular file (`/dev/null`, `/dev/stdout`,
/// a named pipe) is written directly, as a shell redirection would: renaming over it would replace a
/// device with a plain file.
public final class StagedFile {
    /// The target path.
    public let path: String
    /// The temporary file's path (the target itself when it is written directly).
    public let temporaryPath: String
    /// True when the target is not a regular file and is written in place.
    public let writesDirectly: Bool
    /// Where to write the content.
    public let output: FileDescriptorOutput
    /// Where the temporary is renamed to: `path`, or the file a symbolic link at `path` names.
    private let renameTarget: String
    private var fd: Int32
    /// The temporary's slot in `Temporaries` (-1 when none).
    private var slot: Int

    /// Creates the temporary file in the target's directory.
    public init(path: String) throws {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            if info.st_mode & S_IFMT == S_IFDIR { throw RedlineError.io("cannot write \(path): it is a directory") }
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw RedlineError.io("cannot write \(path): \(String(cString: strerror(errno)))") }
            self.path = path
            self.fd = fd
            self.temporaryPath = path
            self.writesDirectly = true
            self.output = FileDescriptorOutput(fd: fd, name: path)
            self.slot = -1
            self.renameTarget = path
            return
        }
        Temporaries.installHandlers()
        let url = URL(fileURLWithPath: StagedFile.followingLinks(path))
        let dir = url.deletingLastPathComponent().path
        let (fd, temporaryPath, slot) = try Temporaries.create(prefix: dir + "/." + url.lastPathComponent + Temporaries.marker + "\(getpid())-", in: dir)
        self.path = path
        self.fd = fd
        self.temporaryPath = temporaryPath
        self.writesDirectly = false
        self.output = FileDescriptorOutput(fd: fd, name: path)
        self.slot = slot
        self.renameTarget = url.path
    }

    /// `path` with symbolic links followed (the links' final target, which need not exist yet); `path`
    /// itself when it is not a link.
    static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
                  let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            current = destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        return current
    }

    deinit { discard() }

    /// Flushes, optionally syncs to disk, and renames the temporary file to the target.
    public func commit(sync: Bool = false) throws {
        guard fd >= 0 else { throw RedlineError.io("cannot write \(path): already closed") }
        do {
            try output.flush()
        } catch {
            discard()
            throw error
        }
        if writesDirectly {
            close(fd)
            fd = -1
            return
        }
        fchmod(fd, 0o644)
        if sync { fsync(fd) }
        close(fd)
        fd = -1
        defer { release() }
        guard rename(temporaryPath, renameTarget) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw RedlineError.io("cannot write \(path): \(reason)")
        }
    }

    /// Removes the temporary file (nothing happens after `commit`).
    public func discard() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        if writesDirectly { return }
        unlink(temporaryPath)
        release()
    }

    private func release() {
        Temporaries.unregister(slot)
        slot = -1
    }

    /// Deletes the temporaries of `targets` whose process is gone (a run killed outright, a worker process
    /// that died), listing each directory once; a live process's are left alone. Returns how many were removed.
    @discardableResult
    public static func removeStaleTemporaries(for targets: [String]) -> Int {
        var byDirectory: [String: Set<String>] = [:]
        for t in targets {
            let url = URL(fileURLWithPath: t)
            byDirectory[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        return byDirectory.reduce(0) { $0 + Temporaries.removeStale(in: $1.key, of: $1.value) }
    }
}

/// Writes a file whole or not at all (a `StagedFile` committed with an `fsync`).
public enum AtomicFile {
    /// Calls `body` with an output into a temporary file in the target's directory; on success the file
    /// is flushed, synced and renamed to `path` (replacing it); on failure it is removed. The first write
    /// into a directory in this process removes the temporaries there whose process is gone.
    /// `protecting` names inputs the output must not be: writing over one of them (the same path, a link
    /// to it, a hard link) is refused before anything is read, since Redline never modifies an input.
    public static func write(to path: String, protecting inputs: [String] = [],
                             _ body: (any ByteOutput) throws -> Void) throws {
        if let input = inputs.first(where: { isSameFile($0, path) }) {
            throw RedlineError.usage("the output \(path) is the input \(input): write it elsewhere (Redline never modifies an input)")
        }
        let file = try StagedFile(path: path)
        if !file.writesDirectly { Temporaries.removeStale(once: URL(fileURLWithPath: file.temporaryPath).deletingLastPathComponent().path) }
        do {
            try body(file.output)
        } catch {
            file.discard()
            throw error
        }
        try file.commit(sync: true)
    }
}

/// Whether `a` and `b` name the same existing file (same device and inode, links followed).
public func isSameFile(_ a: String, _ b: String) -> Bool {
    var x = stat(), y = stat()
    guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino
}

/// The temporaries this process has open, in C memory a signal handler can walk (it only calls `unlink`,
/// which is async-signal-safe, and `raise`), and the clean-up of those a killed run left.
enum Temporaries {
    /// What follows the target's name in a temporary's name (then the PID, `-`, six random characters).
    static let marker = ".redline-"

    private static let capacity = 256
    /// Safety: `capacity` slots, all initialized, and the array never freed (a handler may run at any moment);
    /// a slot holds nil or a whole `strdup` copy, set and cleared under `lock`, cleared before the copy is
    /// freed. (A handler running on another thread takes no lock: it could read a slot just as `unregister`
    /// frees its copy, a window of a few instructions while the process is about to die of the signal.)
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

    /// Creates a new file named `prefix` and six random letters or digits (as `mkstemp` would, mode 0600),
    /// registered before it exists: a signal arriving at any moment of its creation finds it in the slots
    /// (after `mkstemp` and before registering, a SIGTERM would leave the file behind).
    static func create(prefix: String, in dir: String) throws -> (fd: Int32, path: String, slot: Int) {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        for _ in 0..<100 {
            let path = prefix + String((0..<6).map { _ in letters.randomElement()! })
            let slot = register(path)
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { return (fd, path, slot) }
            let error = errno
            unregister(slot)
            if error != EEXIST { throw RedlineError.io("cannot write in \(dir): \(String(cString: strerror(error)))") }
        }
        throw RedlineError.io("cannot write in \(dir): no free temporary name after 100 tries")
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
            action.__sigaction_handler.sa_handler = { Temporaries.removeAllAndDie(of: $0) }
            #else
            action.__sigaction_u.__sa_handler = { Temporaries.removeAllAndDie(of: $0) }
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

    /// The signal handler: removes the open temporaries and the scratch directory, then dies of `sig`.
    private static func removeAllAndDie(of sig: Int32) {
        removeAllForSignal()
        ScratchDirectory.removeForSignal()
        signal(sig, SIG_DFL)
        raise(sig)
    }

    private static func removeAllForSignal() {
        for i in 0..<capacity { if let p = slots[i] { unlink(p) } }
    }

    /// `removeStale(in:of:)` for every target in `dir`, once per directory and process: a batch writing
    /// thousands of files lists each directory once.
    static func removeStale(once dir: String) {
        lock.lock()
        let first = cleaned.insert(dir).inserted
        lock.unlock()
        if first { removeStale(in: dir) }
    }

    /// Removes the temporaries in `dir` (of the targets named `targets`, or of any) whose process no longer
    /// runs. Returns how many were removed.
    @discardableResult
    static func removeStale(in dir: String, of targets: Set<String>? = nil) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(".") {
            guard let (target, pid) = parse(name), targets?.contains(target) ?? true,
                  pid != getpid(), kill(pid, 0) != 0 && errno == ESRCH,
                  unlink(dir + "/" + name) == 0 else { continue }
            removed += 1
        }
        return removed
    }

    /// The target's name and the writing process of a temporary named `name`, nil for any other name.
    static func parse(_ name: String) -> (target: String, pid: Int32)? {
        guard name.hasPrefix("."), let r = name.range(of: marker, options: .backwards) else { return nil }
        let parts = name[r.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, parts[1].count == 6 else { return nil }
        return (String(name[name.index(after: name.startIndex)..<r.lowerBound]), pid)
    }
}

import Foundation

/// An output file being written: bytes go to a temporary file beside the target
/// (`.NAME.redline-XXXXXX`; `AtomicFile`'s carry the PID, `.NAME.redline-PID-XXXXXX`, and neither clean-up
/// matches the other's), and `commit` renames it into place, so the
/// target is always either its old self or the complete new file. A process killed mid-write leaves
/// only the temporary, which `removeStaleTemporaries` deletes on the next run.
public final class StagedFile {
    /// The target path.
    public let path: String
    /// The temporary file's path.
    public let temporaryPath: String
    /// Where to write the content.
    public let output: FileDescriptorOutput
    private var fd: Int32

    /// Creates the temporary file in the target's directory.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var template = Array((dir + "/." + url.lastPathComponent + Self.marker + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw RedlineError.io("cannot write in \(dir): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.fd = fd
        self.temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.output = FileDescriptorOutput(fd: fd, name: path)
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
        fchmod(fd, 0o644)
        if sync { fsync(fd) }
        close(fd)
        fd = -1
        guard rename(temporaryPath, path) == 0 else {
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
        unlink(temporaryPath)
    }

    /// What follows the target's name in a temporary's name.
    static let marker = ".redline-"

    /// True when `name` (a file name, no directory) is a temporary of the target named `target`.
    static func isTemporary(_ name: String, of target: String) -> Bool {
        let prefix = "." + target + marker
        return name.count == prefix.count + 6 && name.hasPrefix(prefix)
    }

    /// Deletes temporaries that a killed run left for any of `targets`, listing each directory once.
    /// Only temporaries of these targets are touched, so shards sharing a directory never remove each
    /// other's work in progress. Returns how many were removed.
    @discardableResult
    public static func removeStaleTemporaries(for targets: [String]) -> Int {
        var byDirectory: [String: Set<String>] = [:]
        for t in targets {
            let url = URL(fileURLWithPath: t)
            byDirectory[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        var removed = 0
        for (dir, names) in byDirectory {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for e in entries where e.hasPrefix(".") && e.contains(marker) {
                let target = String(e.dropFirst().dropLast(marker.count + 6))
                if names.contains(target), isTemporary(e, of: target), unlink(dir + "/" + e) == 0 { removed += 1 }
            }
        }
        return removed
    }
}

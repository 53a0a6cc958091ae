import Foundation
import RedlineCore

/// Writes a file whole or not at all: into a temporary file beside the target, renamed into place.
public enum AtomicFile {
    /// Calls `body` with an output into a temporary file in the target's directory; on success the file
    /// is flushed, synced and renamed to `path` (replacing it); on failure it is removed.
    public static func write(to path: String, _ body: (any ByteOutput) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var template = Array((dir + "/.\(url.lastPathComponent).redline-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw RedlineError.io("cannot write in \(dir): \(String(cString: strerror(errno)))")
        }
        let tmp = String(cString: template)
        var ok = false
        defer {
            if !ok { unlink(tmp) }
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

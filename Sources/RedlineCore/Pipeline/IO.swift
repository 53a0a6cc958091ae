import Foundation

/// Where a reader takes its bytes from: a file (read in pieces, or mapped) or bytes in memory.
public enum DocumentInput: Sendable {
    case file(String)
    case bytes([UInt8])

    /// A name for messages: the path, or "<stdin>".
    public var displayName: String {
        switch self {
        case .file(let p): return p
        case .bytes: return "<stdin>"
        }
    }

    /// The file's path; nil for bytes in memory.
    public var path: String? {
        if case .file(let p) = self { return p }
        return nil
    }

    /// All the bytes. Readers that can stream should open the file themselves instead.
    public func readAll() throws -> [UInt8] {
        switch self {
        case .bytes(let b): return b
        case .file(let path):
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw RedlineError.io("cannot open \(path) for reading")
            }
            defer { try? h.close() }
            if !Self.isRegularFile(path) {
                return try Self.readLimited(h, name: path, limit: Limits().maxStreamedInputBytes)
            }
            do { return [UInt8](try h.readToEnd() ?? Data()) } catch {
                throw RedlineError.io("cannot read \(path): \(error.localizedDescription)")
            }
        }
    }

    /// True for a regular file (after symbolic links); false for a device, a pipe, a socket or a directory.
    public static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// Standard input, whole, refused past `Limits.maxStreamedInputBytes` (its size is not known ahead).
    public static func standardInput(limit: Int = Limits().maxStreamedInputBytes) throws -> [UInt8] {
        try readLimited(FileHandle.standardInput, name: "<stdin>", limit: limit)
    }

    /// Reads `h` to its end in pieces, refusing more than `limit` bytes (an input that is not a regular file
    /// — /dev/zero, a pipe — may never end).
    public static func readLimited(_ h: FileHandle, name: String, limit: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        while true {
            let piece: Data?
            do { piece = try h.read(upToCount: 1 << 20) } catch {
                throw RedlineError.io("cannot read \(name): \(error.localizedDescription)")
            }
            guard let piece, !piece.isEmpty else { return out }
            if out.count + piece.count > limit {
                throw RedlineError.limit("\(name) is not a regular file and holds more than \(limit) bytes (\(Limits.name("maxStreamedInputBytes", limit)))")
            }
            out.append(contentsOf: piece)
        }
    }
}

/// A byte destination for writers. Text writers send UTF-8; the DOCX writer sends a zip.
public protocol ByteOutput: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
    func flush() throws
}

extension ByteOutput {
    /// Writes the UTF-8 of `string`.
    public func write(_ string: String) throws {
        var s = string
        try s.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes`.
    public func write(bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

/// Collects output in memory.
public final class MemoryOutput: ByteOutput {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public func write(_ b: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: b) }
    public func flush() throws {}
    /// The output as UTF-8 text.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// Writes to a file descriptor through a 64 KiB buffer. Does not close the descriptor.
public final class FileDescriptorOutput: ByteOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    private let name: String

    public init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
        buffer.reserveCapacity(capacity)
    }

    public func write(_ b: UnsafeRawBufferPointer) throws {
        if buffer.count + b.count > capacity { try flush() }
        if b.count >= capacity { try writeAll(b); return }
        buffer.append(contentsOf: b)
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ b: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < b.count {
            let n = Foundation.write(fd, b.baseAddress! + offset, b.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw RedlineError.io("cannot write \(name): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}

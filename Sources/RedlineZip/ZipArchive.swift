@preconcurrency internal import CLibZip
import Foundation
import RedlineCore

/// One file inside a zip archive, as its central directory describes it.
/// The sizes are the archive's claims: `ZipArchive` never trusts them when it inflates.
public struct ZipEntry: Hashable, Sendable {
    /// Position in the central directory.
    public var index: Int
    /// The stored name (`word/document.xml`); checked to be relative and without `..` components.
    public var name: String
    /// The size the archive claims the entry inflates to.
    public var declaredSize: UInt64
    /// The size of the entry's stored (compressed) data.
    public var compressedSize: UInt64
    /// True when the entry's data is encrypted (Redline does not decrypt).
    public var isEncrypted: Bool
    /// The CRC-32 the archive records for the inflated content (checked when an entry is read to its end).
    public var crc: UInt32? = nil
    /// True for a directory entry (a name ending in "/").
    public var isDirectory: Bool { name.hasSuffix("/") }
}

/// Safe reading of a zip archive (a DOCX package, a test's output): list entries, read an entry whole
/// or stream it in pieces. Inflated sizes and compression ratios are limited while inflating
/// (`Limits.maxInflatedBytes`, `maxEntryBytes`, `maxCompressionRatio`), so a zip bomb stops early.
/// Entry names are only ever compared, never used as paths; an archive holding an absolute name or one
/// with a `..` component is refused as hostile.
/// Thread-safe: every libzip call on the archive and its entry streams, and the inflated total, is made
/// under `lock` (so a stream may be read on another thread while the archive is used here; each stream
/// itself belongs to one thread at a time). Hence the unchecked `Sendable`.
public final class ZipArchive: @unchecked Sendable {
    /// Every entry, in central-directory order.
    public let entries: [ZipEntry]
    /// A name for messages (the path, or "zip data").
    public let displayName: String
    let limits: Limits
    /// Bytes inflated so far from every entry, against `Limits.maxInflatedBytes` (under `lock`).
    private var inflatedTotal: UInt64 = 0
    let handle: OpaquePointer
    private let lock = NSLock()
    /// A copy of in-memory input that libzip reads from; freed after the archive.
    private let storage: UnsafeMutableRawBufferPointer?
    private let byName: [String: Int]
    /// Lowercased name → the first entry with it (OPC names compare case-insensitively).
    private let byLowerName: [String: Int]

    /// Files up to this size are read whole with one `read` and opened from memory: from the file, libzip
    /// seeks and reads again for every part it opens (a small DOCX's parts cost some hundred system calls,
    /// a tenth of a small comparison's CPU). PERFORMANCE.md, "Compare batches".
    static let inMemoryMaxBytes = 8 << 20

    /// Opens the archive at `path`; messages start with `displayName` (default: the path; "" for none).
    /// A file of at most `inMemoryMaxBytes` is read into memory first (the same archive either way).
    public convenience init(path: String, limits: Limits = Limits(), displayName: String? = nil) throws {
        try self.init(path: path, limits: limits, displayName: displayName, inMemoryAtMost: Self.inMemoryMaxBytes)
    }

    /// `init(path:limits:displayName:)` reading files of at most `inMemoryAtMost` bytes into memory (tests
    /// compare both ways).
    convenience init(path: String, limits: Limits = Limits(), displayName: String? = nil, inMemoryAtMost: Int) throws {
        let path = path, label = displayName ?? path
        if let storage = Self.readWhole(path, atMost: inMemoryAtMost) {
            let z = try Self.open(storage, label: label)
            try self.init(handle: z, storage: storage, displayName: label, limits: limits)
            return
        }
        let prefix = Self.prefix(ofFile: path)
        if prefix.isEmpty, FileManager.default.fileExists(atPath: path) {
            throw RedlineError.malformed(Self.label(label, "the file is empty, not a zip archive"))
        }
        var code: Int32 = 0
        guard let z = zip_open(path, ZIP_RDONLY, &code) else {
            throw Self.openError(code: code, name: label, prefix: prefix)
        }
        try self.init(handle: z, storage: nil, displayName: label, limits: limits)
    }

    /// Opens an archive held in memory (the bytes are copied); messages start with `displayName`.
    public convenience init(bytes: [UInt8], limits: Limits = Limits(), displayName: String = "zip data") throws {
        let label = displayName
        if bytes.isEmpty { throw RedlineError.malformed(Self.label(label, "empty, not a zip archive")) }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        let z = try Self.open(storage, label: label)
        try self.init(handle: z, storage: storage, displayName: label, limits: limits)
    }

    /// libzip's archive over `storage` (not empty); on failure `storage` is freed and the error thrown.
    private static func open(_ storage: UnsafeMutableRawBufferPointer, label: String) throws -> OpaquePointer {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(storage.baseAddress, UInt64(storage.count), 0, &error) else {
            storage.deallocate()
            throw RedlineError.io(Self.label(label, "cannot read zip data: \(String(cString: zip_error_strerror(&error)))"))
        }
        guard let z = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            let prefix = Array(UnsafeRawBufferPointer(rebasing: storage.prefix(32)))
            storage.deallocate()
            throw Self.openError(code: zip_error_code_zip(&error), name: label, prefix: prefix)
        }
        return z
    }

    /// The whole content of the regular file at `path` when it holds between 1 and `limit` bytes and reads
    /// whole; nil otherwise (the caller then opens the file as before, with its messages).
    static func readWhole(_ path: String, atMost limit: Int) -> UnsafeMutableRawBufferPointer? {
        WholeFile.load(path, atMost: limit)
    }

    private init(handle: OpaquePointer, storage: UnsafeMutableRawBufferPointer?, displayName: String, limits: Limits) throws {
        self.handle = handle
        self.storage = storage
        self.displayName = displayName
        self.limits = limits
        var list: [ZipEntry] = []
        var byName: [String: Int] = [:]
        var byLowerName: [String: Int] = [:]
        let count = max(0, zip_get_num_entries(handle, 0))
        var lowerNames = Set<String>()
        do {
            if count > limits.maxZipEntries {
                throw RedlineError.limit(Self.label(displayName, "the zip archive lists \(count) entries, more than \(limits.maxZipEntries) (\(Limits.name("maxZipEntries", limits.maxZipEntries)))"))
            }
            for i in 0..<UInt64(count) {
                var st = zip_stat_t()
                zip_stat_init(&st)
                guard zip_stat_index(handle, i, 0, &st) == 0, let cName = st.name else {
                    throw RedlineError.malformed(Self.label(displayName, "zip entry \(i) cannot be read (damaged central directory)"))
                }
                let name = String(cString: cName)
                guard ZipEntryName.isSafe(name) else {
                    throw RedlineError.malformed(Self.label(displayName,
                        "zip entry name '\(name)' is absolute or climbs out with '..'; refusing a hostile archive"))
                }
                let encrypted = st.valid & UInt64(ZIP_STAT_ENCRYPTION_METHOD) != 0 && st.encryption_method != UInt16(ZIP_EM_NONE)
                let crc = st.valid & UInt64(ZIP_STAT_CRC) != 0 ? st.crc : nil
                list.append(ZipEntry(index: Int(i), name: name, declaredSize: st.size, compressedSize: st.comp_size,
                                     isEncrypted: encrypted, crc: crc))
                // Two entries with one name (OPC names compare case-insensitively): readers disagree on which
                // one counts (the first, the last), so the archive is ambiguous.
                let lower = name.lowercased()
                guard name.hasSuffix("/") || lowerNames.insert(lower).inserted else {
                    throw RedlineError.malformed(Self.label(displayName,
                        "the zip archive holds two entries named '\(name)'; refusing an ambiguous archive"))
                }
                byName[name] = list.count - 1
                if byLowerName[lower] == nil { byLowerName[lower] = list.count - 1 }
            }
        } catch {
            zip_discard(handle)
            storage?.deallocate()
            throw error
        }
        self.entries = list
        self.byName = byName
        self.byLowerName = byLowerName
    }

    deinit {
        zip_discard(handle)
        storage?.deallocate()
    }

    /// The entry called `name`; OPC part names compare ASCII case-insensitively, so an exact match is
    /// preferred and a case-insensitive one accepted. A leading "/" is ignored.
    public func entry(named name: String) -> ZipEntry? {
        let n = name.hasPrefix("/") ? String(name.dropFirst()) : name
        if let i = byName[n] { return entries[i] }
        return byLowerName[n.lowercased()].map { entries[$0] }
    }

    /// The whole inflated content of `entry`, within the limits.
    public func read(_ entry: ZipEntry) throws -> [UInt8] {
        let stream = try open(entry)
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(entry.declaredSize, 1 << 24)))
        var buffer = [UInt8](unsafeUninitializedCapacity: 1 << 16) { _, count in count = 1 << 16 }  // only what is read is used
        while true {
            let n = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    /// The whole content of the entry called `name`, or nil when there is none.
    public func read(named name: String) throws -> [UInt8]? {
        guard let e = entry(named: name) else { return nil }
        return try read(e)
    }

    /// A stream over `entry`'s inflated content, for reading large entries in pieces. With `again`, a
    /// second reading of an entry read whole already: its bytes are not counted twice against
    /// `Limits.maxInflatedBytes` (the DOCX reader reads `comments.xml` once for its index, once for bodies).
    public func open(_ entry: ZipEntry, again: Bool = false) throws -> ZipEntryStream {
        if entry.isEncrypted {
            throw RedlineError.unsupported(label("zip entry '\(entry.name)' is encrypted; Redline does not decrypt"))
        }
        // Honest headers of a bomb are refused before inflating; lying ones are caught while inflating.
        if entry.declaredSize > limits.maxEntryBytes {
            throw RedlineError.limit(label("zip entry '\(entry.name)' claims \(entry.declaredSize) bytes, more than the limit of \(limits.maxEntryBytes) (a zip bomb? \(Limits.name("maxEntryBytes", limits.maxEntryBytes)))"))
        }
        if entry.declaredSize > limits.ratioCheckedAbove && entry.declaredSize / max(entry.compressedSize, 1) > limits.maxCompressionRatio {
            throw RedlineError.limit(label("zip entry '\(entry.name)' claims \(entry.declaredSize) bytes, more than \(limits.maxCompressionRatio) times its stored size (a zip bomb? \(Limits.name("maxCompressionRatio", limits.maxCompressionRatio)))"))
        }
        let opened: OpaquePointer? = locked {
            zip_fopen_index(handle, UInt64(entry.index), 0)
        }
        guard let f = opened else {
            throw RedlineError.malformed(label("cannot open zip entry '\(entry.name)': \(lastError())"))
        }
        return ZipEntryStream(archive: self, entry: entry, file: f, countsTowardArchive: !again)
    }

    /// Runs `body` (libzip calls on this archive or its entries) under the archive's lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Counts `n` more inflated bytes; returns the archive's new total.
    func addInflated(_ n: UInt64) -> UInt64 {
        locked {
            inflatedTotal += n
            return inflatedTotal
        }
    }

    /// `message` prefixed with the archive's display name (when it has one).
    func label(_ message: String) -> String { Self.label(displayName, message) }

    static func label(_ name: String, _ message: String) -> String { name.isEmpty ? message : "\(name): \(message)" }

    func lastError() -> String {
        locked { String(cString: zip_error_strerror(zip_get_error(handle))) }
    }

    // MARK: Open errors

    private static func prefix(ofFile path: String) -> [UInt8] {
        guard let f = fopen(path, "rb") else { return [] }
        defer { fclose(f) }
        var b = [UInt8](repeating: 0, count: 32)
        let n = fread(&b, 1, 32, f)
        return Array(b.prefix(n))
    }

    private static func openError(code: Int32, name: String, prefix: [UInt8]) -> RedlineError {
        switch code {
        case ZIP_ER_NOENT: return .io(label(name, "no such file"))
        case ZIP_ER_OPEN, ZIP_ER_READ: return .io(label(name, "cannot read the file"))
        case ZIP_ER_MEMORY: return .limit(label(name, "out of memory opening the zip archive"))
        default: break
        }
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return .malformed(label(name, "the zip archive is truncated or damaged (its central directory is missing or wrong)"))
        }
        if prefix.isEmpty { return .malformed(label(name, "the file is empty, not a zip archive")) }
        if let kind = FileSniffing.looksLike(prefix) { return .malformed(label(name, "not a zip archive: \(kind)")) }
        return .malformed(label(name, "not a zip archive"))
    }
}

/// `ZipArchive.readWhole`, out of the class (whose `open` and `read` methods would hide the system calls).
private enum WholeFile {
    static func load(_ path: String, atMost limit: Int) -> UnsafeMutableRawBufferPointer? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0, st.st_size <= limit else { return nil }
        let size = Int(st.st_size)
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        var done = 0
        while done < size {
            let n = read(fd, storage.baseAddress! + done, size - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        // A file that changed size while read is opened from the file instead.
        var extra: UInt8 = 0
        guard done == size, read(fd, &extra, 1) == 0 else {
            storage.deallocate()
            return nil
        }
        return storage
    }
}

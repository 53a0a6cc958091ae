@preconcurrency internal import CLibZip
import Foundation
import RedlineCore

/// Writes a zip archive deterministically: entries in the order they are added, deflated, all dated
/// 1980-01-01 00:00 with Unix mode 0644, no extra fields. The same entries give the same bytes.
///
/// Large entries are streamed: `spool(_:)` returns a `ZipSpool` that buffers to a temporary file, added
/// with `add(_:)` and read by libzip when the archive is finished, so memory stays bounded by the buffer.
/// The archive is built in a private temporary directory and handed over in blocks by `finish(_:)`;
/// the directory is removed when the writer is finished or deinitialised.
public final class ZipWriter {
    private let directory: String
    private var archive: OpaquePointer?
    private var spoolCount = 0
    private var names: Set<String> = []
    private let level: UInt32
    /// Archives whose entries were copied raw: libzip reads them when the archive is finished.
    private var sources: [ZipArchive] = []

    /// Creates an empty archive in a new temporary directory. `compressionLevel` is zlib's, 1 (fastest)
    /// to 9 (smallest).
    public init(compressionLevel: Int = 6) throws {
        level = UInt32(min(max(compressionLevel, 1), 9))
        guard let made = makeTemporaryDirectory(NSTemporaryDirectory() + "/redline-zip-XXXXXX") else {
            throw RedlineError.io("cannot create a temporary directory: \(String(cString: strerror(errno)))")
        }
        directory = made
        var error: Int32 = 0
        guard let za = zip_open(directory + "/archive.zip", ZIP_CREATE | ZIP_TRUNCATE, &error) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw RedlineError.io("cannot create a zip archive (libzip error \(error))")
        }
        archive = za
    }

    deinit {
        if let archive { zip_discard(archive) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Adds an entry holding `bytes`; `stored`: not deflated (a part of a few hundred bytes, whose deflating
    /// would cost more than it saves).
    public func add(_ name: String, bytes: [UInt8], stored: Bool = false) throws {
        let za = try open(name)
        // An empty entry gets no buffer: libzip never frees a zero-length one (a leak fuzzing found).
        if bytes.isEmpty {
            guard let source = zip_source_buffer(za, nil, 0, 0) else { throw lastError("cannot add \(name)") }
            return try add(name, source: source, to: za, stored: stored)
        }
        let copy = malloc(bytes.count)!
        bytes.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: $0.count) } }
        guard let source = zip_source_buffer(za, copy, zip_uint64_t(bytes.count), 1) else {
            free(copy)
            throw lastError("cannot add \(name)")
        }
        try add(name, source: source, to: za, stored: stored)
    }

    /// Adds `entry` of `archive` as it is stored there, under `name` (default: the same name): the
    /// compressed bytes are copied, never inflated and deflated again, so the entry's content is
    /// byte-identical and copying costs no compression. `archive` must stay open until `finish`
    /// (the writer keeps a reference).
    public func copy(_ entry: ZipEntry, from archive: ZipArchive, as name: String? = nil) throws {
        let name = name ?? entry.name
        if entry.isEncrypted {
            throw RedlineError.unsupported("zip entry '\(entry.name)' is encrypted; Redline does not decrypt")
        }
        let za = try open(name)
        var st = zip_stat_t()
        zip_stat_init(&st)
        let method: Int32 = archive.locked {
            zip_stat_index(archive.handle, UInt64(entry.index), 0, &st) == 0 && st.valid & UInt64(ZIP_STAT_COMP_METHOD) != 0
                ? Int32(st.comp_method) : ZIP_CM_DEFLATE
        }
        let source: OpaquePointer? = archive.locked {
            zip_source_zip(za, archive.handle, UInt64(entry.index), zip_flags_t(ZIP_FL_COMPRESSED), 0, -1)
        }
        guard let source else { throw lastError("cannot copy \(entry.name)") }
        let index = zip_file_add(za, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw lastError("cannot copy \(entry.name)")
        }
        sources.append(archive)
        guard zip_file_set_dostime(za, zip_uint64_t(index), 0, 0x21, 0) == 0,
              zip_file_set_external_attributes(za, zip_uint64_t(index), 0, zip_uint8_t(ZIP_OPSYS_UNIX), 0o100644 << 16) == 0,
              zip_set_file_compression(za, zip_uint64_t(index), method, 0) == 0
        else { throw lastError("cannot set the attributes of \(name)") }
    }

    /// Adds an entry holding the UTF-8 of `text` (`stored`: not deflated).
    public func add(_ name: String, text: String, stored: Bool = false) throws {
        try add(name, bytes: Array(text.utf8), stored: stored)
    }

    /// A temporary file for an entry written piece by piece; `add(_:)` puts it into the archive.
    public func spool(_ name: String) throws -> ZipSpool {
        spoolCount += 1
        return try ZipSpool(path: directory + "/spool-\(spoolCount)", name: name, level: Int32(level))
    }

    /// Closes `spool` and adds it as the next entry (libzip reads the file when the archive is finished).
    public func add(_ spool: ZipSpool) throws {
        let za = try open(spool.name)
        try spool.close()
        if let deflated = spool.deflated {
            let source = try DeflatedFileSource.make(za, path: spool.path, deflated, level: Int32(level))
            return try add(spool.name, source: source, to: za)
        }
        guard let source = zip_source_file(za, spool.path, 0, 0) else { throw lastError("cannot add \(spool.name)") }
        try add(spool.name, source: source, to: za)
    }

    /// Writes the archive and hands its bytes to `sink` in blocks.
    public func finish(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let za = archive else { throw RedlineError.io("the zip archive was already finished") }
        archive = nil
        guard zip_close(za) == 0 else {
            let message = String(cString: zip_strerror(za))
            zip_discard(za)
            throw RedlineError.io("cannot write the zip archive: \(message)")
        }
        guard let file = fopen(directory + "/archive.zip", "rb") else {
            throw RedlineError.io("cannot read back the zip archive: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { try block.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } }
            if n < block.count {
                if ferror(file) != 0 { throw RedlineError.io("cannot read back the zip archive") }
                break
            }
        }
    }

    // MARK: Internals

    private func open(_ name: String) throws -> OpaquePointer {
        guard let za = archive else { throw RedlineError.io("the zip archive was already finished") }
        guard names.insert(name).inserted else { throw RedlineError.io("duplicate zip entry \(name)") }
        return za
    }

    private func add(_ name: String, source: OpaquePointer, to za: OpaquePointer, stored: Bool = false) throws {
        let index = zip_file_add(za, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw lastError("cannot add \(name)")
        }
        try setAttributes(zip_uint64_t(index), za, name, stored: stored)
    }

    private func setAttributes(_ i: zip_uint64_t, _ za: OpaquePointer, _ name: String, stored: Bool = false) throws {
        // 1980-01-01 00:00:00, the earliest DOS date: no clock or time zone reaches the output.
        guard zip_file_set_dostime(za, i, 0, 0x21, 0) == 0,
              zip_file_set_external_attributes(za, i, 0, zip_uint8_t(ZIP_OPSYS_UNIX), 0o100644 << 16) == 0,
              zip_set_file_compression(za, i, stored ? ZIP_CM_STORE : ZIP_CM_DEFLATE, stored ? 0 : level) == 0
        else { throw lastError("cannot set the attributes of \(name)") }
    }

    private func lastError(_ what: String) -> RedlineError {
        guard let za = archive else { return RedlineError.io(what) }
        return RedlineError.io("\(what): \(String(cString: zip_strerror(za)))")
    }
}

/// The bytes of one zip entry, written in pieces to a temporary file through a 256 KiB buffer. An entry
/// larger than the buffer is deflated as it comes, on a thread of its own (`BackgroundDeflater`); a smaller
/// one is left to libzip.
public final class ZipSpool {
    let path: String
    let name: String
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8] = []
    private let capacity = 1 << 18
    private let level: Int32
    private var deflater: BackgroundDeflater?
    /// The deflated entry's sums, once closed, when it was deflated here.
    private(set) var deflated: BackgroundDeflater.Result?
    /// Bytes written so far.
    public private(set) var count = 0
    /// Bytes of memory the buffer holds (its capacity): 256 KiB while open, 0 once closed.
    var bufferedCapacity: Int { buffer.capacity }

    init(path: String, name: String, level: Int32 = 6) throws {
        guard let f = fopen(path, "wb") else {
            throw RedlineError.io("cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.name = name
        self.level = level
        file = f
        buffer.reserveCapacity(capacity)
    }

    deinit {
        if let deflater { deflater.cancel() } else if let file { fclose(file) }
    }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        count += bytes.count
        if buffer.count + bytes.count > capacity { try flush() }
        if bytes.count >= capacity { try put(bytes); return }
        buffer.append(contentsOf: bytes)
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Appends the UTF-8 of `text`.
    public func write(_ text: String) throws {
        var t = text
        try t.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Flushes and closes the file; the archive reads it when finished.
    public func close() throws {
        guard let f = file else { return }
        file = nil
        if let deflater {
            self.deflater = nil
            if !buffer.isEmpty { try deflater.put(buffer) }
            buffer = []
            deflated = try deflater.finish()
            return
        }
        if !buffer.isEmpty { try buffer.withUnsafeBytes { try put($0, to: f) } }
        buffer = []  // a closed spool waits for `finish` holding no memory (one per picture adds up)
        guard fclose(f) == 0 else { throw RedlineError.io("cannot write a temporary file: \(String(cString: strerror(errno)))") }
    }

    /// Hands the full buffer on: to the deflater, started with the first one.
    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try startDeflating()
        try deflater!.put(buffer)
        buffer = []
        buffer.reserveCapacity(capacity)
    }

    private func put(_ bytes: UnsafeRawBufferPointer) throws {
        try startDeflating()
        try deflater!.put(Array(bytes))
    }

    private func startDeflating() throws {
        guard deflater == nil else { return }
        guard let f = file else { throw RedlineError.io("\(name) was already closed") }
        deflater = try BackgroundDeflater(file: f, level: level)
    }

    private func put(_ bytes: UnsafeRawBufferPointer, to f: UnsafeMutablePointer<FILE>) throws {
        guard fwrite(bytes.baseAddress, 1, bytes.count, f) == bytes.count else {
            throw RedlineError.io("cannot write a temporary file: \(String(cString: strerror(errno)))")
        }
    }
}

@preconcurrency internal import CLibZip
import Foundation
import RedlineCore

/// Deflates a zip entry on a thread of its own while the entry is still being written, into a temporary
/// file, exactly as libzip would deflate it when the archive is finished (raw deflate, zlib's `level`, a
/// 32 KiB window, memory level 9: `ZipWriterTests` checks the bytes are the same). A large part
/// (`word/document.xml`) is then compressed while the writer makes it instead of after, on the second core
/// (PERFORMANCE.md, "Deflating beside the writer"). `ZipSpool` starts one when its first buffer fills;
/// smaller entries are left to libzip.
///
/// `@unchecked Sendable`: the queue fields are guarded by `condition`; the zlib stream, the file and the
/// sums are touched by the thread only until `finish` has joined it.
final class BackgroundDeflater: @unchecked Sendable {
    /// What libzip needs to store the deflated bytes as they are.
    struct Result {
        var crc: UInt32
        var size: UInt64
        var compressedSize: UInt64
    }

    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var closed = false
    private var failure: String?
    private let capacity = 2

    private var stream = z_stream()
    private let file: UnsafeMutablePointer<FILE>
    private var crc: UInt = 0
    private var size: UInt64 = 0
    private var compressedSize: UInt64 = 0
    private var output = [UInt8](repeating: 0, count: 1 << 18)
    private var thread: StackThread?

    /// Deflates into `file` (open for writing, empty), which the deflater closes (unless this throws).
    init(file: UnsafeMutablePointer<FILE>, level: Int32) throws {
        self.file = file
        let status = deflateInit2_(&stream, level, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            throw RedlineError.io("cannot start deflating (zlib error \(status))")
        }
        crc = crc32(0, nil, 0)
        thread = StackThread.spawn(name: "redline-deflate") { [self] in run() }
        if thread == nil {
            deflateEnd(&stream)
            throw RedlineError.io("cannot start a thread to deflate a zip entry")
        }
    }

    /// Queues `bytes` (waiting while two buffers are queued); throws if deflating failed.
    func put(_ bytes: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && failure == nil { condition.wait() }
        if let failure { throw RedlineError.io(failure) }
        queue.append(bytes)
        condition.broadcast()
    }

    /// Deflates what is queued, ends the stream, closes the file and gives its sums.
    func finish() throws -> Result {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        thread?.join()
        thread = nil
        if let failure { throw RedlineError.io(failure) }
        return Result(crc: UInt32(truncatingIfNeeded: crc), size: size, compressedSize: compressedSize)
    }

    /// Stops without finishing (the entry is abandoned).
    func cancel() {
        condition.lock()
        closed = true
        if failure == nil { failure = "the zip entry was abandoned" }
        queue = []
        condition.broadcast()
        condition.unlock()
        thread?.join()
        thread = nil
    }

    private func run() {
        defer {
            deflateEnd(&stream)
            if fclose(file) != 0 { fail("cannot write a temporary file: \(String(cString: strerror(errno)))") }
        }
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            let bytes = queue.isEmpty ? nil : queue.removeFirst()
            let stop = failure != nil
            condition.broadcast()
            condition.unlock()
            if stop { return }
            guard let bytes else {
                _ = deflate(nil, flush: Z_FINISH)
                return
            }
            guard deflate(bytes, flush: Z_NO_FLUSH) else { return }
        }
    }

    /// Runs zlib over `bytes` (or ends the stream), writing what comes out; false after a failure.
    private func deflate(_ bytes: [UInt8]?, flush: Int32) -> Bool {
        let input = bytes ?? []
        return input.withUnsafeBufferPointer { inp -> Bool in
            if let base = inp.baseAddress, !inp.isEmpty {
                crc = crc32(crc, base, UInt32(inp.count))
                size += UInt64(inp.count)
            }
            stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
            stream.avail_in = UInt32(inp.count)
            while true {
                let (status, produced) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    let status = zlibDeflate(&stream, flush)
                    return (status, out.count - Int(stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    fail("deflating a zip entry failed (zlib error \(status))")
                    return false
                }
                if produced > 0 {
                    let written = output.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, produced, file) }
                    guard written == produced else {
                        fail("cannot write a temporary file: \(String(cString: strerror(errno)))")
                        return false
                    }
                    compressedSize += UInt64(produced)
                }
                if flush == Z_FINISH ? status == Z_STREAM_END : (stream.avail_in == 0 && stream.avail_out > 0) { break }
            }
            stream.next_in = nil
            return true
        }
    }

    private func fail(_ message: String) {
        condition.lock()
        if failure == nil { failure = message }
        condition.broadcast()
        condition.unlock()
    }
}

/// zlib's `deflate` (the method of the same name shadows it inside the class).
private func zlibDeflate(_ stream: UnsafeMutablePointer<z_stream>, _ flush: Int32) -> Int32 {
    deflate(stream, flush)
}

/// A libzip source that hands libzip a file `BackgroundDeflater` made, stated as deflated with its CRC and
/// sizes, so libzip copies it into the archive as it is (it would otherwise deflate the entry again).
/// The general-purpose flags and version are what libzip's own deflating gives at `level`.
final class DeflatedFileSource {
    private let path: String
    private let result: BackgroundDeflater.Result
    private let level: Int32
    private var file: UnsafeMutablePointer<FILE>?
    private var error = zip_error_t()

    private init(path: String, result: BackgroundDeflater.Result, level: Int32) {
        self.path = path
        self.result = result
        self.level = level
        zip_error_init(&error)
    }

    deinit {
        if let file { fclose(file) }
        zip_error_fini(&error)
    }

    /// A source for `za` reading `path`; libzip frees it (and so releases this object).
    static func make(_ za: OpaquePointer, path: String, _ result: BackgroundDeflater.Result, level: Int32) throws -> OpaquePointer {
        // Safety: the source is retained once for libzip and released once: by ZIP_SOURCE_FREE (`handle`), the
        // last command libzip sends, or here when libzip did not take it; the callbacks in between borrow it.
        let context = Unmanaged.passRetained(DeflatedFileSource(path: path, result: result, level: level)).toOpaque()
        guard let source = zip_source_function(za, { context, data, length, command in
            Unmanaged<DeflatedFileSource>.fromOpaque(context!).takeUnretainedValue().handle(data, length, command)
        }, context) else {
            Unmanaged<DeflatedFileSource>.fromOpaque(context).release()
            throw RedlineError.io("cannot add a deflated entry: \(String(cString: zip_strerror(za)))")
        }
        return source
    }

    private func handle(_ data: UnsafeMutableRawPointer?, _ length: zip_uint64_t, _ command: zip_source_cmd_t) -> zip_int64_t {
        switch command {
        case ZIP_SOURCE_OPEN:
            guard let f = fopen(path, "rb") else { return fail(ZIP_ER_OPEN, errno) }
            file = f
            return 0
        case ZIP_SOURCE_READ:
            guard let file, let data else { return fail(ZIP_ER_INTERNAL, 0) }
            let n = fread(data, 1, Int(min(length, zip_uint64_t(Int.max))), file)
            if n == 0, ferror(file) != 0 { return fail(ZIP_ER_READ, errno) }
            return zip_int64_t(n)
        case ZIP_SOURCE_CLOSE:
            if let file { fclose(file) }
            file = nil
            return 0
        case ZIP_SOURCE_STAT:
            guard let data, length >= MemoryLayout<zip_stat_t>.size else { return fail(ZIP_ER_INVAL, 0) }
            let st = data.assumingMemoryBound(to: zip_stat_t.self)
            zip_stat_init(st)
            st.pointee.valid = zip_uint64_t(ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC | ZIP_STAT_ENCRYPTION_METHOD)
            st.pointee.size = result.size
            st.pointee.comp_size = result.compressedSize
            st.pointee.comp_method = zip_uint16_t(ZIP_CM_DEFLATE)
            st.pointee.encryption_method = zip_uint16_t(ZIP_EM_NONE)
            st.pointee.crc = result.crc
            return zip_int64_t(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_GET_FILE_ATTRIBUTES:
            guard let data, length >= MemoryLayout<zip_file_attributes_t>.size else { return fail(ZIP_ER_INVAL, 0) }
            let a = data.assumingMemoryBound(to: zip_file_attributes_t.self)
            zip_file_attributes_init(a)
            // As libzip's deflate gives: version 2.0, and bits 1–2 of the flags saying fast or maximum.
            a.pointee.valid = zip_uint64_t(ZIP_FILE_ATTRIBUTES_VERSION_NEEDED | ZIP_FILE_ATTRIBUTES_GENERAL_PURPOSE_BIT_FLAGS)
            a.pointee.version_needed = 20
            a.pointee.general_purpose_bit_mask = 0x0006
            a.pointee.general_purpose_bit_flags = level < 3 ? 2 << 1 : level > 7 ? 1 << 1 : 0
            return zip_int64_t(MemoryLayout<zip_file_attributes_t>.size)
        case ZIP_SOURCE_ERROR:
            return zip_error_to_data(&error, data, length)
        case ZIP_SOURCE_FREE:
            Unmanaged.passUnretained(self).release()
            return 0
        case ZIP_SOURCE_SUPPORTS:
            let commands = [ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR,
                            ZIP_SOURCE_FREE, ZIP_SOURCE_SUPPORTS, ZIP_SOURCE_GET_FILE_ATTRIBUTES]
            return commands.reduce(0) { $0 | (zip_int64_t(1) << zip_int64_t($1.rawValue)) }
        default:
            return fail(ZIP_ER_OPNOTSUPP, 0)
        }
    }

    private func fail(_ code: Int32, _ system: Int32) -> zip_int64_t {
        zip_error_set(&error, code, system)
        return -1
    }
}

@preconcurrency internal import CLibZip
import RedlineCore

/// Reads one zip entry's inflated content in pieces, enforcing the archive's limits on every piece:
/// the entry's size, the archive's total and the compression ratio, counted from the bytes actually
/// inflated (the sizes in the headers are not trusted). Closes itself at the end or when released.
/// One thread at a time may use a stream (its archive may be used meanwhile: libzip is called under the
/// archive's lock).
public final class ZipEntryStream {
    /// The entry being read.
    public let entry: ZipEntry
    /// Bytes inflated so far.
    public private(set) var bytesRead: UInt64 = 0
    private let archive: ZipArchive
    private var file: OpaquePointer?
    private var crc = CRC32()
    /// False for a second stream over an entry already read whole: its bytes count against the entry's
    /// limits but not again against the archive's total.
    private let countsTowardArchive: Bool

    init(archive: ZipArchive, entry: ZipEntry, file: OpaquePointer, countsTowardArchive: Bool = true) {
        self.archive = archive
        self.entry = entry
        self.file = file
        self.countsTowardArchive = countsTowardArchive
    }

    deinit { close() }

    /// Fills the start of `buffer`; returns how many bytes were read, 0 at the end of the entry.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let f = file, buffer.count > 0 else { return 0 }
        let n = archive.locked { zip_fread(f, buffer.baseAddress!, UInt64(buffer.count)) }
        if n < 0 {
            let message = archive.locked { String(cString: zip_error_strerror(zip_file_get_error(f))) }
            close()
            throw RedlineError.malformed(archive.label("zip entry '\(entry.name)' is damaged: \(message)"))
        }
        if n == 0 { close(); return 0 }
        crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<Int(n)]))
        bytesRead += UInt64(n)
        // Checked as soon as the declared size is in (a reader may stop at the root element's end, before
        // libzip's own check at the end of the data): a stored entry with a wrong CRC is damaged.
        if bytesRead == entry.declaredSize, let expected = entry.crc, crc.value != expected {
            close()
            throw RedlineError.malformed(archive.label("zip entry '\(entry.name)' is damaged: its content does not match its CRC-32"))
        }
        try checkLimits(archiveTotal: archive.addInflated(countsTowardArchive ? UInt64(n) : 0))
        return Int(n)
    }

    private func checkLimits(archiveTotal: UInt64) throws {
        let limits = archive.limits
        let name = archive.label("zip entry '\(entry.name)'")
        if bytesRead > limits.maxEntryBytes {
            close()
            throw RedlineError.limit("\(name) inflates to more than \(limits.maxEntryBytes) bytes (a zip bomb? \(Limits.name("maxEntryBytes", limits.maxEntryBytes)))")
        }
        if archiveTotal > limits.maxInflatedBytes {
            close()
            throw RedlineError.limit(archive.label("the zip archive inflates to more than \(limits.maxInflatedBytes) bytes (a zip bomb? \(Limits.name("maxInflatedBytes", limits.maxInflatedBytes)))"))
        }
        if bytesRead > limits.ratioCheckedAbove && bytesRead / max(entry.compressedSize, 1) > limits.maxCompressionRatio {
            close()
            throw RedlineError.limit("\(name) inflates past \(limits.ratioCheckedAbove) bytes at more than \(limits.maxCompressionRatio) times its stored size (a zip bomb? \(Limits.name("maxCompressionRatio", limits.maxCompressionRatio)))")
        }
    }

    /// Releases the entry (reading after this returns 0).
    public func close() {
        if let f = file { archive.locked { _ = zip_fclose(f) } }
        file = nil
    }
}

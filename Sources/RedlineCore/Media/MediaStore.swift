import Foundation

/// The pictures of one document, filled by its reader: each distinct picture once, named by the SHA-256 of
/// its bytes and kept in a temporary file, so chunks carry a `MediaItem` (a few words) instead of bytes,
/// memory stays flat however many pictures there are, and identical pictures are stored once.
/// Enforces `Limits.maxPictureBytes` (per picture) and `Limits.maxMediaBytes` (per document): a picture
/// over either is left out with a warning, never an error for the document.
public final class MediaStore: @unchecked Sendable {
    /// The limits this store enforces.
    public let limits: Limits
    private let lock = NSLock()
    private var byID: [String: MediaItem] = [:]
    private var total = 0
    private var directory: String?

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Distinct pictures stored so far.
    public var count: Int { lock.withLock { byID.count } }

    /// Stores `bytes`; nil (reported, naming `name`) when over a limit or not writable.
    public func add(_ bytes: [UInt8], name: String, diagnostics: Diagnostics,
                    at location: SourceLocation? = nil) -> MediaItem? {
        guard checkSize(bytes.count, name: name, diagnostics: diagnostics, at: location) else { return nil }
        var hash = SHA256()
        hash.update(bytes)
        let id = hash.hexDigest()
        return lock.withLock {
            if let known = byID[id] { return known }
            if total + bytes.count > limits.maxMediaBytes {
                diagnostics.report(.mediaTooLarge, "pictures past the per-document limit (\(limits.maxMediaBytes >> 20) MiB in all) were left out: \(name)", at: location)
                return nil
            }
            do {
                let kind = MediaKind.sniff(bytes)
                let (path, dir) = try newFile(id: id, kind: kind)
                try Self.write(bytes, to: path)
                let item = MediaItem(id: id, kind: kind, byteCount: bytes.count, info: PictureInfo.read(bytes, kind: kind),
                                     file: MediaFile(path: path, directory: dir))
                byID[id] = item
                total += bytes.count
                return item
            } catch {
                diagnostics.report(.mediaUnreadable, "a picture could not be kept (\(name)): \(error)", at: location)
                return nil
            }
        }
    }

    /// Stores the picture in the file at `path` (read whole: pictures are capped by `maxPictureBytes`);
    /// nil (reported) when it is missing, unreadable or over a limit.
    public func add(contentsOf path: String, name: String, diagnostics: Diagnostics,
                    at location: SourceLocation? = nil) -> MediaItem? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = attributes[.size] as? Int else {
            diagnostics.report(.mediaMissing, "a picture file was not found: \(name)", at: location)
            return nil
        }
        guard checkSize(size, name: name, diagnostics: diagnostics, at: location) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            diagnostics.report(.mediaUnreadable, "a picture file could not be read: \(name)", at: location)
            return nil
        }
        return add([UInt8](data), name: name, diagnostics: diagnostics, at: location)
    }

    /// Stores the picture in a `data:…;base64,` URI; nil when `uri` is not one (reported when it is
    /// malformed or over a limit).
    public func add(dataURI uri: String, diagnostics: Diagnostics, at location: SourceLocation? = nil) -> MediaItem? {
        guard uri.prefix(5).lowercased() == "data:" else { return nil }
        guard let comma = uri.firstIndex(of: ","), uri[..<comma].lowercased().hasSuffix(";base64"),
              let data = Data(base64Encoded: String(uri[uri.index(after: comma)...]), options: .ignoreUnknownCharacters)
        else {
            diagnostics.report(.mediaUnreadable, "a data: URI picture is not base64 data and was left as a link", at: location)
            return nil
        }
        return add([UInt8](data), name: "a data: URI picture", diagnostics: diagnostics, at: location)
    }

    private func checkSize(_ n: Int, name: String, diagnostics: Diagnostics, at location: SourceLocation?) -> Bool {
        if n > limits.maxPictureBytes {
            diagnostics.report(.mediaTooLarge, "a picture over the size limit (\(limits.maxPictureBytes >> 20) MiB) was left out: \(name)", at: location)
            return false
        }
        return true
    }

    /// Writes a temporary copy with plain POSIX calls (Foundation's file writes fsync each file).
    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RedlineError.io("cannot write a temporary file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try bytes.withUnsafeBytes { b in
            var off = 0
            while off < b.count {
                let n = Foundation.write(fd, b.baseAddress! + off, b.count - off)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw RedlineError.io("cannot write a temporary file \(path): \(String(cString: strerror(errno)))") }
                off += n
            }
        }
    }

    private func newFile(id: String, kind: MediaKind) throws -> (String, String) {
        if directory == nil {
            let dir = NSTemporaryDirectory() + "redline-media-\(getpid())-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            directory = dir
        }
        return (directory! + "/" + id + "." + kind.fileExtension, directory!)
    }
}

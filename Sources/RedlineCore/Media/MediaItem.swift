import Foundation

/// One picture a document carries, by content: its SHA-256, kind, size and header facts, and the
/// temporary file holding its bytes (owned by the `MediaStore` that made it; removed when the last item
/// referring to it is gone). Chunks carry this small value, never the bytes. Equal ids, equal bytes.
public struct MediaItem: Hashable, Sendable, Codable {
    /// Lowercase hex SHA-256 of the bytes.
    public let id: String
    public let kind: MediaKind
    public let byteCount: Int
    /// Pixel size and resolution, when the header is readable (PNG, JPEG, GIF, BMP).
    public let info: PictureInfo?
    /// Not encoded: a decoded item has no bytes at hand.
    var file: MediaFile? = nil

    /// The picture's bytes (read from its file).
    public func bytes() throws -> [UInt8] {
        guard let file else { throw RedlineError.io("the bytes of picture \(id.prefix(12)) are not available") }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw RedlineError.io("cannot read the temporary copy of a picture (\(file.path))")
        }
        return [UInt8](data)
    }

    /// Calls `body` with the bytes in pieces of at most 64 KiB.
    public func read(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let file, let h = FileHandle(forReadingAtPath: file.path) else {
            throw RedlineError.io("the bytes of picture \(id.prefix(12)) are not available")
        }
        defer { try? h.close() }
        while true {
            let d = try h.read(upToCount: 1 << 16) ?? Data()
            if d.isEmpty { break }
            try d.withUnsafeBytes { try body($0) }
        }
    }

    public static func == (a: MediaItem, b: MediaItem) -> Bool { a.id == b.id && a.kind == b.kind }
    public func hash(into h: inout Hasher) { h.combine(id) }

    enum CodingKeys: String, CodingKey { case id, kind, byteCount, info }
}

/// A temporary file holding one picture; removed (with its folder, once empty) when released.
final class MediaFile: Sendable {
    let path: String
    let directory: String

    init(path: String, directory: String) {
        self.path = path
        self.directory = directory
    }

    deinit {
        unlink(path)
        rmdir(directory)
    }
}

import RedlineZip

/// Every file entry of a ZIP package by name, with its bytes: for the tests that check which parts a write left
/// byte for byte as they were.
public func zipEntries(_ path: String) throws -> [String: [UInt8]] {
    let zip = try ZipArchive(path: path)
    var out: [String: [UInt8]] = [:]
    for e in zip.entries where !e.isDirectory { out[e.name] = try zip.read(e) }
    return out
}

/// A package's file entries in archive order, to change one and build the package again.
public enum ZipEntries {
    public struct Part {
        public var name: String
        public var bytes: [UInt8]

        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// The file entries of the package `bytes`.
    public static func read(_ bytes: [UInt8]) throws -> [Part] {
        let zip = try ZipArchive(bytes: bytes)
        return try zip.entries.filter { !$0.isDirectory }.map { Part(name: $0.name, bytes: try zip.read($0)) }
    }

    /// A package of `parts`, in their order.
    public static func package(_ parts: [Part]) throws -> [UInt8] {
        let z = try ZipWriter(compressionLevel: 1)
        for p in parts { try z.add(p.name, bytes: p.bytes) }
        var out: [UInt8] = []
        try z.finish { out.append(contentsOf: $0) }
        return out
    }
}

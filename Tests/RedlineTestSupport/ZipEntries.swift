import RedlineZip

/// Every file entry of a ZIP package by name, with its bytes: for the tests that check which parts a write left
/// byte for byte as they were.
public func zipEntries(_ path: String) throws -> [String: [UInt8]] {
    let zip = try ZipArchive(path: path)
    var out: [String: [UInt8]] = [:]
    for e in zip.entries where !e.isDirectory { out[e.name] = try zip.read(e) }
    return out
}

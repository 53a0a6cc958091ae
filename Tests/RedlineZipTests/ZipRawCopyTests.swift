import Foundation
import RedlineCore
import RedlineZip
import XCTest

/// `ZipWriter.copy`: an entry of another archive added as stored, never inflated and deflated again.
final class ZipRawCopyTests: XCTestCase {
    func testCopyKeepsTheCompressedBytes() throws {
        // A source written at level 9, copied by a level-1 writer: recompression would change the size.
        let text = (0..<4000).map { "line \($0) of some repetitive XML <w:t>text</w:t>\n" }.joined()
        let source = try ZipWriter(compressionLevel: 9)
        try source.add("word/document.xml", text: text)
        try source.add("word/media/image1.png", bytes: [0x89, 0x50, 0x4E, 0x47] + (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        var sourceBytes: [UInt8] = []
        try source.finish { sourceBytes.append(contentsOf: $0) }
        let archive = try ZipArchive(bytes: sourceBytes)

        let copy = try ZipWriter(compressionLevel: 1)
        for e in archive.entries { try copy.copy(e, from: archive) }
        try copy.add("extra.xml", text: "<a/>")
        var copied: [UInt8] = []
        try copy.finish { copied.append(contentsOf: $0) }
        let result = try ZipArchive(bytes: copied)
        for e in archive.entries {
            let c = try XCTUnwrap(result.entry(named: e.name))
            XCTAssertEqual(c.compressedSize, e.compressedSize, "\(e.name): compressed bytes copied, not recompressed")
            XCTAssertEqual(try result.read(c), try archive.read(e), e.name)
        }
        XCTAssertEqual(try result.read(named: "extra.xml"), Array("<a/>".utf8))
        // Level 1 would not have made the same size: the test can tell a copy from a recompression.
        let level1 = try ZipWriter(compressionLevel: 1)
        try level1.add("word/document.xml", text: text)
        var l1: [UInt8] = []
        try level1.finish { l1.append(contentsOf: $0) }
        XCTAssertNotEqual(try ZipArchive(bytes: l1).entry(named: "word/document.xml")?.compressedSize,
                          archive.entry(named: "word/document.xml")?.compressedSize)
    }

    func testCopyRefusesDuplicatesAndEncryptedEntries() throws {
        let source = try ZipWriter()
        try source.add("a.xml", text: "<a/>")
        var bytes: [UInt8] = []
        try source.finish { bytes.append(contentsOf: $0) }
        let archive = try ZipArchive(bytes: bytes)
        let w = try ZipWriter()
        try w.copy(archive.entries[0], from: archive)
        XCTAssertThrowsError(try w.copy(archive.entries[0], from: archive))
        var encrypted = archive.entries[0]
        encrypted.isEncrypted = true
        XCTAssertThrowsError(try w.copy(encrypted, from: archive, as: "b.xml"))
    }
}

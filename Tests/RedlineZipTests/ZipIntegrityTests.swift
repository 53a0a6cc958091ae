import Foundation
import RedlineCore
@testable import RedlineZip
import XCTest

/// Archives that are damaged or ambiguous in ways libzip lets through (issue 15), built here byte by byte.
final class ZipIntegrityTests: XCTestCase {
    /// A zip of stored (uncompressed) entries, each `(name, data, crc)`; a nil crc writes the right one.
    private func storedZip(_ entries: [(String, [UInt8], UInt32?)]) -> [UInt8] {
        var out: [UInt8] = [], central: [UInt8] = []
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        for (name, data, given) in entries {
            var c = CRC32()
            data.withUnsafeBytes { c.update($0) }
            let crc = given ?? c.value
            let n = Array(name.utf8), offset = UInt32(out.count)
            let common = u16(20) + u16(0) + u16(0) + u16(0) + u16(0x21) + u32(crc) + u32(UInt32(data.count)) + u32(UInt32(data.count)) + u16(n.count) + u16(0)
            out += [0x50, 0x4B, 0x03, 0x04] + common + n + data
            central += [0x50, 0x4B, 0x01, 0x02] + u16(20) + common + u16(0) + u16(0) + u16(0) + u32(0) + u32(offset) + n
        }
        let start = UInt32(out.count)
        out += central
        out += [0x50, 0x4B, 0x05, 0x06] + u16(0) + u16(0) + u16(entries.count) + u16(entries.count) + u32(UInt32(central.count)) + u32(start) + u16(0)
        return out
    }

    func testCRC32() {
        var c = CRC32()
        Array("123456789".utf8).withUnsafeBytes { c.update($0) }
        XCTAssertEqual(c.value, 0xCBF4_3926)
    }

    /// Slicing-by-8 (eight bytes a step) agrees with the bit-by-bit definition at every length and
    /// alignment, and when the bytes come in pieces.
    func testCRC32SlicingAgreesWithTheDefinition() {
        func reference(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var c: UInt32 = ~0
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        var x: UInt32 = 12345  // a fixed linear congruential sequence: every byte value, replayable
        let data = (0..<300).map { _ -> UInt8 in x = x &* 1_103_515_245 &+ 12345; return UInt8(truncatingIfNeeded: x >> 16) }
        for start in 0..<9 {
            for end in stride(from: start, through: data.count, by: 7) {
                var c = CRC32()
                data[start..<end].withUnsafeBytes { c.update($0) }
                XCTAssertEqual(c.value, reference(data[start..<end]), "bytes \(start)..<\(end)")
            }
        }
        var pieces = CRC32()
        for cut in stride(from: 0, to: data.count, by: 13) { data[cut..<min(cut + 13, data.count)].withUnsafeBytes { pieces.update($0) } }
        XCTAssertEqual(pieces.value, reference(data[...]))
    }

    /// OPC names compare case-insensitively: an exact name first, else the first entry equal but for case
    /// (looked up in a map, not by comparing every entry).
    func testEntryNamesCompareCaseInsensitively() throws {
        let z = try ZipArchive(bytes: storedZip([("Dir/", [], nil), ("dir/A.xml", [1], nil), ("[Content_Types].xml", [2], nil)]))
        XCTAssertEqual(z.entry(named: "dir/A.xml")?.name, "dir/A.xml")
        XCTAssertEqual(z.entry(named: "/DIR/a.XML")?.name, "dir/A.xml")
        XCTAssertEqual(z.entry(named: "[content_types].xml")?.name, "[Content_Types].xml")
        XCTAssertEqual(z.entry(named: "dir/")?.name, "Dir/")
        XCTAssertNil(z.entry(named: "dir/b.xml"))
    }

    func testStoredEntryWithAWrongCRCIsRefused() throws {
        let good = try ZipArchive(bytes: storedZip([("a.xml", Array("<a>text</a>".utf8), nil)]))
        XCTAssertEqual(try good.read(named: "a.xml"), Array("<a>text</a>".utf8))
        let bad = try ZipArchive(bytes: storedZip([("a.xml", Array("<a>text</a>".utf8), 0x1234_5678)]))
        XCTAssertThrowsError(try bad.read(named: "a.xml")) { e in
            let r = e as? RedlineError
            XCTAssertEqual(r?.kind, .malformedInput)
            XCTAssertTrue(r?.message.contains("CRC-32") == true, "\(e)")
        }
    }

    func testDuplicatedEntryIsRefusedAsAmbiguous() {
        for second in ["word/document.xml", "WORD/Document.xml"] {
            let bytes = storedZip([("word/document.xml", Array("<a/>".utf8), nil), (second, Array("<b/>".utf8), nil)])
            XCTAssertThrowsError(try ZipArchive(bytes: bytes)) { e in
                XCTAssertTrue("\(e)".contains("two entries named") && "\(e)".contains("ambiguous"), "\(e)")
            }
        }
    }

    func testEntryCountLimitNamesTheLimit() {
        var limits = Limits()
        limits.maxZipEntries = 2
        let bytes = storedZip((0..<3).map { ("f\($0)", [], nil) })
        XCTAssertThrowsError(try ZipArchive(bytes: bytes, limits: limits)) { e in
            XCTAssertEqual((e as? RedlineError)?.kind, .limitExceeded)
            XCTAssertTrue("\(e)".contains("Limits.maxZipEntries"), "\(e)")
        }
    }

    /// A real document part made of a million repeated runs compresses past 200:1; it is not a bomb.
    func testRepetitiveDocumentPartIsNotABomb() throws {
        let z = try ZipWriter()
        let run = "<w:r><w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\">word </w:t></w:r>"
        let part = Array(String(repeating: run, count: 200_000).utf8)
        try z.add("word/document.xml", bytes: part)
        var bytes: [UInt8] = []
        try z.finish { bytes.append(contentsOf: $0) }
        XCTAssertGreaterThan(part.count / bytes.count, 200)
        let archive = try ZipArchive(bytes: bytes)
        XCTAssertEqual(try archive.read(named: "word/document.xml")?.count, part.count)
    }
}

extension ZipIntegrityTests {
    /// The reader may stop reading a part at its root element's end: the CRC is checked when the declared
    /// size is in, so a damaged stored part is still refused.
    func testCRCIsCheckedWithoutReadingPastTheDeclaredSize() throws {
        let data = Array("<a>text</a>".utf8)
        let archive = try ZipArchive(bytes: storedZip([("a.xml", data, 0x1234_5678)]))
        let stream = try archive.open(try XCTUnwrap(archive.entry(named: "a.xml")))
        var buffer = [UInt8](repeating: 0, count: data.count)
        XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }) { e in
            XCTAssertTrue("\(e)".contains("CRC-32"), "\(e)")
        }
    }
}

extension ZipIntegrityTests {
    /// An empty entry (fuzzing: its one-byte buffer leaked) is written and read back.
    func testEmptyEntryRoundTrips() throws {
        let z = try ZipWriter()
        try z.add("empty.xml", bytes: [])
        try z.add("full.xml", bytes: [1, 2, 3])
        var bytes: [UInt8] = []
        try z.finish { bytes.append(contentsOf: $0) }
        let archive = try ZipArchive(bytes: bytes)
        XCTAssertEqual(try archive.read(named: "empty.xml"), [])
        XCTAssertEqual(try archive.read(named: "full.xml"), [1, 2, 3])
    }
}

import Foundation
import RedlineCore
@testable import RedlineZip
import XCTest

/// The deterministic zip writer: what it writes reads back, in order, dated 1980, byte-identical run to run.
final class ZipWriterTests: XCTestCase {
    private func archive(_ build: (ZipWriter) throws -> Void) throws -> [UInt8] {
        let zip = try ZipWriter()
        try build(zip)
        var out: [UInt8] = []
        try zip.finish { out.append(contentsOf: $0) }
        return out
    }

    private func sample() throws -> [UInt8] {
        try archive { zip in
            try zip.add("[Content_Types].xml", text: "<Types/>")
            let spool = try zip.spool("word/document.xml")
            for i in 0..<50_000 { try spool.write("<w:p>paragraph \(i)</w:p>") }
            try zip.add("docProps/core.xml", text: "<core/>")
            try zip.add(spool)
            try zip.add("empty", bytes: [])
        }
    }

    /// The DOCX writer keeps one closed spool per picture until the archive is finished: a closed spool
    /// must hold no buffer (each kept 256 KiB: 300 pictures took 114 MB; PERFORMANCE.md, "Pictures").
    func testClosedSpoolHoldsNoBuffer() throws {
        let zip = try ZipWriter()
        var spools: [ZipSpool] = []
        for i in 0..<3 {
            let spool = try zip.spool("word/media/image\(i).png")
            try spool.write([UInt8](repeating: UInt8(i), count: 10_000))
            XCTAssertGreaterThanOrEqual(spool.bufferedCapacity, 1 << 18, "an open spool buffers its writes")
            try zip.add(spool)
            XCTAssertEqual(spool.bufferedCapacity, 0, "spool \(i) kept its buffer after close")
            spools.append(spool)
        }
        var out: [UInt8] = []
        try zip.finish { out.append(contentsOf: $0) }
        let read = try ZipArchive(bytes: out)
        XCTAssertEqual(try read.read(read.entries[1]), [UInt8](repeating: 1, count: 10_000))
    }

    func testEntriesReadBackInTheOrderAdded() throws {
        let bytes = try sample()
        let read = try ZipArchive(bytes: bytes)
        XCTAssertEqual(read.entries.map(\.name), ["[Content_Types].xml", "docProps/core.xml", "word/document.xml", "empty"])
        XCTAssertEqual(try read.read(named: "[Content_Types].xml"), Array("<Types/>".utf8))
        let document = try XCTUnwrap(try read.read(named: "word/document.xml"))
        XCTAssertEqual(document.count, (0..<50_000).reduce(0) { $0 + "<w:p>paragraph \($1)</w:p>".utf8.count })
        XCTAssertTrue(String(decoding: document.suffix(30), as: UTF8.self).hasSuffix("<w:p>paragraph 49999</w:p>"))
        XCTAssertLessThan(read.entries[2].compressedSize, read.entries[2].declaredSize / 4, "deflated")
        XCTAssertEqual(try read.read(named: "empty"), [])
    }

    func testSameEntriesGiveTheSameBytes() throws {
        XCTAssertEqual(try sample(), try sample())
    }

    func testEntriesAreDatedTheFirstDOSDay() throws {
        let bytes = try sample()
        // Local file header: modification time at offset 10, date at 12 (little-endian).
        XCTAssertEqual(Array(bytes[10..<14]), [0, 0, 0x21, 0])
    }

    func testDuplicateNamesAreRefused() throws {
        let zip = try ZipWriter()
        try zip.add("a", text: "1")
        XCTAssertThrowsError(try zip.add("a", text: "2")) { XCTAssertTrue("\($0)".contains("duplicate")) }
    }

    /// A spool larger than its buffer is deflated beside the writer (`BackgroundDeflater`) and handed to
    /// libzip as deflated: the archive must be byte for byte what libzip gives deflating the same bytes
    /// itself, at each level, for text, incompressible bytes, and sizes around the buffer's 256 KiB,
    /// written in random pieces (some larger than the buffer).
    func testDeflatingBesideTheWriterGivesLibzipsBytes() throws {
        var rng = SystemRandomNumberGenerator()
        let buffer = 1 << 18
        var text: [UInt8] = []
        while text.count < 3_000_000 { text += Array("<w:r><w:rPr><w:b/></w:rPr><w:t>word \(text.count % 977)</w:t></w:r>".utf8) }
        let noise = (0..<1_200_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let cases: [(String, [UInt8])] = [
            ("text, one byte short", Array(text[..<(buffer - 1)])), ("text, the buffer", Array(text[..<buffer])),
            ("text, one byte over", Array(text[..<(buffer + 1)])), ("text, 3 MB", text), ("noise, 1.2 MB", noise),
        ]
        for level in [1, 6, 9] {
            for (label, bytes) in cases {
                func build(spooled: Bool) throws -> [UInt8] {
                    let zip = try ZipWriter(compressionLevel: level)
                    try zip.add("first.xml", text: "<first/>")
                    if spooled {
                        let spool = try zip.spool("word/document.xml")
                        var k = 0
                        while k < bytes.count {
                            let n = min(bytes.count - k, Int.random(in: 1...(buffer + 5_000), using: &rng))
                            try spool.write(Array(bytes[k..<(k + n)]))
                            k += n
                        }
                        try zip.add(spool)
                    } else {
                        try zip.add("word/document.xml", bytes: bytes)
                    }
                    try zip.add("last.xml", text: "<last/>")
                    var out: [UInt8] = []
                    try zip.finish { out.append(contentsOf: $0) }
                    return out
                }
                let spooled = try build(spooled: true), whole = try build(spooled: false)
                XCTAssertEqual(spooled.count, whole.count, "level \(level), \(label)")
                XCTAssertTrue(spooled == whole, "level \(level), \(label): the archives differ")
                let read = try ZipArchive(bytes: spooled)
                XCTAssertEqual(try read.read(named: "word/document.xml"), bytes, "level \(level), \(label)")
            }
        }
    }
}

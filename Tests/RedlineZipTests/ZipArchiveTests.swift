import Foundation
import RedlineCore
import RedlineZip
import XCTest

/// The repository root and the shared corpus beside it.
private let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
private func bad(_ name: String) -> String { repo.appendingPathComponent("Corpus/bad/\(name)").path }
private let corpus = repo.appendingPathComponent("../shared/corpus").standardized

final class ZipArchiveTests: XCTestCase {
    func testListsAndReadsEntriesFromPathAndBytes() throws {
        let path = bad("good.docx")
        let fromPath = try ZipArchive(path: path)
        XCTAssertEqual(fromPath.entries.map(\.name), ["[Content_Types].xml", "_rels/.rels", "word/document.xml"])
        let doc = try XCTUnwrap(fromPath.read(named: "word/document.xml"))
        XCTAssertTrue(String(decoding: doc, as: UTF8.self).contains("Hello, world."))
        XCTAssertEqual(UInt64(doc.count), fromPath.entry(named: "word/document.xml")?.declaredSize)

        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let fromBytes = try ZipArchive(bytes: bytes)
        XCTAssertEqual(try fromBytes.read(named: "/WORD/document.xml"), doc, "leading slash and case are ignored")
        XCTAssertNil(try fromBytes.read(named: "word/missing.xml"))
    }

    func testStreamsAnEntryInPieces() throws {
        let file = corpus.appendingPathComponent("docx2python/example.docx").path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: file), "shared corpus not found")
        let archive = try ZipArchive(path: file)
        let entry = try XCTUnwrap(archive.entry(named: "word/document.xml"))
        let stream = try archive.open(entry)
        var pieces = 0
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1000)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { break }
            pieces += 1
            all += buffer[0..<n]
        }
        XCTAssertGreaterThan(pieces, 1)
        XCTAssertEqual(all, try archive.read(entry))
    }

    func testNotAZip() {
        assertError(.malformedInput, "not a zip archive") { _ = try ZipArchive(path: bad("not-a-zip.docx")) }
        assertError(.malformedInput, "not a zip archive") { _ = try ZipArchive(bytes: Array("hello".utf8)) }
        assertError(.malformedInput, "not a zip archive: it is an RTF file (name it .rtf or pass --from rtf)") {
            _ = try ZipArchive(bytes: Array("{\\rtf1\\ansi hello}".utf8))
        }
        assertError(.malformedInput, "empty") { _ = try ZipArchive(bytes: []) }
    }

    func testTruncated() {
        assertError(.malformedInput, "truncated") { _ = try ZipArchive(path: bad("truncated.docx")) }
    }

    func testMissingFile() {
        assertError(.io, "no such file") { _ = try ZipArchive(path: bad("does-not-exist.docx")) }
    }

    func testHostileEntryNamesAreRefused() {
        assertError(.malformedInput, "'../../evil.xml'") { _ = try ZipArchive(path: bad("entry-dotdot.docx")) }
        assertError(.malformedInput, "'/etc/evil.xml'") { _ = try ZipArchive(path: bad("entry-absolute.docx")) }
    }

    func testEntryNameChecks() {
        for ok in ["word/document.xml", "a..b/c", "[Content_Types].xml", "x/./y"] { XCTAssertTrue(ZipEntryName.isSafe(ok), ok) }
        for no in ["", "/a", "\\a", "C:a", "c:/x", "a/../b", "..", "a\\..\\b", "a/..", "a\0b"] {
            XCTAssertFalse(ZipEntryName.isSafe(no), no)
        }
    }

    func testZipBombStopsOnRatioWhileInflating() throws {
        var limits = Limits()
        limits.ratioCheckedAbove = 1 << 20
        let archive = try ZipArchive(path: bad("zip-bomb.docx"), limits: limits)
        let entry = try XCTUnwrap(archive.entry(named: "word/document.xml"))
        assertError(.limitExceeded, "times its stored size") { _ = try archive.read(entry) }
    }

    func testEntryAndTotalLimits() throws {
        var limits = Limits()
        limits.maxEntryBytes = 300
        let small = try ZipArchive(path: bad("good.docx"), limits: limits)
        XCTAssertEqual(try small.read(named: "_rels/.rels")?.count, 298)
        assertError(.limitExceeded, "claims 430 bytes, more than the limit of 300") { _ = try small.read(named: "[Content_Types].xml") }

        // Headers that lie (declaring 200 bytes for 430) are caught while inflating.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: bad("good.docx"))))
        func patch(signature: [UInt8], sizeOffset: Int) {
            for i in 0..<(bytes.count - 4) where Array(bytes[i..<(i + 4)]) == signature {
                let nameLength = Int(bytes[i + (signature[2] == 1 ? 28 : 26)]) | Int(bytes[i + (signature[2] == 1 ? 29 : 27)]) << 8
                let nameStart = i + (signature[2] == 1 ? 46 : 30)
                guard nameStart + nameLength <= bytes.count,
                      String(decoding: bytes[nameStart..<(nameStart + nameLength)], as: UTF8.self) == "[Content_Types].xml" else { continue }
                bytes[i + sizeOffset] = 200
                bytes[i + sizeOffset + 1] = 0
            }
        }
        patch(signature: [0x50, 0x4B, 0x03, 0x04], sizeOffset: 22)
        patch(signature: [0x50, 0x4B, 0x01, 0x02], sizeOffset: 24)
        let lying = try ZipArchive(bytes: bytes, limits: limits)
        XCTAssertEqual(lying.entry(named: "[Content_Types].xml")?.declaredSize, 200)
        do {
            _ = try lying.read(named: "[Content_Types].xml")
            XCTFail("a lying entry was read whole")
        } catch let e as RedlineError {
            XCTAssertTrue(e.kind == .limitExceeded || e.kind == .malformedInput, e.message)
        }

        limits = Limits()
        limits.maxInflatedBytes = 600
        let total = try ZipArchive(path: bad("good.docx"), limits: limits)
        _ = try total.read(named: "[Content_Types].xml")
        assertError(.limitExceeded, "the zip archive inflates to more than 600") { _ = try total.read(named: "_rels/.rels") }
    }

    func testEncryptedEntryIsRefused() throws {
        // A zip with one ZipCrypto-encrypted entry, made with `zip -P pw`.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redline-zip-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("secret text".utf8).write(to: dir.appendingPathComponent("a.txt"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["zip", "-q", "-P", "pw", "e.zip", "a.txt"]
        p.currentDirectoryURL = dir
        try XCTSkipIf((try? p.run()) == nil, "zip not installed")
        p.waitUntilExit()
        try XCTSkipUnless(p.terminationStatus == 0, "zip failed")
        let archive = try ZipArchive(path: dir.appendingPathComponent("e.zip").path)
        XCTAssertEqual(archive.entries.first?.isEncrypted, true)
        assertError(.unsupportedInput, "encrypted") { _ = try archive.read(named: "a.txt") }
    }
}

func assertError(_ kind: RedlineError.Kind, _ fragment: String, file: StaticString = #filePath, line: UInt = #line,
                 _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("expected a \(kind) error containing '\(fragment)'", file: file, line: line)
    } catch let e as RedlineError {
        XCTAssertEqual(e.kind, kind, e.message, file: file, line: line)
        XCTAssertTrue(e.message.contains(fragment), "'\(e.message)' lacks '\(fragment)'", file: file, line: line)
    } catch {
        XCTFail("not a RedlineError: \(error)", file: file, line: line)
    }
}

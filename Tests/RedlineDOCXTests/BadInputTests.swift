import Foundation
import RedlineCore
import RedlineDOCX
import XCTest

/// Broken and hostile inputs (Corpus/bad, made by Corpus/bad/make-bad.py): each gives one clear
/// `RedlineError`, never a crash or a hang.
final class BadInputTests: XCTestCase {
    /// Reads `name` completely and returns the error it gives.
    private func error(reading name: String, file: StaticString = #filePath, line: UInt = #line) -> RedlineError? {
        let start = Date()
        defer { XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(name) took too long", file: file, line: line) }
        do {
            _ = try Fixtures.read(Fixtures.bad(name))
            XCTFail("\(name) was read without error", file: file, line: line)
            return nil
        } catch let e as RedlineError {
            return e
        } catch {
            XCTFail("\(name): not a RedlineError: \(error)", file: file, line: line)
            return nil
        }
    }

    private func expect(_ name: String, _ kind: RedlineError.Kind, _ fragments: String..., file: StaticString = #filePath, line: UInt = #line) {
        guard let e = error(reading: name, file: file, line: line) else { return }
        XCTAssertEqual(e.kind, kind, e.message, file: file, line: line)
        for f in fragments { XCTAssertTrue(e.message.contains(f), "'\(e.message)' lacks '\(f)'", file: file, line: line) }
        XCTAssertFalse(e.message.contains("\n"), "one line: \(e.message)", file: file, line: line)
    }

    func testGoodFixtureReads() throws {
        let doc = try Fixtures.read(Fixtures.bad("good.docx"))
        XCTAssertEqual(Fixtures.paragraphs(doc), ["Hello, world."])
    }

    func testNotAZip() { expect("not-a-zip.docx", .malformedInput, "not a zip archive") }
    func testTruncatedZip() { expect("truncated.docx", .malformedInput, "truncated") }
    func testLegacyDoc() { expect("legacy.doc", .unsupportedInput, "legacy Word 97-2003", "save it as .docx") }
    func testEncryptedDOCX() { expect("encrypted.docx", .unsupportedInput, "encrypted", "remove the password") }
    /// 300 MB at 1000:1: past `Limits.ratioCheckedAbove`, the ratio refuses it before inflating.
    func testZipBomb() { expect("zip-bomb.docx", .limitExceeded, "zip bomb", "Limits.maxCompressionRatio = 200") }
    func testDotDotEntryName() { expect("entry-dotdot.docx", .malformedInput, "../../evil.xml", "hostile") }
    func testAbsoluteEntryName() { expect("entry-absolute.docx", .malformedInput, "/etc/evil.xml", "hostile") }
    func testMissingDocumentXML() { expect("missing-document.docx", .malformedInput, "not a Word document", "word/document.xml") }
    func testMalformedXML() { expect("malformed-xml.docx", .malformedInput, "word/document.xml", "line") }
    func testExternalEntity() { expect("xxe.docx", .unsupportedInput, "word/document.xml", "DTD") }
    func testBillionLaughs() {
        guard let e = error(reading: "billion-laughs.docx") else { return }
        XCTAssertTrue(e.message.contains("word/document.xml"), e.message)
        XCTAssertTrue(e.kind == .malformedInput || e.kind == .unsupportedInput, e.message)
    }
    func testInvalidUTF8() { expect("invalid-utf8.docx", .malformedInput, "word/document.xml", "UTF-8") }

    func testBytesInputGivesTheSameErrors() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.bad("legacy.doc"))))
        XCTAssertThrowsError(try DOCXReader().open(.bytes(bytes), options: ReadOptions(), diagnostics: Diagnostics())) {
            XCTAssertEqual(($0 as? RedlineError)?.kind, .unsupportedInput)
        }
        XCTAssertThrowsError(try DOCXReader().open(.bytes([]), options: ReadOptions(), diagnostics: Diagnostics())) {
            XCTAssertEqual(($0 as? RedlineError)?.kind, .malformedInput)
        }
    }
}

import XCTest
@testable import RedlineCore

/// A file given to the wrong reader (an RTF named .docx, a DOCX named .rtf) is named for what it is, with
/// the flag that reads it.
final class FileSniffingTests: XCTestCase {
    func testWhatTheFirstBytesLookLike() {
        XCTAssertEqual(FileSniffing.looksLike(Array("{\\rtf1\\ansi x}".utf8)), "it is an RTF file (name it .rtf or pass --from rtf)")
        XCTAssertEqual(FileSniffing.looksLike([0xEF, 0xBB, 0xBF, 0x0A] + Array("{\\RTF1".utf8))?.hasPrefix("it is an RTF"), true)
        XCTAssertEqual(FileSniffing.looksLike([0x50, 0x4B, 0x03, 0x04, 0x14])?.hasPrefix("it is a zip archive"), true)
        XCTAssertEqual(FileSniffing.looksLike([0xD0, 0xCF, 0x11, 0xE0, 0xA1])?.hasPrefix("it is an OLE"), true)
        XCTAssertEqual(FileSniffing.looksLike(Array("%PDF-1.7".utf8))?.hasPrefix("it is a PDF"), true)
        XCTAssertEqual(FileSniffing.looksLike(Array("<!DOCTYPE html><html>".utf8))?.hasPrefix("it is HTML"), true)
        XCTAssertEqual(FileSniffing.looksLike(Array("  <?xml version=\"1.0\"?>".utf8))?.hasPrefix("it is an XML file"), true)
        XCTAssertNil(FileSniffing.looksLike(Array("# A heading".utf8)))
        XCTAssertNil(FileSniffing.looksLike(Array("[\\rtf] is how an RTF file starts".utf8)), "only letters fold: [ is not {")
        XCTAssertNil(FileSniffing.looksLike([]))
    }
}

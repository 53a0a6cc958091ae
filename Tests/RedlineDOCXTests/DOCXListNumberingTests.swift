import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import XCTest

/// Every ordered list the writer starts is its own `w:num` with a `w:startOverride`, so Word (which counts
/// on across instances of one abstract definition) restarts it as LibreOffice does; our reader, which
/// follows Word's rule, and LibreOffice's text both number the lists as the Markdown does.
final class DOCXListNumberingTests: XCTestCase {
    static let source = """
    1. a
    2. b

    Para.

    1. c
    2. d
       1. d1
       2. d2
    3. e
       1. e1

    Para.

    7. f
    8. g

    - x
      1. x1
    - y
      1. y1

    """

    func testOrderedListsRestartInOurReaderAndLibreOffice() throws {
        guard let md = FormatRegistry.named("md"), md.reader != nil, md.writer != nil else {
            throw FormatMissing("needs the Markdown reader and writer")
        }
        let model = try Converter.read(.bytes(Array(Self.source.utf8)), format: md)
        let bytes = try DOCXTest.write(model)
        let numbering = try DOCXTest.part("word/numbering.xml", of: bytes)
        // One instance per list; every ordered one overrides the start of its level.
        XCTAssertEqual(numbering.components(separatedBy: "<w:num ").count - 1, 8)
        XCTAssertEqual(numbering.components(separatedBy: "<w:startOverride ").count - 1, 7)

        let back = try Converter.read(.bytes(bytes), format: FormatRegistry.named("docx")!)
        XCTAssertEqual(try DOCXWriterCriticMarkupTests.markdown(back, md), try DOCXWriterCriticMarkupTests.markdown(model, md))

        let text = try DOCXTest.libreOfficeText(try DOCXTest.file(bytes, named: "lists.docx"))
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces.union(["\u{FEFF}"])) }
        XCTAssertEqual(lines, ["1. a", "2. b", "Para.", "1. c", "2. d", "1. d1", "2. d2", "3. e", "1. e1", "Para.",
                               "7. f", "8. g", "• x", "1. x1", "• y", "1. y1"])
    }
}

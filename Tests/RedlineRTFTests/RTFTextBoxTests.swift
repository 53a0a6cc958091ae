import Foundation
import XCTest
import RedlineCore
import RedlineTestSupport
@testable import RedlineRTF

/// Text boxes in RTF (`{\shp{\*\shpinst … {\shptxt …}}}`): their text is read, after the paragraph that anchors
/// them (as the DOCX reader places a `w:txbxContent`), with one `rtf.text-box` warning; nothing is read twice
/// from Word's old-reader fallback (`\shprslt` with `\*\do`). They were skipped whole before, and a document laid
/// out in text boxes read as empty.
final class RTFTextBoxTests: XCTestCase {
    func testATextBoxIsReadAfterItsAnchor() throws {
        let rtf = #"""
        {\rtf1\ansi\deff0 {\fonttbl{\f0 Times;}}
        \pard Before the anchor{\shp{\*\shpinst\shpleft0\shptop0\shpright2000\shpbottom1000{\sp{\sn shapeType}{\sv 202}}{\shptxt \pard\plain {\b Box} one\par Box two\par}}{\shprslt{\*\do\dobxcolumn\dptxbx{\dptxbxtext\pard Box one\par Box two\par}}}} and after.\par
        \pard Next paragraph.\par
        }
        """#
        let diagnostics = Diagnostics()
        let doc = try RTFTestSupport.read(rtf, diagnostics: diagnostics)
        XCTAssertEqual(doc.blocks.map(\.plainText), ["Before the anchor and after.", "Box one", "Box two", "Next paragraph."])
        XCTAssertEqual(doc.blocks[1].paragraph?.content.first, .strong([.text("Box")]))
        XCTAssertEqual(diagnostics.count(of: .rtfTextBox), 1)
    }

    func testATextBoxInATableCellStaysInTheCell() throws {
        let rtf = #"""
        {\rtf1\ansi\deff0 {\fonttbl{\f0 Times;}}
        \trowd\cellx2000\cellx4000\pard\intbl A{\shp{\*\shpinst{\shptxt \pard Boxed\par}}}\cell B\cell\row
        \pard After.\par
        }
        """#
        let doc = try RTFTestSupport.read(rtf)
        guard case .table(let t)? = doc.blocks.first else { return XCTFail("\(doc.blocks)") }
        XCTAssertEqual(t.rows.first?.cells.first?.blocks.map(\.plainText), ["A", "Boxed"])
        XCTAssertEqual(doc.blocks.last?.plainText, "After.")
    }

    /// A document laid out in text boxes, saved as RTF by LibreOffice: every word the DOCX reader reads from the
    /// Word original is read from the RTF too (the dates aside: LibreOffice updates the save-date field).
    func testLibreOfficeRTFOfAWordFileInShapes() throws {
        let docx = RTFTestSupport.corpusFile("pandoc/text_in_shape_format.docx")
        guard FileManager.default.fileExists(atPath: docx) else { throw XCTSkip("\(docx) is not there") }
        try TestProcess.require("soffice")
        let dir = NSTemporaryDirectory() + "redline-rtf-box-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try TestProcess.run(["soffice", "--headless", "-env:UserInstallation=file://\(dir)/profile",
                                 "--convert-to", "rtf", "--outdir", dir, docx])
        let rtf = dir + "/text_in_shape_format.rtf"
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: rtf), "LibreOffice wrote no RTF")
        let diagnostics = Diagnostics()
        let doc = try RTFReader().read(.bytes([UInt8](bytes)), diagnostics: diagnostics)
        let ours = Set(RTFTestSupport.words(RTFTestSupport.text(doc)))
        XCTAssertGreaterThan(diagnostics.count(of: .rtfTextBox), 0)
        for w in ["Using", "Microsoft", "Word", "Technical", "Documents", "Valter", "Kiisk", "Institute", "Physics", "Tartu"] {
            XCTAssertTrue(ours.contains(w) || ours.contains(w + ","), "\(w) not read from the RTF: \(ours.sorted())")
        }
    }
}

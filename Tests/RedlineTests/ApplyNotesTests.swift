import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// `apply` and `combine` write the body's changes: an edit inside a footnote is said (`apply.note-unplaced`,
/// counted), never dropped without a word, while the body's edits still land.
final class ApplyNotesTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-apply-notes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func testANoteEditIsReportedAndTheBodyEditLands() throws {
        let source = "Alpha beta gamma.[^1]\n\nDelta epsilon.\n\n[^1]: A note here, and more.\n"
        let edited = "Alpha beta gamma.[^1]\n\nDelta zeta epsilon.\n\n[^1]: A note there, and less.\n"
        for format in [FormatRegistry.markdown, FormatRegistry.docx, FormatRegistry.rtf] {
            let original = try FormatFixtures.file(source, "o-\(format.name)", as: format, in: dir)
            let e = try FormatFixtures.file(edited, "e-\(format.name)", as: format, in: dir)
            let d = Diagnostics()
            let out = dir + "/out-\(format.name).\(format.name)"
            _ = try Application.apply(edited: e, onto: original, options: ApplyOptions(compare: CompareOptions(author: "Ed")),
                                      toFile: out, diagnostics: d)
            XCTAssertEqual(d.count(of: .applyNoteUnplaced), 2, "\(format.name): \(d.all)")
            let accepted = try FormatFixtures.paragraphs(out, format, ReviewOptions(changes: .accept), in: dir)
            XCTAssertTrue(accepted.contains("Delta zeta epsilon."), "\(format.name): \(accepted)")
        }
    }
}

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

    private func write(_ text: String, _ name: String, as format: Format = FormatRegistry.markdown) throws -> String {
        let md = dir + "/\(name).md"
        try Data(text.utf8).write(to: URL(fileURLWithPath: md))
        guard !format.isSame(as: FormatRegistry.markdown) else { return md }
        let path = dir + "/\(name).\(format.name)"
        try Converter.convert(.file(md), toFile: path, options: ConversionOptions(from: FormatRegistry.markdown, to: format),
                              diagnostics: Diagnostics())
        return path
    }

    func testANoteEditIsReportedAndTheBodyEditLands() throws {
        let source = "Alpha beta gamma.[^1]\n\nDelta epsilon.\n\n[^1]: A note here, and more.\n"
        let edited = "Alpha beta gamma.[^1]\n\nDelta zeta epsilon.\n\n[^1]: A note there, and less.\n"
        for format in [FormatRegistry.markdown, FormatRegistry.docx, FormatRegistry.rtf] {
            let original = try write(source, "o-\(format.name)", as: format)
            let e = try write(edited, "e-\(format.name)", as: format)
            let d = Diagnostics()
            let out = dir + "/out-\(format.name).\(format.name)"
            _ = try Application.apply(edited: e, onto: original, options: ApplyOptions(compare: CompareOptions(author: "Ed")),
                                      toFile: out, diagnostics: d)
            XCTAssertEqual(d.count(of: .applyNoteUnplaced), 2, "\(format.name): \(d.all)")
            let view = dir + "/view-\(format.name).md"
            try Converter.convert(.file(out), toFile: view,
                                  options: ConversionOptions(from: format, to: FormatRegistry.markdown, changes: .accept),
                                  diagnostics: Diagnostics())
            let text = try String(contentsOfFile: view, encoding: .utf8)
            XCTAssertTrue(text.contains("Delta zeta epsilon."), "\(format.name): \(text)")
        }
    }
}

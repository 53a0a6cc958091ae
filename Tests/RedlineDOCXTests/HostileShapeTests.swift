import Foundation
import RedlineCore
@testable import RedlineDOCX
import XCTest

/// Shapes that made the DOCX reader superlinear (issue 15); the time is measured by `make bench`
/// (scripts/bench/70-hostile.sh), these check the result.
final class HostileShapeTests: XCTestCase {
    func testRevisionsNested9000DeepAreCappedWithAWarning() throws {
        let depth = 9_000
        var body = "<w:p>"
        for k in 0..<(depth / 2) { body += "<w:ins w:id=\"\(2 * k)\" w:author=\"A\"><w:del w:id=\"\(2 * k + 1)\" w:author=\"B\">" }
        body += "<w:r><w:t>deep</w:t></w:r>" + String(repeating: "</w:del></w:ins>", count: depth / 2) + "<w:r><w:t> after</w:t></w:r></w:p>"
        let d = Diagnostics()
        let doc = try DOCXBlockStyleTests.read(body: body, styles: "", diagnostics: d)
        XCTAssertEqual(doc.blocks.first?.plainText, "deep after")
        XCTAssertEqual(d.all.first { $0.code == .docxRevisionNesting }?.message.contains("Limits.maxRevisionNesting = 16"), true)
        // The nesting kept is the limit's: an insertion, a deletion inside it, and so on 16 deep.
        var depthKept = 0
        var inline = doc.blocks.first?.paragraph?.content.first
        while let i = inline, case .insertion = i { depthKept += 1; inline = i.children.first; if case .deletion? = inline { depthKept += 1; inline = inline?.children.first } }
        XCTAssertEqual(depthKept, 16)
    }
}

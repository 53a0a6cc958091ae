import Foundation
import Redline
import RedlineCore
import XCTest

/// A comment nothing in the text anchors cannot be placed in Markdown or HTML: it is left out with a
/// warning, never silently (issue 15).
final class UnanchoredCommentTests: XCTestCase {
    func testUnanchoredCommentIsReportedByMarkdownAndHTML() throws {
        let doc = Document(blocks: [.paragraph(Paragraph([.text("Text.")]))],
                           comments: [Comment(id: "c1", author: "Ann", body: [.paragraph(Paragraph([.text("lost?")]))])])
        for (format, code) in [("md", "markdown.unanchored-comment"), ("html", "html.unanchored-comment")] {
            let d = Diagnostics()
            try Converter.write(doc, format: FormatRegistry.named(format)!, to: MemoryOutput(), diagnostics: d)
            XCTAssertEqual(d.all.first { $0.code.rawValue == code }?.count, 1, "\(format): \(d.all)")
        }
        // An anchored one is not reported.
        let anchored = Document(blocks: [.paragraph(Paragraph([.text("Text."), .commentPoint("c1")]))], comments: doc.comments)
        for format in ["md", "html"] {
            let d = Diagnostics()
            try Converter.write(anchored, format: FormatRegistry.named(format)!, to: MemoryOutput(), diagnostics: d)
            XCTAssertNil(d.all.first { $0.code.rawValue.hasSuffix("unanchored-comment") }, "\(format): \(d.all)")
        }
    }
}

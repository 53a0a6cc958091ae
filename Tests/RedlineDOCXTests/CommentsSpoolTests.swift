import XCTest
import Foundation
@testable import RedlineDOCX
@testable import RedlineZip
import RedlineCore

/// The DOCX writer spools `comments.xml`, `commentsExtended.xml` and `commentsIds.xml` as it makes them
/// (`SpooledPart`), so a document of many comments holds none of their XML whole (PERFORMANCE.md, "Comments").
final class CommentsSpoolTests: XCTestCase {
    func testSpooledPartStaysSmallAndLosesNothing() throws {
        let zip = try ZipWriter()
        var part = SpooledPart(try zip.spool("word/comments.xml"))
        var whole = XMLText()
        var largest = 0
        for k in 0..<50_000 {
            part.x.open("w:comment", [("w:id", String(k))]); part.x.text("comment \(k)"); part.x.close("w:comment")
            whole.open("w:comment", [("w:id", String(k))]); whole.text("comment \(k)"); whole.close("w:comment")
            largest = max(largest, part.x.bytes.count)
            try part.flushIfFull()
        }
        let spool = try part.finished()
        try zip.add(spool)  // a spool past 256 KiB is deflated as written: read it back through the archive
        var archive: [UInt8] = []
        try zip.finish { archive.append(contentsOf: $0) }
        XCTAssertLessThan(largest, SpooledPart.flushSize + 128)
        XCTAssertGreaterThan(whole.bytes.count, 10 * SpooledPart.flushSize)
        XCTAssertEqual(try ZipArchive(bytes: archive).read(named: "word/comments.xml"), whole.bytes)
    }

    /// 3,000 comments (every third a reply, every fifth resolved): the three parts are whole and read back.
    func testManyCommentsAreWrittenWhole() throws {
        var blocks: [Block] = []
        var comments: [Comment] = []
        for k in 0..<3_000 where k % 3 != 2 {
            if k % 3 == 0 {
                blocks.append(.paragraph(Paragraph([.commentStart("c\(k)"), .text("Sentence \(k). "), .commentEnd("c\(k)")])))
            }
            comments.append(Comment(id: "c\(k)", author: "A\(k % 7)", date: "2024-05-01T10:00:00Z",
                                    body: [.paragraph(Paragraph([.text("Comment \(k) body.")]))], resolved: k % 5 == 0,
                                    parentID: k % 3 == 1 ? "c\(k - 1)" : nil))
        }
        let bytes = try DOCXTest.write(Document(blocks: blocks, comments: comments))
        let xml = try DOCXTest.part("word/comments.xml", of: bytes)
        XCTAssertTrue(xml.hasPrefix(xmlDeclaration + "<w:comments "))
        XCTAssertTrue(xml.hasSuffix("</w:comment></w:comments>"))
        XCTAssertGreaterThan(xml.utf8.count, 4 * SpooledPart.flushSize)
        XCTAssertTrue(try DOCXTest.part("word/commentsExtended.xml", of: bytes).hasSuffix("</w15:commentsEx>"))
        XCTAssertTrue(try DOCXTest.part("word/commentsIds.xml", of: bytes).hasSuffix("</w16cid:commentsIds>"))
        var source = try DOCXReader().open(.bytes(bytes), options: ReadOptions(), diagnostics: Diagnostics())
        let back = try Document(reading: &source)
        XCTAssertEqual(back.comments.count, comments.count)
        XCTAssertEqual(back.comments.map(\.resolved), comments.map(\.resolved))
        XCTAssertEqual(back.comments.map { $0.parentID != nil }, comments.map { $0.parentID != nil })
        let text = { (c: Comment) in c.body.map { $0.paragraph?.content ?? [] } }
        XCTAssertEqual(back.comments.map(text), comments.map(text))
    }
}

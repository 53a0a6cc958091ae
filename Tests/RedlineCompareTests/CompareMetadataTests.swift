import XCTest
import Foundation
import ArgumentParser
@testable import RedlineCompare
import Redline
import RedlineCLI

/// Issue #33: metadata is compared as metadata. A title block one side shows in its body (pandoc's DOCX from
/// Markdown front matter) and the other keeps only in its front matter is no body change; differing fields are a
/// `compare.metadata` warning.
final class CompareMetadataTests: XCTestCase {
    static func para(_ text: String, style: String? = nil) -> Block {
        .paragraph(Paragraph([.text(text)], style: ParagraphStyle(name: style)))
    }

    static func markdown(title: String) -> Document {
        var d = Document(blocks: [para("First paragraph here."), para("Second paragraph.")])
        d.metadata["title"] = .text(title)
        d.metadata["author"] = .text("Ann")
        return d
    }

    /// What pandoc makes of the Markdown: the same metadata, and a title block in the body.
    static func word(title: String) -> Document {
        var d = Document(blocks: [para(title, style: "Title"), para("Ann", style: "Author"),
                                  para("First paragraph here."), para("Second paragraph.")])
        d.metadata["title"] = .text(title)
        d.metadata["author"] = .list(["Ann"])
        return d
    }

    func testTitleBlockIsNotBodyTextEitherWay() {
        let md = Self.markdown(title: "My Great Draft"), docx = Self.word(title: "My Great Draft")
        let d = Diagnostics()
        let (forward, stats) = DocumentComparer.compare(old: md, new: docx, diagnostics: d)
        XCTAssertTrue(stats.isEmpty, "\(stats)")
        XCTAssertEqual(DocumentComparer.trackedChangeCount(forward), 0)
        XCTAssertEqual(forward.blocks, docx.blocks)
        XCTAssertFalse(d.all.contains { $0.code == .compareMetadata }, "\(d.all)")
        let (back, backStats) = DocumentComparer.compare(old: docx, new: md)
        XCTAssertTrue(backStats.isEmpty)
        XCTAssertEqual(back.blocks, md.blocks)
        XCTAssertEqual(back.metadata, md.metadata)
    }

    func testADifferentTitleIsAMetadataDifference() {
        let d = Diagnostics()
        let (result, stats) = DocumentComparer.compare(old: Self.markdown(title: "My Great Draft"), new: Self.word(title: "My Better Draft"),
                                                       diagnostics: d)
        XCTAssertTrue(stats.isEmpty)
        XCTAssertEqual(result.metadata["title"], .text("My Better Draft"))
        let warning = d.all.first { $0.code == .compareMetadata }
        XCTAssertNotNil(warning)
        XCTAssertTrue(warning?.message.contains("title (OLD \"My Great Draft\", NEW \"My Better Draft\")") ?? false, "\(String(describing: warning))")
    }

    func testTitleParagraphsOnBothSidesAreBodyText() {
        let (_, stats) = DocumentComparer.compare(old: Self.word(title: "My Great Draft"), new: Self.word(title: "My Better Draft"))
        XCTAssertFalse(stats.isEmpty)
    }

    func testTitleParagraphNotTheMetadataTitleIsBodyText() {
        var docx = Self.word(title: "My Great Draft")
        docx.blocks[0] = Self.para("Something else", style: "Title")
        let (_, stats) = DocumentComparer.compare(old: Self.markdown(title: "My Great Draft"), new: docx)
        XCTAssertFalse(stats.isEmpty)
    }

    /// Through the command: a Markdown draft against a DOCX with its title block in the body, both ways.
    func testCommandFindsNoChangeBetweenFrontMatterAndTitleBlock() throws {
        let tmp = NSTemporaryDirectory() + "redline-compare-meta-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let md = tmp + "/draft.md"
        try "---\ntitle: My Great Draft\nauthor: Ann\n---\n\nFirst paragraph here.\n\nSecond paragraph.\n".write(toFile: md, atomically: true, encoding: .utf8)
        let docx = tmp + "/edited.docx"
        let bytes = MemoryOutput()
        try Converter.write(Self.word(title: "My Great Draft"), format: FormatRegistry.named("docx")!, to: bytes)
        try Data(bytes.bytes).write(to: URL(fileURLWithPath: docx))
        for (old, new, out) in [(md, docx, tmp + "/a.md"), (docx, md, tmp + "/b.md")] {
            var command = try RedlineCommand.parseAsRoot(["compare", old, new, "-o", out, "-q"])
            try LargeStack.run { try command.run() }
            let text = try String(contentsOfFile: out, encoding: .utf8)
            XCTAssertFalse(text.contains("{++") || text.contains("{--") || text.contains("{~~"), text)
        }
    }
}

import Foundation
import XCTest
import Redline
@testable import RedlineRTF

/// RTF through Markdown: with --keep-formatting nothing is lost; without it every kind of loss is reported.
final class RTFMarkdownTests: XCTestCase {
    private let md = FormatRegistry.named("md")
    private let rtf = FormatRegistry.named("rtf")!

    private func fixture(_ name: String) -> String {
        RTFTestSupport.repository.appendingPathComponent("Corpus/rtf/\(name).rtf").path
    }

    private func viaMarkdown(_ doc: Document, keepFormatting: Bool, _ diags: Diagnostics = Diagnostics()) throws -> (String, Document) {
        guard let md else { throw XCTSkip("no Markdown format in this build") }
        let out = MemoryOutput()
        try Converter.write(doc, format: md, to: out, options: WriteOptions(preserveFormatting: keepFormatting), diagnostics: diags)
        let back = try Converter.read(.bytes(out.bytes), format: md)
        return (out.string, back)
    }

    /// Text one reviewer inserted and another deleted: one run marked `\revised` and `\deleted`, read back
    /// as the deletion nested in the insertion, so accepting and rejecting both remove it.
    func testDeletionInsideInsertionRoundTrips() throws {
        let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z"), bob = Change(author: "Bob", date: "2024-01-16T09:00:00Z")
        let content: [Inline] = [.text("Keep "), .insertion(ann, [.text("new "), .deletion(bob, [.text("gone "), .strong([.text("bold")])]), .text(" tail")])]
        let doc = Document(blocks: [.paragraph(Paragraph(content))])
        let d = Diagnostics()
        let bytes = try RTFWriter().write(doc, diagnostics: d)
        XCTAssertEqual(d.count(of: .rtfNestedChange), 0)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("\\revised\\revauth1"), text)
        XCTAssertTrue(text.contains("\\revised\\revauth1\\revdttm"), text)
        XCTAssertTrue(text.contains("\\deleted\\revauthdel2"), text)
        let back = try RTFReader().read(.bytes(bytes))
        XCTAssertEqual(back.blocks.first?.paragraph?.content, content)
        for (mode, expected) in [(ChangeMode.accept, "Keep new  tail"), (.reject, "Keep ")] {
            XCTAssertEqual(try back.applying([ReviewTransform(mode)]).blocks.first?.plainText, expected)
        }
    }

    func testKeepFormattingRoundTripsRTF() throws {
        for name in ["scrivener-manuscript", "revisions-annotations"] {
            let doc = Self.renumberingComments(try Converter.read(.file(fixture(name)), format: rtf))
            let (text, back) = try viaMarkdown(doc, keepFormatting: true)
            if back.blocks != doc.blocks { XCTFail("\(name): " + RTFTestSupport.difference(back.blocks, doc.blocks) + "\n" + text) }
            XCTAssertEqual(back.comments, doc.comments, name)
            XCTAssertEqual(back.notes, doc.notes, name)
            XCTAssertEqual(back.metadata, doc.metadata, name)
            // And back to RTF: the same document again.
            let again = try RTFReader().read(.bytes(try RTFWriter().write(back)))
            XCTAssertEqual(again.blocks, doc.blocks, name)
        }
    }

    /// CriticMarkup numbers comments itself: give the document's comments those numbers first.
    static func renumberingComments(_ d: Document) -> Document {
        var names: [String: String] = [:]
        for c in d.comments where names[c.id] == nil { names[c.id] = "\(names.count + 1)" }
        func rename(_ xs: [Inline]) -> [Inline] {
            xs.map { x in
                switch x {
                case .commentStart(let id): return .commentStart(names[id] ?? id)
                case .commentEnd(let id): return .commentEnd(names[id] ?? id)
                case .commentPoint(let id): return .commentPoint(names[id] ?? id)
                default: return x.mapChildren(rename)
                }
            }
        }
        func renameBlock(_ b: Block) -> Block {
            switch b {
            case .paragraph(var p): p.content = rename(p.content); return .paragraph(p)
            case .heading(let l, var p): p.content = rename(p.content); return .heading(level: l, p)
            default: return b.mapBlockArrays { $0.map(renameBlock) }
            }
        }
        var out = d
        out.blocks = d.blocks.map(renameBlock)
        out.comments = d.comments.map { c in
            var c = c
            c.id = names[c.id] ?? c.id
            c.parentID = c.parentID.map { names[$0] ?? $0 }
            return c
        }
        return out
    }

    func testPlainMarkdownReportsEachLoss() throws {
        let doc = try Converter.read(.file(fixture("scrivener-manuscript")), format: rtf)
        let diags = Diagnostics()
        _ = try viaMarkdown(doc, keepFormatting: false, diags)
        let codes = Dictionary(diags.all.map { ($0.code.rawValue, $0.count) }, uniquingKeysWith: +)
        // Five prose paragraphs indented, six spaced 1.2, two centred, runs in three Palatino faces.
        XCTAssertEqual(codes["lossy.paragraph-indent"], 5, "\(diags.all)")
        XCTAssertEqual(codes["lossy.line-spacing"], 6, "\(diags.all)")
        XCTAssertEqual(codes["lossy.alignment"], 2, "\(diags.all)")
        XCTAssertNotNil(codes["lossy.font"], "\(diags.all)")
        XCTAssertNotNil(codes["lossy.font-size"], "\(diags.all)")
        XCTAssertNotNil(codes["lossy.tab-stops"], "\(diags.all)")
    }
}

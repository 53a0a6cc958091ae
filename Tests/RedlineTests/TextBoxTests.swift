import Foundation
import XCTest
import Redline
import RedlineTestSupport

/// Issue 31: text boxes are stories in place. A text box's blocks follow the paragraph that anchors it, each
/// paragraph carrying the box (`Paragraph.textBox`); DOCX writes a VML text box, RTF a shape with `\shptxt`,
/// Markdown with `--keep-formatting` a `.redline-text-box` div (else the blocks and `lossy.text-box`), HTML a
/// `div.text-box`. Tracked changes inside them travel with them; compare keeps them (`--no-textboxes`: NEW's
/// boxes unmarked).
final class TextBoxTests: XCTestCase {
    private func write(_ doc: Document, _ format: Format, keepFormatting: Bool = false,
                       diagnostics: Diagnostics = Diagnostics()) throws -> [UInt8] {
        try ModelRoundTrip.write(doc, format, keepFormatting: keepFormatting, diagnostics: diagnostics)
    }

    private func read(_ bytes: [UInt8], _ format: Format, diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        try ModelRoundTrip.read(bytes, format, diagnostics: diagnostics)
    }

    /// The blocks as "box: text [+insertions -deletions]" lines; boxes are named by order of appearance (readers
    /// number them their own way), "-" outside any box.
    private func outline(_ doc: Document, sizes: Bool = true, defaultWidth: Double? = nil, defaultHeight: Double? = nil) -> [String] {
        var names: [Int: Int] = [:]
        var last: TextBox?
        var count = 0
        return doc.blocks.map { b in
            var ins = 0, del = 0
            b.forEachInline {
                switch $0 {
                case .insertion: ins += 1
                case .deletion: del += 1
                default: break
                }
            }
            var name = "-"
            if let box = b.textBox {
                if box != last { count += 1; names[box.number] = count }
                var size = ""
                if sizes, let w = box.width ?? defaultWidth { size += " w\(w)" }
                if sizes, let h = box.height ?? defaultHeight { size += " h\(h)" }
                name = "box\(count)\(size)"
            }
            last = b.textBox
            return "\(name): \(b.plainText) [+\(ins) -\(del)]"
        }
    }

    private func randomDocument(_ r: inout SeededRandom) -> Document {
        var blocks: [Block] = []
        var number = 0
        for i in 0..<Int.random(in: 1...10, using: &r) {
            var content: [Inline] = [.text("Paragraph \(i + 1)")]
            switch Int.random(in: 0..<4, using: &r) {
            case 0: content.append(.insertion(Change(author: "Ann"), [.text(" added")]))
            case 1: content.append(.deletion(Change(author: "Bo"), [.text(" removed")]))
            default: break
            }
            content.append(.text("."))
            let p = Paragraph(content)
            if Int.random(in: 0..<3, using: &r) == 0 {
                // A box of one to three blocks (a heading among them now and then).
                number += 1
                let box = TextBox(number: number, width: Bool.random(using: &r) ? Double(Int.random(in: 100...400, using: &r)) : nil,
                                  height: Bool.random(using: &r) ? Double(Int.random(in: 20...200, using: &r)) : nil)
                for k in 0..<Int.random(in: 1...3, using: &r) {
                    var q = p
                    q.content.append(.text(" Boxed \(k + 1)."))
                    q.textBox = box
                    blocks.append(k == 1 && Bool.random(using: &r) ? .heading(level: 2, q) : .paragraph(q))
                }
            } else {
                blocks.append(.paragraph(p))
            }
        }
        return Document(blocks: blocks)
    }

    /// Random documents of paragraphs and boxes, with tracked changes inside and outside them: DOCX keeps every
    /// box with its size, RTF every box with its size, Markdown with `--keep-formatting` every box
    /// with its size; all without a warning that they were lost.
    func testRandomBoxesSurviveDOCXRTFAndMarkdown() throws {
        var r = SeededRandom(seed: SeededRandom.seed(default: 311))
        var boxes = 0
        for round in 0..<60 {
            let doc = randomDocument(&r)
            let expected = outline(doc)
            // DOCX gives a box without a width the text width (6.5 in).
            let expectedDOCX = outline(doc, defaultWidth: 468)
            boxes += Set(doc.blocks.compactMap { $0.textBox?.number }).count
            let docx = try read(try write(doc, FormatRegistry.docx), FormatRegistry.docx)
            XCTAssertEqual(outline(docx), expectedDOCX, "DOCX, round \(round)")
            let rtf = try read(try write(doc, FormatRegistry.rtf), FormatRegistry.rtf)
            // RTF gives a box without a size the text width and half an inch (it grows to fit its text).
            XCTAssertEqual(outline(rtf), outline(doc, defaultWidth: 468, defaultHeight: 36), "RTF, round \(round)")
            let diagnostics = Diagnostics()
            let md = try write(doc, FormatRegistry.markdown, keepFormatting: true, diagnostics: diagnostics)
            XCTAssertEqual(diagnostics.count(of: .lossyTextBox), 0)
            let back = try read(md, FormatRegistry.markdown)
            XCTAssertEqual(outline(back), expected, "Markdown, round \(round):\n\(String(decoding: md, as: UTF8.self))")
            XCTAssertEqual(outline(try read(try write(back, FormatRegistry.docx), FormatRegistry.docx)), expectedDOCX, "Markdown → DOCX, round \(round)")
        }
        XCTAssertGreaterThan(boxes, 40)
    }

    /// Without `--keep-formatting`, Markdown writes a box's blocks in the flow and says how many boxes it flattened;
    /// HTML marks each box with a `div.text-box`.
    func testMarkdownWarnsAndHTMLMarksTheBox() throws {
        let box = TextBox(number: 1)
        var inBox = Paragraph([.text("In the box.")])
        inBox.textBox = box
        var second = Paragraph([.text("Another box.")])
        second.textBox = TextBox(number: 2)
        let doc = Document(blocks: [.paragraph(Paragraph([.text("Anchor.")])), .paragraph(inBox), .paragraph(second),
                                    .paragraph(Paragraph([.text("After.")]))])
        let diagnostics = Diagnostics()
        let md = String(decoding: try write(doc, FormatRegistry.markdown, diagnostics: diagnostics), as: UTF8.self)
        XCTAssertEqual(md, "Anchor.\n\nIn the box.\n\nAnother box.\n\nAfter.\n")
        XCTAssertEqual(diagnostics.all.first { $0.code == .lossyTextBox }?.count, 2)
        let html = String(decoding: try write(doc, FormatRegistry.html), as: UTF8.self)
        XCTAssertEqual(html.components(separatedBy: "<div class=\"text-box\"").count - 1, 2, html)
        XCTAssertTrue(html.contains("<div class=\"text-box\" style=\"border:1px solid #999;padding:0 .75em;margin:.75em 0\">\n<p>In the box.</p>\n</div>\n<div class=\"text-box\" style=\"border:1px solid #999;padding:0 .75em;margin:.75em 0\">\n<p>Another box.</p>\n</div>"), html)
    }

    /// Word's text boxes (DrawingML with a VML fallback): read once each, in their boxes with their sizes; DOCX → DOCX
    /// and DOCX → Markdown (`--keep-formatting`) → DOCX keep them, schema-valid.
    func testWordTextBoxesTravel() throws {
        let path = RepositoryPaths.sharedCorpus + "/pandoc/text_in_shape_format.docx"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(path) is not there") }
        let original = try Converter.read(.file(path), format: FormatRegistry.docx, diagnostics: Diagnostics())
        let expected = outline(original)
        XCTAssertEqual(expected.filter { $0.hasPrefix("box") }.count, 4, "\(expected)")
        XCTAssertTrue(expected.contains("box1 w453.5 h30.33: Last update: May 1, 2017 [+0 -0]"), "\(expected)")
        let docx = try write(original, FormatRegistry.docx)
        XCTAssertEqual(outline(try read(docx, FormatRegistry.docx)), expected)
        let md = try write(original, FormatRegistry.markdown, keepFormatting: true)
        let viaMarkdown = try write(try read(md, FormatRegistry.markdown), FormatRegistry.docx)
        XCTAssertEqual(outline(try read(viaMarkdown, FormatRegistry.docx)), expected)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redline-textbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.docx").path, b = dir.appendingPathComponent("b.docx").path
        try Data(docx).write(to: URL(fileURLWithPath: a))
        try Data(viaMarkdown).write(to: URL(fileURLWithPath: b))
        try OOXMLValidate.assertValid([a, b])
    }

    /// LibreOffice lays out the boxes Redline writes: their text is on the page, once (a box made here, and Word's
    /// boxes written again).
    func testLibreOfficeShowsTheBoxText() throws {
        try TestProcess.require("soffice")
        try TestProcess.require("pdftotext", check: ["pdftotext", "-v"])
        var boxed = Paragraph([.text("Boxed "), .insertion(Change(author: "Ann"), [.text("inserted")]), .text(" words.")])
        boxed.textBox = TextBox(number: 1, width: 200)
        let doc = Document(blocks: [.paragraph(Paragraph([.text("Anchor paragraph.")])), .paragraph(boxed),
                                    .paragraph(Paragraph([.text("After the box.")]))])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redline-textbox-lo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let docx = dir.appendingPathComponent("box.docx"), word = dir.appendingPathComponent("word.docx")
        try Data(try write(doc, FormatRegistry.docx)).write(to: docx)
        let path = RepositoryPaths.sharedCorpus + "/pandoc/text_in_shape_format.docx"
        let hasWord = FileManager.default.fileExists(atPath: path)
        if hasWord {
            let original = try Converter.read(.file(path), format: FormatRegistry.docx, diagnostics: Diagnostics())
            try Data(try write(original, FormatRegistry.docx)).write(to: word)
        }
        _ = try TestProcess.run(["soffice", "--headless", "-env:UserInstallation=file://\(dir.path)/profile",
                                 "--convert-to", "pdf", "--outdir", dir.path, docx.path] + (hasWord ? [word.path] : []))
        func words(_ name: String) throws -> String {
            let text = try TestProcess.run(["pdftotext", dir.appendingPathComponent(name).path, "-"]).out
            return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let ours = try words("box.pdf")
        XCTAssertTrue(ours.contains("Anchor paragraph."), ours)
        XCTAssertTrue(ours.contains("Boxed inserted words."), ours)
        XCTAssertEqual(ours.components(separatedBy: "Boxed").count, 2, ours)
        XCTAssertTrue(ours.contains("After the box."), ours)
        if hasWord {
            let theirs = try words("word.pdf")
            for phrase in ["Last update:", "for Writing Technical Documents", "Valter Kiisk", "Institute of Physics, University of Tartu"] {
                XCTAssertEqual(theirs.components(separatedBy: phrase).count, 2, "\(phrase): \(theirs)")
            }
        }
    }

    // MARK: Compare

    private func boxed(_ texts: [String], width: Double? = nil, before: String = "Anchor.", after: String = "After.") -> Document {
        let box = TextBox(number: 1, width: width)
        var blocks: [Block] = [.paragraph(Paragraph([.text(before)]))]
        for t in texts {
            var p = Paragraph([.text(t)])
            p.textBox = box
            blocks.append(.paragraph(p))
        }
        blocks.append(.paragraph(Paragraph([.text(after)])))
        return Document(blocks: blocks)
    }

    /// A box's edits are marked inside the box (a deleted paragraph too, though OLD's box had another size), and
    /// accepting and rejecting the result give NEW and OLD, through DOCX and CriticMarkup alike.
    func testCompareMarksChangesInsideTheBox() throws {
        let old = boxed(["The boxed text stays here.", "A second boxed paragraph goes away."], width: 200)
        let new = boxed(["The boxed new text stays here."], width: 220, before: "Anchor changed.")
        let (result, _) = DocumentComparer.compare(old: old, new: new)
        XCTAssertEqual(outline(result), ["-: Anchor changed. [+1 -0]", "box1 w220.0: The boxed new text stays here. [+1 -0]",
                                         "box1 w220.0: A second boxed paragraph goes away. [+0 -1]", "-: After. [+0 -0]"])
        for format in [FormatRegistry.docx, FormatRegistry.markdown] {
            let back = try read(try write(result, format, keepFormatting: true), format)
            XCTAssertEqual(outline(try back.applying([ReviewTransform(.accept)])), outline(new), format.name)
            XCTAssertEqual(outline(try back.applying([ReviewTransform(.reject)]), sizes: false), outline(old, sizes: false), format.name)
        }
    }

    /// `--no-textboxes`: the text in boxes is not compared; NEW's boxes are kept, unmarked, the rest compared.
    func testNoTextBoxesKeepsNewBoxesUnmarked() throws {
        let old = boxed(["The boxed text stays here.", "A second boxed paragraph goes away."], width: 200)
        let new = boxed(["The boxed new text stays here."], width: 220, before: "Anchor changed.")
        var options = CompareOptions()
        options.compareTextBoxes = false
        let (result, stats) = DocumentComparer.compare(old: old, new: new, options: options)
        XCTAssertEqual(outline(result), ["-: Anchor changed. [+1 -0]", "box1 w220.0: The boxed new text stays here. [+0 -0]", "-: After. [+0 -0]"])
        XCTAssertEqual(stats.wordsInserted, 1)
        XCTAssertEqual(stats.wordsDeleted, 0)
    }
}

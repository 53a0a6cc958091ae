import Foundation
import XCTest
import Redline
import RedlineZip
import RedlineTestSupport

/// Issue 31: the page travels with the document. Sections (page size, orientation, margins, columns, line
/// numbering, break kind, title page) and their header and footer stories survive the DOCX and RTF writers
/// and readers; writers without pages drop them with one counted warning each.
final class SectionRoundTripTests: XCTestCase {
    // MARK: Helpers

    private func write(_ doc: Document, _ format: Format, keepFormatting: Bool = false,
                       diagnostics: Diagnostics = Diagnostics()) throws -> [UInt8] {
        try ModelRoundTrip.write(doc, format, keepFormatting: keepFormatting, diagnostics: diagnostics)
    }

    private func read(_ bytes: [UInt8], _ format: Format, diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        try ModelRoundTrip.read(bytes, format, diagnostics: diagnostics)
    }

    /// Every section of `doc` in order: those paragraphs end (at any depth), then the last one.
    private func sections(_ doc: Document) -> [Section] {
        var out: [Section] = []
        for b in doc.blocks { b.forEachParagraph { if let s = $0.sectionEnd { out.append(s) } } }
        if let s = doc.finalSection { out.append(s) }
        return out
    }

    /// A section as compared: its stories as (kind, pages, text, tracked insertions), the rest exactly.
    private struct Shape: Equatable, CustomStringConvertible {
        var layout: Section
        var stories: [String]
        var description: String { "\(layout)\n  \(stories)" }
    }

    private func shape(_ s: Section, portraitIsUnstated: Bool = false) -> Shape {
        var layout = s
        layout.headersFooters = []
        if portraitIsUnstated && layout.orientation == .portrait { layout.orientation = nil }
        let stories = s.headersFooters.map { hf -> String in
            var insertions = 0
            for b in hf.blocks { b.forEachInline { if case .insertion = $0 { insertions += 1 } } }
            let text = hf.blocks.map(\.plainText).joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            return "\(hf.kind.rawValue)/\(hf.which.rawValue): \(text) [+\(insertions)]"
        }.sorted()
        return Shape(layout: layout, stories: stories)
    }

    // MARK: Property test

    private func randomSection(_ r: inout SeededRandom) -> Section {
        func length(_ range: ClosedRange<Int>) -> Double { Double(Int.random(in: range, using: &r)) / 20 }
        func maybe<T>(_ v: @autoclosure () -> T) -> T? { Bool.random(using: &r) ? v() : nil }
        var s = Section()
        s.pageWidth = maybe(length(4000...31680))
        s.pageHeight = maybe(length(4000...31680))
        s.orientation = [nil, .portrait, .landscape].randomElement(using: &r)!
        if Bool.random(using: &r) {
            s.margins = Section.Margins(top: length(0...4000), bottom: length(0...4000), left: length(0...4000),
                                        right: length(0...4000), header: length(0...2000), footer: length(0...2000),
                                        gutter: length(0...1000))
        }
        s.columns = maybe(Int.random(in: 1...4, using: &r))
        s.columnSpacing = maybe(length(0...1440))
        if Bool.random(using: &r) {
            s.lineNumbering = Section.LineNumbering(countBy: Int.random(in: 1...5, using: &r),
                                                    start: maybe(Int.random(in: 1...20, using: &r)),
                                                    distance: maybe(length(0...720)),
                                                    restart: Section.LineNumbering.Restart.allCases.randomElement(using: &r)!)
        }
        s.breakKind = maybe(Section.BreakKind.allCases.randomElement(using: &r)!)
        s.titlePage = Bool.random(using: &r)
        for kind in HeaderFooter.Kind.allCases {
            for which in HeaderFooter.Which.allCases where Int.random(in: 0..<3, using: &r) == 0 {
                let word = "\(kind.rawValue) \(which.rawValue) \(Int.random(in: 1...999, using: &r))"
                var content: [Inline] = [.text(word)]
                if Bool.random(using: &r) { content.append(.insertion(Change(author: "Ann"), [.text(" added")])) }
                s.headersFooters.append(HeaderFooter(kind: kind, which: which, blocks: [.paragraph(Paragraph(content))]))
            }
        }
        return s
    }

    private func randomDocument(_ r: inout SeededRandom) -> Document {
        var doc = Document(blocks: [])
        doc.header.evenAndOddHeaders = Bool.random(using: &r)
        let n = Int.random(in: 1...8, using: &r)
        for i in 0..<n {
            var p = Paragraph([.text("Paragraph \(i + 1).")])
            if i < n - 1 && Bool.random(using: &r) { p.sectionEnd = randomSection(&r) }
            doc.blocks.append(.paragraph(p))
        }
        if Int.random(in: 0..<4, using: &r) > 0 { doc.finalSection = randomSection(&r) }
        return doc
    }

    func testRandomSectionsSurviveDOCXAndRTF() throws {
        var r = SeededRandom(seed: SeededRandom.seed(default: 31))
        var compared = 0, stories = 0
        for round in 0..<60 {
            let doc = randomDocument(&r)
            let expected = sections(doc)
            compared += expected.count
            stories += expected.reduce(0) { $0 + $1.headersFooters.count }
            for (format, portrait) in [(FormatRegistry.docx, false), (FormatRegistry.rtf, true)] {
                let back = try read(try write(doc, format), format)
                let got = sections(back)
                XCTAssertEqual(got.map { shape($0, portraitIsUnstated: portrait) },
                               expected.map { shape($0, portraitIsUnstated: portrait) }, "\(format.name), round \(round)")
                // DOCX keeps different even pages with some header or footer (its settings part is read only then).
                let hasStories = expected.contains { !$0.headersFooters.isEmpty }
                let evenAndOdd = doc.header.evenAndOddHeaders && (hasStories || format.isSame(as: FormatRegistry.rtf))
                XCTAssertEqual(back.header.evenAndOddHeaders, evenAndOdd, "\(format.name), round \(round)")
                XCTAssertEqual(back.blocks.map(\.plainText), doc.blocks.map(\.plainText), "\(format.name), round \(round)")
            }
        }
        // The rounds compare many sections and stories (the test is not vacuous).
        XCTAssertGreaterThan(compared, 120)
        XCTAssertGreaterThan(stories, 200)
    }

    /// With `--keep-formatting`, Markdown carries the page too (`PageDivs`): every random document's sections and
    /// stories come back from Markdown exactly as from DOCX, and go on to DOCX unchanged.
    func testRandomSectionsSurviveMarkdownWithKeepFormatting() throws {
        var r = SeededRandom(seed: SeededRandom.seed(default: 32))
        var compared = 0, stories = 0
        for round in 0..<60 {
            let doc = randomDocument(&r)
            let expected = sections(doc)
            compared += expected.count
            stories += expected.reduce(0) { $0 + $1.headersFooters.count }
            let diagnostics = Diagnostics()
            let md = try write(doc, FormatRegistry.markdown, keepFormatting: true, diagnostics: diagnostics)
            XCTAssertEqual(diagnostics.count(of: .lossySection) + diagnostics.count(of: .lossyHeaderFooter), 0)
            let back = try read(md, FormatRegistry.markdown)
            XCTAssertEqual(sections(back).map { shape($0) }, expected.map { shape($0) },
                           "round \(round):\n\(String(decoding: md, as: UTF8.self))")
            XCTAssertEqual(back.header.evenAndOddHeaders, doc.header.evenAndOddHeaders, "round \(round)")
            XCTAssertEqual(back.blocks.map(\.plainText), doc.blocks.map(\.plainText), "round \(round)")
            let docx = try read(try write(back, FormatRegistry.docx), FormatRegistry.docx)
            XCTAssertEqual(sections(docx).map { shape($0) }, expected.map { shape($0) }, "md → docx, round \(round)")
        }
        XCTAssertGreaterThan(compared, 120)
        XCTAssertGreaterThan(stories, 200)
    }

    /// A header's tracked changes through DOCX → CriticMarkup (`--keep-formatting`) → DOCX: written as CriticMarkup
    /// inside the header's div, read back as changes, and accepting or rejecting the round-tripped DOCX gives the
    /// header text accepting or rejecting the original gives.
    func testHeaderChangesSurviveCriticMarkupBackToDOCX() throws {
        let ann = Change(author: "Ann", date: "2024-05-01T10:00:00Z"), bob = Change(author: "Bob", date: "2024-05-02T10:00:00Z")
        let header = HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([
            .text("Letterhead "), .insertion(ann, [.text("new")]), .deletion(bob, [.text(" old")]), .text(" Ltd"),
        ]))])
        let footer = HeaderFooter(kind: .footer, which: .first, blocks: [.paragraph(Paragraph([
            .text("Page "), .field(FieldCode(instruction: "PAGE"), [.text("1")]),
        ]))])
        var doc = Document(blocks: [
            .paragraph(Paragraph([.text("Portrait part.")], sectionEnd: Section(pageWidth: 595.3, pageHeight: 841.9, breakKind: .nextPage))),
            .paragraph(Paragraph([.text("Landscape part.")])),
        ])
        doc.finalSection = Section(pageWidth: 841.9, pageHeight: 595.3, orientation: .landscape, titlePage: true,
                                   headersFooters: [header, footer])
        let original = try read(try write(doc, FormatRegistry.docx), FormatRegistry.docx)
        let md = String(decoding: try write(original, FormatRegistry.markdown, keepFormatting: true), as: UTF8.self)
        XCTAssertTrue(md.contains("::: {.redline-header}\n\nLetterhead {++new++}"), md)
        XCTAssertTrue(md.contains("[1]{.field instr=PAGE}"), md)
        let back = try read(try write(try read(Array(md.utf8), FormatRegistry.markdown), FormatRegistry.docx), FormatRegistry.docx)
        func headerText(_ d: Document, _ mode: ChangeMode) throws -> [String] {
            let resolved = try d.applying([ReviewTransform(mode)])
            return resolved.finalSection?.headersFooters.map { "\($0.kind)/\($0.which): " + $0.blocks.map(\.plainText).joined() } ?? []
        }
        for mode in [ChangeMode.accept, .reject] {
            XCTAssertEqual(try headerText(back, mode), try headerText(original, mode), "\(mode)")
        }
        XCTAssertEqual(try headerText(back, .accept), ["header/default: Letterhead new Ltd", "footer/first: Page 1"])
        XCTAssertEqual(try headerText(back, .reject), ["header/default: Letterhead  old Ltd", "footer/first: Page 1"])
        XCTAssertEqual(sections(back).map { shape($0) }, sections(original).map { shape($0) })
    }

    /// The form a person writes: a section div after the paragraph that ends it; a header div outside any section
    /// is read as ordinary blocks, with a warning.
    func testHandWrittenPageDivs() throws {
        let md = """
        Two columns end here.

        ::: {.redline-section break=continuous columns=2 column-spacing=18}
        :::

        The rest.

        ::: {.redline-header}
        Not in a section.
        :::

        ::: {.redline-last-section width=612 height=792 .title-page}

        ::: {.redline-footer which=first}
        Cover footer
        :::

        :::
        """
        let diagnostics = Diagnostics()
        let doc = try read(Array(md.utf8), FormatRegistry.markdown, diagnostics: diagnostics)
        XCTAssertEqual(doc.blocks.map(\.plainText), ["Two columns end here.", "The rest.", "Not in a section."])
        XCTAssertEqual(doc.blocks[0].paragraph?.sectionEnd, Section(columns: 2, columnSpacing: 18, breakKind: .continuous))
        XCTAssertEqual(doc.finalSection?.pageWidth, 612)
        XCTAssertEqual(doc.finalSection?.titlePage, true)
        XCTAssertEqual(doc.finalSection?.headersFooters.map(\.which), [.first])
        XCTAssertEqual(doc.finalSection?.headersFooters.first?.blocks.map(\.plainText), ["Cover footer"])
        XCTAssertEqual(diagnostics.count(of: .markdownUnknownAttribute), 1)
    }

    func testRandomSectionDOCXIsSchemaValid() throws {
        var r = SeededRandom(seed: SeededRandom.seed(default: 3131))
        let dir = NSTemporaryDirectory() + "redline-sections-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var files: [String] = []
        for i in 0..<8 {
            let path = dir + "/s\(i).docx"
            try Data(try write(randomDocument(&r), FormatRegistry.docx)).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        try OOXMLValidate.assertValid(files)
    }

    /// The model's Codable form stays what it was for documents without pages (the new fields are left out,
    /// so encodings made before issue 31 are the same bytes and decode).
    func testCodableFormIsBackwardCompatible() throws {
        let plain = Document(blocks: [.paragraph(Paragraph([.text("a")]))])
        let encoded = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        for key in ["finalSection", "sectionEnd", "evenAndOddHeaders"] { XCTAssertFalse(encoded.contains(key), encoded) }
        let doc = try JSONDecoder().decode(Document.self, from: Data(encoded.utf8))
        XCTAssertEqual(doc, plain)
        XCTAssertNil(doc.finalSection)
        XCTAssertFalse(doc.header.evenAndOddHeaders)
        var withPage = doc
        withPage.blocks = [.paragraph(Paragraph([.text("a")], sectionEnd: Section(columns: 2)))]
        withPage.finalSection = Section(orientation: .landscape, headersFooters: [HeaderFooter(kind: .footer, blocks: [])])
        withPage.header.evenAndOddHeaders = true
        let again = try JSONDecoder().decode(Document.self, from: JSONEncoder().encode(withPage))
        XCTAssertEqual(again, withPage)
    }

    // MARK: Headers with tracked changes

    func testTrackedChangesInAHeaderSurviveDOCXToDOCX() throws {
        let header = HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([
            .text("Letterhead "), .insertion(Change(author: "Ann", date: "2024-05-01T10:00:00Z"), [.text("new")]),
            .deletion(Change(author: "Bob"), [.text("old")]),
        ]))])
        var doc = Document(blocks: [.paragraph(Paragraph([.text("Body")]))])
        doc.finalSection = Section(pageWidth: 595.3, pageHeight: 841.9, headersFooters: [header])
        let docx = try write(doc, FormatRegistry.docx)
        let part = try ZipArchive(bytes: docx).read(named: "word/header1.xml").map { String(decoding: $0, as: UTF8.self) } ?? ""
        XCTAssertTrue(part.contains("<w:ins "), part)
        XCTAssertTrue(part.contains("<w:delText"), part)
        // Read back (the model route), written again: the changes are still there, and accept/reject work on them.
        let back = try read(docx, FormatRegistry.docx)
        let again = try read(try write(back, FormatRegistry.docx), FormatRegistry.docx)
        guard let hf = again.finalSection?.headersFooters.first else { return XCTFail("no header read back") }
        var kinds: [String] = []
        for b in hf.blocks {
            b.forEachInline {
                switch $0 {
                case .insertion(let c, _): kinds.append("ins:\(c.author ?? "")")
                case .deletion(let c, _): kinds.append("del:\(c.author ?? "")")
                default: break
                }
            }
        }
        XCTAssertEqual(kinds, ["ins:Ann", "del:Bob"])
        XCTAssertEqual(hf.blocks.map(\.plainText), ["Letterhead newold"])
    }

    func testAHeaderPartIsReadWithItsTrackedChanges() throws {
        let rels = """
            <?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>\
            </Relationships>
            """
        let headerXML = """
            <?xml version="1.0" encoding="UTF-8"?><w:hdr \(MinimalDOCX.w)><w:p><w:r><w:t xml:space="preserve">ACME </w:t></w:r>\
            <w:ins w:id="1" w:author="Ann"><w:r><w:t>Ltd</w:t></w:r></w:ins></w:p></w:hdr>
            """
        let body = """
            <w:p><w:pPr><w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:type w:val="continuous"/></w:sectPr></w:pPr><w:r><w:t>One</w:t></w:r></w:p>\
            <w:p><w:r><w:t>Two</w:t></w:r></w:p>\
            <w:sectPr><w:headerReference w:type="default" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rIdH"/>\
            <w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:cols w:num="2" w:space="720"/><w:titlePg/></w:sectPr>
            """
        let docx = try MinimalDOCX.package(body: body, extraParts: [("word/_rels/document.xml.rels", rels), ("word/header1.xml", headerXML)])
        let diagnostics = Diagnostics()
        let doc = try read(docx, FormatRegistry.docx, diagnostics: diagnostics)
        XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter), 0)
        XCTAssertEqual(diagnostics.count(of: .lossySection), 0)
        XCTAssertEqual(doc.blocks.count, 2)
        XCTAssertEqual(doc.blocks.first?.paragraph?.sectionEnd, Section(pageWidth: 595.3, pageHeight: 841.9, breakKind: .continuous))
        let last = try XCTUnwrap(doc.finalSection)
        XCTAssertEqual(last.orientation, .landscape)
        XCTAssertEqual(last.columns, 2)
        XCTAssertEqual(last.columnSpacing, 36)
        XCTAssertTrue(last.titlePage)
        XCTAssertEqual(last.headersFooters.count, 1)
        XCTAssertEqual(last.headersFooters.first?.blocks.first?.plainText, "ACME Ltd")
        var insertions = 0
        last.headersFooters.first?.blocks.first?.forEachInline { if case .insertion = $0 { insertions += 1 } }
        XCTAssertEqual(insertions, 1)
        // Accepting every change through the model keeps the sections and decides the header's changes too.
        var transform = ReviewTransform(.accept)
        var chunks: [Chunk] = []
        for c in doc.chunks { try transform.process(c) { chunks.append($0) } }
        try transform.finish { chunks.append($0) }
        XCTAssertNotNil(chunks.first?.block.paragraph?.sectionEnd)
        let accepted = try XCTUnwrap(chunks.last?.finalSection?.headersFooters.first)
        XCTAssertEqual(accepted.blocks, [.paragraph(Paragraph([.text("ACME Ltd")]))])
        var rejecting = ReviewTransform(.reject)
        var rejected: [Chunk] = []
        for c in doc.chunks { try rejecting.process(c) { rejected.append($0) } }
        try rejecting.finish { rejected.append($0) }
        XCTAssertEqual(rejected.last?.finalSection?.headersFooters.first?.blocks.map(\.plainText), ["ACME "])
    }

    // MARK: Writers without pages

    func testMarkdownAndHTMLWarnOnceWithACount() throws {
        var doc = Document(blocks: [.paragraph(Paragraph([.text("One")], sectionEnd: Section(orientation: .landscape))),
                                    .paragraph(Paragraph([.text("Two")]))])
        doc.finalSection = Section(headersFooters: [
            HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([.text("Head")]))]),
            HeaderFooter(kind: .footer, which: .first, blocks: [.paragraph(Paragraph([.text("Foot")]))]),
            HeaderFooter(kind: .footer, blocks: [.paragraph(Paragraph([]))]),
        ])
        for format in [FormatRegistry.markdown, FormatRegistry.html] {
            let diagnostics = Diagnostics()
            let text = String(decoding: try write(doc, format, diagnostics: diagnostics), as: UTF8.self)
            XCTAssertFalse(text.contains("Head"), format.name)
            XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter), 2, format.name)
            XCTAssertEqual(diagnostics.count(of: .lossySection), 2, format.name)
            XCTAssertEqual(diagnostics.all.filter { $0.code == .lossyHeaderFooter }.count, 1, format.name)
        }
        // One plain page and no headers: nothing to report.
        var plain = Document(blocks: [.paragraph(Paragraph([.text("One")]))])
        plain.finalSection = Section(pageWidth: 595.3, pageHeight: 841.9)
        let diagnostics = Diagnostics()
        _ = try write(plain, FormatRegistry.markdown, diagnostics: diagnostics)
        XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter) + diagnostics.count(of: .lossySection), 0)
    }

    // MARK: The shared corpus

    /// Every DOCX in `../shared/corpus` with header or footer parts or several sections (skips when absent).
    private func corpusDOCXWithPages() throws -> [String] {
        let base = RepositoryPaths.sharedCorpus
        guard let walker = FileManager.default.enumerator(atPath: base) else { throw XCTSkip("../shared/corpus is not there") }
        var out: [String] = []
        while let rel = walker.nextObject() as? String {
            guard rel.lowercased().hasSuffix(".docx") else { continue }
            let path = base + "/" + rel
            guard let archive = try? ZipArchive(path: path) else { continue }
            let names = archive.entries.map(\.name)
            let parts = names.contains { $0.hasPrefix("word/header") || $0.hasPrefix("word/footer") }
            let body = (try? archive.read(named: "word/document.xml")).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? ""
            if parts || body.components(separatedBy: "<w:sectPr").count > 2 { out.append(path) }
        }
        if out.isEmpty { throw XCTSkip("no DOCX with headers, footers or sections in ../shared/corpus") }
        return out.sorted()
    }

    /// DOCX → DOCX (through the model) and DOCX → RTF → DOCX keep every section's page (size, orientation,
    /// margins, columns) and header and footer text; the DOCX written is schema-valid.
    func testCorpusDocumentsKeepTheirPages() throws {
        let files = try corpusDOCXWithPages()
        let dir = NSTemporaryDirectory() + "redline-corpus-pages-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var written: [String] = []
        var withStories = 0
        for (i, path) in files.enumerated() {
            let name = (path as NSString).lastPathComponent
            let original = try Converter.read(.file(path), format: FormatRegistry.docx)
            let expected = sections(original)
            XCTAssertFalse(expected.isEmpty, name)
            if expected.contains(where: { $0.storiesWithText > 0 }) { withStories += 1 }
            let docx = try write(original, FormatRegistry.docx)
            let viaRTF = try write(try read(try write(original, FormatRegistry.rtf), FormatRegistry.rtf), FormatRegistry.docx)
            for (route, bytes, portrait) in [("DOCX → DOCX", docx, false), ("DOCX → RTF → DOCX", viaRTF, true)] {
                let back = sections(try read(bytes, FormatRegistry.docx))
                XCTAssertEqual(back.map { pageShape($0, portraitIsUnstated: portrait) },
                               expected.map { pageShape($0, portraitIsUnstated: portrait) }, "\(name): \(route)")
                let out = dir + "/\(i)-\(route.count).docx"
                try Data(bytes).write(to: URL(fileURLWithPath: out))
                written.append(out)
            }
        }
        XCTAssertGreaterThan(withStories, 0, "no corpus document had header or footer text")
        try OOXMLValidate.assertValid(written)
    }

    /// LibreOffice lays the carried page out: a corpus document's header and footer text, through RTF and back to
    /// DOCX, is on the pages of the PDF it renders (`pdftotext`); its second, landscape section likewise (a model
    /// written directly).
    func testLibreOfficeShowsTheHeaderAndFooterText() throws {
        let path = RepositoryPaths.sharedCorpus + "/docx2python/example.docx"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(path) is not there") }
        try TestProcess.require("soffice")
        try TestProcess.require("pdftotext", check: ["-v"])
        let dir = NSTemporaryDirectory() + "redline-lo-pages-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try Converter.read(.file(path), format: FormatRegistry.docx)
        let viaRTF = try write(try read(try write(original, FormatRegistry.rtf), FormatRegistry.rtf), FormatRegistry.docx)
        var doc = Document(blocks: [.paragraph(Paragraph([.text("First section.")], sectionEnd: Section(headersFooters: [
            HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([.text("Portrait letterhead")]))]),
        ]))), .paragraph(Paragraph([.text("Second section.")]))])
        doc.finalSection = Section(pageWidth: 792, pageHeight: 612, orientation: .landscape, headersFooters: [
            HeaderFooter(kind: .footer, blocks: [.paragraph(Paragraph([.text("Landscape footer")]))]),
        ])
        for (name, bytes, expected) in [("via-rtf", viaRTF, ["Header text", "Footer text"]),
                                        ("sections", try write(doc, FormatRegistry.docx), ["Portrait letterhead", "Landscape footer"])] {
            let docx = dir + "/\(name).docx"
            try Data(bytes).write(to: URL(fileURLWithPath: docx))
            let lo = try TestProcess.run(["soffice", "--headless", "-env:UserInstallation=file://\(dir)/lo-profile",
                                          "--convert-to", "pdf", "--outdir", dir, docx])
            let text = try TestProcess.run(["pdftotext", dir + "/\(name).pdf", "-"]).out
            XCTAssertFalse(text.isEmpty, "LibreOffice rendered nothing: \(lo.err)")
            for e in expected { XCTAssertTrue(text.contains(e), "\(name): \(e) not on the pages:\n\(text)") }
        }
    }

    /// What a page must keep through another format: size, orientation, margins, columns, and the text of
    /// each header and footer (by kind and pages; white space and empty paragraphs aside, which RTF does not
    /// keep in a picture's description and leaves out).
    private func pageShape(_ s: Section, portraitIsUnstated: Bool) -> String {
        let orientation = portraitIsUnstated && s.orientation == .portrait ? nil : s.orientation
        let m = s.margins
        let stories = s.headersFooters.map { hf in
            "\(hf.kind.rawValue)/\(hf.which.rawValue)=" + String(hf.blocks.map(\.plainText).joined().unicodeScalars
                .filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
        }.sorted()
        return "\(s.pageWidth ?? 0)x\(s.pageHeight ?? 0) \(orientation?.rawValue ?? "-") margins \(m.top ?? -1) \(m.bottom ?? -1) "
            + "\(m.left ?? -1) \(m.right ?? -1) \(m.header ?? -1) \(m.footer ?? -1) cols \(s.columns ?? 1) \(stories)"
    }

    /// DOCX → Markdown of a corpus document with headers warns `lossy.header-footer` once, counting the header
    /// and footer stories with text; the reader no longer reports it.
    func testCorpusDocumentToMarkdownWarnsWithACount() throws {
        let path = RepositoryPaths.sharedCorpus + "/docx2python/example.docx"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(path) is not there") }
        let readDiagnostics = Diagnostics()
        let doc = try Converter.read(.file(path), format: FormatRegistry.docx, diagnostics: readDiagnostics)
        XCTAssertEqual(readDiagnostics.count(of: .lossyHeaderFooter), 0)
        let stories = sections(doc).reduce(0) { $0 + $1.storiesWithText }
        XCTAssertGreaterThan(stories, 0)
        let diagnostics = Diagnostics()
        _ = try write(doc, FormatRegistry.markdown, diagnostics: diagnostics)
        XCTAssertEqual(diagnostics.count(of: .lossyHeaderFooter), stories)
        XCTAssertEqual(diagnostics.all.filter { $0.code == .lossyHeaderFooter }.count, 1)
    }

    // MARK: Speed

    /// A thousand sections convert in time linear in their number: 2,000 take about twice as long as 1,000.
    func testAThousandSectionsConvertLinearly() throws {
        func document(_ n: Int) -> Document {
            var doc = Document(blocks: [])
            for i in 0..<n {
                let s = Section(pageWidth: 612, pageHeight: 792, orientation: i % 2 == 0 ? .portrait : .landscape, columns: 1 + i % 3,
                                breakKind: .nextPage,
                                headersFooters: [HeaderFooter(kind: .header, blocks: [.paragraph(Paragraph([.text("Section \(i)")]))])])
                doc.blocks.append(.paragraph(Paragraph([.text("Text of section \(i).")], sectionEnd: s)))
            }
            return doc
        }
        func time(_ doc: Document) throws -> Double {
            let start = Date()
            for format in [FormatRegistry.docx, FormatRegistry.rtf] {
                let back = try read(try write(doc, format), format)
                XCTAssertEqual(sections(back).count, sections(doc).count)
            }
            return Date().timeIntervalSince(start)
        }
        _ = try time(document(100))  // warm up
        let t1 = try time(document(1000)), t2 = try time(document(2000))
        XCTAssertLessThan(t2, t1 * 3.5, "1,000 sections: \(t1) s, 2,000: \(t2) s")
    }
}

import Foundation
import RedlineCore
@testable import RedlineDOCX
import RedlineZip
import XCTest

/// The DOCX writer: package structure, review markup as Word writes it, determinism, diagnostics.
final class DOCXWriterTests: XCTestCase {
    private func p(_ inlines: Inline...) -> Block { .paragraph(Paragraph(inlines)) }
    private let ann = DOCXWriterSamples.ann
    private let annAttributes = "w:author=\"Ann Editor\" w:date=\"2024-01-15T14:30:00Z\""

    private func body(_ blocks: [Block], comments: [Comment] = [], notes: [Note] = [],
                      diagnostics: Diagnostics = Diagnostics()) throws -> String {
        let docx = try DOCXTest.write(Document(blocks: blocks, comments: comments, notes: notes), diagnostics: diagnostics)
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        let start = try XCTUnwrap(xml.range(of: "<w:body>")).upperBound
        let end = try XCTUnwrap(xml.range(of: "<w:sectPr>")).lowerBound
        return String(xml[start..<end])
    }

    func testPackageHasEveryPartItNeeds() throws {
        let names = try DOCXTest.partNames(DOCXTest.write(DOCXWriterSamples.marked))
        XCTAssertEqual(names, [
            "[Content_Types].xml", "_rels/.rels", "docProps/core.xml", "docProps/custom.xml", "word/document.xml",
            "word/_rels/document.xml.rels", "word/media/image1.png", "word/styles.xml", "word/settings.xml",
            "word/numbering.xml", "word/footnotes.xml", "word/_rels/footnotes.xml.rels", "word/endnotes.xml",
            "word/_rels/endnotes.xml.rels",
            "word/comments.xml", "word/_rels/comments.xml.rels", "word/commentsExtended.xml", "word/commentsIds.xml",
        ])
        let plain = try DOCXTest.partNames(DOCXTest.write(Document(blocks: [p(.text("x"))])))
        XCTAssertEqual(plain, ["[Content_Types].xml", "_rels/.rels", "docProps/core.xml", "word/document.xml",
                               "word/_rels/document.xml.rels", "word/styles.xml", "word/settings.xml"])
    }

    func testSameInputGivesTheSameBytes() throws {
        let a = try DOCXTest.write(DOCXWriterSamples.marked)
        let b = try DOCXTest.write(DOCXWriterSamples.marked)
        XCTAssertEqual(a, b)
        XCTAssertEqual(Array(a.prefix(4)), [0x50, 0x4B, 0x03, 0x04])
    }

    func testInsertionsAndDeletionsAsWordWritesThem() throws {
        let xml = try body([p(.text("a "), .insertion(ann, [.text("new")]), .deletion(ann, [.text("old\tgone")]))])
        XCTAssertEqual(xml, "<w:p><w:r><w:t xml:space=\"preserve\">a </w:t></w:r>"
            + "<w:ins w:id=\"1\" \(annAttributes)><w:r><w:t xml:space=\"preserve\">new</w:t></w:r></w:ins>"
            + "<w:del w:id=\"2\" \(annAttributes)><w:r><w:delText xml:space=\"preserve\">old</w:delText>"
            + "<w:tab/><w:delText xml:space=\"preserve\">gone</w:delText></w:r></w:del></w:p>")
    }

    func testParagraphFormattingInSchemaOrder() throws {
        let style = ParagraphStyle(alignment: .justified, firstLineIndent: 36, leftIndent: 18, rightIndent: 9,
                                   lineSpacing: .exactly(14), spaceBefore: 6, spaceAfter: 12,
                                   tabStops: [TabStop(position: 72, alignment: .right, leader: .dot), TabStop(position: 144)])
        let xml = try body([.paragraph(Paragraph([.text("x")], style: style)),
                            .paragraph(Paragraph([.text("y")], style: ParagraphStyle(lineSpacing: .atLeast(10)))),
                            .paragraph(Paragraph([.styled(CharacterStyle(backgroundColor: RGBColor(hex: "00FF00")),
                                                          [.highlight([.text("g")])]),
                                                  .styled(CharacterStyle(backgroundColor: RGBColor(hex: "123456"), allCaps: true,
                                                                         doubleStrikethrough: true), [.text("s")])]))])
        XCTAssertTrue(xml.contains("<w:pPr><w:tabs><w:tab w:val=\"right\" w:leader=\"dot\" w:pos=\"1440\"/><w:tab w:val=\"left\" "
            + "w:pos=\"2880\"/></w:tabs><w:spacing w:before=\"120\" w:after=\"240\" w:line=\"280\" w:lineRule=\"exact\"/>"
            + "<w:ind w:left=\"360\" w:right=\"180\" w:firstLine=\"720\"/><w:jc w:val=\"both\"/></w:pPr>"), xml)
        XCTAssertTrue(xml.contains("<w:spacing w:line=\"200\" w:lineRule=\"atLeast\"/>"), xml)
        XCTAssertTrue(xml.contains("<w:rPr><w:highlight w:val=\"green\"/></w:rPr>"), xml)
        XCTAssertTrue(xml.contains("<w:rPr><w:caps/><w:dstrike/><w:shd w:val=\"clear\" w:color=\"auto\" w:fill=\"123456\"/></w:rPr>"), xml)
    }

    func testNestedChangesAsWordWritesThem() throws {
        let bob = DOCXWriterSamples.bob
        let xml = try body([p(.insertion(ann, [.text("a"), .deletion(bob, [.text("b")])]), .text("c"))])
        XCTAssertEqual(xml, "<w:p><w:ins w:id=\"1\" \(annAttributes)><w:r><w:t xml:space=\"preserve\">a</w:t></w:r>"
            + "<w:del w:id=\"2\" w:author=\"Bob Author\" w:date=\"2024-02-01T09:00:00Z\"><w:r><w:delText "
            + "xml:space=\"preserve\">b</w:delText></w:r></w:del></w:ins><w:r><w:t xml:space=\"preserve\">c</w:t></w:r></w:p>")
        // An insertion inside a deletion is written as Word writes it (insertion outside); insertions do not nest.
        let swapped = try body([p(.deletion(bob, [.insertion(ann, [.insertion(bob, [.text("d")])])]))])
        XCTAssertEqual(swapped, "<w:p><w:ins w:id=\"1\" w:author=\"Bob Author\" w:date=\"2024-02-01T09:00:00Z\"><w:del w:id=\"2\" "
            + "w:author=\"Bob Author\" w:date=\"2024-02-01T09:00:00Z\"><w:r><w:delText xml:space=\"preserve\">d</w:delText></w:r>"
            + "</w:del></w:ins></w:p>")
    }

    func testASourceWithItsOwnFormattingGetsNoStylesItDidNotName() throws {
        var header = DocumentHeader()
        header.defaultCharacterStyle = CharacterStyle(fontFamily: "Cambria", fontSize: 11)
        let docx = try DOCXTest.write(Document(header: header, blocks: [
            .heading(level: 2, Paragraph([.text("h")])),
            .heading(level: 1, Paragraph([.text("n")], style: ParagraphStyle(name: "Heading 1", spaceBefore: 24))),
            .paragraph(Paragraph([.text("x")], style: ParagraphStyle(name: "Chapter Start", firstLineIndent: 0))),
        ]))
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        XCTAssertTrue(xml.contains("<w:p><w:pPr><w:outlineLvl w:val=\"1\"/></w:pPr>"), xml)
        XCTAssertTrue(xml.contains("<w:pPr><w:pStyle w:val=\"Heading1\"/><w:spacing w:before=\"480\"/></w:pPr>"), xml)
        let styles = try DOCXTest.part("word/styles.xml", of: docx)
        XCTAssertTrue(styles.contains("<w:style w:type=\"paragraph\" w:styleId=\"Heading1\"><w:name w:val=\"Heading 1\"/>"
            + "<w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:uiPriority w:val=\"9\"/><w:qFormat/><w:pPr><w:keepNext/>"
            + "<w:keepLines/><w:outlineLvl w:val=\"0\"/></w:pPr>"), styles)
        XCTAssertTrue(styles.contains("w:styleId=\"ChapterStart\"><w:name w:val=\"Chapter Start\"/><w:basedOn w:val=\"Normal\"/>"
            + "<w:qFormat/></w:style>"), styles)
    }

    func testCommentIDsThatAreNumbersAreKept() throws {
        var t = CommentTable()
        XCTAssertEqual(t.number("7"), 7)
        XCTAssertEqual(t.number("note"), 0)
        XCTAssertEqual(t.number("0"), 1, "0 is taken: the next free number")
        XCTAssertEqual(t.number("007"), 2, "not a plain number")
        XCTAssertEqual(t.number("7"), 7)
        XCTAssertEqual(t.number("x"), 3)
    }

    func testRevisionIDsAreUniqueAcrossTheDocument() throws {
        let docx = try DOCXTest.write(DOCXWriterSamples.marked)
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        var ids: [String] = []
        for tag in ["w:ins ", "w:del ", "w:moveFrom ", "w:moveTo ", "w:moveFromRangeStart ", "w:moveToRangeStart ",
                    "w:rPrChange ", "w:pPrChange "] {
            var rest = xml[...]
            while let r = rest.range(of: "<" + tag + "w:id=\"") {
                ids.append(String(rest[r.upperBound...].prefix { $0 != "\"" }))
                rest = rest[r.upperBound...]
            }
        }
        XCTAssertGreaterThan(ids.count, 10)
        XCTAssertEqual(Set(ids).count, ids.count, "duplicate revision ids: \(ids.sorted())")
    }

    func testParagraphMarkChangesAndPropertyChanges() throws {
        let xml = try body([
            .paragraph(Paragraph([.text("split")], markChange: .inserted(ann))),
            .paragraph(Paragraph([.text("merged")], markChange: .deleted(ann))),
            .paragraph(Paragraph([.text("c")], style: ParagraphStyle(alignment: .center, firstLineIndent: -18),
                                 styleChange: ParagraphStyleChange(change: ann, old: ParagraphStyle(name: "Quote")))),
            p(.formatChange(FormatChange(change: ann, old: TextFormat(italic: true)), [.strong([.text("b")])])),
        ])
        XCTAssertTrue(xml.contains("<w:pPr><w:rPr><w:ins w:id=\"1\" \(annAttributes)/></w:rPr></w:pPr>"), xml)
        XCTAssertTrue(xml.contains("<w:pPr><w:rPr><w:del w:id=\"2\" \(annAttributes)/></w:rPr></w:pPr>"), xml)
        XCTAssertTrue(xml.contains("<w:pPr><w:ind w:hanging=\"360\"/><w:jc w:val=\"center\"/><w:pPrChange w:id=\"3\" "
                                   + "\(annAttributes)><w:pPr><w:pStyle w:val=\"Quote\"/></w:pPr></w:pPrChange></w:pPr>"), xml)
        XCTAssertTrue(xml.contains("<w:rPr><w:b/><w:bCs/><w:rPrChange w:id=\"4\" \(annAttributes)><w:rPr><w:i/><w:iCs/>"
                                   + "</w:rPr></w:rPrChange></w:rPr>"), xml)
    }

    func testMovesHaveRangeMarkersPairedByName() throws {
        let from = Move(change: ann, name: "m1", side: .from), to = Move(change: ann, name: "m1", side: .to)
        let xml = try body([p(.move(from, [.text("gone")]), .text(".")), p(.move(to, [.text("gone")]))])
        XCTAssertTrue(xml.contains("<w:moveFromRangeStart w:id=\"1\" \(annAttributes) w:name=\"m1\"/><w:moveFrom w:id=\"2\" "
                                   + "\(annAttributes)><w:r><w:t xml:space=\"preserve\">gone</w:t></w:r></w:moveFrom>"
                                   + "<w:moveFromRangeEnd w:id=\"1\"/>"), xml)
        XCTAssertTrue(xml.contains("<w:moveToRangeStart w:id=\"3\" \(annAttributes) w:name=\"m1\"/><w:moveTo w:id=\"4\" "), xml)
        XCTAssertTrue(xml.hasSuffix("</w:moveTo></w:p><w:moveToRangeEnd w:id=\"3\"/>"), xml)
    }

    func testAMoveAcrossParagraphsKeepsOneRange() throws {
        let from = Move(change: ann, name: "m1", side: .from)
        let xml = try body([p(.text("a "), .move(from, [.text("one")])), p(.move(from, [.text("two")]), .text(" b")),
                            p(.text("c"))])
        XCTAssertEqual(xml.components(separatedBy: "<w:moveFromRangeStart ").count, 2, xml)
        XCTAssertTrue(xml.contains("</w:moveFrom></w:p><w:p><w:moveFrom w:id=\"3\" \(annAttributes)><w:r><w:t "
                                   + "xml:space=\"preserve\">two</w:t></w:r></w:moveFrom><w:moveFromRangeEnd w:id=\"1\"/>"), xml)
    }

    func testCommentRangesAcrossParagraphsOverlapPointsAndReplies() throws {
        let docx = try DOCXTest.write(DOCXWriterSamples.marked)
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        // c1 (id 0) and its reply c1r (id 1) share the range; c2 (2) crosses paragraphs; c3 (3) overlaps it.
        XCTAssertTrue(xml.contains("<w:commentRangeStart w:id=\"0\"/><w:commentRangeStart w:id=\"1\"/>"))
        let c2Start = try XCTUnwrap(xml.range(of: "<w:commentRangeStart w:id=\"2\"/>")).lowerBound
        let c3Start = try XCTUnwrap(xml.range(of: "<w:commentRangeStart w:id=\"3\"/>")).lowerBound
        let c2End = try XCTUnwrap(xml.range(of: "<w:commentRangeEnd w:id=\"2\"/>")).lowerBound
        let c3End = try XCTUnwrap(xml.range(of: "<w:commentRangeEnd w:id=\"3\"/>")).lowerBound
        XCTAssertTrue(c2Start < c3Start && c3Start < c2End && c2End < c3End)
        XCTAssertTrue(xml[c2Start..<c2End].contains("</w:p><w:p>"), "c2 crosses a paragraph break")
        // The point comment c4 (id 4) has a reference and no range.
        XCTAssertTrue(xml.contains("<w:commentReference w:id=\"4\"/>"))
        XCTAssertFalse(xml.contains("<w:commentRangeStart w:id=\"4\"/>"))

        let comments = try DOCXTest.part("word/comments.xml", of: docx)
        XCTAssertTrue(comments.contains("<w:comment w:id=\"0\" w:author=\"Ann Editor\" w:date=\"2024-01-15T14:31:00Z\" "
                                        + "w:initials=\"AE\"><w:p w14:paraId=\"00000001\" w14:textId=\"77777777\">"
                                        + "<w:pPr><w:pStyle w:val=\"CommentText\"/></w:pPr><w:r><w:rPr><w:rStyle "
                                        + "w:val=\"CommentReference\"/></w:rPr><w:annotationRef/></w:r><w:r><w:t "
                                        + "xml:space=\"preserve\">Which dog?</w:t></w:r></w:p></w:comment>"), comments)
        let extended = try DOCXTest.part("word/commentsExtended.xml", of: docx)
        XCTAssertTrue(extended.contains("<w15:commentEx w15:paraId=\"00000001\" w15:done=\"0\"/>"
                                        + "<w15:commentEx w15:paraId=\"00000002\" w15:paraIdParent=\"00000001\" w15:done=\"0\"/>"
                                        + "<w15:commentEx w15:paraId=\"00000004\" w15:done=\"1\"/>"), extended)
        let ids = try DOCXTest.part("word/commentsIds.xml", of: docx)
        XCTAssertTrue(ids.contains("<w16cid:commentId w16cid:paraId=\"00000001\" w16cid:durableId=\"10000001\"/>"), ids)
    }

    func testTableRowChangesSpansAndHeader() throws {
        let xml = try body([.table(Table(columns: [.none, .right], headerRowCount: 1, rows: [
            TableRow([TableCell([p(.text("a"))], rowSpan: 2), TableCell([p(.text("b"))])]),
            TableRow([TableCell([p(.text("c"))])], change: .inserted(ann)),
            TableRow([TableCell([p(.text("d"))], columnSpan: 2)], change: .deleted(ann)),
        ]))])
        XCTAssertTrue(xml.contains("<w:tr><w:trPr><w:tblHeader/></w:trPr><w:tc><w:tcPr><w:tcW w:w=\"4680\" w:type=\"dxa\"/>"
                                   + "<w:vMerge w:val=\"restart\"/></w:tcPr>"), xml)
        XCTAssertTrue(xml.contains("<w:tr><w:trPr><w:ins w:id=\"1\" \(annAttributes)/></w:trPr><w:tc><w:tcPr><w:tcW "
                                   + "w:w=\"4680\" w:type=\"dxa\"/><w:vMerge/></w:tcPr><w:p/></w:tc>"), xml)
        XCTAssertTrue(xml.contains("<w:jc w:val=\"right\"/></w:pPr><w:r><w:t xml:space=\"preserve\">c</w:t>"), xml)
        XCTAssertTrue(xml.contains("<w:trPr><w:del w:id=\"2\" \(annAttributes)/></w:trPr><w:tc><w:tcPr><w:tcW w:w=\"9360\" "
                                   + "w:type=\"dxa\"/><w:gridSpan w:val=\"2\"/></w:tcPr>"), xml)
    }

    func testListsGetNumberingThatRestartsPerList() throws {
        let docx = try DOCXTest.write(Document(blocks: [
            .list(List(kind: .ordered(start: 1, delimiter: "."), items: [[p(.text("a"))], [p(.text("b")), p(.text("more"))]])),
            .list(List(kind: .ordered(start: 5, delimiter: ")"), items: [[p(.text("c"))]])),
        ]))
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        XCTAssertTrue(xml.contains("<w:pPr><w:numPr><w:ilvl w:val=\"0\"/><w:numId w:val=\"1\"/>"
                                   + "</w:numPr></w:pPr><w:r><w:t xml:space=\"preserve\">a</w:t>"), xml)
        XCTAssertTrue(xml.contains("<w:pPr><w:ind w:left=\"720\"/></w:pPr><w:r><w:t xml:space=\"preserve\">more</w:t>"), xml)
        let numbering = try DOCXTest.part("word/numbering.xml", of: docx)
        XCTAssertTrue(numbering.contains("<w:num w:numId=\"1\"><w:abstractNumId w:val=\"1\"/><w:lvlOverride w:ilvl=\"0\">"
                                         + "<w:startOverride w:val=\"1\"/></w:lvlOverride></w:num>"), numbering)
        XCTAssertTrue(numbering.contains("<w:num w:numId=\"2\"><w:abstractNumId w:val=\"2\"/><w:lvlOverride w:ilvl=\"0\">"
                                         + "<w:startOverride w:val=\"5\"/></w:lvlOverride></w:num>"), numbering)
        XCTAssertTrue(numbering.contains("<w:lvlText w:val=\"%1)\"/>"), numbering)
    }

    func testHyperlinksGetRelationships() throws {
        let docx = try DOCXTest.write(Document(blocks: [
            p(.link(Link(url: "https://a.example/?x=1&y=2"), [.text("one")]), .link(Link(url: "#sec"), [.text("two")]),
              .link(Link(url: "https://a.example/?x=1&y=2"), [.text("again")])),
        ]))
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        XCTAssertTrue(xml.contains("<w:hyperlink r:id=\"rIdLink1\" w:history=\"1\"><w:r><w:rPr><w:rStyle w:val=\"Hyperlink\"/>"), xml)
        XCTAssertTrue(xml.contains("<w:hyperlink w:anchor=\"sec\" w:history=\"1\">"), xml)
        XCTAssertEqual(xml.components(separatedBy: "rIdLink1").count, 3)
        let rels = try DOCXTest.part("word/_rels/document.xml.rels", of: docx)
        XCTAssertTrue(rels.contains("<Relationship Id=\"rIdLink1\" Type=\"http://schemas.openxmlformats.org/officeDocument/"
                                    + "2006/relationships/hyperlink\" Target=\"https://a.example/?x=1&amp;y=2\" "
                                    + "TargetMode=\"External\"/>"), rels)
    }

    func testEmbeddedImagesBecomeInlinePictures() throws {
        let docx = try DOCXTest.write(DOCXWriterSamples.marked)
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        XCTAssertTrue(xml.contains("<w:r><w:drawing><wp:inline distT=\"0\" distB=\"0\" distL=\"0\" distR=\"0\"><wp:extent "
            + "cx=\"381000\" cy=\"190500\"/><wp:docPr id=\"1\" name=\"Picture 1\" descr=\"a red box\" title=\"Red\"/>"), xml)
        XCTAssertTrue(xml.contains("<a:blip r:embed=\"rIdImage1\"/>"))
        let rels = try DOCXTest.part("word/_rels/document.xml.rels", of: docx)
        XCTAssertTrue(rels.contains("<Relationship Id=\"rIdImage1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
            + "relationships/image\" Target=\"media/image1.png\"/>"), rels)
        let types = try DOCXTest.part("[Content_Types].xml", of: docx)
        XCTAssertTrue(types.contains("<Default Extension=\"png\" ContentType=\"image/png\"/>"))
        let png = try XCTUnwrap(try ZipArchive(bytes: docx).read(named: "word/media/image1.png"))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let info = try XCTUnwrap(PictureInfo.read(png, kind: .png))
        XCTAssertEqual([info.pixelWidth, info.pixelHeight], [40, 20])
        XCTAssertNil(PictureInfo.read([0, 0, 0], kind: .png), "not a PNG")
    }

    func testLinkTargetsAreURIs() throws {
        XCTAssertEqual(DOCXComposer.uriEscaped("https://a.example/x y\"z"), "https://a.example/x%20y%22z")
        XCTAssertEqual(DOCXComposer.uriEscaped("https://ü.example/ä ö"), "https://ü.example/ä%20ö")
        XCTAssertEqual(DOCXComposer.uriEscaped("https://a.example/?q=1&r=2#f"), "https://a.example/?q=1&r=2#f")
        let xml = try body([p(.link(Link(url: ""), [.text("nowhere")]))])
        XCTAssertFalse(xml.contains("w:hyperlink"), xml)
    }

    func testEdgeShapesStayValid() throws {
        let xml = try body([.table(Table(columns: [], headerRowCount: 0, rows: [])),
                            .table(Table(columns: [.none], headerRowCount: 0, rows: [TableRow([])]))])
        XCTAssertEqual(xml, "<w:tbl><w:tblPr><w:tblStyle w:val=\"TableGrid\"/><w:tblW w:w=\"5000\" w:type=\"pct\"/>"
            + "<w:tblLook w:val=\"04A0\" w:firstRow=\"0\" w:lastRow=\"0\" w:firstColumn=\"0\" w:lastColumn=\"0\" "
            + "w:noHBand=\"0\" w:noVBand=\"1\"/></w:tblPr><w:tblGrid><w:gridCol w:w=\"9360\"/></w:tblGrid><w:tr><w:tc><w:tcPr>"
            + "<w:tcW w:w=\"9360\" w:type=\"dxa\"/></w:tcPr><w:p/></w:tc></w:tr></w:tbl>")
        let docx = try DOCXTest.write(Document(blocks: [], notes: []))
        XCTAssertTrue(try DOCXTest.part("word/document.xml", of: docx).contains("<w:body><w:sectPr>"))
    }

    func testNotesAndTheirSeparators() throws {
        let docx = try DOCXTest.write(DOCXWriterSamples.marked)
        let footnotes = try DOCXTest.part("word/footnotes.xml", of: docx)
        XCTAssertTrue(footnotes.contains("<w:footnote w:type=\"separator\" w:id=\"-1\">"))
        XCTAssertTrue(footnotes.contains("<w:footnote w:id=\"1\"><w:p><w:pPr><w:pStyle w:val=\"FootnoteText\"/></w:pPr><w:r>"
                                         + "<w:rPr><w:rStyle w:val=\"FootnoteReference\"/></w:rPr><w:footnoteRef/></w:r>"), footnotes)
        let endnotes = try DOCXTest.part("word/endnotes.xml", of: docx)
        XCTAssertTrue(endnotes.contains("<w:endnoteRef/></w:r><w:r><w:t xml:space=\"preserve\">An endnote.</w:t>"), endnotes)
        let settings = try DOCXTest.part("word/settings.xml", of: docx)
        XCTAssertTrue(settings.contains("<w:footnotePr><w:footnote w:id=\"-1\"/><w:footnote w:id=\"0\"/></w:footnotePr>"))
    }

    func testMetadataGoesToCoreAndCustomProperties() throws {
        let docx = try DOCXTest.write(DOCXWriterSamples.marked)
        let core = try DOCXTest.part("docProps/core.xml", of: docx)
        XCTAssertTrue(core.contains("<dc:title>The Marked Sample</dc:title><dc:creator>Ann Editor; Bob Author</dc:creator>"), core)
        let custom = try DOCXTest.part("docProps/custom.xml", of: docx)
        XCTAssertTrue(custom.contains("name=\"date\"><vt:lpwstr>2024-01-15</vt:lpwstr>"), custom)
        XCTAssertTrue(custom.contains("name=\"status\"><vt:lpwstr>draft</vt:lpwstr>"), custom)
    }

    /// A picture the model has no bytes for (a missing file) is left out, reported, and its alt text is kept
    /// as text in its place, inside the run's change (found by fuzz-roundtrip: the alt text was lost).
    func testAPictureThatCannotBeEmbeddedKeepsItsAltText() throws {
        let d = Diagnostics()
        let xml = try body([p(.text("See "), .image(Image(source: "p.png", alt: "a map")), .text(". "),
                              .image(Image(source: "q.png")))], diagnostics: d)
        XCTAssertEqual(d.count(of: .docxImageDropped), 2)
        XCTAssertFalse(xml.contains("<w:drawing>"), xml)
        XCTAssertTrue(xml.contains(">a map</w:t></w:r>"), xml)
        XCTAssertFalse(xml.contains("q.png"), "a picture without alt text leaves nothing: \(xml)")
    }

    /// XML 1.0 cannot hold C0 controls other than tab and line breaks, nor U+FFFE and U+FFFF: they are dropped
    /// and said (found by fuzz-roundtrip: an RTF `\\'01` vanished from the DOCX without a word).
    func testForbiddenCharactersAreDroppedAndReported() throws {
        let d = Diagnostics()
        let xml = try body([p(.text("a\u{1}b\u{FFFF}c")), p(.deletion(ann, [.text("d\u{1B}e")]))], diagnostics: d)
        XCTAssertTrue(xml.contains(">abc</w:t>"), xml)
        XCTAssertTrue(xml.contains(">de</w:delText>"), xml)
        XCTAssertEqual(d.count(of: .lossyControlCharacter), 2)
        let clean = Diagnostics()
        _ = try body([p(.text("tab\there, line\nbreak, \u{FFFD}\u{FEFF}\u{FF0C}"))], diagnostics: clean)
        XCTAssertEqual(clean.count(of: .lossyControlCharacter), 0)
    }

    func testWhatDOCXCannotCarryIsReported() throws {
        let d = Diagnostics()
        _ = try body([.raw(format: "html", text: "<div/>"), p(.raw(format: "html", text: "<b>"), .image(Image(source: "x.png"))),
                      p(.noteReference("missing"), .commentStart("nobody"), .text("x"), .commentEnd("nobody"))],
                     comments: [Comment(id: "floating", body: [p(.text("no anchor"))])],
                     diagnostics: d)
        // Raw content is kept, as its text in a style naming its format (`RawStyles`).
        XCTAssertEqual(d.count(of: .docxRawDropped), 0)
        XCTAssertEqual(d.count(of: .docxImageDropped), 1)
        XCTAssertEqual(d.count(of: .docxNoteMissing), 1)
        XCTAssertEqual(d.count(of: .docxCommentMissing), 1)
        XCTAssertEqual(d.count(of: .docxCommentUnanchored), 1)
    }

    func testDeepNestingNeitherCrashesNorLosesText() throws {
        var b: Block = p(.text("deep"))
        for i in 0..<5000 {
            b = i % 2 == 0 ? .blockQuote([b]) : .table(Table(columns: [.none], headerRowCount: 0, rows: [TableRow([TableCell([b])])]))
        }
        var inline: Inline = .text("x")
        for _ in 0..<5000 { inline = .strong([.insertion(ann, [inline])]) }
        let d = Diagnostics()
        let out = MemoryOutput()
        // Straight into the sink: a Document's own chunking walks the tree recursively.
        var source = ChunkArraySource(header: DocumentHeader(), chunks: [Chunk(b), Chunk(.paragraph(Paragraph([inline])))])
        var sink = try DOCXWriter().sink(to: out, options: WriteOptions(), diagnostics: d)
        try Pipeline.run(source: &source, stages: [], sink: &sink)
        let xml = try DOCXTest.part("word/document.xml", of: out.bytes)
        XCTAssertTrue(xml.contains(">deep</w:t>"))
        XCTAssertEqual(xml.components(separatedBy: "<w:tbl>").count - 1, DOCXComposer.maxDepth / 2)
        XCTAssertEqual(d.count(of: .docxNestingFlattened), 1)
        XCTAssertTrue(xml.contains("<w:ins w:id=\"1\" \(annAttributes)><w:r><w:rPr><w:b/><w:bCs/></w:rPr><w:t xml:space=\"preserve\">x</w:t>"))
    }

    func testDatesBecomeXSDDateTimes() {
        XCTAssertEqual(DOCXDate.dateTime("2024-01-15T14:30:00Z"), "2024-01-15T14:30:00Z")
        XCTAssertEqual(DOCXDate.dateTime("2024-01-15"), "2024-01-15T00:00:00Z")
        XCTAssertEqual(DOCXDate.dateTime("2024-01-15 14:30"), "2024-01-15T14:30:00Z")
        XCTAssertEqual(DOCXDate.dateTime("2024-01-15T14:30:05.123+0200"), "2024-01-15T14:30:05+02:00")
        XCTAssertNil(DOCXDate.dateTime("yesterday"))
        XCTAssertNil(DOCXDate.dateTime("2024-13-01"))
        XCTAssertEqual(DOCXDate.w3cdtf("2024-01-15"), "2024-01-15")
    }

    func testScrivenerPresetAndPlainDefaults() throws {
        var o = WriteOptions()
        o.paragraphPreset = .scrivener
        o.characterPreset = CharacterStyle(fontFamily: "Palatino", fontSize: 13)
        let styles = try DOCXTest.part("word/styles.xml", of: DOCXTest.write(Document(blocks: [p(.text("x"))]), options: o))
        XCTAssertTrue(styles.contains("<w:rPrDefault><w:rPr><w:rFonts w:ascii=\"Palatino\" w:hAnsi=\"Palatino\" "
                                      + "w:eastAsia=\"Palatino\" w:cs=\"Palatino\"/><w:sz w:val=\"26\"/><w:szCs w:val=\"26\"/>"), styles)
        XCTAssertTrue(styles.contains("<w:style w:type=\"paragraph\" w:default=\"1\" w:styleId=\"Normal\"><w:name w:val=\"Normal\"/>"
                                      + "<w:qFormat/><w:pPr><w:spacing w:line=\"288\" w:lineRule=\"auto\"/><w:ind w:firstLine=\"720\"/>"
                                      + "</w:pPr></w:style>"), styles)
        let plain = try DOCXTest.part("word/styles.xml", of: DOCXTest.write(Document(blocks: [p(.text("x"))])))
        XCTAssertTrue(plain.contains("w:ascii=\"Times New Roman\""), plain)
        XCTAssertTrue(plain.contains("<w:name w:val=\"Normal\"/><w:qFormat/><w:pPr><w:spacing w:after=\"120\"/></w:pPr>"), plain)
    }

    func testParagraphAndCharacterStyleNamesBecomeStyles() throws {
        let docx = try DOCXTest.write(Document(blocks: [
            .paragraph(Paragraph([.styled(CharacterStyle(name: "Emphatic"), [.text("x")])], style: ParagraphStyle(name: "Body Text"))),
            .paragraph(Paragraph([.text("y")], style: ParagraphStyle(name: "Quote"))),
            .paragraph(Paragraph([.text("z")], style: ParagraphStyle(name: "heading 2"))),
        ]))
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        XCTAssertTrue(xml.contains("<w:pStyle w:val=\"BodyText\"/></w:pPr><w:r><w:rPr><w:rStyle w:val=\"Emphatic\"/>"), xml)
        XCTAssertTrue(xml.contains("<w:pStyle w:val=\"Quote\"/>"))
        XCTAssertTrue(xml.contains("<w:pStyle w:val=\"Heading2\"/>"))
        let styles = try DOCXTest.part("word/styles.xml", of: docx)
        XCTAssertTrue(styles.contains("<w:style w:type=\"paragraph\" w:customStyle=\"1\" w:styleId=\"BodyText\"><w:name w:val=\"Body Text\"/>"))
        XCTAssertTrue(styles.contains("<w:style w:type=\"character\" w:customStyle=\"1\" w:styleId=\"Emphatic\">"))
    }

    func testReferenceDocumentStylesAreUsed() throws {
        // A reference made by the writer itself, with a custom "Body Text" style and a big Normal font.
        var o = WriteOptions()
        o.characterPreset = CharacterStyle(fontFamily: "Reference Sans", fontSize: 20)
        let reference = try DOCXTest.write(Document(blocks: [
            .paragraph(Paragraph([.text("r")], style: ParagraphStyle(name: "Body Text"))),
        ]), options: o)
        let path = try DOCXTest.file(reference, named: "reference.docx")
        var options = WriteOptions()
        options.referenceDocument = path.path
        let docx = try DOCXTest.write(Document(blocks: [
            .paragraph(Paragraph([.text("x")], style: ParagraphStyle(name: "body text"))),
            .paragraph(Paragraph([.text("y")], style: ParagraphStyle(name: "Fresh"))),
        ]), options: options)
        let styles = try DOCXTest.part("word/styles.xml", of: docx)
        XCTAssertTrue(styles.contains("w:ascii=\"Reference Sans\""), "the reference's defaults are kept")
        XCTAssertEqual(styles.components(separatedBy: "w:styleId=\"BodyText\"").count, 2, "not defined twice")
        XCTAssertTrue(styles.contains("w:styleId=\"Fresh\""), "missing styles are added")
        let xml = try DOCXTest.part("word/document.xml", of: docx)
        XCTAssertTrue(xml.contains("<w:pStyle w:val=\"BodyText\"/>"))

        options.referenceDocument = "/nonexistent/ref.docx"
        XCTAssertThrowsError(try DOCXTest.write(Document(blocks: []), options: options)) { e in
            XCTAssertTrue("\(e)".contains("reference document /nonexistent/ref.docx"), "\(e)")
        }
    }

    /// A reference document whose styles are not valid as they stand in the transitional package the writer
    /// makes is repaired as compare's layout transfer repairs it: pandoc's reference styles (`w:qFormat` after
    /// `w:pPr`) put in the schema's order, Strict OOXML's namespaces declared as the transitional ones.
    func testReferenceDocumentFromPandocOrStrictOOXMLGivesValidStyles() throws {
        let W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
        let z = try ZipWriter()
        try z.add("[Content_Types].xml", text: """
            <?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
            <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
            <Default Extension="xml" ContentType="application/xml"/></Types>
            """)
        // As pandoc's reference.docx writes its styles.
        try z.add("word/styles.xml", text: """
            <?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="\(W)"><w:style w:type="paragraph" w:styleId="BodyText">\
            <w:name w:val="Body Text"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:after="180"/></w:pPr><w:qFormat/>\
            </w:style></w:styles>
            """)
        var pandocLike: [UInt8] = []
        try z.finish { pandocLike += $0 }
        let references = [try DOCXTest.file(pandocLike, named: "pandoc-reference.docx").path,
                          Fixtures.shared("mammoth.js/strict-format.docx")]
        for reference in references {
            var options = WriteOptions()
            options.referenceDocument = reference
            let docx = try DOCXTest.write(Document(blocks: [
                .paragraph(Paragraph([.text("x")], style: ParagraphStyle(name: "Body Text"))),
                .paragraph(Paragraph([.text("y")], style: ParagraphStyle(name: "heading 1"))),
            ]), options: options)
            let styles = try DOCXTest.part("word/styles.xml", of: docx)
            XCTAssertFalse(styles.contains("purl.oclc.org"), reference)
            XCTAssertTrue(styles.contains("xmlns:w=\"\(W)\""), reference)
            let out = try DOCXTest.file(docx, named: "with-reference.docx")
            try OOXMLValidate.assertValid(out.path)
        }
        let pandocStyles = try DOCXTest.part("word/styles.xml", of: try DOCXTest.write(Document(blocks: []), options: {
            var o = WriteOptions(); o.referenceDocument = references[0]; return o
        }()))
        XCTAssertTrue(pandocStyles.contains("<w:basedOn w:val=\"Normal\"/><w:qFormat/><w:pPr><w:spacing w:after=\"180\"/></w:pPr>"), pandocStyles)
        // The Strict reference's own styles are kept (its default font), not replaced by Redline's.
        let strictStyles = try DOCXTest.part("word/styles.xml", of: try DOCXTest.write(Document(blocks: []), options: {
            var o = WriteOptions(); o.referenceDocument = references[1]; return o
        }()))
        XCTAssertTrue(strictStyles.contains("w:ascii=\"Calibri\""), strictStyles)
    }

    func testPackageDumpShowsPartsAsCanonicalXML() throws {
        let docx = try DOCXTest.write(Document(blocks: [p(.text(" a "), .deletion(ann, [.text("b")]))]))
        let dump = try DOCXPackageDump.text(of: docx)
        XCTAssertTrue(dump.hasPrefix("=== [Content_Types].xml ===\n<ct:Types>\n  <ct:Default ContentType="), dump)
        XCTAssertTrue(dump.contains("""
        === word/document.xml ===
        <w:document>
          <w:body>
            <w:p>
              <w:r>
                <w:t xml:space="preserve">
                  " a "
                </w:t>
              </w:r>
              <w:del w:author="Ann Editor" w:date="2024-01-15T14:30:00Z" w:id="1">
        """), dump)
        let names = dump.split(separator: "\n").filter { $0.hasPrefix("=== ") }
        XCTAssertEqual(names, names.sorted())
        XCTAssertEqual(try DOCXPackageDump.text(of: docx), dump)
    }
}

import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import RedlineXML
import RedlineZip
import XCTest

/// Review in place (issue 14): DOCX → DOCX with decisions applied to the original package.
final class InPlaceReviewTests: XCTestCase {
    // MARK: Helpers

    static func review(_ input: DocumentInput, _ options: ReviewOptions) throws -> [UInt8] {
        var out: [UInt8] = []
        try DOCXInPlaceReview.apply(input, review: options) { out.append(contentsOf: $0) }
        return out
    }

    static func review(_ path: String, _ options: ReviewOptions) throws -> [UInt8] {
        try review(.file(path), options)
    }

    /// Revision elements (and w:delText) in the story, styles and numbering parts.
    static let revisionPattern = try! NSRegularExpression(pattern:
        "<w:(ins|del|moveFrom|moveTo|moveFromRangeStart|moveFromRangeEnd|moveToRangeStart|moveToRangeEnd|rPrChange|pPrChange|sectPrChange|tblPrChange|trPrChange|tcPrChange|tblGridChange|tblPrExChange|numberingChange|cellIns|cellDel|cellMerge|customXmlInsRangeStart|customXmlDelRangeStart|customXmlMoveFromRangeStart|customXmlMoveToRangeStart)[ />]")
    /// The revision elements `redline changes` lists one line for (ends of ranges have no line).
    static let listedPattern = try! NSRegularExpression(pattern:
        "<w:(ins|del|moveFrom|moveTo|moveFromRangeStart|moveToRangeStart|rPrChange|pPrChange|sectPrChange|tblPrChange|trPrChange|tcPrChange|tblGridChange|tblPrExChange|numberingChange|cellIns|cellDel|cellMerge|customXmlInsRangeStart|customXmlDelRangeStart|customXmlMoveFromRangeStart|customXmlMoveToRangeStart)[ />]")

    static func count(_ pattern: NSRegularExpression, _ s: String) -> Int {
        pattern.numberOfMatches(in: s, range: NSRange(s.startIndex..., in: s))
    }

    static func isStory(_ name: String) -> Bool {
        name.range(of: #"^word/(document|header\d*|footer\d*|footnotes|endnotes|comments|styles|numbering)\.xml$"#,
                   options: .regularExpression) != nil
    }

    static func parts(_ docx: [UInt8]) throws -> [String: [UInt8]] {
        let a = try ZipArchive(bytes: docx)
        var out: [String: [UInt8]] = [:]
        for e in a.entries where !e.isDirectory { out[e.name] = try a.read(e) }
        return out
    }

    /// The text (w:t only) of every paragraph of the body, in document order of their ends.
    static func paragraphs(_ docx: [UInt8]) throws -> [String] {
        let xml = try parts(docx)["word/document.xml"] ?? []
        let w = 1
        let x = try XMLReader(bytes: xml, name: "document.xml",
                              namespaces: ["http://schemas.openxmlformats.org/wordprocessingml/2006/main": w])
        var stack: [String] = [], out: [String] = [], inT = false
        while let k = try x.next() {
            switch k {
            case .start where x.namespace == w:
                if x.localName == "p" { stack.append("") }
                if x.localName == "t" { inT = true }
            case .end where x.namespace == w:
                if x.localName == "p", let p = stack.popLast() { out.append(p) }
                if x.localName == "t" { inT = false }
            case .text where inT && !stack.isEmpty: stack[stack.count - 1] += x.text
            default: break
            }
        }
        return out
    }

    static func storyText(_ docx: [UInt8]) throws -> [String: String] {
        try parts(docx).filter { isStory($0.key) }.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: Oracles

    /// Every Open-Xml-PowerTools X.docx with X-Accepted.docx / X-Rejected.docx: the oracle's paragraphs
    /// and text, no revision element left, every other part byte-identical to the input.
    func testPowerToolsOracles() throws {
        let dir = Fixtures.corpus.appendingPathComponent("Open-Xml-PowerTools")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        let bases = names.filter { $0.hasSuffix("-Accepted.docx") }.map { String($0.dropLast("-Accepted.docx".count)) }
        guard !bases.isEmpty else { throw XCTSkip("the shared corpus is not there") }
        var checked = 0
        for base in bases.sorted() {
            let input = dir.appendingPathComponent(base + ".docx").path
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input)))
            for (mode, suffix) in [(ChangeMode.accept, "Accepted"), (.reject, "Rejected")] {
                let oraclePath = dir.appendingPathComponent("\(base)-\(suffix).docx").path
                guard FileManager.default.fileExists(atPath: oraclePath) else { continue }
                let out = try Self.review(input, ReviewOptions(changes: mode))
                let oracle = try [UInt8](Data(contentsOf: URL(fileURLWithPath: oraclePath)))
                XCTAssertEqual(try Self.paragraphs(out), try Self.paragraphs(oracle), "\(base) \(mode)")
                for (name, text) in try Self.storyText(out) {
                    XCTAssertEqual(Self.count(Self.revisionPattern, text), 0, "\(base) \(mode): revisions left in \(name)")
                }
                let before = try Self.parts(original), after = try Self.parts(out)
                for (name, bytes) in after where !Self.isStory(name) {
                    XCTAssertEqual(bytes, before[name], "\(base) \(mode): \(name) changed")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }

    /// Every DOCX of the shared corpus with tracked changes, accepted and rejected in place: no revision
    /// left, headers, footers, media and theme byte-identical, the output valid when the input is.
    func testCorpusAcceptAndReject() throws {
        let validator = Fixtures.repo.appendingPathComponent("../shared/tools/ooxml-validate").standardized.path
        let canValidate = FileManager.default.isExecutableFile(atPath: validator)
        // Without the validator the validity half of this test checks nothing: allowed locally, not under CI.
        if !canValidate && ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("\(validator) is required under CI: reviewed outputs are not schema-checked without it")
        }
        let dir = try DOCXTest.temporaryDirectory()
        var reviewed = 0
        for rel in Fixtures.sharedDOCX() {
            let path = Fixtures.shared(rel)
            guard let original = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                  let before = try? Self.parts(original) else { continue }
            let stories = before.filter { Self.isStory($0.key) && !$0.key.hasSuffix("styles.xml") && !$0.key.hasSuffix("numbering.xml") }
            guard stories.values.contains(where: { Self.count(Self.revisionPattern, String(decoding: $0, as: UTF8.self)) > 0 }) else { continue }
            let inputValid = try canValidate && DOCXTest.run([validator, path]).status == 0
            for mode in [ChangeMode.accept, .reject] {
                let out: [UInt8]
                do { out = try Self.review(path, ReviewOptions(changes: mode)) } catch {
                    XCTFail("\(rel) \(mode): \(error)"); continue
                }
                let after = try Self.parts(out)
                for (name, text) in try Self.storyText(out) {
                    XCTAssertEqual(Self.count(Self.revisionPattern, text), 0, "\(rel) \(mode): revisions left in \(name)")
                }
                for (name, bytes) in after where name.range(of: #"^word/(header|footer|media/|theme/)"#, options: .regularExpression) != nil {
                    XCTAssertEqual(bytes, before[name], "\(rel) \(mode): \(name) changed")
                }
                if inputValid {
                    let file = dir.appendingPathComponent("\(reviewed)-\(mode).docx")
                    try Data(out).write(to: file)
                    let r = try DOCXTest.run([validator, file.path])
                    XCTAssertEqual(r.status, 0, "\(rel) \(mode): invalid after review: \(r.out.suffix(400))")
                }
                reviewed += 1
            }
        }
        XCTAssertGreaterThanOrEqual(reviewed, 30)
    }

    /// LibreOffice opens reviewed documents (a sample: the oracles' inputs, accepted).
    func testLibreOfficeOpensReviewed() throws {
        let dir = Fixtures.corpus.appendingPathComponent("Open-Xml-PowerTools")
        for base in ["RP015-MoveFrom-MoveTo", "RP036-Vert-Merged-Cells", "RP047-Inserted-and-Deleted-Paragraph-Mark"] {
            let path = dir.appendingPathComponent(base + ".docx").path
            guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("the shared corpus is not there") }
            let out = try DOCXTest.file(try Self.review(path, ReviewOptions(changes: .accept)), named: base + ".docx")
            let text = try DOCXTest.libreOfficeText(out)
            XCTAssertFalse(text.isEmpty, base)
        }
    }

    // MARK: Listing

    /// `redline changes` lists one item per revision element and per comment of the XML.
    func testListingCountsEqualTheXML() throws {
        var checked = 0
        for rel in Fixtures.sharedDOCX() {
            let path = Fixtures.shared(rel)
            guard let original = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                  let parts = try? Self.parts(original), parts["word/document.xml"] != nil else { continue }
            let items: [ChangeListItem]
            do { items = try DOCXInPlaceReview.list(.file(path)) } catch { continue }
            var revisions = 0, comments = 0
            for (name, bytes) in parts where Self.isStory(name) {
                var s = String(decoding: bytes, as: UTF8.self)
                // A revision inside a properties change's record (the old w:tcPr's w:cellMerge) belongs to
                // that record: counted once, as the record.
                s = s.replacingOccurrences(of: #"(<w:(\w+)Change [^>]*[^/]>).*?</w:\2Change>"#, with: "$1",
                                           options: .regularExpression)
                revisions += Self.count(Self.listedPattern, s)
                if name == "word/comments.xml" { comments += s.components(separatedBy: "<w:comment ").count - 1 }
            }
            XCTAssertEqual(items.filter { $0.kind != .comment }.count, revisions, "\(rel): changes")
            XCTAssertEqual(items.filter { $0.kind == .comment }.count, comments, "\(rel): comments")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 40)
    }

    // MARK: Selective review

    static let multiAuthor = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"><w:body>\
    <w:p><w:r><w:t xml:space="preserve">One </w:t></w:r><w:ins w:id="1" w:author="Ann" w:date="2024-01-10T10:00:00Z"><w:r><w:t>ann-in</w:t></w:r></w:ins>\
    <w:del w:id="2" w:author="Bob" w:date="2024-02-10T10:00:00Z"><w:r><w:delText>bob-out</w:delText></w:r></w:del>\
    <w:ins w:id="3" w:author="Bob" w:date="2024-02-11T10:00:00Z"><w:r><w:t>bob-in</w:t></w:r></w:ins>\
    <w:del w:id="4" w:author="Ann" w:date="2024-01-12T10:00:00Z"><w:r><w:delText>ann-out</w:delText></w:r></w:del>\
    <w:r><w:rPr><w:b/><w:rPrChange w:id="5" w:author="Bob" w:date="2024-02-12T10:00:00Z"><w:rPr/></w:rPrChange></w:rPr><w:t>bold</w:t></w:r></w:p>\
    <w:p><w:pPr><w:rPr><w:del w:id="6" w:author="Ann" w:date="2024-01-13T10:00:00Z"/></w:rPr></w:pPr><w:r><w:t>Two</w:t></w:r></w:p>\
    <w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="7" w:author="Bob" w:date="2024-02-13T10:00:00Z"><w:pPr/></w:pPrChange></w:pPr><w:r><w:t>Three</w:t></w:r></w:p>\
    <w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:body></w:document>
    """

    static func package(document: String) throws -> [UInt8] {
        let z = try ZipWriter()
        try z.add("[Content_Types].xml", text: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>
        """)
        try z.add("_rels/.rels", text: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>
        """)
        try z.add("word/document.xml", text: document)
        var out: [UInt8] = []
        try z.finish { out.append(contentsOf: $0) }
        return out
    }

    /// The outer XML of every revision element by id (`w:id` → its text in the output).
    static func revisions(_ docx: [UInt8]) throws -> [String: String] {
        let s = String(decoding: try parts(docx)["word/document.xml"] ?? [], as: UTF8.self)
        let re = try NSRegularExpression(pattern: #"<w:(ins|del|rPrChange|pPrChange) w:id="(\d+)"[^>]*?(/>|>.*?</w:\1>)"#)
        var out: [String: String] = [:]
        for m in re.matches(in: s, range: NSRange(s.startIndex..., in: s)) {
            out[String(s[Range(m.range(at: 2), in: s)!])] = String(s[Range(m.range, in: s)!])
        }
        return out
    }

    func testAcceptingOneAuthorLeavesTheOthersExactly() throws {
        let input = try Self.package(document: Self.multiAuthor)
        let before = try Self.revisions(input)
        XCTAssertEqual(before.count, 7)
        let out = try Self.review(.bytes(input), ReviewOptions(accept: [try ChangeFilter(parsing: "author=Ann")]))
        let after = try Self.revisions(out)
        XCTAssertEqual(Set(after.keys), ["2", "3", "5", "7"])
        for id in ["2", "3", "5", "7"] { XCTAssertEqual(after[id], before[id], "Bob's change \(id)") }
        // Ann's insertion kept as text, her deletion gone, her deleted paragraph mark joins "Two" to "Three".
        XCTAssertEqual(try Self.paragraphs(out), ["One ann-inbob-inbold", "TwoThree"])
    }

    func testFiltersCompose() throws {
        let input = try Self.package(document: Self.multiAuthor)
        let before = try Self.revisions(input)
        // Accept Bob's insertions, reject everything formatted; the rest stays.
        let options = ReviewOptions(accept: [try ChangeFilter(parsing: "author=Bob,kind=insertion")],
                                    reject: [try ChangeFilter(parsing: "kind=formatting")])
        let after = try Self.revisions(try Self.review(.bytes(input), options))
        XCTAssertEqual(Set(after.keys), ["1", "2", "4", "6", "7"])
        for (id, xml) in after { XCTAssertEqual(xml, before[id]) }
        let out = try Self.review(.bytes(input), options)
        let doc = String(decoding: try Self.parts(out)["word/document.xml"]!, as: UTF8.self)
        XCTAssertFalse(doc.contains("<w:b/>"), "the rejected formatting change restores the old run properties")
        // Dates: before= selects Ann's January changes only.
        let dated = try Self.revisions(try Self.review(.bytes(input), ReviewOptions(reject: [try ChangeFilter(parsing: "before=2024-02-01")])))
        XCTAssertEqual(Set(dated.keys), ["2", "3", "5", "7"])
    }

    func testListedIDsRoundTripIntoAcceptID() throws {
        let input = try Self.package(document: Self.multiAuthor)
        let items = try DOCXInPlaceReview.list(.bytes(input))
        XCTAssertEqual(items.map(\.id), ["1", "2", "3", "4", "5", "6", "7"])
        XCTAssertEqual(items.map(\.kind), [.insertion, .deletion, .insertion, .deletion, .formatting, .paragraph, .paragraph])
        XCTAssertEqual(items[1].before, "bob-out")
        XCTAssertEqual(items[0].after, "ann-in")
        for item in items {
            let out = try Self.review(.bytes(input), ReviewOptions(accept: [try ChangeFilter(parsing: "id=\(item.id)")]))
            XCTAssertEqual(Set(try Self.revisions(out).keys), Set(items.map(\.id)).subtracting([item.id]), "id=\(item.id)")
        }
    }

    /// Ordinals for formats without ids: the listing and the model's ReviewTransform agree.
    func testCriticMarkupOrdinalsRoundTrip() throws {
        let md = "Alpha {++one++} beta {--two--} gamma {++three++}.\n"
        let md1 = try XCTUnwrap(FormatRegistry.named("md"))
        let items = try ChangeListing.list(.bytes(Array(md.utf8)), format: md1)
        XCTAssertEqual(items.map(\.id), ["1", "2", "3"])
        XCTAssertEqual(items.map(\.kind), [.insertion, .deletion, .insertion])
        let doc = try Converter.read(.bytes(Array(md.utf8)), format: md1)
        var stage = ReviewTransform(ReviewOptions(reject: [try ChangeFilter(parsing: "id=3")]))
        var out: [Chunk] = []
        for c in doc.chunks { try stage.process(c) { out.append($0) } }
        try stage.finish { out.append($0) }
        let text = out.map { $0.block.plainText }.joined()
        XCTAssertTrue(text.contains("one") && text.contains("two") && !text.contains("three"), text)
    }

    // MARK: Comments

    func testDroppingCommentsRemovesAnchorsAndParts() throws {
        let dir = Fixtures.corpus
        let candidates = Fixtures.sharedDOCX().filter {
            (try? Self.parts([UInt8](Data(contentsOf: dir.appendingPathComponent($0)))))?["word/comments.xml"] != nil
        }
        guard let rel = candidates.first else { throw XCTSkip("no DOCX with comments in the corpus") }
        let out = try Self.review(Fixtures.shared(rel), ReviewOptions(comments: .drop))
        let parts = try Self.parts(out)
        XCTAssertNil(parts["word/comments.xml"], rel)
        let doc = String(decoding: parts["word/document.xml"]!, as: UTF8.self)
        XCTAssertFalse(doc.contains("commentRangeStart") || doc.contains("commentReference"), rel)
        let rels = String(decoding: parts["word/_rels/document.xml.rels"]!, as: UTF8.self)
        XCTAssertFalse(rels.contains("comments.xml"), rel)
        let types = String(decoding: parts["[Content_Types].xml"]!, as: UTF8.self)
        XCTAssertFalse(types.contains("/word/comments.xml"), rel)
    }

    // MARK: Hostile shapes (a quadratic walk would not finish)

    static let w = #"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#

    static func reviewed(_ body: String, _ options: ReviewOptions) throws -> [UInt8] {
        let input = try package(document: "<w:document \(w)><w:body>\(body)</w:body></w:document>")
        let out = MemoryOutput()
        try InPlaceReview.review(.bytes(input), to: out, review: options)  // on a large stack, as convert runs
        return out.bytes
    }

    func testLongMergeChainStaysLinear() throws {
        let n = 50_000
        let p = #"<w:p><w:pPr><w:rPr><w:del w:id="1" w:author="A"/></w:rPr></w:pPr><w:r><w:t>x</w:t></w:r></w:p>"#
        let out = try Self.reviewed(String(repeating: p, count: n) + "<w:p><w:r><w:t>end</w:t></w:r></w:p>",
                                    ReviewOptions(changes: .accept))
        XCTAssertEqual(try Self.paragraphs(out), [String(repeating: "x", count: n) + "end"])
    }

    func testDeepNestingAndLongTables() throws {
        let depth = 3_000
        let nested = String(repeating: #"<w:ins w:id="2" w:author="A"><w:r><w:t>a</w:t></w:r>"#, count: depth)
            + String(repeating: "</w:ins>", count: depth)
        let out = try Self.reviewed("<w:p>\(nested)</w:p>", ReviewOptions(changes: .accept))
        XCTAssertEqual(try Self.paragraphs(out), [String(repeating: "a", count: depth)])
        let list = try ChangeListing.list(.bytes(try Self.package(document: "<w:document \(Self.w)><w:body><w:p>\(nested)</w:p></w:body></w:document>")),
                                          format: try XCTUnwrap(FormatRegistry.named("docx")))
        XCTAssertEqual(list.count, depth)
        // 20,000 rows, every other one deleted: half go, the table stays.
        let rows = (0..<20_000).map { i in
            "<w:tr>" + (i % 2 == 0 ? #"<w:trPr><w:del w:id="3" w:author="A"/></w:trPr>"# : "")
                + "<w:tc><w:p><w:r><w:t>\(i)</w:t></w:r></w:p></w:tc></w:tr>"
        }.joined()
        let table = try Self.reviewed("<w:tbl><w:tblGrid><w:gridCol/></w:tblGrid>\(rows)</w:tbl><w:p/>", ReviewOptions(changes: .accept))
        let texts = try Self.paragraphs(table)
        XCTAssertEqual(texts.count, 10_001)
        XCTAssertEqual(texts.first, "1")
        // Every row deleted: the table goes.
        let gone = try Self.reviewed(#"<w:tbl><w:tr><w:trPr><w:del w:id="3" w:author="A"/></w:trPr><w:tc><w:p/></w:tc></w:tr></w:tbl><w:p/>"#,
                                     ReviewOptions(changes: .accept))
        XCTAssertFalse(String(decoding: try Self.parts(gone)["word/document.xml"]!, as: UTF8.self).contains("w:tbl"))
    }

    /// A comment whose anchors all sit in a table row the review removes goes with the row, as in Word, with
    /// its reply and their `commentsExtended`/`commentsIds` entries; comments anchored elsewhere stay.
    func testCommentsInARemovedRowGoWithIt() throws {
        let w14 = #"xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml""#
        let w15 = #"xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml""#
        let cid = #"xmlns:w16cid="http://schemas.microsoft.com/office/word/2016/wordml/cid""#
        func ref(_ id: Int) -> String { #"<w:r><w:commentReference w:id="\#(id)"/></w:r>"# }
        func anchored(_ id: Int, _ text: String) -> String {
            #"<w:commentRangeStart w:id="\#(id)"/><w:r><w:t>\#(text)</w:t></w:r><w:commentRangeEnd w:id="\#(id)"/>"# + ref(id)
        }
        let document = """
        <w:document \(Self.w)><w:body><w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>\
        <w:tr><w:trPr><w:del w:id="10" w:author="Ann" w:date="2024-01-10T10:00:00Z"/></w:trPr><w:tc><w:p>\(anchored(1, "row gone"))\(ref(2))</w:p></w:tc></w:tr>\
        <w:tr><w:tc><w:p>\(anchored(3, "row stays"))</w:p></w:tc></w:tr></w:tbl>\
        <w:p>\(anchored(4, "body"))</w:p></w:body></w:document>
        """
        func comment(_ id: Int, _ para: String) -> String {
            #"<w:comment w:id="\#(id)" w:author="Bob" w:date="2024-02-01T10:00:00Z"><w:p w14:paraId="\#(para)"><w:r><w:t>c\#(id)</w:t></w:r></w:p></w:comment>"#
        }
        let comments = "<w:comments \(Self.w) \(w14)>" + comment(1, "00000001") + comment(2, "00000002") + comment(3, "00000003")
            + comment(4, "00000004") + "</w:comments>"
        let extended = "<w15:commentsEx \(w15)>" + #"<w15:commentEx w15:paraId="00000001" w15:done="0"/><w15:commentEx w15:paraId="00000002" w15:paraIdParent="00000001" w15:done="0"/><w15:commentEx w15:paraId="00000003" w15:done="0"/><w15:commentEx w15:paraId="00000004" w15:done="0"/>"#
            + "</w15:commentsEx>"
        let ids = "<w16cid:commentsIds \(cid)>" + (1...4).map { #"<w16cid:commentId w16cid:paraId="0000000\#($0)" w16cid:durableId="1000000\#($0)"/>"# }.joined()
            + "</w16cid:commentsIds>"
        let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        let z = try ZipWriter()
        try z.add("[Content_Types].xml", text: #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/><Override PartName="/word/commentsExtended.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"/><Override PartName="/word/commentsIds.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml"/></Types>"#)
        try z.add("_rels/.rels", text: #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="\#(rel)/officeDocument" Target="word/document.xml"/></Relationships>"#)
        // The comments parts first in the archive: their rewrite must still know what the body removed.
        try z.add("word/comments.xml", text: comments)
        try z.add("word/commentsExtended.xml", text: extended)
        try z.add("word/commentsIds.xml", text: ids)
        try z.add("word/_rels/document.xml.rels", text: #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="\#(rel)/comments" Target="comments.xml"/><Relationship Id="rId3" Type="http://schemas.microsoft.com/office/2011/relationships/commentsExtended" Target="commentsExtended.xml"/><Relationship Id="rId4" Type="http://schemas.microsoft.com/office/2016/09/relationships/commentsIds" Target="commentsIds.xml"/></Relationships>"#)
        try z.add("word/document.xml", text: document)
        var input: [UInt8] = []
        try z.finish { input.append(contentsOf: $0) }

        let accepted = try Self.parts(try Self.review(.bytes(input), ReviewOptions(changes: .accept, comments: .keep)))
        let doc = String(decoding: accepted["word/document.xml"]!, as: UTF8.self)
        XCTAssertFalse(doc.contains("row gone"))
        let kept = String(decoding: accepted["word/comments.xml"]!, as: UTF8.self)
        XCTAssertFalse(kept.contains(#"w:id="1""#) || kept.contains(#"w:id="2""#), kept)
        XCTAssertTrue(kept.contains(#"w:id="3""#) && kept.contains(#"w:id="4""#), kept)
        let ext = String(decoding: accepted["word/commentsExtended.xml"]!, as: UTF8.self)
        XCTAssertFalse(ext.contains("00000001") || ext.contains("00000002"), ext)
        XCTAssertTrue(ext.contains("00000003") && ext.contains("00000004"), ext)
        let idsOut = String(decoding: accepted["word/commentsIds.xml"]!, as: UTF8.self)
        XCTAssertFalse(idsOut.contains("10000001") || idsOut.contains("10000002"), idsOut)
        XCTAssertTrue(idsOut.contains("10000003") && idsOut.contains("10000004"), idsOut)
        XCTAssertEqual(try DOCXInPlaceReview.list(.bytes(try Self.review(.bytes(input), ReviewOptions(changes: .accept, comments: .keep))))
                        .filter { $0.kind == .comment }.map(\.id).sorted(), ["3", "4"])

        // Rejected, the row stays and so do its comments.
        let rejected = try Self.parts(try Self.review(.bytes(input), ReviewOptions(changes: .reject, comments: .keep)))
        let all = String(decoding: rejected["word/comments.xml"]!, as: UTF8.self)
        XCTAssertTrue((1...4).allSatisfy { all.contains(#"w:id="\#($0)""#) }, all)
    }

    /// Threads: a reply lists its parent; dropping a comment drops its replies and their side entries.
    func testCommentThreadsListedAndDroppedTogether() throws {
        let path = Fixtures.shared("pandoc/comments.docx")
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("the shared corpus is not there") }
        let items = try DOCXInPlaceReview.list(.file(path))
        XCTAssertEqual(items.first { $0.id == "4" }?.thread, "3")
        XCTAssertEqual(items.first { $0.id == "0" }?.before, "some text to have a comment ", "the commented text in full, as the document has it")
        let out = try Self.review(path, ReviewOptions(dropComments: [try ChangeFilter(parsing: "id=3")]))
        let parts = try Self.parts(out)
        let comments = String(decoding: parts["word/comments.xml"]!, as: UTF8.self)
        XCTAssertFalse(comments.contains(#"w:id="3""#) || comments.contains(#"w:id="4""#))
        XCTAssertTrue(comments.contains(#"w:id="2""#))
        let doc = String(decoding: parts["word/document.xml"]!, as: UTF8.self)
        XCTAssertFalse(doc.contains(#"commentRangeStart w:id="3""#) || doc.contains(#"commentReference w:id="4""#))
        XCTAssertTrue(doc.contains(#"commentRangeStart w:id="2""#))
        let before = String(decoding: try Self.parts(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))["word/commentsExtended.xml"]!,
                            as: UTF8.self)
        let after = String(decoding: parts["word/commentsExtended.xml"]!, as: UTF8.self)
        XCTAssertEqual(before.components(separatedBy: "<w15:commentEx ").count - 2,
                       after.components(separatedBy: "<w15:commentEx ").count, "two entries gone")
    }

    // MARK: Bad input

    func testBadInputFailsWithoutOutputAndLeavesInputAlone() throws {
        let dir = try DOCXTest.temporaryDirectory()
        let notZip = dir.appendingPathComponent("bad.docx")
        try Data("not a zip".utf8).write(to: notZip)
        let outPath = dir.appendingPathComponent("out.docx").path
        XCTAssertThrowsError(try InPlaceReview.review(.file(notZip.path), toFile: outPath, review: ReviewOptions(changes: .accept)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: outPath))
        // Malformed document.xml: one error, no output, the input unchanged.
        let broken = try Self.package(document: "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body><w:p>")
        let brokenPath = dir.appendingPathComponent("broken.docx")
        try Data(broken).write(to: brokenPath)
        XCTAssertThrowsError(try InPlaceReview.review(.file(brokenPath.path), toFile: outPath, review: ReviewOptions(changes: .accept))) {
            XCTAssertTrue(($0 as? RedlineError)?.message.contains("document.xml") == true, "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: outPath))
        XCTAssertEqual(try [UInt8](Data(contentsOf: brokenPath)), broken)
    }

    /// The route: DOCX → DOCX goes in place (with no decision, the identity) unless an option needs the model.
    func testRoute() throws {
        let docx = try XCTUnwrap(FormatRegistry.named("docx")), md = try XCTUnwrap(FormatRegistry.named("md"))
        let accept = ReviewOptions(changes: .accept)
        XCTAssertTrue(InPlaceReview.applies(from: docx, to: docx, review: accept, write: WriteOptions()))
        XCTAssertTrue(InPlaceReview.applies(from: docx, to: docx, review: ReviewOptions(), write: WriteOptions()))
        XCTAssertFalse(InPlaceReview.applies(from: docx, to: md, review: accept, write: WriteOptions()))
        XCTAssertFalse(InPlaceReview.applies(from: docx, to: docx, review: accept, write: WriteOptions(referenceDocument: "ref.docx")))
        XCTAssertFalse(InPlaceReview.applies(from: docx, to: docx, review: accept,
                                             write: WriteOptions(paragraphPreset: ParagraphStyle())))
        XCTAssertTrue(InPlaceReview.applies(from: docx, to: docx, review: accept, write: WriteOptions(preserveFormatting: true)))
    }
}

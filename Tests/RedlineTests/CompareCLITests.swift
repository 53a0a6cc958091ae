import XCTest
import Foundation
import Redline
import RedlineCompare

/// `redline compare` as a user runs it: the built binary, its exit status, its files and its report.
final class CompareCLITests: XCTestCase {
    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-cmpcli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    @discardableResult
    func write(_ text: String, _ name: String) throws -> String {
        try write(Data(text.utf8), name)
    }

    @discardableResult
    func write(_ data: Data, _ name: String) throws -> String {
        let path = tmp + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    /// The JSON objects of a report's lines.
    func reportLines(_ path: String) throws -> [[String: Any]] {
        try read(path).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    // MARK: 1. Batch on the shared engine

    func testDirectoriesRunOnTheBatchEngine() throws {
        try write("One.\n", "old/a.md")
        try write("One, two.\n", "new/a.md")
        try write("Deep text here.\n", "old/sub/b.md")
        try write("Deep text there.\n", "new/sub/b.md")
        try write("Only old.\n", "old/gone.md")
        try write("Only new.\n", "new/fresh.md")
        let out = tmp + "/out", report = tmp + "/report.jsonl"
        let args = ["compare", tmp + "/old", tmp + "/new", "-o", out, "--date", "2024-05-01T09:00:00Z", "--author", "Ann"]
        var r = try RedlineBinary.run(args + ["--report", report, "--jobs", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(read(out + "/a.md").contains("{++, two++}"), read(out + "/a.md"))
        XCTAssertTrue(read(out + "/sub/b.md").contains("{~~here~>there~~}"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/gone.md"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/fresh.md"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/.redline/journal.jsonl"), "the shared journal")
        XCTAssertTrue(r.stderr.contains("2 compared, 0 up to date, 0 failed, 2 on one side only"), r.stderr)
        XCTAssertTrue(r.stderr.contains("only in OLD \(tmp)/old/gone.md"), r.stderr)
        var lines = try reportLines(report)
        XCTAssertEqual(lines.count, 5)
        let a = lines.first { ($0["input"] as? String) == tmp + "/new/a.md" }!
        XCTAssertEqual(a["status"] as? String, "converted")
        XCTAssertEqual(a["old"] as? String, tmp + "/old/a.md")
        XCTAssertEqual((a["stats"] as? [String: Int])?["wordsInserted"], 1)
        let gone = lines.first { ($0["input"] as? String) == tmp + "/old/gone.md" }!
        XCTAssertEqual(gone["status"] as? String, "unpaired")
        XCTAssertEqual(gone["onlyIn"] as? String, "old")
        let fresh = lines.first { ($0["input"] as? String) == tmp + "/new/fresh.md" }!
        XCTAssertEqual(fresh["onlyIn"] as? String, "new")
        var summary = lines.last!
        XCTAssertEqual(summary["converted"] as? Int, 2)
        XCTAssertEqual(summary["unpaired"] as? Int, 2)
        XCTAssertEqual(summary["failed"] as? Int, 0)

        // Existing outputs: refused as convert refuses them, before anything is written.
        r = try RedlineBinary.run(args)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--skip-existing"), r.stderr)

        // --skip-existing: both up to date; then OLD of one pair changes, and only it is compared again.
        r = try RedlineBinary.run(args + ["--skip-existing", "--report", report])
        XCTAssertEqual(r.status, 0, r.stderr)
        summary = try reportLines(report).last!
        XCTAssertEqual(summary["skipped"] as? Int, 2)
        XCTAssertEqual((summary["stats"] as? [String: Int])?["wordsInserted"], 2, "skipped pairs report their stats again")
        try write("One only.\n", "old/a.md")
        r = try RedlineBinary.run(args + ["--skip-existing", "--report", report])
        lines = try reportLines(report)
        XCTAssertEqual(lines.first { ($0["input"] as? String) == tmp + "/new/a.md" }?["status"] as? String, "converted")
        XCTAssertEqual(lines.first { ($0["input"] as? String) == tmp + "/new/sub/b.md" }?["status"] as? String, "skipped")
        XCTAssertTrue(read(out + "/a.md").contains("only~>"), read(out + "/a.md"))

        // The fingerprint covers the comparison options: another author compares everything again.
        r = try RedlineBinary.run(["compare", tmp + "/old", tmp + "/new", "-o", out, "--date", "2024-05-01T09:00:00Z",
                                   "--author", "Bob", "--skip-existing", "--report", report])
        XCTAssertEqual(try reportLines(report).last?["converted"] as? Int, 2)
        XCTAssertTrue(read(out + "/sub/b.md").contains("Bob"), read(out + "/sub/b.md"))
    }

    func testShardsCoverEveryPairOnce() throws {
        for i in 0..<12 {
            try write("Text \(i).\n", "old/f\(i).md")
            try write("Text \(i), edited.\n", "new/f\(i).md")
        }
        var compared = 0
        for k in 1...3 {
            let report = tmp + "/r\(k).jsonl"
            let r = try RedlineBinary.run(["compare", tmp + "/old", tmp + "/new", "-o", tmp + "/out", "--shard", "\(k)/3",
                                           "--report", report, "-q"])
            XCTAssertEqual(r.status, 0, r.stderr)
            compared += try reportLines(report).last?["converted"] as? Int ?? 0
        }
        XCTAssertEqual(compared, 12)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp + "/out").filter { $0.hasSuffix(".md") }.count, 12)
    }

    func testABadPairFailsAloneWithItsFileNamed() throws {
        try write("Fine.\n", "old/good.md")
        try write("Fine, yes.\n", "new/good.md")
        try write("not a zip", "old/bad.docx")
        try write("Text.\n", "new/bad.md")
        let report = tmp + "/report.jsonl"
        let r = try RedlineBinary.run(["compare", tmp + "/old", tmp + "/new", "-o", tmp + "/out", "--report", report])
        XCTAssertEqual(r.status, 1)
        let bad = try reportLines(report).first { ($0["input"] as? String) == tmp + "/new/bad.md" }!
        XCTAssertEqual(bad["status"] as? String, "failed")
        XCTAssertTrue(((bad["error"] as? [String: Any])?["message"] as? String ?? "").contains("bad.docx"), "\(bad)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out/bad.md"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/out/good.md"))
    }

    // MARK: 2. Output format

    func testOutputFormatIsChosenAsConvertChoosesIt() throws {
        let a = try write("Old text.\n", "a.md"), b = try write("New text.\n", "b.md")
        let compare = try RedlineBinary.run(["compare", a, b, "-o", tmp + "/x.odt"])
        let convert = try RedlineBinary.run(["convert", b, "-o", tmp + "/x.odt"])
        XCTAssertEqual(compare.status, 2, compare.stderr)
        XCTAssertEqual(convert.status, 2)
        XCTAssertEqual(compare.stderr, convert.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/x.odt"))
        // -t / --to name the writer whatever the extension.
        var r = try RedlineBinary.run(["compare", a, b, "-t", "docx", "-o", tmp + "/x.bin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: tmp + "/x.bin")?.prefix(2), Data("PK".utf8))
        r = try RedlineBinary.run(["compare", a, b, "--to", "html", "-o", tmp + "/x.txt"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(read(tmp + "/x.txt").contains("<del"), read(tmp + "/x.txt"))
        r = try RedlineBinary.run(["compare", a, b, "-o", tmp + "/x.rtf"])
        XCTAssertTrue(read(tmp + "/x.rtf").hasPrefix("{\\rtf1"))
    }

    // MARK: 3. Reader warnings and pictures

    func testReaderWarningsOfBothInputsReachEveryChannel() throws {
        let a = try write(Data("Old caf\u{e9} text.\n".utf8) + Data([0xFF]) + Data("\n".utf8), "old.md")
        let b = try write(Data("New text.\n".utf8) + Data([0xFE, 0x0A]), "new.md")
        let json = tmp + "/w.json"
        let r = try RedlineBinary.run(["compare", a, b, "-o", tmp + "/out.md", "--warnings-json", json])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("markdown.invalid-utf8"), r.stderr)
        XCTAssertTrue(r.stderr.contains("in OLD \(a)"), "OLD's warnings name OLD: \(r.stderr)")
        let w = read(json)
        XCTAssertTrue(w.contains("markdown.invalid-utf8"), w)
        XCTAssertTrue(w.contains("\"count\" : 2"), "one from each input, folded by code: \(w)")
        // In a batch, in the report.
        try FileManager.default.createDirectory(atPath: tmp + "/o", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp + "/n", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a, toPath: tmp + "/o/doc.md")
        try FileManager.default.copyItem(atPath: b, toPath: tmp + "/n/doc.md")
        let report = tmp + "/report.jsonl"
        _ = try RedlineBinary.run(["compare", tmp + "/o", tmp + "/n", "-o", tmp + "/out", "--report", report, "-q"])
        XCTAssertTrue(read(report).contains("markdown.invalid-utf8"), read(report))
    }

    /// A one-pixel PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    func testPicturesOfNEWAreKeptAsConvertKeepsThem() throws {
        try write(Self.png, "pics/dot.png")
        let a = try write("Some text.\n", "doc/old.md")
        let b = try write("Some new text.\n\n![a dot](../pics/dot.png)\n", "doc/new.md")
        // A picture outside NEW's folder: refused without --resource-path, as convert refuses it.
        var r = try RedlineBinary.run(["compare", a, b, "-o", tmp + "/refused.docx"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("media.outside-resources"), r.stderr)
        // --resource-path allows it: DOCX output carries the picture itself.
        r = try RedlineBinary.run(["compare", a, b, "-o", tmp + "/out.docx", "--resource-path", tmp + "/pics"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try TestProcess.run(["unzip", "-l", tmp + "/out.docx"]).out.contains("word/media/"))
        // --embed-media: one self-contained HTML page.
        r = try RedlineBinary.run(["compare", a, b, "-o", tmp + "/out.html", "--resource-path", tmp + "/pics", "--embed-media"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(read(tmp + "/out.html").contains("data:image/png;base64,"))
        // NEW a DOCX with a picture, Markdown output: the picture is extracted beside the output...
        let newDOCX = tmp + "/out.docx"
        r = try RedlineBinary.run(["compare", a, newDOCX, "-o", tmp + "/res.md"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let beside = (try? FileManager.default.contentsOfDirectory(atPath: tmp + "/res.media")) ?? []
        XCTAssertEqual(beside.count, 1, read(tmp + "/res.md"))
        XCTAssertEqual(beside.first.flatMap { FileManager.default.contents(atPath: tmp + "/res.media/" + $0) }, Self.png)
        // ...or into the --extract-media folder, linked from the output.
        r = try RedlineBinary.run(["compare", a, newDOCX, "-o", tmp + "/res2.md", "--extract-media", tmp + "/media"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: tmp + "/media")) ?? []).count, 1)
        XCTAssertTrue(read(tmp + "/res2.md").contains("media/"), read(tmp + "/res2.md"))
        // NEW a DOCX with a picture, DOCX output (laid into NEW's package): the picture is in the result.
        r = try RedlineBinary.run(["compare", a, newDOCX, "-o", tmp + "/res.docx"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let media = try TestProcess.run(["unzip", "-l", tmp + "/res.docx"]).out.split(separator: "\n").filter { $0.contains("word/media/") }
        XCTAssertEqual(media.count, 1, "\(media)")
        try OOXMLValidate.assertValid(tmp + "/res.docx")
        // In a batch: each output's pictures in its own folder, as convert's batch puts them.
        try FileManager.default.createDirectory(atPath: tmp + "/bo", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp + "/bn", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a, toPath: tmp + "/bo/p.md")
        try FileManager.default.copyItem(atPath: newDOCX, toPath: tmp + "/bn/p.docx")
        r = try RedlineBinary.run(["compare", tmp + "/bo", tmp + "/bn", "-o", tmp + "/bout", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: tmp + "/bout/p.media")) ?? []).count, 1)
    }

    // MARK: 4. Stats

    func testStatsTextAndJSONCarryTheSameFields() throws {
        let a = try write("The quick brown fox jumps.\n\nA second paragraph stays.\n", "a.md")
        let b = try write("The quick red fox leaps.\n\nA second paragraph stays.\n\nAnd one more.\n", "b.md")
        let r = try RedlineBinary.run(["compare", a, b, "-o", tmp + "/out.md", "--stats"])
        XCTAssertEqual(r.status, 0, r.stderr)
        var text: [String: Int] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":")
            text[String(parts[0])] = Int(parts[1].trimmingCharacters(in: .whitespaces))
        }
        let check = try RedlineBinary.run(["check", b, "--against", a, "--format", "json"])
        let json = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as! [String: Any]
        let fields = CompareStats().fields
        XCTAssertEqual(text.count, fields.count, r.stdout)
        for f in fields {
            XCTAssertEqual(text[f.label], json[f.key] as? Int, "\(f.key) / \(f.label)")
        }
        XCTAssertGreaterThan(json["wordsChanged"] as? Int ?? 0, 0)
        XCTAssertEqual(json["wordsChanged"] as? Int, (json["wordsInserted"] as? Int ?? -1) + (json["wordsDeleted"] as? Int ?? -1))
        // The batch report's stats: the same keys.
        try FileManager.default.createDirectory(atPath: tmp + "/o", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp + "/n", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a, toPath: tmp + "/o/x.md")
        try FileManager.default.copyItem(atPath: b, toPath: tmp + "/n/x.md")
        let batch = try RedlineBinary.run(["compare", tmp + "/o", tmp + "/n", "-o", tmp + "/out", "--report", tmp + "/r.jsonl", "-q", "--stats"])
        let stats = try reportLines(tmp + "/r.jsonl").first!["stats"] as! [String: Int]
        XCTAssertEqual(Set(stats.keys), Set(fields.map(\.key)))
        XCTAssertEqual(batch.stdout, r.stdout, "batch --stats prints the sums the same way")
    }

    func testEveryCountOfCompareStatsIsAField() throws {
        // A count added to CompareStats must be printed and reported too.
        let data = try JSONEncoder().encode(CompareStats())
        let keys = Set((try JSONSerialization.jsonObject(with: data) as! [String: Any]).keys)
        XCTAssertEqual(keys.union(["wordsChanged"]), Set(CompareStats().fields.map(\.key)))
    }
}

/// `compare` into DOCX when NEW is a DOCX: the result looks like NEW (styles, headers, footers,
/// sections, pictures), validates, and LibreOffice lists its changes.
final class CompareDOCXLayoutTests: XCTestCase {
    /// Python that writes a DOCX with a header (holding a picture), a footer, a style, a section break
    /// inside the body (a landscape section) and a final two-column section with its own margins.
    static let makeLayoutDocx = #"""
import sys, zipfile, base64
out = sys.argv[1]
W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
PNG = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==')
CT = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
      '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>'
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>'
      '<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>'
      '<Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/>'
      '<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/></Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
DOCRELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
           '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
           '<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>'
           '<Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/>'
           '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/></Relationships>')
SETTINGS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings xmlns:w="%s"><w:zoom w:percent="120"/>'
            '<w:mirrorMargins/><w:defaultTabStop w:val="567"/><w:evenAndOddHeaders/><w:characterSpacingControl w:val="doNotCompress"/>'
            '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="14"/></w:compat></w:settings>') % W
HRELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/logo.png"/></Relationships>')
STYLES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="%s">'
          '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:rFonts w:ascii="Georgia" w:hAnsi="Georgia"/><w:sz w:val="23"/></w:rPr></w:style>'
          '</w:styles>') % W
PIC = ('<w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="95250" cy="95250"/><wp:docPr id="1" name="logo"/>'
       '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
       '<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="1" name="logo.png"/><pic:cNvPicPr/></pic:nvPicPr>'
       '<pic:blipFill><a:blip r:embed="rId1"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
       '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="95250" cy="95250"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic>'
       '</a:graphicData></a:graphic></wp:inline></w:drawing>')
HEADER = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="%s" xmlns:r="%s"><w:p><w:r><w:t>The Company Header</w:t></w:r><w:r>%s</w:r></w:p></w:hdr>') % (W, R, PIC)
FOOTER = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr xmlns:w="%s" xmlns:r="%s"><w:p><w:r><w:t>Confidential footer</w:t></w:r></w:p></w:ftr>') % (W, R)
def p(t, sect=''):
    return '<w:p>%s<w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>' % (('<w:pPr>%s</w:pPr>' % sect) if sect else '', t)
LANDSCAPE = ('<w:sectPr><w:headerReference w:type="default" r:id="rId7"/><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/>'
             '<w:pgMar w:top="1000" w:right="1000" w:bottom="1000" w:left="1000" w:header="500" w:footer="500" w:gutter="0"/></w:sectPr>')
FINAL = ('<w:sectPr><w:headerReference w:type="default" r:id="rId7"/><w:footerReference w:type="default" r:id="rId8"/>'
         '<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1701" w:right="1417" w:bottom="1134" w:left="1417" w:header="708" w:footer="708" w:gutter="0"/>'
         '<w:cols w:num="2" w:space="708"/></w:sectPr>')
words = sys.argv[2] if len(sys.argv) > 2 else 'first'
body = (p('The %s paragraph of the report.' % words) + p('A landscape section ends here.', LANDSCAPE)
        + p('Two columns follow in the last section.') + p('The closing paragraph stays the same.') + FINAL)
DOC = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="%s" xmlns:r="%s"><w:body>%s</w:body></w:document>' % (W, R, body)
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('[Content_Types].xml', CT); z.writestr('_rels/.rels', RELS)
    z.writestr('word/document.xml', DOC); z.writestr('word/_rels/document.xml.rels', DOCRELS)
    z.writestr('word/styles.xml', STYLES); z.writestr('word/header1.xml', HEADER); z.writestr('word/footer1.xml', FOOTER)
    z.writestr('word/_rels/header1.xml.rels', HRELS); z.writestr('word/media/logo.png', PNG)
    z.writestr('word/settings.xml', SETTINGS)
"""#

    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-cmplayout-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    func unzip(_ docx: String, _ part: String) throws -> String {
        try TestProcess.run(["unzip", "-p", docx, part]).out
    }

    func testDOCXResultKeepsNEWsLayout() throws {
        try TestProcess.require("python3")
        let script = tmp + "/make.py"
        try Self.makeLayoutDocx.write(toFile: script, atomically: true, encoding: .utf8)
        let old = tmp + "/old.docx", new = tmp + "/new.docx", out = tmp + "/changes.docx"
        XCTAssertEqual(try TestProcess.run(["python3", script, old, "first"]).status, 0)
        XCTAssertEqual(try TestProcess.run(["python3", script, new, "opening"]).status, 0)
        let r = try RedlineBinary.run(["compare", old, new, "-o", out, "--date", "2024-05-01T09:00:00Z", "--author", "Ann"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("sections-dropped"), r.stderr)
        let document = try unzip(out, "word/document.xml")
        XCTAssertTrue(document.contains("<w:del ") && document.contains("<w:ins "), document)
        // NEW's final section: page, margins, two columns, header and footer references.
        XCTAssertTrue(document.contains("w:top=\"1701\""), document)
        XCTAssertTrue(document.contains("<w:cols w:num=\"2\""), document)
        XCTAssertTrue(document.contains("w:headerReference") && document.contains("w:footerReference"), document)
        // NEW's section break inside the body, on the paragraph that ends the landscape section.
        let landscape = document.range(of: "w:orient=\"landscape\"")
        XCTAssertNotNil(landscape, document)
        if let landscape {
            let paragraph = document[landscape.lowerBound...].prefix { _ in true }
            let end = paragraph.range(of: "</w:p>")!.lowerBound
            XCTAssertTrue(paragraph[..<end].contains("A landscape section ends here"), String(paragraph[..<end]))
        }
        // Headers and footers byte for byte, with the header's picture.
        let list = try TestProcess.run(["unzip", "-l", out]).out
        XCTAssertTrue(list.contains("header1.xml") && list.contains("footer1.xml"), list)
        let rels = try unzip(out, "word/_rels/document.xml.rels")
        XCTAssertTrue(rels.contains("header1.xml") && rels.contains("footer1.xml"), rels)
        XCTAssertEqual(try unzip(out, "word/header1.xml"), try unzip(new, "word/header1.xml"))
        XCTAssertTrue(list.contains("logo.png"), list)
        // NEW's page-shaping settings.
        let settings = try unzip(out, "word/settings.xml")
        XCTAssertTrue(settings.contains("<w:mirrorMargins/>") && settings.contains("<w:evenAndOddHeaders/>"), settings)
        XCTAssertTrue(settings.contains("w:val=\"567\"") && settings.contains("w:val=\"14\""), settings)
        // NEW's styles (as --reference-doc NEW).
        XCTAssertTrue(try unzip(out, "word/styles.xml").contains("Georgia"))
        try OOXMLValidate.assertValid(out)

        // LibreOffice opens it: the changes are listed, the header and the page layout are NEW's.
        try TestProcess.require("soffice")
        let profile = tmp + "/lo-profile"
        let lo = try TestProcess.run(["soffice", "--headless", "-env:UserInstallation=file://\(profile)",
                                      "--convert-to", "fodt", "--outdir", tmp + "/lo", out])
        let fodt = String(decoding: FileManager.default.contents(atPath: tmp + "/lo/changes.fodt") ?? Data(), as: UTF8.self)
        XCTAssertFalse(fodt.isEmpty, "LibreOffice could not open the result: \(lo.err)")
        XCTAssertGreaterThanOrEqual(fodt.components(separatedBy: "<text:changed-region").count - 1, 2, "changes listed")
        XCTAssertTrue(fodt.contains("The Company Header"), "the header")
        XCTAssertTrue(fodt.contains("Confidential footer"), "the footer")
        XCTAssertTrue(fodt.contains("fo:column-count=\"2\""), "two columns")
        XCTAssertTrue(fodt.contains("style:print-orientation=\"landscape\""), "the landscape section")
    }

    func testARealDocumentKeepsItsHeaders() throws {
        let new = RepositoryPaths.sharedCorpus + "/docx2python/example.docx"
        guard FileManager.default.fileExists(atPath: new) else { throw XCTSkip("corpus not present") }
        let md = tmp + "/old.md"
        XCTAssertEqual(try RedlineBinary.run(["convert", new, "-o", md, "-q", "--changes", "accept"]).status, 0)
        var text = String(decoding: FileManager.default.contents(atPath: md)!, as: UTF8.self)
        text = text.replacingOccurrences(of: "the", with: "a", options: [], range: text.range(of: "the"))
        try text.write(toFile: md, atomically: true, encoding: .utf8)
        let out = tmp + "/out.docx"
        let r = try RedlineBinary.run(["compare", md, new, "-o", out, "--date", "2024-05-01T09:00:00Z"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let headers = try TestProcess.run(["unzip", "-l", new]).out.split(separator: "\n").filter { $0.contains("word/header") }.count
        let ours = try TestProcess.run(["unzip", "-l", out]).out.split(separator: "\n").filter { $0.contains("header") && $0.hasSuffix(".xml") }.count
        XCTAssertEqual(ours, headers)
        try OOXMLValidate.assertValid(out)
    }

    /// Real documents with headers, several sections, margins missing attributes (hanging_indent), style
    /// children out of the schema order (image_vml, as pandoc writes them) and
    /// Strict OOXML: each compared against its own text (edited) gives a valid DOCX, its sections kept.
    func testCorpusDocumentsWithLayoutGiveValidResults() throws {
        let names = ["docx2python/example.docx", "Open-Xml-PowerTools/RP027-Change-Section.docx",
                     "pandoc/hanging_indent.docx", "mammoth.js/strict-format.docx", "pandoc/german_styled_lists.docx",
                     "pandoc/table_variable_width.docx", "pandoc/image_vml.docx"]
        var outputs: [String] = []
        for (i, name) in names.enumerated() {
            let new = RepositoryPaths.sharedCorpus + "/" + name
            guard FileManager.default.fileExists(atPath: new) else { continue }
            let md = tmp + "/old\(i).md", out = tmp + "/out\(i).docx"
            XCTAssertEqual(try RedlineBinary.run(["convert", new, "-o", md, "-q", "--changes", "accept"]).status, 0, name)
            var text = String(decoding: FileManager.default.contents(atPath: md) ?? Data(), as: UTF8.self)
            if let r = text.range(of: " ") { text.replaceSubrange(r, with: " extra ") }
            try text.write(toFile: md, atomically: true, encoding: .utf8)
            let r = try RedlineBinary.run(["compare", md, new, "-o", out, "--date", "2024-05-01T09:00:00Z"])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("sections-dropped"), "\(name): \(r.stderr)")
            let strict = name.contains("strict")
            let sections = { (p: String) in try TestProcess.run(["unzip", "-p", p, "word/document.xml"]).out.components(separatedBy: "<w:sectPr").count - 1 }
            if !strict { XCTAssertEqual(try sections(out), try sections(new), name) }
            outputs.append(out)
        }
        XCTAssertGreaterThanOrEqual(outputs.count, 4)
        try OOXMLValidate.assertValid(outputs)
    }
}

import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import RedlineZip
import XCTest

/// Pictures end to end: the media store, header parsing, extraction beside Markdown and HTML outputs,
/// embedding in DOCX and RTF, round trips by content hash, limits, and batches.
final class MediaTests: XCTestCase {
    var dir = ""
    let corpus = Fixtures.repo.appendingPathComponent("Corpus/media").path

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-media-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    // MARK: Helpers

    func convert(_ input: String, to output: String, changes: ChangeMode = .marked,
                 _ configure: (inout ConversionOptions) -> Void = { _ in }) throws -> Diagnostics {
        let from = FormatRegistry.inferred(fromPath: input)!, to = FormatRegistry.inferred(fromPath: output)!
        var options = ConversionOptions(from: from, to: to, changes: changes)
        configure(&options)
        let d = Diagnostics()
        try Converter.convert(.file(input), toFile: output, options: options, diagnostics: d)
        return d
    }

    /// SHA-256 of every `word/media/` part of a DOCX, by part name.
    func mediaHashes(_ docx: String) throws -> [String: String] {
        let zip = try ZipArchive(path: docx)
        var out: [String: String] = [:]
        for e in zip.entries where e.name.hasPrefix("word/media/") { out[e.name] = ContentHash.sha256(try zip.read(e)) }
        return out
    }

    func fileHash(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { ContentHash.sha256([UInt8]($0)) }
    }

    /// Every picture in the document's paragraphs, inside changes and formatting too (`insertedOnly`:
    /// only those inside a tracked insertion).
    func images(in doc: Document, insertedOnly: Bool = false) -> [Image] {
        var out: [Image] = []
        func walk(_ inlines: [Inline], inserted: Bool = false) {
            for i in inlines {
                if case .image(let img) = i { if inserted || !insertedOnly { out.append(img) }; continue }
                if case .insertion = i { walk(i.children, inserted: true) } else { walk(i.children, inserted: inserted) }
            }
        }
        func blocks(_ bs: [Block]) {
            for b in bs {
                switch b {
                case .paragraph(let p), .heading(_, let p): walk(p.content)
                default: break
                }
            }
        }
        blocks(doc.blocks)
        return out
    }

    // MARK: Store and headers

    func testSHA256KnownVectors() {
        XCTAssertEqual(ContentHash.sha256([UInt8]()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(ContentHash.sha256(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(ContentHash.sha256(Array(repeating: UInt8(ascii: "a"), count: 1_000)),
                       "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func testPictureHeadersGiveSizeAndResolution() throws {
        let png = [UInt8](FileManager.default.contents(atPath: corpus + "/pictures/red-square.png")!)
        let jpg = [UInt8](FileManager.default.contents(atPath: corpus + "/pictures/two-greys.jpg")!)
        XCTAssertEqual(MediaKind.sniff(png), .png)
        XCTAssertEqual(MediaKind.sniff(jpg), .jpeg)
        let p = try XCTUnwrap(PictureInfo.read(png, kind: .png))
        XCTAssertEqual(p.pixelWidth, 24)
        XCTAssertEqual(p.pixelHeight, 16)
        XCTAssertEqual(p.dpiX ?? 0, 150, accuracy: 0.1)
        XCTAssertEqual(p.pointSize.width, 24 * 72 / p.dpiX!, accuracy: 0.001)
        let j = try XCTUnwrap(PictureInfo.read(jpg, kind: .jpeg))
        XCTAssertEqual([j.pixelWidth, j.pixelHeight], [16, 8])
        XCTAssertEqual(j.dpiX, 72)
        let gif: [UInt8] = Array("GIF89a".utf8) + [5, 0, 3, 0, 0, 0, 0]
        XCTAssertEqual(MediaKind.sniff(gif), .gif)
        XCTAssertEqual(PictureInfo.read(gif, kind: .gif).map { [$0.pixelWidth, $0.pixelHeight] }, [5, 3])
        XCTAssertNil(PictureInfo.read(Array(png.prefix(20)), kind: .png), "a truncated header is no size")
    }

    func testStoreKeepsIdenticalPicturesOnceAndEnforcesLimits() throws {
        let png = [UInt8](FileManager.default.contents(atPath: corpus + "/pictures/red-square.png")!)
        var limits = Limits()
        limits.maxPictureBytes = 150
        limits.maxMediaBytes = 200
        let store = MediaStore(limits: limits)
        let d = Diagnostics()
        let a = try XCTUnwrap(store.add(png, name: "a", diagnostics: d))
        let b = try XCTUnwrap(store.add(png, name: "b", diagnostics: d))
        XCTAssertEqual(a, b)
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(try a.bytes(), png)
        XCTAssertNil(store.add(Array(repeating: 1, count: 151), name: "big.png", diagnostics: d))
        XCTAssertNil(store.add(Array(repeating: 2, count: 100), name: "past-total.png", diagnostics: d))
        let tooLarge = d.all.filter { $0.code == .mediaTooLarge }
        XCTAssertEqual(tooLarge.first?.count, 2)
        XCTAssertTrue(tooLarge.first?.message.contains("big.png") ?? false)
    }

    // MARK: DOCX → Markdown → DOCX

    func testDOCXToMarkdownExtractsPicturesBesideTheOutputAndBackKeepsTheBytes() throws {
        let md = dir + "/out/chapter.md"
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        _ = try convert(corpus + "/from-word.docx", to: md) { $0.write.preserveFormatting = true }
        let text = try String(contentsOfFile: md, encoding: .utf8)
        XCTAssertTrue(text.contains("![Test picture](chapter.media/image1.png){width=1in height=0.6667in}"), text)
        XCTAssertTrue(text.contains("![Test picture](chapter.media/image2.jpg)"), text)
        let written = try FileManager.default.contentsOfDirectory(atPath: dir + "/out/chapter.media").sorted()
        XCTAssertEqual(written, ["image1.png", "image2.jpg"], "the picture shown twice is written once")
        XCTAssertEqual(fileHash(dir + "/out/chapter.media/image1.png"), fileHash(corpus + "/pictures/red-square.png"))

        let back = dir + "/back.docx"
        _ = try convert(md, to: back)
        XCTAssertEqual(Set(try mediaHashes(back).values), Set(try mediaHashes(corpus + "/from-word.docx").values))
        try OOXMLValidate.assertValid(back)
        let doc = try Converter.read(.file(back), format: FormatRegistry.named("docx")!)
        let sizes = images(in: doc).map { ($0.width ?? 0, $0.height ?? 0) }
        XCTAssertEqual(sizes.count, 3)
        XCTAssertEqual(sizes[0].0, 72, accuracy: 0.01, "the 1-inch size comes back")
        XCTAssertEqual(sizes[1].0, 36, accuracy: 0.01)
        XCTAssertEqual(images(in: doc).map(\.alt), ["Test picture", "Test picture", "Test picture"])
    }

    /// Word (body pictures, a picture in a comment) and LibreOffice (a VML picture) documents from the corpus.
    func testRealCorpusDOCXPicturesSurviveMarkdownRoundTrip() throws {
        for name in ["docx2python/example.docx", "python-docx/comments-rich-para.docx", "pandoc/image_vml.docx"] {
            let source = Fixtures.shared(name)
            guard FileManager.default.fileExists(atPath: source) else { throw XCTSkip("no shared corpus") }
            let stem = (name as NSString).lastPathComponent.replacingOccurrences(of: ".docx", with: "")
            let md = dir + "/\(stem).md", back = dir + "/\(stem).docx"
            _ = try convert(source, to: md)
            let extracted = try FileManager.default.contentsOfDirectory(atPath: dir + "/\(stem).media")
            XCTAssertFalse(extracted.isEmpty, name)
            _ = try convert(md, to: back)
            XCTAssertEqual(Set(try mediaHashes(back).values), Set(try mediaHashes(source).values), name)
            XCTAssertFalse(try mediaHashes(back).isEmpty, name)
            try OOXMLValidate.assertValid(back)
        }
    }

    func testExtractMediaFolderIsLinkedRelativeToTheOutput() throws {
        let md = dir + "/docs/ch.md"
        try FileManager.default.createDirectory(atPath: dir + "/docs", withIntermediateDirectories: true)
        _ = try convert(corpus + "/from-word.docx", to: md) {
            $0.write.mediaOutput = .folder(self.dir + "/assets/figs", for: md)
        }
        let text = try String(contentsOfFile: md, encoding: .utf8)
        XCTAssertTrue(text.contains("](../assets/figs/image1.png)"), text)
        XCTAssertNotNil(fileHash(dir + "/assets/figs/image2.jpg"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/docs/ch.media"))
    }

    // MARK: Markdown → DOCX / RTF

    func testMarkdownToDOCXEmbedsLocalPicturesAndWarnsForTheRest() throws {
        let out = dir + "/pictures.docx"
        let d = try convert(corpus + "/from-markdown.md", to: out)
        try OOXMLValidate.assertValid(out)
        let hashes = Set(try mediaHashes(out).values)
        XCTAssertTrue(hashes.contains(fileHash(corpus + "/pictures/red-square.png")!))
        XCTAssertTrue(hashes.contains(fileHash(corpus + "/pictures/two-greys.jpg")!))
        XCTAssertEqual(hashes.count, 3, "chequer (three times), greys, the data URI: three parts")
        let codes = Set(d.all.map(\.code))
        XCTAssertTrue(codes.isSuperset(of: [.mediaRemote, .mediaMissing, .mediaOutsideResources]))
        XCTAssertTrue(d.all.first { $0.code == .mediaMissing }!.message.contains("pictures/none.png"))

        let doc = try Converter.read(.file(out), format: FormatRegistry.named("docx")!)
        let pictures = images(in: doc)
        XCTAssertEqual(pictures.first?.alt, "A red and white chequer")
        XCTAssertEqual(pictures.first?.title, "Chequer")
        // 24 × 16 pixels at 150 dpi.
        XCTAssertEqual(pictures.first?.width ?? 0, 24 * 72 / 150, accuracy: 0.05)
        // The given size wins over the natural one.
        XCTAssertEqual(pictures.first { $0.alt == "Two grey blocks" }?.width ?? 0, 8, accuracy: 0.05)
        // A picture in a tracked insertion / deletion keeps its change.
        var inserted = false, deleted = false
        for block in doc.blocks {
            guard case .paragraph(let p) = block else { continue }
            for i in p.content {
                if case .insertion(_, let c) = i, c.contains(where: { if case .image = $0 { return true }; return false }) { inserted = true }
                if case .deletion(_, let c) = i, c.contains(where: { if case .image = $0 { return true }; return false }) { deleted = true }
            }
        }
        XCTAssertTrue(inserted)
        XCTAssertTrue(deleted)
    }

    func testDOCXToDOCXKeepsPicturesAndTheirChanges() throws {
        let first = dir + "/first.docx", second = dir + "/second.docx"
        _ = try convert(corpus + "/from-markdown.md", to: first)
        _ = try convert(first, to: second)
        try OOXMLValidate.assertValid(second)
        XCTAssertEqual(try mediaHashes(second), try mediaHashes(first))
        let doc = try Converter.read(.file(second), format: FormatRegistry.named("docx")!)
        XCTAssertEqual(images(in: doc, insertedOnly: true).map(\.alt), ["Inserted blue"])
        XCTAssertEqual(images(in: doc).map(\.alt).filter { $0 == "Deleted chequer" }.count, 1)
        let accepted = dir + "/accepted.docx"
        _ = try convert(first, to: accepted, changes: .accept)
        let clean = try Converter.read(.file(accepted), format: FormatRegistry.named("docx")!)
        XCTAssertTrue(images(in: clean).contains { $0.alt == "Inserted blue" })
        XCTAssertFalse(images(in: clean).contains { $0.alt == "Deleted chequer" }, "accepting drops the deleted picture")
    }

    func testResourcePathAllowsPicturesOutsideTheMarkdownFolder() throws {
        try FileManager.default.createDirectory(atPath: dir + "/text", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/art", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus + "/pictures/red-square.png", toPath: dir + "/art/a.png")
        try "![a](../art/a.png)\n".write(toFile: dir + "/text/t.md", atomically: true, encoding: .utf8)
        let refused = try convert(dir + "/text/t.md", to: dir + "/refused.docx")
        XCTAssertTrue(refused.all.contains { $0.code == .mediaOutsideResources })
        XCTAssertTrue(try mediaHashes(dir + "/refused.docx").isEmpty)
        let allowed = try convert(dir + "/text/t.md", to: dir + "/allowed.docx") { $0.read.resourcePaths = [self.dir + "/art"] }
        XCTAssertFalse(allowed.all.contains { $0.code == .mediaOutsideResources })
        XCTAssertEqual(Array(try mediaHashes(dir + "/allowed.docx").values), [fileHash(dir + "/art/a.png")!])
    }

    func testUnreadablePictureIsAWarningNotACrash() throws {
        try FileManager.default.createDirectory(atPath: dir + "/folder.png", withIntermediateDirectories: true)
        try "![x](folder.png) ![y](data:image/png;base64,@@@@)\n".write(toFile: dir + "/t.md", atomically: true, encoding: .utf8)
        let d = try convert(dir + "/t.md", to: dir + "/t.docx")
        XCTAssertTrue(d.all.contains { $0.code == .mediaMissing && $0.message.contains("folder.png") })
        try OOXMLValidate.assertValid(dir + "/t.docx")
    }

    func testMarkdownToRTFToMarkdownGivesBackThePictureFiles() throws {
        let rtf = dir + "/p.rtf", md = dir + "/p.md"
        _ = try convert(corpus + "/from-markdown.md", to: rtf)
        let rtfText = try String(contentsOfFile: rtf, encoding: .utf8)
        XCTAssertTrue(rtfText.contains("\\pngblip\\picw24\\pich16\\picwgoal230\\pichgoal154"), "pixel and goal sizes")
        XCTAssertTrue(rtfText.contains("\\jpegblip"))
        XCTAssertTrue(rtfText.contains("{\\sn wzDescription}{\\sv A red and white chequer}"))
        _ = try convert(rtf, to: md)
        let text = try String(contentsOfFile: md, encoding: .utf8)
        XCTAssertTrue(text.contains("![A red and white chequer](p.media/image1.png)"), text)
        XCTAssertTrue(text.contains("{++![Inserted blue](p.media/image3.png)++}"), text)
        XCTAssertEqual(fileHash(dir + "/p.media/image1.png"), fileHash(corpus + "/pictures/red-square.png"))
        XCTAssertEqual(fileHash(dir + "/p.media/image2.jpg"), fileHash(corpus + "/pictures/two-greys.jpg"))
    }

    func testRTFPicturesIntoDOCXAndBack() throws {
        let docx = dir + "/r.docx", rtf = dir + "/r.rtf"
        _ = try convert(corpus + "/from-rtf.rtf", to: docx)
        try OOXMLValidate.assertValid(docx)
        let hashes = Set(try mediaHashes(docx).values)
        XCTAssertEqual(hashes, [fileHash(corpus + "/pictures/red-square.png")!, fileHash(corpus + "/pictures/two-greys.jpg")!])
        _ = try convert(docx, to: rtf)
        let doc = try Converter.read(.file(rtf), format: FormatRegistry.named("rtf")!)
        let pictures = images(in: doc)
        XCTAssertEqual(pictures.count, 3)
        XCTAssertEqual(images(in: doc, insertedOnly: true).count, 1, "the inserted picture is still an insertion")
        XCTAssertEqual(pictures.first?.alt, "A red chequer")
        XCTAssertEqual(pictures.first?.width ?? 0, 144, accuracy: 0.01, "\\picwgoal2880 is 2 inches")
        XCTAssertEqual(try pictures.first?.media?.bytes(), [UInt8](FileManager.default.contents(atPath: corpus + "/pictures/red-square.png")!))
    }

    // MARK: HTML

    func testHTMLLinksExtractedFilesOrEmbedsDataURIs() throws {
        // With a folder of the caller's (--extract-media), HTML links the pictures it writes there; by default the
        // page is one file, its pictures embedded (below, and with embedMedia as before).
        let html = dir + "/page.html"
        _ = try convert(corpus + "/from-rtf.rtf", to: html) {
            $0.write.mediaOutput = MediaOutput(directory: self.dir + "/page.media", linkPrefix: "page.media")
        }
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(page.contains("<img src=\"page.media/image1.png\" alt=\"A red chequer\" width=\"192\" height=\"128\">"), page)
        XCTAssertNotNil(fileHash(dir + "/page.media/image2.jpg"))

        let embedded = dir + "/one.html"
        _ = try convert(corpus + "/from-markdown.md", to: embedded) { $0.write.embedMedia = true }
        let one = try String(contentsOfFile: embedded, encoding: .utf8)
        let png = FileManager.default.contents(atPath: corpus + "/pictures/red-square.png")!
        XCTAssertTrue(one.contains("src=\"data:image/png;base64," + png.base64EncodedString() + "\""))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/one.media"))

        let byDefault = dir + "/default.html"
        _ = try convert(corpus + "/from-markdown.md", to: byDefault)
        XCTAssertTrue(try String(contentsOfFile: byDefault, encoding: .utf8).contains("src=\"data:image/png;base64,"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/default.media"))
    }

    func testMetafilesAreExtractedAsTheyAreWithAWarning() throws {
        // A placeable WMF header and a few bytes: not shown by browsers, extracted unchanged.
        let wmf: [UInt8] = [0xD7, 0xCD, 0xC6, 0x9A] + Array(repeating: 0, count: 30)
        let hex = wmf.map { String(format: "%02x", $0) }.joined()
        try "{\\rtf1\\ansi {\\pict\\wmetafile8\\picwgoal1440\\pichgoal720 \(hex)}\\par}".write(toFile: dir + "/w.rtf", atomically: true, encoding: .utf8)
        let d = try convert(dir + "/w.rtf", to: dir + "/w.md")
        XCTAssertTrue(d.all.contains { $0.code == .mediaNotWebViewable })
        XCTAssertEqual(fileHash(dir + "/w.media/image1.wmf"), ContentHash.sha256(wmf))
    }

    // MARK: Batch

    func testBatchGivesEachDocumentItsOwnMediaFolderAndSkipExistingChecksIt() throws {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus + "/from-word.docx", toPath: dir + "/in/a.docx")
        try FileManager.default.copyItem(atPath: corpus + "/from-rtf.rtf", toPath: dir + "/in/b.rtf")
        let inputs = try InputSelection(paths: [dir + "/in"], manifest: nil, include: [], exclude: [], skipDirectories: [dir + "/out"]).discover()
        var options = BatchOptions(to: FormatRegistry.named("md")!, outputDirectory: dir + "/out", existing: .skipUpToDate, jobs: 2, toolVersion: "t")
        let (first, _) = try Batch.run(inputs, options: options)
        XCTAssertEqual(first.map(\.status), [.converted, .converted])
        XCTAssertEqual(fileHash(dir + "/out/a.media/image2.jpg"), fileHash(corpus + "/pictures/two-greys.jpg"))
        XCTAssertEqual(fileHash(dir + "/out/b.media/image1.png"), fileHash(corpus + "/pictures/red-square.png"))
        let (second, _) = try Batch.run(inputs, options: options)
        XCTAssertEqual(second.map(\.status), [.skipped, .skipped])
        try FileManager.default.removeItem(atPath: dir + "/out/b.media/image1.png")
        let (third, _) = try Batch.run(inputs, options: options)
        XCTAssertEqual(third.map(\.status), [.skipped, .converted], "a missing picture makes its document out of date")
        XCTAssertNotNil(fileHash(dir + "/out/b.media/image1.png"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir + "/out/b.media").filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary picture files are left")
        options.write.mediaOutput = MediaOutput(directory: dir + "/figs", linkPrefix: "")
        options.existing = .overwrite
        _ = try Batch.run(inputs, options: options)
        XCTAssertNotNil(fileHash(dir + "/figs/a.media/image1.png"))
        let text = try String(contentsOfFile: dir + "/out/a.md", encoding: .utf8)
        XCTAssertTrue(text.contains("](../figs/a.media/image1.png)"), text)
    }
}

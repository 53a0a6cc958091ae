import Foundation
import XCTest
import Redline
import RedlineCore

/// PDF output through LibreOffice: what the PDF's text holds (pdftotext), page counts, the clean
/// version, one engine run for a batch, a missing engine, and an engine that writes no valid PDF.
final class PDFOutputTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-pdf-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    /// Skips (locally) or fails (under CI) when `tool` is not installed.
    func require(_ tool: String) throws {
        try TestProcess.require(tool)
    }

    /// The PDF's text with runs of white space as one space.
    func text(ofPDF path: String) throws -> String {
        let r = try RedlineBinary.run(["/usr/bin/pdftotext", path, "-"], raw: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    func pages(ofPDF path: String) throws -> Int {
        let r = try RedlineBinary.run(["/usr/bin/pdfinfo", path], raw: true)
        let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }

    /// Both sides of every change and the text of every comment of `input`, as the reader sees them.
    func reviewTexts(_ input: String) throws -> [String] {
        let format = FormatRegistry.inferred(fromPath: input)!
        let doc = try Converter.read(.file(input), format: format)
        var texts: [String] = []
        func collect(_ block: Block) {
            block.forEachInline { inline in
                switch inline {
                case .insertion(_, let c), .deletion(_, let c), .move(_, let c), .formatChange(_, let c): texts.append(c.plainText)
                case .substitution(_, let d, let i): texts += [d.plainText, i.plainText]
                default: break
                }
            }
        }
        doc.blocks.forEach(collect)
        for n in doc.notes { n.blocks.forEach(collect) }
        for c in doc.comments { texts.append(c.body.map(\.plainText).joined(separator: " ")) }
        return texts.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.filter { !$0.isEmpty }
    }

    func assertPDFHoldsEveryChangeAndComment(_ input: String, maxPages: Int) throws {
        try require("soffice")
        try require("pdftotext")
        let out = tmp + "/" + ((input as NSString).lastPathComponent as NSString).deletingPathExtension + ".pdf"
        let r = try RedlineBinary.run(["convert", input, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: out))
        XCTAssertTrue(bytes.starts(with: Data("%PDF-".utf8)))
        let text = try text(ofPDF: out)
        let expected = try reviewTexts(input)
        XCTAssertGreaterThanOrEqual(expected.count, 3, "the fixture has changes or comments")
        for t in expected { XCTAssertTrue(text.contains(t), "\(input): the PDF lacks \"\(t)\"\n\(text)") }
        let n = try pages(ofPDF: out)
        XCTAssertTrue((1...maxPages).contains(n), "\(n) pages")
    }

    func testCriticMarkupDocumentAsPDFHoldsBothSidesOfEveryChangeAndEveryComment() throws {
        try assertPDFHoldsEveryChangeAndComment(RepositoryPaths.root + "/docs/samples/contract-review.md", maxPages: 2)
        try assertPDFHoldsEveryChangeAndComment(RepositoryPaths.root + "/Corpus/markdown/review-for-word.md", maxPages: 2)
    }

    func testReviewedDOCXAsPDFHoldsBothSidesOfEveryChangeAndEveryComment() throws {
        for name in ["comments", "tracked-changes", "moves-and-formatting", "libreoffice-tracked-changes"] {
            try assertPDFHoldsEveryChangeAndComment(RepositoryPaths.root + "/Corpus/docx/\(name).docx", maxPages: 2)
        }
    }

    func testCleanAndOriginalVersions() throws {
        try require("soffice")
        try require("pdftotext")
        let input = RepositoryPaths.root + "/docs/samples/contract-review.md"
        for (mode, present, absent) in [("accept", "seven years", "renewable once"), ("reject", "five years", "by bank transfer")] {
            let out = tmp + "/\(mode).pdf"
            let r = try RedlineBinary.run(["convert", input, "-o", out, "--changes", mode])
            XCTAssertEqual(r.status, 0, r.stderr)
            let text = try text(ofPDF: out)
            XCTAssertTrue(text.contains(present), text)
            XCTAssertFalse(text.contains(absent), text)
            XCTAssertFalse(text.contains("Is subletting"), "comments are dropped from the \(mode) version")
        }
    }

    func testCompareWritesThePDFOfTheDifferences() throws {
        try require("soffice")
        try require("pdftotext")
        try "# Lease\n\nThe lease runs for five years.\n".write(toFile: tmp + "/old.md", atomically: true, encoding: .utf8)
        try "# Lease\n\nThe lease runs for seven years, renewable.\n".write(toFile: tmp + "/new.md", atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["compare", tmp + "/old.md", tmp + "/new.md", "-o", tmp + "/diff.pdf"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try text(ofPDF: tmp + "/diff.pdf")
        XCTAssertTrue(text.contains("five") && text.contains("seven") && text.contains("renewable"), text)
    }

    /// A wrapper `soffice` that logs each start, so the test can count engine runs.
    func countingEngine() throws -> (path: String, log: String) {
        let path = tmp + "/soffice-counting", log = tmp + "/engine-runs.log"
        try "#!/bin/sh\necho run >> '\(log)'\nexec soffice \"$@\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return (path, log)
    }

    func testBatchStartsTheEngineOnceForManyDocuments() throws {
        try require("soffice")
        try require("pdftotext")
        let inputs = tmp + "/in"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        for i in 0..<6 {
            try "# Document \(i)\n\nText {++added \(i)++} and {--removed \(i)--}.\n".write(
                toFile: inputs + "/doc\(i).md", atomically: true, encoding: .utf8)
        }
        let engine = try countingEngine()
        // The run starts when every worker waits; the time window (1 s by default) is set long here so that a
        // loaded machine, where converting six documents may take longer than a second, cannot split it.
        let r = try RedlineBinary.run(["/usr/bin/env", "REDLINE_SOFFICE=\(engine.path)", "REDLINE_PDF_GATHER_SECONDS=300",
                                       RedlineBinary.executable,
                                       "convert", inputs, "-o", tmp + "/out/", "--to", "pdf", "--jobs", "2"], raw: true)
        XCTAssertEqual(r.status, 0, r.stderr)
        for i in 0..<6 {
            let text = try text(ofPDF: tmp + "/out/doc\(i).pdf")
            XCTAssertTrue(text.contains("added \(i)") && text.contains("removed \(i)"), text)
        }
        let runs = try String(contentsOfFile: engine.log, encoding: .utf8).split(separator: "\n").count
        XCTAssertEqual(runs, 1, "six documents, one engine run")
    }

    func testMissingEngineIsOneErrorNamingWhatToInstallAndNoFile() throws {
        let input = tmp + "/in.md"
        try "Hello {++world++}.\n".write(toFile: input, atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["/usr/bin/env", "PATH=/nonexistent", RedlineBinary.executable,
                                       "convert", input, "-o", tmp + "/out.pdf"], raw: true)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("apt-get install libreoffice-writer-nogui"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), ["in.md"], "nothing written")
    }

    func testAnEngineThatWritesNoValidPDFLeavesNoOutput() throws {
        let fake = tmp + "/soffice-broken"
        // Writes a truncated "PDF" for every document, as a crashing engine might.
        try """
        #!/bin/sh
        while [ "$1" != "--outdir" ]; do shift; done
        out="$2"; shift 2; mkdir -p "$out"
        for f in "$@"; do n=$(basename "$f" .docx); printf '%%PDF-1.7 truncated' > "$out/$n.pdf"; done
        """.write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let input = tmp + "/in.md"
        try "Hello {++world++}.\n".write(toFile: input, atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["/usr/bin/env", "REDLINE_SOFFICE=\(fake)", RedlineBinary.executable,
                                       "convert", input, "-o", tmp + "/out.pdf"], raw: true)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("no valid PDF"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out.pdf"))
        XCTAssertFalse(PDFEngine.isPDF(Array("%PDF-1.7 truncated".utf8)))
    }

    func testCommentNotesPrintEachThreadOnceAtTheEndOfItsAnchor() throws {
        let doc = Document(blocks: [
            .paragraph(Paragraph([.text("a "), .commentStart("1"), .text("b"), .commentEnd("1"), .text(" c"),
                                  .commentPoint("3")])),
        ], comments: [
            Comment(id: "1", author: "Ann", date: "2024-01-15T14:30:00Z", body: [.paragraph(Paragraph([.text("Why?")]))]),
            Comment(id: "2", author: "Bob", body: [.paragraph(Paragraph([.text("Because.")]))], parentID: "1"),
            Comment(id: "3", body: [.paragraph(Paragraph([.text("Point.")]))], resolved: true),
        ])
        var source = ChunkArraySource(doc)
        var stage = CommentNotes()
        var chunks: [Chunk] = []
        _ = try stage.begin(source.header)
        while let c = try source.next() { try stage.process(c) { chunks.append($0) } }
        try stage.finish { chunks.append($0) }
        XCTAssertEqual(chunks.count, 1)
        XCTAssertEqual(chunks[0].block.plainText,
                       "a b [Ann 2024-01-15: Why? | Bob (reply): Because.] c [Anonymous (resolved): Point.]")
    }
}

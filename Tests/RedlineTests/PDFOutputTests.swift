import Foundation
import XCTest
import Redline
import RedlineCore

/// PDF output through both engines (Chromium printing the review page, LibreOffice rendering the DOCX):
/// what the PDF's text holds (pdftotext), comments on their anchors' pages, page counts, the clean
/// version, paragraph-change marks, one engine run for a batch and for an export's three versions, a
/// missing engine, and an engine that writes no valid PDF.
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

    /// The text of each page, white space folded.
    func pageTexts(ofPDF path: String) throws -> [String] {
        try (1...max(pages(ofPDF: path), 1)).map { n in
            let r = try RedlineBinary.run(["/usr/bin/pdftotext", "-f", "\(n)", "-l", "\(n)", path, "-"], raw: true)
            return r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
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
        for c in doc.comments { texts += [c.body.map(\.plainText).joined(separator: " "), c.author ?? "Anonymous"] }
        return texts.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.filter { !$0.isEmpty }
    }

    static let engines = ["chromium", "libreoffice"]

    /// The program an engine needs.
    func require(engine: String) throws {
        try require(engine == "chromium" ? "chromium" : "soffice")
    }

    func assertPDFHoldsEveryChangeAndComment(_ input: String, engine: String, maxPages: Int) throws {
        try require(engine: engine)
        try require("pdftotext")
        let out = tmp + "/" + ((input as NSString).lastPathComponent as NSString).deletingPathExtension + "-\(engine).pdf"
        let r = try RedlineBinary.run(["convert", input, "-o", out, "--pdf-engine", engine])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: out))
        XCTAssertTrue(bytes.starts(with: Data("%PDF-".utf8)))
        let text = try text(ofPDF: out)
        let expected = try reviewTexts(input)
        XCTAssertGreaterThanOrEqual(expected.count, 3, "the fixture has changes or comments")
        for t in expected { XCTAssertTrue(text.contains(t), "\(input) (\(engine)): the PDF lacks \"\(t)\"\n\(text)") }
        let n = try pages(ofPDF: out)
        XCTAssertTrue((1...maxPages).contains(n), "\(n) pages")
    }

    func testCriticMarkupDocumentAsPDFHoldsBothSidesOfEveryChangeAndEveryComment() throws {
        for engine in Self.engines {
            try assertPDFHoldsEveryChangeAndComment(RepositoryPaths.root + "/docs/samples/contract-review.md", engine: engine, maxPages: 2)
            try assertPDFHoldsEveryChangeAndComment(RepositoryPaths.root + "/Corpus/markdown/review-for-word.md", engine: engine, maxPages: 2)
        }
    }

    func testReviewedDOCXAsPDFHoldsBothSidesOfEveryChangeAndEveryComment() throws {
        for engine in Self.engines {
            for name in ["comments", "tracked-changes", "moves-and-formatting", "libreoffice-tracked-changes"] {
                try assertPDFHoldsEveryChangeAndComment(RepositoryPaths.root + "/Corpus/docx/\(name).docx", engine: engine, maxPages: 2)
            }
        }
    }

    /// A long document with a comment near its start, middle and end: with Chromium each comment (its
    /// author and text) is printed in the margin on the page of its anchor, and the three are on three
    /// different pages; with either engine, on a DOCX made from it too.
    func testCommentsArePrintedOnTheirAnchorsPage() throws {
        try require("pdftotext")
        var md = "# Report\n\n"
        let filler = "The quarterly figures were reviewed by the board and found to be in order for the period."
        for i in 1...90 {
            switch i {
            case 8: md += "Paragraph \(i) holds {==the first anchor==}{>>Alice Author: first remark<<} here.\n\n"
            case 45: md += "Paragraph \(i) holds {==the second anchor==}{>>Bob Builder: second remark<<} here.\n\n"
            case 85: md += "Paragraph \(i) holds {==the third anchor==}{>>Carol Critic: third remark<<} here.\n\n"
            default: md += "Paragraph \(i). \(filler) {++Added \(i).++}\n\n"
            }
        }
        let input = tmp + "/long.md"
        try md.write(toFile: input, atomically: true, encoding: .utf8)
        try require("chromium")
        let docx = tmp + "/long.docx"
        XCTAssertEqual(try RedlineBinary.run(["convert", input, "-o", docx]).status, 0)
        for source in [input, docx] {
            let out = tmp + "/long-\((source as NSString).pathExtension).pdf"
            let r = try RedlineBinary.run(["convert", source, "-o", out, "--pdf-engine", "chromium"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let pages = try pageTexts(ofPDF: out)
            XCTAssertTrue((3...12).contains(pages.count), "\(pages.count) pages")
            func page(_ s: String) -> Int? { pages.firstIndex { $0.contains(s) } }
            var seen = Set<Int>()
            for (anchor, author, remark) in [("the first anchor", "Alice Author", "first remark"),
                                             ("the second anchor", "Bob Builder", "second remark"),
                                             ("the third anchor", "Carol Critic", "third remark")] {
                let at = try XCTUnwrap(page(anchor), "\(anchor) printed")
                XCTAssertEqual(page(remark), at, "\(source): '\(remark)' on the page of its anchor")
                XCTAssertTrue(pages[at].contains(author), "\(source): the author \(author) beside the comment")
                seen.insert(at)
            }
            XCTAssertEqual(seen.count, 3, "the anchors are on three pages")
        }
    }

    /// Raw HTML in a Markdown source is not run or shown by the browser that prints the PDF (its
    /// scripts could rewrite the page or load local files); the rest of the document is.
    func testRawHTMLIsNotRunByChromium() throws {
        try require("chromium")
        try require("pdftotext")
        let input = tmp + "/raw.md"
        try """
        # Safe

        Before {++kept++} text <span>INLINERAW</span> after.

        <div>RAWBLOCK</div>

        <script>document.body.textContent = 'INJECTED';</script>

        The end.

        """.write(toFile: input, atomically: true, encoding: .utf8)
        let out = tmp + "/raw.pdf"
        let r = try RedlineBinary.run(["convert", input, "-o", out, "--pdf-engine", "chromium"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try text(ofPDF: out)
        XCTAssertTrue(text.contains("kept") && text.contains("The end."), text)
        for raw in ["INJECTED", "RAWBLOCK"] { XCTAssertFalse(text.contains(raw), text) }
    }

    /// A paragraph-format change and an inserted and a deleted paragraph break each show a pilcrow in
    /// the PDF, with either engine; DOCX output gets no pilcrow (the mark is for the rendering only).
    func testParagraphChangesAreMarkedInThePDFOnly() throws {
        try require("pdftotext")
        let input = tmp + "/para.md"
        try """
        {>>@Ann (2024-01-15T00:00:00Z) [style-change align=left]<<}Gamma text.

        Alpha text.{++

        ++}{>>@Ann (2024-01-15T00:00:00Z)<<}Beta text.{--

        --}{>>@Bob (2024-01-16T00:00:00Z)<<}Epsilon text.

        Delta text.

        """.write(toFile: input, atomically: true, encoding: .utf8)
        let change = Change(author: "Ann", date: "2024-01-15T00:00:00Z")
        let marks = ParagraphChangeMarks.mark(Paragraph([.text("x")], markChange: .deleted(change),
                                                        styleChange: ParagraphStyleChange(change: change, old: ParagraphStyle())))
        XCTAssertEqual(marks.content.count, 3, "a formatting-change pilcrow and a deleted pilcrow after the text")
        for engine in Self.engines {
            guard (try? require(engine: engine)) != nil else { continue }
            let out = tmp + "/para-\(engine).pdf"
            let r = try RedlineBinary.run(["convert", input, "-o", out, "--pdf-engine", engine])
            XCTAssertEqual(r.status, 0, r.stderr)
            let text = try text(ofPDF: out)
            for p in ["Alpha text.", "Beta text.", "Gamma text."] {
                XCTAssertTrue(text.contains(p + " ¶") || text.contains(p + "¶"), "\(engine): a pilcrow after \(p)\n\(text)")
            }
            XCTAssertFalse(text.contains("Delta text.¶") || text.contains("Delta text. ¶"), "\(engine): no change, no mark")
        }
        let again = tmp + "/again.docx"
        XCTAssertEqual(try RedlineBinary.run(["convert", input, "-o", again]).status, 0)
        let xml = try RedlineBinary.run(["/usr/bin/python3", "-c",
                                         "import sys,zipfile;sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('word/document.xml').decode())",
                                         again], raw: true)
        XCTAssertTrue(xml.stdout.contains("Gamma text."), xml.stderr)
        XCTAssertFalse(xml.stdout.contains("¶"), "DOCX output carries no render-only mark")
    }

    func testCleanAndOriginalVersions() throws {
        try require("chromium")
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
        try require("chromium")
        try require("pdftotext")
        try "# Lease\n\nThe lease runs for five years.\n".write(toFile: tmp + "/old.md", atomically: true, encoding: .utf8)
        try "# Lease\n\nThe lease runs for seven years, renewable.\n".write(toFile: tmp + "/new.md", atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["compare", tmp + "/old.md", tmp + "/new.md", "-o", tmp + "/diff.pdf"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try text(ofPDF: tmp + "/diff.pdf")
        XCTAssertTrue(text.contains("five") && text.contains("seven") && text.contains("renewable"), text)
    }

    /// `compare --pdf-engine` (the option group convert has) renders with the engine it names, and only with
    /// it: a single pair and a directory batch, each engine's program wrapped to count its runs.
    func testCompareUsesTheEngineItIsGiven() throws {
        try require("pdftotext")
        for engine in Self.engines { try require(engine: engine) }
        try "# Lease\n\nThe lease runs for five years.\n".write(toFile: tmp + "/old.md", atomically: true, encoding: .utf8)
        try "# Lease\n\nThe lease runs for seven years.\n".write(toFile: tmp + "/new.md", atomically: true, encoding: .utf8)
        for d in ["olds", "news"] { try FileManager.default.createDirectory(atPath: tmp + "/" + d, withIntermediateDirectories: true) }
        try "Paid monthly.\n".write(toFile: tmp + "/olds/rent.md", atomically: true, encoding: .utf8)
        try "Paid weekly.\n".write(toFile: tmp + "/news/rent.md", atomically: true, encoding: .utf8)
        for engine in Self.engines {
            let wrappers = try Self.engines.map { try countingEngine($0) }
            for w in wrappers { try? FileManager.default.removeItem(atPath: w.log) }
            let env = ["/usr/bin/env"] + wrappers.map(\.variable) + ["REDLINE_PDF_GATHER_SECONDS=300", RedlineBinary.executable]
            let one = try RedlineBinary.run(env + ["compare", tmp + "/old.md", tmp + "/new.md", "-o", tmp + "/diff-\(engine).pdf",
                                                   "--pdf-engine", engine], raw: true)
            XCTAssertEqual(one.status, 0, one.stderr)
            let diff = try text(ofPDF: tmp + "/diff-\(engine).pdf")
            XCTAssertTrue(diff.contains("five") && diff.contains("seven"), diff)
            let batch = try RedlineBinary.run(env + ["compare", tmp + "/olds", tmp + "/news", "-o", tmp + "/batch-\(engine)",
                                                     "--to", "pdf", "--pdf-engine", engine], raw: true)
            XCTAssertEqual(batch.status, 0, batch.stderr)
            XCTAssertTrue(try text(ofPDF: tmp + "/batch-\(engine)/rent.pdf").contains("weekly"))
            for (other, w) in zip(Self.engines, wrappers) {
                let started = FileManager.default.fileExists(atPath: w.log) ? try runs(w.log) : 0
                XCTAssertEqual(started, other == engine ? 2 : 0, "--pdf-engine \(engine): runs of \(other)")
            }
        }
    }

    /// A wrapper around `engine`'s program that logs each start, so a test can count engine runs; the
    /// environment assignment that makes Redline use it.
    func countingEngine(_ engine: String) throws -> (variable: String, log: String) {
        let program = engine == "chromium" ? "chromium" : "soffice"
        let path = tmp + "/\(program)-counting", log = tmp + "/\(engine)-runs.log"
        try "#!/bin/sh\necho run >> '\(log)'\nexec \(program) \"$@\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return ((engine == "chromium" ? "REDLINE_CHROMIUM=" : "REDLINE_SOFFICE=") + path, log)
    }

    func runs(_ log: String) throws -> Int {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
    }

    func testBatchStartsTheEngineOnceForManyDocuments() throws {
        try require("pdftotext")
        let inputs = tmp + "/in"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        for i in 0..<6 {
            try "# Document \(i)\n\nText {++added \(i)++} and {--removed \(i)--}.\n".write(
                toFile: inputs + "/doc\(i).md", atomically: true, encoding: .utf8)
        }
        for engine in Self.engines {
            try require(engine: engine)
            let counting = try countingEngine(engine)
            // The run starts when every worker waits; the time window (1 s by default) is set long here so that a
            // loaded machine, where converting six documents may take longer than a second, cannot split it.
            let r = try RedlineBinary.run(["/usr/bin/env", counting.variable, "REDLINE_PDF_GATHER_SECONDS=300",
                                           RedlineBinary.executable, "convert", inputs, "-o", tmp + "/out-\(engine)/",
                                           "--to", "pdf", "--pdf-engine", engine, "--jobs", "2"], raw: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            for i in 0..<6 {
                let text = try text(ofPDF: tmp + "/out-\(engine)/doc\(i).pdf")
                XCTAssertTrue(text.contains("added \(i)") && text.contains("removed \(i)"), text)
            }
            XCTAssertEqual(try runs(counting.log), 1, "\(engine): six documents, one engine run")
        }
    }

    /// `export --to pdf` renders its clean, original and marked versions in one engine run.
    func testExportRendersItsThreeVersionsInOneEngineRun() throws {
        try require("pdftotext")
        let input = RepositoryPaths.root + "/docs/samples/contract-review.md"
        for engine in Self.engines {
            try require(engine: engine)
            let counting = try countingEngine(engine)
            let out = tmp + "/export-\(engine)"
            let r = try RedlineBinary.run(["/usr/bin/env", counting.variable, "REDLINE_PDF_GATHER_SECONDS=300",
                                           RedlineBinary.executable, "export", input, "--to", "pdf", "--pdf-engine", engine,
                                           "-o", out], raw: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(try text(ofPDF: out + "/contract-review.clean.pdf").contains("seven years"))
            XCTAssertTrue(try text(ofPDF: out + "/contract-review.original.pdf").contains("five years"))
            XCTAssertTrue(try text(ofPDF: out + "/contract-review.marked.pdf").contains("Is subletting"))
            XCTAssertEqual(try runs(counting.log), 1, "\(engine): three versions, one engine run")
        }
    }

    func testMissingEngineIsOneErrorNamingWhatToInstallAndNoFile() throws {
        let input = tmp + "/in.md"
        try "Hello {++world++}.\n".write(toFile: input, atomically: true, encoding: .utf8)
        for (engine, hint) in [(nil, "apt-get install chromium (or libreoffice-writer-nogui)"),
                               ("chromium", "needs Chromium: apt-get install chromium"),
                               ("libreoffice", "apt-get install libreoffice-writer-nogui")] {
            let r = try RedlineBinary.run(["/usr/bin/env", "PATH=/nonexistent", RedlineBinary.executable,
                                           "convert", input, "-o", tmp + "/out.pdf"] + (engine.map { ["--pdf-engine", $0] } ?? []),
                                          raw: true)
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.stderr.contains(hint), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), ["in.md"], "nothing written")
        }
    }

    /// Without Chromium (a PATH holding only a stand-in `soffice`), LibreOffice renders the PDF and a
    /// document with comments gets the warning that they are at their anchors; one without does not.
    func testWithoutChromiumLibreOfficeRendersAndWarnsAboutComments() throws {
        let bin = tmp + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try """
        #!/bin/sh
        while [ "$1" != "--outdir" ]; do shift; done
        out="$2"; shift 2; /bin/mkdir -p "$out"
        for f in "$@"; do n="${f##*/}"; n="${n%.docx}"; printf '%%PDF-1.4\n%%%%%s\n%%%%EOF\n' "stand-in LibreOffice output, long enough to pass the length check" > "$out/$n.pdf"; done
        """.write(toFile: bin + "/soffice", atomically: true, encoding: .utf8)
        chmod(bin + "/soffice", 0o755)
        for (text, warned) in [("Hello {==world==}{>>Ann: why?<<}.\n", true), ("Hello {++world++}.\n", false)] {
            let input = tmp + "/in.md"
            try text.write(toFile: input, atomically: true, encoding: .utf8)
            let r = try RedlineBinary.run(["/usr/bin/env", "PATH=\(bin)", RedlineBinary.executable,
                                           "convert", input, "-o", tmp + "/out.pdf"], raw: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(FileManager.default.contents(atPath: tmp + "/out.pdf")?.starts(with: Data("%PDF-".utf8)) ?? false)
            XCTAssertEqual(r.stderr.contains("pdf.comments-at-anchors"), warned, r.stderr)
        }
    }

    /// A Chromium that exits at once, or one that never answers (killed at the time limit): one error
    /// for the file, exit status 1, no output.
    func testABrokenOrHangingChromiumLeavesNoOutput() throws {
        let input = tmp + "/in.md"
        try "Hello {++world++}.\n".write(toFile: input, atomically: true, encoding: .utf8)
        for (name, script, expected) in [("exits", "#!/bin/sh\nexit 3\n", "Chromium exited before answering"),
                                         ("hangs", "#!/bin/sh\nexec /bin/sleep 60\n", "did not finish within 2 s")] {
            let fake = tmp + "/chromium-\(name)"
            try script.write(toFile: fake, atomically: true, encoding: .utf8)
            chmod(fake, 0o755)
            let started = Date()
            let r = try RedlineBinary.run(["/usr/bin/env", "REDLINE_CHROMIUM=\(fake)", "REDLINE_PDF_TIMEOUT=2", RedlineBinary.executable,
                                           "convert", input, "-o", tmp + "/out.pdf", "--pdf-engine", "chromium"], raw: true)
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out.pdf"))
            XCTAssertLessThan(Date().timeIntervalSince(started), 50, "the hanging engine is killed, not waited for")
        }
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
                                       "convert", input, "-o", tmp + "/out.pdf", "--pdf-engine", "libreoffice"], raw: true)
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

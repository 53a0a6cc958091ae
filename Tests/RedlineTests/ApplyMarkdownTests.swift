import XCTest
import Foundation
import Redline
import RedlineMarkdown

/// `redline apply EDITED --onto ORIGINAL.md`: ORIGINAL's source comes back byte for byte except where EDITED
/// differs. Rejecting the marks as text (removing what `{++…++}` adds, keeping what `{--…--}` and `{~~…~>`
/// hold) gives ORIGINAL's bytes; accepting them through the reader gives EDITED's text.
final class ApplyMarkdownTests: XCTestCase {
    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-apply-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    func write(_ text: String, _ name: String) throws -> String {
        let path = tmp + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let paper = """
    ---
    title: "A paper"
    author:
      - name: Jane Doe   # first author
        affiliation: Uni
    bibliography: refs.bib
    ---

    # Intro {#sec-intro}

    As shown by [@smith2020; @lee2019, p. 12], *results* vary
    across studies^[an inline note]. See @fig-x and $\\alpha + 1$.

    ```{r, echo=FALSE}
    plot(x)
    ```

    A second paragraph with a [link](http://example.com "t") and `code`,
    wrapped by hand &amp; escaped \\* here.

    * star list
    * second item

    | a | b |
    |:--|--:|
    | one | two |

    Last words.

    """

    func applied(_ edited: String, onto original: String, author: String = "Editor",
                 accept: Bool = false) throws -> (String, Diagnostics) {
        var options = ApplyOptions(compare: CompareOptions(author: author, date: "2026-01-02T00:00:00Z"))
        options.accept = accept
        let out = MemoryOutput()
        let d = Diagnostics()
        _ = try Application.apply(edited: edited, onto: original, options: options, into: out, diagnostics: d)
        return (out.string, d)
    }

    /// CriticMarkup resolved as text: what a CriticMarkup editor does (`accept` false: reject).
    static func resolvedAsText(_ s: String, accept: Bool) -> String { CriticMarkupText.resolve(s, accept: accept) }

    /// The document's text paragraph by paragraph, as Redline reads a Markdown text.
    func readText(_ markdown: String, accept: Bool = true) throws -> [String] {
        let p = try write(markdown, "read-\(UInt32.random(in: 0...UInt32.max)).md")
        let doc = try Converter.read(.file(p), format: FormatRegistry.markdown, options: ReadOptions(), diagnostics: Diagnostics())
        let resolved = try doc.applying([ReviewTransform(accept ? .accept : .reject)])
        return ApplyPlanTestText.leaves(resolved)
    }

    func testNoEditGivesTheOriginalByteForByteThroughDOCXAndMarkdown() throws {
        let original = try write(Self.paper, "paper.md")
        let docx = tmp + "/paper.docx"
        try Converter.convert(.file(original), toFile: docx,
                              options: ConversionOptions(from: FormatRegistry.markdown, to: FormatRegistry.docx),
                              diagnostics: Diagnostics())
        let (fromDOCX, d) = try applied(docx, onto: original)
        XCTAssertEqual(fromDOCX, Self.paper)
        XCTAssertTrue(d.all.filter { $0.code.rawValue.hasPrefix("apply.") }.isEmpty, "\(d.all)")
        let md = tmp + "/paper-out.md"
        try Converter.convert(.file(original), toFile: md,
                              options: ConversionOptions(from: FormatRegistry.markdown, to: FormatRegistry.markdown),
                              diagnostics: Diagnostics())
        XCTAssertEqual(try applied(md, onto: original).0, Self.paper)
    }

    func testEditsLandInTheSourceAndRejectGivesItBack() throws {
        let original = try write(Self.paper, "paper.md")
        let edited = try write(Self.paper
            .replacingOccurrences(of: "*results* vary", with: "*outcomes* vary")
            .replacingOccurrences(of: "A second paragraph", with: "A revised paragraph")
            .replacingOccurrences(of: "* second item", with: "* second item\n* third item")
            .replacingOccurrences(of: "Last words.", with: "Last words, changed.\n\nA new closing paragraph."),
                                   "edited.md")
        let (out, _) = try applied(edited, onto: original)
        XCTAssertEqual(Self.resolvedAsText(out, accept: false), Self.paper)
        XCTAssertTrue(out.contains("As shown by [@smith2020; @lee2019, p. 12], {~~*results*~>*outcomes*~~}"), out)
        XCTAssertTrue(out.contains("```{r, echo=FALSE}\nplot(x)\n```"), "code block kept: \(out)")
        XCTAssertTrue(out.contains("author:\n  - name: Jane Doe   # first author"), "front matter kept")
        XCTAssertTrue(out.contains("{>>@Editor (2026-01-02T00:00:00Z)<<}"), out)
        XCTAssertEqual(try readText(out), try readText(Self.resolvedAsText(out, accept: true)))
        XCTAssertEqual(try readText(out), try readText(try String(contentsOfFile: edited, encoding: .utf8)))
        // --changes accept: the edits made, nothing marked.
        let (accepted, _) = try applied(edited, onto: original, accept: true)
        // The same text; where a paragraph was rewritten whole, the marked form keeps an empty line more.
        func lines(_ s: String) -> String { s.replacingOccurrences(of: "\n\n\n\n", with: "\n\n") }
        XCTAssertEqual(lines(accepted), lines(Self.resolvedAsText(out, accept: true)))
    }

    func testAReviewedDOCXCarriesItsAuthorsIntoTheSource() throws {
        let original = try write(Self.paper, "paper.md")
        let edited = try write(Self.paper.replacingOccurrences(of: "Last words.", with: "Final words."), "edited.md")
        let reviewed = tmp + "/reviewed.docx"
        var c = ComparisonOptions(to: FormatRegistry.docx)
        c.compare.author = "Co Author"
        _ = try Comparison.compare(old: original, new: edited, options: c, toFile: reviewed, diagnostics: Diagnostics())
        let (out, _) = try applied(reviewed, onto: original)
        XCTAssertTrue(out.contains("{~~Last~>Final~~}{>>@Co Author"), out)
        XCTAssertEqual(Self.resolvedAsText(out, accept: false), Self.paper)
    }

    /// A co-author tracked some edits and made others without tracking: the tracked ones keep their author and
    /// date, the untracked ones are the apply's author's; a paragraph holding both has the two merged run by run.
    func testTrackedAndUntrackedEditsInOneEditedCopy() throws {
        let source = "Alpha beta gamma.\n\nDelta epsilon.\n\nZeta eta theta.\n\nOmega.\n"
        let original = try write(source, "mixed.md")
        let marked = try write("""
            Alpha {~~beta~>BETA~~}{>>@Tracked Tom (2024-01-01T00:00:00Z)<<} gamma.

            Delta epsilon iota.

            Zeta {--eta --}{>>@Tracked Tom (2024-01-01T00:00:00Z)<<}theta kappa.

            {++New paragraph.++}{>>@Tracked Tom (2024-01-01T00:00:00Z)<<}

            Omega.

            """, "marked.md")
        for format in [FormatRegistry.docx, FormatRegistry.markdown] {
            let edited = tmp + "/edited." + (format.isSame(as: FormatRegistry.docx) ? "docx" : "critic.md")
            try Converter.convert(.file(marked), toFile: edited,
                                  options: ConversionOptions(from: FormatRegistry.markdown, to: format, changes: .marked),
                                  diagnostics: Diagnostics())
            let (out, d) = try applied(edited, onto: original, author: "Untracked")
            XCTAssertTrue(out.contains("{~~beta~>BETA~~}{>>@Tracked Tom (2024-01-01T00:00:00Z)<<}"), out)
            XCTAssertTrue(out.contains("{++ iota++}{>>@Untracked"), out)
            XCTAssertTrue(out.contains("New paragraph.") && out.contains("@Tracked Tom"), out)
            XCTAssertFalse(out.contains("@Untracked (2026-01-02T00:00:00Z)<<} gamma"), out)
            XCTAssertEqual(d.count(of: .applyChangesRecompared), 0, "\(d.all)")
            XCTAssertTrue(out.contains("{--eta --}{>>@Tracked Tom (2024-01-01T00:00:00Z)<<}"), out)
            XCTAssertTrue(out.contains("{++ kappa++}{>>@Untracked"), out)
            XCTAssertEqual(Self.resolvedAsText(out, accept: false), source)
            XCTAssertEqual(Self.resolvedAsText(out, accept: true),
                           "Alpha BETA gamma.\n\nDelta epsilon iota.\n\nZeta theta kappa.\n\nNew paragraph.\n\nOmega.\n")
        }
    }

    func testCRLFLineEndsAreKept() throws {
        let crlf = Self.paper.replacingOccurrences(of: "\n", with: "\r\n")
        let original = try write(crlf, "crlf.md")
        let edited = try write(Self.paper.replacingOccurrences(of: "Last words.", with: "Last word."), "e.md")
        let (out, _) = try applied(edited, onto: original)
        XCTAssertEqual(Self.resolvedAsText(out, accept: false), crlf)
        XCTAssertTrue(out.contains("{~~words~>word~~}"), out)
    }

    /// A NUL in the original is kept where nothing changed (the reader reads it as U+FFFD; apply writes the file's
    /// own bytes).
    func testANULInTheOriginalIsKept() throws {
        let withNUL = Self.paper.replacingOccurrences(of: "results", with: "res\u{0}ults")
        XCTAssertNotEqual(withNUL, Self.paper)
        let original = try write(withNUL, "nul.md")
        let edited = try write(Self.paper.replacingOccurrences(of: "Last words.", with: "Last word."), "e2.md")
        let (out, _) = try applied(edited, onto: original)
        XCTAssertEqual(Self.resolvedAsText(out, accept: false), withNUL)
    }

    func testUnrelatedOrAlreadyMarkedOriginalsAreRefused() throws {
        let original = try write(Self.paper, "paper.md")
        let other = try write("# Something else\n\nEntirely different text about gardening and bees.\n\nMore of it.\n", "o.md")
        XCTAssertThrowsError(try applied(other, onto: original)) { e in
            XCTAssertTrue("\(e)".contains("does not look like a version"), "\(e)")
        }
        var force = ApplyOptions(compare: CompareOptions(author: "A"))
        force.force = true
        XCTAssertNoThrow(try Application.apply(edited: other, onto: original, options: force, into: MemoryOutput(),
                                               diagnostics: Diagnostics()))
        let marked = try write("Text {++added++} here.\n", "marked.md")
        XCTAssertThrowsError(try applied(original, onto: marked)) { e in
            XCTAssertTrue("\(e)".contains("already holds CriticMarkup"), "\(e)")
        }
    }

    /// Changed source holding a mark's own closing sequence (`--}` deleted, `~>` or `~~}` substituted, `++}`
    /// inserted): a text tool ends a mark at the first one, so the mark is split there or written as a
    /// deletion and an insertion; rejecting as text still gives ORIGINAL (found by fuzz-apply).
    func testClosingSequencesInsideChangedText() throws {
        let pairs = [("a --} b c\n", "b c\n"), ("x ~> y z\n", "q z\n"), ("x ~~} y z\n", "q z\n"),
                     ("one two\n", "one ++} two\n"), ("one two three\n", "one ~~} three\n"),
                     ("keep a --} this\n\nmore\n", "keep this\n\nmore\n"), ("a --}--}} b\n", "b\n")]
        for (n, (o, e)) in pairs.enumerated() {
            let original = try write(o, "o\(n).md"), edited = try write(e, "e\(n).md")
            let (out, _) = try applied(edited, onto: original)
            XCTAssertEqual(Self.resolvedAsText(out, accept: false), o, out)
            // Accepting through the reader gives EDITED's text (inserted text is written escaped: `++\}`).
            XCTAssertEqual(try readText(out), try readText(e), out)
        }
        let (split, _) = try applied(try write("b c\n", "e-split.md"), onto: try write("a --} b c\n", "o-split.md"))
        XCTAssertTrue(split.hasPrefix("{--a ----}{--} --}"), split)
    }

    /// An opening sequence in ORIGINAL that the reader keeps as text (unclosed, or in code) would be paired by a
    /// text tool with the closing sequence of a mark written after it: ORIGINAL is refused (found by fuzz-apply).
    func testAnOpeningSequenceInTheOriginalIsRefused() throws {
        for (n, o) in ["a {++ b and c\n", "The {-- quick fox\n", "```\n{>>x\n```\n\nsome words here\n"].enumerated() {
            let original = try write(o, "o\(n).md")
            let edited = try write(o.replacingOccurrences(of: "and", with: "or").replacingOccurrences(of: "quick", with: "slow")
                .replacingOccurrences(of: "words", with: "text"), "e\(n).md")
            XCTAssertThrowsError(try applied(edited, onto: original)) { e in
                XCTAssertTrue("\(e)".contains("reads as the start of a change"), "\(e)")
            }
        }
    }

    /// Random word edits on generated sources full of constructs: rejecting as text gives ORIGINAL's bytes,
    /// and the reader's accept view is EDITED's text.
    func testRandomEditScriptsRoundTrip() throws {
        var rng = SeededRandom(seed: SeededRandom.seed(default: 2811))
        let words = ["alpha", "beta", "gamma", "delta", "river", "stone", "light", "paper", "green", "north"]
        let wrappers: [(String) -> String] = [
            { $0 }, { $0 }, { $0 }, { "*\($0)*" }, { "**\($0)**" }, { "[\($0)](http://x.org/\($0))" }, { "`\($0)`" },
            { "[@\($0)2020]" }, { "\($0)^[note on \($0)]" },
        ]
        for round in 0..<40 {
            var blocks: [String] = []
            for b in 0..<Int.random(in: 3...7, using: &rng) {
                var line = ""
                for w in 0..<Int.random(in: 4...14, using: &rng) {
                    let word = words.randomElement(using: &rng)!
                    line += (w == 0 ? "" : (Int.random(in: 0..<9, using: &rng) == 0 ? "\n" : " "))
                    line += wrappers.randomElement(using: &rng)!(word)
                }
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: blocks.append("## Heading \(b) " + words.randomElement(using: &rng)!)
                case 1: blocks.append("- " + line.replacingOccurrences(of: "\n", with: " ") + "\n- item two")
                default: blocks.append(line + ".")
                }
            }
            let source = blocks.joined(separator: "\n\n") + "\n"
            // Edits on plain words only (never inside syntax), as a person editing the text would.
            var tokens = source.components(separatedBy: " ")
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let plain = tokens.indices.filter { words.contains(tokens[$0]) }
                guard let i = plain.randomElement(using: &rng) else { break }
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: tokens[i] = words.randomElement(using: &rng)! + "x"
                case 1: tokens[i] += " inserted"
                default: tokens[i] = "removed"
                }
            }
            let editedText = tokens.joined(separator: " ").replacingOccurrences(of: " removed", with: "")
            let original = try write(source, "o\(round).md"), edited = try write(editedText, "e\(round).md")
            var options = ApplyOptions(compare: CompareOptions(author: "R", date: "2026-01-02T00:00:00Z"))
            options.force = true
            let out = MemoryOutput()
            _ = try Application.apply(edited: edited, onto: original, options: options, into: out, diagnostics: Diagnostics())
            XCTAssertEqual(Self.resolvedAsText(out.string, accept: false), source, "round \(round): reject\n\(out.string)")
            XCTAssertEqual(try readText(out.string), try readText(editedText), "round \(round): accept\n\(out.string)\nEDITED:\n\(editedText)")
        }
    }

    /// Word files with tracked changes from the shared corpus: their rejected text as ORIGINAL.md, the file
    /// applied onto it; rejecting the marks as text gives ORIGINAL.md back, byte for byte.
    func testRealReviewedWordFilesApplyOntoTheirRejectedMarkdown() throws {
        let manifest = RepositoryPaths.sharedCorpus + "/MANIFEST.tsv"
        guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else { throw XCTSkip("no shared corpus") }
        var tried = 0, exact = 0
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count > 5, f[0].hasSuffix(".docx"), f[5].contains("ins=") || f[5].contains("del=") else { continue }
            let docx = RepositoryPaths.sharedCorpus + "/" + f[0]
            let md = tmp + "/real-\(tried).md"
            var o = ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.markdown)
            o.review = ReviewOptions(changes: .reject)
            guard (try? Converter.convert(.file(docx), toFile: md, options: o, diagnostics: Diagnostics())) != nil else { continue }
            tried += 1
            let original = try String(contentsOfFile: md, encoding: .utf8)
            var options = ApplyOptions(compare: CompareOptions(author: "R"))
            options.force = true
            let out = MemoryOutput()
            _ = try Application.apply(edited: docx, onto: md, options: options, into: out, diagnostics: Diagnostics())
            if Self.resolvedAsText(out.string, accept: false) == original { exact += 1 } else { XCTFail("\(f[0]): reject differs") }
        }
        XCTAssertGreaterThan(tried, 10)
        print("apply onto rejected Markdown: \(exact)/\(tried) byte-exact")
    }
}

/// Paragraph texts of a document, for comparing two readings.
enum ApplyPlanTestText {
    static func leaves(_ doc: Document) -> [String] {
        ApplyPlan.make(original: doc, compared: doc, fallback: Change(author: nil, date: nil)).leaves.map {
            $0.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        }.filter { !$0.isEmpty }
    }
}


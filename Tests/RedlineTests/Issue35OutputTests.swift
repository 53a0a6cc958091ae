import Foundation
import ArgumentParser
import Redline
import RedlineCLI
import XCTest

/// Issue #35, second part: what the outputs and the terminal say. A clean HTML page without the review panel,
/// pictures inside the page, warnings grouped by code, help that wraps, batch and check reports, and the same
/// counts from `changes`, `check` and the review page.
final class Issue35OutputTests: XCTestCase {
    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-issue35b-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    static let markdown = "# Lease\n\nThe lease runs for {--five--}{++seven++} years.{>>Check the term.<<}\n"

    // MARK: The review page

    /// `--changes accept|reject` to HTML: nothing is left to review, so the page is the plain document (no panel,
    /// no script, no "0 of 0 changes"); a marked page keeps its panel, and so does a clean one that keeps comments.
    func testResolvedPageHasNoReviewPanel() throws {
        for (mode, kept, gone) in [("accept", "seven", "five"), ("reject", "five", "seven")] {
            let r = try RedlineBinary.run(["convert", "-t", "html", "--changes", mode], stdin: Self.markdown)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(r.stdout.contains("<nav id=\"review\""), mode)
            XCTAssertFalse(r.stdout.contains("<script>"), mode)
            XCTAssertFalse(r.stdout.contains("<ins") || r.stdout.contains("<del") || r.stdout.contains("<aside"), mode)
            XCTAssertTrue(r.stdout.contains("<body>\n<main>\n"), mode)
            XCTAssertTrue(r.stdout.contains(kept) && !r.stdout.contains(gone), r.stdout)
            XCTAssertTrue(r.stdout.hasSuffix("</main>\n</body>\n</html>\n"), mode)
        }
        let marked = try RedlineBinary.run(["convert", "-t", "html"], stdin: Self.markdown)
        XCTAssertTrue(marked.stdout.contains("<nav id=\"review\""))
        XCTAssertTrue(marked.stdout.contains("<body class=\"marked\">"))
        XCTAssertTrue(marked.stdout.contains("<script>"))
        // Changes accepted, comments kept: the comments are still there to review.
        let comments = try RedlineBinary.run(["convert", "-t", "html", "--changes", "accept", "--comments", "keep"],
                                             stdin: Self.markdown)
        XCTAssertTrue(comments.stdout.contains("<nav id=\"review\""), comments.stdout)
        XCTAssertTrue(comments.stdout.contains("Check the term."))
        // A filter on a marked page leaves the rest to review.
        let some = try RedlineBinary.run(["convert", "-t", "html", "--accept", "kind=insertion"], stdin: Self.markdown)
        XCTAssertTrue(some.stdout.contains("<nav id=\"review\""))
        // Into a file too (the writer's route when an output is named).
        let out = tmp + "/x.html"
        let f = try RedlineBinary.run(["convert", "-", "--changes", "accept", "-o", out], stdin: Self.markdown)
        XCTAssertEqual(f.status, 0, f.stderr)
        let page = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertFalse(page.contains("<nav id=\"review\""))
        XCTAssertFalse(page.contains("changes and comments"))
    }

    // MARK: Pictures inside the page

    static let media = RepositoryPaths.root + "/Corpus/media"

    /// HTML output is one file: pictures are data URIs unless --extract-media names a folder; Markdown still
    /// links to files beside it.
    func testHTMLEmbedsPicturesByDefault() throws {
        for input in ["from-word.docx", "from-rtf.rtf", "from-markdown.md"] {
            let out = tmp + "/page.html"
            let r = try RedlineBinary.run(["convert", Self.media + "/" + input, "-o", out])
            XCTAssertEqual(r.status, 0, r.stderr)
            let page = try String(contentsOfFile: out, encoding: .utf8)
            XCTAssertTrue(page.contains("<img src=\"data:image/png;base64,"), input)
            XCTAssertFalse(page.contains("page.media/"), input)
            XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/page.media"), input)
            try FileManager.default.removeItem(atPath: out)
        }
        // To standard output too: no media.not-extracted warning, the pictures are in the page.
        let stdout = try RedlineBinary.run(["convert", Self.media + "/from-word.docx", "-t", "html"])
        XCTAssertTrue(stdout.stdout.contains("data:image/jpeg;base64,"))
        XCTAssertFalse(stdout.stderr.contains("media.not-extracted"), stdout.stderr)
        // --extract-media: files in that folder, linked.
        let x = try RedlineBinary.run(["convert", Self.media + "/from-word.docx", "-o", tmp + "/x.html",
                                       "--extract-media", tmp + "/figs"])
        XCTAssertEqual(x.status, 0, x.stderr)
        let linked = try String(contentsOfFile: tmp + "/x.html", encoding: .utf8)
        XCTAssertTrue(linked.contains("src=\"figs/image1.png\""), linked)
        XCTAssertFalse(linked.contains("data:image"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/figs/image2.jpg"))
        // Markdown keeps linking to a folder beside it.
        let md = try RedlineBinary.run(["convert", Self.media + "/from-word.docx", "-o", tmp + "/m.md"])
        XCTAssertEqual(md.status, 0, md.stderr)
        XCTAssertTrue(try String(contentsOfFile: tmp + "/m.md", encoding: .utf8).contains("](m.media/image1.png)"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/m.media/image1.png"))
        // A batch of HTML pages: each one file.
        try FileManager.default.createDirectory(atPath: tmp + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.media + "/from-word.docx", toPath: tmp + "/in/w.docx")
        let b = try RedlineBinary.run(["convert", tmp + "/in", "-o", tmp + "/out/", "--to", "html"])
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertTrue(try String(contentsOfFile: tmp + "/out/w.html", encoding: .utf8).contains("data:image/png;base64,"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out/w.media"))
    }

    // MARK: Warnings grouped by code

    /// A Scrivener migration prints one line per warning code (count, items, a few binder paths), not one per
    /// item and code; -v prints each item's; --warnings-json holds every item's.
    func testScrivenerWarningsGroupedByCode() throws {
        let garden = RepositoryPaths.root + "/Corpus/scrivener/Garden.scriv"
        let json = tmp + "/w.json"
        let r = try RedlineBinary.run(["scrivener", garden, "-o", tmp + "/g.md", "--warnings-json", json])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let codes = lines.compactMap { l -> String? in
            guard let a = l.range(of: "warning["), let b = l[a.upperBound...].firstIndex(of: "]") else { return nil }
            return String(l[a.upperBound..<b])
        }
        XCTAssertEqual(codes.count, Set(codes).count, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning[lossy.paragraph-indent] ×4 in 2 items: paragraph indents were dropped (use --keep-formatting) — The Garden / The gate; The Garden / Dusk"), r.stderr)
        let verbose = try RedlineBinary.run(["scrivener", garden, "-o", tmp + "/g2.md", "-v"])
        XCTAssertTrue(verbose.stderr.contains("redline: The Garden / Dusk: warning[lossy.tab-stops]"), verbose.stderr)
        XCTAssertGreaterThan(verbose.stderr.split(separator: "\n").count, lines.count)
        let all = try JSONDecoder().decode([WarningsEntry].self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        XCTAssertEqual(all.first { $0.input == "The Garden / Dusk" }?.warnings.count, 3)
        XCTAssertTrue(all.contains { $0.input == garden && $0.warnings.contains { $0.code == "scrivener.excluded" } })
    }

    struct WarningsEntry: Decodable {
        struct W: Decodable { var code: String; var count: Int }
        var input: String
        var warnings: [W]
    }

    /// convert -v prints each formatting loss on its own line instead of the folded one.
    func testConvertVerbosePrintsEveryWarning() throws {
        let doc = RepositoryPaths.root + "/Corpus/media/from-word.docx"
        let folded = try RedlineBinary.run(["convert", doc, "-t", "md", "-o", tmp + "/a.md"])
        let verbose = try RedlineBinary.run(["convert", doc, "-t", "md", "-o", tmp + "/b.md", "-v"])
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        if folded.stderr.contains("formatting Markdown cannot hold") {
            XCTAssertFalse(verbose.stderr.contains("formatting Markdown cannot hold"), verbose.stderr)
            XCTAssertGreaterThanOrEqual(verbose.stderr.split(separator: "\n").count, folded.stderr.split(separator: "\n").count)
            XCTAssertTrue(verbose.stderr.contains("warning[lossy."), verbose.stderr)
        }
    }

    // MARK: Help that wraps

    /// Every command and subcommand.
    static func commands(_ root: ParsableCommand.Type = RedlineCommand.self) -> [ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { commands($0) }
    }

    /// At 80 columns every help line fits, each indented line of a discussion (examples, tables) comes out
    /// whole on its own line, and every word of the discussion is there in order (nothing cut).
    func testHelpWrapsAtEightyColumns() throws {
        for command in Self.commands() where command.configuration.shouldDisplay {
            let help = RedlineCommand.helpMessage(for: command, columns: 80)
            let name = command.configuration.commandName ?? "\(command)"
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for line in lines { XCTAssertLessThanOrEqual(line.count, 80, "\(name): \(line)") }
            let discussion = command.configuration.discussion
            for source in discussion.split(separator: "\n") where source.hasPrefix(" ") {
                XCTAssertTrue(lines.contains(String(source)), "\(name): indented line not whole: \(source)")
            }
            // No example lands at column 0: a line starting with "redline " is in an indented block.
            for line in lines where line.hasPrefix("redline ") {
                XCTFail("\(name): a line starts at column 0 mid-example: \(line)")
            }
            let words = discussion.split(whereSeparator: { $0 == " " || $0 == "\n" })
            let helpWords = help.split(whereSeparator: { $0 == " " || $0 == "\n" })
            var i = helpWords.startIndex
            for w in words {
                guard let j = helpWords[i...].firstIndex(of: w) else { XCTFail("\(name): '\(w)' missing"); break }
                i = j
            }
        }
    }

    // MARK: Batch reports, check order, paths

    struct ReportLine: Decodable {
        struct Output: Decodable { var path: String }
        var type: String?
        var input: String?
        var status: String?
        var outputs: [Output]?
    }

    /// A failed input lists no outputs (nothing was written for it); inputs found under `./dir` are reported
    /// as `dir/...`.
    func testBatchReportFailedInputsHaveNoOutputsAndPathsAreTidy() throws {
        try FileManager.default.createDirectory(atPath: tmp + "/in", withIntermediateDirectories: true)
        try "not a zip".write(toFile: tmp + "/in/bad.docx", atomically: true, encoding: .utf8)
        try Self.markdown.write(toFile: tmp + "/in/good.md", atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["/bin/sh", "-c", "cd '\(tmp)' && '\(RedlineBinary.executable)' convert ./in -o out/ --to html --report r.jsonl"],
                                      raw: true)
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = try String(contentsOfFile: tmp + "/r.jsonl", encoding: .utf8).split(separator: "\n")
        let records = try lines.map { try JSONDecoder().decode(ReportLine.self, from: Data($0.utf8)) }.filter { $0.input != nil }
        let bad = try XCTUnwrap(records.first { $0.input?.hasSuffix("bad.docx") == true })
        XCTAssertEqual(bad.status, "failed")
        XCTAssertEqual(bad.outputs?.count ?? 0, 0)
        let good = try XCTUnwrap(records.first { $0.input?.hasSuffix("good.md") == true })
        XCTAssertEqual(good.outputs?.count, 1)
        for rec in records { XCTAssertFalse(rec.input!.hasPrefix("./"), rec.input!) }
        XCTAssertEqual(Set(records.map(\.input!)), ["in/bad.docx", "in/good.md"])
        XCTAssertFalse(r.stderr.contains("./in"), r.stderr)
    }

    struct CheckJSON: Decodable {
        struct File: Decodable { var findings: [Finding] }
        struct Finding: Decodable {
            struct Location: Decodable { var line: Int?; var paragraph: Int? }
            var code: String
            var location: Location?
        }
        var files: [File]
    }

    /// `check` lists findings in document order (placed ones by line/paragraph, the rest after).
    func testCheckFindingsInDocumentOrder() throws {
        let md = "# T\n\nA {>>first comment<<} here.\n\nSee [x](#nowhere).\n\nThe {++new++} word.\n\nB {>>second<<} end.\n"
        try md.write(toFile: tmp + "/d.md", atomically: true, encoding: .utf8)
        let r = try RedlineBinary.run(["check", tmp + "/d.md", "--format", "json"])
        let check = try JSONDecoder().decode(CheckJSON.self, from: Data(r.stdout.utf8))
        let findings = try XCTUnwrap(check.files.first).findings
        XCTAssertGreaterThanOrEqual(findings.count, 4, r.stdout)
        let lines = findings.compactMap { $0.location?.line }
        XCTAssertEqual(lines, lines.sorted(), r.stdout)
        XCTAssertEqual(findings.map(\.code).first, "comment.open", r.stdout)
        XCTAssertEqual(findings.map(\.code).last, "comment.open", r.stdout)
        let unplaced = findings.firstIndex { $0.location?.line == nil && $0.location?.paragraph == nil }
        if let unplaced { XCTAssertTrue(findings[unplaced...].allSatisfy { $0.location?.line == nil && $0.location?.paragraph == nil }) }
    }
}

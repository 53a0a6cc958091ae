import Foundation
import Redline
import XCTest

/// Issue #35: the command line as a new user (or a pandoc user) meets it: standard input and output,
/// pandoc's format names and flags, review filters that select nothing, and `redline changes` rows.
final class Issue35CommandTests: XCTestCase {
    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-issue35-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    static let corpus = RepositoryPaths.sharedCorpus

    func corpusFile(_ name: String) throws -> String {
        let path = Self.corpus + "/" + name
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("the shared corpus is not there: \(name)") }
        return path
    }

    static let markdown = "# Lease\n\nThe lease runs for {--five--}{++seven++} years.\n"

    // MARK: Standard input and output, format names

    /// `cat x.md | redline convert -f markdown -t docx -o x.docx`: no input is standard input.
    func testNoInputReadsStandardInput() throws {
        let out = tmp + "/x.docx"
        let r = try RedlineBinary.run(["convert", "-f", "markdown", "-t", "docx", "-o", out], stdin: Self.markdown)
        XCTAssertEqual(r.status, 0, r.stderr)
        let back = try RedlineBinary.run(["convert", out, "-t", "md"])
        XCTAssertTrue(back.stdout.contains("{--five--}{++seven++}") || back.stdout.contains("{~~five~>seven~~}"), back.stdout)
        // `redline convert -t md` alone: standard input to standard output, not a batch.
        let md = try RedlineBinary.run(["convert", "-t", "md"], stdin: Self.markdown)
        XCTAssertEqual(md.status, 0, md.stderr)
        XCTAssertTrue(md.stdout.contains("seven"), md.stdout)
        XCTAssertFalse(md.stderr.contains("director"), md.stderr)
        // '-' says the same.
        let dash = try RedlineBinary.run(["convert", "-", "-t", "html", "-o", "-"], stdin: Self.markdown)
        XCTAssertEqual(dash.status, 0, dash.stderr)
        XCTAssertTrue(dash.stdout.contains("<ins"), dash.stdout)
    }

    /// pandoc's format names are aliases: the same bytes as Redline's names.
    func testPandocFormatNames() throws {
        let md = try RedlineBinary.run(["convert", "-f", "md", "-t", "md"], stdin: Self.markdown).stdout
        for name in ["markdown", "commonmark", "commonmark_x", "markdown_strict", "markdown+smart", "commonmark_x-raw_html"] {
            let r = try RedlineBinary.run(["convert", "-f", name, "-t", name], stdin: Self.markdown)
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertEqual(r.stdout, md, name)
            XCTAssertEqual(r.stderr.contains("extensions"), name.contains("+") || name.contains("-"), "\(name): \(r.stderr)")
        }
        let html = try RedlineBinary.run(["convert", "-t", "html"], stdin: Self.markdown).stdout
        XCTAssertEqual(try RedlineBinary.run(["convert", "-t", "html5"], stdin: Self.markdown).stdout, html)
        let gfm = try RedlineBinary.run(["convert", "-t", "gfm"], stdin: Self.markdown)
        XCTAssertTrue(gfm.stdout.contains("seven") && !gfm.stdout.contains("five"), gfm.stdout)
        for name in ["docx", "rtf"] {
            let r = try RedlineBinary.run(["convert", "-t", name, "-o", tmp + "/a." + name], stdin: Self.markdown)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
    }

    /// pandoc's flags: those Redline has mean the same (--wrap=auto fills lines to --columns; --columns alone warns),
    /// --metadata sets metadata.
    func testPandocFlags() throws {
        let plain = try RedlineBinary.run(["convert", "-t", "md"], stdin: Self.markdown).stdout
        for flags in [["--wrap=none"], ["--wrap", "preserve"], ["-s"]] {
            let r = try RedlineBinary.run(["convert", "-t", "md"] + flags, stdin: Self.markdown)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, plain, "\(flags)")
            XCTAssertEqual(r.stderr, "", "\(flags)")
        }
        let auto = try RedlineBinary.run(["convert", "-t", "md", "--wrap=auto", "--columns", "72"], stdin: Self.markdown)
        XCTAssertEqual(auto.status, 0, auto.stderr)
        XCTAssertEqual(auto.stdout, plain)
        XCTAssertEqual(auto.stderr, "")
        let narrow = try RedlineBinary.run(["convert", "-t", "md", "--wrap=auto", "--columns", "20"], stdin: Self.markdown)
        XCTAssertEqual(narrow.stdout, "# Lease\n\nThe lease runs for\n{~~five~>seven~~}\nyears.\n")
        let columnsAlone = try RedlineBinary.run(["convert", "-t", "md", "--columns", "20"], stdin: Self.markdown)
        XCTAssertEqual(columnsAlone.stdout, plain)
        XCTAssertTrue(columnsAlone.stderr.contains("warning: --columns ignored"), columnsAlone.stderr)
        let meta = try RedlineBinary.run(["convert", "-t", "md", "--metadata", "title=The Lease", "-M", "author:Ann"],
                                         stdin: Self.markdown)
        XCTAssertEqual(meta.status, 0, meta.stderr)
        XCTAssertTrue(meta.stdout.contains("title: The Lease") || meta.stdout.contains("title: \"The Lease\""), meta.stdout)
        XCTAssertTrue(meta.stdout.contains("Ann"), meta.stdout)
        let bad = try RedlineBinary.run(["convert", "-t", "md", "--metadata", "title"], stdin: Self.markdown)
        XCTAssertEqual(bad.status, 2, bad.stderr)
        let tracked = try RedlineBinary.run(["convert", "-t", "md", "--track-changes=accept"], stdin: Self.markdown)
        XCTAssertTrue(tracked.stdout.contains("seven") && !tracked.stdout.contains("five"), tracked.stdout)
    }

    // MARK: Filters that select nothing

    func testAFilterThatSelectsNothingIsAWarningOrWithStrictFiltersAnError() throws {
        let md = tmp + "/in.md"
        try "A {++b++}{>>@Raymond Smith (2024-01-01T00:00:00Z)<<} c {--d--}{>>@Jane Doe (2024-01-02T00:00:00Z)<<} e.\n".write(toFile: md, atomically: true, encoding: .utf8)
        let list = try RedlineBinary.run(["changes", md, "--format", "json"])
        let rows = try JSONDecoder().decode([ChangeRow].self, from: Data(list.stdout.utf8))
        let authors = Set(rows.compactMap(\.author))
        let out = tmp + "/out.md"
        let r = try RedlineBinary.run(["convert", md, "-o", out, "--accept", "author=Raymond"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("--accept author=Raymond matched no change"), r.stderr)
        XCTAssertTrue(r.stderr.contains("review.filter-unmatched"), r.stderr)
        for a in authors { XCTAssertTrue(r.stderr.contains("\"\(a)\""), "names \(a): \(r.stderr)") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        // A filter that matches says nothing.
        if let a = authors.first {
            let ok = try RedlineBinary.run(["convert", md, "-o", tmp + "/ok.md", "--accept", "author=\(a)", "--strict-filters"])
            XCTAssertEqual(ok.status, 0, ok.stderr)
            XCTAssertFalse(ok.stderr.contains("matched no"), ok.stderr)
        }
        let strictOut = tmp + "/strict.md"
        let strict = try RedlineBinary.run(["convert", md, "-o", strictOut, "--reject", "kind=move", "--strict-filters"])
        XCTAssertEqual(strict.status, 2, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("--reject kind=move matched no change; its kinds are insertion, deletion"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: strictOut), "nothing written")
        let ids = try RedlineBinary.run(["convert", md, "--accept", "id=99", "-t", "md"])
        XCTAssertTrue(ids.stderr.contains("--accept id=99 matched no change; its ids are 1,2"), ids.stderr)
    }

    /// The in-place route (DOCX to DOCX) says it too, with the document's authors.
    func testAFilterThatSelectsNothingInPlace() throws {
        let path = try corpusFile("pandoc/track_changes_move.docx")
        let out = tmp + "/out.docx"
        let r = try RedlineBinary.run(["convert", path, "-o", out, "--accept", "author=Jesse"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("--accept author=Jesse matched no change; the document's authors are \"Jesse Rosenthal\""), r.stderr)
        let strict = try RedlineBinary.run(["convert", path, "-o", tmp + "/s.docx", "--accept", "author=Jesse", "--strict-filters"])
        XCTAssertEqual(strict.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/s.docx"))
    }

    // MARK: redline changes

    func rows(_ path: String) throws -> [ChangeRow] {
        let r = try RedlineBinary.run(["changes", path, "--format", "json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONDecoder().decode([ChangeRow].self, from: Data(r.stdout.utf8))
    }

    /// A move is one row with both places, its range markers folded in; its ids accept the whole move.
    func testAMoveIsOneRow() throws {
        for name in ["pandoc/track_changes_move.docx", "Open-Xml-PowerTools/RP015-MoveFrom-MoveTo.docx"] {
            let path = try corpusFile(name)
            let rows = try rows(path)
            XCTAssertEqual(rows.count, 1, "\(name): \(rows)")
            let m = try XCTUnwrap(rows.first)
            XCTAssertEqual(m.change, "move")
            XCTAssertNotNil(m.toParagraph)
            XCTAssertNotEqual(m.paragraph, m.toParagraph)
            XCTAssertEqual(m.before, m.after)
            XCTAssertFalse(m.before?.isEmpty ?? true)
            let out = tmp + "/accepted.docx"
            let r = try RedlineBinary.run(["convert", path, "-o", out, "--accept", "id=" + m.id, "--strict-filters"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try self.rows(out).count, 0, "\(name): the row's ids accept the whole move")
        }
    }

    /// Moves, insertions, deletions and formatting in one paragraph; split and join.
    func testRowsOfRevisionKinds() throws {
        let runs = try rows(try corpusFile("Aspose.Words-for-.NET/Revision runs.docx"))
        XCTAssertEqual(runs.map(\.change), ["move", "insertion", "formatting", "deletion"])
        let marks = try rows(try corpusFile("pandoc/paragraph_insertion_deletion.docx"))
        XCTAssertEqual(marks.map(\.change), ["split", "join"])
    }

    /// Comments: anchor and body fields, replies say their thread; full text in JSON and CSV, cut only in the table.
    func testCommentRowsAndFullText() throws {
        let path = try corpusFile("docx2python/comments.docx")
        let rows = try rows(path)
        XCTAssertEqual(rows.count, 8)
        XCTAssertTrue(rows.allSatisfy { $0.change == "comment" && $0.anchor != nil && $0.body != nil && $0.before == nil })
        XCTAssertEqual(rows.filter { $0.thread != nil }.count, 4)
        let long = try XCTUnwrap(rows.first { ($0.anchor ?? "").count > 60 })
        XCTAssertFalse(long.anchor!.contains("…"))
        let csv = try RedlineBinary.run(["changes", path, "--format", "csv"]).stdout
        XCTAssertTrue(csv.contains(long.anchor!), csv)
        let text = try RedlineBinary.run(["changes", path]).stdout
        XCTAssertFalse(text.contains(long.anchor!))
        XCTAssertTrue(text.contains("…"))
    }

    /// A deleted space is a space; a deletion directly followed by an insertion by the same author is one
    /// substitution; ids are the ones `--accept id=` takes.
    func testSubstitutionsAndSpaces() throws {
        let md = tmp + "/s.md"
        try "A{-- --}b {--old--}{++new++} c {--x--} d {++y++}.\n".write(toFile: md, atomically: true, encoding: .utf8)
        let rows = try rows(md)
        XCTAssertEqual(rows.map(\.change), ["deletion", "substitution", "deletion", "insertion"])
        XCTAssertEqual(rows[0].before, " ")
        XCTAssertEqual(rows[1].before, "old")
        XCTAssertEqual(rows[1].after, "new")
        XCTAssertTrue(try RedlineBinary.run(["changes", md]).stdout.contains("\" \""))
        let r = try RedlineBinary.run(["convert", md, "-t", "md", "--accept", "id=" + rows[1].id, "--strict-filters"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("b new c"), r.stdout)
    }
}

import Foundation
import XCTest
import Redline
import RedlineCLI

/// The `redline` binary as users run it: exit statuses, stdin/stdout, warnings JSON, atomic outputs.
final class ConvertCommandTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    func testConvertsFileToFileInEachChangeMode() throws {
        let input = tmp + "/in.md"
        try "Hello {++big ++}{--small --}world.\n".write(toFile: input, atomically: true, encoding: .utf8)
        for (mode, expected) in [("accept", "Hello big world.\n"), ("reject", "Hello small world.\n")] {
            let r = try RedlineBinary.run(["convert", input, "-o", tmp + "/\(mode).md", "--changes", mode])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try String(contentsOfFile: tmp + "/\(mode).md", encoding: .utf8), expected)
        }
        let marked = try RedlineBinary.run(["convert", input])
        XCTAssertEqual(marked.status, 0, marked.stderr)
        XCTAssertTrue(marked.stdout.contains("{++big ++}"), marked.stdout)
        XCTAssertTrue(marked.stdout.contains("{--small --}"), marked.stdout)
    }

    /// An output that is an input (the same path, or a link to it) is refused with status 2 and the input
    /// stays as it was, for convert, compare and in-place review alike.
    func testAnOutputThatIsTheInputIsRefusedAndTheInputKept() throws {
        let input = tmp + "/in.md", other = tmp + "/other.md"
        let text = "Hello {++big ++}world.\n"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        try "Hello world.\n".write(toFile: other, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: tmp + "/link.md", withDestinationPath: input)
        for arguments in [["convert", input, "-o", input, "--changes", "accept"],
                          ["convert", input, "-o", tmp + "/link.md", "--changes", "accept"],
                          ["compare", other, input, "-o", input]] {
            let r = try RedlineBinary.run(arguments)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("is the input"), r.stderr)
            XCTAssertEqual(try String(contentsOfFile: input, encoding: .utf8), text)
        }
        let docx = tmp + "/in.docx"
        XCTAssertEqual(try RedlineBinary.run(["convert", input, "-o", docx]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: docx))
        let review = try RedlineBinary.run(["convert", docx, "-o", docx, "--changes", "accept"])
        XCTAssertEqual(review.status, 2, review.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: docx)), before)
    }

    func testStdinToStdout() throws {
        let r = try RedlineBinary.run(["convert", "-", "--changes", "accept"], stdin: "a {++b++}\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "a b\n")
    }

    func testMissingInputIsOneReadableLineAndStatus1() throws {
        let r = try RedlineBinary.run(["convert", tmp + "/nope.md", "-o", tmp + "/out.md"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("nope.md"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out.md"))
    }

    func testUsageErrorsExit2() throws {
        let input = tmp + "/in.md"
        try "x\n".write(toFile: input, atomically: true, encoding: .utf8)
        XCTAssertEqual(try RedlineBinary.run(["convert", input, "--to", "nonsense"]).status, 2)
        XCTAssertEqual(try RedlineBinary.run(["convert", input, "--changes", "maybe"]).status, 2)
        XCTAssertEqual(try RedlineBinary.run(["frobnicate"]).status, 2)
    }

    func testAnOutputExtensionNoWriterClaimsIsAUsageError() throws {
        let input = tmp + "/in.md"
        try "x\n".write(toFile: input, atomically: true, encoding: .utf8)
        for ext in ["odt", "xyz", "pdf"] {
            let out = tmp + "/a." + ext
            let r = try RedlineBinary.run(["convert", input, "-o", out])
            let written = FormatRegistry.all.contains { $0.writer != nil && $0.extensions.contains(ext) }
            if written { XCTAssertEqual(r.status, 0, r.stderr); continue }   // a writer registered since
            XCTAssertEqual(r.status, 2, ext + ": " + r.stderr)
            XCTAssertTrue(r.stderr.contains("'.\(ext)'"), r.stderr)
            for f in FormatRegistry.all where f.writer != nil { XCTAssertTrue(r.stderr.contains(f.name), r.stderr) }
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
            // --to says what to write: then any name goes.
            XCTAssertEqual(try RedlineBinary.run(["convert", input, "-o", out, "--to", "md"]).status, 0)
        }
        XCTAssertEqual(try RedlineBinary.run(["convert", input, "-o", tmp + "/noext"]).status, 0)
        XCTAssertEqual(try RedlineBinary.run(["convert", input, "-o", tmp + "/a.txt"]).status, 0)
    }

    /// The formatting Markdown cannot hold is one line on the terminal; what matters stays a line of its own;
    /// --warnings-json keeps every code.
    func testExpectedFormattingLossesFoldIntoOneLine() throws {
        let input = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus/docx/moves-and-formatting.docx").path
        let json = tmp + "/w.json"
        let r = try RedlineBinary.run(["convert", input, "-o", tmp + "/o.md", "--warnings-json", json])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        let folded = lines.filter { $0.contains("formatting Markdown cannot hold: ") }
        XCTAssertEqual(folded.count, 1, r.stderr)
        XCTAssertTrue(folded[0].contains("paragraph styles") && folded[0].contains("alignment ×2"), r.stderr)
        XCTAssertTrue(folded[0].hasSuffix("; --keep-formatting keeps it"), r.stderr)
        XCTAssertFalse(r.stderr.contains("lossy.alignment"), r.stderr)
        let written = try String(contentsOfFile: json, encoding: .utf8)
        for code in ["lossy.paragraph-style", "lossy.alignment", "lossy.paragraph-indent", "lossy.paragraph-spacing"] {
            XCTAssertTrue(written.contains("\"\(code)\""), code + " missing from " + written)
        }
        // What a person must know is printed in full.
        let lines2 = WarningReport.terminalLines([Diagnostic(code: "docx.text-box", message: "text boxes were flattened"),
                                                  Diagnostic(code: "lossy.font", message: "fonts were dropped (use --keep-formatting)", count: 3)],
                                                 target: "md")
        XCTAssertEqual(lines2, ["warning[docx.text-box]: text boxes were flattened",
                                "warning: formatting Markdown cannot hold: fonts ×3; --keep-formatting keeps it"])
    }

    func testWarningsGoToStderrAndJSON() throws {
        let input = tmp + "/in.md"
        try "An {++unclosed insertion\n".write(toFile: input, atomically: true, encoding: .utf8)
        let json = tmp + "/w.json"
        let r = try RedlineBinary.run(["convert", input, "-o", tmp + "/o.md", "--warnings-json", json])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning["), r.stderr)
        let data = try XCTUnwrap(FileManager.default.contents(atPath: json))
        let decoded = try JSONDecoder().decode(WarningReport.FileWarnings.self, from: data)
        XCTAssertFalse(decoded.warnings.isEmpty)
        XCTAssertEqual(decoded.input, input)
    }

    func testFormatsListsTheStableNames() throws {
        let r = try RedlineBinary.run(["formats"])
        XCTAssertEqual(r.status, 0)
        for name in ["md", "html"] { XCTAssertTrue(r.stdout.contains("\n\(name) "), r.stdout) }
        // No column is cut off: every format's full extension list and summary are on its line.
        for f in FormatRegistry.all {
            let line = r.stdout.split(separator: "\n").first { $0.hasPrefix(f.name + " ") }
            let ext = f.extensions.map { "." + $0 }.joined(separator: " ")
            XCTAssertTrue(line?.contains(ext + " ") == true || ext.isEmpty, "\(f.name): \(line ?? "")")
            XCTAssertTrue(line?.hasSuffix(f.summary) == true, "\(f.name): \(line ?? "")")
        }
    }
}

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
            let r = try RedlineProcess.run(["convert", input, "-o", tmp + "/\(mode).md", "--changes", mode])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try String(contentsOfFile: tmp + "/\(mode).md", encoding: .utf8), expected)
        }
        let marked = try RedlineProcess.run(["convert", input])
        XCTAssertEqual(marked.status, 0, marked.stderr)
        XCTAssertTrue(marked.stdout.contains("{++big ++}"), marked.stdout)
        XCTAssertTrue(marked.stdout.contains("{--small --}"), marked.stdout)
    }

    func testStdinToStdout() throws {
        let r = try RedlineProcess.run(["convert", "-", "--changes", "accept"], stdin: "a {++b++}\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "a b\n")
    }

    func testMissingInputIsOneReadableLineAndStatus1() throws {
        let r = try RedlineProcess.run(["convert", tmp + "/nope.md", "-o", tmp + "/out.md"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("nope.md"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/out.md"))
    }

    func testUsageErrorsExit2() throws {
        let input = tmp + "/in.md"
        try "x\n".write(toFile: input, atomically: true, encoding: .utf8)
        XCTAssertEqual(try RedlineProcess.run(["convert", input, "--to", "nonsense"]).status, 2)
        XCTAssertEqual(try RedlineProcess.run(["convert", input, "--changes", "maybe"]).status, 2)
        XCTAssertEqual(try RedlineProcess.run(["frobnicate"]).status, 2)
    }

    func testWarningsGoToStderrAndJSON() throws {
        let input = tmp + "/in.md"
        try "An {++unclosed insertion\n".write(toFile: input, atomically: true, encoding: .utf8)
        let json = tmp + "/w.json"
        let r = try RedlineProcess.run(["convert", input, "-o", tmp + "/o.md", "--warnings-json", json])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning["), r.stderr)
        let data = try XCTUnwrap(FileManager.default.contents(atPath: json))
        let decoded = try JSONDecoder().decode(WarningReport.FileWarnings.self, from: data)
        XCTAssertFalse(decoded.warnings.isEmpty)
        XCTAssertEqual(decoded.input, input)
    }

    func testFormatsListsTheStableNames() throws {
        let r = try RedlineProcess.run(["formats"])
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

/// Runs the built `redline` executable.
enum RedlineProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable beside the test bundle (`.build/<config>/redline`).
    static var executable: String {
        let bundle = Bundle.main.bundleURL.path
        let candidates = [
            (bundle as NSString).deletingLastPathComponent + "/redline",
            bundle + "/redline",
            RepositoryPaths.root + "/.build/debug/redline",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    static func run(_ arguments: [String], stdin: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }
}

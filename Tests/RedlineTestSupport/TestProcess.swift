import Foundation
import XCTest

/// Runs programs for tests (one runner instead of a copy per test target).
public enum TestProcess {
    /// Runs `arguments` through `/usr/bin/env` (in `directory` if given); returns exit status, stdout, stderr.
    @discardableResult
    public static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// pandoc's JSON AST of `markdown` read as pandoc's Markdown (`/usr/bin/pandoc -f markdown -t json`): the oracle
    /// of the Markdown writer tests. Skips when pandoc is not installed.
    public static func pandocJSON(_ markdown: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pandoc") else { throw XCTSkip("pandoc is not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pandoc")
        p.arguments = ["-f", "markdown", "-t", "json"]
        let inPipe = Pipe(), outPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        try p.run()
        inPipe.fileHandleForWriting.write(Data(markdown.utf8))
        try inPipe.fileHandleForWriting.close()
        let data = outPipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Skips (locally) or fails (under CI) when `tool` is not installed (`check` exits non-zero; default `which tool`).
    public static func require(_ tool: String, check: [String]? = nil) throws {
        let ok = (try? run(check ?? ["which", tool]))?.status == 0
        if ok { return }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("\(tool) is required under CI (make test installs it)")
        }
        throw XCTSkip("\(tool) is not installed; run `bash scripts/setup.sh test`")
    }
}

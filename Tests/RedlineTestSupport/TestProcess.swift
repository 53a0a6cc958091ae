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

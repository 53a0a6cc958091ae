import Foundation
import XCTest

/// The shared ECMA-376 schema validator (`../shared/tools/ooxml-validate`) for every test target: one runner
/// instead of a copy per target. A missing validator skips locally and fails under CI (never passes silently).
public enum OOXMLValidate {
    /// `../shared/tools/ooxml-validate` beside the repository.
    public static var tool: String {
        URL(fileURLWithPath: RepositoryPaths.root + "/../shared/tools/ooxml-validate").standardized.path
    }

    /// Fails with the validator's report unless `docx` is valid.
    public static func assertValid(_ docx: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try assertValid([docx], file: file, line: line)
    }

    /// Whether `docx` is valid; throws (skips) when the validator is not there.
    public static func isValid(_ docx: String) throws -> Bool {
        guard FileManager.default.isExecutableFile(atPath: tool) else { throw XCTSkip("\(tool) is not there") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = [docx]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    /// Fails with the validator's report unless every file in `files` is valid; fails when `files` is empty.
    public static func assertValid(_ files: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                XCTFail("\(tool) is required under CI", file: file, line: line)
            }
            throw XCTSkip("\(tool) is not there; tests that validate DOCX need ../shared")
        }
        guard !files.isEmpty else { return XCTFail("no DOCX to validate", file: file, line: line) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = files
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "ooxml-validate: \(out.suffix(3000))", file: file, line: line)
    }
}

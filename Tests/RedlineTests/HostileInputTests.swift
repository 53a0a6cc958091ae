import Foundation
import XCTest

/// Inputs hostile testing found (issue 15), through the `redline` binary: one readable result or error and
/// an exit status, never a crash, in every output format, from a file, standard input and a batch.
final class HostileInputTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    private func write(_ bytes: [UInt8], _ name: String) -> String {
        let path = tmp + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func testInvalidUTF8InAttributionConvertsToEveryFormat() throws {
        let input = write(Array("{>>@".utf8) + [0xFF] + Array("<<}\n\nText {++x++}{>>@A".utf8) + [0xC3] + Array(" | b<<}\n".utf8), "p.md")
        for format in ["md", "gfm", "html", "docx", "rtf"] {
            for changes in ["marked", "accept", "reject"] {
                let r = try RedlineBinary.run(["convert", input, "-o", tmp + "/out.\(format)", "--to", format, "--changes", changes])
                XCTAssertEqual(r.status, 0, "\(format) \(changes): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("markdown.invalid-utf8"), r.stderr)
            }
        }
        let viaStdin = try RedlineBinary.run(["/bin/sh", "-c", "'\(RedlineBinary.executable)' convert - --from md --to docx -o '\(tmp!)/stdin.docx' < '\(input)'"], raw: true)
        XCTAssertEqual(viaStdin.status, 0, viaStdin.stderr)
        // A batch: the file converts with its warning, its neighbours too.
        try FileManager.default.createDirectory(atPath: tmp + "/in", withIntermediateDirectories: true)
        for k in 0..<3 { try "ok \(k)\n".write(toFile: tmp + "/in/\(k).md", atomically: true, encoding: .utf8) }
        _ = write(Array("{>>@".utf8) + [0xFF] + Array("<<}".utf8), "in/bad.md")
        let batch = try RedlineBinary.run(["convert", tmp + "/in", "-o", tmp + "/out", "--to", "docx"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp + "/out").filter { !$0.hasPrefix(".") }.sorted(),
                       ["0.docx", "1.docx", "2.docx", "bad.docx"])
    }
}

import Foundation
import RedlineTestSupport
import XCTest

/// Hostile nesting as deep as the readers allow converts, or fails with one clear error, to every
/// format: never a crash (conversions run on threads with large stacks).
final class DeepNestingTests: XCTestCase {
    var tmp: String!

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-deep-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tmp)
    }

    func testMarkdownQuotesNestedToTheLimitConvertAndBeyondItFailClearly() throws {
        for (levels, ok) in [(1_990, true), (2_500, false)] {
            let input = tmp + "/deep\(levels).md"
            try (String(repeating: "> ", count: levels) + "deep\n").write(toFile: input, atomically: true, encoding: .utf8)
            for format in ["md", "html", "docx", "rtf"] {
                let r = try RedlineBinary.run(["convert", input, "-o", tmp + "/out\(levels).\(format)", "-q"])
                if ok {
                    XCTAssertEqual(r.status, 0, "\(levels) levels → \(format): \(r.stderr)")
                } else {
                    XCTAssertEqual(r.status, 1, "\(levels) levels → \(format)")
                    XCTAssertTrue(r.stderr.contains("nesting deeper than"), r.stderr)
                }
            }
        }
    }

    func testDOCXTablesNestedThousandsDeepConvert() throws {
        let input = try deepDOCX()
        for format in ["md", "html", "docx", "rtf"] {
            let r = try RedlineBinary.run(["convert", input, "-o", tmp + "/out.\(format)", "-q"])
            XCTAssertEqual(r.status, 0, "→ \(format): \(r.stderr)")
        }
        let md = try String(contentsOfFile: tmp + "/out.md", encoding: .utf8)
        XCTAssertTrue(md.contains("deep"), md)
    }

    func testBatchExportAndCheckOfDeepDocumentsFinish() throws {
        let dir = tmp + "/in"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: try deepDOCX(), toPath: dir + "/tables.docx")
        try (String(repeating: "> ", count: 1_990) + "deep\n").write(toFile: dir + "/quotes.md", atomically: true, encoding: .utf8)
        try "fine\n".write(toFile: dir + "/fine.md", atomically: true, encoding: .utf8)
        let convert = try RedlineBinary.run(["convert", dir, "-o", tmp + "/out", "--to", "html"])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        XCTAssertTrue(convert.stderr.contains("3 converted"), convert.stderr)
        let export = try RedlineBinary.run(["export", dir, "--to", "md", "-o", tmp + "/versions"])
        XCTAssertEqual(export.status, 0, export.stderr)
        let check = try RedlineBinary.run(["check", dir])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains("3 files checked"), check.stdout)
    }

    /// A DOCX whose body is a table nested thousands deep, a paragraph "deep" in the innermost cell.
    private func deepDOCX() throws -> String {
        let levels = 3_300  // three elements a level: under the XML reader's 10,000
        let body = String(repeating: "<w:tbl><w:tr><w:tc>", count: levels) + "<w:p><w:r><w:t>deep</w:t></w:r></w:p>"
            + String(repeating: "</w:tc></w:tr></w:tbl>", count: levels)
        let bytes = try MinimalDOCX.package(body: body)
        let input = tmp + "/deep.docx"
        FileManager.default.createFile(atPath: input, contents: Data(bytes))
        return input
    }
}

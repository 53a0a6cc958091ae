import Foundation
import Redline
import RedlineCore
import XCTest

/// Golden files for our DOCX fixtures: `Corpus/docx/<case>.docx` → `Golden/docx/<case>/marked.md`
/// (CriticMarkup), `clean.md` (all accepted), `original.md` (all rejected), each with its warnings in
/// `<variant>.warnings.txt`. `make golden` (REDLINE_UPDATE_GOLDEN=1) rewrites them; review the diff.
final class DOCXGoldenTests: XCTestCase {
    private var update: Bool { ProcessInfo.processInfo.environment["REDLINE_UPDATE_GOLDEN"] == "1" }

    func testDOCXGoldens() throws {
        guard let md = FormatRegistry.named("md"), let docx = FormatRegistry.named("docx") else {
            throw XCTSkip("md or docx is not registered")
        }
        let corpus = Fixtures.repo.appendingPathComponent("Corpus/docx")
        let cases = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".docx") }.sorted()
        XCTAssertGreaterThanOrEqual(cases.count, 6)
        for file in cases {
            let name = String(file.dropLast(5))
            let dir = Fixtures.repo.appendingPathComponent("Golden/docx/\(name)")
            for (variant, mode) in [("marked", ChangeMode.marked), ("clean", .accept), ("original", .reject)] {
                let out = MemoryOutput()
                let diagnostics = Diagnostics()
                try Converter.convert(.file(corpus.appendingPathComponent(file).path), to: out,
                                      options: ConversionOptions(from: docx, to: md, changes: mode), diagnostics: diagnostics)
                let warnings = diagnostics.all.map { "\($0)\n" }.joined()
                try check(dir.appendingPathComponent("\(variant).md"), out.string)
                try check(dir.appendingPathComponent("\(variant).warnings.txt"), warnings)
            }
        }
    }

    private func check(_ url: URL, _ actual: String, file: StaticString = #filePath, line: UInt = #line) throws {
        if update {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            return XCTFail("missing golden \(url.path) (make golden writes it)", file: file, line: line)
        }
        XCTAssertEqual(actual, expected, "\(url.path) differs (make golden rewrites it; review the diff)", file: file, line: line)
    }
}

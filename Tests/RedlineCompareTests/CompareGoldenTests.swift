import XCTest
import Foundation
@testable import RedlineCompare
import Redline
import RedlineCLI

/// Hand-written readability cases: `Corpus/compare/<case>/old.*` against `new.*`, compared as the command
/// line does (author "Editor", a fixed date); the CriticMarkup result and the counts must equal
/// `Golden/compare/<case>/result.md` and `stats.txt`. `make golden` (REDLINE_UPDATE_GOLDEN=1) rewrites them.
final class CompareGoldenTests: XCTestCase {
    static var root: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }

    var updating: Bool { ProcessInfo.processInfo.environment["REDLINE_UPDATE_GOLDEN"] == "1" }

    func testGoldenComparisons() throws {
        let base = Self.root + "/Corpus/compare"
        let cases = try FileManager.default.contentsOfDirectory(atPath: base).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertGreaterThanOrEqual(cases.count, 6)
        for name in cases {
            let files = try FileManager.default.contentsOfDirectory(atPath: base + "/" + name)
            guard let old = files.first(where: { $0.hasPrefix("old.") }), let new = files.first(where: { $0.hasPrefix("new.") }) else {
                XCTFail("\(name): needs old.* and new.*"); continue
            }
            let a = try Converter.read(.file(base + "/\(name)/\(old)"), format: FormatRegistry.inferred(fromPath: old)!)
            let b = try Converter.read(.file(base + "/\(name)/\(new)"), format: FormatRegistry.inferred(fromPath: new)!)
            let (doc, stats) = DocumentComparer.compare(old: a, new: b, options: CompareOptions(author: "Editor", date: "2024-05-01T09:00:00Z"))
            let out = MemoryOutput()
            try Converter.write(doc, format: FormatRegistry.named("md")!, to: out)
            // The result is exact, whatever it looks like.
            XCTAssertEqual(Normalize.document(DocumentComparer.accepted(doc)), Normalize.document(b), "\(name): accept")
            XCTAssertEqual(Normalize.document(DocumentComparer.rejected(doc)), Normalize.document(a), "\(name): reject")
            check(out.string, at: Self.root + "/Golden/compare/\(name)/result.md", label: name)
            check(RedlineCommand.Compare.statsText(stats) + "\n", at: Self.root + "/Golden/compare/\(name)/stats.txt", label: name + " stats")
        }
    }

    func check(_ text: String, at path: String, label: String) {
        if updating {
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let want = try? String(contentsOfFile: path, encoding: .utf8) else { XCTFail("\(label): missing golden \(path)"); return }
        XCTAssertEqual(text, want, "\(label): differs from \(path)")
    }
}

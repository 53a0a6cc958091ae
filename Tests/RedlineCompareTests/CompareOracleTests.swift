import XCTest
import Foundation
@testable import RedlineCompare
import Redline

/// Oracles: Open-Xml-PowerTools' pairs (X-Rejected.docx against X-Accepted.docx) must give back both texts,
/// and the marks found are set beside X.docx's own tracked changes (printed per file); every DOCX written
/// from a comparison passes the ECMA-376 schema validator.
final class CompareOracleTests: XCTestCase {
    static var corpus: String { CompareGoldenTests.root + "/../shared/corpus/Open-Xml-PowerTools" }

    static func text(_ d: Document) -> [String] {
        var out: [String] = []
        for b in d.blocks { b.forEachParagraph { out.append($0.content.plainText) } }
        for n in d.notes { for b in n.blocks { b.forEachParagraph { out.append($0.content.plainText) } } }
        return out
    }

    func testPowerToolsPairsGiveBackBothTexts() throws {
        guard FileManager.default.fileExists(atPath: Self.corpus) else { throw XCTSkip("no ../shared/corpus") }
        let docx = FormatRegistry.named("docx")!
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus)
            .filter { $0.hasSuffix("-Accepted.docx") }.map { String($0.dropLast("-Accepted.docx".count)) }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 5)
        let dir = NSTemporaryDirectory() + "redline-compare-oracle-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var written: [String] = []
        for name in names {
            let old = try Converter.read(.file(Self.corpus + "/\(name)-Rejected.docx"), format: docx)
            let new = try Converter.read(.file(Self.corpus + "/\(name)-Accepted.docx"), format: docx)
            let tracked = try Converter.read(.file(Self.corpus + "/\(name).docx"), format: docx)
            let (result, stats) = DocumentComparer.compare(old: old, new: new, options: CompareOptions(date: "2024-01-01T00:00:00Z"))
            XCTAssertEqual(Self.text(DocumentComparer.accepted(result)), Self.text(new), "\(name): accepted text")
            XCTAssertEqual(Self.text(DocumentComparer.rejected(result)), Self.text(old), "\(name): rejected text")
            let theirs = DocumentComparer.trackedChangeCount(tracked)
            let ours = DocumentComparer.trackedChangeCount(result)
            print("oracle \(name): Redline \(ours) marks (ins \(stats.insertions), del \(stats.deletions), moves \(stats.moves), format \(stats.formatChanges), style \(stats.paragraphStyleChanges), breaks \(stats.paragraphMarkChanges)); \(name).docx has \(theirs)")
            // Through DOCX and back, still exact in text.
            let path = dir + "/\(name).docx"
            try AtomicFile.write(to: path) { try Converter.write(result, format: docx, to: $0) }
            written.append(path)
            let back = try Converter.read(.file(path), format: docx)
            XCTAssertEqual(Self.text(DocumentComparer.accepted(back)), Self.text(new), "\(name): accepted text after DOCX")
            XCTAssertEqual(Self.text(DocumentComparer.rejected(back)), Self.text(old), "\(name): rejected text after DOCX")
        }
        try Self.validate(written)
    }

    /// Every generated pair's DOCX result validates (a sample of the exactness pairs).
    func testComparisonDOCXValidates() throws {
        let docx = FormatRegistry.named("docx")!
        let dir = NSTemporaryDirectory() + "redline-compare-validate-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for seed in (0..<UInt64(40)).map({ $0 &* 7919 &+ 17 }) {
            let (a, b, _) = ExactnessPropertyTests.pair(seed)
            let (result, _) = DocumentComparer.compare(old: a, new: b, options: CompareOptions(date: "2024-01-01T00:00:00Z"))
            let path = dir + "/pair-\(seed).docx"
            try AtomicFile.write(to: path) { try Converter.write(result, format: docx, to: $0) }
            paths.append(path)
        }
        try Self.validate(paths)
    }

    static func validate(_ paths: [String]) throws {
        try OOXMLValidate.assertValid(paths)
    }
}

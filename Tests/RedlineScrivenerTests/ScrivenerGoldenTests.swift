import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion
import RedlineCore

/// The hand-built projects migrated to Markdown, single and tree layouts, compared with the goldens in
/// `Golden/scrivener/<case>/` (`single.md`, `tree/…`, and the warnings of each). `make golden`
/// (REDLINE_UPDATE_GOLDEN=1) rewrites them; review the diff before committing.
final class ScrivenerGoldenTests: XCTestCase {
    private var update: Bool { ProcessInfo.processInfo.environment["REDLINE_UPDATE_GOLDEN"] == "1" }

    private func markdown() throws -> Format {
        guard let md = FormatRegistry.named("md"), md.writer != nil else {
            throw FormatMissing("the Markdown writer is not registered yet")
        }
        return md
    }

    func testLighthouse() throws {
        try check(case: "lighthouse", project: Fixtures.lighthouse, research: true, snapshots: true)
    }

    func testGarden() throws {
        try check(case: "garden", project: Fixtures.garden, research: false, snapshots: false)
    }

    private func check(case name: String, project: String, research: Bool, snapshots: Bool) throws {
        let md = try markdown()
        let tmp = try Fixtures.temporaryFolder(self)
        let golden = Fixtures.golden + "/" + name
        for layout in ScrivenerMigrationOptions.Layout.allCases {
            let out = layout == .single ? tmp + "/single/single.md" : tmp + "/tree"
            let r = try ScrivenerMigration.run(project: project, output: out, options: ScrivenerMigrationOptions(
                format: md, layout: layout, research: research, snapshots: snapshots))
            var files = Self.files(in: layout == .single ? tmp + "/single" : out)
            files[layout.rawValue + ".warnings.txt"] = Self.warnings(r)
            let prefix = layout == .single ? "" : "tree/"
            var expected = Self.files(in: golden).filter { layout == .single ? !$0.key.hasPrefix("tree") : $0.key.hasPrefix("tree") }
            expected = expected.filter { $0.key != "tree.warnings.txt" || layout == .tree }
            let actual = Dictionary(uniqueKeysWithValues: files.map {
                ($0.key.hasSuffix(".warnings.txt") ? $0.key : prefix + $0.key, $0.value)
            })
            if update {
                for old in (try? FileManager.default.contentsOfDirectory(atPath: golden)) ?? []
                where old.hasPrefix("tree") == (layout == .tree) {
                    try? FileManager.default.removeItem(atPath: golden + "/" + old)
                }
                for (path, text) in actual { try Fixtures.write([path: text], under: golden) }
                continue
            }
            XCTAssertEqual(Set(actual.keys), Set(expected.keys), "\(name) \(layout): files differ from the goldens")
            for (path, text) in actual.sorted(by: { $0.key < $1.key }) where expected[path] != nil {
                XCTAssertEqual(text, expected[path], "\(name)/\(path) differs from its golden (make golden rewrites)")
            }
        }
    }

    /// Every file under `root` (relative path → text; other bytes as a hex summary).
    static func files(in root: String) -> [String: String] {
        var out: [String: String] = [:]
        for p in (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [] {
            var dir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + p, isDirectory: &dir), !dir.boolValue,
                  let data = FileManager.default.contents(atPath: root + "/" + p) else { continue }
            out[p] = String(validating: [UInt8](data), as: UTF8.self) ?? "binary, \(data.count) bytes\n"
        }
        return out
    }

    /// The report's diagnostics, one line per item and code, project-relative.
    static func warnings(_ r: MigrationReport) -> String {
        var lines: [String] = []
        for rec in r.records {
            if let f = rec.failure { lines.append("\(rec.binder): error: \(f.message)") }
            for d in rec.diagnostics { lines.append("\(rec.binder): \(d)") }
        }
        for d in r.project { lines.append("project: \(d)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

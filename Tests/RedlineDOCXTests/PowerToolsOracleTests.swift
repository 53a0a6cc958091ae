import Foundation
import RedlineCore
import XCTest

/// Open-Xml-PowerTools ships, for several documents with tracked changes, the same document with every
/// change accepted (`X-Accepted.docx`) and rejected (`X-Rejected.docx`), as Word made them. Accepting
/// (rejecting) everything we read must give the same paragraphs and text as reading the oracle.
final class PowerToolsOracleTests: XCTestCase {
    func testAcceptAndRejectMatchTheOracles() throws {
        let all = Fixtures.sharedDOCX().filter { $0.hasPrefix("Open-Xml-PowerTools/") }
        try XCTSkipIf(all.isEmpty, "shared corpus not found")
        var checked = 0
        for rel in all where !rel.hasSuffix("-Accepted.docx") && !rel.hasSuffix("-Rejected.docx") {
            let base = String(rel.dropLast(5))
            for (mode, suffix) in [(ChangeMode.accept, "-Accepted.docx"), (.reject, "-Rejected.docx")] {
                let oraclePath = Fixtures.shared(base + suffix)
                guard FileManager.default.fileExists(atPath: oraclePath) else { continue }
                let resolved = try Fixtures.read(Fixtures.shared(rel)).applying([ReviewTransform(mode)])
                let oracle = try Fixtures.read(oraclePath)
                XCTAssertEqual(Fixtures.paragraphs(resolved), Fixtures.paragraphs(oracle), "\(rel) \(mode)")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }
}

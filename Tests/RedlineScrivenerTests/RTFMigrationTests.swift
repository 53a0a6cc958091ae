import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion
import RedlineCore

/// A migration to RTF, read back with the RTF reader: comments, footnotes and Scrivener's paragraph
/// formatting survive.
final class RTFMigrationTests: XCTestCase {
    func testSingleManuscriptRoundTrip() throws {
        guard let f = FormatRegistry.named("rtf"), f.writer != nil, f.reader != nil else {
            throw FormatMissing("RTF is not registered for reading and writing")
        }
        let out = try Fixtures.temporaryFolder(self) + "/garden.rtf"
        let r = try ScrivenerMigration.run(project: Fixtures.garden, output: out, options: ScrivenerMigrationOptions(format: f))
        XCTAssertFalse(r.hasFailures)
        let doc = try Converter.read(.file(out), format: f)
        XCTAssertEqual(doc.comments.map { $0.body.map(\.plainText).joined() }, ["Was it green or blue?"])
        XCTAssertEqual(doc.notes.map { $0.blocks.map(\.plainText).joined() }, ["Climbing roses, planted 1950."])
        let gate = try XCTUnwrap(doc.blocks.compactMap(\.paragraph).first { $0.content.plainText.hasPrefix("The gate was") })
        XCTAssertEqual(gate.style.firstLineIndent, 36)
        XCTAssertEqual(gate.style.lineSpacing, .multiple(1.2))
    }
}

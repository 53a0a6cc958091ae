import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion
import RedlineCore

/// Migrations to DOCX, read back with the DOCX reader: structure, comments, footnotes and Scrivener's
/// paragraph formatting survive.
final class DOCXMigrationTests: XCTestCase {
    private func docx() throws -> Format {
        guard let f = FormatRegistry.named("docx"), f.writer != nil, f.reader != nil else {
            throw FormatMissing("DOCX is not registered for reading and writing")
        }
        return f
    }

    func testSingleManuscriptRoundTrip() throws {
        let f = try docx()
        let out = try Fixtures.temporaryFolder(self) + "/book.docx"
        let r = try ScrivenerMigration.run(project: Fixtures.lighthouse, output: out,
                                           options: ScrivenerMigrationOptions(format: f))
        XCTAssertFalse(r.hasFailures)
        let doc = try Converter.read(.file(out), format: f)
        let headings = doc.blocks.compactMap { b -> String? in
            if case .heading(let l, let p) = b { return "\(l) \(p.content.plainText)" }
            return nil
        }
        XCTAssertEqual(headings, ["1 Part One", "2 Chapter 1: Landfall", "3 Arrival", "3 The Keeper",
                                  "2 Chapter 2 (working title)", "3 Storm", "1 Part Two", "2 Chapter 3", "3 Down",
                                  "4 Further down", "5 The cellar", "6 The well", "6 The bottom", "1 Epilogue"])
        let bodies = Set(doc.comments.map { $0.body.map(\.plainText).joined() })
        XCTAssertTrue(bodies.isSuperset(of: ["Forty or fifty? Check the parish records.", "Check the wind direction.",
                                             "Unanchored: the text this was on was deleted."]), "\(bodies)")
        XCTAssertEqual(Set(doc.notes.map { $0.blocks.map(\.plainText).joined() }),
                       ["There are 127 steps in the tower.", "Tide tables for 1923, page 12."])
        let lamp = try XCTUnwrap(doc.blocks.compactMap(\.paragraph).first { $0.content.plainText.hasPrefix("The lamp") })
        XCTAssertEqual(lamp.style.firstLineIndent, 36)
        XCTAssertEqual(lamp.style.lineSpacing, .multiple(1.2))
    }

    func testTreeOfDOCXFiles() throws {
        let f = try docx()
        let out = try Fixtures.temporaryFolder(self) + "/tree"
        _ = try ScrivenerMigration.run(project: Fixtures.garden, output: out,
                                       options: ScrivenerMigrationOptions(format: f, layout: .tree))
        let gate = try Converter.read(.file(out + "/01-the-garden/01-the-gate.docx"), format: f)
        XCTAssertEqual(gate.metadata.title, "The gate")
        XCTAssertEqual(gate.comments.map { $0.body.map(\.plainText).joined() }, ["Was it green or blue?"])
        XCTAssertEqual(gate.notes.map { $0.blocks.map(\.plainText).joined() }, ["Climbing roses, planted 1950."])
        let dusk = try Converter.read(.file(out + "/01-the-garden/02-dusk.docx"), format: f)
        var links: [String] = []
        for b in dusk.blocks { b.forEachInline { if case .link(let l, _) = $0 { links.append(l.url) } } }
        XCTAssertEqual(links, ["01-the-gate.docx"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/index.docx"))
    }
}

import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion
import RedlineCore
import RedlineScrivener

/// The migration driver end to end, through a dump writer (layouts, order, headings, metadata, links,
/// research, snapshots, report). Goldens through the real Markdown writer are in ScrivenerGoldenTests.
final class MigrationTests: XCTestCase {
    private func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func testSingleLayout() throws {
        let out = try Fixtures.temporaryFolder(self) + "/book.txt"
        let r = try ScrivenerMigration.run(project: Fixtures.lighthouse, output: out,
                                           options: ScrivenerMigrationOptions(format: DumpWriter.format))
        let text = try read(out)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("#") && $0 != "#" }, [
            "# Part One", "## Chapter 1: Landfall", "### Arrival", "### The Keeper", "## Chapter 2 (working title)",
            "### Storm", "# Part Two", "## Chapter 3", "### Down", "#### Further down", "##### The cellar",
            "###### The well", "###### The bottom", "# Epilogue",
        ])
        XCTAssertTrue(lines.contains("@title: Lighthouse"))
        XCTAssertTrue(lines.contains("> **Synopsis**: The arrival on the island."), text)
        XCTAssertTrue(lines.contains("> **Label**: Chapter"))
        XCTAssertTrue(lines.contains("> **Keywords**: storm, keeper"))
        XCTAssertTrue(lines.contains("> **POV**: Anna"))
        XCTAssertTrue(lines.contains("> **Setting**: Tower"), "a list field shows its option's name")
        XCTAssertTrue(lines.contains("> **Notes**:"))
        XCTAssertTrue(lines.contains("> Remember the *storm* from the opening."))
        XCTAssertTrue(text.contains("(see [The Keeper](#the-keeper))"), "links inside one file go to the heading")
        XCTAssertFalse(text.contains("cut and must not appear"))
        XCTAssertFalse(text.contains("dark and stormy"), "the Trash is left out")
        XCTAssertFalse(text.contains("paraffin"), "Research is left out")
        XCTAssertEqual(r.records.count, 14)
        XCTAssertEqual(r.records.first { $0.binder.hasSuffix("The bottom") }?.diagnostics.map(\.code), [.scrivenerHeadingDepth])
        XCTAssertEqual(Set(r.project.map(\.code)),
                       [.scrivenerExcluded, .scrivenerTrashSkipped, .scrivenerResearchSkipped, .scrivenerSnapshotsSkipped])
        XCTAssertFalse(r.hasFailures)
    }

    func testTreeLayoutWithResearchAndSnapshots() throws {
        let out = try Fixtures.temporaryFolder(self) + "/tree"
        let r = try ScrivenerMigration.run(project: Fixtures.lighthouse, output: out,
                                           options: ScrivenerMigrationOptions(format: DumpWriter.format, layout: .tree,
                                                                              research: true, snapshots: true))
        let files = try FileManager.default.subpathsOfDirectory(atPath: out).filter {
            var d: ObjCBool = false
            FileManager.default.fileExists(atPath: out + "/" + $0, isDirectory: &d)
            return !d.boolValue
        }.sorted()
        XCTAssertEqual(files, [
            "01-part-one.txt",
            "01-part-one/01-chapter-1-landfall.txt",
            "01-part-one/01-chapter-1-landfall/01-arrival.snapshots/2024-02-01-10-00-00+0100.txt",
            "01-part-one/01-chapter-1-landfall/01-arrival.txt",
            "01-part-one/01-chapter-1-landfall/02-the-keeper.txt",
            "01-part-one/02-chapter-2-working-title/01-storm.txt",
            "02-part-two.txt",
            "02-part-two/01-chapter-3.txt",
            "02-part-two/01-chapter-3/01-down.txt",
            "02-part-two/01-chapter-3/01-down/01-further-down.txt",
            "02-part-two/01-chapter-3/01-down/01-further-down/01-the-cellar.txt",
            "02-part-two/01-chapter-3/01-down/01-further-down/01-the-cellar/01-the-well.txt",
            "02-part-two/01-chapter-3/01-down/01-further-down/01-the-cellar/01-the-well/01-the-bottom.txt",
            "03-epilogue.txt",
            "index.txt",
            "research/01-lighthouse-facts.txt",
            "research/02-map-of-the-coast.png",
            "research/index.txt",
        ])
        let arrival = try read(out + "/01-part-one/01-chapter-1-landfall/01-arrival.txt")
        XCTAssertTrue(arrival.hasPrefix("""
            @title: Arrival
            @synopsis: Anna reaches the island and meets the keeper.
            @label: Scene
            @status: Revised Draft
            @keywords: storm | keeper
            @pov: Anna
            @setting: Tower
            @notes: Remember the storm from the opening.

            Second line of notes.

            """), arrival)
        XCTAssertTrue(arrival.contains("(see [The Keeper](02-the-keeper.txt))"), arrival)
        let facts = try read(out + "/research/01-lighthouse-facts.txt")
        XCTAssertTrue(facts.contains("[Arrival](../01-part-one/01-chapter-1-landfall/01-arrival.txt)"), facts)
        XCTAssertTrue(facts.contains("[the register](https://example.org/lighthouses)"))
        let index = try read(out + "/index.txt")
        XCTAssertTrue(index.contains("- - [Chapter 2 (working title)]") == false, "a folder left out has no link")
        XCTAssertTrue(index.contains("[Arrival](01-part-one/01-chapter-1-landfall/01-arrival.txt)"), index)
        let png = try Data(contentsOf: URL(fileURLWithPath: out + "/research/02-map-of-the-coast.png"))
        XCTAssertEqual(png.prefix(4), Data([0x89, 0x50, 0x4E, 0x47]))
        XCTAssertEqual(r.records.count, 13 + 2)
        XCTAssertEqual(r.records.first { $0.binder.hasSuffix("Arrival") }?.diagnostics.map(\.code),
                       [.scrivenerNotesFlattened], "the italic in the notes is lost in front matter")
        XCTAssertEqual(Set(r.project.map(\.code)), [.scrivenerExcluded, .scrivenerTrashSkipped])
    }

    func testScrivener2Tree() throws {
        let out = try Fixtures.temporaryFolder(self) + "/garden"
        _ = try ScrivenerMigration.run(project: Fixtures.garden, output: out,
                                       options: ScrivenerMigrationOptions(format: DumpWriter.format, layout: .tree))
        let dusk = try read(out + "/01-the-garden/02-dusk.txt")
        XCTAssertTrue(dusk.contains("Back to [the gate](01-the-gate.txt) at dusk."), dusk)
        let gate = try read(out + "/01-the-garden/01-the-gate.txt")
        XCTAssertTrue(gate.contains("@keywords: roses"))
        XCTAssertTrue(gate.contains("The gate was {c:5B0C2D3E-4F50-4A6B-8C7D-9E0F1A2B3C01}green{/c}, once."), gate)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/01-the-garden/02-left-out.txt"))
    }

    func testReportAsJSONLines() throws {
        let out = try Fixtures.temporaryFolder(self) + "/g.txt"
        let r = try ScrivenerMigration.run(project: Fixtures.garden, output: out,
                                           options: ScrivenerMigrationOptions(format: DumpWriter.format))
        let lines = String(decoding: try r.jsonLines(project: Fixtures.garden), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, "three items, the project, the summary")
        let first = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        XCTAssertEqual(first?["type"] as? String, "input")
        XCTAssertEqual(first?["status"] as? String, "converted")
        XCTAssertEqual(first?["binder"] as? String, "The Garden / The gate")
        XCTAssertTrue((first?["input"] as? String)?.hasSuffix("Files/Docs/4.rtf") ?? false)
        XCTAssertEqual((first?["outputs"] as? [[String: String]])?.first?["path"], out)
        XCTAssertNotNil(first?["seconds"] as? Double)
        // The batch tooling reads it: records and summary.
        let file = (out as NSString).deletingLastPathComponent + "/report.jsonl"
        try Data(try r.jsonLines(project: Fixtures.garden)).write(to: URL(fileURLWithPath: file))
        let (records, summary) = try BatchReport.read(file)
        XCTAssertEqual(records.count, 4)
        XCTAssertEqual(summary?.converted, 4)
        XCTAssertEqual(Set(summary?.warnings.map(\.code) ?? []), [.scrivenerExcluded, .scrivenerTrashSkipped])
    }

    func testUnwritableFormatIsAUsageError() throws {
        let out = try Fixtures.temporaryFolder(self) + "/x"
        XCTAssertThrowsError(try ScrivenerMigration.run(project: Fixtures.garden, output: out, options:
            ScrivenerMigrationOptions(format: Format(name: "none", summary: "", extensions: [])))) {
            XCTAssertEqual(($0 as? RedlineError)?.kind, .usage)
        }
    }

    func testBrokenDocumentFailsAloneAndProjectIsUntouched() throws {
        let dir = try Fixtures.temporaryFolder(self)
        let proj = dir + "/Broken.scriv"
        let a = "00000000-0000-4000-8000-0000000000A1", b = "00000000-0000-4000-8000-0000000000B2"
        try Fixtures.write([
            "Broken.scrivx": Fixtures.binder("""
                <BinderItem UUID="\(a)" Type="Text"><Title>Good</Title><MetaData><IncludeInCompile>Yes</IncludeInCompile></MetaData></BinderItem>
                <BinderItem UUID="\(b)" Type="Text"><Title>Bad</Title><MetaData><IncludeInCompile>Yes</IncludeInCompile></MetaData></BinderItem>
                """),
            "Files/Data/\(a)/content.rtf": Fixtures.rtf("Fine."),
            "Files/Data/\(b)/content.rtf": "this is not RTF at all",
        ], under: proj)
        let before = try FileManager.default.subpathsOfDirectory(atPath: proj).sorted()
        let r = try ScrivenerMigration.run(project: proj, output: dir + "/out", options:
            ScrivenerMigrationOptions(format: DumpWriter.format, layout: .tree))
        XCTAssertEqual(r.records.map(\.succeeded), [true, false])
        XCTAssertNotNil(r.records[1].failure)
        XCTAssertTrue(r.hasFailures)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/out/01-good.txt"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out/02-bad.txt"))
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: proj).sorted(), before)
    }

    func testOutputInsideTheProjectIsRefused() throws {
        let dir = try Fixtures.temporaryFolder(self)
        let proj = dir + "/Copy.scriv"
        try Fixtures.write(["Copy.scrivx": Fixtures.binder("")], under: proj)
        try FileManager.default.createSymbolicLink(atPath: dir + "/alias", withDestinationPath: proj)
        for out in [proj + "/out.txt", proj + "/Files/new/tree", dir + "/alias/x.txt", proj] {
            XCTAssertThrowsError(try ScrivenerMigration.run(project: proj, output: out, options:
                ScrivenerMigrationOptions(format: DumpWriter.format)), out) {
                XCTAssertEqual(($0 as? RedlineError)?.kind, .usage)
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: proj), ["Copy.scrivx"])
    }

    func testNames() {
        XCTAssertEqual(OutputNames.slug("Chapter 1: Landfall"), "chapter-1-landfall")
        XCTAssertEqual(OutputNames.slug("../../etc/passwd"), "etc-passwd")
        XCTAssertEqual(OutputNames.slug("***"), "untitled")
        XCTAssertEqual(OutputNames.slug("Café Noir"), "café-noir")
        XCTAssertEqual(OutputNames.prefix(3, of: 120), "003")
        XCTAssertEqual(OutputNames.relative(from: "a/b/c.md", to: "a/d.md"), "../d.md")
        XCTAssertEqual(OutputNames.relative(from: "a/b.md", to: "a/b/c.md"), "b/c.md")
        XCTAssertEqual(OutputNames.relative(from: "x.md", to: "y.md"), "y.md")
        XCTAssertEqual(OutputNames.snapshotName("2024-02-01-10-00-00+0100"), "2024-02-01-10-00-00+0100")
        XCTAssertEqual(OutputNames.snapshotName("../x y"), "-x-y")
        XCTAssertEqual(OutputNames.anchor("Chapter 2 (working title)"), "chapter-2-working-title")
    }
}

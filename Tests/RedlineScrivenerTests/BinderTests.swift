import XCTest
@testable import RedlineScrivener
import Redline
import RedlineCore

final class BinderTests: XCTestCase {
    func testScrivener3BinderItemsAndSettings() throws {
        let d = Diagnostics()
        let p = try ScrivenerProject(path: Fixtures.lighthouse, diagnostics: d)
        XCTAssertEqual(p.binder.format, .scrivener3)
        XCTAssertEqual(p.name, "Lighthouse")
        XCTAssertEqual(p.binder.items.map(\.kind), [.draftFolder, .researchFolder, .trashFolder])
        XCTAssertEqual(p.binder.draft?.title, "The Lighthouse")
        let s = p.binder.settings
        XCTAssertEqual(s.labels["2"], "Scene")
        XCTAssertEqual(s.statuses["3"], "Revised Draft")
        XCTAssertEqual(s.keywords["2"], "keeper", "nested keywords are found")
        XCTAssertEqual(s.customFields.map(\.title), ["POV", "Setting"])
        XCTAssertEqual(s.customFields[1].options["1"], "Tower")

        var arrival: BinderItem?
        p.binder.draft?.walk { item, _ in if item.title == "Arrival" { arrival = item } }
        let a = try XCTUnwrap(arrival)
        XCTAssertEqual(a.id, "8A5C2E10-3B7D-4F21-9E6A-0C1D2E3F4A04")
        XCTAssertTrue(a.includeInCompile)
        XCTAssertEqual(a.labelID, "2")
        XCTAssertEqual(a.keywordIDs, ["1", "2"])
        XCTAssertEqual(a.customMetadata, [CustomMetadataValue(fieldID: "pov", value: "Anna"),
                                          CustomMetadataValue(fieldID: "setting", value: "1")])
        XCTAssertTrue(d.all.isEmpty, "\(d.all)")
    }

    func testManuscriptOrderSkipsExcludedKeepsFoldersOfIncludedChildren() throws {
        let d = Diagnostics()
        let p = try ScrivenerProject(path: Fixtures.lighthouse, diagnostics: d)
        var order: [String] = []
        for n in p.manuscript(diagnostics: d) {
            n.forEach { order.append("\($0.depth):\($0.item.title)\($0.included ? "" : " (place only)")") }
        }
        XCTAssertEqual(order, [
            "1:Part One", "2:Chapter 1: Landfall", "3:Arrival", "3:The Keeper",
            "2:Chapter 2 (working title) (place only)", "3:Storm",
            "1:Part Two", "2:Chapter 3", "3:Down", "4:Further down", "5:The cellar", "6:The well", "7:The bottom",
            "1:Epilogue",
        ])
        XCTAssertEqual(d.count(of: .scrivenerExcluded), 2, "Cut scene and Chapter 2")
    }

    func testScrivener2BinderByIDs() throws {
        let d = Diagnostics()
        let p = try ScrivenerProject(path: Fixtures.garden, diagnostics: d)
        XCTAssertEqual(p.binder.format, .scrivener2)
        var order: [String] = []
        for n in p.manuscript(diagnostics: d) { n.forEach { order.append($0.item.id + ":" + $0.item.title) } }
        XCTAssertEqual(order, ["3:The Garden", "4:The gate", "5:Dusk"])
        XCTAssertEqual(p.binder.settings.keywords["0"], "roses", "Scrivener 2 keyword names are the element's text")
        let gate = p.manuscript(diagnostics: d)[0].children[0].item
        XCTAssertEqual(p.relativePath(of: .text, for: gate, diagnostics: d), "Files/Docs/4.rtf")
        XCTAssertEqual(p.relativePath(of: .notes, for: gate, diagnostics: d), "Files/Docs/4_notes.rtf")
        XCTAssertEqual(p.relativePath(of: .comments, for: gate, diagnostics: d), "Files/Docs/4.comments")
        XCTAssertNotNil(p.path(of: .synopsis, for: gate, diagnostics: d))
    }

    func testCommentsFile() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Comments><Comment ID="A-1" Footnote="Yes" Color="1 1 0"><![CDATA[{\\rtf1 note}]]></Comment>
        <Comment ID="B-2" Color="1 1 0"><![CDATA[{\\rtf1 <b>not markup</b> & more}]]></Comment><Comment><![CDATA[x]]></Comment></Comments>
        """
        let c = try CommentsFile.read(Array(xml.utf8))
        XCTAssertEqual(c, [ScrivenerComment(id: "A-1", isFootnote: true, rtf: "{\\rtf1 note}"),
                           ScrivenerComment(id: "B-2", isFootnote: false, rtf: "{\\rtf1 <b>not markup</b> & more}")])
    }
}

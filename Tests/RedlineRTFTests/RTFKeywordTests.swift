import XCTest
@testable import RedlineRTF
import RedlineCore

/// The control-word table: every word the reader knows is in exactly one group and found by its name.
final class RTFKeywordTests: XCTestCase {
    func testEveryKnownWordIsListedOnceAndFound() {
        let names = RTFKeyword.all.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "a control word is in two groups")
        // 280 before issues 31 and 32; + 1 (`\rltrmarked`, a row whose change is in its cells' text) and + 28 section
        // and page words (34 in the group, which took `\sectd` from the ignored ones and had 5); + 1 (`\shptxt`,
        // a text box's text); + 2 of Redline's own destinations (`\redlineattr`, a heading's pandoc attributes;
        // `\redlineinline`, Markdown's inline note).
        XCTAssertEqual(names.count, 320)
        for (name, keyword) in RTFKeyword.all {
            XCTAssertEqual(RTFKeyword.table[RTFWordKey(name)], keyword, name)
        }
        XCTAssertNil(RTFKeyword.table[RTFWordKey("notaword")])
    }

    func testGroupsOfSomeWords() {
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("emdash")], .special(0x2014))
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("tab")], .special(9))
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("footer")], .headerFooter(.footer, .default))
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("headerf")], .headerFooter(.header, .first))
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("sectd")], .section(.sectd))
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("bkmkstart")], .skipDestination)
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("chftn")], .ignored)
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("b")], .character(.b))
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("sn")], .picture(.sn))
        XCTAssertEqual(RTFKeyword.table[RTFWordKey("lndscpsxn")], .section(.lndscpsxn))
    }
}

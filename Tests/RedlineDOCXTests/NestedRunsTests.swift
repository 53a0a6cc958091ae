@testable import RedlineDOCX
import RedlineCore
import XCTest

/// The DOCX writer's runs for a paragraph: a soft break is a space, and adjacent text of the same
/// formatting and changes is one run, grown in place (a paragraph of 200,000 soft-broken lines took 4.9 s
/// when each merge copied the text so far; `hostile` shapes in PERFORMANCE.md).
final class NestedRunsTests: XCTestCase {
    func testSoftBreaksAndSameFormatTextBecomeOneRun() {
        let lines = 20_000
        var inlines: [Inline] = []
        for k in 0..<lines {
            inlines.append(.text("line\(k)"))
            inlines.append(.softBreak)
        }
        inlines.append(.strong([.text("bold")]))
        let runs = inlines.nestedRuns
        XCTAssertEqual(runs.count, 2)
        XCTAssertEqual(runs.first?.run.content, .text((0..<lines).map { "line\($0) " }.joined()))
        XCTAssertEqual(runs.last?.run.content, .text("bold"))
        XCTAssertEqual(runs.last?.run.format.bold, true)
    }

    /// Text under other changes stays apart: an insertion's text is not merged into the plain text before it.
    func testTextUnderAnotherChangeIsItsOwnRun() {
        let ann = Change(author: "Ann")
        let runs = ([.text("a"), .insertion(ann, [.text("b"), .text("c")]), .text("d")] as [Inline]).nestedRuns
        XCTAssertEqual(runs.map(\.run.content), [.text("a"), .text("bc"), .text("d")])
        XCTAssertEqual(runs.map(\.changes.count), [0, 1, 0])
    }
}

@testable import RedlineDOCX
import RedlineCore
import XCTest

/// The reader's fast run nesting gives exactly what `InlineBuilder` gives, on random runs.
final class RunNestingTests: XCTestCase {
    func testMatchesInlineBuilderOnRandomRuns() {
        var rng = SystemRandomNumberGenerator()
        let changes: [RunChange?] = [nil, .insertion(Change(author: "A")), .deletion(Change(author: "B")),
                                     .insertion(Change(author: "B")), .deletion(Change(author: "A", date: "d")),
                                     .move(Move(change: Change(), name: "m", side: .to))]
        let contents: [Run.Content] = [.text("a"), .text("b "), .text(""), .lineBreak, .atom(.commentStart("1")),
                                       .atom(.noteReference("fn1")), .atom(.deletion(Change(author: "C"), [.text("x")])),
                                       .atom(.insertion(Change(author: "C"), [.text("y")]))]
        let formats: [TextFormat] = [TextFormat(), TextFormat(bold: true), TextFormat(italic: true), TextFormat(highlight: true),
                                     TextFormat(superscript: true), TextFormat(bold: true, italic: true),
                                     TextFormat(style: CharacterStyle(fontSize: 9)), TextFormat(code: true)]
        for trial in 0..<3000 {
            let n = Int.random(in: 0...8, using: &rng)
            var runs: [Run] = []
            for _ in 0..<n {
                var r = Run(contents.randomElement(using: &rng)!, format: formats.randomElement(using: &rng)!,
                            change: changes.randomElement(using: &rng)!)
                if Int.random(in: 0..<12, using: &rng) == 0 { r.link = Link(url: "u") }
                runs.append(r)
            }
            XCTAssertEqual(RunNesting.inlines(from: runs), InlineBuilder.inlines(from: runs), "trial \(trial): \(runs)")
            XCTAssertEqual(RunNesting.paragraphInlines(from: runs), InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: runs)),
                           "trial \(trial): \(runs)")
        }
    }
}

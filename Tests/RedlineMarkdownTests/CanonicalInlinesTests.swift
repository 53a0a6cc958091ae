import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// `canonicalInlines` merges adjacent text runs in place (compared by index, moved down by swapping;
/// PERFORMANCE.md, "Small runs"): the result is what merging copies of the runs and nesting them gives.
final class CanonicalInlinesTests: XCTestCase {
    private static let ann = Change(author: "Ann", date: "2024-01-01T00:00:00Z")
    private static let bob = Change(author: "Bob")

    /// Random runs over a few looks, links, changes and atoms, so that merges, non-merges and pairs occur.
    private static func randomRuns(_ count: Int, _ rng: inout some RandomNumberGenerator) -> [Run] {
        let formats = [TextFormat(), TextFormat(bold: true), TextFormat(italic: true), TextFormat(code: true),
                       TextFormat(style: CharacterStyle(fontSize: 14))]
        let links: [Link?] = [nil, nil, Link(url: "https://a.example")]
        let changes: [RunChange?] = [nil, nil, .insertion(ann), .deletion(ann), .deletion(bob)]
        let formatChanges: [FormatChange?] = [nil, nil, nil, FormatChange(change: ann, old: TextFormat(bold: true))]
        return (0..<count).map { k in
            let content: Run.Content
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: content = .lineBreak
            case 1: content = .atom(.softBreak)
            case 2: content = .text("")
            default: content = .text(["a", "b ", " c", "dé"][Int.random(in: 0..<4, using: &rng)] + "\(k)")
            }
            return Run(content, format: formats.randomElement(using: &rng)!, link: links.randomElement(using: &rng)!,
                       change: changes.randomElement(using: &rng)!, formatChange: formatChanges.randomElement(using: &rng)!)
        }
    }

    /// The reference: merge copies, then nest and pair as `canonicalInlines` does.
    private static func reference(_ runs: [Run]) -> [Inline] {
        var merged: [Run] = []
        for r in runs {
            if case .text(let b) = r.content, let last = merged.last, case .text(let a) = last.content,
               last.format == r.format, last.link == r.link, last.change == r.change, last.formatChange == r.formatChange {
                merged[merged.count - 1].content = .text(a + b)
            } else {
                merged.append(r)
            }
        }
        if merged.allSatisfy({ $0.format.isPlain && $0.link == nil && $0.change == nil && $0.formatChange == nil }) {
            return merged.compactMap { r -> Inline? in
                switch r.content {
                case .text(let t): return t.isEmpty ? nil : .text(t)
                case .lineBreak: return .lineBreak
                case .atom(let a): return a
                }
            }
        }
        let hasDeletion = merged.contains { if case .deletion? = $0.change { return true } else { return false } }
        let inlines = InlineBuilder.inlines(from: merged)
        return hasDeletion ? pairSubstitutions(inlines) : inlines
    }

    func testInPlaceMergeEqualsMergingCopies() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let runs = Self.randomRuns(Int.random(in: 0..<40, using: &rng), &rng)
            XCTAssertEqual(canonicalInlines(runs), Self.reference(runs), "round \(round): \(runs)")
        }
        // Plain text only, which takes the flat path.
        let plain = (0..<50).map { Run.text("w\($0) ") }
        XCTAssertEqual(canonicalInlines(plain), Self.reference(plain))
    }

    func testHasSameExtrasIsEqualityOfLinkChangeAndFormatChange() {
        var rng = SystemRandomNumberGenerator()
        let runs = Self.randomRuns(60, &rng)
        for a in runs {
            for b in runs {
                XCTAssertEqual(a.hasSameExtras(as: b), a.link == b.link && a.change == b.change && a.formatChange == b.formatChange)
            }
        }
    }
}

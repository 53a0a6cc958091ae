import XCTest
@testable import RedlineCore

/// `InlineBuilder` builds in one pass, merging text as it goes; these tests hold it to the plain definition
/// (group, nest, then normalize and pair the whole result) on random runs.
final class InlineBuilderReferenceTests: XCTestCase {
    func testInlinesMatchTheReferenceOnRandomRuns() {
        var rng = SystemRandomNumberGenerator()
        let ann = Change(author: "Ann", date: "d1"), bob = Change(author: "Bob", date: "d1")
        let changes: [RunChange?] = [nil, nil, .insertion(ann), .deletion(ann), .insertion(bob), .deletion(Change(author: "Ann")),
                                     .move(Move(change: Change(), name: "m", side: .to))]
        let contents: [Run.Content] = [
            .text("a"), .text("b "), .text(""), .lineBreak, .atom(.commentStart("1")), .atom(.noteReference("n")),
            .atom(.text("t")), .atom(.text("")), .atom(.code("k")), .atom(.softBreak),
            .atom(.strong([.text("x"), .text("y"), .text("")])),
            .atom(.deletion(ann, [.text("old")])), .atom(.insertion(ann, [.text("new"), .text("er")])),
        ]
        let styles = [CharacterStyle(), CharacterStyle(fontSize: 9), CharacterStyle(name: "Quote")]
        let links: [Link?] = [nil, nil, nil, Link(url: "u"), Link(url: "v")]
        let formatChanges: [FormatChange?] = [nil, nil, nil, FormatChange(change: ann, old: TextFormat())]
        for trial in 0..<4000 {
            var runs: [Run] = []
            for _ in 0..<Int.random(in: 0...10, using: &rng) {
                var f = TextFormat(style: styles.randomElement(using: &rng)!)
                f.bold = Bool.random(using: &rng)
                f.italic = Int.random(in: 0..<3, using: &rng) == 0
                f.underline = Int.random(in: 0..<6, using: &rng) == 0
                f.strikethrough = Int.random(in: 0..<8, using: &rng) == 0
                f.smallCaps = Int.random(in: 0..<8, using: &rng) == 0
                f.superscript = Int.random(in: 0..<8, using: &rng) == 0
                f.subscript = Int.random(in: 0..<8, using: &rng) == 0
                f.highlight = Int.random(in: 0..<8, using: &rng) == 0
                f.code = Int.random(in: 0..<5, using: &rng) == 0
                runs.append(Run(contents.randomElement(using: &rng)!, format: f, link: links.randomElement(using: &rng)!,
                                change: changes.randomElement(using: &rng)!,
                                formatChange: formatChanges.randomElement(using: &rng)!))
            }
            let built = InlineBuilder.inlines(from: runs)
            XCTAssertEqual(built, Reference.inlines(from: runs), "trial \(trial): \(runs)")
            XCTAssertEqual(InlineBuilder.pairingSubstitutions(built), Reference.pairingSubstitutions(built), "trial \(trial)")
            let nested: [Inline] = [.emphasis(built), .deletion(ann, [.text("a")])] + built + [.substitution(bob, deleted: built, inserted: built)]
            XCTAssertEqual(InlineBuilder.pairingSubstitutions(nested), Reference.pairingSubstitutions(nested), "trial \(trial)")
            XCTAssertEqual(InlineBuilder.normalized(nested), Reference.normalized(nested), "trial \(trial)")
        }
    }
}

/// The plain definition of `InlineBuilder`: build each level's array, splice or wrap it, then normalize.
private enum Reference {
    static func inlines(from runs: [Run]) -> [Inline] {
        var out: [Inline] = []
        var i = 0
        while i < runs.count {
            let key = runs[i].change
            var j = i + 1
            while j < runs.count && runs[j].change == key { j += 1 }
            let inner = group(runs[i..<j], by: \.link) { link, part in
                let inner = group(part, by: \.formatChange) { fc, part in
                    let inner = formatted(part, level: 0)
                    return fc.map { [.formatChange($0, inner)] } ?? inner
                }
                return link.map { [.link($0, inner)] } ?? inner
            }
            switch key {
            case nil: out += inner
            case .insertion(let c)?: out.append(.insertion(c, inner))
            case .deletion(let c)?: out.append(.deletion(c, inner))
            case .move(let m)?: out.append(.move(m, inner))
            }
            i = j
        }
        return normalized(out)
    }

    static func group<K: Equatable>(_ runs: ArraySlice<Run>, by key: (Run) -> K,
                                    _ make: (K, ArraySlice<Run>) -> [Inline]) -> [Inline] {
        var out: [Inline] = []
        var i = runs.startIndex
        while i < runs.endIndex {
            let k = key(runs[i])
            var j = i + 1
            while j < runs.endIndex && key(runs[j]) == k { j += 1 }
            out += make(k, runs[i..<j])
            i = j
        }
        return out
    }

    static var toggles: [(WritableKeyPath<TextFormat, Bool>, ([Inline]) -> Inline)] {
        [
            (\.bold, Inline.strong), (\.italic, Inline.emphasis), (\.underline, Inline.underline),
            (\.strikethrough, Inline.strikethrough), (\.smallCaps, Inline.smallCaps), (\.superscript, Inline.superscript),
            (\.subscript, Inline.subscript), (\.highlight, Inline.highlight),
        ]
    }

    static func formatted(_ runs: ArraySlice<Run>, level: Int) -> [Inline] {
        if level == 0 {
            return group(runs, by: \.format.style) { s, part in
                let built = formatted(part, level: 1)
                return s == CharacterStyle() ? built : [.styled(s, built)]
            }
        }
        if level > toggles.count {
            return runs.map { run in
                switch run.content {
                case .text(let s): return run.format.code ? .code(s) : .text(s)
                case .lineBreak: return .lineBreak
                case .atom(let a): return a
                }
            }
        }
        let (path, wrap) = toggles[level - 1]
        return group(runs, by: { $0.format[keyPath: path] }) { on, part in
            let built = formatted(part, level: level + 1)
            return on ? [wrap(built)] : built
        }
    }

    static func normalized(_ inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        for inline in inlines {
            let n = inline.mapChildren(normalized)
            switch (out.last, n) {
            case (.text(let a)?, .text(let b)): out[out.count - 1] = .text(a + b)
            case (.code(let a)?, .code(let b)): out[out.count - 1] = .code(a + b)
            case (_, .text(let s)) where s.isEmpty: break
            default: out.append(n)
            }
        }
        return out
    }

    static func pairingSubstitutions(_ inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        for inline in inlines.map({ $0.mapChildren(pairingSubstitutions) }) {
            if let last = out.last {
                switch (last, inline) {
                case (.deletion(let a, let d), .insertion(let b, let i)) where a.author == b.author && a.date == b.date:
                    out[out.count - 1] = .substitution(a, deleted: d, inserted: i)
                    continue
                default: break
                }
            }
            out.append(inline)
        }
        return out
    }
}

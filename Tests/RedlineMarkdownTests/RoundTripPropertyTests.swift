import Foundation
import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// read(write(doc)) == doc for generated documents: every block and inline kind, review marks, comment
/// ranges (crossing paragraphs, overlapping), points, threads, notes, metadata, and text full of
/// Markdown, GFM and CriticMarkup syntax characters. Seeds are fixed; a failure prints its seed, and
/// REDLINE_SEED=<n> replays one.
final class RoundTripPropertyTests: XCTestCase {
    static let runs = 1_000

    func testMarkdownRoundTrip() throws {
        try run(formatting: false, base: 0x5EED_0000)
    }

    func testMarkdownRoundTripWithFormatting() throws {
        try run(formatting: true, base: 0xF0F0_0000)
    }

    private func run(formatting: Bool, base: UInt64) throws {
        var seeds = (0..<UInt64(Self.runs)).map { base + $0 }
        if let s = ProcessInfo.processInfo.environment["REDLINE_SEED"], let v = UInt64(s) { seeds = [v] }
        var failures = 0
        for seed in seeds {
            var g = DocumentGenerator(seed: seed, formatting: formatting)
            let doc = g.document()
            var options = WriteOptions()
            options.preserveFormatting = formatting
            let md = try MarkdownWriter.string(doc, options: options)
            if let at = Self.emptySpanHoldingNothing(md) {
                failures += 1
                XCTFail("seed \(seed): an empty span that separates nothing: …\(at)…")
            }
            let back = try MarkdownReader.document(md)
            if back != doc {
                if let path = ProcessInfo.processInfo.environment["REDLINE_DUMP"] {
                    var da = "", db = ""
                    dump(doc, to: &da)
                    dump(back, to: &db)
                    try? da.write(toFile: path + ".expected", atomically: true, encoding: .utf8)
                    try? db.write(toFile: path + ".got", atomically: true, encoding: .utf8)
                    try? md.write(toFile: path + ".md", atomically: true, encoding: .utf8)
                }
                failures += 1
                if failures <= 3 {
                    XCTFail("seed \(seed) (REDLINE_SEED=\(seed)): read(write(doc)) != doc\n--- markdown ---\n\(md)\n--- diff ---\n\(Self.diff(doc, back))")
                }
            } else {
                let again = try MarkdownWriter.string(back, options: options)
                XCTAssertEqual(again, md, "seed \(seed): writing is not stable")
            }
        }
        XCTAssertEqual(failures, 0, "\(failures) of \(seeds.count) documents did not round-trip")
    }

    /// Where `md` holds an empty span `[]{}` that is not a separator (before a comment that is not about
    /// the highlight or comment before it, `[]{}{>>`, or before an HTML tag that would otherwise open an
    /// HTML block, `[]{}<`): an empty paragraph, an empty list item or a heading written as `[]{}`.
    static func emptySpanHoldingNothing(_ md: String) -> Substring? {
        var rest = md[...]
        while let r = rest.range(of: "[]{}") {
            let after = md[r.upperBound...]
            if !after.hasPrefix("{>>") && !after.hasPrefix("<") {
                return md[md.index(r.lowerBound, offsetBy: -min(40, md.distance(from: md.startIndex, to: r.lowerBound)))..<md.index(r.upperBound, offsetBy: min(20, after.count))]
            }
            rest = after
        }
        return nil
    }

    /// The shapes that were written with an empty span: an empty list item, an empty first paragraph of
    /// an item before a nested list, an empty paragraph with an inserted or deleted break (first, after
    /// another changed break, last), after a changed break, with a style change, an empty heading with a
    /// changed break. Each reads back as written, and no `[]{}` is written.
    func testEmptyParagraphsAndItemsWithoutEmptySpans() throws {
        let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z"), bob = Change(author: "Bob")
        func para(_ t: String, _ m: ParagraphMarkChange? = nil) -> Block { .paragraph(Paragraph(t.isEmpty ? [] : [.text(t)], markChange: m)) }
        let item = List(kind: .ordered(start: 1, delimiter: "."), tight: true, items: [[para("a")], [para("")], [para("b")]])
        let nested = List(kind: .bullet, tight: true, items: [[para(""), .list(List(kind: .bullet, tight: true, items: [[para("x")], [para("")]]))]])
        let cases: [(blocks: [Block], markdown: String)] = [
            ([.list(item)], "1. a\n2.\n3. b\n"),
            ([.list(nested)], "-\n  - x\n  -\n"),
            ([para("A"), para("", .inserted(ann)), para("B")], "A\n\n{++\n\n++}{>>@Ann (2024-01-15T14:30:00Z)<<}B\n"),
            ([para("", .deleted(bob)), para("B")], "{--\n\n--}{>>@Bob<<}B\n"),
            ([para("A", .inserted(ann)), para(""), para("B")],
             "A{++\n\n++}{>>@Ann (2024-01-15T14:30:00Z)<<}\n\nB\n"),
            ([para("A", .inserted(ann)), para("", .deleted(bob)), para("B")],
             "A{++\n\n++}{>>@Ann (2024-01-15T14:30:00Z)<<}{--\n\n--}{>>@Bob<<}B\n"),
            ([.paragraph(Paragraph([.insertion(bob, [.text("A")])], markChange: .inserted(bob))), para(""), para("B")],
             "{++A\n\n++}{>>@Bob<<}\n\nB\n"),
            ([para("A"), .heading(level: 2, Paragraph([], markChange: .inserted(ann))), para("B")],
             "A\n\n## {++\n\n++}{>>@Ann (2024-01-15T14:30:00Z)<<}B\n"),
            ([.paragraph(Paragraph([], styleChange: ParagraphStyleChange(change: bob, old: ParagraphStyle(alignment: .center))))],
             "{>>@Bob [style-change align=center]<<}\n"),
        ]
        // An empty first item right under an item's text would be that text (`1.`) or its heading underline
        // (`-`): the outer list is written loose (seed 0x5EED0028).
        let underText = List(kind: .bullet, tight: false, items: [[para("a"), .list(List(kind: .bullet, tight: true, items: [[para("")], [para("b")]]))]])
        let d = Diagnostics()
        var tight = underText
        tight.tight = true
        XCTAssertEqual(try MarkdownWriter.string(Document(blocks: [.list(tight)]), diagnostics: d), "- a\n\n  -\n  - b\n")
        XCTAssertEqual(d.count(of: .lossyListSpacing), 1)
        XCTAssertEqual(try MarkdownReader.document("- a\n\n  -\n  - b\n"), Document(blocks: [.list(underText)]))
        // In a comment body a change cannot stay open over a break to hold an empty paragraph after a paragraph
        // that is that change as a whole: the empty paragraph is left out, with lossy.empty-paragraph.
        let whole = Paragraph([.insertion(bob, [.text("x")])], markChange: .inserted(bob))
        let comment = Comment(id: "1", author: "Ann", body: [.paragraph(whole), para(""), para("y")])
        let cd = Diagnostics()
        let commented = try MarkdownWriter.string(Document(blocks: [.paragraph(Paragraph([.text("t"), .commentPoint("1")]))], comments: [comment]), diagnostics: cd)
        XCTAssertEqual(cd.count(of: .lossyEmptyParagraph), 1, commented)
        XCTAssertNil(Self.emptySpanHoldingNothing(commented), commented)
        // With --keep-formatting: an empty styled paragraph is a div around nothing; in a list item with a
        // changed break, its opener is first on its line (spaces after block syntax are no text there).
        var keep = WriteOptions()
        keep.preserveFormatting = true
        let centered = ParagraphStyle(alignment: .center)
        for (blocks, expected) in [
            ([.paragraph(Paragraph([], style: centered))], "::: {align=center}\n:::\n"),
            ([.list(List(kind: .bullet, tight: false, items: [[.paragraph(Paragraph([], style: centered, markChange: .inserted(bob))), para("next")]]))],
             "- ::: {align=center}\n  {++\n  :::\n\n  ++}{>>@Bob<<}next\n"),
        ] as [([Block], String)] {
            let md = try MarkdownWriter.string(Document(blocks: blocks), options: keep)
            XCTAssertEqual(md, expected)
            XCTAssertEqual(try MarkdownReader.document(md), Document(blocks: blocks), md)
        }
        for (blocks, expected) in cases {
            let doc = Document(blocks: blocks)
            let md = try MarkdownWriter.string(doc)
            XCTAssertEqual(md, expected)
            XCTAssertEqual(try MarkdownReader.document(md), doc, md)
        }
    }

    /// The first differing lines of the two documents' dumps.
    static func diff(_ a: Document, _ b: Document) -> String {
        var da = "", db = ""
        dump(a, to: &da)
        dump(b, to: &db)
        let la = da.split(separator: "\n"), lb = db.split(separator: "\n")
        var out: [String] = []
        for k in 0..<max(la.count, lb.count) where (k < la.count ? la[k] : "") != (k < lb.count ? lb[k] : "") {
            out.append("line \(k): expected \(k < la.count ? la[k] : "-")\n         got      \(k < lb.count ? lb[k] : "-")")
            if out.count >= 6 { break }
        }
        return out.joined(separator: "\n")
    }
}

import XCTest
import Foundation
import Redline
import RedlineMarkdown
import RedlineZip

/// `redline combine ORIGINAL COPY…`: every reviewer's changes in ORIGINAL's own file. Rejecting everything gives
/// ORIGINAL; accepting one reviewer's changes and rejecting the rest gives that reviewer's copy; accepting
/// everything gives every edit made.
final class CombineTests: XCTestCase {
    var tmp = ""

    override func setUpWithError() throws {
        tmp = NSTemporaryDirectory() + "redline-combine-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: tmp) }

    func write(_ text: String, _ name: String) throws -> String {
        let path = tmp + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func combined(_ original: String, _ copies: [String], prefer: String? = nil) throws -> (String, CombineResult) {
        var o = CombineOptions()
        o.prefer = prefer
        o.date = "2026-01-02T00:00:00Z"
        let out = MemoryOutput()
        let r = try Combination.combine(original: original, copies: copies, options: o, into: out, diagnostics: Diagnostics())
        return (out.string, r)
    }

    /// CriticMarkup resolved as text for one reviewer: their marks accepted, everyone else's rejected (a mark's
    /// reviewer is the `{>>@Name …<<}` right after it); comments dropped.
    static func resolved(_ s: String, acceptingOnly author: String?) -> String {
        CriticMarkupText.resolve(s) { $0 == author }
    }

    func testConflictKeepsThePreferredChangeAndListsItOnce() throws {
        let original = try write("One sentence here. Another sentence there.\n\nA second paragraph.\n", "paper.md")
        let alice = try write("One sentence here. Another sentence everywhere.\n\nA second paragraph.\n", "alice.md")
        let bob = try write("One sentence here. Another sentence nowhere.\n\nA revised paragraph.\n", "bob.md")
        let (out, r) = try combined(original, [alice, bob])
        XCTAssertEqual(r.conflicts.count, 1, "\(r.conflicts)")
        XCTAssertEqual(r.conflicts.first?.kept, "alice")
        XCTAssertEqual(r.conflicts.first?.otherText, "nowhere")
        XCTAssertTrue(out.contains("{~~there~>everywhere~~}{>>@alice"), out)
        XCTAssertTrue(out.contains("Conflict with alice: proposed to replace “there” with “nowhere”"), out)
        XCTAssertTrue(out.contains("{~~second~>revised~~}{>>@bob"), out)
        let (preferred, _) = try combined(original, [alice, bob], prefer: "bob")
        XCTAssertTrue(preferred.contains("{~~there~>nowhere~~}{>>@bob"), preferred)
        XCTAssertEqual(Self.resolved(out, acceptingOnly: nil), try String(contentsOfFile: original, encoding: .utf8))
    }

    /// A paragraph one reviewer deleted and another edited (or joined with the next): the deletion is kept and
    /// the other change is a comment on the deleted text, never lost; `redline changes` lists it as a conflict.
    func testEditsToADeletedParagraphSurviveAsConflictComments() throws {
        let original = try write("Alpha beta gamma.\n\nDelta epsilon.\n\nZeta eta.\n", "o.md")
        let ann = try write("Delta epsilon.\n\nZeta eta.\n", "ann.md")
        let bob = try write("Alpha BETA gamma.\n\nDelta epsilon.\n\nZeta eta.\n", "bob.md")
        let (out, r) = try combined(original, [ann, bob])
        XCTAssertEqual(r.conflicts.count, 1)
        XCTAssertEqual(r.reviewers.map(\.conflicts), [1, 1])
        XCTAssertTrue(out.contains("{--Alpha beta gamma.--}"), out)
        XCTAssertTrue(out.contains("@bob") && out.contains("Conflict with ann: proposed to replace “beta” with “BETA”."), out)
        XCTAssertEqual(Self.resolved(out, acceptingOnly: nil), try String(contentsOfFile: original, encoding: .utf8))
        // Through Word: the conflict comment is listed as such.
        for (name, path) in [("o", original), ("ann", ann), ("bob", bob)] {
            try Converter.convert(.file(path), toFile: tmp + "/\(name).docx",
                                  options: ConversionOptions(from: FormatRegistry.markdown, to: FormatRegistry.docx, changes: .marked),
                                  diagnostics: Diagnostics())
        }
        var o = CombineOptions()
        o.reviewerOf = [tmp + "/ann.docx": "ann", tmp + "/bob.docx": "bob"]
        _ = try Combination.combine(original: tmp + "/o.docx", copies: [tmp + "/ann.docx", tmp + "/bob.docx"], options: o,
                                    toFile: tmp + "/out.docx", diagnostics: Diagnostics())
        let rows = try ChangeListing.rows(.file(tmp + "/out.docx"), format: FormatRegistry.docx)
        XCTAssertEqual(rows.filter { $0.change == "conflict" }.map(\.author), ["bob"], "\(rows)")
        XCTAssertTrue(rows.contains { $0.change == "deletion" && $0.author == "ann" && $0.before == "Alpha beta gamma." }, "\(rows)")
    }

    /// `path` (Markdown) as a DOCX whose core properties say `editor` saved it last.
    func docx(_ path: String, savedBy editor: String?, _ name: String) throws -> String {
        let plain = tmp + "/plain-" + name
        try Converter.convert(.file(path), toFile: plain,
                              options: ConversionOptions(from: FormatRegistry.markdown, to: FormatRegistry.docx, changes: .marked),
                              diagnostics: Diagnostics())
        let zip = try ZipArchive(path: plain), out = try ZipWriter()
        for e in zip.entries where !e.isDirectory {
            var bytes = try zip.read(e)
            if e.name == "docProps/core.xml", let editor {
                let xml = String(decoding: bytes, as: UTF8.self)
                    .replacingOccurrences(of: "</cp:coreProperties>", with: "<cp:lastModifiedBy>\(editor)</cp:lastModifiedBy></cp:coreProperties>")
                bytes = Array(xml.utf8)
            }
            try out.add(e.name, bytes: bytes)
        }
        var data = Data()
        try out.finish { data.append(contentsOf: $0) }
        try data.write(to: URL(fileURLWithPath: tmp + "/" + name))
        return tmp + "/" + name
    }

    /// Untracked edits in a Word copy are attributed to whoever last saved it (its core properties), unless named:
    /// in `combine` (two copies saved by the same person fall back to their file names) and in `apply`.
    func testCopiesAreAttributedToWhoLastSavedThem() throws {
        let md = try write("Alpha beta gamma.\n\nDelta epsilon.\n", "o.md")
        let a = try docx(try write("Alpha BETA gamma.\n\nDelta epsilon.\n", "a.md"), savedBy: "Ann Smith", "a.docx")
        let b = try docx(try write("Alpha beta gamma.\n\nDelta EPSILON.\n", "b.md"), savedBy: "Bob Jones", "b.docx")
        let c = try docx(try write("Alpha beta gamma.\n\nDelta epsilon zeta.\n", "c.md"), savedBy: nil, "c.docx")
        XCTAssertEqual(Combination.reviewers(of: [a, b, c], options: CombineOptions()), ["Ann Smith", "Bob Jones", "c"])
        let a2 = try docx(try write("Alpha beta GAMMA.\n\nDelta epsilon.\n", "a2.md"), savedBy: "Ann Smith", "a2.docx")
        XCTAssertEqual(Combination.reviewers(of: [a, a2], options: CombineOptions()), ["a", "a2"])
        var named = CombineOptions()
        named.reviewerOf[a] = "Editor"
        XCTAssertEqual(Combination.reviewers(of: [a, b], options: named), ["Editor", "Bob Jones"])
        let (out, _) = try combined(md, [a, b])
        XCTAssertTrue(out.contains("{~~beta~>BETA~~}{>>@Ann Smith"), out)
        XCTAssertTrue(out.contains("{~~epsilon~>EPSILON~~}{>>@Bob Jones"), out)
        var options = ApplyOptions(compare: CompareOptions(author: "Fallback"))
        options.authorFromEdited = true
        let applied = MemoryOutput(), fallback = MemoryOutput()
        _ = try Application.apply(edited: a, onto: md, options: options, into: applied, diagnostics: Diagnostics())
        XCTAssertTrue(applied.string.contains("@Ann Smith"), applied.string)
        _ = try Application.apply(edited: c, onto: md, options: options, into: fallback, diagnostics: Diagnostics())
        XCTAssertTrue(fallback.string.contains("@Fallback"), fallback.string)
    }

    func testTheSameChangeByTwoReviewersIsWrittenOnce() throws {
        let original = try write("Alpha beta gamma.\n", "o.md")
        let a = try write("Alpha delta gamma.\n", "a.md"), b = try write("Alpha delta gamma.\n", "b.md")
        let (out, r) = try combined(original, [a, b])
        XCTAssertEqual(out.components(separatedBy: "~>delta").count, 2, out)
        XCTAssertEqual(r.reviewers.map(\.duplicates), [0, 1])
        XCTAssertTrue(r.conflicts.isEmpty)
    }

    func testAnUnrelatedCopyIsRefusedByName() throws {
        let original = try write("Alpha beta gamma delta epsilon.\n\nZeta eta theta.\n", "o.md")
        let a = try write("Alpha beta gamma delta epsilon!\n\nZeta eta theta.\n", "a.md")
        let other = try write("Completely different words about gardens.\n\nAnd bees, and honey, and summer.\n", "other.md")
        XCTAssertThrowsError(try combined(original, [a, other])) { e in XCTAssertTrue("\(e)".contains("other.md"), "\(e)") }
        var o = CombineOptions()
        o.skipUnrelated = true
        let r = try Combination.combine(original: original, copies: [a, other], options: o, into: MemoryOutput(),
                                        diagnostics: Diagnostics())
        XCTAssertEqual(r.skipped, [other])
    }

    /// 2–5 reviewers editing different words of generated documents: rejecting everything gives ORIGINAL's bytes,
    /// each reviewer's changes alone give their copy's text, all of them every edit.
    func testReviewersWithoutConflictsCompose() throws {
        var rng = SeededRandom(seed: SeededRandom.seed(default: 3434))
        let words = ["alpha", "beta", "gamma", "delta", "river", "stone", "light", "paper", "green", "north"]
        for round in 0..<25 {
            var paragraphs: [[String]] = []
            for _ in 0..<Int.random(in: 3...6, using: &rng) {
                paragraphs.append((0..<Int.random(in: 6...14, using: &rng)).map { _ in words.randomElement(using: &rng)! })
            }
            func source(_ ps: [[String]]) -> String { ps.map { $0.joined(separator: " ") + "." }.joined(separator: "\n\n") + "\n" }
            let original = try write(source(paragraphs), "o\(round).md")
            let reviewers = Int.random(in: 2...5, using: &rng)
            // Each reviewer edits words of their own paragraph, so no two edits meet.
            var all = paragraphs
            var copies: [String] = []
            var names: [String] = []
            for k in 0..<reviewers {
                var mine = paragraphs
                let p = k % paragraphs.count
                guard k < paragraphs.count else { break }
                let i = Int.random(in: 0..<mine[p].count, using: &rng)
                mine[p][i] += "x\(k)"
                all[p][i] += "x\(k)"
                names.append("rev\(k)")
                copies.append(try write(source(mine), "rev\(k).md"))
            }
            let (out, r) = try combined(original, copies)
            XCTAssertTrue(r.conflicts.isEmpty, "round \(round)")
            XCTAssertEqual(Self.resolved(out, acceptingOnly: nil), source(paragraphs), "round \(round): reject\n\(out)")
            for (k, name) in names.enumerated() {
                XCTAssertEqual(Self.resolved(out, acceptingOnly: name), try String(contentsOfFile: copies[k], encoding: .utf8),
                               "round \(round): \(name) alone\n\(out)")
            }
            XCTAssertEqual(ApplyMarkdownTests.resolvedAsText(out, accept: true), source(all), "round \(round): all\n\(out)")
        }
    }
}

import XCTest
import Foundation
import Redline
import RedlineZip
import RedlineTestSupport

/// `redline combine` on real Word files: every file of `../shared/corpus` with two or more tracked changes is
/// split into one copy per reviewer (per author where it has several, else its changes dealt out in turn), each
/// copy keeping its own changes tracked and the others rejected in place; the copies are combined onto the
/// file's rejected version. The result must be the file again: its reject view ORIGINAL's, its accept view the
/// file's, every part ORIGINAL holds outside the body and comments byte for byte.
final class CombineWordFilesTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-combine-word-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func reviewed(_ input: String, _ review: ReviewOptions, to output: String) throws {
        try Converter.convert(.file(input), toFile: output,
                              options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.docx, review: review),
                              diagnostics: Diagnostics())
    }

    /// The document as Markdown with its changes accepted or rejected.
    private func text(_ path: String, _ changes: ChangeMode) throws -> String {
        let out = dir + "/view-\(UUID().uuidString.prefix(8)).md"
        try Converter.convert(.file(path), toFile: out,
                              options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.markdown, changes: changes),
                              diagnostics: Diagnostics())
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    private func entries(_ path: String) throws -> [String: [UInt8]] { try zipEntries(path) }

    func testWordFilesSplitByReviewerCombineBack() throws {
        let root = RepositoryPaths.sharedCorpus
        guard let walk = FileManager.default.enumerator(atPath: root) else { throw XCTSkip("../shared/corpus is not there") }
        let files = walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".docx") }.sorted()
        var tried = 0, rejectExact = 0, acceptExact = 0, rowsBefore = 0, rowsAfter = 0
        var report: [String] = []
        for f in files {
            let path = root + "/" + f
            guard let rows = try? ChangeListing.rows(.file(path), format: FormatRegistry.docx) else { continue }
            let changes = rows.filter { $0.kind != .comment }
            guard changes.count >= 2 else { continue }
            let authors = Array(Set(changes.map { $0.author ?? "" })).sorted()
            let groups: [[ChangeRow]] = authors.count >= 2
                ? authors.map { a in changes.filter { ($0.author ?? "") == a } }
                : [stride(from: 0, to: changes.count, by: 2).map { changes[$0] },
                   stride(from: 1, to: changes.count, by: 2).map { changes[$0] }]
            let name = f.replacingOccurrences(of: "/", with: "-")
            let original = dir + "/\(name)-original.docx"
            try reviewed(path, ReviewOptions(changes: .reject), to: original)
            var copies: [String] = []
            var options = CombineOptions()
            for (i, _) in groups.enumerated() {
                let others = Set(groups.enumerated().filter { $0.offset != i }
                    .flatMap { $0.element.flatMap { $0.id.split(separator: ",").map(String.init) } })
                let copy = dir + "/\(name)-copy\(i).docx"
                try reviewed(path, ReviewOptions(reject: [ChangeFilter(ids: others)]), to: copy)
                copies.append(copy)
                options.reviewerOf[copy] = authors.count >= 2 ? (authors[i].isEmpty ? "Unknown" : authors[i]) : "Reviewer \(i + 1)"
            }
            let out = dir + "/\(name)-combined.docx"
            let result: CombineResult
            do {
                result = try Combination.combine(original: original, copies: copies, options: options, toFile: out,
                                                 diagnostics: Diagnostics())
            } catch {
                XCTFail("\(f): combine failed: \(error)")
                continue
            }
            tried += 1
            // Every part but the body, the comments' parts and the lists naming them: ORIGINAL's bytes.
            let o = try entries(original), r = try entries(out)
            for (part, bytes) in o where !part.hasPrefix("word/document") && !part.hasPrefix("word/comments")
                && part != "[Content_Types].xml" && part != "word/_rels/document.xml.rels" {
                XCTAssertEqual(r[part], bytes, "\(f): \(part) changed")
            }
            let rejected = try text(out, .reject) == text(path, .reject)
            let accepted = try text(out, .accept) == text(path, .accept)
            let after = try ChangeListing.rows(.file(out), format: FormatRegistry.docx).filter { $0.kind != .comment }.count
            if rejected { rejectExact += 1 }
            if accepted { acceptExact += 1 }
            rowsBefore += changes.count
            rowsAfter += after
            report.append("\(f): \(groups.count) copies, reject \(rejected ? "exact" : "differs"), accept \(accepted ? "exact" : "differs"), "
                          + "changes \(changes.count) → \(after), conflicts \(result.conflicts.count)")
        }
        if tried == 0 { throw XCTSkip("no Word file with tracked changes in ../shared/corpus") }
        print("combine, Word files split by reviewer: \(tried) files, reject exact \(rejectExact), accept exact \(acceptExact), "
              + "changes \(rowsBefore) → \(rowsAfter)\n  " + report.joined(separator: "\n  "))
        // Measured 2026-11-29: 9 files, reject exact 9, accept exact 6, changes 60 → 34 (before paragraph-property
        // steps: reject 7, accept 5, 60 → 45; RP022's numbering and Format revision's changes now land as they were).
        // What differs: changes made on top of another reviewer's (RP047: "Eric White" deletes inside "Test User"'s
        // insertion, so neither copy holds the other's layer), merged cells (RP036), and a split and a join of the
        // same paragraph dealt to different copies (a conflict, kept as a comment).
        XCTAssertGreaterThanOrEqual(rejectExact, tried, report.joined(separator: "\n"))
        XCTAssertGreaterThanOrEqual(acceptExact, tried - 3, report.joined(separator: "\n"))
    }

    /// Three copies of a corpus Word file, each its Markdown conversion with some text edited (two copies edit the
    /// same words differently: a conflict, kept as a comment), combined onto the Word file itself: every part but
    /// the body and the comments' parts (and the lists naming a new comments part) is ORIGINAL's bytes, every
    /// paragraph of the body no copy touched is ORIGINAL's bytes, the result is valid, and accepting it gives the
    /// copies' words, rejecting it ORIGINAL's text.
    func testCopiesCombineOntoAWordFileByteForByte() throws {
        let original = RepositoryPaths.sharedCorpus + "/pandoc/block_quotes.docx"
        guard FileManager.default.fileExists(atPath: original) else { throw XCTSkip("../shared/corpus is not there") }
        let md = dir + "/block_quotes.md"
        try Converter.convert(.file(original), toFile: md,
                              options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.markdown),
                              diagnostics: Diagnostics())
        let source = try String(contentsOfFile: md, encoding: .utf8)
        // What each copy changes (text of ORIGINAL, its replacement).
        let edits: [(String, [(String, String)])] = [
            ("ann", [("with a style", "with a named style"), ("I think this is how", "I believe this is how")]),
            ("bob", [("the Intense Quote style", "the Intense Quote style of Word"), ("I think this is how", "I guess this is how")]),
            ("cy", [("so it appears to be on my screen", "so it appears on my screen")]),
        ]
        var copies: [String] = []
        var options = CombineOptions()
        options.date = "2026-01-02T00:00:00Z"
        for (who, pairs) in edits {
            var text = source
            for (a, b) in pairs {
                XCTAssertTrue(text.contains(a), "no '\(a)' in the Markdown")
                text = text.replacingOccurrences(of: a, with: b)
            }
            let copy = dir + "/\(who).md"
            try text.write(toFile: copy, atomically: true, encoding: .utf8)
            copies.append(copy)
            options.reviewerOf[copy] = who.capitalized
        }
        let out = dir + "/combined.docx"
        let result = try Combination.combine(original: original, copies: copies, options: options, toFile: out,
                                             diagnostics: Diagnostics())
        XCTAssertEqual(result.conflicts.count, 1)
        let o = try entries(original), r = try entries(out)
        XCTAssertEqual(Set(o.keys).subtracting(r.keys), [], "parts went")
        for (part, bytes) in o where part != "word/document.xml" && !part.hasPrefix("word/comments")
            && part != "[Content_Types].xml" && part != "word/_rels/document.xml.rels" {
            XCTAssertTrue(r[part] == bytes, "\(part) changed")
        }
        // The lists naming parts change only by the new comments part: everything ORIGINAL's list said is there.
        for part in ["[Content_Types].xml", "word/_rels/document.xml.rels"] {
            let before = String(decoding: o[part] ?? [], as: UTF8.self), after = String(decoding: r[part] ?? [], as: UTF8.self)
            if r["word/comments.xml"] != nil && o["word/comments.xml"] == nil {
                XCTAssertTrue(after.contains("comments"), part)
                let closing = part.hasPrefix("[") ? "</Types>" : "</Relationships>"
                XCTAssertTrue(after.hasPrefix(before.replacingOccurrences(of: closing, with: "")), "\(part): ORIGINAL's entries changed")
            } else {
                XCTAssertEqual(after, before, part)
            }
        }
        // Paragraphs no copy touched: ORIGINAL's bytes; touched ones rewritten.
        func plain(_ p: String) -> String {
            var t = p.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            for (a, b) in [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'")] {
                t = t.replacingOccurrences(of: a, with: b)
            }
            return t
        }
        let touchedBy = edits.flatMap { $0.1.map(\.0) }
        let outParas = Set(wordParagraphs(String(decoding: r["word/document.xml"] ?? [], as: UTF8.self)))
        var kept = 0, touched = 0
        for p in wordParagraphs(String(decoding: o["word/document.xml"] ?? [], as: UTF8.self)) {
            if touchedBy.contains(where: { plain(p).contains($0) }) {
                touched += 1
                XCTAssertFalse(outParas.contains(p), "a paragraph a copy edits kept its bytes: \(plain(p))")
            } else {
                kept += 1
                XCTAssertTrue(outParas.contains(p), "a paragraph no copy touched changed: \(plain(p))")
            }
        }
        XCTAssertEqual(touched, 4)
        XCTAssertEqual(kept, 5)
        try OOXMLValidate.assertValid(out)
        // Accepted: the copies' words (the conflict: the first copy's); rejected: ORIGINAL's.
        let accepted = try text(out, .accept), rejected = try text(out, .reject)
        for phrase in ["with a named style", "I believe this is how", "the Intense Quote style of Word", "so it appears on my screen"] {
            XCTAssertTrue(accepted.contains(phrase), "accepted: no '\(phrase)'\n\(accepted)")
        }
        XCTAssertEqual(rejected, try text(original, .reject))
        let comments = try ChangeListing.rows(.file(out), format: FormatRegistry.docx).filter { $0.kind == .comment }
        XCTAssertEqual(comments.count, 1, "the conflict's comment")
    }
}

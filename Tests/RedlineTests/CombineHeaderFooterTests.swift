import Foundation
import XCTest
import Redline
import RedlineTestSupport

/// `combine` onto a DOCX or an RTF: reviewers' edits to headers and footers land in ORIGINAL's header and footer
/// stories like the body's: every reviewer's edit with their name, rejecting all gives ORIGINAL's text, accepting
/// one reviewer's alone gives that copy's, the body untouched.
final class CombineHeaderFooterTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-combine-hf-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// The Word file with `edits` made to its header and footer parts (text replaced in the XML).
    private func wordCopy(_ word: String, _ name: String, _ edits: [(String, String, String)]) throws -> String {
        var parts = try ZipEntries.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: word))))
        for (part, a, b) in edits {
            let i = try XCTUnwrap(parts.firstIndex { $0.name == part })
            let s = String(decoding: parts[i].bytes, as: UTF8.self)
            XCTAssertTrue(s.contains(a), part)
            parts[i].bytes = Array(s.replacingOccurrences(of: a, with: b).utf8)
        }
        let out = dir + "/\(name).docx"
        try Data(try ZipEntries.package(parts)).write(to: URL(fileURLWithPath: out))
        return out
    }

    private func convert(_ input: String, to format: Format, _ output: String, review: ReviewOptions = ReviewOptions()) throws {
        try Converter.convert(.file(input), toFile: output,
                              options: ConversionOptions(from: FormatRegistry.inferred(fromPath: input)!, to: format, review: review),
                              diagnostics: Diagnostics())
    }

    /// The header's and the footer's paragraphs (last section, every page), with `review` applied.
    private func stories(_ path: String, _ format: Format, _ review: ReviewOptions) throws -> [String] {
        let docx = dir + "/view-\(UUID().uuidString.prefix(8)).docx"
        try convert(path, to: FormatRegistry.docx, docx, review: review)
        let doc = try Converter.read(.file(docx), format: FormatRegistry.docx, options: ReadOptions(), diagnostics: Diagnostics())
        return [HeaderFooter.Kind.header, .footer].map { kind in
            (ApplyPlan.headerFooterTexts(of: doc, section: nil, place: HeaderFooter.Place(kind: kind, which: .default), view: .accept) ?? [])
                .filter { !$0.isEmpty }.joined(separator: "|")
        }
    }

    func testCopiesEditingHeadersAndFootersCombine() throws {
        let word = RepositoryPaths.sharedCorpus + "/python-docx/blk-paras-and-tables.docx"
        guard FileManager.default.fileExists(atPath: word) else { throw XCTSkip("../shared/corpus is not there") }
        let ann = try wordCopy(word, "ann", [("word/header1.xml", "<w:t>Left-side</w:t>", "<w:t>Left side</w:t>")])
        let bob = try wordCopy(word, "bob", [("word/footer1.xml", "<w:t>Copyright</w:t>", "<w:t>Copyright 2026</w:t>")])
        let cy = try wordCopy(word, "cy", [("word/header1.xml", "<w:t>Right-side</w:t>", "<w:t>Right side</w:t>")])
        for format in [FormatRegistry.docx, FormatRegistry.rtf] {
            let ext = format.extensions[0]
            var original = word, copies = [ann, bob, cy]
            if format.isSame(as: FormatRegistry.rtf) {
                original = dir + "/original.rtf"
                try convert(word, to: format, original)
                copies = try copies.map { c in
                    let r = dir + "/" + ((c as NSString).lastPathComponent as NSString).deletingPathExtension + ".rtf"
                    try convert(c, to: format, r)
                    return r
                }
            }
            let out = dir + "/combined.\(ext)"
            let d = Diagnostics()
            let result = try Combination.combine(original: original, copies: copies, options: CombineOptions(), toFile: out, diagnostics: d)
            XCTAssertEqual(d.count(of: .applyHeaderFooterUnplaced), 0, "\(ext): \(d.all)")
            XCTAssertTrue(result.conflicts.isEmpty, "\(ext): \(result.conflicts)")
            if format.isSame(as: FormatRegistry.docx) { try OOXMLValidate.assertValid(out) }
            let all = ReviewOptions(changes: .accept)
            XCTAssertEqual(try stories(out, format, all), ["Left side|Right side", "Copyright 2026|Page-number"], ext)
            XCTAssertEqual(try stories(out, format, ReviewOptions(changes: .reject)), ["Left-side|Right-side", "Copyright|Page-number"], ext)
            for (name, want) in [("ann", ["Left side|Right-side", "Copyright|Page-number"]),
                                 ("bob", ["Left-side|Right-side", "Copyright 2026|Page-number"]),
                                 ("cy", ["Left-side|Right side", "Copyright|Page-number"])] {
                let alone = ReviewOptions(changes: .reject, accept: [ChangeFilter(author: name)])
                XCTAssertEqual(try stories(out, format, alone), want, "\(ext): \(name)'s changes alone")
            }
            XCTAssertEqual(try FormatFixtures.paragraphs(out, format, all, in: dir),
                           try FormatFixtures.paragraphs(original, format, all, in: dir), "\(ext): the body is untouched")
        }
    }

    /// The combined Word file opens in LibreOffice with every reviewer's changes listed under their names: re-saved
    /// by LibreOffice as DOCX, its tracked changes carry the three reviewers (named by their copies' files) as authors.
    func testLibreOfficeListsEveryReviewersChanges() throws {
        try TestProcess.require("soffice")
        let original = try FormatFixtures.file("The first paragraph stays.\n\nThe second one has words to change.\n\nA third one.\n",
                                               "original", as: FormatRegistry.docx, in: dir)
        let copies = try [("ann", "words to change", "words we changed"), ("bob", "A third one.", "A third one, longer."),
                          ("cy", "first paragraph", "opening paragraph")].map { name, a, b -> String in
            let md = dir + "/\(name).md"
            try Converter.convert(.file(original), toFile: md, options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.markdown),
                                  diagnostics: Diagnostics())
            let text = try String(contentsOfFile: md, encoding: .utf8)
            XCTAssertTrue(text.contains(a))
            try Data(text.replacingOccurrences(of: a, with: b).utf8).write(to: URL(fileURLWithPath: md))
            return md
        }
        let out = dir + "/combined.docx"
        _ = try Combination.combine(original: original, copies: copies, options: CombineOptions(), toFile: out, diagnostics: Diagnostics())
        try OOXMLValidate.assertValid(out)
        let r = try TestProcess.run(["soffice", "-env:UserInstallation=file://" + dir + "/lo-profile", "--headless",
                                     "--convert-to", "docx", "--outdir", dir + "/lo", out])
        XCTAssertEqual(r.status, 0, r.err)
        let rows = try ChangeListing.rows(.file(dir + "/lo/combined.docx"), format: FormatRegistry.docx)
        XCTAssertEqual(Set(rows.filter { $0.change != "comment" }.compactMap(\.author)), ["ann", "bob", "cy"], "\(rows)")
        XCTAssertTrue(rows.contains { $0.author == "ann" && ($0.after?.contains("we changed") ?? false) }, "\(rows)")
    }
}

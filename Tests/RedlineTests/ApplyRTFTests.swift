import Foundation
import XCTest
import Redline
import RedlineTestSupport
@testable import RedlineRTF

/// `redline apply` onto RTF (`RTFApply`): EDITED's differences written into ORIGINAL's own bytes as
/// `\revised`/`\deleted` revisions. Rejecting every change of the result gives ORIGINAL's text, accepting it
/// gives EDITED's text, every byte of ORIGINAL is still there in order (marking only adds), and paragraphs no
/// edit names keep their bytes.
final class ApplyRTFTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-apply-rtf-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    // MARK: Helpers

    private func convert(_ input: String, to: Format, _ output: String) throws {
        try Converter.convert(.file(input), toFile: output, options: ConversionOptions(from: FormatRegistry.inferred(fromPath: input)!, to: to),
                              diagnostics: Diagnostics())
    }

    private func bytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }

    /// The paragraph texts of a document (every leaf, in reading order), with its changes resolved.
    private func texts(_ path: String, format: Format, view: ApplyPlan.View) throws -> [String] {
        var doc = try Converter.read(.file(path), format: format)
        doc = view == .accept ? DocumentComparer.accepted(doc) : DocumentComparer.rejected(doc)
        var out: [String] = []
        func walk(_ b: Block) {
            switch b {
            case .paragraph, .heading, .codeBlock: out.append(ApplyPlan.text(of: b, view: view))
            case .blockQuote(let bs): bs.forEach(walk)
            case .list(let l): l.items.forEach { $0.forEach(walk) }
            case .table(let t): t.rows.forEach { $0.cells.forEach { $0.blocks.forEach(walk) } }
            default: break
            }
        }
        doc.blocks.forEach(walk)
        return out
    }

    /// The same text paragraph by paragraph, empty paragraphs (and those holding only a picture, which a
    /// Markdown EDITED refers to and RTF may not hold) aside; where boundaries differ only as a format makes
    /// them, the same text.
    private func assertSameTexts(_ a: [String], _ b: [String], _ what: String, file: StaticString, line: UInt) {
        func blank(_ t: String) -> Bool { t.allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\u{FFFC}" } }
        let a = a.filter { !blank($0) }, b = b.filter { !blank($0) }
        guard a != b else { return }
        func bare(_ t: [String]) -> String { String(t.joined().filter { !$0.isWhitespace }) }
        guard bare(a) != bare(b) else { return }
        let i = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        XCTFail("\(what): \(a.count) vs \(b.count) paragraphs, first difference at \(i): \(a.dropFirst(i).prefix(2)) vs \(b.dropFirst(i).prefix(2))",
                file: file, line: line)
    }

    private func apply(_ edited: String, onto original: String, accept: Bool = false, author: String = "Tester") throws -> String {
        let out = dir + "/out-\(UUID().uuidString.prefix(6))\(accept ? "-accepted" : "").rtf"
        var options = ApplyOptions(accept: accept, force: true)
        options.compare.author = author
        options.compare.date = "2026-03-04T05:06:00Z"
        _ = try Application.apply(edited: edited, onto: original, options: options, toFile: out, diagnostics: Diagnostics())
        return out
    }

    /// Whether `a` is `b` with bytes only added (every byte of `a` in `b`, in order).
    private func isSubsequence(_ a: [UInt8], of b: [UInt8]) -> Bool {
        var i = 0
        for x in b where i < a.count && a[i] == x { i += 1 }
        return i == a.count
    }

    /// Every byte the result adds lies in a paragraph a step names (from its start to the end of its `\par`), after
    /// a table's `\row` (a paragraph after the table) or at the header's revision table: ORIGINAL's bytes aligned in
    /// the result, each place where the result has more checked.
    private func assertAddsOnlyInNamedParagraphs(original: String, edited: String, result: [UInt8],
                                                 file: StaticString, line: UInt) throws {
        let (plan, _, _) = try Application.plan(edited: edited, onto: original, options: ApplyOptions(force: true),
                                                diagnostics: Diagnostics())
        let scan = try RTFApplyScan(.file(original))
        let writer = RTFApplyWriter(scan: scan, plan: plan, accept: false)
        var named: Set<Int> = []
        for step in plan.steps {
            switch step {
            case .edit(let leaf, _, _), .delete(let leaf, _), .restyle(let leaf, _, _, _): named.insert(leaf)
            case .insert(let after, _, _, _, _): named.insert(after ?? 0)
            }
        }
        // The alignment is the leftmost one: an added group ending as the bytes after it begin (`}`, a line end)
        // is seen a few bytes late, hence the slack.
        let slack = 16
        let spans = named.compactMap { writer.leafParagraph[$0] }.map { scan.paragraphs[$0] }
            .map { ($0.start - slack)...(($0.end?.upperBound ?? $0.contentEnd) + slack) }
            + (scan.rowEnds + [scan.revisionTableEnd ?? scan.headerEnd]).map { ($0 - slack)...($0 + slack) }
        let o = scan.bytes
        var i = 0, inExtra = false
        for x in result {
            if i < o.count && o[i] == x { i += 1; inExtra = false; continue }
            if inExtra { continue }
            inExtra = true
            if !spans.contains(where: { $0.contains(i) }) {
                let around = String(decoding: o[max(0, i - 40)..<min(o.count, i + 40)], as: UTF8.self)
                XCTFail("\(original): bytes added at \(i), outside the paragraphs the plan names: …\(around)…", file: file, line: line)
                return
            }
        }
    }

    private func lines(_ b: [UInt8]) -> [String] { String(decoding: b, as: UTF8.self).components(separatedBy: "\n") }

    /// Accept and reject views, ORIGINAL's bytes kept, `untouched` paragraphs' lines byte for byte, and the
    /// accepted output; returns the marked result's path.
    @discardableResult
    private func checkRoundTrip(original: String, edited: String, editedFormat: Format, untouched: [String] = [],
                                file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let out = try apply(edited, onto: original)
        let o = bytes(original), r = bytes(out)
        XCTAssertNotEqual(o, r, "\(original): nothing was written", file: file, line: line)
        XCTAssertTrue(isSubsequence(o, of: r), "\(original): bytes of ORIGINAL were removed", file: file, line: line)
        try assertAddsOnlyInNamedParagraphs(original: original, edited: edited, result: r, file: file, line: line)
        assertSameTexts(try texts(out, format: FormatRegistry.rtf, view: .accept),
                        try texts(edited, format: editedFormat, view: .accept), "\(original): accept view", file: file, line: line)
        assertSameTexts(try texts(out, format: FormatRegistry.rtf, view: .reject),
                        try texts(original, format: FormatRegistry.rtf, view: .reject), "\(original): reject view", file: file, line: line)
        // Rejected in place by Redline's RTF reviewer: ORIGINAL's text.
        let rejected = dir + "/rejected-\(UUID().uuidString.prefix(6)).rtf"
        try InPlaceReview.review(.file(out), format: FormatRegistry.rtf, toFile: rejected, review: ReviewOptions(changes: .reject, comments: .keep))
        assertSameTexts(try texts(rejected, format: FormatRegistry.rtf, view: .accept),
                        try texts(original, format: FormatRegistry.rtf, view: .reject), "\(original): rejected in place", file: file, line: line)
        // A paragraph's line (Redline writes one a line) is there whole, new paragraphs after it aside.
        let outLines = lines(r)
        for text in untouched {
            let held = lines(o).filter { $0.contains(text) }
            XCTAssertFalse(held.isEmpty, "no line of ORIGINAL holds \(text)", file: file, line: line)
            for l in held {
                XCTAssertTrue(outLines.contains { $0.hasPrefix(l) }, "paragraph '\(text)' changed", file: file, line: line)
            }
        }
        // Accepted on writing: EDITED's text, no new revision marks.
        let accepted = try apply(edited, onto: original, accept: true)
        let a = String(decoding: bytes(accepted), as: UTF8.self), os = String(decoding: o, as: UTF8.self)
        for mark in ["\\revised", "\\deleted", "\\revtbl"] {
            XCTAssertEqual(a.components(separatedBy: mark).count, os.components(separatedBy: mark).count,
                           "\(original): accepted output has new \(mark)", file: file, line: line)
        }
        assertSameTexts(try texts(accepted, format: FormatRegistry.rtf, view: .accept),
                        try texts(edited, format: editedFormat, view: .accept), "\(original): accepted output", file: file, line: line)
        return out
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func replacing(_ s: String, _ pairs: [(String, String)]) -> String {
        var s = s
        for (a, b) in pairs {
            XCTAssertTrue(s.contains(a), "EDITED's source has no '\(a)'")
            s = s.replacingOccurrences(of: a, with: b)
        }
        return s
    }

    /// ORIGINAL written by Redline from `DOCXApplyTests.source`, and its Markdown conversion.
    private func redlineRTF() throws -> (rtf: String, md: String) {
        let rtf = dir + "/original.rtf", md = dir + "/original.md"
        try convert(try write(DOCXApplyTests.source, "source.md"), to: FormatRegistry.rtf, rtf)
        try convert(rtf, to: FormatRegistry.markdown, md)
        return (rtf, md)
    }

    // MARK: Tests

    /// Words replaced, deleted and inserted (non-ASCII too), a paragraph deleted and one inserted, a table cell
    /// and a list item changed, a paragraph after the table; EDITED as Markdown and as DOCX.
    func testRoundTripOnRedlineRTF() throws {
        let (original, md) = try redlineRTF()
        let edited = try write(replacing(try String(contentsOfFile: md, encoding: .utf8), [
            ("# The Title", "# The New Title"),
            ("some words here", "several wörds here — “quoted”"),
            ("Second paragraph to be deleted entirely.\n\n", ""),
            ("Third paragraph stays exactly the same.\n", "Third paragraph stays exactly the same.\n\nA new paragraph {with} braces \\ and 𝄞.\n"),
            ("- item two", "- item 2"),
            ("| beta | two |", "| beta | three |"),
            ("Last paragraph, untouched too.", "Plain words here.\n\nLast paragraph, untouched too."),
        ]), "edited.md")
        try checkRoundTrip(original: original, edited: edited, editedFormat: FormatRegistry.markdown,
                           untouched: ["Third paragraph stays exactly the same.", "Last paragraph, untouched too."])
        let editedDOCX = dir + "/edited.docx"
        try convert(edited, to: FormatRegistry.docx, editedDOCX)
        try checkRoundTrip(original: original, edited: editedDOCX, editedFormat: FormatRegistry.docx,
                           untouched: ["Third paragraph stays exactly the same."])
        // New paragraphs before the first one and right after the table (out of it); the last one deleted.
        let around = try write(replacing(try String(contentsOfFile: md, encoding: .utf8), [
            ("# The Title", "A new first paragraph.\n\n# The Title"),
            ("| beta | two |\n", "| beta | two |\n\nAfter the table.\n"),
            ("Last paragraph, untouched too.", ""),
        ]), "around.md")
        try checkRoundTrip(original: original, edited: around, editedFormat: FormatRegistry.markdown,
                           untouched: ["First paragraph with some words here."])
    }

    /// Real RTF files from ../shared/corpus (Word, WordPad, TextEdit, LibreOffice, Google Docs, AbiWord, pandoc's
    /// tests), used where they are: a word replaced, a paragraph deleted, one appended, through their Markdown.
    func testRoundTripOnCorpusRTF() throws {
        let manifest = (try? String(contentsOfFile: RepositoryPaths.sharedCorpus + "/MANIFEST.tsv", encoding: .utf8)) ?? ""
        let files = manifest.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
            .filter { $0.hasSuffix(".rtf") }
        if files.isEmpty { throw XCTSkip("../shared/corpus is not there") }
        var refused: [String] = []
        for f in files {
            let original = RepositoryPaths.sharedCorpus + "/" + f
            let name = f.replacingOccurrences(of: "/", with: "-")
            let md = dir + "/" + name + ".md"
            try convert(original, to: FormatRegistry.markdown, md)
            var lines = try String(contentsOfFile: md, encoding: .utf8).components(separatedBy: "\n")
            func word(_ l: String) -> Range<String.Index>? {
                guard !l.hasPrefix("[^"), !l.hasPrefix("|"), l != "---" else { return nil }
                var from = l.startIndex
                while let r = l[from...].range(of: "[A-Za-z]{4,}", options: .regularExpression) {
                    let before = r.lowerBound == l.startIndex || l[l.index(before: r.lowerBound)] == " "
                    let after = r.upperBound == l.endIndex || l[r.upperBound] == " "
                    if before && after { return r }
                    from = r.upperBound
                }
                return nil
            }
            let candidates = lines.indices.filter { word(lines[$0]) != nil }
            if let first = candidates.first { lines[first].replaceSubrange(word(lines[first])!, with: "REPLACED") }
            if candidates.count > 2 {
                let m = candidates[candidates.count / 2]
                if !lines[m].hasPrefix("-"), !lines[m].hasPrefix("*"), !lines[m].hasPrefix("#"), !lines[m].hasPrefix(">"),
                   lines[m].range(of: "^[0-9]+\\.", options: .regularExpression) == nil {
                    lines[m] = ""
                }
            }
            lines += ["", "An inserted paragraph from the test, ünïcode.", ""]
            let edited = try write(lines.joined(separator: "\n"), "edited-" + name + ".md")
            do {
                try checkRoundTrip(original: original, edited: edited, editedFormat: FormatRegistry.markdown)
            } catch let e as RedlineError where e.kind == .unsupportedInput {
                refused.append("\(f): \(e.message)")
            }
        }
        XCTAssertTrue(refused.isEmpty, "refused: \(refused)")
        print("apply onto RTF files: \(files.count - refused.count)/\(files.count) applied and checked")
    }

    /// A hundred empty paragraphs before the edited one (which the reader drops): passed over, not refused.
    func testManyEmptyParagraphsBeforeAnEdit() throws {
        let (rtf, _) = try redlineRTF()
        let empties = String(repeating: "\\pard\\plain \\ql \\par\n", count: 100)
        let original = try write(replacing(try String(contentsOfFile: rtf, encoding: .utf8),
                                           [("\\pard\\plain \\ql {Third paragraph", empties + "\\pard\\plain \\ql {Third paragraph")]),
                                 "empties.rtf")
        let md = dir + "/empties.md"
        try convert(original, to: FormatRegistry.markdown, md)
        let edited = try write(replacing(try String(contentsOfFile: md, encoding: .utf8),
                                         [("Third paragraph", "Third edited paragraph")]), "empties-edited.md")
        try checkRoundTrip(original: original, edited: edited, editedFormat: FormatRegistry.markdown,
                           untouched: ["Last paragraph, untouched too."])
    }

    /// EDITED equal to ORIGINAL (its own Markdown conversion, or a corpus file itself): ORIGINAL byte for byte.
    func testUnchangedEditedGivesOriginalBytes() throws {
        let (original, md) = try redlineRTF()
        XCTAssertEqual(bytes(try apply(md, onto: original)), bytes(original))
        for f in ["pandoc/formatting.rtf", "striprtf-kota7/libre.rtf", "rtfparserkit/testUnicode.rtf"] {
            let path = RepositoryPaths.sharedCorpus + "/" + f
            guard FileManager.default.fileExists(atPath: path) else { continue }
            XCTAssertEqual(bytes(try apply(path, onto: path)), bytes(path), f)
        }
    }

    /// A DOCX reviewed with tracked changes, applied onto the RTF it was made from: its authors and dates kept,
    /// in the RTF's revision table.
    func testTrackedDOCXKeepsAuthors() throws {
        let (original, md) = try redlineRTF()
        let edited = try write(replacing(try String(contentsOfFile: md, encoding: .utf8),
                                         [("some words", "other words"), ("Second paragraph to be deleted entirely.\n\n", "")]), "e.md")
        var options = ComparisonOptions(to: FormatRegistry.docx)
        options.compare.author = "Alice Smith"
        options.compare.date = "2025-05-05T10:00:00Z"
        let tracked = dir + "/tracked.docx"
        try Comparison.compare(old: md, new: edited, options: options, toFile: tracked, diagnostics: Diagnostics())
        let out = try checkRoundTrip(original: original, edited: tracked, editedFormat: FormatRegistry.docx)
        let rtf = String(decoding: bytes(out), as: UTF8.self)
        XCTAssertTrue(rtf.contains("{Alice Smith;}"), "no revision table entry")
        let rows = try ChangeListing.rows(.file(out), format: FormatRegistry.rtf)
        XCTAssertFalse(rows.isEmpty)
        XCTAssertEqual(Set(rows.compactMap(\.author)), ["Alice Smith"])
        XCTAssertEqual(Set(rows.compactMap(\.date)), ["2025-05-05T10:00:00Z"])
    }

    /// A comment EDITED adds: an annotation with its range, read back as one comment; none when accepting.
    func testAddedCommentIsAnnotation() throws {
        let (original, md) = try redlineRTF()
        let edited = try write(replacing(try String(contentsOfFile: md, encoding: .utf8),
                                         [("Third paragraph", "Third {==paragraph==}{>>Check this.<<}")]), "commented.md")
        let out = try apply(edited, onto: original)
        let rtf = String(decoding: bytes(out), as: UTF8.self)
        XCTAssertTrue(rtf.contains("{\\*\\atrfstart 1}paragraph{\\*\\atrfend 1}") && rtf.contains("\\chatn{\\*\\annotation{\\*\\atnref 1}"), rtf)
        let doc = try Converter.read(.file(out), format: FormatRegistry.rtf)
        XCTAssertEqual(doc.comments.count, 1)
        XCTAssertTrue(isSubsequence(bytes(original), of: bytes(out)))
        XCTAssertFalse(String(decoding: bytes(try apply(edited, onto: original, accept: true)), as: UTF8.self).contains("\\chatn"))
        // A comment across two paragraphs: one range, one annotation.
        let crossing = try write(replacing(try String(contentsOfFile: md, encoding: .utf8),
                                           [("Third paragraph stays", "Third {==paragraph stays"),
                                            ("- item one", "- item ==}{>>Two paragraphs.<<}one")]), "crossing.md")
        let out2 = String(decoding: bytes(try apply(crossing, onto: original)), as: UTF8.self)
        for mark in ["\\atrfstart", "\\atrfend", "\\chatn"] {
            XCTAssertEqual(out2.components(separatedBy: mark).count, 2, "\(mark) in \(out2)")
        }
        XCTAssertEqual(try Converter.read(.bytes(Array(out2.utf8)), format: FormatRegistry.rtf).comments.count, 1)
    }

    /// Without `--author`, an RTF EDITED's untracked edits go to who last saved it, `{\info{\operator NAME}}` (as a
    /// DOCX's `cp:lastModifiedBy`); `\author` (who made the file, DOCX's `dc:creator`) is not taken, nor an
    /// `\operator` word in the body; `combine` names RTF copies the same way.
    func testRTFEditedIsAttributedToWhoLastSavedIt() throws {
        let (original, _) = try redlineRTF()
        let rtf = try String(contentsOfFile: original, encoding: .utf8)
        func edited(_ info: String, _ edits: [(String, String)], _ name: String) throws -> String {
            try write(replacing(rtf, [("\\deftab720", info + "\n\\deftab720")] + edits), name)
        }
        let saved = try edited("{\\info{\\author Carl Creator}{\\operator Olga Op\\'e9rateur \\u8364?}}",
                               [("some words", "other words")], "saved.rtf")
        XCTAssertEqual(try RTFInfo.lastEditor(.file(saved)), "Olga Opérateur €")
        let made = try edited("{\\info{\\author Carl Creator}}", [("some words", "made words")], "made.rtf")
        XCTAssertNil(try RTFInfo.lastEditor(.file(made)))
        XCTAssertNil(try RTFInfo.lastEditor(.file(original)))
        XCTAssertNil(try RTFInfo.lastEditor(.bytes(Array("{\\rtf1\\ansi\\pard {\\operator Body} text\\par}".utf8))))
        var options = ApplyOptions(compare: CompareOptions(author: "Fallback"), force: true)
        options.authorFromEdited = true
        for (path, author) in [(saved, "Olga Opérateur €"), (made, "Fallback")] {
            let out = dir + "/by-\(author.prefix(4)).rtf"
            _ = try Application.apply(edited: path, onto: original, options: options, toFile: out, diagnostics: Diagnostics())
            let rows = try ChangeListing.rows(.file(out), format: FormatRegistry.rtf)
            XCTAssertFalse(rows.isEmpty)
            XCTAssertEqual(Set(rows.compactMap(\.author)), [author])
        }
        let other = try edited("{\\info{\\operator Pat Reviewer}}", [("untouched too", "touched now")], "other.rtf")
        XCTAssertEqual(Combination.reviewers(of: [saved, other, made], options: CombineOptions()),
                       ["Olga Opérateur €", "Pat Reviewer", "made"])
    }

    /// `redline combine` onto an RTF ORIGINAL: each copy's changes under its reviewer.
    func testCombineOntoRTF() throws {
        let (original, md) = try redlineRTF()
        let source = try String(contentsOfFile: md, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/ann", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/bob", withIntermediateDirectories: true)
        let a = try write(replacing(source, [("some words", "fine words")]), "ann/original.md")
        let b = try write(replacing(source, [("untouched too", "touched now")]), "bob/original.md")
        var o = CombineOptions()
        o.date = "2026-01-02T00:00:00Z"
        let out = MemoryOutput()
        _ = try Combination.combine(original: original, copies: [a, b], options: o, into: out, diagnostics: Diagnostics())
        let path = try write("", "combined.rtf")
        try Data(out.bytes).write(to: URL(fileURLWithPath: path))
        XCTAssertTrue(isSubsequence(bytes(original), of: out.bytes))
        let accepted = try texts(path, format: FormatRegistry.rtf, view: .accept).joined(separator: "\n")
        XCTAssertTrue(accepted.contains("fine words") && accepted.contains("touched now"), accepted)
        XCTAssertEqual(try ChangeListing.rows(.file(path), format: FormatRegistry.rtf).count, 2)
        // Three copies, one a DOCX, two changing the same words differently (a conflict, kept as an annotation):
        // ORIGINAL's bytes all there in order, the lines of paragraphs no copy touched whole, rejecting gives ORIGINAL.
        try FileManager.default.createDirectory(atPath: dir + "/cy", withIntermediateDirectories: true)
        let cyMD = try write(replacing(source, [("some words", "many words"), ("- item two", "- item 2")]), "cy/original.md")
        let cy = dir + "/cy/original.docx"
        try convert(cyMD, to: FormatRegistry.docx, cy)
        let three = MemoryOutput()
        let result = try Combination.combine(original: original, copies: [a, b, cy], options: o, into: three, diagnostics: Diagnostics())
        XCTAssertEqual(result.conflicts.count, 1)
        XCTAssertTrue(isSubsequence(bytes(original), of: three.bytes), "bytes of ORIGINAL were removed")
        let threeLines = lines(three.bytes)
        for text in ["Third paragraph stays exactly the same.", "item one"] {
            let held = lines(bytes(original)).filter { $0.contains(text) }
            XCTAssertFalse(held.isEmpty, text)
            for l in held { XCTAssertTrue(threeLines.contains { $0.hasPrefix(l) }, "paragraph '\(text)' changed") }
        }
        let threePath = try write("", "three.rtf")
        try Data(three.bytes).write(to: URL(fileURLWithPath: threePath))
        let all = try texts(threePath, format: FormatRegistry.rtf, view: .accept).joined(separator: "\n")
        XCTAssertTrue(all.contains("fine words") && all.contains("touched now") && all.contains("item 2"), all)
        assertSameTexts(try texts(threePath, format: FormatRegistry.rtf, view: .reject),
                        try texts(original, format: FormatRegistry.rtf, view: .reject), "combined: reject view", file: #filePath, line: #line)
        XCTAssertEqual(try Converter.read(.file(threePath), format: FormatRegistry.rtf).comments.count, 1)
    }

    /// LibreOffice opens the result and sees its changes: converted to DOCX by `soffice`, read back by Redline,
    /// the same authors and texts. Skipped when LibreOffice is not installed.
    func testLibreOfficeReadsTheChanges() throws {
        let soffice = ["/usr/bin/soffice", "/usr/local/bin/soffice", "/Applications/LibreOffice.app/Contents/MacOS/soffice"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let soffice else { throw XCTSkip("LibreOffice (soffice) is not installed") }
        let (original, md) = try redlineRTF()
        let edited = try write(replacing(try String(contentsOfFile: md, encoding: .utf8), [
            ("some words", "other wörds"), ("Third paragraph stays exactly the same.\n\n", ""),
            ("Last paragraph", "Last {==paragraph==}{>>Check this.<<}"),
        ]), "edited.md")
        let out = try apply(edited, onto: original, author: "Lo Reviewer")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: soffice)
        p.arguments = ["-env:UserInstallation=file://" + dir + "/lo-profile", "--headless", "--convert-to", "docx",
                       "--outdir", dir + "/lo", out]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let docx = dir + "/lo/" + ((out as NSString).lastPathComponent as NSString).deletingPathExtension + ".docx"
        guard FileManager.default.fileExists(atPath: docx) else { return XCTFail("LibreOffice wrote nothing") }
        let rows = try ChangeListing.rows(.file(docx), format: FormatRegistry.docx)
        let changes = rows.filter { $0.change != "comment" }
        XCTAssertTrue(changes.contains { $0.before?.contains("Third paragraph stays exactly the same") ?? false }, "\(rows)")
        XCTAssertTrue(changes.contains { $0.after?.contains("other wörds") ?? false }, "\(rows)")
        XCTAssertEqual(Set(changes.compactMap(\.author)), ["Lo Reviewer"])
        XCTAssertEqual(rows.filter { $0.change == "comment" }.map(\.body), ["Check this."])
        XCTAssertEqual(rows.filter { $0.change == "comment" }.map(\.author), ["Redline"])
    }

    /// A header and a footer edited (in a copy of the file) land in the RTF's `{\header …}` and
    /// `{\footer …}` groups as revisions, every byte outside their edited paragraphs kept; the body untouched.
    func testHeaderFooterEditsOntoRTF() throws {
        let word = RepositoryPaths.sharedCorpus + "/python-docx/blk-paras-and-tables.docx"
        guard FileManager.default.fileExists(atPath: word) else { throw XCTSkip("../shared/corpus is not there") }
        let original = dir + "/hf.rtf"
        try convert(word, to: FormatRegistry.rtf, original)
        var parts = try ZipEntries.read(bytes(word))
        for (name, a, b) in [("word/header1.xml", "<w:t>Left-side</w:t>", "<w:t>Left side of the page</w:t>"),
                             ("word/footer1.xml", "<w:t>Copyright</w:t>", "<w:t>Copyright 2026</w:t>")] {
            let i = try XCTUnwrap(parts.firstIndex { $0.name == name })
            parts[i].bytes = Array(String(decoding: parts[i].bytes, as: UTF8.self).replacingOccurrences(of: a, with: b).utf8)
        }
        let editedWord = dir + "/hf-edited.docx"
        try Data(try ZipEntries.package(parts)).write(to: URL(fileURLWithPath: editedWord))
        let edited = dir + "/hf-edited.rtf"
        try convert(editedWord, to: FormatRegistry.rtf, edited)
        func story(_ path: String, _ kind: HeaderFooter.Kind, _ view: ApplyPlan.View) throws -> String {
            let doc = try Converter.read(.file(path), format: FormatRegistry.rtf, options: ReadOptions(), diagnostics: Diagnostics())
            return (ApplyPlan.headerFooterTexts(of: doc, section: nil, place: HeaderFooter.Place(kind: kind, which: .default), view: view) ?? [])
                .filter { !$0.isEmpty }.joined(separator: "|")
        }
        for accept in [false, true] {
            let out = try apply(edited, onto: original, accept: accept, author: "Hana")
            XCTAssertEqual(try story(out, .header, .accept), "Left side of the page|Right-side")
            XCTAssertEqual(try story(out, .footer, .accept), "Copyright 2026|Page-number")
            XCTAssertEqual(try texts(out, format: FormatRegistry.rtf, view: .accept), try texts(original, format: FormatRegistry.rtf, view: .accept))
            let o = String(decoding: bytes(original), as: UTF8.self).components(separatedBy: "\n")
            let r = String(decoding: bytes(out), as: UTF8.self).components(separatedBy: "\n")
            let changed = r.filter { !o.contains($0) }
            if accept {
                XCTAssertEqual(changed.count, 2, "the two edited paragraphs: \(changed)")
                XCTAssertFalse(changed.joined().contains("\\revised"))
            } else {
                XCTAssertEqual(try story(out, .header, .reject), "Left-side|Right-side")
                XCTAssertEqual(try story(out, .footer, .reject), "Copyright|Page-number")
                // The revision table's line and the two edited paragraphs.
                XCTAssertEqual(changed.count, 3, "\(changed)")
                XCTAssertTrue(changed.contains { $0.contains("Copyright{\\revised\\revauth1") }, "\(changed)")
            }
        }
    }
}

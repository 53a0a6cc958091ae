import Foundation
import Redline
import RedlineCore
@testable import RedlineRTF
import RedlineTestSupport
import XCTest

/// Review in place for RTF (issue 14): RTF → RTF with decisions applied to the token stream, the rest copied.
final class RTFInPlaceReviewTests: XCTestCase {
    static let rtf = FormatRegistry.named("rtf")!
    static let md = FormatRegistry.named("md")!
    static let review = RTFTestSupport.repository.appendingPathComponent("Tests/Fixtures/rtf-review")
    static let features = review.appendingPathComponent("word-features.rtf").path
    static let notesMidParagraph = review.appendingPathComponent("notes-mid-paragraph.rtf").path
    static let annotated = RTFTestSupport.repository.appendingPathComponent("Corpus/rtf/revisions-annotations.rtf").path

    /// Every RTF of Corpus/ and the shared corpus with tracked changes or annotations.
    static func inputs() throws -> [String] {
        var paths: [String] = []
        for dir in [RTFTestSupport.repository.appendingPathComponent("Corpus/rtf"), review] {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".rtf") {
                paths.append(dir.appendingPathComponent(name).path)
            }
        }
        paths += RTFTestSupport.corpusRTFs()
        return try paths.filter { p in
            let s = String(decoding: try Data(contentsOf: URL(fileURLWithPath: p)), as: UTF8.self)
            return ["\\revised", "\\deleted", "\\annotation", "\\crauth", "\\oldpprops"].contains { s.contains($0) }
        }
    }

    static func inPlace(_ path: String, _ r: ReviewOptions) throws -> [UInt8] {
        var out: [UInt8] = []
        try RTFInPlaceReview.apply(.file(path), review: r) { out += $0 }
        return out
    }

    /// The document as CriticMarkup, through the model (`review` applied by `ReviewTransform`).
    static func markdown(_ input: DocumentInput, _ r: ReviewOptions = ReviewOptions()) throws -> String {
        let out = MemoryOutput()
        try Converter.convert(input, to: out, options: ConversionOptions(from: rtf, to: md, review: r), diagnostics: Diagnostics())
        return out.string
    }

    /// The body paragraphs of CriticMarkup, for comparing the two routes: notes (the model keeps a note whose
    /// reference was deleted; Word and the in-place route remove it) and emphasis (the model cannot restore an
    /// RTF formatting change on reject) are left out, white space collapsed, empty paragraphs dropped (the
    /// model keeps an empty span `[]{}` where the in-place output has a blank paragraph, which the reader skips).
    static func normalized(_ md: String) -> [String] {
        md.components(separatedBy: "\n\n").compactMap { p -> String? in
            if p.hasPrefix("[^") { return nil }
            var s = p.replacingOccurrences(of: #"\[\^\d+\]"#, with: "", options: .regularExpression)
            s = s.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "[]{}", with: "")
            // The model keeps an insertion emptied by accepting the deletion nested in it; in place it goes.
            s = s.replacingOccurrences(of: #"\{\+\+\+\+\}(\{>>[^<]*<<\})?"#, with: "", options: .regularExpression)
            s = s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            return s.isEmpty ? nil : s
        }
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The first group that starts with `opening` (`{\fonttbl`), braces matched, escapes skipped.
    static func group(_ s: [UInt8], _ opening: String) -> [UInt8]? { groups(s, opening).first }

    /// Every group that starts with `opening`.
    static func groups(_ s: [UInt8], _ opening: String) -> [[UInt8]] {
        let o = Array(opening.utf8)
        guard s.count >= o.count else { return [] }
        return (0...(s.count - o.count)).filter { s[$0..<$0 + o.count].elementsEqual(o) }.compactMap { group(s, at: $0) }
    }

    static func group(_ s: [UInt8], at start: Int) -> [UInt8]? {
        var depth = 0, i = start
        while i < s.count {
            switch s[i] {
            case UInt8(ascii: "\\"): i += 1
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return Array(s[start...i]) }
            default: break
            }
            i += 1
        }
        return nil
    }

    static let revisionWords = try! NSRegularExpression(pattern:
        #"\\(revised|deleted|revauth|revauthdel|revdttm|revdttmdel|crauth|crdate|prauth|prdate|trauth|trdate|oldcprops|oldpprops|oldtprops|oldsprops|atnid|atnauthor|annotation|atrfstart|atrfend|atnref|atndate|chatn)(?![a-zA-Z])"#)

    static func count(_ r: NSRegularExpression, _ s: String) -> Int { r.numberOfMatches(in: s, range: NSRange(s.startIndex..., in: s)) }

    // MARK: The model route's text

    func testAcceptAndRejectGiveTheModelRoutesText() throws {
        let inputs = try Self.inputs()
        XCTAssertGreaterThanOrEqual(inputs.count, 16, "the RTF inputs with changes")
        for path in inputs {
            for mode in [ChangeMode.accept, .reject] {
                let r = ReviewOptions(changes: mode)
                let out = try Self.inPlace(path, r)
                XCTAssertEqual(Self.normalized(try Self.markdown(.bytes(out))), Self.normalized(try Self.markdown(.file(path), r)),
                               "\(path) \(mode)")
                XCTAssertEqual(Self.count(Self.revisionWords, Self.text(out)), 0, "revision words left: \(path) \(mode)")
            }
        }
    }

    /// The fixture with Word's shapes: the exact text of each version.
    func testWordFeaturesAcceptedAndRejected() throws {
        let accepted = Self.text(try Self.inPlace(Self.features, ReviewOptions(changes: .accept)))
        let rejected = Self.text(try Self.inPlace(Self.features, ReviewOptions(changes: .reject)))
        // A control word whose delimiter went with a revision word gets one (`\b bold`, not `\bbold`).
        XCTAssertTrue(accepted.contains(#"Words{\b bold insertion}"#), accepted)
        XCTAssertTrue(accepted.contains(#"First half{}\pard"#), "the deleted mark goes: the paragraphs merge")
        XCTAssertTrue(accepted.contains(#"Split here{\par}"#))
        XCTAssertTrue(accepted.contains(#"A note{{\super}} stays"#), "the deleted note goes with its reference")
        XCTAssertTrue(accepted.contains(#"{\b now bold} text"#), "an accepted formatting change keeps the new formatting")
        XCTAssertTrue(accepted.contains(#"\pard\plain\qc\f0\fs24 Centred now"#))
        XCTAssertTrue(accepted.contains(#"Picture {}and {{\*\shppict{\pict\pngblip\picw1\pich1\picwgoal480"#))
        XCTAssertTrue(accepted.contains(#"The commented words{\cs15} and a point{\cs15}."#), "comments dropped with their ranges")
        XCTAssertTrue(rejected.contains(#"Split here{}\pard"#), "the inserted mark goes")
        XCTAssertTrue(rejected.contains(#"{\b\plain \plain\f0\fs24 now bold}"#), "a rejected formatting change is put back")
        XCTAssertTrue(rejected.contains(#"\pard\plain\qc\pard \ql\f0\fs24 Centred now"#))
        XCTAssertTrue(rejected.contains(#"{\nonshppict{\pict\wmetafile8"#))
        XCTAssertTrue(rejected.contains("Last {}{Robert} words."), rejected)
        XCTAssertFalse(rejected.contains("Ann's whole paragraph"))
        XCTAssertTrue(rejected.contains(#"{\v}text"#), "hidden inserted text goes too")
    }

    // MARK: Everything else byte for byte

    func testTablesInfoAndPicturesAreCopied() throws {
        for path in try Self.inputs() {
            let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for mode in [ChangeMode.accept, .reject] {
                let out = try Self.inPlace(path, ReviewOptions(changes: mode))
                for g in [#"{\fonttbl"#, #"{\colortbl"#, #"{\stylesheet"#, #"{\info"#, #"{\*\revtbl"#] {
                    XCTAssertEqual(Self.group(out, g), Self.group(input, g), "\(path) \(mode) \(g)")
                }
                // Every picture left is one of the input's, byte for byte.
                let pictures = Self.groups(input, #"{\pict"#)
                for p in Self.groups(out, #"{\pict"#) { XCTAssertTrue(pictures.contains(p), "\(path) \(mode)") }
            }
        }
        // The inserted picture stays on accept and the deleted one on reject, whole.
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.features)))
        let accepted = try Self.inPlace(Self.features, ReviewOptions(changes: .accept))
        let inserted = try XCTUnwrap(Self.group(input, #"{\pict\pngblip\picw1\pich1\picwgoal480"#))
        XCTAssertEqual(Self.group(accepted, #"{\pict\pngblip\picw1\pich1\picwgoal480"#), inserted)
        XCTAssertNil(Self.group(accepted, #"{\pict\pngblip\picw1\pich1\picwgoal240"#))
    }

    func testNoDecisionCopiesEveryByte() throws {
        for path in try Self.inputs() {
            let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            XCTAssertEqual(try Self.inPlace(path, ReviewOptions(comments: .keep)), input, path)
        }
        // Files without changes or comments are copied whole whatever the decision (`\u8211-` stays as it is).
        var copied = 0
        for path in RTFTestSupport.corpusRTFs() + [RTFTestSupport.repository.appendingPathComponent("Corpus/rtf/scrivener-manuscript.rtf").path] {
            let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let s = Self.text(input)
            guard !["\\revised", "\\deleted", "\\annotation", "\\crauth", "\\atrfstart"].contains(where: { s.contains($0) }) else { continue }
            XCTAssertEqual(try Self.inPlace(path, ReviewOptions(changes: .accept)), input, path)
            copied += 1
        }
        XCTAssertGreaterThanOrEqual(copied, 20)
        let dash = "{\\rtf1\\ansi packages\\u8211-typically {\\revised\\revauth1 x}\\par}"
        var out: [UInt8] = []
        try RTFInPlaceReview.apply(.bytes(Array(dash.utf8)), review: ReviewOptions(changes: .accept)) { out += $0 }
        XCTAssertEqual(Self.text(out), "{\\rtf1\\ansi packages\\u8211-typically {x}\\par}")
    }

    // MARK: Selective review

    /// Accepting one author's changes leaves every group of the other authors' changes byte for byte.
    func testAcceptingOneAuthorLeavesTheOthersExactly() throws {
        let cases: [(String, String, [String], [String])] = [
            (Self.features, "Ann Editor", ["revauth2", "revauthdel2", "revauth3"], ["revauth1", "revauthdel1"]),
            (Self.annotated, "Ben Writer", ["revauth1", "revauthdel1"], ["revauth2", "revauthdel2"]),
        ]
        for (path, author, others, own) in cases {
            let input = Self.text([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            let out = Self.text(try Self.inPlace(path, ReviewOptions(accept: [try ChangeFilter(parsing: "author=\(author)")])))
            let innermost = try NSRegularExpression(pattern: #"\{[^{}]*\}"#)
            var checked = 0
            for m in innermost.matches(in: input, range: NSRange(input.startIndex..., in: input)) {
                let g = String(input[Range(m.range, in: input)!])
                func names(_ w: String) -> Bool { g.range(of: #"\\"# + w + "(?![0-9])", options: .regularExpression) != nil }
                // Groups of the other authors' changes, and not also of this author's (text one inserted, the other deleted).
                guard others.contains(where: names), !own.contains(where: names) else { continue }
                XCTAssertTrue(out.contains(g), "\(path): \(g)")
                checked += 1
            }
            XCTAssertGreaterThanOrEqual(checked, 2, path)
            // And the author's own changes are gone.
            XCTAssertEqual(Self.normalized(try Self.markdown(.bytes(Array(out.utf8)))),
                           Self.normalized(try Self.markdown(.file(path), ReviewOptions(accept: [try ChangeFilter(parsing: "author=\(author)")]))))
        }
    }

    /// The ids `redline changes` lists select the same change in place as through the model.
    func testListedIDsRoundTripIntoAcceptID() throws {
        for path in [Self.features, Self.annotated, Self.review.appendingPathComponent("lo-RP047-Inserted-and-Deleted-Paragraph-Mark.rtf").path,
                     Self.notesMidParagraph] {
            let items = try ChangeListing.list(.file(path), format: Self.rtf).filter { $0.kind != .comment }
            let ids = Array(Set(items.map(\.id))).sorted { Int($0)! < Int($1)! }
            XCTAssertEqual(ids, (1...ids.count).map(String.init), path)
            for id in ids {
                for r in [ReviewOptions(accept: [try ChangeFilter(parsing: "id=\(id)")]), ReviewOptions(reject: [try ChangeFilter(parsing: "id=\(id)")])] {
                    let out = try Self.inPlace(path, r)
                    XCTAssertEqual(Self.normalized(try Self.markdown(.bytes(out))), Self.normalized(try Self.markdown(.file(path), r)), "\(path) id=\(id)")
                    // The body's other changes stay, this one goes (a substitution's two halves share an id; a
                    // deleted note takes its own changes with it).
                    let body = items.filter { $0.story == "body" }
                    let left = try ChangeListing.list(.bytes(out), format: Self.rtf).filter { $0.kind != .comment && $0.story == "body" }
                    // Text inserted, then deleted: rejecting the insertion or accepting the deletion takes both.
                    let expected = body.count - body.filter { $0.id == id }.count
                    let nested = body.contains { i in
                        let t = i.after.isEmpty ? i.before : i.after
                        return i.id == id && !t.isEmpty && body.contains { $0.id != id && $0.paragraph == i.paragraph && ($0.before == t || $0.after == t) }
                    }
                    XCTAssertTrue(left.count == expected || (nested && left.count == expected - 1), "\(path) id=\(id): \(left.count) left")
                }
            }
        }
    }

    /// Changes after a note or annotation reference in a paragraph, and notes and annotations with changes:
    /// each listed id names the same change in place as in the listing (its text and story).
    func testIDsAfterNoteAndCommentReferencesAgree() throws {
        let path = Self.notesMidParagraph
        let items = try ChangeListing.list(.file(path), format: Self.rtf).filter { $0.kind != .comment }
        let byText = Dictionary(uniqueKeysWithValues: items.map { ($0.after.isEmpty ? $0.before : $0.after, $0.id) })
        // Stream order: the note's and comment's changes come where they stand in their paragraph.
        XCTAssertEqual(byText["before the note"], "1")
        XCTAssertEqual(byText["with a deletion"], "2")
        XCTAssertEqual(byText["after the note"], "3")
        XCTAssertEqual(byText[", and Ann adds"], "4")
        XCTAssertEqual(byText["after the comment"], "5")
        XCTAssertEqual(byText["really"], "6")
        XCTAssertEqual(byText["more"], "7")
        XCTAssertEqual(byText["note words"], "8")
        XCTAssertEqual(items.count, 9)
        for item in items {
            let text = item.after.isEmpty ? item.before : item.after
            let out = try Self.inPlace(path, ReviewOptions(reject: [try ChangeFilter(parsing: "id=\(item.id)")]))
            let left = try ChangeListing.list(.bytes(out), format: Self.rtf).filter { $0.kind != .comment }
            XCTAssertEqual(left.count, items.count - 1, "id=\(item.id)")
            XCTAssertFalse(left.contains { ($0.after.isEmpty ? $0.before : $0.after) == text && $0.kind == item.kind && !text.isEmpty },
                           "id=\(item.id) should reject \(text)")
        }
    }

    func testCommentsDroppedByAuthor() throws {
        let r = ReviewOptions(dropComments: [try ChangeFilter(parsing: "author=Bob Reviewer")])
        let out = Self.text(try Self.inPlace(Self.features, r))
        XCTAssertFalse(out.contains("Bob asks"))
        XCTAssertFalse(out.contains(#"\atrfstart 7"#), "the dropped comment's range goes")
        XCTAssertTrue(out.contains("Ann notes."))
        XCTAssertTrue(out.contains(#"{\*\atnid AE}{\*\atnauthor Ann Editor}{\cs15\chatn}"#), "the other comment is untouched")
        XCTAssertTrue(out.contains(#"{\revised\revauth1\revdttm130230942 inserted by Ann, }"#), "changes stay")
        XCTAssertEqual(Self.normalized(try Self.markdown(.bytes(Array(out.utf8)))), Self.normalized(try Self.markdown(.file(Self.features), r)))
    }

    // MARK: LibreOffice

    /// LibreOffice opens reviewed files, and its text is ours.
    func testLibreOfficeOpensReviewed() throws {
        guard let soffice = ["/usr/bin/soffice", "/usr/local/bin/soffice"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("LibreOffice (soffice) is not installed")
        }
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("redline-rtf-review-lo-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples: [(String, ChangeMode)] = [(Self.features, .accept), (Self.annotated, .reject),
                                               (Self.review.appendingPathComponent("lo-RP047-Inserted-and-Deleted-Paragraph-Mark.rtf").path, .accept),
                                               (Self.review.appendingPathComponent("lo-Revision_runs.rtf").path, .reject)]
        var paths: [String] = []
        for (i, (path, mode)) in samples.enumerated() {
            let p = dir.appendingPathComponent("s\(i).rtf").path
            try Data(try Self.inPlace(path, ReviewOptions(changes: mode))).write(to: URL(fileURLWithPath: p))
            paths.append(p)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: soffice)
        p.arguments = ["--headless", "-env:UserInstallation=file://\(dir.path)/profile", "--convert-to", "txt:Text",
                       "--outdir", dir.appendingPathComponent("out").path] + paths
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        for (i, path) in paths.enumerated() {
            let txt = dir.appendingPathComponent("out/s\(i).txt")
            let theirs = try String(contentsOf: txt, encoding: .utf8).replacingOccurrences(of: "\u{FEFF}", with: "")
            let ours = RTFLibreOfficeTests.expectedText(try RTFTestSupport.readFile(path))
            // LibreOffice's text export shows hidden text (`\v`, the fixture's "secret"), which the reader leaves out.
            XCTAssertEqual(RTFTestSupport.words(theirs).filter { $0 != "secret" }, RTFTestSupport.words(ours), samples[i].0)
        }
    }

    // MARK: Shapes and bad input

    /// A deleted chain of 100,000 paragraph marks merges into one paragraph; 3,000 nested groups.
    func testLongChainsAndDeepGroups() throws {
        let n = 100_000
        let chain = "{\\rtf1\\ansi{\\*\\revtbl{Unknown;}{A;}}\n" + String(repeating: "x{\\deleted\\revauthdel1 \\par}", count: n) + "end\\par}"
        var out: [UInt8] = []
        try RTFInPlaceReview.apply(.bytes(Array(chain.utf8)), review: ReviewOptions(changes: .accept)) { out += $0 }
        XCTAssertEqual(try RTFTestSupport.read(Self.text(out)).blocks.map(\.plainText), [String(repeating: "x", count: n) + "end"])
        let depth = 3_000
        let nested = "{\\rtf1\\ansi " + String(repeating: "{\\revised\\revauth1 a", count: depth) + String(repeating: "}", count: depth) + "\\par}"
        out = []
        try RTFInPlaceReview.apply(.bytes(Array(nested.utf8)), review: ReviewOptions(changes: .reject)) { out += $0 }
        XCTAssertEqual(Self.text(out), "{\\rtf1\\ansi " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth) + "\\par}")
    }

    func testBadInputFailsWithoutOutputAndLeavesInputAlone() throws {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("redline-rtf-review-bad-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.rtf")
        try Data("PK\u{3}\u{4} not RTF at all".utf8).write(to: bad)
        let outPath = dir.appendingPathComponent("out.rtf").path
        XCTAssertThrowsError(try InPlaceReview.review(.file(bad.path), format: Self.rtf, toFile: outPath, review: ReviewOptions(changes: .accept))) {
            XCTAssertTrue(($0 as? RedlineError)?.message.contains("not an RTF file") == true, "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: outPath))
        XCTAssertEqual(try String(contentsOf: bad, encoding: .utf8), "PK\u{3}\u{4} not RTF at all")
        XCTAssertThrowsError(try InPlaceReview.review(.file(dir.path), format: Self.rtf, toFile: outPath, review: ReviewOptions(changes: .accept)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: outPath))
        // A good file: reviewed, the input unchanged.
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.features))
        try InPlaceReview.review(.file(Self.features), format: Self.rtf, toFile: outPath, review: ReviewOptions(changes: .accept))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: Self.features)), before)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outPath))
    }

    /// RTF → RTF goes in place (the route; with no decision, the identity); other pairs and options that need the
    /// model do not.
    func testRoute() throws {
        let accept = ReviewOptions(changes: .accept)
        XCTAssertTrue(InPlaceReview.applies(from: Self.rtf, to: Self.rtf, review: accept, write: WriteOptions()))
        XCTAssertTrue(InPlaceReview.applies(from: Self.rtf, to: Self.rtf, review: ReviewOptions(), write: WriteOptions()))
        XCTAssertFalse(InPlaceReview.applies(from: Self.rtf, to: Self.md, review: accept, write: WriteOptions()))
        XCTAssertFalse(InPlaceReview.applies(from: Self.rtf, to: Self.rtf, review: accept, write: WriteOptions(paragraphPreset: ParagraphStyle())))
        let out = MemoryOutput()
        try Converter.convert(.file(Self.annotated), to: out,
                              options: ConversionOptions(from: Self.rtf, to: Self.rtf, review: accept), diagnostics: Diagnostics())
        XCTAssertTrue(out.string.hasPrefix(#"{\rtf1\ansi\ansicpg1252\deff0\nouicompat\deflang1033"#), "the input's own header: in place")
    }
}

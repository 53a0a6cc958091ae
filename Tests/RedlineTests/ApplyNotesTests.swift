import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// `apply` writes EDITED's note edits into a DOCX ORIGINAL's footnotes and endnotes (`ApplyNotes`: each changed
/// note rewritten where it stands, new notes appended, every other byte kept), into an RTF ORIGINAL's
/// `{\footnote …}` groups (revisions inside them, new notes as groups inside the insertion) and into a Markdown
/// ORIGINAL's footnote definitions (CriticMarkup inside them).
final class ApplyNotesTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-apply-notes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func apply(_ edited: String, onto original: String, changes: ChangeMode = .marked,
                       _ d: Diagnostics = Diagnostics()) throws -> String {
        let out = dir + "/out-\(UUID().uuidString.prefix(8))." + (original as NSString).pathExtension
        var options = ApplyOptions(compare: CompareOptions(author: "Ed"))
        options.accept = changes == .accept
        _ = try Application.apply(edited: edited, onto: original, options: options, toFile: out, diagnostics: d)
        return out
    }

    private func text(_ path: String, _ changes: ChangeMode) throws -> [String] {
        try FormatFixtures.paragraphs(path, FormatRegistry.docx, ReviewOptions(changes: changes), in: dir)
    }

    private func write(_ s: String, _ name: String) throws -> String {
        let p = dir + "/" + name
        try Data(s.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    func testANoteEditIsWrittenIntoMarkdownDOCXAndRTF() throws {
        let source = "Alpha beta gamma.[^1]\n\nDelta epsilon.\n\n[^1]: A note here, and more.\n"
        let edited = "Alpha beta gamma.[^1]\n\nDelta zeta epsilon.\n\n[^1]: A note there, and less.\n"
        for format in [FormatRegistry.markdown, FormatRegistry.docx, FormatRegistry.rtf] {
            let original = try FormatFixtures.file(source, "o-\(format.name)", as: format, in: dir)
            let e = try FormatFixtures.file(edited, "e-\(format.name)", as: format, in: dir)
            let d = Diagnostics()
            let out = try apply(e, onto: original, d)
            let accepted = try FormatFixtures.paragraphs(out, format, ReviewOptions(changes: .accept), in: dir)
            XCTAssertTrue(accepted.contains("Delta zeta epsilon."), "\(format.name): \(accepted)")
            XCTAssertEqual(d.count(of: .applyNoteUnplaced), 0, "\(d.all)")
            XCTAssertTrue(accepted.contains("[^1]: A note there, and less."), "\(accepted)")
            let rejected = try FormatFixtures.paragraphs(out, format, ReviewOptions(changes: .reject), in: dir)
            XCTAssertTrue(rejected.contains("[^1]: A note here, and more."), "\(rejected)")
            if format.isSame(as: FormatRegistry.rtf) {
                // Only the note's text, the body's edited paragraph and the revision table differ.
                let o = try String(contentsOfFile: original, encoding: .utf8).components(separatedBy: "\n")
                let r = try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "\n")
                let changed = r.filter { !o.contains($0) }
                XCTAssertEqual(changed.count, 3, "the revision table's line, the body's and the note's paragraph: \(changed)")
                XCTAssertTrue(changed.contains { $0.contains("{\\footnote") && $0.contains("{\\deleted\\revauthdel1") && $0.contains("here}") }, "\(changed)")
            }
        }
    }

    /// RTF ORIGINAL: a footnote EDITED adds is a `{\footnote …}` group inside the insertion (reject: gone;
    /// accept: the note), also when the changes are accepted; LibreOffice reads the new note.
    func testNewFootnoteOntoRTF() throws {
        let original = try FormatFixtures.file("One two.[^a]\n\nThree four.\n\n[^a]: First note.\n", "o", as: FormatRegistry.rtf, in: dir)
        let edited = try write("One two.[^a]\n\nThree four.[^b]\n\n[^a]: First note.\n\n[^b]: A *new* note.\n", "e.md")
        let d = Diagnostics()
        let out = try apply(edited, onto: original, d)
        XCTAssertEqual(d.count(of: .applyNoteUnplaced), 0, "\(d.all)")
        let rtf = FormatRegistry.rtf
        XCTAssertEqual(try FormatFixtures.paragraphs(out, rtf, ReviewOptions(changes: .accept), in: dir),
                       ["One two.[^1]", "[^1]: First note.", "Three four.[^2]", "[^2]: A *new* note."])
        XCTAssertEqual(try FormatFixtures.paragraphs(out, rtf, ReviewOptions(changes: .reject), in: dir),
                       ["One two.[^1]", "[^1]: First note.", "Three four."])
        let marked = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(marked.contains("{\\revised\\revauth1"), marked)
        // Every other byte is ORIGINAL's: only the revision table's line and the edited paragraph's differ.
        let before = try String(contentsOfFile: original, encoding: .utf8).components(separatedBy: "\n")
        let changed = marked.components(separatedBy: "\n").filter { !before.contains($0) }
        XCTAssertEqual(changed.count, 2, "\(changed)")
        XCTAssertTrue(changed.contains { $0.hasPrefix("\\pard\\plain \\ql {Three four.}") || $0.contains("Three four.{\\revised") }, "\(changed)")
        XCTAssertNotNil(marked.range(of: #"Three four\.\{\\revised[^{}]* \{\\super\\chftn\}\{\\footnote"#, options: .regularExpression), marked)
        let accepted = try apply(edited, onto: original, changes: .accept)
        XCTAssertEqual(try FormatFixtures.paragraphs(accepted, rtf, ReviewOptions(changes: .marked), in: dir),
                       ["One two.[^1]", "[^1]: First note.", "Three four.[^2]", "[^2]: A *new* note."])
        XCTAssertFalse(try String(contentsOfFile: accepted, encoding: .utf8).contains("\\revised"))
        // LibreOffice reads the new note: its number after the sentence, its text among the notes.
        try TestProcess.require("soffice")
        let r = try TestProcess.run(["soffice", "-env:UserInstallation=file://" + dir + "/lo-profile", "--headless",
                                     "--convert-to", "docx", "--outdir", dir + "/lo", out])
        XCTAssertEqual(r.status, 0, r.err)
        let lo = dir + "/lo/" + ((out as NSString).lastPathComponent as NSString).deletingPathExtension + ".docx"
        let notes = String(decoding: try zipEntries(lo)["word/footnotes.xml"] ?? [], as: UTF8.self)
        XCTAssertTrue(notes.contains("new") && notes.contains("First note"), notes)
    }

    /// A Word file's footnote and endnote edited through Markdown: word-level changes inside each note, the
    /// other parts ORIGINAL's bytes, valid; accepted in place too.
    func testWordNotesEditedThroughMarkdown() throws {
        let original = RepositoryPaths.sharedCorpus + "/pandoc/notes.docx"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: original))
        let md = dir + "/notes.md"
        try Converter.convert(.file(original), toFile: md, options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.markdown),
                              diagnostics: Diagnostics())
        var source = try String(contentsOfFile: md, encoding: .utf8)
        XCTAssertTrue(source.contains("[^1]: My note."), source)
        source = source.replacingOccurrences(of: "My note.", with: "My revised note.")
            .replacingOccurrences(of: "an endnote at", with: "an endnote placed at")
        let edited = try write(source, "edited.md")
        let d = Diagnostics()
        let out = try apply(edited, onto: original, d)
        XCTAssertEqual(d.count(of: .applyNoteUnplaced), 0, "\(d.all)")
        try OOXMLValidate.assertValid(out)
        let o = try zipEntries(original), r = try zipEntries(out)
        XCTAssertEqual(Set(o.keys), Set(r.keys))
        for (name, bytes) in o where !["word/footnotes.xml", "word/endnotes.xml"].contains(name) {
            XCTAssertEqual(r[name], bytes, "\(name) changed")
        }
        let footnotes = String(decoding: r["word/footnotes.xml"] ?? [], as: UTF8.self)
        XCTAssertNotNil(footnotes.range(of: #"<w:ins w:id="\d+"[^>]*><w:r>(<w:rPr>.*?</w:rPr>)?<w:t xml:space="preserve">\s?revised\s?</w:t>"#,
                                        options: .regularExpression), footnotes)
        XCTAssertFalse(footnotes.contains("<w:delText"), "only an insertion: \(footnotes)")
        XCTAssertEqual(try text(out, .accept).filter { $0.hasPrefix("[^") },
                       ["[^1]: My revised note.", "[^2]: This is an endnote placed at the end of the document."])
        XCTAssertEqual(try text(out, .reject).filter { $0.hasPrefix("[^") }, try text(original, .accept).filter { $0.hasPrefix("[^") })
        // The separators and every untouched byte of the notes parts kept: the parts differ only inside the
        // edited notes' paragraphs.
        let before = String(decoding: o["word/endnotes.xml"] ?? [], as: UTF8.self)
        let after = String(decoding: r["word/endnotes.xml"] ?? [], as: UTF8.self)
        let cut = before.range(of: "This is an endnote")!.lowerBound
        XCTAssertTrue(after.hasPrefix(String(before[..<cut])))
        let accepted = try apply(edited, onto: original, changes: .accept)
        XCTAssertEqual(try text(accepted, .marked).filter { $0.hasPrefix("[^") },
                       ["[^1]: My revised note.", "[^2]: This is an endnote placed at the end of the document."])
        XCTAssertFalse(String(decoding: try zipEntries(accepted)["word/footnotes.xml"] ?? [], as: UTF8.self).contains("<w:ins "))
    }

    /// A footnote added in EDITED becomes a new footnote in ORIGINAL's package, its reference inside the tracked
    /// insertion; a package without a footnotes part gets one (relationship, content type). A note reference
    /// EDITED removed is a deleted reference.
    func testNewAndRemovedFootnotes() throws {
        let withNotes = try FormatFixtures.file("One two.[^a]\n\nThree four.\n\n[^a]: First note.\n", "with", as: FormatRegistry.docx, in: dir)
        let without = try FormatFixtures.file("One two.\n\nThree four.\n", "without", as: FormatRegistry.docx, in: dir)
        let removePart = { (path: String) throws -> String in
            // A Word file that never had notes: no footnotes part at all.
            var parts = try ZipEntries.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            parts.removeAll { $0.name.hasSuffix("footnotes.xml") || $0.name.hasSuffix("endnotes.xml") }
            for k in parts.indices where k < parts.count {
                var s = String(decoding: parts[k].bytes, as: UTF8.self)
                guard parts[k].name.hasSuffix(".rels") || parts[k].name == "[Content_Types].xml" else { continue }
                s = s.replacingOccurrences(of: #"<Relationship [^>]*(foot|end)notes[^>]*/>"#, with: "", options: .regularExpression)
                s = s.replacingOccurrences(of: #"<Override [^>]*(foot|end)notes[^>]*/>"#, with: "", options: .regularExpression)
                parts[k].bytes = Array(s.utf8)
            }
            let out = self.dir + "/bare-\(UUID().uuidString.prefix(6)).docx"
            try Data(try ZipEntries.package(parts)).write(to: URL(fileURLWithPath: out))
            return out
        }
        let bare = try removePart(without)
        for original in [withNotes, without, bare] {
            let edited = try write("One two.[^a]\n\nThree four.[^b]\n\n[^a]: First note.\n\n[^b]: A *new* note.\n", "e.md")
            let d = Diagnostics()
            let out = try apply(edited, onto: original, d)
            try OOXMLValidate.assertValid(out)
            let accepted = try text(out, .accept)
            XCTAssertTrue(accepted.contains { $0.hasPrefix("Three four.[^") }, "\(original): \(accepted)")
            XCTAssertTrue(accepted.contains { $0.hasSuffix(": A *new* note.") }, "\(original): \(accepted)")
            let rejected = try text(out, .reject)
            XCTAssertTrue(rejected.contains("Three four."), "\(original): \(rejected)")
            let r = try zipEntries(out)
            let footnotes = try XCTUnwrap(r.first { $0.key.hasSuffix("footnotes.xml") }?.value)
            let xml = String(decoding: footnotes, as: UTF8.self)
            XCTAssertTrue(xml.contains("<w:footnoteRef/>") && xml.contains("<w:ins "), xml)
            let body = String(decoding: r["word/document.xml"] ?? [], as: UTF8.self)
            XCTAssertNotNil(body.range(of: #"<w:ins [^>]*>(<w:r>.*?)*<w:footnoteReference w:id="\d+"/>"#, options: .regularExpression), body)
        }
        // The reference removed: a deleted reference, the note left in the part as Word leaves it.
        let edited = try write("One two.\n\nThree four.\n", "removed.md")
        let out = try apply(edited, onto: withNotes)
        XCTAssertEqual(try text(out, .accept).first, "One two.")
        XCTAssertEqual(try text(out, .reject).first { $0.hasPrefix("One") }, "One two.[^1]")
    }
}

extension ApplyNotesTests {
    /// Copies editing the same Word footnote at different words, and one adding a note, combine into one file:
    /// every reviewer's note edit lands with their name, rejecting gives ORIGINAL's notes, and a footnote
    /// both changed at one place is a conflict listed once.
    func testCombinedCopiesEditNotes() throws {
        for format in [FormatRegistry.docx, FormatRegistry.rtf] { try combineCopiesEditingNotes(format) }
    }

    private func combineCopiesEditingNotes(_ format: Format) throws {
        let original = try FormatFixtures.file("One two three.[^a]\n\nFour five six.\n\n[^a]: Alpha beta gamma delta.\n", "o", as: format, in: dir)
        let a = try write("One two three.[^a]\n\nFour five six.\n\n[^a]: Alpha BETA gamma delta.\n", "ann.md")
        let b = try write("One two three.[^a]\n\nFour five six.[^b]\n\n[^a]: Alpha beta gamma DELTA.\n\n[^b]: Bob's new note.\n", "bob.md")
        let c = try write("One two three.[^a]\n\nFour five six.\n\n[^a]: Alpha BETTER gamma delta.\n", "cy.md")
        let out = dir + "/combined." + format.extensions[0]
        var options = CombineOptions()
        options.prefer = "ann"
        let result = try Combination.combine(original: original, copies: [a, b, c], options: options, toFile: out,
                                             diagnostics: Diagnostics())
        if format.isSame(as: FormatRegistry.docx) { try OOXMLValidate.assertValid(out) }
        XCTAssertEqual(result.conflicts.count, 1, "\(result.conflicts)")
        func text(_ path: String, _ changes: ChangeMode) throws -> [String] {
            try FormatFixtures.paragraphs(path, format, ReviewOptions(changes: changes), in: dir)
        }
        let accepted = try text(out, .accept)
        XCTAssertTrue(accepted.contains { $0.hasSuffix(": Alpha BETA gamma DELTA.") }, "\(accepted)")
        XCTAssertTrue(accepted.contains { $0.hasSuffix(": Bob's new note.") }, "\(accepted)")
        let rejected = try text(out, .reject)
        XCTAssertEqual(rejected.filter { $0.hasPrefix("[^") }, ["[^1]: Alpha beta gamma delta."], "\(rejected)")
        // Each reviewer accepted alone gives that reviewer's note.
        let annOnly = try FormatFixtures.paragraphs(out, format, ReviewOptions(changes: .reject, accept: [ChangeFilter(author: "ann")]), in: dir)
        XCTAssertTrue(annOnly.contains("[^1]: Alpha BETA gamma delta."), "\(annOnly)")
        let bobOnly = try FormatFixtures.paragraphs(out, format, ReviewOptions(changes: .reject, accept: [ChangeFilter(author: "bob")]), in: dir)
        XCTAssertTrue(bobOnly.contains("[^1]: Alpha beta gamma DELTA."), "\(bobOnly)")
        XCTAssertTrue(bobOnly.contains { $0.hasSuffix(": Bob's new note.") }, "\(bobOnly)")
    }
}

extension ApplyNotesTests {
    /// Markdown ORIGINAL: edits inside footnote definitions (one on the line after its label, two paragraphs)
    /// are CriticMarkup inside them, rejecting the marks as text gives ORIGINAL's bytes; copies editing one
    /// note combine; a note EDITED adds is reported (its reference written, not its text).
    func testMarkdownFootnoteDefinitionsAreEdited() throws {
        let source = "Body one.[^a] Body two.[^b]\n\n[^a]: Alpha beta gamma.\n\n[^b]:\n    Delta epsilon.\n\n    Zeta eta.\n"
        let original = try write(source, "o.md")
        let edited = try write(source.replacingOccurrences(of: "beta", with: "BETA").replacingOccurrences(of: "Zeta", with: "Theta"), "e.md")
        let d = Diagnostics()
        let out = try apply(edited, onto: original, d)
        XCTAssertEqual(d.count(of: .applyNoteUnplaced) + d.count(of: .applyUnplaced), 0, "\(d.all)")
        let marked = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(marked.contains("[^a]: Alpha {~~beta~>BETA~~}"), marked)
        XCTAssertTrue(marked.contains("    {~~Zeta~>Theta~~}"), marked)
        XCTAssertEqual(String(decoding: FuzzRegressionTests.rejectedAsText(Array(marked.utf8)), as: UTF8.self), source)
        let accepted = try FormatFixtures.paragraphs(out, FormatRegistry.markdown, ReviewOptions(changes: .accept), in: dir)
        XCTAssertTrue(accepted.contains("[^a]: Alpha BETA gamma."), "\(accepted)")
        // Two copies, one note each, combined.
        let a = try write(source.replacingOccurrences(of: "gamma", with: "GAMMA"), "ann.md")
        let b = try write(source.replacingOccurrences(of: "eta.", with: "ETA."), "bob.md")
        let combined = dir + "/combined.md"
        _ = try Combination.combine(original: original, copies: [a, b], options: CombineOptions(), toFile: combined,
                                    diagnostics: Diagnostics())
        let both = try String(contentsOfFile: combined, encoding: .utf8)
        XCTAssertTrue(both.contains("{~~gamma~>GAMMA~~}{>>@ann") && both.contains("{~~eta~>ETA~~}{>>@bob"), both)
        XCTAssertEqual(String(decoding: FuzzRegressionTests.rejectedAsText(Array(both.utf8)), as: UTF8.self), source)
        // A new note: reported.
        let added = try write(source.replacingOccurrences(of: "Body two.[^b]", with: "Body two.[^b] Three.[^c]") + "\n[^c]: New.\n", "added.md")
        let reported = Diagnostics()
        _ = try apply(added, onto: original, reported)
        XCTAssertEqual(reported.count(of: .applyNoteUnplaced), 1, "\(reported.all)")
    }
}

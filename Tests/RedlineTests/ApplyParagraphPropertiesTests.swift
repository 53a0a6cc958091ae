import Foundation
import XCTest
import Redline
import RedlineMarkdown
import RedlineZip
import RedlineTestSupport

/// Paragraph-property changes in `redline apply` and `combine` (`ApplyStep.restyle`): a paragraph made a heading,
/// a heading's level changed, a heading made a paragraph, a paragraph's style changed, with or without text
/// edits in the same paragraph, come through the plan as one property step (not the paragraph deleted and
/// inserted again) and are written as each format tracks them.
final class ApplyParagraphPropertiesTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "redline-restyle-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static let original = """
    # Title

    Intro line.

    ## Section two

    Body text here.

    Last one.

    """

    /// Intro made a level-2 heading, Section two made level 1 (its text edited too), nothing else.
    private static let edited = """
    # Title

    ## Intro line.

    # Section two revised

    Body text here.

    Last one.

    """

    private func options(_ accept: Bool = false) -> ApplyOptions {
        ApplyOptions(compare: CompareOptions(author: "Editor", date: "2026-01-02T00:00:00Z"), accept: accept, force: true)
    }

    private func restyles(_ plan: ApplyPlan) -> [Int: (LeafProperties, LeafProperties, Change)] {
        var out: [Int: (LeafProperties, LeafProperties, Change)] = [:]
        for case .restyle(let k, let old, let new, let c) in plan.steps { out[k] = (old, new, c) }
        return out
    }

    // MARK: The plan

    func testPlanHasPropertyStepsNotDeleteAndInsert() throws {
        let o = try write(Self.original, "o.md"), e = try write(Self.edited, "e.md")
        let (plan, _, stats) = try Application.plan(edited: e, onto: o, options: options(), diagnostics: Diagnostics())
        let r = restyles(plan)
        XCTAssertEqual(Set(r.keys), [1, 2], "\(plan.steps)")
        XCTAssertEqual(r[1]?.0.headingLevel, 0)
        XCTAssertEqual(r[1]?.1.headingLevel, 2)
        XCTAssertEqual(r[2]?.0.headingLevel, 2)
        XCTAssertEqual(r[2]?.1.headingLevel, 1)
        XCTAssertEqual(r[1]?.2.author, "Editor")
        XCTAssertEqual(stats.restyled, 2)
        // No paragraph deleted or inserted; Section two's text edit is an edit of the same leaf, after its step.
        for step in plan.steps {
            if case .delete = step { XCTFail("a deletion: \(plan.steps)") }
            if case .insert = step { XCTFail("an insertion: \(plan.steps)") }
        }
        let order = plan.steps.compactMap { s -> String? in
            switch s {
            case .restyle(let k, _, _, _): return "restyle \(k)"
            case .edit(let k, _, _): return "edit \(k)"
            default: return nil
            }
        }
        XCTAssertEqual(order, ["restyle 1", "restyle 2", "edit 2"])
        guard case .edit(_, let edits, _)? = plan.steps.last else { return XCTFail("no edit") }
        XCTAssertEqual(edits.map { ApplyPlan.text(of: $0.inserted, view: .accept) }, [" revised"])
    }

    func testHeadingMadeAParagraph() throws {
        let o = try write(Self.original, "o.md")
        let e = try write(Self.original.replacingOccurrences(of: "## Section two", with: "Section two"), "e.md")
        let (plan, _, _) = try Application.plan(edited: e, onto: o, options: options(), diagnostics: Diagnostics())
        XCTAssertEqual(plan.steps.count, 1, "\(plan.steps)")
        XCTAssertEqual(restyles(plan)[2]?.1.headingLevel, 0)
    }

    /// A tracked style change (as the DOCX reader gives one): the named style EDITED chose, ORIGINAL's other
    /// properties; a text change in the same paragraph alongside.
    func testTrackedStyleChangeWithAndWithoutTextEdits() {
        let c = Change(author: "Ann", date: "2026-01-01T00:00:00Z")
        let body = ParagraphStyle(name: "Body Text", spaceAfter: 6)
        let original = Document(blocks: [.paragraph(Paragraph([.text("One two.")], style: body)),
                                         .paragraph(Paragraph([.text("Three.")], style: body))])
        var quote = body
        quote.name = "Quote"
        quote.alignment = .center
        let compared = Document(blocks: [
            .paragraph(Paragraph([.text("One"), .insertion(c, [.text(" and")]), .text(" two.")], style: quote,
                                 styleChange: ParagraphStyleChange(change: c, old: body))),
            .paragraph(Paragraph([.text("Three.")], style: quote, styleChange: ParagraphStyleChange(change: c, old: body))),
        ])
        let plan = ApplyPlan.make(original: original, compared: compared, fallback: Change(author: "X", date: nil))
        let r = restyles(plan)
        XCTAssertEqual(Set(r.keys), [0, 1])
        XCTAssertEqual(r[0]?.1.style.name, "Quote")
        XCTAssertNil(r[0]?.1.style.alignment, "with a new style, formatting that differs is the style's")
        XCTAssertEqual(r[0]?.1.style.spaceAfter, 6, "unchanged fields keep ORIGINAL's value")
        XCTAssertEqual(r[0]?.0, LeafProperties(headingLevel: 0, style: body))
        XCTAssertEqual(r[0]?.2, c)
        XCTAssertEqual(plan.steps.count, 3, "\(plan.steps)")
        // The same style, aligned otherwise: the alignment is the change.
        var centered = body
        centered.alignment = .center
        let aligned = Document(blocks: [.paragraph(Paragraph([.text("One two.")], style: centered,
                                                             styleChange: ParagraphStyleChange(change: c, old: body))),
                                        .paragraph(Paragraph([.text("Three.")], style: body))])
        let a = restyles(ApplyPlan.make(original: original, compared: aligned, fallback: c))
        XCTAssertEqual(a[0]?.1, LeafProperties(headingLevel: 0, style: centered))
        // A style change that changes nothing the plan carries is no step.
        let same = Document(blocks: [.paragraph(Paragraph([.text("One two.")], style: body,
                                                          styleChange: ParagraphStyleChange(change: c, old: body))),
                                     .paragraph(Paragraph([.text("Three.")], style: body))])
        XCTAssertTrue(ApplyPlan.make(original: original, compared: same, fallback: c).isEmpty)
    }

    // MARK: Combine

    func testCombineSameChangeOnceDifferentChangeAConflict() throws {
        let o = try write(Self.original, "o.md")
        let a = try write(Self.original.replacingOccurrences(of: "Intro line.", with: "## Intro line."), "a.md")
        let b = try write(Self.original.replacingOccurrences(of: "Intro line.", with: "## Intro line."), "b.md")
        let c = try write(Self.original.replacingOccurrences(of: "Intro line.", with: "# Intro line."), "c.md")
        func plan(_ p: String) throws -> ApplyPlan { try Application.plan(edited: p, onto: o, options: options(), diagnostics: Diagnostics()).0 }
        let same = ApplyPlan.combined([try plan(a), try plan(b)], reviewers: ["Ann", "Bob"])
        XCTAssertEqual(restyles(same.plan).count, 1)
        XCTAssertTrue(same.conflicts.isEmpty)
        XCTAssertEqual(same.reviewers.map(\.paragraphsRestyled), [1, 0])
        XCTAssertEqual(same.reviewers[1].duplicates, 1)
        let differ = ApplyPlan.combined([try plan(a), try plan(c)], reviewers: ["Ann", "Cid"])
        XCTAssertEqual(restyles(differ.plan)[1]?.1.headingLevel, 2, "the first copy's change kept")
        XCTAssertEqual(differ.conflicts.count, 1)
        XCTAssertEqual(differ.conflicts.first?.other, "Cid")
        XCTAssertEqual(differ.plan.comments.count, 1)
        XCTAssertTrue(ApplyPlan.text(of: differ.plan.comments.first?.body.first.flatMap { $0.paragraph?.content } ?? [], view: .accept)
            .contains("a heading of level 1"), "\(differ.plan.comments)")
        let preferred = ApplyPlan.combined([try plan(a), try plan(c)], reviewers: ["Ann", "Cid"], prefer: "Cid")
        XCTAssertEqual(restyles(preferred.plan)[1]?.1.headingLevel, 1)
        XCTAssertEqual(preferred.conflicts.first?.other, "Ann")
    }

    // MARK: Markdown ORIGINAL

    /// The heading markers are marked as text: resolving every mark gives ORIGINAL's bytes (rejected) and EDITED's
    /// (accepted), the textual guarantee of apply onto Markdown (fuzz-apply checks it on random input).
    func testMarkdownHeadingMarkersAreMarkedAsText() throws {
        let o = try write(Self.original, "o.md"), e = try write(Self.edited, "e.md")
        let out = MemoryOutput()
        _ = try Application.apply(edited: e, onto: o, options: options(), into: out, diagnostics: Diagnostics())
        let s = out.string
        let by = "{>>@Editor (2026-01-02T00:00:00Z)<<}"
        XCTAssertTrue(s.contains("{++## ++}" + by + "Intro line."), s)
        XCTAssertTrue(s.contains("{~~## ~># ~~}" + by + "Section two"), s)
        // Outside the changed paragraphs, ORIGINAL's bytes.
        XCTAssertTrue(s.hasPrefix("# Title\n\n"), s)
        XCTAssertTrue(s.hasSuffix("\n\nBody text here.\n\nLast one.\n"), s)
        XCTAssertEqual(CriticMarkupText.resolve(s, accepting: { _ in false }), Self.original)
        XCTAssertEqual(CriticMarkupText.resolve(s, accepting: { _ in true }), Self.edited)
        // Accepted: EDITED's markers, no marks.
        let accepted = MemoryOutput()
        _ = try Application.apply(edited: e, onto: o, options: options(true), into: accepted, diagnostics: Diagnostics())
        XCTAssertEqual(accepted.string, Self.edited)
        // A heading made a paragraph: its marker deleted.
        let unmadeText = Self.original.replacingOccurrences(of: "## Section two", with: "Section two")
        let p = try write(unmadeText, "p.md")
        let unmade = MemoryOutput()
        _ = try Application.apply(edited: p, onto: o, options: options(), into: unmade, diagnostics: Diagnostics())
        XCTAssertEqual(unmade.string, Self.original.replacingOccurrences(of: "## Section two", with: "{--## --}" + by + "Section two"))
        XCTAssertEqual(CriticMarkupText.resolve(unmade.string, accepting: { _ in true }), unmadeText)
    }

    func testMarkdownSetextAndClosedHeadings() throws {
        let source = "Setext title\n============\n\n## Closed ##\n\nText.\n"
        let edited = "## Setext title\n\nClosed\n\nText.\n"
        let o = try write(source, "s.md"), e = try write(edited, "se.md")
        let out = MemoryOutput()
        _ = try Application.apply(edited: e, onto: o, options: options(), into: out, diagnostics: Diagnostics())
        XCTAssertEqual(CriticMarkupText.resolve(out.string, accepting: { _ in false }), source, out.string)
        XCTAssertEqual(CriticMarkupText.resolve(out.string, accepting: { _ in true }), edited, out.string)
        let accepted = MemoryOutput()
        _ = try Application.apply(edited: e, onto: o, options: options(true), into: accepted, diagnostics: Diagnostics())
        XCTAssertEqual(accepted.string, edited)
    }

    // MARK: DOCX ORIGINAL

    func testDOCXWritesPPrChangeAndKeepsEverythingElse() throws {
        let md = try write(Self.original, "o.md"), e = try write(Self.edited, "e.md")
        let o = dir + "/o.docx"
        try Converter.convert(.file(md), toFile: o, options: ConversionOptions(from: FormatRegistry.markdown, to: FormatRegistry.docx),
                              diagnostics: Diagnostics())
        let out = dir + "/out.docx"
        let d = Diagnostics()
        let stats = try Application.apply(edited: e, onto: o, options: options(), toFile: out, diagnostics: d)
        XCTAssertEqual(stats.restyled, 2)
        let before = try zipEntries(o), after = try zipEntries(out)
        for (name, bytes) in before where name != "word/document.xml" {
            XCTAssertTrue(after[name] == bytes, "\(name) changed")
        }
        let oldXML = String(decoding: before["word/document.xml"] ?? [], as: UTF8.self)
        let newXML = String(decoding: after["word/document.xml"] ?? [], as: UTF8.self)
        let oldParas = Self.paragraphs(oldXML), newParas = Self.paragraphs(newXML)
        XCTAssertEqual(oldParas.count, newParas.count)
        // Title, Body text, Last one: byte for byte; the two restyled paragraphs hold a w:pPrChange.
        for (k, (a, b)) in zip(oldParas, newParas).enumerated() {
            if [1, 2].contains(k) {
                XCTAssertTrue(b.contains("<w:pPrChange w:id=\""), b)
                XCTAssertTrue(b.contains("w:author=\"Editor\" w:date=\"2026-01-02T00:00:00Z\""), b)
            } else {
                XCTAssertEqual(a, b, "paragraph \(k) changed")
            }
        }
        // Outside the paragraphs, the part's bytes too.
        var rest = newXML
        for p in newParas { rest = rest.replacingOccurrences(of: p, with: "") }
        var oldRest = oldXML
        for p in oldParas { oldRest = oldRest.replacingOccurrences(of: p, with: "") }
        XCTAssertEqual(rest, oldRest)
        XCTAssertTrue(newParas[1].contains("<w:pStyle w:val=\"Heading2\"/>"), newParas[1])
        XCTAssertTrue(newParas[2].contains("<w:pStyle w:val=\"Heading1\"/>"), newParas[2])
        XCTAssertTrue(newParas[2].contains("<w:pPrChange") && newParas[2].contains("<w:pPr><w:pStyle w:val=\"Heading2\"/></w:pPr></w:pPrChange>"), newParas[2])
        try OOXMLValidate.assertValid(out)
        // The reader and `redline changes` see format changes; reject and accept give ORIGINAL's and EDITED's kinds.
        let rows = try ChangeListing.rows(.file(out), format: FormatRegistry.docx)
        XCTAssertEqual(rows.filter { $0.kind == .paragraph && $0.author == "Editor" }.count, 2, "\(rows)")
        func kinds(_ path: String) throws -> [String] {
            try Converter.read(.file(path), format: FormatRegistry.docx).blocks.map { b in
                switch b {
                case .heading(let l, _): return "h\(l)"
                case .paragraph: return "p"
                default: return "?"
                }
            }
        }
        let rejected = dir + "/rejected.docx", accepted = dir + "/accepted.docx"
        try InPlaceReview.review(.file(out), toFile: rejected, review: ReviewOptions(changes: .reject))
        try InPlaceReview.review(.file(out), toFile: accepted, review: ReviewOptions(changes: .accept))
        XCTAssertEqual(try kinds(rejected), ["h1", "p", "h2", "p", "p"])
        XCTAssertEqual(try kinds(accepted), ["h1", "h2", "h1", "p", "p"])
        // Rejected, the restyled paragraphs' styles are ORIGINAL's again.
        let rejectedParas = Self.paragraphs(String(decoding: try zipEntries(rejected)["word/document.xml"] ?? [], as: UTF8.self))
        func style(_ p: String) -> String? {
            p.range(of: "<w:pStyle w:val=\"").map { r in String(p[r.upperBound...].prefix { $0 != "\"" }) }
        }
        XCTAssertEqual(rejectedParas.map(style), oldParas.map(style))
        // Accepted through apply: no marks.
        let plain = dir + "/plain.docx"
        _ = try Application.apply(edited: e, onto: o, options: options(true), toFile: plain, diagnostics: Diagnostics())
        XCTAssertFalse(String(decoding: try zipEntries(plain)["word/document.xml"] ?? [], as: UTF8.self).contains("pPrChange"))
        XCTAssertEqual(try kinds(plain), ["h1", "h2", "h1", "p", "p"])
        try OOXMLValidate.assertValid(plain)
    }

    /// An ORIGINAL without heading styles: the paragraph made a heading gets an outline level in its own `w:pPr`,
    /// in the schema's place, with a warning; it reads back as a heading.
    func testDOCXWithoutHeadingStylesGetsAnOutlineLevel() throws {
        let o = dir + "/min.docx", out = dir + "/min-out.docx"
        let first = "<w:p><w:pPr><w:spacing w:after=\"100\"/><w:jc w:val=\"left\"/></w:pPr><w:r><w:t>Intro line.</w:t></w:r></w:p>"
        let second = "<w:p><w:r><w:t>Body text.</w:t></w:r></w:p>"
        try Data(MinimalDOCX.package(body: first + second)).write(to: URL(fileURLWithPath: o))
        let e = try write("# Intro line.\n\nBody text.\n", "min.md")
        let d = Diagnostics()
        _ = try Application.apply(edited: e, onto: o, options: options(), toFile: out, diagnostics: d)
        XCTAssertEqual(d.all.first { $0.code.rawValue == "docx.apply-heading-outline" }?.count, 1, "\(d.all)")
        let xml = String(decoding: try zipEntries(out)["word/document.xml"] ?? [], as: UTF8.self)
        XCTAssertTrue(xml.contains("<w:p><w:pPr><w:spacing w:after=\"100\"/><w:jc w:val=\"left\"/><w:outlineLvl w:val=\"0\"/><w:pPrChange w:id="), xml)
        XCTAssertTrue(xml.contains("<w:pPr><w:spacing w:after=\"100\"/><w:jc w:val=\"left\"/></w:pPr></w:pPrChange></w:pPr><w:r><w:t>Intro line.</w:t></w:r></w:p>" + second), xml)
        guard case .heading(1, _)? = try Converter.read(.file(out), format: FormatRegistry.docx).blocks.first else {
            return XCTFail("not read as a heading")
        }
        try OOXMLValidate.assertValid(out)
    }

    /// Word's own tracked property changes (spacing, RP025; numbering made a numbered list, RP022) applied onto
    /// the file's rejected version land as Word wrote them: one `w:pPrChange` each, by its author, the result
    /// valid, its accept and reject views the file's.
    func testWordFilesTrackedPropertyChangesLandAsTheyWere() throws {
        let root = RepositoryPaths.sharedCorpus + "/Open-Xml-PowerTools/"
        for (name, expect) in [("RP025-Paragraph-Props-Change.docx", "<w:spacing w:after=\"640\"/>"),
                               ("RP022-NumberingChange.docx", "<w:numPr><w:ilvl w:val=\"0\"/><w:numId w:val=\"2\"/></w:numPr>")] {
            let file = root + name
            guard FileManager.default.fileExists(atPath: file) else { throw XCTSkip("no shared corpus") }
            let original = dir + "/" + name, out = dir + "/out-" + name
            try InPlaceReview.review(.file(file), toFile: original, review: ReviewOptions(changes: .reject))
            _ = try Application.apply(edited: file, onto: original, options: ApplyOptions(force: true), toFile: out,
                                      diagnostics: Diagnostics())
            let xml = String(decoding: try zipEntries(out)["word/document.xml"] ?? [], as: UTF8.self)
            let wordXML = String(decoding: try zipEntries(file)["word/document.xml"] ?? [], as: UTF8.self)
            XCTAssertEqual(xml.components(separatedBy: "<w:pPrChange ").count, wordXML.components(separatedBy: "<w:pPrChange ").count, name)
            XCTAssertEqual(xml.components(separatedBy: "w:author=\"Eric White\"").count, wordXML.components(separatedBy: "w:author=\"Eric White\"").count, name)
            XCTAssertTrue(xml.contains(expect), "\(name): \(xml)")
            try OOXMLValidate.assertValid(out)
            func view(_ path: String, _ mode: ChangeMode) throws -> String {
                let md = dir + "/view-\(UUID().uuidString.prefix(6)).md"
                try Converter.convert(.file(path), toFile: md, options: ConversionOptions(from: FormatRegistry.docx, to: FormatRegistry.markdown,
                                                                                        changes: mode), diagnostics: Diagnostics())
                return try String(contentsOfFile: md, encoding: .utf8)
            }
            XCTAssertEqual(try view(out, .accept), try view(file, .accept), name)
            XCTAssertEqual(try view(out, .reject), try view(file, .reject), name)
        }
    }

    /// `w:p` elements of a part, in order.
    static func paragraphs(_ xml: String) -> [String] { wordParagraphs(xml) }

    // MARK: RTF ORIGINAL

    func testRTFCountsPropertyChangesAsNotWritten() throws {
        let md = try write(Self.original, "o.md"), e = try write(Self.edited, "e.md")
        let o = dir + "/o.rtf"
        try Converter.convert(.file(md), toFile: o, options: ConversionOptions(from: FormatRegistry.markdown, to: FormatRegistry.rtf),
                              diagnostics: Diagnostics())
        let d = Diagnostics()
        _ = try Application.apply(edited: e, onto: o, options: options(), into: MemoryOutput(), diagnostics: d)
        let dropped = d.all.filter { $0.code.rawValue == "rtf.apply-format-change-dropped" }
        XCTAssertEqual(dropped.first?.count, 2, "\(d.all)")
    }
}

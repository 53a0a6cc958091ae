import Foundation
import Redline
import XCTest

/// One accept/reject meaning, tested once. Redline has three engines that carry out review decisions:
/// the model's `ReviewTransform` (every conversion), the DOCX in-place `StoryRewriter` and the RTF in-place
/// `RTFReviewRewriter` (`InPlaceReview`, DOCX → DOCX and RTF → RTF). This oracle runs every kind of decision
/// (accept all, reject all, by author, by kind, by date before and after, by id, and mixes where a reject
/// filter and an accept filter overlap) through every engine that can take the input, reads each result
/// back to the model and requires the same text and block structure (`ModelOutline`: headings, paragraphs,
/// list items, table cells), after what the decision left is accepted, and again after it is rejected, so
/// that only the decided changes matter and both halves of every decision are seen.
///
/// The inputs: the DOCX and RTF files with tracked changes of the shared corpus (skipped when it is not
/// there), of `Corpus/` and of `Tests/Fixtures/rtf-review`, and documents generated from a seed (insertions,
/// deletions, substitutions, nested changes, paragraph-mark and paragraph-format changes, formatting changes,
/// table rows, by three authors on three dates) written with the DOCX and the RTF writer. Each DOCX input is
/// also written as RTF and each RTF input as DOCX (through the model), so the three engines see the same
/// document: decisions that mean the same in both formats (all, author, date; kind when the document has no
/// moves or table changes, which RTF writes as insertions and deletions) are compared across all of them, when
/// the two files read the same before any decision (the generated documents must). Ids are per file (RTF
/// has none: both routes number its changes in reading order), so id decisions compare the two routes of
/// one file, for ids `ChangeListing.list` lists for it.
///
/// Replay one generated document with `REDLINE_SEED=<seed>`; the failure messages name the seed.
final class ReviewEngineOracleTests: XCTestCase {
    static let docx = FormatRegistry.named("docx")!
    static let rtf = FormatRegistry.named("rtf")!

    // MARK: Decisions

    struct Decision {
        var name: String
        var review: ReviewOptions
        /// Means the same in every format (no ids, no kind that the other format writes as another).
        var portable: Bool
    }

    /// Every kind of decision for the changes `items` lists: accept and reject all, each author, each kind
    /// (`kindsPortable`: whether kind decisions mean the same across formats), before and after the middle
    /// day, up to `maxIDs` ids (spread over the list), and mixes.
    static func decisions(_ items: [ChangeListItem], kindsPortable: Bool, maxIDs: Int, ids: Bool = true) -> [Decision] {
        let changes = items.filter { $0.kind != .comment && $0.story == "body" }
        // Comments stay: their policy is not what this oracle is about (`DropComments` is one engine's stage).
        func r(_ mode: ChangeMode = .marked, accept: [ChangeFilter] = [], reject: [ChangeFilter] = []) -> ReviewOptions {
            ReviewOptions(changes: mode, accept: accept, reject: reject, comments: .keep)
        }
        var out = [Decision(name: "accept all", review: r(.accept), portable: true),
                   Decision(name: "reject all", review: r(.reject), portable: true)]
        var authors: [String] = []
        for a in changes.compactMap(\.author) where !authors.contains(where: { $0.lowercased() == a.lowercased() }) { authors.append(a) }
        for a in authors.prefix(4) {
            let f = ChangeFilter(author: a)
            out.append(Decision(name: "accept \(f)", review: r(accept: [f]), portable: true))
            out.append(Decision(name: "reject \(f)", review: r(reject: [f]), portable: true))
            out.append(Decision(name: "accept all but reject \(f)", review: r(.accept, reject: [f]), portable: true))
        }
        var kinds: [ChangeKind] = []
        for k in changes.map(\.kind) where !kinds.contains(k) { kinds.append(k) }
        for k in kinds {
            let f = ChangeFilter(kinds: [k])
            out.append(Decision(name: "accept \(f)", review: r(accept: [f]), portable: kindsPortable))
            out.append(Decision(name: "reject \(f)", review: r(reject: [f]), portable: kindsPortable))
        }
        if kinds.count > 1 {
            // Overlapping filters: a change both select is rejected.
            let a = ChangeFilter(kinds: Set(kinds)), b = ChangeFilter(kinds: [kinds[0]])
            out.append(Decision(name: "accept \(a), reject \(b)", review: r(accept: [a], reject: [b]), portable: kindsPortable))
        }
        let days = Array(Set(changes.compactMap { $0.date.map { String($0.prefix(10)) } }.filter { $0.count == 10 })).sorted()
        if !days.isEmpty {
            let d = days[days.count / 2]
            for (verb, before) in [("accept", true), ("reject", true), ("accept", false), ("reject", false)] {
                let f = before ? ChangeFilter(before: d) : ChangeFilter(after: d)
                out.append(Decision(name: "\(verb) \(f)", review: verb == "accept" ? r(accept: [f]) : r(reject: [f]), portable: true))
            }
            if let a = authors.first {
                let f = ChangeFilter(author: a, after: days[0])
                out.append(Decision(name: "reject all but accept \(f)", review: r(.reject, accept: [f]), portable: true))
            }
        }
        if ids {
            var listed: [String] = []
            for i in changes.map(\.id) where !i.isEmpty && !listed.contains(i) { listed.append(i) }
            let step = max(1, listed.count / max(1, maxIDs))
            for id in stride(from: 0, to: listed.count, by: step).prefix(maxIDs).map({ listed[$0] }) {
                let f = ChangeFilter(ids: [id])
                out.append(Decision(name: "accept \(f)", review: r(accept: [f]), portable: false))
                out.append(Decision(name: "reject \(f)", review: r(reject: [f]), portable: false))
            }
        }
        return out
    }

    // MARK: Engines

    /// The normalised result: the outline after what is left is accepted, and after it is rejected.
    struct Projection: Equatable {
        var accepted: [String]
        var rejected: [String]
    }

    static func projection(_ d: Document) throws -> Projection {
        Projection(accepted: ModelOutline.lines(try d.applying([ReviewTransform(.accept)]).blocks),
                   rejected: ModelOutline.lines(try d.applying([ReviewTransform(.reject)]).blocks))
    }

    /// The model route: the stages a conversion with `review` runs (`ConversionOptions.stages`).
    static func modelRoute(_ doc: Document, _ format: Format, _ review: ReviewOptions) throws -> Document {
        try doc.applying(ConversionOptions(from: format, to: format, review: review).stages)
    }

    /// The in-place route (`InPlaceReview`), read back.
    static func inPlaceRoute(_ bytes: [UInt8], _ format: Format, _ review: ReviewOptions) throws -> Document {
        let out = MemoryOutput()
        try InPlaceReview.review(.bytes(bytes), format: format, to: out, review: review)
        return try Converter.read(.bytes(out.bytes), format: format)
    }

    static func write(_ doc: Document, _ format: Format) throws -> [UInt8] {
        let out = MemoryOutput()
        try Converter.write(doc, format: format, to: out)
        return out.bytes
    }

    // MARK: Running a subject

    /// One document in one or two formats (the same changes), and maybe the model it was written from.
    struct Subject {
        var name: String
        /// The files: the original first, then its twin in the other format (if any).
        var files: [(format: Format, bytes: [UInt8])]
        /// A generated document: its own model route is an engine too.
        var model: Document?
        /// The twin must read as the original does (generated documents: the writers must carry everything).
        var requireTwin: Bool
    }

    /// Counts, for the report at the end.
    final class Tally: @unchecked Sendable {
        var subjects = 0
        var comparisons = 0
        var decisions = 0
        var twinsDropped: [String] = []
        var knownSeen: [String] = []
        var failures = 0
    }

    struct Engine {
        var label: String
        /// The result is read back from an RTF file the engine wrote: the RTF reader skips empty paragraphs.
        var readsRTF = false
        var run: (ReviewOptions) throws -> Document
    }

    func check(_ subject: Subject, tally: Tally) throws {
        tally.subjects += 1
        struct File {
            var format: Format
            var bytes: [UInt8]
            var doc: Document
            var items: [ChangeListItem]
        }
        var files: [File] = []
        for f in subject.files {
            let doc = try Converter.read(.bytes(f.bytes), format: f.format)
            let items = try ChangeListing.list(.bytes(f.bytes), format: f.format)
            files.append(File(format: f.format, bytes: f.bytes, doc: doc, items: items))
        }
        // The twin reads as the original does, or the cross-format comparison would test the writers.
        if files.count > 1 {
            let a = try Self.projection(files[0].doc), b = try Self.projection(files[1].doc)
            if a != b {
                if subject.requireTwin {
                    XCTFail("\(subject.name): the \(files[1].format.name) twin reads differently before any decision\n"
                            + Self.diff(a, b, "\(files[0].format.name)", "\(files[1].format.name)"))
                    tally.failures += 1
                }
                tally.twinsDropped.append(subject.name)
                files.removeLast()
            }
        }
        func engines(_ f: File) -> [Engine] {
            let name = f.format.name
            return [Engine(label: "model(\(name))") { try Self.modelRoute(f.doc, f.format, $0) },
                    Engine(label: "\(name)-in-place", readsRTF: name == "rtf") { try Self.inPlaceRoute(f.bytes, f.format, $0) }]
        }
        let changeKinds = Set(files.flatMap { $0.items.filter { $0.kind != .comment && $0.story == "body" }.map(\.kind) })
        let kindsPortable = changeKinds.isDisjoint(with: [.move, .table])
        // Portable decisions: every engine of every file (and the generated model) against the first.
        var all: [Engine] = []
        if let m = subject.model { all.append(Engine(label: "model(generated)") { try Self.modelRoute(m, Self.docx, $0) }) }
        for f in files { all += engines(f) }
        let limits = ModelGaps(files[0].items, subject.model ?? files[0].doc, docx: files[0].format.name == "docx")
        for d in Self.decisions(files[0].items, kindsPortable: kindsPortable, maxIDs: 0, ids: false) {
            let group = d.portable ? all : engines(files[0])
            try compare(subject.name, d, group, limits: limits, tally: tally)
        }
        // Per file: its ids, and (when not portable) its kinds, on its own two routes.
        for (i, f) in files.enumerated() {
            let name = subject.name + (i > 0 ? " (\(f.format.name) twin)" : "")
            let pairs = f.format.name == "docx" ? Self.substitutionPairs(f.doc, f.items) : [:]
            for d in Self.decisions(f.items, kindsPortable: kindsPortable, maxIDs: 6) where !d.portable {
                if i == 0 && !d.name.contains("id=") { continue }  // the original's kinds were compared above
                if let id = d.review.accept.first?.ids?.first ?? d.review.reject.first?.ids?.first, let pair = pairs[id] {
                    try compareSubstitutionHalf(name, d, id: id, pair: pair, engines(f), tally: tally)
                    continue
                }
                try compare(name, d, engines(f), limits: ModelGaps(f.items, f.doc, docx: f.format.name == "docx"), tally: tally)
            }
        }
    }

    // MARK: Known differences

    /// Known difference 1, the model with DOCX ids: the DOCX reader pairs a `w:del` and the `w:ins` after it (one
    /// author, one date) into one substitution, which keeps the deletion's `w:id` only. `redline changes` lists
    /// both ids (from the XML) and the in-place route decides each alone, but through the model `id=<deletion>`
    /// decides both halves and `id=<insertion>` selects nothing. Narrow expectation: the model's result is the
    /// in-place result of `id=<deletion>,<insertion>` for the deletion's id, and of no decision at all for the
    /// insertion's; and the in-place result is not that (so a fix shows up here).
    static let substitutionIDsReason = "DOCX substitution: the model keeps the w:del's id only (id=<w:ins> selects nothing, id=<w:del> both halves)"

    /// The DOCX substitutions of `doc` by the listed id of each half: the pair (deletion's id, insertion's id).
    static func substitutionPairs(_ doc: Document, _ items: [ChangeListItem]) -> [String: (deletion: String, insertion: String)] {
        var ids = Set<String>()
        for b in doc.blocks {
            b.forEachInline { if case .substitution(let c, _, _) = $0, let id = c.id { ids.insert(id) } }
        }
        var out: [String: (deletion: String, insertion: String)] = [:]
        for (i, item) in items.enumerated() where item.kind == .deletion && ids.contains(item.id) && i + 1 < items.count {
            let next = items[i + 1]
            guard next.kind == .insertion, next.author == item.author, next.date == item.date, next.story == item.story else { continue }
            out[item.id] = (item.id, next.id)
            out[next.id] = (item.id, next.id)
        }
        return out
    }

    /// Known difference 1 (`substitutionIDsReason`): the model's result for `id=<half>` against the in-place
    /// result of what the model really decides.
    func compareSubstitutionHalf(_ input: String, _ decision: Decision, id: String, pair: (deletion: String, insertion: String),
                                 _ engines: [Engine], tally: Tally) throws {
        tally.decisions += 1
        guard let model = engines.first(where: { $0.label.hasPrefix("model") }),
              let inPlace = engines.first(where: { $0.label.hasSuffix("in-place") }) else { return }
        var what = decision.review
        let both = ChangeFilter(ids: [pair.deletion, pair.insertion])
        if id == pair.insertion {
            what.accept = []; what.reject = []
        } else if !what.accept.isEmpty {
            what.accept = [both]
        } else {
            what.reject = [both]
        }
        let m = try Self.projection(try model.run(decision.review))
        let expected = try Self.projection(try inPlace.run(what))
        let actual = try Self.projection(try inPlace.run(decision.review))
        tally.comparisons += 1
        if m == expected && actual != m {
            tally.knownSeen.append("\(input): \(decision.name): \(model.label) — \(Self.substitutionIDsReason)")
            return
        }
        tally.failures += 1
        if m == actual {
            XCTFail("\(input): \(decision.name): the model now decides this substitution half as in place: remove known difference 1")
        } else {
            XCTFail("\(input): \(decision.name): \(model.label) differs from \(inPlace.label) beyond known difference 1 (\(Self.substitutionIDsReason))\n"
                    + Self.diff(expected, m, "\(inPlace.label) with \(what.accept + what.reject)", model.label))
        }
    }

    /// Known difference 2, RTF in place: a paragraph mark that goes right before a table (an inserted one
    /// rejected, a deleted one accepted) is left out of the stream, so the paragraph's text runs into the
    /// table's first cell; Word's rule (and the model's, and DOCX in place) keeps the paragraph, as nothing can
    /// join a table. Fixing it needs the rewriter to look ahead past the mark. Narrow expectation: the
    /// result is the reference's with some paragraphs right before a table joined into its first cell's first
    /// paragraph, and nothing else different.
    static let tableJoinReason = "RTF in place: a paragraph mark that goes right before a table joins the paragraph into the first cell"

    /// Known difference 5, list joins: Word's paragraphs are flat, list items included, so a paragraph whose
    /// break goes joins across list boundaries (a list item's last paragraph joins the next item's first, at
    /// whatever level, or the paragraph after the list; a paragraph before a list joins the first item) and the
    /// joined one takes the next one's properties. The model follows that rule (issue #32, checked against a
    /// reference in `WordFlatParagraphRuleTests`); the in-place engines join across lists too but differ in
    /// details (DOCX in place does not always give the joined paragraph the next one's level, RTF in place
    /// numbers what it joins as its own stream does). Expectation, for documents with a list: the same text,
    /// headings, tables and cells in the same order once list markers and the breaks between plain paragraphs
    /// are left out (`paragraphsJoined`). This hides paragraph breaks in such documents; the breaks elsewhere
    /// are compared exactly.
    static let listJoinReason = "a paragraph whose break goes joins across list boundaries: the in-place engines differ from the model's (Word's) rule in details"

    /// The outlines `lines` with each subset of the joins known differences 2 and 5 describe: a paragraph
    /// ("P x") and the next paragraph or heading with only list boundaries between them (`lists`: "/L", "LI",
    /// "UL", "OL") joined; one right before a table (`table`, past list ends) joined into the first cell's first
    /// paragraph. Items and lists left empty go.
    static func joinVariants(_ lines: [String], lists: Bool, table: Bool) -> [[String]] {
        func isText(_ l: String) -> Bool { l.hasPrefix("P ") || (l.hasPrefix("H") && l.contains(" ")) }
        func text(_ l: String) -> String { String(l[l.index(after: l.firstIndex(of: " ")!)...]) }
        func prefix(_ l: String) -> String { String(l[...l.firstIndex(of: " ")!]) }
        /// The index of the paragraph that the paragraph at `i` would join.
        func target(_ i: Int) -> Int? {
            guard lines[i].hasPrefix("P ") else { return nil }
            var j = i + 1
            while j < lines.count && lines[j] == "/L" { j += 1 }
            if table, j + 3 < lines.count, lines[j] == "TABLE", lines[j + 1] == "TR", lines[j + 2] == "TD", lines[j + 3].hasPrefix("P ") {
                return j + 3
            }
            while lists && j < lines.count && ["/L", "LI", "UL", "OL"].contains(lines[j]) { j += 1 }
            guard lists, j > i + 1, j < lines.count, isText(lines[j]) else { return nil }
            return j
        }
        let spots = lines.indices.compactMap { i in target(i).map { (i, $0) } }
        guard !spots.isEmpty, spots.count <= 10 else { return [] }
        var out: [[String]] = []
        for mask in 1..<(1 << spots.count) {
            var l: [String?] = lines
            // In reading order, so a joined paragraph that joins the next one in turn takes its text along.
            for (k, (i, t)) in spots.enumerated() where mask & (1 << k) != 0 {
                guard let from = l[i], let to = l[t] else { continue }
                l[t] = prefix(to) + (text(from) + text(to)).split(separator: " ").joined(separator: " ")
                l[i] = nil
            }
            // Items and lists left empty go.
            var v = l.compactMap { $0 }
            var changed = true
            while changed {
                changed = false
                var w: [String] = []
                var i = 0
                while i < v.count {
                    if v[i] == "LI", i + 1 < v.count, v[i + 1] == "LI" || v[i + 1] == "/L" { i += 1; changed = true; continue }
                    if v[i] == "UL" || v[i] == "OL", i + 1 < v.count, v[i + 1] == "/L" { i += 2; changed = true; continue }
                    w.append(v[i])
                    i += 1
                }
                v = w
            }
            out.append(v)
        }
        return out
    }

    /// The outline without list markers ("UL", "OL", "LI", "/L") and with each run of plain paragraphs made
    /// one (white space left out of their text); a heading a paragraph joins is the heading.
    static func paragraphsJoined(_ p: Projection) -> Projection {
        func join(_ lines: [String]) -> [String] {
            var out: [String] = []
            for l in lines where !["UL", "OL", "LI", "/L"].contains(l) {
                let isText = l.hasPrefix("P ") || (l.hasPrefix("H") && l.contains(" "))
                guard isText else { out.append(l); continue }
                let kind = String(l[..<l.firstIndex(of: " ")!])
                let text = String(l[l.firstIndex(of: " ")!...].filter { !$0.isWhitespace })
                if let last = out.last, last.hasPrefix("P|") {
                    out[out.count - 1] = kind + "|" + last.dropFirst(2) + text
                } else {
                    out.append(kind + "|" + text)
                }
            }
            return out
        }
        return Projection(accepted: join(p.accepted), rejected: join(p.rejected))
    }

    /// True when `p` is `ref` with some of the joins `joinVariants` describes in each half and nothing else
    /// (white space inside paragraphs aside: a joined paragraph's words meet where the two met).
    static func isJoinVariant(_ ref: Projection, _ p: Projection, lists: Bool, table: Bool) -> Bool {
        func squeezed(_ l: [String]) -> [String] { l.map { $0.filter { !$0.isWhitespace } } }
        func one(_ r: [String], _ x: [String]) -> Bool {
            r == x || joinVariants(r, lists: lists, table: table).map(squeezed).contains(squeezed(x))
        }
        return one(ref.accepted, p.accepted) && one(ref.rejected, p.rejected)
    }

    /// The outline as the RTF reader would give it: without empty paragraphs (and the list items and lists
    /// they leave empty), which it skips.
    static func withoutEmptyParagraphs(_ lines: [String]) -> [String] {
        var l = lines.filter { $0 != "P " }
        var changed = true
        while changed {
            changed = false
            var out: [String] = []
            var i = 0
            while i < l.count {
                if l[i] == "LI", i + 1 < l.count, l[i + 1] == "LI" || l[i + 1] == "/L" { i += 1; changed = true; continue }
                if l[i] == "UL" || l[i] == "OL", i + 1 < l.count, l[i + 1] == "/L" { i += 2; changed = true; continue }
                out.append(l[i])
                i += 1
            }
            l = out
        }
        return l
    }

    static func withoutEmptyParagraphs(_ p: Projection) -> Projection {
        Projection(accepted: withoutEmptyParagraphs(p.accepted), rejected: withoutEmptyParagraphs(p.rejected))
    }

    /// Known difference 3, the model with DOCX: a paragraph mark one reviewer inserted and another deleted
    /// (`w:ins` and `w:del` on one mark, Open-Xml-PowerTools' RP047) is in neither version for the readers, which
    /// join the paragraphs as they read (`ParagraphMarkChange` holds one change); deciding the two apart (accept
    /// the insertion, reject the deletion) keeps the break in place. Narrow expectation, for inputs with such
    /// a mark: the same text and blocks once the breaks between plain paragraphs are left out.
    static let insertedDeletedMarkReason = "a paragraph mark inserted by one reviewer and deleted by another: the model has no break (the readers join the paragraphs), in place the break follows the two decisions"

    static func paragraphBreaksErased(_ p: Projection) -> Projection {
        func erase(_ lines: [String]) -> [String] {
            var out: [String] = []
            for l in lines {
                let text = l.hasPrefix("P ") ? String(l.dropFirst(2)).filter { !$0.isWhitespace } : nil
                if let text, let last = out.last, last.hasPrefix("P") { out[out.count - 1] = last + text } else if let text { out.append("P" + text) } else { out.append(l) }
            }
            return out.filter { $0 != "P" }
        }
        return Projection(accepted: erase(p.accepted), rejected: erase(p.rejected))
    }

    /// Known difference 4, the model with DOCX: a tracked paragraph-property change that changed what the
    /// paragraph is (its heading style, its list: Aspose's "Format revision", Open-Xml-PowerTools' RP022) is
    /// undone in place with all its properties, but the model keeps the block's kind (a heading stays a heading,
    /// a numbered list numbered, an item in its list): `ParagraphStyleChange` records formatting only. Narrow
    /// expectation, for inputs with `w:pPrChange`: the same text and blocks once headings, list kinds and the
    /// boundaries between adjacent lists are left out.
    static let propertyKindReason = "a rejected paragraph-property change that changed the paragraph's kind (heading style, list): the model keeps the kind"

    static func kindsErased(_ p: Projection) -> Projection {
        func erase(_ lines: [String]) -> [String] {
            let kinds = lines.map { l -> String in
                if l == "UL" || l == "OL" { return "L" }
                if l.hasPrefix("H"), let sp = l.firstIndex(of: " "), Int(l[l.index(after: l.startIndex)..<sp]) != nil {
                    return "P" + l[sp...]
                }
                return l
            }
            // Adjacent lists are one (an item whose list changed splits its list).
            var out: [String] = []
            for l in kinds {
                if l == "L", out.last == "/L" { out.removeLast(); continue }
                out.append(l)
            }
            return out
        }
        return Projection(accepted: erase(p.accepted), rejected: erase(p.rejected))
    }

    /// What an input holds that the model does not decide as Word does (known differences 3, 4 and 5).
    struct ModelGaps {
        /// A paragraph mark one reviewer inserted and another deleted (`w:ins` and `w:del` on one mark).
        var insertedDeletedMark = false
        /// A tracked paragraph-property change (`w:pPrChange`).
        var propertyChange = false
        /// A list and a paragraph-mark change (known difference 5).
        var lists = false

        init() {}

        init(_ items: [ChangeListItem], _ doc: Document, docx: Bool) {
            var hasList = false, hasMark = false
            for b in doc.blocks {
                if case .list = b { hasList = true }
                b.forEachParagraph { if $0.markChange != nil { hasMark = true } }
                func nested(_ b: Block) { for c in b.childBlocks { if case .list = c { hasList = true }; nested(c) } }
                nested(b)
            }
            lists = hasList && hasMark
            guard docx else { return }
            var marks: [String: Set<String>] = [:]
            for i in items where i.kind == .paragraph && i.element.hasSuffix("(paragraph mark)") {
                marks["\(i.story) \(i.paragraph)", default: []].insert(i.element)
            }
            insertedDeletedMark = marks.values.contains { $0.count > 1 }
            propertyChange = items.contains { $0.element == "w:pPrChange" }
        }
    }

    /// Runs `decision` through `engines` and compares each with the first. An engine whose result is read back
    /// from RTF is compared without empty paragraphs (the RTF reader skips them; the model keeps the ones a
    /// decision empties).
    func compare(_ input: String, _ decision: Decision, _ engines: [Engine], limits: ModelGaps = ModelGaps(),
                 tally: Tally) throws {
        tally.decisions += 1
        var reference: (String, Projection)?
        for e in engines {
            var p: Projection
            do { p = try Self.projection(try e.run(decision.review)) } catch {
                XCTFail("\(input): \(decision.name): \(e.label) threw \(error)")
                tally.failures += 1
                continue
            }
            guard var (refLabel, ref) = reference else { reference = (e.label, p); continue }
            tally.comparisons += 1
            if e.readsRTF {
                ref = Self.withoutEmptyParagraphs(ref)
                p = Self.withoutEmptyParagraphs(p)
            }
            if p == ref { continue }
            if e.label.hasSuffix("in-place") && limits.lists && Self.paragraphsJoined(ref) == Self.paragraphsJoined(p) {
                tally.knownSeen.append("\(input): \(decision.name): \(e.label) — \(Self.listJoinReason)")
                continue
            }
            if e.readsRTF && Self.isJoinVariant(ref, p, lists: true, table: true) {
                tally.knownSeen.append("\(input): \(decision.name): \(e.label) — \(Self.tableJoinReason) (and known difference 5)")
                continue
            }
            if e.label == "docx-in-place" && limits.insertedDeletedMark
                && Self.paragraphBreaksErased(ref) == Self.paragraphBreaksErased(p) {
                tally.knownSeen.append("\(input): \(decision.name): \(e.label) — \(Self.insertedDeletedMarkReason)")
                continue
            }
            if e.label == "docx-in-place" && limits.propertyChange && Self.kindsErased(ref) == Self.kindsErased(p) {
                tally.knownSeen.append("\(input): \(decision.name): \(e.label) — \(Self.propertyKindReason)")
                continue
            }
            tally.failures += 1
            refLabel += e.readsRTF ? " (empty paragraphs left out)" : ""
            XCTFail("\(input): \(decision.name): \(e.label) differs from \(refLabel)\n" + Self.diff(ref, p, refLabel, e.label))
        }
    }

    /// The first differing lines of two projections, with a little context.
    static func diff(_ a: Projection, _ b: Projection, _ la: String, _ lb: String) -> String {
        func one(_ x: [String], _ y: [String], _ what: String) -> String? {
            guard x != y else { return nil }
            let i = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
            let lo = max(0, i - 2)
            return "  rest \(what), from line \(i):\n    \(la): \(x[lo..<min(x.count, i + 4)].joined(separator: " ⏎ "))\n    \(lb): \(y[lo..<min(y.count, i + 4)].joined(separator: " ⏎ "))"
        }
        return [one(a.accepted, b.accepted, "accepted"), one(a.rejected, b.rejected, "rejected")].compactMap { $0 }.joined(separator: "\n")
    }

    // MARK: Inputs

    static func bytes(_ path: String) -> [UInt8]? { try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Files under `dir` (recursively) ending in `ext`, sorted.
    static func files(under dir: String, ext: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        return e.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix("." + ext) }.sorted().map { dir + "/" + $0 }
    }

    /// The original and its twin in the other format (written from the model, changes marked).
    static func subject(_ path: String, label: String) throws -> Subject? {
        guard let b = bytes(path) else { return nil }
        let format = path.lowercased().hasSuffix(".rtf") ? rtf : docx
        let items: [ChangeListItem]
        do { items = try ChangeListing.list(.bytes(b), format: format) } catch { return nil }
        guard items.contains(where: { $0.kind != .comment && $0.story == "body" }) else { return nil }
        let other = format.name == "rtf" ? docx : rtf
        var files: [(format: Format, bytes: [UInt8])] = [(format, b)]
        if let doc = try? Converter.read(.bytes(b), format: format), let twin = try? write(doc, other) { files.append((other, twin)) }
        return Subject(name: label, files: files, model: nil, requireTwin: false)
    }

    func run(_ subjects: [Subject], minimum: Int, _ what: String) throws {
        let tally = Tally()
        for s in subjects { try check(s, tally: tally) }
        XCTAssertGreaterThanOrEqual(tally.subjects, minimum, what)
        print("ReviewEngineOracle \(what): \(tally.subjects) inputs, \(tally.decisions) decisions, \(tally.comparisons) comparisons, "
              + "\(tally.failures) failures; twins dropped (read differently before any decision): \(tally.twinsDropped.count)"
              + (tally.twinsDropped.isEmpty ? "" : " [\(tally.twinsDropped.joined(separator: ", "))]"))
        var byReason: [String: [String]] = [:]
        for k in tally.knownSeen {
            let parts = k.components(separatedBy: " — ")
            byReason[parts.last ?? k, default: []].append(parts.dropLast().joined(separator: " — "))
        }
        for (reason, cases) in byReason.sorted(by: { $0.key < $1.key }) {
            print("  known difference (\(cases.count) comparisons): \(reason)")
            for c in cases.prefix(3) { print("    e.g. \(c)") }
        }
    }

    // MARK: Tests

    func testGeneratedDocuments() throws {
        let base = SeededRandom.seed(default: 0x5EED_0AC1)
        let count = ProcessInfo.processInfo.environment["REDLINE_SEED"] != nil ? 1 : 24
        var subjects: [Subject] = []
        for i in 0..<count {
            let seed = base &+ UInt64(i)
            // A third without lists: there paragraph breaks are compared exactly (known difference 5 aside).
            var g = ReviewDocumentGenerator(seed: seed, rich: i % 3 == 2, lists: i % 3 != 1)
            let doc = g.document()
            // Table row changes come back from RTF through the model (the writer marks the cells' text and flags
            // the row `\rltrmarked`, which the reader takes back as the row's change), but the RTF in-place engine
            // decides the cells' text only, so a rejected inserted row (an accepted deleted one) leaves its empty
            // cells there: documents with row changes get no RTF twin.
            let rows = doc.blocks.contains { if case .table(let t) = $0 { return t.rows.contains { $0.change != nil } }; return false }
            var files = [(Self.docx, try Self.write(doc, Self.docx))]
            if !rows { files.append((Self.rtf, try Self.write(doc, Self.rtf))) }
            subjects.append(Subject(name: "generated seed \(seed)\(g.rich ? " (rich)" : "")\(g.lists ? "" : " (no lists)")",
                                    files: files, model: doc, requireTwin: true))
        }
        try run(subjects, minimum: count, "generated")
    }

    func testRepositoryCorpus() throws {
        let root = RepositoryPaths.root
        var paths = Self.files(under: root + "/Corpus/docx", ext: "docx") + Self.files(under: root + "/Corpus/rtf", ext: "rtf")
            + Self.files(under: root + "/Tests/Fixtures/rtf-review", ext: "rtf")
        paths = paths.filter { !$0.contains("/bad/") }
        let subjects = try paths.compactMap { try Self.subject($0, label: String($0.dropFirst(root.count + 1))) }
        try run(subjects, minimum: 10, "repository corpus")
    }

    func testSharedCorpus() throws {
        let root = URL(fileURLWithPath: RepositoryPaths.sharedCorpus).standardized.path
        guard FileManager.default.fileExists(atPath: root + "/MANIFEST.tsv") else { throw XCTSkip("the shared corpus is not there") }
        let paths = Self.files(under: root, ext: "docx") + Self.files(under: root, ext: "rtf")
        let subjects = try paths.compactMap { try Self.subject($0, label: String($0.dropFirst(root.count + 1))) }
        try run(subjects, minimum: 20, "shared corpus")
    }
}

/// Documents with tracked changes, from a seed: headings, paragraphs, bullet and numbered lists, a table;
/// insertions, deletions, substitutions (a deletion and an insertion by one author at one time), an insertion
/// another author deleted part of, formatting changes, inserted and deleted paragraph marks (also whole
/// paragraphs inserted or deleted, as Word marks them), paragraph-format changes; `rich`: also moves and
/// table rows inserted and deleted. Three authors, three dates.
struct ReviewDocumentGenerator {
    var rng: SeededRandom
    let rich: Bool
    let lists: Bool
    static let authors = ["Ann", "Bob Smith", "Cy"]
    static let dates = ["2024-01-10T09:00:00Z", "2024-02-15T14:30:00Z", "2024-03-20T08:15:00Z"]
    static let words = ["alpha", "beta", "gamma", "delta", "echo", "fox", "golf", "hotel", "india", "juliet", "kilo", "lima"]
    private var moves = 0

    init(seed: UInt64, rich: Bool, lists: Bool = true) {
        rng = SeededRandom(seed: seed)
        self.rich = rich
        self.lists = lists
    }

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func change() -> Change {
        Change(author: Self.authors[int(0...2)], date: Self.dates[int(0...2)])
    }

    mutating func words(_ n: ClosedRange<Int> = 1...3) -> String {
        (0..<int(n)).map { _ in Self.words[int(0...Self.words.count - 1)] }.joined(separator: " ")
    }

    /// Words with changes among them; starts and ends with plain words.
    mutating func inlines() -> [Inline] {
        var out: [Inline] = [.text(words())]
        for _ in 0..<int(1...4) {
            out.append(.text(" "))
            switch int(0...9) {
            case 0, 1: out.append(.insertion(change(), [.text(words())]))
            case 2, 3: out.append(.deletion(change(), [.text(words())]))
            case 4:
                let c = change()
                out.append(.deletion(c, [.text(words())]))
                out.append(.insertion(c, [.text(words())]))
            case 5:
                let c = change()
                var d = change()
                while d.author == c.author { d = change() }
                out.append(.insertion(c, [.text(words() + " "), .deletion(d, [.text(words())]), .text(" " + words())]))
            case 6:
                out.append(.formatChange(FormatChange(change: change(), old: TextFormat()), [.strong([.text(words())])]))
            case 7 where rich:
                let c = change()
                moves += 1
                out.append(.move(Move(change: c, name: "move\(moves)", side: .from), [.text(words())]))
                out.append(.text(" " + words() + " "))
                out.append(.move(Move(change: c, name: "move\(moves)", side: .to), [.text(words())]))
            default: out.append(.text(words()))
            }
            out.append(.text(" " + words()))
        }
        return out
    }

    /// A paragraph: plain with changes; or wholly inserted or deleted, mark and all.
    mutating func paragraph(markChange allowed: Bool) -> Paragraph {
        var p: Paragraph
        let roll = int(0...9)
        if allowed && roll == 0 {
            let c = change()
            p = Paragraph([.insertion(c, [.text(words(2...4))])], markChange: .inserted(c))
        } else if allowed && roll == 1 {
            let c = change()
            p = Paragraph([.deletion(c, [.text(words(2...4))])], markChange: .deleted(c))
        } else {
            p = Paragraph(inlines())
            if allowed && roll == 2 { p.markChange = .inserted(change()) }
            if allowed && roll == 3 { p.markChange = .deleted(change()) }
        }
        if chance(15) {
            p.style = ParagraphStyle(alignment: .center)
            p.styleChange = ParagraphStyleChange(change: change(), old: ParagraphStyle())
        }
        return p
    }

    mutating func table() -> Block {
        var rows: [TableRow] = []
        for r in 0..<int(2...3) {
            let cells = (0..<2).map { _ in TableCell([.paragraph(Paragraph([.text(words())]))]) }
            var row = TableRow(cells)
            if rich && r > 0 && chance(40) { row.change = chance(50) ? .inserted(change()) : .deleted(change()) }
            if !rich || row.change == nil {
                // Changes inside cells (a row change's cells hold plain text, as Word writes a tracked row).
                row.cells[int(0...1)].blocks = [.paragraph(Paragraph(inlines()))]
            }
            rows.append(row)
        }
        return .table(Table(columns: [.none, .none], headerRowCount: 0, rows: rows))
    }

    mutating func document() -> Document {
        var blocks: [Block] = [.heading(level: 1, Paragraph(inlines()))]
        for _ in 0..<int(5...9) {
            switch int(0...9) {
            case 0:
                // No tracked format change on a heading: the DOCX writer records a heading's old properties
                // without its heading style, so rejecting would make it a plain paragraph in Word's reading
                // (the writer's matter, not an engine's; reported).
                var p = paragraph(markChange: false)
                p.styleChange = nil
                p.style = ParagraphStyle()
                blocks.append(.heading(level: int(1...2), p))
            case 1, 2 where lists:
                let items = (0..<int(2...3)).map { _ in [Block.paragraph(paragraph(markChange: true))] }
                blocks.append(.list(List(kind: chance(50) ? .bullet : .ordered(start: 1, delimiter: "."), items: items)))
            case 3: blocks.append(table())
            default: blocks.append(.paragraph(paragraph(markChange: true)))
            }
        }
        blocks.append(.paragraph(Paragraph([.text("The end.")])))
        return Document(blocks: blocks)
    }
}

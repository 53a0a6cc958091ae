import RedlineCore
import RedlineZip

/// The notes inserted references bring: each reference written as a `w:footnoteReference` (or endnote) with
/// a new id, the note itself kept for `ApplyNotes.write` to append to its part.
final class ApplyNewNotes {
    private let notes: [String: Note]
    /// (Unowned: `ApplyIDs` holds this, and a strong reference back would keep both alive: fuzz-apply's leak
    /// check found it.)
    private unowned let ids: ApplyIDs
    /// Which of the note styles Word names (`FootnoteReference`, `FootnoteText`, the endnote ones) ORIGINAL has.
    private let styles: Set<String>
    /// The notes referred to so far: (id written, note), in order.
    private(set) var written: [(Int, Note)] = []
    private var numbers: [String: Int] = [:]

    init(_ notes: [Note], ids: ApplyIDs, styles: [UInt8]) {
        self.notes = Dictionary(notes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        self.ids = ids
        let text = String(decoding: styles, as: UTF8.self)
        self.styles = Set(["FootnoteReference", "FootnoteText", "EndnoteReference", "EndnoteText"]
            .filter { text.contains("w:styleId=\"\($0)\"") })
    }

    /// The run of a reference to the plan's new note `id`; nil when the plan has no such note.
    func reference(_ id: String) -> String? {
        guard let note = notes[id] else { return nil }
        let n: Int
        if let known = numbers[id] {
            n = known
        } else {
            n = ids.take()
            numbers[id] = n
            written.append((n, note))
        }
        let el = Self.element(note.kind)
        return "<w:r>" + referenceRPr(note.kind) + "<w:\(el)Reference w:id=\"\(n)\"/></w:r>"
    }

    /// ORIGINAL's character style for note references, or superscript.
    func referenceRPr(_ kind: NoteKind) -> String {
        let id = kind == .footnote ? "FootnoteReference" : "EndnoteReference"
        return styles.contains(id) ? "<w:rPr><w:rStyle w:val=\"\(id)\"/></w:rPr>" : "<w:rPr><w:vertAlign w:val=\"superscript\"/></w:rPr>"
    }

    /// ORIGINAL's paragraph style for note text, if it has one.
    func textStyle(_ kind: NoteKind) -> String? {
        let id = kind == .footnote ? "FootnoteText" : "EndnoteText"
        return styles.contains(id) ? id : nil
    }

    static func element(_ kind: NoteKind) -> String { kind == .footnote ? "footnote" : "endnote" }
}

/// A plan's notes written into ORIGINAL's footnotes and endnotes parts: each changed note's story rewritten
/// where it stands (its `w:footnote` element only; every other byte of the part kept), new notes appended.
enum ApplyNotes {
    struct Written {
        var newComments: [(Comment, Int)] = []
        var keptInside = 0
        /// Notes parts to add (`addPart`), for a package without one: their kind and new notes.
        var newParts: [(NoteKind, String)] = []
    }

    static func write(_ plan: ApplyPlan, newNotes: ApplyNewNotes?, package: DOCXPackage, accept: Bool, ids: ApplyIDs,
                      existingComments: [ReviewComments.Entry], styles: [UInt8], numbering: [UInt8],
                      into edits: inout ApplyPackageEdits) throws -> Written {
        var out = Written()
        guard !plan.notes.isEmpty || !(newNotes?.written.isEmpty ?? true) else { return out }
        // The parts scanned, and each note's element by the id the reader gives it: the notes numbered 1, 2, …
        // in the order the footnotes part, then the endnotes part, holds them (separators aside).
        var scans: [NoteKind: (ZipEntry, ApplyXMLScan, root: Int)] = [:]
        var byID: [String: Int] = [:]
        var number = 0
        for kind in [NoteKind.footnote, .endnote] {
            let rel = kind == .footnote ? "footnotes" : "endnotes"
            guard let entry = package.part(rel, fallback: "word/\(rel).xml") else { continue }
            let scan = ApplyXMLScan(try package.archive.read(entry))
            guard let root = scan.tokens.firstIndex(where: { $0.kind == .start && $0.name == "w:\(rel)" }) else {
                throw RedlineError.unsupported("\(entry.name) has no w:\(rel) element with the w: prefix: Redline cannot apply changes to it")
            }
            scans[kind] = (entry, scan, root)
            let el = "w:" + ApplyNewNotes.element(kind)
            for (t, tok) in scan.tokens.enumerated() where (tok.kind == .start || tok.kind == .empty) && tok.name == el {
                if let type = scan.attribute(t, "w:type"), type != "normal" { continue }
                number += 1
                if tok.kind == .start, byID[String(number)] == nil { byID[String(number)] = t }
            }
        }
        for kind in [NoteKind.footnote, .endnote] {
            let plans = plan.notes.filter { $0.kind == kind }
            let new = newNotes?.written.filter { $0.1.kind == kind } ?? []
            guard !plans.isEmpty || !new.isEmpty else { continue }
            let el = ApplyNewNotes.element(kind)
            let appended = new.map { noteXML(number: $0.0, note: $0.1, notes: newNotes!, accept: accept, ids: ids) }.joined()
            guard let (entry, scan, root) = scans[kind] else {
                guard plans.isEmpty else { throw RedlineError.unsupported("the package has no \(el)s part for the \(el)s EDITED changes") }
                out.newParts.append((kind, appended))
                continue
            }
            var splices: [(Range<Int>, [UInt8])] = []
            let properties = plans.isEmpty ? nil : ApplyProperties(styles: styles, numbering: numbering)
            for p in plans {
                guard let t = byID[p.id], scan.tokens[t].name == "w:\(el)" else {
                    throw RedlineError.unsupported("\(el) \(p.id) of ORIGINAL was not found in \(entry.name): nothing was written")
                }
                var w = ApplyDocument(body: ApplyBody(scan, root: t), plan: p.plan, accept: accept, ids: ids,
                                      existingComments: existingComments, styles: styles, properties: properties)
                w.range = scan.tokens[t].range.lowerBound..<scan.tokens[scan.end(of: t)].range.upperBound
                splices.append((w.range!, try w.render()))
                out.newComments += w.newComments
                out.keptInside += w.keptInside
            }
            let close = scan.tokens[scan.end(of: root)].range.lowerBound
            splices.append((close..<close, Array(appended.utf8)))
            splices.sort { $0.0.lowerBound < $1.0.lowerBound }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(scan.bytes.count + appended.utf8.count + 4096)
            var pos = 0
            for (r, b) in splices {
                bytes += scan.bytes[pos..<r.lowerBound]
                bytes += b
                pos = r.upperBound
            }
            bytes += scan.bytes[pos...]
            edits.store(entry.name, bytes)
        }
        return out
    }

    /// A new note: its paragraphs marked inserted (unless `accept`), the first opening with the note's own
    /// reference mark. Pictures in it are written as their alt text.
    static func noteXML(number: Int, note: Note, notes: ApplyNewNotes, accept: Bool, ids: ApplyIDs) -> String {
        let el = ApplyNewNotes.element(note.kind)
        var paragraphs: [[Inline]] = []
        func leaves(_ b: Block) {
            switch b {
            case .paragraph(let p), .heading(_, let p): paragraphs.append(p.content)
            case .codeBlock(let c):
                var inlines: [Inline] = []
                for (k, line) in c.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if k > 0 { inlines.append(.lineBreak) }
                    inlines.append(.text(String(line)))
                }
                paragraphs.append(inlines)
            case .blockQuote(let bs): bs.forEach(leaves)
            case .list(let l): l.items.forEach { $0.forEach(leaves) }
            case .table(let t): t.rows.forEach { $0.cells.forEach { $0.blocks.forEach(leaves) } }
            case .thematicBreak, .raw: break
            }
        }
        note.blocks.forEach(leaves)
        if paragraphs.isEmpty { paragraphs = [[]] }
        let change = note.insertion ?? Change()
        let style = notes.textStyle(note.kind).map { "<w:pStyle w:val=\"\($0)\"/>" } ?? ""
        var xml = "<w:\(el) w:id=\"\(number)\">"
        for (k, content) in paragraphs.enumerated() {
            var runs = ApplyRuns.runs(content, base: "")
            if k == 0 { runs = "<w:r>" + notes.referenceRPr(note.kind) + "<w:\(el)Ref/></w:r><w:r><w:t xml:space=\"preserve\"> </w:t></w:r>" + runs }
            var pPr = style.isEmpty ? "" : "<w:pPr>" + style + "</w:pPr>"
            if accept {
                xml += "<w:p>" + pPr + runs + "</w:p>"
            } else {
                pPr = ApplyXMLScan.markingParagraph(pPr, "<w:ins" + ids.attributes(change) + "/>", isDeletion: false)
                xml += "<w:p>" + pPr + "<w:ins" + ids.attributes(change) + ">" + runs + "</w:ins></w:p>"
            }
        }
        return xml + "</w:\(el)>"
    }

    static let separators = "<w:footnote w:type=\"separator\" w:id=\"-1\"><w:p><w:pPr><w:spacing w:after=\"0\" w:line=\"240\" w:lineRule=\"auto\"/></w:pPr><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type=\"continuationSeparator\" w:id=\"0\"><w:p><w:pPr><w:spacing w:after=\"0\" w:line=\"240\" w:lineRule=\"auto\"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>"

    /// A footnotes or endnotes part for a package without one: Word's two separator notes and `notes`, with its
    /// relationship from the main part and its content type.
    static func addPart(_ kind: NoteKind, notes: String, into edits: inout ApplyPackageEdits) throws {
        let rel = kind == .footnote ? "footnotes" : "endnotes"
        let el = ApplyNewNotes.element(kind)
        let file = "\(rel).xml"
        let part = edits.partBesideDocument(file)
        let seps = separators.replacingOccurrences(of: "w:footnote", with: "w:\(el)")
        edits.store(part, Array(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:\(rel) xmlns:w=\"\(ApplyComments.mainNamespace)\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">" + seps + notes + "</w:\(rel)>").utf8))
        let rid = edits.freeRelationshipID("rIdRedline\(el.capitalized)s")
        try edits.addRelationships("<Relationship Id=\"\(rid)\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/\(rel)\" Target=\"\(file)\"/>")
        try edits.addOverride(part: part, contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.\(rel)+xml")
    }
}

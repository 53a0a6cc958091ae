import Foundation
import RedlineCore

/// `redline apply` onto an RTF file: the plan's steps written into ORIGINAL's own bytes as revisions.
/// Every byte outside the paragraphs a step names is copied; inside them, deleted text is wrapped in
/// `{\deleted\revauthdelN\revdttmdelM …}` groups (each run of text between two control words or braces on
/// its own, so the formatting words around it keep their reach), inserted text is a `{\revised\revauthN
/// \revdttmM …}` group placed right after the text it follows or replaces (so it takes that text's
/// formatting), new paragraphs follow the `\par` of the leaf before them (taking its paragraph properties),
/// and new comments are annotations with `\atrfstart`/`\atrfend` ranges. A note's, header's or footer's plan
/// is written the same way into its own group's paragraphs; a new note is a `{\footnote …}` group after its
/// reference mark, inside the insertion. Authors join the header's `\revtbl` (made when there is none). With
/// `accept`, the edits are made and nothing is marked.
public enum RTFApply {
    /// Writes `original` with `plan` into `output`; throws when a step's paragraph cannot be found in the
    /// file (nothing written).
    public static func apply(_ plan: ApplyPlan, original: DocumentInput, accept: Bool, limits: Limits,
                             diagnostics: Diagnostics, into output: any ByteOutput) throws {
        let scan = try RTFApplyScan(original)
        if plan.isEmpty {
            try scan.bytes.withUnsafeBytes { try output.write($0) }
            return
        }
        var w = RTFApplyWriter(scan: scan, plan: plan, accept: accept)
        let bytes = try w.render()
        if w.formatChanges > 0 {
            diagnostics.report(.rtfApplyFormatChangeDropped,
                               "\(w.formatChanges) formatting changes (of text or of a paragraph's style) were not written (RTF apply writes text changes only)",
                               count: w.formatChanges)
        }
        if w.text.flattened > 0 {
            diagnostics.report(.rtfApplyBlockFlattened, "new lists or tables were written as plain paragraphs",
                               count: w.text.flattened)
        }
        try bytes.withUnsafeBytes { try output.write($0) }
    }
}

/// Works out the byte patches that write a plan into a scanned RTF file and applies them.
struct RTFApplyWriter {
    /// Bytes `bytes` put in place of the file's `range` (an insertion when empty).
    struct Patch {
        var range: Range<Int>
        var bytes: [UInt8]
        var order: Int
    }

    let scan: RTFApplyScan
    /// The whole plan: the body's, with its notes', headers' and footers' plans.
    let root: ApplyPlan
    /// The plan of the story being written, and that story's paragraphs.
    private(set) var plan: ApplyPlan
    private var paragraphs: [RTFApplyScan.Paragraph]
    /// Where new paragraphs go when none of the story's leaves is found: after the file's header for the body,
    /// at the start of a note's or header's group.
    private var storyStart = 0
    let accept: Bool
    var text: RTFApplyText
    private(set) var formatChanges = 0
    private var patches: [Patch] = []
    /// The story's leaves to the scanned paragraphs they are (a code block's leaf is one paragraph too).
    private(set) var leafParagraph: [Int: Int] = [:]
    private var annotationIDs: [String: Int] = [:]
    /// The plan's new notes as written where their references go, by id.
    private var newNotes: [String: [UInt8]] = [:]
    /// How many anchors each comment has in the plan (one a paragraph it covers), and how many were written.
    private var commentAnchors: [String: Int] = [:]
    private var commentsSeen: [String: Int] = [:]

    init(scan: RTFApplyScan, plan: ApplyPlan, accept: Bool) {
        self.scan = scan
        root = plan
        self.accept = accept
        self.plan = plan
        paragraphs = scan.paragraphs
        text = RTFApplyText(authors: scan.authors, hasTable: scan.revisionTableEnd != nil,
                            largestAnnotationID: scan.largestAnnotationID)
        for n in plan.newNotes { newNotes[n.id] = text.note(n, accept: accept) }
        begin(plan, scan.paragraphs, start: scan.headerEnd)
    }

    /// Makes `plan` over `paragraphs` the story written next; new paragraphs no leaf places go at `start`.
    private mutating func begin(_ plan: ApplyPlan, _ paragraphs: [RTFApplyScan.Paragraph], start: Int) {
        self.plan = plan
        self.paragraphs = paragraphs
        storyStart = start
        leafParagraph = [:]
        commentAnchors = [:]
        commentsSeen = [:]
        for case .edit(_, let edits, _) in plan.steps {
            for e in edits { if case .comment(let id) = e.kind { commentAnchors[id, default: 0] += 1 } }
        }
        match()
    }

    /// Pairs leaves with paragraphs in order, by text: paragraphs the reader does not make leaves of
    /// (empty ones, rules) are passed over.
    private mutating func match() {
        var j = 0
        let ps = paragraphs.map(\.string)
        for (i, leaf) in plan.leaves.enumerated() {
            // Up to 64 paragraphs with text ahead (empty ones, which the reader may drop, not counted); an
            // empty leaf only among the next three.
            let window = leaf.text.isEmpty ? 3 : 64
            var k = j, passed = 0
            while k < ps.count && passed < window {
                if ps[k] == leaf.text || (isCode(leaf) && ps[k] + "\n" == leaf.text) {
                    leafParagraph[i] = k
                    j = k + 1
                    break
                }
                if leaf.text.isEmpty || !ps[k].isEmpty { passed += 1 }
                k += 1
            }
        }
    }

    private func isCode(_ leaf: ApplyLeaf) -> Bool {
        if case .codeBlock = leaf.block { return true }
        return false
    }

    private func paragraph(_ leaf: Int) throws -> RTFApplyScan.Paragraph {
        guard let p = leafParagraph[leaf] else {
            throw RedlineError(.unsupportedInput, "paragraph \(leaf + 1) of ORIGINAL (\"\(plan.leaves[leaf].text.prefix(40))\") could not be found in the RTF; nothing written: `redline compare` makes a new file instead")
        }
        return paragraphs[p]
    }

    mutating func render() throws -> [UInt8] {
        try writeSteps()
        for n in root.notes {
            guard let ps = scan.notes[n.id] else {
                throw RedlineError(.unsupportedInput, "\(n.kind == .footnote ? "footnote" : "endnote") \(n.id) of ORIGINAL was not found in the RTF; nothing written")
            }
            begin(n.plan, ps, start: ps.first?.start ?? scan.headerEnd)
            try writeSteps()
        }
        // A section that states no header or footer shows the one stated last before it: a group several
        // sections show is written once.
        var written = Set<RTFApplyScan.HeaderFooterKey>()
        for h in root.headerFooters {
            var key = RTFApplyScan.HeaderFooterKey(section: h.section ?? scan.sectionBreaks, place: h.place)
            while scan.headerFooters[key] == nil && key.section > 0 { key.section -= 1 }
            guard let ps = scan.headerFooters[key] else {
                throw RedlineError(.unsupportedInput, "a \(h.place.kind.rawValue) of ORIGINAL was not found in the RTF; nothing written")
            }
            guard written.insert(key).inserted else { continue }
            begin(h.plan, ps, start: ps.first?.start ?? scan.headerEnd)
            try writeSteps()
        }
        if !accept, let h = text.header() {
            let at = scan.revisionTableEnd ?? scan.headerEnd
            add(at..<at, h)
        }
        return try patched()
    }

    /// Writes the steps of the story begun last.
    private mutating func writeSteps() throws {
        for step in plan.steps {
            switch step {
            case .edit(let leaf, let edits, let markDeleted):
                let p = try paragraph(leaf)
                for e in edits { try edit(e, in: p) }
                if let c = markDeleted { deleteMark(of: p, c) }
            case .delete(let leaf, let change):
                let p = try paragraph(leaf)
                try delete(0..<p.text.count, in: p, change)
                deleteMark(of: p, change)
            case .insert(let after, let blocks, let whole, _, let change):
                try insert(blocks, after: after, whole: whole, change)
            case .restyle:
                // A paragraph's new properties (`{\*\oldpprops …}`) are not written: counted as formatting.
                formatChanges += 1
            }
        }
    }

    // MARK: Steps

    private mutating func edit(_ e: TextEdit, in p: RTFApplyScan.Paragraph) throws {
        switch e.kind {
        case .format:
            formatChanges += 1
        case .comment(let id):
            // A comment over several paragraphs has an anchor in each: its range starts in the first and ends,
            // with the annotation, in the last.
            guard !accept, let c = plan.comments.first(where: { $0.id == id }) else { return }
            let seen = (commentsSeen[id] ?? 0) + 1
            commentsSeen[id] = seen
            let first = seen == 1, last = seen >= (commentAnchors[id] ?? 1)
            let n = annotationIDs[id] ?? text.annotationID()
            annotationIDs[id] = n
            var note: [UInt8] = []
            if last {
                note = RTFApplyText.annotation(c, id: n, parent: c.parentID.flatMap { annotationIDs[$0] })
                for r in plan.comments where r.parentID == id && annotationIDs[r.id] == nil {
                    let m = text.annotationID()
                    annotationIDs[r.id] = m
                    note += RTFApplyText.annotation(r, id: m, parent: n)
                }
            }
            if e.range.isEmpty && first && last {
                let at = position(after: e.range.lowerBound, in: p)
                add(at..<at, note)
                return
            }
            if first {
                let s = position(before: e.range.lowerBound, in: p)
                add(s..<s, RTFApplyText.rangeMark(start: true, n))
            }
            if last {
                let t = position(after: e.range.upperBound, in: p)
                add(t..<t, RTFApplyText.rangeMark(start: false, n) + note)
            }
        case .replace:
            var at = position(after: e.range.lowerBound, in: p)
            if !e.range.isEmpty {
                try delete(e.range, in: p, e.change)
                at = position(after: e.range.upperBound, in: p)
            } else if e.range.lowerBound == 0 {
                at = position(before: 0, in: p)
            }
            let content = RTFApplyText.render(e.inserted, notes: newNotes)
            if !content.isEmpty {
                add(at..<at, text.insertionOpen(e.change, accept: accept) + content + [UInt8(ascii: "}")])
            }
        }
    }

    /// Wraps (or, accepting, removes) the text of `range`, a run at a time.
    private mutating func delete(_ range: Range<Int>, in p: RTFApplyScan.Paragraph, _ c: Change) throws {
        let units = p.units.filter { range.contains($0.utf8.lowerBound) }
        guard units.reduce(0, { $0 + $1.utf8.count }) == range.count, units.allSatisfy({ $0.utf8.upperBound <= range.upperBound }) else {
            throw RedlineError(.unsupportedInput, "an edit in \"\(p.string.prefix(40))\" does not fall on the RTF's characters; nothing written: `redline compare` makes a new file instead")
        }
        var i = 0
        while i < units.count {
            var j = i
            while j + 1 < units.count, units[j + 1].run == units[i].run, units[j + 1].bytes.lowerBound >= units[j].bytes.upperBound { j += 1 }
            let r = units[i].bytes.lowerBound..<units[j].bytes.upperBound
            add(r, accept ? [] : text.deletionOpen(c) + Array(scan.bytes[r]) + [UInt8(ascii: "}")])
            i = j + 1
        }
    }

    /// The paragraph's `\par` marked deleted (removed when accepting); a cell's end stays.
    private mutating func deleteMark(of p: RTFApplyScan.Paragraph, _ c: Change) {
        guard p.terminator == .par, let r = p.end else { return }
        add(r, accept ? [] : text.deletionOpen(c) + Array(scan.bytes[r]) + [UInt8(ascii: "}")])
    }

    private mutating func insert(_ blocks: [Block], after: Int?, whole: Bool, _ c: Change) throws {
        let paras = text.paragraphs(blocks, notes: newNotes)
        guard !paras.isEmpty else { return }
        let open = text.insertionOpen(c, accept: accept)
        let par = Array("\\par ".utf8), close = [UInt8(ascii: "}")]
        guard let k = after else {
            // Before the first leaf: each a paragraph of its own ahead of it.
            let first = plan.leaves.indices.first { leafParagraph[$0] != nil }
            let at = try first.map { position(before: 0, in: try paragraph($0)) } ?? storyStart
            add(at..<at, paras.flatMap { open + $0 + par + close })
            return
        }
        let p = try paragraph(k)
        if p.terminator == .par, let r = p.end {
            add(r.upperBound..<r.upperBound, paras.flatMap { open + $0 + par + close })
        } else if p.terminator == .cell, whole, let r = p.end,
                  k + 1 >= plan.leaves.count || plan.leaves[k + 1].topLevel != plan.leaves[k].topLevel,
                  let row = scan.rowEnds.first(where: { $0 >= r.upperBound }) {
            // A new block after a table: after its last row, out of the table.
            let pard = text.insertionOpen(c, accept: accept, words: "\\pard\\plain")
            add(row..<row, paras.flatMap { pard + $0 + par + close })
        } else {
            // A cell's last paragraph, or the file's: the new paragraph mark ends the leaf.
            let at = p.end?.lowerBound ?? p.contentEnd
            add(at..<at, paras.flatMap { open + par + $0 + close })
        }
    }

    // MARK: Positions

    /// The byte after the character that ends at UTF-8 offset `o` (before the first one at 0).
    private func position(after o: Int, in p: RTFApplyScan.Paragraph) -> Int {
        if o > 0, let u = p.units.last(where: { $0.utf8.upperBound == o }) { return u.bytes.upperBound }
        return position(before: o, in: p)
    }

    /// The byte where the character at UTF-8 offset `o` starts.
    private func position(before o: Int, in p: RTFApplyScan.Paragraph) -> Int {
        if let u = p.units.first(where: { $0.utf8.lowerBound >= o }) { return u.bytes.lowerBound }
        if let u = p.units.last { return u.bytes.upperBound }
        return p.end?.lowerBound ?? p.contentEnd
    }

    // MARK: Output

    private mutating func add(_ range: Range<Int>, _ bytes: [UInt8]) {
        patches.append(Patch(range: range, bytes: bytes, order: patches.count))
    }

    /// The file with the patches in place; a space after a control word that text would otherwise join.
    private func patched() throws -> [UInt8] {
        let sorted = patches.sorted {
            ($0.range.lowerBound, $0.range.isEmpty ? 0 : 1, $0.order) < ($1.range.lowerBound, $1.range.isEmpty ? 0 : 1, $1.order)
        }
        var out: [UInt8] = []
        out.reserveCapacity(scan.bytes.count + sorted.reduce(0) { $0 + $1.bytes.count })
        var at = 0
        for p in sorted {
            guard p.range.lowerBound >= at else {
                throw RedlineError(.unsupportedInput, "two edits overlap in the RTF; nothing written: `redline compare` makes a new file instead")
            }
            append(scan.bytes[at..<p.range.lowerBound], to: &out)
            append(p.bytes[...], to: &out)
            at = p.range.upperBound
        }
        append(scan.bytes[at...], to: &out)
        return out
    }

    private func append(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        guard let first = bytes.first else { return }
        let joins = (first | 0x20) >= 97 && (first | 0x20) <= 122 || (first >= 48 && first <= 57) || first == 32 || first == UInt8(ascii: "-")
        if joins, RTFApplyWriter.endsWithBareWord(out) { out.append(UInt8(ascii: " ")) }
        out.append(contentsOf: bytes)
    }

    /// Whether `b` ends with a control word and no delimiter.
    static func endsWithBareWord(_ b: [UInt8]) -> Bool {
        var i = b.count - 1
        while i >= 0 && b[i] >= 48 && b[i] <= 57 { i -= 1 }
        if i >= 0 && b[i] == UInt8(ascii: "-") { i -= 1 }
        let lettersEnd = i
        while i >= 0 && (b[i] | 0x20) >= 97 && (b[i] | 0x20) <= 122 { i -= 1 }
        guard i < lettersEnd, i >= 0, b[i] == UInt8(ascii: "\\") else { return false }
        var slashes = 0
        while i >= 0 && b[i] == UInt8(ascii: "\\") { slashes += 1; i -= 1 }
        return slashes % 2 == 1
    }
}

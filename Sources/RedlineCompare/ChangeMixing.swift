import RedlineCore

/// EDITED with tracked changes *and* edits made without tracking: the two layers composed block by block, so
/// that EDITED's own changes keep their authors and dates wherever they can.
///
/// `untracked` is ORIGINAL compared with EDITED's reject view (the edits made without tracking, by the apply's
/// author); its accept view is EDITED's reject view, so its top-level blocks that survive accepting line up, in
/// order, with EDITED's blocks that survive rejecting. Each such pair gives one block of the result: EDITED's
/// when `untracked` marks nothing in it, `untracked`'s when EDITED tracks nothing in it, and where both changed
/// the same paragraph, the two merged run by run (`mergedParagraph`), else that block compared afresh (EDITED's
/// tracked changes there re-attributed to the author).
/// Blocks only one side has (EDITED's tracked new paragraphs, `untracked`'s deleted ones) come in order.
///
/// `redline apply` (ORIGINAL onto which EDITED is applied) and `redline compare --keep-input-changes` (OLD and
/// NEW) both use it.
public enum ChangeMixing {
    /// The composed document and how many blocks had to be compared afresh; nil when the layers do not line
    /// up (paragraph marks changed, edits in notes) and everything must be compared afresh.
    public static func compose(untracked: Document, edited: Document, options: CompareOptions)
        -> (document: Document, recompared: Int)? {
        if untracked.notes.contains(where: { note in hasChanges(note.blocks) }) { return nil }
        // Each block resolved once: `untracked`'s accepted, EDITED's rejected (a block gone there resolves to none).
        let uAccepted = untracked.blocks.map { DocumentComparer.accepted(Document(blocks: [$0])) }
        let eRejected = edited.blocks.map { DocumentComparer.rejected(Document(blocks: [$0])) }
        // Paragraph marks joined or split change how blocks line up: not composed here.
        guard uAccepted.allSatisfy({ $0.blocks.count <= 1 }), eRejected.allSatisfy({ $0.blocks.count <= 1 }) else { return nil }
        var out: [Block] = []
        var recompared = 0
        var j = 0
        let e = edited.blocks
        for (k, b) in untracked.blocks.enumerated() {
            guard uAccepted[k].blocks.count == 1 else { out.append(b); continue }
            // EDITED's own new blocks before the one this lines up with.
            while j < e.count, eRejected[j].blocks.count != 1 { out.append(e[j]); j += 1 }
            guard j < e.count else { return nil }
            let mine = e[j]
            // Lined up means the same text (formatting a conversion changes is not an edit here either).
            guard leafTexts(uAccepted[k]) == leafTexts(eRejected[j]) else { return nil }
            j += 1
            if !hasChanges([b]) {
                out.append(mine)
            } else if !hasChanges([mine]) {
                out.append(b)
            } else if let merged = mergedParagraph(untracked: b, edited: mine) {
                out.append(merged)
            } else {
                let old = DocumentComparer.rejected(Document(blocks: [b]))
                let new = DocumentComparer.accepted(Document(blocks: [mine]))
                out += DocumentComparer.compare(old: old, new: new, options: options, diagnostics: Diagnostics()).0.blocks
                recompared += 1
            }
        }
        out += e[j...]
        var doc = edited
        doc.blocks = out
        return (doc, recompared)
    }

    /// One paragraph changed both with tracking (`edited`'s insertions and deletions) and without (`untracked`'s),
    /// the two layers merged run by run along the text they share (EDITED's reject view, `untracked`'s accept view):
    /// `untracked`'s deletions and EDITED's insertions where they stand, shared text with EDITED's runs, marked as
    /// `untracked` inserted it or EDITED deleted it. Nil (compared afresh) when the paragraphs are not plain
    /// paragraphs or headings of one kind with only insertions and deletions in their text, when the shared text
    /// differs, when text the untracked edit inserted was deleted with tracking, or when the merge would not give
    /// both views back.
    static func mergedParagraph(untracked u: Block, edited e: Block) -> Block? {
        let up: Paragraph, ep: Paragraph
        switch (u, e) {
        case (.paragraph(let a), .paragraph(let b)): (up, ep) = (a, b)
        case (.heading(let l, let a), .heading(let m, let b)) where l == m: (up, ep) = (a, b)
        default: return nil
        }
        guard up.markChange == nil, up.styleChange == nil, ep.markChange == nil, ep.styleChange == nil,
              up.style == ep.style, up.sectionEnd == nil || up.sectionEnd == ep.sectionEnd else { return nil }
        let (uRuns, uNested) = up.content.runsAndEnclosingInsertions, (eRuns, eNested) = ep.content.runsAndEnclosingInsertions
        guard uNested.isEmpty, eNested.isEmpty else { return nil }
        /// A run cut into units of one character (line breaks and atoms are one unit each).
        func units(_ runs: [Run]) -> [Run]? {
            var out: [Run] = []
            for r in runs {
                guard r.formatChange == nil else { return nil }
                switch r.change {
                case nil, .insertion?, .deletion?: break
                case .move?: return nil
                }
                if case .text(let t) = r.content {
                    for c in t { var x = r; x.content = .text(String(c)); out.append(x) }
                } else {
                    out.append(r)
                }
            }
            return out
        }
        guard let us = units(uRuns), let es = units(eRuns) else { return nil }
        func isDeletion(_ r: Run) -> Bool { if case .deletion? = r.change { return true }; return false }
        func isInsertion(_ r: Run) -> Bool { if case .insertion? = r.change { return true }; return false }
        var out: [Run] = []
        var i = 0, j = 0
        while i < us.count || j < es.count {
            // Text the untracked edit deleted, then text inserted with tracking, where they stand.
            if i < us.count, isDeletion(us[i]) { out.append(us[i]); i += 1; continue }
            if j < es.count, isInsertion(es[j]) { out.append(es[j]); j += 1; continue }
            guard i < us.count, j < es.count, us[i].content == es[j].content else { return nil }
            var r = es[j]
            if isInsertion(us[i]) {
                guard r.change == nil else { return nil }   // inserted without tracking, deleted with it
                r.change = us[i].change
            }
            out.append(r)
            i += 1; j += 1
        }
        // Units of one kind joined back into runs.
        var joined: [Run] = []
        for r in out {
            if let last = joined.last, case .text(let a) = last.content, case .text(let b) = r.content,
               last.format == r.format, last.hasSameExtras(as: r) {
                joined[joined.count - 1].content = .text(a + b)
            } else {
                joined.append(r)
            }
        }
        var p = ep
        p.content = InlineBuilder.pairingSubstitutions(InlineBuilder.inlines(from: joined))
        let merged: Block
        if case .heading(let l, _) = e { merged = .heading(level: l, p) } else { merged = .paragraph(p) }
        let one = Document(blocks: [merged])
        guard leafTexts(DocumentComparer.accepted(one)) == leafTexts(DocumentComparer.accepted(Document(blocks: [e]))),
              leafTexts(DocumentComparer.rejected(one)) == leafTexts(DocumentComparer.rejected(Document(blocks: [u])))
        else { return nil }
        return merged
    }

    private static func hasChanges(_ blocks: [Block]) -> Bool {
        DocumentComparer.trackedChangeCount(Document(blocks: blocks)) > 0
    }

    /// The text of `doc`'s leaves (paragraphs, headings, code blocks at any depth), each normalised
    /// (`normalized`): what "the same text" means when two documents are lined up.
    public static func leafTexts(_ doc: Document) -> [String] {
        normalized(ApplyPlan.leafTexts(of: doc))
    }

    /// Paragraph texts with runs of spaces, tabs and line breaks made one space and the ends trimmed; empty and
    /// picture-only paragraphs left out.
    public static func normalized(_ texts: [String]) -> [String] {
        texts.compactMap { t -> String? in
            // Most paragraphs have nothing to normalise: checked on the bytes before splitting.
            var plain = true, previousSpace = true
            for b in t.utf8 {
                if b == 0x09 || b == 0x0A { plain = false; break }
                if b == 0x20 { if previousSpace { plain = false; break }; previousSpace = true } else { previousSpace = false }
            }
            if previousSpace { plain = false }
            let n = plain ? t : ApplyPlan.collapsingSpace(t)
            return n.isEmpty || n == ApplyPlan.objectCharacter ? nil : n
        }
    }
}

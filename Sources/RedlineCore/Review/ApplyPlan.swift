import Foundation

/// What `redline apply` writes into ORIGINAL, worked out once for every format: ORIGINAL's leaves
/// (paragraphs, headings, code blocks, at any depth, in reading order) and, for each change of a
/// comparison whose reject view is ORIGINAL, where it lands in a leaf's text. A format's applier copies
/// every leaf no step names from ORIGINAL's own bytes and writes the steps in its own syntax.
///
/// Offsets are UTF-8 offsets into a leaf's `text` (`ApplyPlan.text`): text and code as they are, a line
/// break `"\n"`, a soft break `" "`, a picture or a note reference one U+FFFC; raw content and comment
/// anchors nothing.
public struct ApplyPlan: Sendable {
    /// ORIGINAL's leaves in reading order.
    public var leaves: [ApplyLeaf]
    /// The steps, in document order (an insertion after leaf k comes after leaf k's own step).
    public var steps: [ApplyStep]
    /// The comments `TextEdit.Kind.comment` anchors (the comparison's, which are EDITED's).
    public var comments: [Comment]
    /// The notes of ORIGINAL changed inside (`makeNotes`); empty for an applier that writes the body only.
    public var notes: [NotePlan] = []
    /// The notes inserted references bring, by the id those references carry.
    public var newNotes: [Note] = []
    /// The notes the steps' new text may reference where ORIGINAL's syntax needs no definition written: ORIGINAL's
    /// own (by the id both carry) and Markdown's inline notes (written where they are referenced).
    public var referableNotes: [Note] = []
    /// The headers and footers of ORIGINAL changed inside (`makeHeaderFooters`); empty for an applier that
    /// writes the body only.
    public var headerFooters: [HeaderFooterPlan] = []

    /// Whether nothing is to be written: the output is ORIGINAL.
    public var isEmpty: Bool { steps.isEmpty && notes.isEmpty && headerFooters.isEmpty }
}

/// One container on the way from the body to a leaf.
public enum LeafContainer: Hashable, Sendable {
    case quote
    /// Item `index` of a list (the list is the block the path reached).
    case item(Int)
    /// A table cell.
    case cell(row: Int, column: Int)
}

/// A paragraph, heading or code block of a document, where it sits, and its text.
public struct ApplyLeaf: Sendable {
    /// The block itself (`.paragraph`, `.heading` or `.codeBlock`).
    public var block: Block
    /// The index of the top-level block holding it.
    public var topLevel: Int
    /// The containers from that top-level block down (empty for a top-level leaf).
    public var path: [LeafContainer]
    /// Its text, as `ApplyPlan.text` measures offsets.
    public var text: String
}

/// One change inside a leaf's text.
public struct TextEdit: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// `range` replaced by `inserted` (a deletion when `inserted` is empty, an insertion when `range` is).
        case replace
        /// The text of `range` kept, in `inserted`'s formatting (it was `old`).
        case format(old: TextFormat)
        /// Comment `id` anchored at `range` (a point when empty).
        case comment(id: String)
    }

    public var kind: Kind
    /// UTF-8 offsets into the leaf's text.
    public var range: Range<Int>
    /// EDITED's inlines for the range, every change in them accepted.
    public var inserted: [Inline]
    /// Who made it and when.
    public var change: Change

    public init(kind: Kind = .replace, range: Range<Int>, inserted: [Inline], change: Change) {
        self.kind = kind
        self.range = range
        self.inserted = inserted
        self.change = change
    }
}

/// A paragraph's kind and paragraph style, as a property step carries them.
public struct LeafProperties: Hashable, Sendable {
    /// 0 for a paragraph, 1...6 for a heading of that level.
    public var headingLevel: Int
    /// Its paragraph style (named style, alignment, indents, spacing, tab stops).
    public var style: ParagraphStyle
    /// The list it is an item of, nil outside lists.
    public var list: LeafList?

    /// Properties given field by field.
    public init(headingLevel: Int, style: ParagraphStyle, list: LeafList? = nil) {
        self.headingLevel = headingLevel
        self.style = style
        self.list = list
    }

    /// A paragraph's or heading's properties; nil for any other block.
    public init?(_ block: Block, list: LeafList? = nil) {
        switch block {
        case .paragraph(let p): self.init(headingLevel: 0, style: p.style, list: list)
        case .heading(let level, let p): self.init(headingLevel: level, style: p.style, list: list)
        default: return nil
        }
    }
}

/// The list a leaf is an item of: numbered or bulleted, and how deep (0: a list not inside another).
public struct LeafList: Hashable, Sendable {
    /// Numbered (an ordered list), or bulleted.
    public var numbered: Bool
    /// 0 for a list not inside another, 1 for one inside an item of such a list, and so on.
    public var level: Int

    /// A list item's list.
    public init(numbered: Bool, level: Int) {
        self.numbered = numbered
        self.level = level
    }
}

/// One thing to write into ORIGINAL.
public enum ApplyStep: Hashable, Sendable {
    /// Leaf `leaf`'s properties go from `old` (ORIGINAL's) to `new` (ORIGINAL's with EDITED's changes to
    /// them: kind, heading level, named style, alignment, indents, spacing), its text kept; an `.edit` step
    /// for the same leaf, when its text changed too, comes right after.
    case restyle(leaf: Int, old: LeafProperties, new: LeafProperties, change: Change)
    /// Leaf `leaf` stays, changed inside (edits sorted by range, not overlapping but for comments);
    /// `markDeleted` when its paragraph mark goes (it joins the next leaf).
    case edit(leaf: Int, edits: [TextEdit], markDeleted: Change?)
    /// Leaf `leaf` goes, with its paragraph mark.
    case delete(leaf: Int, change: Change)
    /// New blocks after leaf `after` (before the first leaf when nil). `whole` when they are EDITED's
    /// whole top-level block (a new list, table, quote or paragraph at the top level) rather than leaves
    /// inside the container that leaf `after` (or the next leaf) sits in; `path` is where the first of them
    /// sits in EDITED.
    case insert(after: Int?, blocks: [Block], whole: Bool, path: [LeafContainer], change: Change)
}

extension ApplyPlan {
    /// The plan that writes `compared` (a comparison of ORIGINAL with EDITED, or EDITED's own tracked changes
    /// when its reject view is ORIGINAL) into `original`. `author` attributes changes that carry none.
    public static func make(original: Document, compared: Document, fallback: Change) -> ApplyPlan {
        var oLeaves: [ApplyLeaf] = []
        collectLeaves(original.blocks, into: &oLeaves) { text(of: $0, view: .accept) }
        var rLeaves: [RLeaf] = []
        for (t, b) in compared.blocks.enumerated() { collectR(b, topLevel: t, path: [], row: nil, into: &rLeaves) }
        for (i, list) in lists(compared.blocks).enumerated() where i < rLeaves.count { rLeaves[i].list = list }
        var b = Builder(oLeaves: oLeaves, fallback: fallback)
        b.oLists = lists(original.blocks)
        b.run(rLeaves, comparedTopLevel: compared.blocks)
        var plan = ApplyPlan(leaves: oLeaves, steps: b.steps, comments: compared.comments)
        // What new text may reference: ORIGINAL's notes (their definitions stay) and inline notes (self-contained).
        let originalIDs = Set(original.notes.map(\.id))
        plan.referableNotes = compared.notes.filter { $0.isInline || originalIDs.contains($0.id) }
        return plan
    }

    /// The texts of `document`'s leaves (accept view), as `make(original: document, …).leaves` has them,
    /// without building a plan.
    public static func leafTexts(of document: Document) -> [String] {
        var out: [String] = []
        for (t, b) in document.blocks.enumerated() {
            walk(b, topLevel: t, path: []) { block, _, _, _ in out.append(text(of: block, view: .accept)) }
        }
        return out
    }

    /// The texts of `document`'s leaves as one side of its changes shows them, without working the view out:
    /// each leaf's `text(of:view:)`, a leaf in a row or cell that side does not have left out. Paragraph
    /// boundaries are the document's own (a paragraph mark a side removes still parts two texts), so the
    /// texts run together equal those of `leafTexts` of the view (`DocumentComparer.accepted`/`rejected`).
    public static func viewTexts(of document: Document, view: View) -> [String] {
        var out: [String] = []
        for (t, b) in document.blocks.enumerated() {
            walk(b, topLevel: t, path: []) { block, _, _, row in
                switch (row, view) {
                case (.inserted?, .reject), (.deleted?, .accept): return
                default: out.append(text(of: block, view: view))
                }
            }
        }
        return out
    }

    /// `t` with each run of spaces, tabs and line feeds one space and the ends trimmed (on its UTF-8 bytes:
    /// those three are ASCII and never inside a multi-byte character).
    public static func collapsingSpace(_ t: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(t.utf8.count)
        var pending = false
        for b in t.utf8 {
            if b == 0x20 || b == 0x0A || b == 0x09 { pending = !out.isEmpty; continue }
            if pending { out.append(0x20); pending = false }
            out.append(b)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Which side of the changes `text(of:view:)` shows.
    public enum View: Sendable { case accept, reject }

    /// A leaf's text as the plan measures it (see the type's note).
    public static func text(of block: Block, view: View) -> String {
        switch block {
        case .codeBlock(let c): return c.text
        case .paragraph(let p), .heading(_, let p): return text(of: p.content, view: view)
        default: return ""
        }
    }

    /// Inlines' text as the plan measures it.
    public static func text(of inlines: [Inline], view: View) -> String {
        var out = ""
        appendText(inlines, view: view, to: &out)
        return out
    }

    /// What a picture or note reference counts as in a leaf's text.
    public static let objectCharacter = "\u{FFFC}"

    private static func appendText(_ inlines: [Inline], view: View, to out: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let s), .code(let s): out += s
            case .lineBreak: out += "\n"
            case .softBreak: out += " "
            case .image, .noteReference: out += objectCharacter
            // An equation as Markdown spells it, where an ORIGINAL's source text has it (`SourceLeaves`).
            case .math(let kind, let tex): out += kind == .display ? "$$" + tex + "$$" : "$" + tex + "$"
            case .raw, .commentStart, .commentEnd, .commentPoint: break
            case .insertion(_, let c): if view == .accept { appendText(c, view: view, to: &out) }
            case .deletion(_, let c): if view == .reject { appendText(c, view: view, to: &out) }
            case .substitution(_, let d, let i): appendText(view == .accept ? i : d, view: view, to: &out)
            case .move(let m, let c):
                if (m.side == .to) == (view == .accept) { appendText(c, view: view, to: &out) }
            default: appendText(inline.children, view: view, to: &out)
            }
        }
    }

    /// Every leaf of `blocks`, in reading order.
    static func collectLeaves(_ blocks: [Block], into out: inout [ApplyLeaf], text: (Block) -> String) {
        for (t, b) in blocks.enumerated() { walk(b, topLevel: t, path: []) { block, top, path, _ in
            out.append(ApplyLeaf(block: block, topLevel: top, path: path, text: text(block)))
        } }
    }

    /// For each leaf of `blocks` (in `walk`'s order), the list it is an item of.
    static func lists(_ blocks: [Block]) -> [LeafList?] {
        var out: [LeafList?] = []
        func visit(_ b: Block, _ list: LeafList?) {
            switch b {
            case .paragraph, .heading, .codeBlock: out.append(list)
            case .blockQuote(let bs): for x in bs { visit(x, list) }
            case .list(let l):
                let inner = LeafList(numbered: l.kind != .bullet, level: list.map { $0.level + 1 } ?? 0)
                for item in l.items { for x in item { visit(x, inner) } }
            case .table(let t): for row in t.rows { for cell in row.cells { for x in cell.blocks { visit(x, list) } } }
            case .thematicBreak, .raw: break
            }
        }
        for b in blocks { visit(b, nil) }
        return out
    }

    /// Calls `visit` for each leaf of `block` with its top-level index, path and row change.
    static func walk(_ block: Block, topLevel: Int, path: [LeafContainer], row: RowChange? = nil,
                     _ visit: (Block, Int, [LeafContainer], RowChange?) -> Void) {
        switch block {
        case .paragraph, .heading, .codeBlock: visit(block, topLevel, path, row)
        case .blockQuote(let bs): for b in bs { walk(b, topLevel: topLevel, path: path + [.quote], row: row, visit) }
        case .list(let l):
            for (i, item) in l.items.enumerated() {
                for b in item { walk(b, topLevel: topLevel, path: path + [.item(i)], row: row, visit) }
            }
        case .table(let t):
            for (r, rowValue) in t.rows.enumerated() {
                for (c, cell) in rowValue.cells.enumerated() {
                    for b in cell.blocks {
                        walk(b, topLevel: topLevel, path: path + [.cell(row: r, column: c)],
                             row: row ?? rowValue.change ?? cell.change, visit)
                    }
                }
            }
        case .thematicBreak, .raw: break
        }
    }

    /// A leaf of the comparison.
    struct RLeaf {
        var block: Block
        var topLevel: Int
        var path: [LeafContainer]
        var row: RowChange?
        var rejectText: String
        /// The list it is an item of.
        var list: LeafList?
        var content: [Inline] { block.paragraph?.content ?? [] }
        var mark: ParagraphMarkChange? { block.paragraph?.markChange }
        /// Gone from the reject view altogether: an inserted row's, or a paragraph holding inserted text only.
        var isPureInsert: Bool {
            if case .inserted = row { return true }
            if case .codeBlock = block { return false }
            // Only a paragraph whose own break is inserted is gone from the reject view: one whose break
            // stays (or goes) is ORIGINAL's, even when empty there (text inserted into an empty paragraph).
            guard case .inserted? = mark else { return false }
            return rejectText.isEmpty && Self.onlyInserted(content)
        }

        static func onlyInserted(_ inlines: [Inline]) -> Bool {
            inlines.allSatisfy {
                switch $0 {
                case .insertion, .commentStart, .commentEnd, .commentPoint: return true
                case .move(let m, _): return m.side == .to
                default: return false
                }
            }
        }
    }

    static func collectR(_ block: Block, topLevel: Int, path: [LeafContainer], row: RowChange?,
                         into out: inout [RLeaf]) {
        walk(block, topLevel: topLevel, path: path, row: row) { b, top, p, r in
            out.append(RLeaf(block: b, topLevel: top, path: p, row: r, rejectText: text(of: b, view: .reject)))
        }
    }

    /// Builds the steps from the comparison's leaves.
    struct Builder {
        let oLeaves: [ApplyLeaf]
        /// The list each of ORIGINAL's leaves is an item of.
        var oLists: [LeafList?] = []
        let fallback: Change
        var steps: [ApplyStep] = []
        var k = 0  // the next leaf of ORIGINAL

        init(oLeaves: [ApplyLeaf], fallback: Change) {
            self.oLeaves = oLeaves
            self.fallback = fallback
        }

        mutating func run(_ r: [RLeaf], comparedTopLevel: [Block]) {
            // Top-level blocks of the comparison that are inserted whole.
            var leavesOfTop: [Int: [Int]] = [:]
            for (i, l) in r.enumerated() { leavesOfTop[l.topLevel, default: []].append(i) }
            // Whether every leaf of a top-level block is inserted, worked out once a block.
            var wholeTop: [Int: Bool] = [:]
            var i = 0
            while i < r.count {
                let l = r[i]
                if l.isPureInsert {
                    let whole = wholeTop[l.topLevel] ?? leavesOfTop[l.topLevel]!.allSatisfy { r[$0].isPureInsert }
                    wholeTop[l.topLevel] = whole
                    if whole {
                        let last = leavesOfTop[l.topLevel]!.last!
                        insert([comparedTopLevel[l.topLevel]], whole: true, path: [], change: change(of: l))
                        i = last + 1
                    } else {
                        insert([l.block], whole: l.path.isEmpty, path: l.path, change: change(of: l))
                        i += 1
                    }
                    continue
                }
                // A reject-view leaf: this leaf and those joined to it by inserted paragraph marks.
                var group = [i]
                var j = i
                while case .inserted? = r[j].mark, j + 1 < r.count, !r[j + 1].isPureInsert || r[j + 1].mark != nil {
                    if case .inserted = r[j + 1].row { break }
                    j += 1
                    group.append(j)
                }
                i = j + 1
                consume(group.map { r[$0] })
            }
        }

        mutating func insert(_ blocks: [Block], whole: Bool, path: [LeafContainer], change: Change) {
            let accepted = blocks.map { accept($0) }
            steps.append(.insert(after: k == 0 ? nil : k - 1, blocks: accepted, whole: whole, path: path,
                                 change: change))
        }

        /// One leaf of ORIGINAL, shown by `group` (one leaf, or a leaf split into several).
        mutating func consume(_ group: [RLeaf]) {
            guard k < oLeaves.count else {
                // More reject-view leaves than ORIGINAL has: write them as insertions.
                for l in group { insert([l.block], whole: l.path.isEmpty, path: l.path, change: change(of: l)) }
                return
            }
            // Most leaves: one of the comparison's, unchanged and with ORIGINAL's text; nothing to write.
            if group.count == 1, let l = group.first, l.row == nil, l.mark == nil, l.block.paragraph?.styleChange == nil,
               l.rejectText == oLeaves[k].text, !hasMarks(l.content, anchors: true) {
                k += 1
                return
            }
            let joined = group.map(\.rejectText).joined()
            func blank(_ t: String) -> Bool { t.allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" } }
            // An empty leaf only the comparison has (an empty header row a conversion added), unchanged: nothing.
            if blank(joined), !blank(oLeaves[k].text), group.allSatisfy({ $0.mark == nil && $0.row == nil && $0.content.isEmpty }) {
                return
            }
            // ORIGINAL's leaves the comparison does not have (empty paragraphs a conversion dropped) are
            // skipped, unchanged, to the next leaf with this text.
            if oLeaves[k].text != joined,
               let ahead = (k + 1..<min(k + 9, oLeaves.count)).first(where: { oLeaves[$0].text == joined }),
               oLeaves[k..<ahead].allSatisfy({ blank($0.text) }) {
                k = ahead
            }
            // Several of ORIGINAL's leaves read as one (a table cell's paragraphs a conversion joined).
            if oLeaves[k].text != joined, let m = joinedCount(joined) {
                if group.allSatisfy({ $0.mark == nil && $0.row == nil && !hasMarks($0.content) }) {
                    k += m
                } else if !splitEdits(group, leaves: m) {
                    replaceWhole(group, leaves: m)
                }
                return
            }
            let o = oLeaves[k]
            let real = group.filter { !$0.rejectText.isEmpty || !RLeaf.onlyInserted($0.content) }
            guard joined == o.text else {
                if group.count == 1, let lead = Self.spacingAround(o.text, joined) {
                    // ORIGINAL's leaf with spacing at its ends the comparison's lacks (a Word note's text after
                    // its reference mark): the edits moved past the leading spacing.
                    leafEdits(group[0], shift: lead)
                    return
                }
                replaceWhole(group)
                return
            }
            if real.count == 1, let one = real.first {
                let at = group.firstIndex { $0.block == one.block && $0.rejectText == one.rejectText }!
                for l in group[..<at] { insert([l.block], whole: false, path: l.path, change: change(of: l)) }
                leafEdits(one)
                for l in group[(at + 1)...] {
                    insert([l.block], whole: false, path: l.path, change: change(of: l))
                }
            } else if real.isEmpty, let last = group.last {
                for l in group.dropLast() { insert([l.block], whole: false, path: l.path, change: change(of: l)) }
                leafEdits(last)
            } else {
                replaceWhole(group)
            }
        }

        /// Leaf k written over: deleted, and the group's accept view inserted after it.
        /// One leaf of the comparison that is `m` of ORIGINAL's joined by spacing: its edits shared out among
        /// them when each lies within one. False (nothing done) when one crosses from one to the next.
        mutating func splitEdits(_ group: [RLeaf], leaves m: Int) -> Bool {
            guard group.count == 1, let l = group.first, l.mark == nil, l.row == nil else { return false }
            let text = Array(l.rejectText.utf8)
            var starts: [Int] = []
            var at = 0
            for i in k..<k + m {
                let piece = Array(oLeaves[i].text.utf8)
                while at < text.count, text[at] == 0x20 || text[at] == 0x0A || text[at] == 0x09 { at += 1 }
                guard text.count - at >= piece.count, Array(text[at..<at + piece.count]) == piece else { return false }
                starts.append(at)
                at += piece.count
            }
            var w = EditWalker(fallback: fallback)
            w.walk(l.content, wrap: { $0 })
            var per = [[TextEdit]](repeating: [], count: m)
            for e in w.finished() {
                guard let i = (0..<m).last(where: { starts[$0] <= e.range.lowerBound }),
                      e.range.upperBound <= starts[i] + oLeaves[k + i].text.utf8.count else { return false }
                var shifted = e
                shifted.range = (e.range.lowerBound - starts[i])..<(e.range.upperBound - starts[i])
                per[i].append(shifted)
            }
            for (i, edits) in per.enumerated() where !edits.isEmpty {
                steps.append(.edit(leaf: k + i, edits: edits, markDeleted: nil))
            }
            k += m
            return true
        }

        /// How many of ORIGINAL's leaves from k, two to eight, hold `text` between them (spacing aside).
        func joinedCount(_ text: String) -> Int? {
            func bare(_ t: String) -> String { String(t.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }) }
            let target = bare(text)
            guard !target.isEmpty else { return nil }
            var cat = bare(oLeaves[k].text)
            for m in 2...8 where k + m <= oLeaves.count {
                cat += bare(oLeaves[k + m - 1].text)
                if cat == target { return m }
                if cat.count > target.count { return nil }
            }
            return nil
        }

        /// Whether `inlines` hold a change mark, or (`anchors`) a comment's anchor too: what `leafEdits` writes.
        func hasMarks(_ inlines: [Inline], anchors: Bool = false) -> Bool {
            inlines.contains {
                switch $0 {
                case .text, .code, .lineBreak, .softBreak: return false
                case .insertion, .deletion, .substitution, .move, .formatChange: return true
                case .commentStart, .commentEnd, .commentPoint: return anchors
                default: return hasMarks($0.children, anchors: anchors)
                }
            }
        }

        mutating func replaceWhole(_ group: [RLeaf], leaves m: Int = 1) {
            let c = group.compactMap { l -> Change? in markChange(l) }.first ?? fallback
            for _ in 0..<m {
                steps.append(.delete(leaf: k, change: c))
                k += 1
            }
            let accepted = accepted(group.map(\.block))
            var all: [Block] = []
            for b in accepted { walk(b, topLevel: 0, path: []) { leaf, _, _, _ in all.append(leaf) } }
            if !all.isEmpty {
                steps.append(.insert(after: k - 1, blocks: all, whole: false, path: group[0].path, change: c))
            }
        }

        /// How many bytes of spacing `original` has before `text` when it is `text` with spacing (space, tab, line
        /// feed) at either end; nil otherwise or when `text` is empty.
        static func spacingAround(_ original: String, _ text: String) -> Int? {
            let o = Array(original.utf8), t = Array(text.utf8)
            guard !t.isEmpty, o.count > t.count else { return nil }
            func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A }
            var lead = 0
            while lead < o.count, space(o[lead]) { lead += 1 }
            guard o.count - lead >= t.count, o[lead..<lead + t.count].elementsEqual(t),
                  o[(lead + t.count)...].allSatisfy(space) else { return nil }
            return lead
        }

        mutating func leafEdits(_ l: RLeaf, shift: Int = 0) {
            defer { k += 1 }
            if case .deleted(let c) = l.row {
                steps.append(.delete(leaf: k, change: c))
                return
            }
            var markDeleted: Change?
            if case .deleted(let c)? = l.mark { markDeleted = c }
            let restyled = restyle(l)
            if case .codeBlock = l.block {
                if markDeleted != nil { steps.append(.edit(leaf: k, edits: [], markDeleted: markDeleted)) }
                return
            }
            var w = EditWalker(fallback: fallback)
            w.walk(l.content, wrap: { $0 })
            var edits = w.finished()
            if shift > 0 {
                for n in edits.indices { edits[n].range = edits[n].range.lowerBound + shift..<edits[n].range.upperBound + shift }
            }
            if !edits.isEmpty || markDeleted != nil {
                // A leaf whose text all goes with its mark is a deleted leaf.
                if let c = markDeleted, edits.count == 1, edits[0].range == 0..<oLeaves[k].text.utf8.count,
                   edits[0].inserted.isEmpty, case .replace = edits[0].kind, !oLeaves[k].text.isEmpty {
                    steps.append(.delete(leaf: k, change: c))
                } else {
                    if let restyled { steps.append(restyled) }
                    steps.append(.edit(leaf: k, edits: edits, markDeleted: markDeleted))
                }
            } else if let restyled {
                steps.append(restyled)
            }
        }

        /// The property step for leaf k when the comparison marks a style change on `l` (a tracked one of
        /// EDITED's, or a kind or style the comparison found changed): ORIGINAL's properties with the fields the
        /// change touched set to EDITED's. Nil when nothing the plan carries changed.
        func restyle(_ l: RLeaf) -> ApplyStep? {
            guard let sc = l.block.paragraph?.styleChange,
                  let old = LeafProperties(oLeaves[k].block, list: k < oLists.count ? oLists[k] : nil),
                  let now = LeafProperties(l.block, list: l.list) else { return nil }
            var new = old
            new.headingLevel = now.headingLevel
            // A list item's list numbered or bulleted, or its depth, changed (an item still; joining or leaving a
            // list changes blocks, not properties).
            if old.list != nil, now.list != nil { new.list = now.list }
            let o = sc.old, n = now.style
            // The comparison's two sides come from one format: a field they differ in is an edit. Fields
            // equal there keep ORIGINAL's value (a conversion may have dropped them). A new style (or kind) is the
            // change: the formatting that differs with it is the style's (a reader gives a paragraph's style with
            // its named style's formatting), not to be written over it.
            if o.name != n.name { new.style.name = n.name }
            else if new.headingLevel != old.headingLevel { new.style.name = nil }  // the level says it
            if o.name == n.name, new.headingLevel == old.headingLevel {
                formatting(from: o, to: n, into: &new.style)
            }
            guard new != old else { return nil }
            return .restyle(leaf: k, old: old, new: new, change: sc.change)
        }

        /// The fields of `n` that differ from `o` set in `style`.
        func formatting(from o: ParagraphStyle, to n: ParagraphStyle, into s: inout ParagraphStyle) {
            if o.alignment != n.alignment { s.alignment = n.alignment }
            if o.firstLineIndent != n.firstLineIndent { s.firstLineIndent = n.firstLineIndent }
            if o.leftIndent != n.leftIndent { s.leftIndent = n.leftIndent }
            if o.rightIndent != n.rightIndent { s.rightIndent = n.rightIndent }
            if o.lineSpacing != n.lineSpacing { s.lineSpacing = n.lineSpacing }
            if o.spaceBefore != n.spaceBefore { s.spaceBefore = n.spaceBefore }
            if o.spaceAfter != n.spaceAfter { s.spaceAfter = n.spaceAfter }
            if o.tabStops != n.tabStops { s.tabStops = n.tabStops }
        }

        func change(of l: RLeaf) -> Change {
            if case .inserted(let c) = l.row { return c }
            if case .inserted(let c)? = l.mark { return c }
            return firstChange(l.content) ?? fallback
        }

        func markChange(_ l: RLeaf) -> Change? {
            switch l.mark {
            case .inserted(let c)?, .deleted(let c)?: return c
            case nil: return firstChange(l.content)
            }
        }

        func firstChange(_ inlines: [Inline]) -> Change? {
            for i in inlines {
                switch i {
                case .insertion(let c, _), .deletion(let c, _), .substitution(let c, _, _): return c
                case .move(let m, _): return m.change
                case .formatChange(let f, _): return f.change
                default: if let c = firstChange(i.children) { return c }
                }
            }
            return nil
        }
    }

    /// `blocks` with every change accepted.
    static func accepted(_ blocks: [Block]) -> [Block] {
        // ReviewTransform does not throw on its own; collecting into a document cannot fail.
        ((try? Document(blocks: blocks).applying([ReviewTransform(.accept)])) ?? Document(blocks: blocks)).blocks
    }

    /// `block` with every change accepted.
    static func accept(_ block: Block) -> Block {
        accepted([block]).first ?? block
    }

    static func accept(_ inlines: [Inline]) -> [Inline] {
        guard case .paragraph(let p)? = accepted([.paragraph(Paragraph(inlines))]).first else { return [] }
        return p.content
    }

    /// Walks a leaf's inlines in reject-view offsets, collecting the edits.
    struct EditWalker {
        let fallback: Change
        var pos = 0
        var edits: [TextEdit] = []
        var comments: [String: Int] = [:]
        var anchors: [TextEdit] = []

        init(fallback: Change) { self.fallback = fallback }

        mutating func walk(_ inlines: [Inline], wrap: @escaping ([Inline]) -> [Inline]) {
            for inline in inlines {
                switch inline {
                case .insertion(let c, let content):
                    add(TextEdit(range: pos..<pos, inserted: wrap(accept(content)), change: c))
                case .deletion(let c, let content):
                    let n = text(of: content, view: .reject).utf8.count
                    add(TextEdit(range: pos..<pos + n, inserted: [], change: c))
                    pos += n
                case .substitution(let c, let d, let i):
                    let n = text(of: d, view: .reject).utf8.count
                    add(TextEdit(range: pos..<pos + n, inserted: wrap(accept(i)), change: c))
                    pos += n
                case .move(let m, let content):
                    if m.side == .to {
                        add(TextEdit(range: pos..<pos, inserted: wrap(accept(content)), change: m.change))
                    } else {
                        let n = text(of: content, view: .reject).utf8.count
                        add(TextEdit(range: pos..<pos + n, inserted: [], change: m.change))
                        pos += n
                    }
                case .formatChange(let f, let content):
                    let n = text(of: content, view: .reject).utf8.count
                    if n > 0 {
                        edits.append(TextEdit(kind: .format(old: f.old), range: pos..<pos + n,
                                              inserted: wrap(accept(content)), change: f.change))
                    }
                    // Changes inside are walked for their own edits.
                    var inner = EditWalker(fallback: fallback)
                    inner.pos = pos
                    inner.walk(content, wrap: wrap)
                    for e in inner.edits where e.kind == .replace { add(e) }
                    anchors += inner.anchors
                    pos = inner.pos
                case .commentStart(let id): comments[id] = pos
                case .commentEnd(let id):
                    let start = comments.removeValue(forKey: id) ?? pos
                    anchors.append(TextEdit(kind: .comment(id: id), range: start..<pos, inserted: [], change: fallback))
                case .commentPoint(let id):
                    anchors.append(TextEdit(kind: .comment(id: id), range: pos..<pos, inserted: [], change: fallback))
                case .text, .code, .lineBreak, .softBreak, .image, .noteReference, .raw:
                    pos += text(of: [inline], view: .reject).utf8.count
                default:
                    let outer = wrap
                    walk(inline.children, wrap: { c in outer([inline.mapChildren { _ in c }]) })
                }
            }
        }

        /// Adds a replacement, joining it to the one before when they touch (a deletion and the insertion
        /// after it are one substitution).
        mutating func add(_ e: TextEdit) {
            if let last = edits.last, case .replace = last.kind, last.range.upperBound == e.range.lowerBound,
               last.change == e.change, last.inserted.isEmpty || e.range.isEmpty {
                edits[edits.count - 1].range = last.range.lowerBound..<e.range.upperBound
                edits[edits.count - 1].inserted = last.inserted + e.inserted
                return
            }
            edits.append(e)
        }

        mutating func finished() -> [TextEdit] {
            // Comments still open at the leaf's end anchor to its end.
            for (id, start) in comments.sorted(by: { $0.value < $1.value }) {
                anchors.append(TextEdit(kind: .comment(id: id), range: start..<pos, inserted: [], change: fallback))
            }
            return (edits + anchors).sorted { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
        }
    }
}

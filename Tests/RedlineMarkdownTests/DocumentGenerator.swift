import RedlineCore
@testable import RedlineMarkdown

/// Generates random documents in the canonical form the Markdown writer and reader agree on (see
/// docs/criticmarkup.md, "Round trip"): inlines nested as `InlineBuilder` nests runs, no whitespace at
/// line edges, comment ids numbered in the order the writer emits them, notes as footnotes.
struct DocumentGenerator {
    var rng: SeededRandom
    /// Also generate paragraph styles and character styles (for `preserveFormatting`).
    var formatting: Bool
    private var comments: [Comment] = []
    private var notes: [Note] = []
    private var openRanges: [String] = []
    private var commentCounter = 0
    private var noteCounter = 0
    /// Comment bodies hold no changes, comments or notes (CriticMarkup cannot nest `{>>…<<}`).
    private var inCommentBody = false

    init(seed: UInt64, formatting: Bool) {
        rng = SeededRandom(seed: seed)
        self.formatting = formatting
    }

    private mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    private mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    private mutating func pick<T>(_ a: [T]) -> T { a[int(0...(a.count - 1))] }

    // MARK: Document

    mutating func document() -> Document {
        var meta = Metadata()
        for _ in 0..<int(0...3) {
            let key = pick(["title", "author", "date", "subject", "keywords", "odd key", "x-custom"])
            guard meta[key] == nil else { continue }
            meta[key] = chance(0.5) ? .text(word(long: true)) : .list((0..<int(0...3)).map { _ in word(long: true) })
        }
        var blocks: [Block] = []
        for _ in 0..<int(0...7) { blocks += block(depth: 0, inTightList: false) }
        // Close ranges left open in the last paragraph where possible.
        var header = DocumentHeader(metadata: meta)
        if formatting && chance(0.3) { header.defaultParagraphStyle = paragraphStyle() }
        if formatting && chance(0.3) { header.defaultCharacterStyle = CharacterStyle(fontFamily: "Palatino Linotype", fontSize: pick([12, 10.5])) }
        var doc = Document(header: header, blocks: blocks, comments: comments, notes: notes)
        doc = Self.closeOpenRanges(doc, openRanges)
        // With formatting, spaces at line edges are written as entities and stay.
        return Self.canonical(Self.renumber(Self.canonical(doc, trimSpaces: !formatting)), trimSpaces: !formatting)
    }

    // MARK: Blocks

    private mutating func block(depth: Int, inTightList: Bool) -> [Block] {
        let r = int(0...99)
        if depth > 2 || r < 45 { return [.paragraph(paragraph(markChangeAllowed: !inTightList))] }
        switch r {
        case 45..<55:
            var p = paragraph(markChangeAllowed: !inTightList, breaks: false)
            if formatting && chance(0.3) { p.style = paragraphStyle() }
            return [.heading(level: int(1...6), p)]
        case 55..<63:
            return [.blockQuote((0..<int(1...2)).flatMap { _ in block(depth: depth + 1, inTightList: false) })]
        case 63..<75:
            return [.list(list(depth: depth))]
        case 75..<82:
            let lines = (0..<int(0...3)).map { _ in pick(["let x = 1", "```", "  indented {++x++}", "", "a | b", "~~~ tilde", "\t<tab>", "é ü"]) }
            return [.codeBlock(CodeBlock(language: pick(["", "swift", "c++"]), text: lines.map { $0 + "\n" }.joined()))]
        case 82..<88:
            // GFM tables inside list items meet lazy lines and list markers: top level only.
            return depth == 0 ? [.table(table())] : [.paragraph(paragraph(markChangeAllowed: !inTightList))]
        case 88..<93:
            // cmark reads a list whose item is a lone rule as tight, whatever the blank lines.
            return depth == 0 ? [.thematicBreak] : [.paragraph(paragraph(markChangeAllowed: !inTightList))]
        default:
            return [.raw(format: "html", text: pick(["<div>\nhtml block\n</div>\n", "<!-- a comment -->\n"]))]
        }
    }

    private mutating func list(depth: Int) -> List {
        let tight = chance(0.5)
        let count = int(1...3)
        var items: [[Block]] = []
        for _ in 0..<count {
            var item: [Block] = []
            if tight {
                item = [.paragraph(paragraph(markChangeAllowed: false))]
                if depth < 2 && chance(0.3) {
                    // A list that interrupts a paragraph must be a bullet list or start at 1.
                    var nested = list(depth: depth + 1)
                    if case .ordered(_, let d) = nested.kind { nested.kind = .ordered(start: 1, delimiter: d) }
                    item.append(.list(nested))
                }
                // A nested list in a tight list must be tight too, or it would loosen nothing: allowed either way.
            } else {
                // A loose list of one item needs two blocks in it (or cmark reads it as tight).
                if count == 1 { item.append(.paragraph(paragraph(markChangeAllowed: true))) }
                for _ in 0..<int(1...2) { item += block(depth: depth + 1, inTightList: false) }
                // An item that starts with a list puts two markers on one line: kept out.
                if case .list? = item.first { item[0] = .paragraph(paragraph(markChangeAllowed: true)) }
                // cmark gives a blank line after a nested list to that list: a list is last in its item.
                if let k = item.firstIndex(where: { if case .list = $0 { return true }; return false }), k < item.count - 1 {
                    item = Array(item[...k])
                }
            }
            items.append(item)
        }
        let kind: ListKind = chance(0.5) ? .bullet : .ordered(start: int(0...12), delimiter: chance(0.5) ? "." : ")")
        return List(kind: kind, tight: tight, items: items)
    }

    private mutating func table() -> Table {
        let columns = int(1...3)
        let rows = (0..<int(1...3)).map { _ in
            TableRow((0..<columns).map { _ in
                chance(0.2) ? TableCell([]) : TableCell([.paragraph(Paragraph(inlines(depth: 2, breaks: false, simple: true)))])
            })
        }
        var rows2 = rows
        // Row changes CriticMarkup can carry (cells with text and no changes of their own).
        for r in rows2.indices where chance(0.15) {
            var row = rows2[r]
            row.change = chance(0.5) ? .inserted(change()) : .deleted(change())
            if TableRowChanges.marked(Table(columns: [], headerRowCount: 0, rows: [row])).lost == 0 { rows2[r] = row }
        }
        var t = Table(columns: (0..<columns).map { _ in pick(ColumnAlignment.allCases) }, headerRowCount: 1, rows: rows2)
        // With formatting, widths and header rows other than one are carried on a div.
        if formatting && chance(0.5) { t.columnWidths = (0..<columns).map { _ in pick([72, 144.5, 36]) } }
        if formatting && chance(0.4) { t.headerRowCount = int(0...rows.count) }
        if formatting && chance(0.3) {
            // One paragraph style for all cells (a GFM cell holds no div: the table's div carries it).
            let style = paragraphStyle()
            for r in t.rows.indices {
                for c in t.rows[r].cells.indices {
                    t.rows[r].cells[c].blocks = t.rows[r].cells[c].blocks.map { b in
                        guard var p = b.paragraph else { return b }
                        p.style = style
                        return .paragraph(p)
                    }
                }
            }
        }
        return t
    }

    // MARK: Paragraphs

    private mutating func paragraph(markChangeAllowed: Bool, breaks: Bool = true) -> Paragraph {
        var p = Paragraph(chance(0.04) ? [] : inlines(depth: 0, breaks: breaks, simple: false))
        if markChangeAllowed && chance(0.12) {
            p.markChange = chance(0.5) ? .inserted(change()) : .deleted(change())
        }
        if chance(0.06) { p.styleChange = ParagraphStyleChange(change: change(), old: paragraphStyle()) }
        if formatting && chance(0.3) { p.style = paragraphStyle() }
        return p
    }

    private mutating func paragraphStyle() -> ParagraphStyle {
        var s = ParagraphStyle()
        if chance(0.4) { s.name = pick(["Body Text", "Quote", "Heading \"1\"", "x*y_z"]) }
        if chance(0.3) { s.alignment = pick(ParagraphAlignment.allCases) }
        if chance(0.3) { s.firstLineIndent = pick([36, -18, 0.5]) }
        if chance(0.2) { s.leftIndent = pick([72, 12.25]) }
        if chance(0.2) { s.rightIndent = 10 }
        if chance(0.3) { s.lineSpacing = pick([.multiple(1.2), .exactly(14), .atLeast(12)]) }
        if chance(0.2) { s.spaceBefore = 6 }
        if chance(0.2) { s.spaceAfter = 12 }
        if chance(0.2) { s.tabStops = [TabStop(position: 36), TabStop(position: 144.5, alignment: .right, leader: .dot)] }
        return s
    }

    private mutating func change() -> Change {
        Change(author: chance(0.7) ? pick(["Ann", "Ann Smith", "Bob (editor)", "x|y", "Zoë"]) : nil,
               date: chance(0.6) ? pick(["2024-01-15T14:30:00Z", "2024-01-15 14:30", "yesterday (noon)"]) : nil)
    }

    private mutating func word(long: Bool = false) -> String {
        let atoms = ["a", "word", "Text", "x", "é", "日本", "🙂", "1.", "2)", "#", "*", "_", "`", "\\", "[", "]", "{", "}",
                     "<", ">", "&amp;", "&", "|", "~", "^", "+", "-", "=", ":", "@", "!", "(", ")", "\"", "'", ".",
                     "{++", "++}", "{--", "{~~", "~>", "{==", "==}", "{>>", "<<}", "]{.x}", "[^n1]", "www.a.b", "http://x.y",
                     "a@b.co", ":::", "---", "***", "\u{00A0}", "\u{2E2A}", "\u{E001}", "\t", "a\tb",
                     // Escaped only where they are syntax: intraword `_`, `<` before a space, `5.03`, `#tag`, `:-`.
                     "group_summary", "a__b", "x < y", "5.03", "12)a", "#tag", "-x", "+y", "=z", ":-", "<<"]
        var s = ""
        for k in 0..<int(1...(long ? 5 : 3)) {
            if k > 0 && chance(0.3) { s += " " }
            s += pick(atoms)
        }
        let t = s.trimmingCharacters(" \t")
        return t.isEmpty ? "x" : t
    }

    private mutating func inlines(depth: Int, breaks: Bool, simple: Bool) -> [Inline] {
        var out: [Inline] = []
        let count = int(1...(depth == 0 ? 6 : 3))
        for k in 0..<count {
            if k > 0 {
                if breaks && depth == 0 && chance(0.12), !(out.last.map(Self.isBreak) ?? true) {
                    out.append(chance(0.5) ? .softBreak : .lineBreak)
                } else if chance(0.6) {
                    out.append(.text(" "))
                }
            }
            out.append(inline(depth: depth, simple: simple))
        }
        while let last = out.last, Self.isBreak(last) || last == .text(" ") { out.removeLast() }
        return out
    }

    static func isBreak(_ i: Inline) -> Bool {
        if case .softBreak = i { return true }
        if case .lineBreak = i { return true }
        return false
    }

    private mutating func inline(depth: Int, simple: Bool) -> Inline {
        let r = int(0...99)
        if depth >= 3 || r < 35 || (inCommentBody && r >= 74) { return .text(word()) }
        let inner = { (g: inout DocumentGenerator) in g.inlines(depth: depth + 1, breaks: false, simple: simple) }
        switch r {
        case 35..<40: return .emphasis(inner(&self))
        case 40..<45: return .strong(inner(&self))
        case 45..<48: return .strikethrough(inner(&self))
        case 48..<50: return .underline(inner(&self))
        case 50..<52: return .superscript(inner(&self))
        case 52..<54: return .subscript(inner(&self))
        case 54..<56: return .smallCaps(inner(&self))
        case 56..<58: return .highlight(inner(&self))
        case 58..<62:
            if formatting {
                return .styled(CharacterStyle(name: chance(0.5) ? "Emphasis" : nil, fontFamily: chance(0.5) ? "Palatino Linotype" : nil,
                                              fontSize: chance(0.5) ? 13 : nil, color: chance(0.3) ? RGBColor(hex: "FF0000") : nil,
                                              backgroundColor: chance(0.3) ? .yellow : nil, allCaps: chance(0.2),
                                              doubleStrikethrough: chance(0.1)), inner(&self))
            }
            return .text(word())
        case 62..<66: return .code(pick(["x", "a`b", "``", " spaced ", "|pipe|", "{++no++}", "  ", "\\"]))
        case 66..<70:
            return .link(Link(url: pick(["http://x.y/z", "https://e.com/a b", "#anchor", "a(b)", "<x>", "q?a=1&amp;b=2", ""]),
                              title: pick(["", "A \"title\"", "t"])), inner(&self))
        case 70..<72:
            return .image(Image(source: pick(["img.png", "a b.png"]), title: pick(["", "T"]), alt: word()))
        case 72..<74: return .raw(format: "html", text: pick(["<span class=\"k\">", "</span>", "<kbd>"]))
        case 74..<77:
            if simple { return .text(word()) }
            noteCounter += 1
            let id = "n\(noteCounter)"
            notes.append(Note(id: id, blocks: chance(0.15) ? [] : [.paragraph(Paragraph(inlines(depth: 2, breaks: false, simple: true)))]))
            return .noteReference(id)
        case 77..<81: return .insertion(change(), inner(&self))
        case 81..<85: return .deletion(change(), inner(&self))
        case 85..<87: return .substitution(change(), deleted: inner(&self), inserted: inner(&self))
        case 87..<89:
            return .move(Move(change: change(), name: pick(["m1", "move-2"]), side: chance(0.5) ? .from : .to), inner(&self))
        case 89..<91:
            var old = TextFormat(bold: chance(0.5), italic: chance(0.5))
            if chance(0.3) { old.style.fontFamily = "Times New Roman" }
            if chance(0.2) { old.style.fontSize = 11.5 }
            return .formatChange(FormatChange(change: change(), old: old), inner(&self))
        default:
            if simple { return .text(word()) }
            return commentAnchor()
        }
    }

    private mutating func commentAnchor() -> Inline {
        if !openRanges.isEmpty && chance(0.5) {
            let id = openRanges.remove(at: int(0...(openRanges.count - 1)))
            return .commentEnd(id)
        }
        commentCounter += 1
        let id = "g\(commentCounter)"
        comments.append(Comment(id: id, author: chance(0.7) ? pick(["Ann", "Bob Smith", "Q: x", "@me"]) : nil,
                                initials: chance(0.2) ? "AS" : nil, date: chance(0.5) ? "2024-02-01T09:00:00Z" : nil,
                                body: commentBody(), resolved: chance(0.2)))
        for r in 0..<(chance(0.3) ? int(1...2) : 0) {
            comments.append(Comment(id: id + "r\(r)", author: chance(0.5) ? "Carl" : nil, body: commentBody(), parentID: id))
        }
        if chance(0.5) { return .commentPoint(id) }
        openRanges.append(id)
        return .commentStart(id)
    }

    private mutating func commentBody() -> [Block] {
        let n = int(0...2)
        inCommentBody = true
        defer { inCommentBody = false }
        return (0..<n).map { _ in
            var p = Paragraph(inlines(depth: 1, breaks: false, simple: true))
            if formatting && chance(0.3) { p.style = paragraphStyle() }
            return .paragraph(p)
        }
    }

    // MARK: Canonical form

    /// Ends every open range at the end of the last paragraph (if any), so ends follow starts.
    static func closeOpenRanges(_ doc: Document, _ open: [String]) -> Document {
        guard !open.isEmpty else { return doc }
        var d = doc
        if case .paragraph(var p)? = d.blocks.last {
            p.content += open.map { .commentEnd($0) }
            d.blocks[d.blocks.count - 1] = .paragraph(p)
            return d
        }
        d.blocks.append(.paragraph(Paragraph(open.map { .commentEnd($0) })))
        return d
    }

    /// The document with every inline list in canonical nesting.
    static func canonical(_ doc: Document, trimSpaces: Bool = true) -> Document {
        var d = doc
        let block = { (b: Block) in canonical(b, trimSpaces: trimSpaces) }
        d.blocks = separatingLists(droppingEmptyParagraphs(d.blocks.map(block)))
        d.comments = d.comments.map { var c = $0; c.body = droppingEmptyParagraphs(c.body.map(block)); return c }
        d.notes = d.notes.map { var n = $0; n.blocks = droppingEmptyParagraphs(n.blocks.map(block)); return n }
        return d
    }

    /// An empty paragraph that carries nothing (no mark or style change, no style, no mark change on the
    /// paragraph before it) is not written: Markdown has no empty paragraph. One after a paragraph with a
    /// mark change is written as that change's closer alone, which reads back as an empty paragraph when a
    /// paragraph or heading follows (what it joins), else as nothing. A paragraph that is one
    /// insertion (deletion) as a whole has its break in that change (CriticMarkup cannot say otherwise,
    /// `lossy.unchanged-break`), unless the paragraph before ends in that change's break (it continues it).
    /// In a list item, an empty first paragraph is kept (the marker alone on its line).
    static func droppingEmptyParagraphs(_ blocks: [Block], keepingFirst: Bool = false) -> [Block] {
        var out: [Block] = []
        var afterMark: [Int] = []
        for b in wholeParagraphMarks(blocks) {
            if case .paragraph(let p) = b, isPlainEmpty(p), !(keepingFirst && out.isEmpty) {
                switch out.last {
                case .paragraph(let q)? where q.markChange != nil: afterMark.append(out.count)
                case .heading(_, let q)? where q.markChange != nil: afterMark.append(out.count)
                default: continue
                }
            }
            out.append(b)
        }
        for k in afterMark.reversed() where k + 1 >= out.count || !joins(out[k + 1]) { out.remove(at: k) }
        return out
    }

    /// The paragraph is `m`'s change as a whole (written `{++text++}`, no closer of its own).
    static func isWhole(_ p: Paragraph, _ m: ParagraphMarkChange) -> Bool {
        guard p.content.count == 1 else { return false }
        switch (p.content[0], m) {
        case (.insertion(var a, _), .inserted(var b)), (.deletion(var a, _), .deleted(var b)):
            a.id = nil; b.id = nil
            return a == b
        default: return false
        }
    }

    static func isPlainEmpty(_ p: Paragraph) -> Bool {
        p.content.isEmpty && p.markChange == nil && p.styleChange == nil && p.style.isEmpty
    }

    static func joins(_ b: Block) -> Bool {
        switch b {
        case .paragraph, .heading: return true
        default: return false
        }
    }

    /// A paragraph that is one insertion (deletion) as a whole gets its break in that change, unless the
    /// paragraph before ends in that change's break.
    static func wholeParagraphMarks(_ blocks: [Block]) -> [Block] {
        var out: [Block] = []
        for var b in blocks {
            func wholeMark(_ p: Paragraph) -> ParagraphMarkChange? {
                guard p.markChange == nil, p.content.count == 1 else { return nil }
                let m: ParagraphMarkChange
                switch p.content[0] {
                case .insertion(let c, _): m = .inserted(c)
                case .deletion(let c, _): m = .deleted(c)
                default: return nil
                }
                return out.last?.paragraph?.markChange == m ? nil : m
            }
            switch b {
            case .paragraph(var p): if let m = wholeMark(p) { p.markChange = m; b = .paragraph(p) }
            case .heading(let l, var p): if let m = wholeMark(p) { p.markChange = m; b = .heading(level: l, p) }
            default: break
            }
            out.append(b)
        }
        return out
    }

    /// Adjacent ordered lists with the same delimiter read as one list: the second gets the other one.
    static func separatingLists(_ blocks: [Block]) -> [Block] {
        var out: [Block] = []
        for b in blocks {
            if case .list(var l) = b, case .ordered(let s, let d) = l.kind,
               case .list(let p)? = out.last, case .ordered(_, let pd) = p.kind, pd == d {
                l.kind = .ordered(start: s, delimiter: d == "." ? ")" : ".")
                out.append(.list(l))
            } else {
                out.append(b)
            }
        }
        return out
    }

    /// Inlines as the writer writes them (spaces at the edge of bold, italic or struck text outside it).
    static func readable(_ inlines: [Inline], moveSpaces: Bool) -> [Inline] {
        ReadableInlines.prepare(inlines, dropStyles: false, moveSpaces: moveSpaces, lost: { _ in })
    }

    static func canonical(_ b: Block, trimSpaces: Bool = true) -> Block {
        switch b {
        case .paragraph(var p): p.content = readable(canonicalInlines(trimmed(readable(p.content, moveSpaces: trimSpaces).runs, spaces: trimSpaces)), moveSpaces: trimSpaces); return .paragraph(p)
        case .heading(let l, var p): p.content = readable(canonicalInlines(trimmed(readable(p.content, moveSpaces: trimSpaces).runs, spaces: trimSpaces)), moveSpaces: trimSpaces); return .heading(level: l, p)
        case .table(var t):
            for r in t.rows.indices {
                for c in t.rows[r].cells.indices {
                    let blocks = t.rows[r].cells[c].blocks.map { canonical($0, trimSpaces: trimSpaces) }
                    t.rows[r].cells[c].blocks = blocks.filter { $0 != .paragraph(Paragraph([])) }
                }
            }
            // A row whose every non-empty cell is one insertion (deletion) is an inserted (deleted) row.
            return .table(TableRowChanges.unmarked(t))
        case .list(var l):
            // A list item's empty first paragraph is its marker alone on its line; other empty paragraphs in
            // it are as anywhere.
            l.items = l.items.map { separatingLists(droppingEmptyParagraphs($0.map { canonical($0, trimSpaces: trimSpaces) }, keepingFirst: true)) }
            // An empty item is its bare marker, which cannot interrupt an item's text: the list is loose then.
            if l.tight && l.items.contains(where: { item in
                zip(item, item.dropFirst()).contains { a, b in
                    guard case .paragraph(let p) = a, !(item.first == a && isPlainEmpty(p)), case .list(let n) = b else { return false }
                    return n.items.first.map { $0.isEmpty || $0.first?.paragraph.map(isPlainEmpty) == true && $0.first == .paragraph($0.first!.paragraph!) } ?? false
                }
            }) { l.tight = false }
            // One item with one block written (an empty first paragraph is its bare marker; a changed break
            // at its end is a closer of its own, after a blank line): no blank line inside it, so cmark reads
            // it tight.
            if !l.tight, l.items.count == 1, let item = l.items.first {
                var written = item.count
                if case .paragraph(let p)? = item.first, isPlainEmpty(p) { written -= 1 }
                if let p = item.last?.paragraph, let m = p.markChange, !isWhole(p, m) { written += 1 }
                if written < 2 { l.tight = true }
            }
            return .list(l)
        default: return b.mapBlockArrays { separatingLists(droppingEmptyParagraphs($0.map { canonical($0, trimSpaces: trimSpaces) })) }
        }
    }

    /// Runs without spaces at line edges (paragraph start and end, around breaks): Markdown cannot hold them
    /// (unless `spaces` is false: with `preserveFormatting` they are written as entities).
    static func trimmed(_ runs: [Run], spaces: Bool = true) -> [Run] {
        func isBreak(_ r: Run) -> Bool {
            if case .lineBreak = r.content { return true }
            if case .atom(.softBreak) = r.content { return true }
            return false
        }
        var out = runs
        // Leading: from the start and after each break.
        var k = spaces ? 0 : out.count
        var atEdge = true
        while k < out.count {
            if isBreak(out[k]) { atEdge = true; k += 1; continue }
            if atEdge, case .text(let t) = out[k].content {
                let s = String(t.drop { $0 == " " || $0 == "\t" })
                out[k].content = .text(s)
                if s.isEmpty { k += 1; continue }
            }
            atEdge = false
            k += 1
        }
        // Trailing: before the end and before each break.
        k = spaces ? out.count - 1 : -1
        atEdge = true
        while k >= 0 {
            if isBreak(out[k]) { atEdge = true; k -= 1; continue }
            if atEdge, case .text(let t) = out[k].content {
                var s = Substring(t)
                while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
                out[k].content = .text(String(s))
                if s.isEmpty { k -= 1; continue }
            }
            atEdge = false
            k -= 1
        }
        out.removeAll { if case .text(let t) = $0.content { return t.isEmpty }; return false }
        // No break first, last, or next to another break.
        var result: [Run] = []
        for r in out where !(isBreak(r) && (result.isEmpty || isBreak(result[result.count - 1]))) { result.append(r) }
        while let l = result.last, isBreak(l) { result.removeLast() }
        return result.count == runs.count ? result : trimmed(result, spaces: spaces)
    }

    /// Comment ids renumbered 1, 2, 3... in the order the writer emits the comments, replies after their
    /// parent, and the comment list in that order.
    static func renumber(_ doc: Document) -> Document {
        var order: [String] = []
        var seen = Set<String>()
        for chunk in doc.chunks {
            func visit(_ b: Block) {
                b.forEachInline { i in
                    switch i {
                    case .commentStart(let id), .commentPoint(let id):
                        if seen.insert(id).inserted { order.append(id) }
                    default: break
                    }
                }
            }
            visit(chunk.block)
            for n in chunk.notes { n.blocks.forEach(visit) }
        }
        var map: [String: String] = [:]
        var sorted: [Comment] = []
        for id in order {
            guard let c = doc.comments.first(where: { $0.id == id }) else { continue }
            map[id] = String(map.count + 1)
            sorted.append(c)
            for r in doc.comments where r.parentID == id {
                map[r.id] = String(map.count + 1)
                sorted.append(r)
            }
        }
        var d = doc
        d.notes = doc.chunks.flatMap(\.notes)
        d.comments = sorted.map { c in
            var c = c
            c.id = map[c.id]!
            c.parentID = c.parentID.map { map[$0]! }
            return c
        }
        var started = Set<String>()
        func re(_ inlines: [Inline]) -> [Inline] {
            inlines.compactMap { i in
                switch i {
                case .commentStart(let id):
                    started.insert(id)
                    return map[id].map { .commentStart($0) }
                case .commentEnd(let id):
                    // An end before its start is not a range the model means: dropped.
                    guard started.contains(id) else { return nil }
                    return map[id].map { .commentEnd($0) }
                case .commentPoint(let id): return map[id].map { .commentPoint($0) }
                default: return i.mapChildren(re)
                }
            }
        }
        func reBlock(_ b: Block) -> Block {
            switch b {
            case .paragraph(var p): p.content = re(p.content); return .paragraph(p)
            case .heading(let l, var p): p.content = re(p.content); return .heading(level: l, p)
            default: return b.mapBlockArrays { $0.map(reBlock) }
            }
        }
        d.blocks = d.blocks.map(reBlock)
        d.notes = d.notes.map { var n = $0; n.blocks = n.blocks.map(reBlock); return n }
        return d
    }
}

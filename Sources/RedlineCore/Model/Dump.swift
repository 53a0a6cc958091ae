import Foundation

extension Document {
    /// The whole model as indented text, one node per line, stable and easy to diff (the reader goldens,
    /// `Golden/<family>/<case>/model.txt`, in the spirit of swift-markdown's `debugDescription`). Texts are
    /// JSON strings; styles, changes and formats are their JSON encodings with sorted keys, left out when
    /// empty, so a field added to the model shows up without a change here.
    public var dump: String {
        var d = ModelDump()
        d.header(header)
        d.line(0, "blocks")
        for b in blocks { d.block(b, 1) }
        if !comments.isEmpty {
            d.line(0, "comments")
            for c in comments { d.comment(c, 1) }
        }
        if !notes.isEmpty {
            d.line(0, "notes")
            for n in notes { d.note(n, 1) }
        }
        if let s = finalSection {
            d.line(0, "final-section" + ModelDump.field(s, dropping: ["headersFooters"]))
            d.stories(s, 1)
        }
        return d.out
    }
}

extension Block {
    /// This block as `Document.dump` shows it.
    public var dump: String {
        var d = ModelDump()
        d.block(self, 0)
        return d.out
    }
}

/// Writes `Document.dump`: a `ModelVisitor` would lose the depth, so it walks the model itself.
struct ModelDump {
    var out = ""

    mutating func line(_ depth: Int, _ text: String) {
        out += String(repeating: "  ", count: depth) + text + "\n"
    }

    /// `v` as compact JSON with sorted keys ("{}" for an empty struct).
    static func json(_ v: some Encodable) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(v)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    /// " " + the JSON of `v` without its empty lists and objects (and without the keys `drop`), or nothing
    /// when nothing is left.
    static func field(_ v: some Encodable, dropping drop: Set<String> = []) -> String {
        let j = json(v)
        guard j.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(j.utf8)) else {
            return j == "[]" ? "" : " " + j
        }
        let pruned = prune(object, drop)
        guard let dict = pruned as? [String: Any], !dict.isEmpty,
              let data = try? JSONSerialization.data(withJSONObject: dict, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "" }
        return " " + String(decoding: data, as: UTF8.self)
    }

    /// `value` without the empty lists and objects and the `false`s inside it (the model has no optional
    /// Booleans, so a `false` is always the default).
    static func prune(_ value: Any, _ drop: Set<String> = []) -> Any {
        if let d = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (k, v) in d where !drop.contains(k) {
                let p = prune(v)
                if let a = p as? [Any], a.isEmpty { continue }
                if let o = p as? [String: Any], o.isEmpty { continue }
                if let n = p as? NSNumber, String(cString: n.objCType) == "c", !n.boolValue { continue }
                out[k] = p
            }
            return out
        }
        if let a = value as? [Any] { return a.map { prune($0) } }
        return value
    }

    mutating func header(_ h: DocumentHeader) {
        line(0, "header")
        for f in h.metadata.fields {
            switch f.value {
            case .text(let s): line(1, "metadata " + Self.json(f.key) + " " + Self.json(s))
            case .list(let l): line(1, "metadata " + Self.json(f.key) + " list " + Self.json(l))
            }
        }
        let p = Self.field(h.defaultParagraphStyle), c = Self.field(h.defaultCharacterStyle)
        if !p.isEmpty { line(1, "paragraph defaults" + p) }
        if !c.isEmpty { line(1, "character defaults" + c) }
        if h.evenAndOddHeaders { line(1, "even-and-odd-headers") }
    }

    /// A section's header and footer stories.
    mutating func stories(_ s: Section, _ depth: Int) {
        for hf in s.headersFooters {
            line(depth, hf.kind.rawValue + " " + hf.which.rawValue)
            blocks(hf.blocks, depth + 1)
        }
    }

    mutating func blocks(_ bs: [Block], _ depth: Int) { for b in bs { block(b, depth) } }

    mutating func block(_ b: Block, _ depth: Int) {
        switch b {
        case .paragraph(let p):
            paragraph("paragraph", p, depth)
        case .heading(let level, let p):
            paragraph("heading \(level)", p, depth)
        case .blockQuote(let bs):
            line(depth, "quote")
            blocks(bs, depth + 1)
        case .list(let l):
            let kind: String
            switch l.kind {
            case .bullet: kind = "bullet"
            case .ordered(let start, let delimiter): kind = "ordered start=\(start) delimiter=\(delimiter)"
            }
            line(depth, "list \(kind)" + (l.tight ? " tight" : " loose"))
            for item in l.items {
                line(depth + 1, "item")
                blocks(item, depth + 2)
            }
        case .codeBlock(let c):
            line(depth, "code " + Self.json(c.language) + " " + Self.json(c.text))
        case .table(let t):
            var s = "table columns=" + t.columns.map(\.rawValue).joined(separator: ",") + " header-rows=\(t.headerRowCount)"
            if let w = t.columnWidths { s += " widths=" + Self.json(w) }
            line(depth, s)
            for r in t.rows {
                var row = "row"
                switch r.change {
                case .inserted(let c)?: row += " inserted" + Self.field(c)
                case .deleted(let c)?: row += " deleted" + Self.field(c)
                case nil: break
                }
                line(depth + 1, row)
                for cell in r.cells {
                    var span = ""
                    if cell.columnSpan != 1 || cell.rowSpan != 1 { span = " span=\(cell.columnSpan)x\(cell.rowSpan)" }
                    line(depth + 2, "cell" + span)
                    blocks(cell.blocks, depth + 3)
                }
            }
        case .thematicBreak:
            line(depth, "thematic-break")
        case .raw(let format, let text):
            line(depth, "raw " + Self.json(format) + " " + Self.json(text))
        }
    }

    mutating func paragraph(_ name: String, _ p: Paragraph, _ depth: Int) {
        var s = name + Self.field(p.style)
        switch p.markChange {
        case .inserted(let c)?: s += " mark-inserted" + Self.field(c)
        case .deleted(let c)?: s += " mark-deleted" + Self.field(c)
        case nil: break
        }
        if let sc = p.styleChange { s += " style-change" + Self.field(sc) }
        if let info = p.codeInfo { s += " code-info " + Self.json(info) }
        if let box = p.textBox { s += " text-box" + Self.field(box) }
        if let f = p.blockField { s += " block-field" + Self.field(f) }
        if p.compact { s += " compact" }
        if let m = p.definitionMarker { s += " definition-marker " + Self.json(m) }
        if let a = p.headingAttributes { s += " attributes " + Self.json(a) }
        line(depth, s)
        inlines(p.content, depth + 1)
        if let sec = p.sectionEnd {
            line(depth + 1, "section-end" + Self.field(sec, dropping: ["headersFooters"]))
            stories(sec, depth + 2)
        }
    }

    mutating func inlines(_ xs: [Inline], _ depth: Int) { for x in xs { inline(x, depth) } }

    mutating func inline(_ i: Inline, _ depth: Int) {
        func container(_ name: String, _ c: [Inline]) {
            line(depth, name)
            inlines(c, depth + 1)
        }
        switch i {
        case .text(let s): line(depth, "text " + Self.json(s))
        case .emphasis(let c): container("emphasis", c)
        case .strong(let c): container("strong", c)
        case .strikethrough(let c): container("strikethrough", c)
        case .underline(let c): container("underline", c)
        case .superscript(let c): container("superscript", c)
        case .subscript(let c): container("subscript", c)
        case .smallCaps(let c): container("small-caps", c)
        case .highlight(let c): container("highlight", c)
        case .styled(let style, let c): container("styled" + Self.field(style), c)
        case .code(let s): line(depth, "code " + Self.json(s))
        case .link(let l, let c): container("link " + Self.json(l.url) + (l.title.isEmpty ? "" : " title " + Self.json(l.title)), c)
        case .image(let img): line(depth, "image" + Self.field(img))
        case .lineBreak: line(depth, "line-break")
        case .softBreak: line(depth, "soft-break")
        case .raw(let format, let text): line(depth, "raw " + Self.json(format) + " " + Self.json(text))
        case .noteReference(let id): line(depth, "note-reference " + Self.json(id))
        case .math(let kind, let tex): line(depth, "math " + kind.rawValue + " " + Self.json(tex))
        case .field(let f, let c): container("field " + Self.json(f.instruction), c)
        case .insertion(let ch, let c): container("insertion" + Self.field(ch), c)
        case .deletion(let ch, let c): container("deletion" + Self.field(ch), c)
        case .substitution(let ch, let d, let ins):
            line(depth, "substitution" + Self.field(ch))
            line(depth + 1, "deleted")
            inlines(d, depth + 2)
            line(depth + 1, "inserted")
            inlines(ins, depth + 2)
        case .move(let m, let c): container("move " + m.side.rawValue + " " + Self.json(m.name) + Self.field(m.change), c)
        case .formatChange(let f, let c): container("format-change" + Self.field(f), c)
        case .commentStart(let id): line(depth, "comment-start " + Self.json(id))
        case .commentEnd(let id): line(depth, "comment-end " + Self.json(id))
        case .commentPoint(let id): line(depth, "comment-point " + Self.json(id))
        }
    }

    mutating func comment(_ c: Comment, _ depth: Int) {
        line(depth, "comment " + Self.json(c.id) + Self.field(c, dropping: ["body", "id"]))
        blocks(c.body, depth + 1)
    }

    mutating func note(_ n: Note, _ depth: Int) {
        line(depth, n.kind.rawValue + " " + Self.json(n.id))
        blocks(n.blocks, depth + 1)
    }
}

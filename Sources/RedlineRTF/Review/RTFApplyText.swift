import RedlineCore

/// What `RTFApply` writes into ORIGINAL: EDITED's text as RTF (escaped, `\uN` with one fallback character
/// under a `\uc1` of its own group), the revision groups' opening words, new paragraphs and annotations.
struct RTFApplyText {
    /// The revision table's entries: ORIGINAL's, then those added.
    private(set) var authors: [String]
    /// How many entries ORIGINAL's table had (nil: it had none).
    let existing: Int?
    /// The next annotation id.
    private(set) var nextAnnotation: Int
    /// New blocks other than paragraphs written as paragraphs (a list's items, a table's cells).
    private(set) var flattened = 0

    init(authors: [String], hasTable: Bool, largestAnnotationID: Int) {
        self.authors = authors
        existing = hasTable ? authors.count : nil
        nextAnnotation = largestAnnotationID + 1
    }

    /// `{\revised\revauthN\revdttmM ` (or `{` when the changes are accepted), `words` (`\plain`, which
    /// resets the revision, or other formatting) first.
    mutating func insertionOpen(_ c: Change, accept: Bool, words: String = "") -> [UInt8] {
        if accept { return Array((words.isEmpty ? "{" : "{\(words) ").utf8) }
        return Array("{\(words)\\revised\\revauth\(author(c))\(date("\\revdttm", c)) ".utf8)
    }

    /// `{\deleted\revauthdelN\revdttmdelM `.
    mutating func deletionOpen(_ c: Change) -> [UInt8] {
        Array("{\\deleted\\revauthdel\(author(c))\(date("\\revdttmdel", c)) ".utf8)
    }

    private func date(_ word: String, _ c: Change) -> String {
        guard let d = c.date, let v = dttm(fromISO: d) else { return "" }
        return "\(word)\(v)"
    }

    /// The revision table index of `c`'s author, added when new. Index 0 is "Unknown" in a table made here.
    mutating func author(_ c: Change) -> Int {
        let name = c.author ?? "Unknown"
        if let i = authors.firstIndex(of: name) { return i }
        if existing == nil && authors.isEmpty { authors.append("Unknown") }
        if let i = authors.firstIndex(of: name) { return i }
        authors.append(name)
        return authors.count - 1
    }

    /// The bytes that put the new authors into the header: entries before the existing table's `}`, or a
    /// whole table; nil when no author was added.
    func header() -> [UInt8]? {
        let from = existing ?? 0
        guard authors.count > from else { return nil }
        var h: [UInt8] = existing == nil ? Array("{\\*\\revtbl ".utf8) : []
        for a in authors[from...] {
            h.append(UInt8(ascii: "{"))
            RTFText.escape(a, into: &h)
            h += Array(";}".utf8)
        }
        if existing == nil { h += Array("}\n".utf8) }
        return h
    }

    // MARK: Text

    /// Inlines as RTF content: emphasis and the like as groups of their own, breaks as `\line`, a reference
    /// to one of `notes` as that note's bytes (other references, pictures and comment marks left out).
    static func render(_ inlines: [Inline], notes: [String: [UInt8]] = [:]) -> [UInt8] {
        var out: [UInt8] = []
        var needsUC = false
        func text(_ s: String) {
            if s.unicodeScalars.contains(where: { $0.value >= 0x80 }) { needsUC = true }
            RTFText.escape(s, into: &out)
        }
        func group(_ word: String, _ children: [Inline]) {
            out += Array("{\\\(word) ".utf8)
            walk(children)
            out.append(UInt8(ascii: "}"))
        }
        func walk(_ inlines: [Inline]) {
            for i in inlines {
                switch i {
                case .text(let s), .code(let s): text(s)
                case .emphasis(let c): group("i", c)
                case .strong(let c): group("b", c)
                case .strikethrough(let c): group("strike", c)
                case .underline(let c): group("ul", c)
                case .superscript(let c): group("super", c)
                case .subscript(let c): group("sub", c)
                case .smallCaps(let c): group("scaps", c)
                case .lineBreak: out += Array("\\line ".utf8)
                case .softBreak: out.append(UInt8(ascii: " "))
                case .noteReference(let id): out += notes[id] ?? []
                case .image, .raw, .commentStart, .commentEnd, .commentPoint: break
                default: walk(i.children)
                }
            }
        }
        walk(inlines)
        return needsUC ? Array("\\uc1 ".utf8) + out : out
    }

    /// New blocks as paragraphs' contents, in reading order (a code block a paragraph a line); references to
    /// `notes` as in `render`.
    mutating func paragraphs(_ blocks: [Block], notes: [String: [UInt8]] = [:]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for b in blocks {
            switch b {
            case .paragraph(let p), .heading(_, let p): out.append(Self.render(p.content, notes: notes))
            case .codeBlock(let c):
                var t = c.text
                if t.hasSuffix("\n") { t.removeLast() }
                for line in t.split(separator: "\n", omittingEmptySubsequences: false) {
                    out.append(Self.render([.text(String(line))]))
                }
            case .blockQuote(let bs): out += paragraphs(bs, notes: notes)
            case .list(let l):
                flattened += 1
                for item in l.items { out += paragraphs(item, notes: notes) }
            case .table(let t):
                flattened += 1
                for row in t.rows { for cell in row.cells { out += paragraphs(cell.blocks, notes: notes) } }
            case .thematicBreak, .raw: break
            }
        }
        return out
    }

    /// A new note where its reference goes: the reference mark and the `{\footnote …}` group (`\ftnalt` for an
    /// endnote), its paragraphs marked inserted by whoever inserted the note (unless `accept`), as Word writes
    /// one.
    mutating func note(_ note: Note, accept: Bool) -> [UInt8] {
        var body = RTFApplyText(authors: [], hasTable: true, largestAnnotationID: 0)
        var paras = body.paragraphs(note.blocks)
        if paras.isEmpty { paras = [[]] }
        var out = Array("{\\super\\chftn}{\\footnote\(note.kind == .endnote ? "\\ftnalt" : "")\\pard\\plain ".utf8)
        out += insertionOpen(note.insertion ?? Change(), accept: accept)
        out += Array("{\\super\\chftn}".utf8)
        for p in paras { out += p + Array("\\par ".utf8) }
        out += Array("}}".utf8)
        return out
    }

    // MARK: Annotations

    /// A new annotation's number.
    mutating func annotationID() -> Int {
        defer { nextAnnotation += 1 }
        return nextAnnotation
    }

    /// `{\*\atrfstart N}` / `{\*\atrfend N}`.
    static func rangeMark(start: Bool, _ n: Int) -> [UInt8] {
        Array("{\\*\\atrf\(start ? "start" : "end") \(n)}".utf8)
    }

    /// An annotation as Word writes one: initials, author (`Redline` when it has none), `\chatn`, then its text
    /// with its id, parent and date.
    static func annotation(_ c: Comment, id n: Int, parent: Int?) -> [UInt8] {
        // A comment without an author is Redline's, as the DOCX applier writes it.
        let author = c.author ?? "Redline"
        var h: [UInt8] = Array("{\\*\\atnid ".utf8)
        RTFText.escape(c.initials ?? initials(author), into: &h)
        h += Array("}{\\*\\atnauthor ".utf8)
        RTFText.escape(author, into: &h)
        h.append(UInt8(ascii: "}"))
        h += Array("\\chatn{\\*\\annotation{\\*\\atnref \(n)}".utf8)
        if let p = parent { h += Array("{\\*\\atnparent \(p)}".utf8) }
        if let d = c.date, let v = dttm(fromISO: d) { h += Array("{\\*\\atndate \(v)}".utf8) }
        var body = RTFApplyText(authors: [], hasTable: true, largestAnnotationID: 0)
        h += Array("\\pard\\plain ".utf8)
        for p in body.paragraphs(c.body) { h += p + Array("\\par ".utf8) }
        h.append(UInt8(ascii: "}"))
        return h
    }

    private static func initials(_ name: String) -> String {
        String(name.split(separator: " ").compactMap(\.first))
    }
}

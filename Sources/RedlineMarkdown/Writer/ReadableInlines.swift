import RedlineCore

/// What the Markdown writer does to inlines before rendering them, so that the Markdown reads as a person
/// would write it rather than as Word split its runs:
/// - formatting Markdown does not hold (fonts, sizes, colours, named character styles: `CharacterStyle`)
///   is taken off when it is not kept (`--keep-formatting`), each loss reported, so it cannot split a run:
///   `**T****h****e**` (one font per letter) is `**The**`;
/// - revision ids, which CriticMarkup does not write, are taken off (formatting changes' too), so that two
///   changes of one author and date that Word recorded separately (`{--a --}{--[link](u)--}`) are one;
/// - spaces at the edge of bold, italic or struck text move outside it (`**e** ` rather than
///   `<strong>e </strong>`: CommonMark closes no emphasis after a space).
/// The result is in the canonical nesting (`InlineBuilder`); inlines that need none of this are returned
/// as they are, after one scan.
enum ReadableInlines {
    /// `inlines` made readable; `dropStyles` when character styles are not kept (`lost` hears each one).
    /// `moveSpaces` moves spaces out of emphasis (not with `--keep-formatting`, which keeps every span as it is).
    static func prepare(_ inlines: [Inline], dropStyles: Bool, moveSpaces: Bool, lost: (CharacterStyle) -> Void) -> [Inline] {
        var scan = Scan(dropStyles: dropStyles, moveSpaces: moveSpaces)
        scan.visit(inlines, emphasized: false)
        guard scan.needed else { return inlines }
        if dropStyles { scan.styles.forEach(lost) }
        return process(inlines, dropStyles: dropStyles, moveSpaces: moveSpaces)
    }

    /// Changes are kept as they are nested (a deletion inside an insertion stays there, a substitution stays
    /// one): what lies between them is flattened to runs and rebuilt; their contents are processed alike;
    /// adjacent changes that are equal without their ids become one.
    private static func process(_ inlines: [Inline], dropStyles: Bool, moveSpaces: Bool, atStart: Bool = true,
                                atEnd: Bool = true) -> [Inline] {
        var out: [Inline] = []
        var plain: [Inline] = []
        func flush(next: Bool = true) {
            guard !plain.isEmpty else { return }
            var runs = plain.runs
            plain = []  // freed before the copies below (a paragraph can be a million runs)
            if dropStyles { for i in runs.indices { runs[i].format.style = CharacterStyle() } }
            // Formatting changes too: two of one attribution that Word recorded apart are one span.
            for i in runs.indices where runs[i].formatChange?.change.id != nil { runs[i].formatChange?.change.id = nil }
            // Next to a change (or inside one) the text beyond is another version's: spaces there stay put,
            // so accepting or rejecting gives the same formatting as the document without the change.
            if moveSpaces {
                spacesOutsideEmphasis(&runs, before: out.isEmpty && atStart ? [] : .all, after: next ? .all : (atEnd ? [] : .all))
                // A space moved out of bold, say, under a formatting change from plain now has its old
                // formatting: no change there (as the DOCX reader reads a change to the same formatting).
                for i in runs.indices where runs[i].formatChange.map({ $0.old == runs[i].format }) == true { runs[i].formatChange = nil }
            }
            let built = InlineBuilder.inlines(from: runs)
            runs = []
            if out.isEmpty { out = built } else { out += built }
        }
        func add(_ change: Inline) {
            flush()
            switch (out.last, change) {
            case (.insertion(let a, let x)?, .insertion(let b, let y)) where a == b:
                out[out.count - 1] = .insertion(a, process(x + y, dropStyles: dropStyles, moveSpaces: moveSpaces, atStart: false, atEnd: false))
            case (.deletion(let a, let x)?, .deletion(let b, let y)) where a == b:
                out[out.count - 1] = .deletion(a, process(x + y, dropStyles: dropStyles, moveSpaces: moveSpaces, atStart: false, atEnd: false))
            case (.move(let a, let x)?, .move(let b, let y)) where a == b:
                out[out.count - 1] = .move(a, process(x + y, dropStyles: dropStyles, moveSpaces: moveSpaces, atStart: false, atEnd: false))
            // The reader pairs a deletion and the insertion after it into a substitution, and its parts
            // with the changes next to them: so does the writer, or a second trip would.
            case (.deletion(let a, let x)?, .insertion(let b, let y)) where a == b:
                out[out.count - 1] = .substitution(a, deleted: x, inserted: y)
            case (.deletion(let a, let x)?, .substitution(let b, let d, let i)) where a == b:
                out[out.count - 1] = .substitution(a, deleted: process(x + d, dropStyles: dropStyles, moveSpaces: moveSpaces, atStart: false, atEnd: false), inserted: i)
            case (.substitution(let a, let d, let i)?, .insertion(let b, let y)) where a == b:
                out[out.count - 1] = .substitution(a, deleted: d, inserted: process(i + y, dropStyles: dropStyles, moveSpaces: moveSpaces, atStart: false, atEnd: false))
            default:
                out.append(change)
            }
        }
        let inner = { (kids: [Inline]) in process(kids, dropStyles: dropStyles, moveSpaces: moveSpaces, atStart: false, atEnd: false) }
        // A run of insertions (or deletions) of one attribution, as Word records each typing session, is
        // gathered and processed once: joining each to the one before and processing the join again was
        // quadratic (400,000 `w:ins` in a paragraph took 15 s).
        var pending: (insertion: Bool, change: Change, kids: [Inline])?
        func emitPending() {
            guard let p = pending else { return }
            pending = nil
            add(p.insertion ? .insertion(p.change, inner(p.kids)) : .deletion(p.change, inner(p.kids)))
        }
        func gather(_ insertion: Bool, _ change: Change, _ kids: [Inline]) {
            if pending?.insertion == insertion, pending?.change == change {
                pending!.kids += kids
            } else {
                emitPending()
                pending = (insertion, change, kids)
            }
        }
        for inline in inlines {
            switch inline {
            case .insertion(var c, let kids): c.id = nil; gather(true, c, kids)
            case .deletion(var c, let kids): c.id = nil; gather(false, c, kids)
            case .move(var m, let kids): emitPending(); m.change.id = nil; add(.move(m, inner(kids)))
            case .substitution(var c, let d, let i):
                emitPending()
                c.id = nil
                add(.substitution(c, deleted: inner(d), inserted: inner(i)))
            default: emitPending(); plain.append(inline)
            }
        }
        emitPending()
        flush(next: false)
        return out
    }

    /// Whether `process` joins `a` and the change after it into one (a deletion or substitution, then an
    /// insertion or substitution, of one attribution) though neither carries an id.
    static func pairs(_ a: Inline, _ b: Inline) -> Bool {
        switch (a, b) {
        case (.deletion(let x, _), .insertion(let y, _)), (.deletion(let x, _), .substitution(let y, _, _)),
             (.substitution(let x, _, _), .insertion(let y, _)):
            return x == y
        default:
            return false
        }
    }

    /// True for the whitespace CommonMark's flanking rules see (spaces, tabs, no-break and other spaces).
    static func isSpace(_ c: Character) -> Bool {
        // ASCII first: the Unicode property tables cost a few hundred instructions a look-up, and the only
        // ASCII space separator is the space itself (a CR LF character is neither).
        if let a = c.asciiValue { return a == 0x20 || a == 0x09 }
        return c.unicodeScalars.first.map { $0.properties.generalCategory == .spaceSeparator } == true
    }

    /// Where the characters at the start of `s` that are spaces (`isSpace`) end. Read as bytes when they are
    /// ASCII and an ASCII byte (or the end) follows them, so no grapheme cluster can join across (no ASCII
    /// character extends one, and only CR LF joins two); else by characters. Walking `s` by characters with
    /// `prefix(while:)` cost a few thousand instructions a run (PERFORMANCE.md, "Small runs").
    static func endOfLeadingSpaces(_ s: String) -> String.Index {
        let u = s.utf8
        var i = u.startIndex
        while i != u.endIndex, u[i] == 0x20 || u[i] == 0x09 { i = u.index(after: i) }
        if i == u.endIndex || u[i] < 0x80 { return i }
        var j = s.startIndex
        while j != s.endIndex, isSpace(s[j]) { j = s.index(after: j) }
        return j
    }

    /// Where the characters at the end of `s` that are spaces (`isSpace`) start (as `endOfLeadingSpaces`,
    /// from the end: bytes when an ASCII byte, or the start, precedes them, since no ASCII character is a
    /// prefix that joins the next).
    static func startOfTrailingSpaces(_ s: String) -> String.Index {
        let u = s.utf8
        var i = u.endIndex
        while i != u.startIndex {
            let p = u.index(before: i)
            guard u[p] == 0x20 || u[p] == 0x09 else { break }
            i = p
        }
        if i == u.startIndex || u[u.index(before: i)] < 0x80 { return i }
        var j = s.endIndex
        while j != s.startIndex {
            let p = s.index(before: j)
            guard isSpace(s[p]) else { break }
            j = p
        }
        return j
    }

    private struct Scan {
        let dropStyles: Bool
        let moveSpaces: Bool
        var needed = false
        var styles: [CharacterStyle] = []

        mutating func visit(_ inlines: [Inline], emphasized: Bool) {
            for (k, inline) in inlines.enumerated() {
                if k > 0, ReadableInlines.pairs(inlines[k - 1], inline) { needed = true }
                switch inline {
                case .text(let s):
                    if moveSpaces, emphasized, let f = s.first, let l = s.last, ReadableInlines.isSpace(f) || ReadableInlines.isSpace(l) { needed = true }
                case .styled(let style, let c):
                    if dropStyles { needed = true; styles.append(style) }
                    visit(c, emphasized: emphasized)
                case .formatChange(let f, let c):
                    if f.change.id != nil { needed = true }
                    visit(c, emphasized: emphasized)
                case .strong(let c), .emphasis(let c), .strikethrough(let c):
                    visit(c, emphasized: true)
                case .insertion(let ch, let c), .deletion(let ch, let c):
                    if ch.id != nil { needed = true }
                    visit(c, emphasized: emphasized)
                case .move(let m, let c):
                    if m.change.id != nil { needed = true }
                    visit(c, emphasized: emphasized)
                case .substitution(let ch, let d, let i):
                    if ch.id != nil { needed = true }
                    visit(d, emphasized: emphasized)
                    visit(i, emphasized: emphasized)
                default:
                    visit(inline.children, emphasized: emphasized)
                }
            }
        }
    }

    /// Bold, italic and strikethrough a run starts (ends) with, that the run before (after) it lacks.
    private struct Marks: OptionSet {
        let rawValue: UInt8
        static let bold = Marks(rawValue: 1), italic = Marks(rawValue: 2), strike = Marks(rawValue: 4)
        static let all: Marks = [.bold, .italic, .strike]
        init(rawValue: UInt8) { self.rawValue = rawValue }
        init(_ f: TextFormat) {
            var m: Marks = []
            if f.bold { m.insert(.bold) }
            if f.italic { m.insert(.italic) }
            if f.strikethrough { m.insert(.strike) }
            self = m
        }
        func clear(_ f: inout TextFormat) {
            if contains(.bold) { f.bold = false }
            if contains(.italic) { f.italic = false }
            if contains(.strike) { f.strikethrough = false }
        }
    }

    /// Splits the spaces at the start (end) of a text run off it, without the marks that begin (end) there.
    /// Marks are compared with the runs as already moved (left to right for the starts, right to left for
    /// the ends), so a space that a moved space leaves at the edge moves too (`**` + space + `<sub> </sub>x**`
    /// moves both spaces at once, as a second write would): one pass each way, linear. At most two arrays
    /// of runs are alive at once (the input is freed after the first pass, the second is built backwards and
    /// reversed in place).
    private static func spacesOutsideEmphasis(_ runs: inout [Run], before: Marks, after: Marks) {
        var left: [Run] = []
        left.reserveCapacity(runs.count)
        for i in runs.indices {
            let run = runs[i]
            let previous = left.last.map { Marks($0.format) } ?? before
            guard case .text(let s) = run.content, !run.format.code else { left.append(run); continue }
            let opening = Marks(run.format).subtracting(previous)
            let lead = opening.isEmpty ? s.startIndex : endOfLeadingSpaces(s)
            guard lead != s.startIndex else { left.append(run); continue }
            var r = run
            r.content = .text(String(s[..<lead]))
            opening.clear(&r.format)
            left.append(r)
            if lead != s.endIndex {
                var mid = run
                mid.content = .text(String(s[lead...]))
                left.append(mid)
            }
        }
        runs = []
        var right: [Run] = []
        right.reserveCapacity(left.count)
        for i in left.indices.reversed() {
            let run = left[i]
            let next = right.last.map { Marks($0.format) } ?? after
            guard case .text(let s) = run.content, !run.format.code else { right.append(run); continue }
            let closing = Marks(run.format).subtracting(next)
            let trail = closing.isEmpty ? s.endIndex : startOfTrailingSpaces(s)
            guard trail != s.endIndex else { right.append(run); continue }
            var r = run
            r.content = .text(String(s[trail...]))
            closing.clear(&r.format)
            right.append(r)
            if trail != s.startIndex {
                var mid = run
                mid.content = .text(String(s[..<trail]))
                right.append(mid)
            }
        }
        left = []
        right.reverse()
        runs = right
    }
}

/// Character tests with an ASCII fast path that give exactly what the Unicode properties give.
enum CharacterClass {
    /// `u.properties.isWhitespace` for an ASCII scalar: TAB, LF, VT, FF, CR and the space.
    @inline(__always)
    static func isASCIIWhitespace(_ u: Unicode.Scalar) -> Bool {
        (0x09...0x0D).contains(u.value) || u.value == 0x20
    }
}

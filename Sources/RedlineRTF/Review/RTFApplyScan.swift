import Foundation
import RedlineCore

/// ORIGINAL's RTF read for `redline apply` (`RTFApply`): the file's bytes, the paragraphs of the body, of each
/// footnote and endnote and of each header and footer with, for each character of their text, the bytes that
/// wrote it, and the places in the header a change needs (the revision table, where one goes when there is
/// none, the annotation ids in use). Text is measured as the
/// reader reads it: hidden and deleted text count nothing, a picture or a note reference one U+FFFC.
struct RTFApplyScan {
    /// One character (or object) of a paragraph's text and the bytes that wrote it.
    struct Unit {
        /// UTF-8 offsets in the paragraph's text.
        var utf8: Range<Int>
        /// Bytes of the file (a `\uN` with its fallback, a picture's or a note's whole group).
        var bytes: Range<Int>
        /// Units of one run have only content between them (no control word, no brace).
        var run: Int
    }

    /// What ends a paragraph.
    enum Terminator { case par, cell, none }

    /// A paragraph of the body, a note, a header or a footer.
    struct Paragraph {
        var text: [UInt8] = []
        var units: [Unit] = []
        /// Where it begins: after the token that ended the paragraph before it.
        var start: Int
        /// The bytes of the token that ends it (`\par`, `\cell`, `\row`...), nil at the end of the file.
        var end: Range<Int>?
        var terminator = Terminator.none
        /// Where its last content ends.
        var contentEnd: Int

        var string: String { String(decoding: text, as: UTF8.self) }
    }

    /// A header's or footer's group: the section it is stated in (how many `\sect`s of the body come before
    /// it) and its place.
    struct HeaderFooterKey: Hashable {
        var section: Int
        var place: HeaderFooter.Place
    }

    /// Which story a group's text belongs to.
    private enum StoryKey {
        case note(String)
        case headerFooter(HeaderFooterKey)
    }

    private(set) var bytes: [UInt8] = []
    /// The body's paragraphs (while a note or header is read: that story's, the body's kept in `outer`).
    private(set) var paragraphs: [Paragraph] = []
    /// Each footnote's and endnote's paragraphs, by the id the reader gives it (`1`, `2`, … in the order the
    /// `\footnote` groups come).
    private(set) var notes: [String: [Paragraph]] = [:]
    /// Each header's and footer's paragraphs (the last group stated for a section and place).
    private(set) var headerFooters: [HeaderFooterKey: [Paragraph]] = [:]
    /// How many `\sect`s the body has.
    private(set) var sectionBreaks = 0
    /// The byte after each `\row` of the body.
    private(set) var rowEnds: [Int] = []
    /// The revision table's entries (authors), in order.
    private(set) var authors: [String] = []
    /// Where the revision table's closing brace is, when the file has one.
    private(set) var revisionTableEnd: Int?
    /// Where a new revision table goes: after the last of the font, colour, style and list tables.
    private(set) var headerEnd = 0
    /// The largest number among annotation ids (`\atnref`, `\atrfstart`, `\atrfend`).
    private(set) var largestAnnotationID = 0

    private struct Frame {
        var body = true
        /// Text here belongs to a story the scan keeps (the body, a note, a header or footer; not an annotation).
        var collects = true
        /// The story this group opens.
        var opens: StoryKey?
        var hidden = false
        var deleted = false
        var uc = 1
        var start = 0
        var first: RTFWordKey?
        var revisionTable = false
        /// Index of the unit (a picture or a note) this group's end closes.
        var object: Int?
        /// Gathering this group's text: a revision table entry or an annotation id.
        var gathers = false
        var fontTable = false
        /// The font in force (`\fN`), -1 for the default one.
        var font = -1
    }

    private var stack: [Frame] = []
    private var cur = Frame()
    private var awaitingFirst = false
    private var run = 0
    private var para = Paragraph(start: 0, contentEnd: 0)
    private var codePage = 1252
    private var decoders: [Int: CodePageDecoder] = [:]
    /// Fonts' code pages (`\fcharset`, `\cpg`), the default font, the font table entry being read.
    private var fontCodePages: [Int: Int] = [:]
    private var defaultFont = 0
    private var fontEntry: (number: Int?, charset: Int?, codePage: Int?) = (nil, nil, nil)
    private var skip = 0
    private var pendingStart: Int?
    private var high: (value: UInt32, start: Int)?
    private var collected: RTFReviewText?
    /// The stories outside the one being read: their paragraphs so far and the paragraph open in each.
    private var outer: [(paragraphs: [Paragraph], para: Paragraph)] = []
    private var noteCount = 0

    private static let headerGroups: Set<RTFWordKey> = Set(["fonttbl", "colortbl", "stylesheet", "listtable",
                                                             "listoverridetable", "revtbl"].map { RTFWordKey($0) })
    private static let idGroups: Set<RTFWordKey> = Set(["atnref", "atrfstart", "atrfend"].map { RTFWordKey($0) })
    private static let characters: [RTFWordKey: UInt32] = {
        var t: [RTFWordKey: UInt32] = [RTFWordKey("line"): 10]
        for (n, v) in RTFKeyword.specialCharacters { t[RTFWordKey(n)] = v }
        return t
    }()

    init(_ input: DocumentInput) throws {
        try RTFInPlaceReview.checkHeader(input)
        var lexer = try RTFRawLexer(input)
        while true {
            let t = try lexer.next()
            if t.kind == .end { break }
            let start = bytes.count
            bytes.append(contentsOf: lexer.raw)
            if t.kind == .word, t.name == RTFWordKey("bin") { lexer.expectBinary(t.param ?? 0) }
            if awaitingFirst {
                if t.kind == .ignorable { continue }
                if t.kind == .symbol && t.symbol == UInt8(ascii: "*") {
                    cur.body = false  // an unknown destination unless its word says otherwise below
                    cur.first = RTFWordKey("*")
                    continue
                }
                awaitingFirst = false
                if t.kind == .word {
                    let starred = cur.first == RTFWordKey("*")
                    cur.first = t.name
                    if starred && RTFReviewWord.lookup(t.name) == nil && RTFKeyword.table[t.name] == nil {
                        cur.body = false
                    } else if starred {
                        cur.body = stack.last?.body ?? true
                    }
                    if Self.idGroups.contains(t.name) {
                        cur.gathers = true
                        collected = RTFReviewText(codePage: codePage)
                    }
                } else if cur.first == RTFWordKey("*") {
                    cur.body = false
                }
            }
            token(t, start: start, raw: lexer.raw)
        }
        // A note or header group the file leaves open (its closing braces missing): the body taken up again.
        if let body = outer.first {
            paragraphs = body.paragraphs
            para = body.para
            outer = []
        }
        if !para.units.isEmpty { paragraphs.append(para) }
    }

    private var inBody: Bool { cur.body && cur.collects && !stack.isEmpty }
    /// Reading the body itself (not a note or header inside it).
    private var inMainStory: Bool { outer.isEmpty }

    private static let headerFooterWords: [RTFWordKey: HeaderFooter.Place] = Dictionary(
        RTFKeyword.headersAndFooters.map { (RTFWordKey($0.0), HeaderFooter.Place(kind: $0.1, which: $0.2)) },
        uniquingKeysWith: { a, _ in a })
    private static let sect = RTFWordKey("sect")

    /// A note's or header's group starts: its paragraphs are collected apart until it ends.
    private mutating func open(_ key: StoryKey, at end: Int) {
        outer.append((paragraphs, para))
        paragraphs = []
        para = Paragraph(start: end, contentEnd: end)
        cur.opens = key
        cur.collects = true
    }

    /// The group of a note or header ended: its paragraphs are kept, the story around it taken up again.
    private mutating func close(_ key: StoryKey) {
        if !para.units.isEmpty { paragraphs.append(para) }
        switch key {
        case .note(let id): notes[id] = paragraphs
        case .headerFooter(let k): headerFooters[k] = paragraphs
        }
        guard let o = outer.popLast() else { return }
        paragraphs = o.paragraphs
        para = o.para
    }

    private mutating func token(_ t: RTFRawToken, start: Int, raw: [UInt8]) {
        let end = start + raw.count
        switch t.kind {
        case .groupStart:
            run += 1
            skip = 0
            stack.append(cur)
            cur.start = start
            cur.first = nil
            cur.object = nil
            cur.opens = nil
            cur.gathers = cur.revisionTable
            if cur.revisionTable { collected = RTFReviewText(codePage: codePage) }
            cur.revisionTable = false
            awaitingFirst = true
        case .groupEnd:
            run += 1
            skip = 0
            let closing = cur
            cur = stack.popLast() ?? Frame()
            if let key = closing.opens { close(key) }
            if let o = closing.object, o < para.units.count { para.units[o].bytes = para.units[o].bytes.lowerBound..<end }
            if closing.gathers, let c = collected {
                if cur.revisionTable {
                    var s = c.value
                    while s.hasSuffix(";") { s.removeLast() }
                    authors.append(s.trimmingCharacters(in: .whitespaces))
                } else if let n = Int(c.value) {
                    largestAnnotationID = max(largestAnnotationID, n)
                }
                collected = nil
            }
            if closing.revisionTable { revisionTableEnd = start }
            if closing.fontTable { commitFont() }
            if stack.count == 1, let f = closing.first, Self.headerGroups.contains(f), paragraphs.isEmpty, para.units.isEmpty {
                headerEnd = end
            }
        case .ignorable, .binary, .end:
            break
        case .text:
            if cur.gathers { collected?.add(t, raw: raw, fallback: cur.uc) }
            guard inBody else { run += 1; return }
            for (i, b) in raw.enumerated() { byte(b, at: start + i) }
        case .hex:
            if cur.gathers { collected?.add(t, raw: raw, fallback: cur.uc) }
            guard inBody else { run += 1; return }
            byte(t.symbol, at: start, end: end)
        case .symbol:
            switch t.symbol {
            case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                if cur.gathers { collected?.add(t, raw: raw, fallback: cur.uc) }
                scalar(UInt32(t.symbol), start, end)
            case UInt8(ascii: "~"): scalar(0xA0, start, end)
            case UInt8(ascii: "_"): scalar(0x2011, start, end)
            case 9: scalar(9, start, end)
            case UInt8(ascii: "-"): skip = 0
            case 10, 13: paragraphEnd(.par, start..<end)
            default: run += 1
            }
        case .word:
            word(t, start: start, end: end)
        }
    }

    private mutating func word(_ t: RTFRawToken, start: Int, end: Int) {
        if t.name == RTFWordKey("u") {
            var v = t.param ?? 0
            if v < 0 { v += 65536 }
            let u = UInt32(truncatingIfNeeded: max(0, v)) & 0xFFFF
            if (0xD800...0xDBFF).contains(u) {
                if inBody { high = (u, start) }
                skip = cur.uc
                return
            }
            if (0xDC00...0xDFFF).contains(u), let h = high {
                high = nil
                scalar(0x10000 + ((h.value - 0xD800) << 10) + (u - 0xDC00), h.start, end)
            } else {
                scalar(u, start, end)
            }
            skip = cur.uc
            return
        }
        if let c = Self.characters[t.name] {
            scalar(c, start, end)
            return
        }
        run += 1
        skip = 0
        if fontWord(t, end: end) { return }
        if let place = Self.headerFooterWords[t.name] {
            // Read where the body is; elsewhere (inside a note, say) not text the reader reads.
            if cur.body && inMainStory {
                open(.headerFooter(HeaderFooterKey(section: sectionBreaks, place: place)), at: end)
            } else {
                cur.body = false
            }
            return
        }
        guard let w = RTFReviewWord.lookup(t.name) else { return }
        switch w {
        case .revision(.deleted): cur.deleted = (t.param ?? 1) != 0
        case .plain: cur.hidden = false; cur.deleted = false; cur.font = -1
        case .hidden: cur.hidden = (t.param ?? 1) != 0
        case .uc: cur.uc = max(0, min(t.param ?? 1, 16))
        case .ansicpg:
            if let v = t.param, CodePageDecoder.isSupported(v) { codePage = v }
        case .par:
            if inBody { paragraphEnd(.par, start..<end) }
        case .cellEnd:
            guard inBody else { return }
            let isCell = t.name == RTFWordKey("cell") || t.name == RTFWordKey("nestcell")
            if isCell || !para.units.isEmpty { paragraphEnd(isCell ? .cell : .none, start..<end) }
            if t.name == RTFWordKey("row") && inMainStory { rowEnds.append(end) }
            if t.name == Self.sect && inMainStory { sectionBreaks += 1 }
        case .footnote:
            // Numbered as the reader numbers notes: every `\footnote` it reads, wherever it is.
            guard cur.body else { return }
            noteCount += 1
            if inBody && inMainStory && !cur.hidden { cur.object = object(at: cur.start) }
            open(.note(String(noteCount)), at: end)
        case .annotation:
            cur.collects = false
        case .pict:
            if inBody && !cur.hidden {
                // A picture inside `\shppict` is that group's: wrapping the inner group alone would leave it.
                if let parent = stack.last, parent.first == RTFWordKey("shppict"), stack.count >= 2 {
                    let o = object(at: parent.start)
                    stack[stack.count - 1].object = o
                } else {
                    cur.object = object(at: cur.start)
                }
            }
            cur.body = false
        case .object:
            if t.name == RTFWordKey("nonshppict") { cur.body = false }
        case .revtbl:
            cur.body = false
            cur.revisionTable = true
        case .destination, .buffered:
            cur.body = false
        default:
            break
        }
    }

    /// A byte of text in the document's code page (`end` past a `\'hh`).
    private mutating func byte(_ b: UInt8, at start: Int, end: Int? = nil) {
        let stop = end ?? start + 1
        if skip > 0 {
            skip -= 1
            if let last = para.units.indices.last, para.units[last].bytes.upperBound == start {
                para.units[last].bytes = para.units[last].bytes.lowerBound..<stop
            }
            return
        }
        var out: [UInt8] = []
        var cp = fontCodePages[cur.font >= 0 ? cur.font : defaultFont] ?? codePage
        if !CodePageDecoder.isSupported(cp) { cp = 1252 }
        if cp == 65001 {
            out = [b]
        } else {
            if decoders[cp] == nil { decoders[cp] = CodePageDecoder(codePage: cp) }
            decoders[cp]!.decode(b, into: &out)
        }
        if out.isEmpty && decoders[cp]?.isPending == true {
            pendingStart = pendingStart ?? start
            return
        }
        let from = pendingStart ?? start
        pendingStart = nil
        add(out, from, stop)
    }

    /// Font table and font words: true when `t` was one.
    private mutating func fontWord(_ t: RTFRawToken, end: Int) -> Bool {
        switch t.name {
        case Self.fonttbl: cur.fontTable = true; cur.body = false
        case Self.f:
            if cur.fontTable {
                if fontEntry.number != nil { commitFont() }
                fontEntry.number = t.param
            } else {
                cur.font = t.param ?? -1
            }
        case Self.fcharset: if cur.fontTable { fontEntry.charset = t.param }
        case Self.cpg: if cur.fontTable { fontEntry.codePage = t.param }
        case Self.deff: defaultFont = t.param ?? 0
        case Self.rtf: if headerEnd == 0 { headerEnd = end }
        default: return false
        }
        return true
    }

    private mutating func commitFont() {
        if let n = fontEntry.number,
           let cp = fontEntry.codePage ?? fontEntry.charset.flatMap({ RedlineRTF.codePage(forCharset: $0, documentCodePage: codePage) }) {
            fontCodePages[n] = cp
        }
        fontEntry = (nil, nil, nil)
    }

    private static let fonttbl = RTFWordKey("fonttbl"), f = RTFWordKey("f"), fcharset = RTFWordKey("fcharset")
    private static let cpg = RTFWordKey("cpg"), deff = RTFWordKey("deff"), rtf = RTFWordKey("rtf")

    private mutating func scalar(_ v: UInt32, _ start: Int, _ end: Int) {
        guard inBody else { run += 1; return }
        skip = 0
        var out: [UInt8] = []
        appendScalar(v, to: &out)
        add(out, start, end)
    }

    private mutating func add(_ utf8: [UInt8], _ start: Int, _ end: Int) {
        guard !cur.hidden, !cur.deleted, !utf8.isEmpty else { return }
        let at = para.text.count
        para.text.append(contentsOf: utf8)
        para.units.append(Unit(utf8: at..<para.text.count, bytes: start..<end, run: run))
        para.contentEnd = end
    }

    /// A picture or note reference starting at `start`; its group's end closes it (the index returned).
    private mutating func object(at start: Int) -> Int? {
        let n = para.units.count
        add(Array(ApplyPlan.objectCharacter.utf8), start, start)
        run += 1
        return para.units.count > n ? n : nil
    }

    private mutating func paragraphEnd(_ t: Terminator, _ range: Range<Int>) {
        skip = 0
        run += 1
        para.end = range
        para.terminator = t
        if para.units.isEmpty { para.contentEnd = range.lowerBound }
        paragraphs.append(para)
        para = Paragraph(start: range.upperBound, contentEnd: range.upperBound)
    }
}

import RedlineCore

/// One `w:p` of ORIGINAL rewritten with a leaf's edits: runs split at the edits' boundaries, kept text in
/// its own run bytes, deleted text in `w:del`, inserted text in `w:ins` runs with the properties of the run
/// it follows. Containers (hyperlinks, content controls, simple fields, existing insertions) are entered;
/// field characters and instructions are never deleted, so fields stay whole; other elements with text
/// (equations, existing moves) are kept as they are.
struct ApplyParagraph {
    let scan: ApplyXMLScan
    let p: Int
    let accept: Bool
    let ids: ApplyIDs
    /// Replacements (deletions, insertions; formatting changes written as replacements).
    var replaces: [TextEdit] = []
    /// Formatting changes: the text kept, its run properties changed, the old ones in `w:rPrChange`.
    var formats: [TextEdit] = []
    /// Comment marks: before the text at an offset, after the text ending at one.
    var before: [Int: [String]] = [:]
    var after: [Int: [String]] = [:]
    var markDeleted: Change?
    /// The paragraph's new `w:pPr` in place of its own ("" for none): a property step (`ApplyProperties`).
    var properties: String?
    /// Text that an edit covered but that could not be deleted (kept whole).
    var keptInside = 0
    /// Content written first (a paragraph joined to this one when changes are accepted).
    var prefix: [UInt8] = []
    /// Where the content (all but the tag, the properties and the end tag) is in `render()`'s result.
    private(set) var contentRange = 0..<0

    private var out: [UInt8] = []
    private var cuts: Set<Int> = []
    private var pendingInserts: [Int: [TextEdit]] = [:]
    private var firstRPr = "", lastRPr = ""
    private var formatSpans: [(Range<Int>, FormatKey)] = []

    struct FormatKey: Equatable {
        var index: Int
        var flags: ApplyRuns.Flags
    }

    init(scan: ApplyXMLScan, paragraph p: Int, accept: Bool, ids: ApplyIDs) {
        self.scan = scan
        self.p = p
        self.accept = accept
        self.ids = ids
    }

    mutating func render() -> [UInt8] {
        for e in replaces {
            cuts.insert(e.range.lowerBound)
            cuts.insert(e.range.upperBound)
            if !e.inserted.isEmpty { pendingInserts[e.range.upperBound, default: []].append(e) }
        }
        for (n, e) in formats.enumerated() {
            var ps: [ApplyRuns.Piece] = []
            ApplyRuns.pieces(e.inserted, into: &ps)
            var at = e.range.lowerBound
            cuts.insert(at)
            for p in ps {
                let (count, flags): (Int, ApplyRuns.Flags)
                switch p {
                case .text(let t, let f): (count, flags) = (t.utf8.count, f)
                case .lineBreak(let f): (count, flags) = (1, f)
                case .picture(_, let f, _), .note(_, let f): (count, flags) = (ApplyPlan.objectCharacter.utf8.count, f)
                }
                guard count > 0 else { continue }
                formatSpans.append((at..<at + count, FormatKey(index: n, flags: flags)))
                at += count
                cuts.insert(at)
            }
            cuts.insert(e.range.upperBound)
        }
        for k in before.keys { cuts.insert(k) }
        for k in after.keys { cuts.insert(k) }
        let e = scan.end(of: p)
        var rprs: [String] = []
        var t = p
        while t < e {
            if scan.tokens[t].name == "w:r", scan.tokens[t].kind == .start, let r = rPrToken(t) {
                rprs.append(String(decoding: scan.bytes(r, scan.end(of: r)), as: UTF8.self))
            } else if scan.tokens[t].name == "w:r", scan.tokens[t].kind == .start {
                rprs.append("")
            }
            t += 1
        }
        firstRPr = rprs.first ?? ""
        lastRPr = rprs.last ?? ""
        if scan.tokens[p].kind == .empty {
            // `<w:p …/>`: its tag opened, its attributes kept.
            var open = Array(scan.bytes(p, p).dropLast(2))
            while open.last == 32 || open.last == 10 || open.last == 13 || open.last == 9 { open.removeLast() }
            out += open + Array(">".utf8)
            out += Array(ApplyXMLScan.markingParagraphIfNeeded(properties ?? "", markDeleted, accept, ids).utf8)
            contentRange = out.count..<out.count
            emitStart()
            emitRest()
            contentRange = contentRange.lowerBound..<out.count
            out += Array("</w:p>".utf8)
            return out
        }
        out += scan.bytes(p, p)
        var i = p + 1
        var pPrDone = false
        if let first = firstChild(p), scan.tokens[first].name == "w:pPr" {
            // Whatever precedes the properties (whitespace) as it is.
            for k in (p + 1)..<first { out += scan.bytes(k, k) }
            var pPr = String(decoding: scan.bytes(first, scan.end(of: first)), as: UTF8.self)
            if let properties { pPr = properties }
            out += Array(ApplyXMLScan.markingParagraphIfNeeded(pPr, markDeleted, accept, ids).utf8)
            i = scan.end(of: first) + 1
            pPrDone = true
        }
        if !pPrDone { out += Array(ApplyXMLScan.markingParagraphIfNeeded(properties ?? "", markDeleted, accept, ids).utf8) }
        contentRange = out.count..<out.count
        emitStart()
        var pos = 0
        content(i, e, &pos)
        emitRest()
        contentRange = contentRange.lowerBound..<out.count
        out += scan.bytes(e, e)
        return out
    }

    private func firstChild(_ t: Int) -> Int? {
        var i = t + 1
        while i < scan.end(of: t) {
            if scan.tokens[i].kind == .start || scan.tokens[i].kind == .empty { return i }
            i += 1
        }
        return nil
    }

    private func rPrToken(_ run: Int) -> Int? {
        guard let c = firstChild(run), scan.tokens[c].name == "w:rPr" else { return nil }
        return c
    }

    static let containers: Set<String> = ["w:hyperlink", "w:smartTag", "w:customXml", "w:sdt", "w:sdtContent",
                                          "w:fldSimple", "w:dir", "w:bdo", "w:ins", "w:moveTo"]

    private mutating func content(_ from: Int, _ to: Int, _ pos: inout Int) {
        var i = from
        while i < to {
            let tok = scan.tokens[i]
            guard tok.kind == .start || tok.kind == .empty else {
                out += scan.bytes(i, i)
                i += 1
                continue
            }
            let e = scan.end(of: i)
            if tok.name == "w:r" && tok.kind == .start {
                run(i, e, &pos)
            } else if Self.containers.contains(tok.name) && tok.kind == .start {
                out += scan.bytes(i, i)
                content(i + 1, e, &pos)
                out += scan.bytes(e, e)
            } else {
                let n = scan.text(i).utf8.count
                if n > 0 { emitBefore(pos) }
                if n > 0, replaces.contains(where: { $0.range.overlaps(pos..<pos + n) && !$0.range.isEmpty }) { keptInside += n }
                out += scan.bytes(i, e)
                pos += n
                if n > 0 { emitAfter(pos, rPr: lastRPr) }
            }
            i = e + 1
        }
    }

    private struct Piece {
        var bytes: ArraySlice<UInt8>?  // the atom whole
        var text: String?              // a piece of a w:t
        var start: Int, count: Int
        var forcedKept: Bool
    }

    private enum Op { case segment([Piece], deleted: TextEdit?, format: FormatKey?), marks(String) }

    private mutating func run(_ r: Int, _ e: Int, _ pos: inout Int) {
        let rPrTok = rPrToken(r)
        let rPr = rPrTok.map { String(decoding: scan.bytes($0, scan.end(of: $0)), as: UTF8.self) } ?? ""
        var insertedRPr = rPr
        if !rPr.isEmpty, scan.children(of: r, named: "w:footnoteReference").count + scan.children(of: r, named: "w:endnoteReference").count > 0 {
            // Text inserted after a note reference is not set as one.
            let kept = ApplyXMLScan.children(of: rPr).filter { $0.name != "w:rStyle" && $0.name != "w:vertAlign" }
            insertedRPr = kept.isEmpty ? "" : "<w:rPr>" + kept.map(\.xml).joined() + "</w:rPr>"
        }
        var pieces: [Piece] = []
        var i = (rPrTok.map { scan.end(of: $0) } ?? r) + 1
        while i < e {
            let tok = scan.tokens[i]
            let j = (tok.kind == .start) ? scan.end(of: i) : i
            if tok.name == "w:t" && tok.kind == .start {
                let text = ApplyXMLScan.decode(scan.bytes[scan.tokens[i].range.upperBound..<scan.tokens[j].range.lowerBound])
                let u = Array(text.utf8)
                let inner = cuts.filter { $0 > pos && $0 < pos + u.count }.sorted()
                if inner.isEmpty {
                    pieces.append(Piece(bytes: scan.bytes(i, j), text: text, start: pos, count: u.count, forcedKept: false))
                } else {
                    var last = 0
                    for c in inner.map({ $0 - pos }) + [u.count] {
                        pieces.append(Piece(bytes: nil, text: String(decoding: u[last..<c], as: UTF8.self), start: pos + last,
                                            count: c - last, forcedKept: false))
                        last = c
                    }
                }
                pos += u.count
            } else {
                let n = (tok.kind == .start || tok.kind == .empty) ? scan.text(i).utf8.count : 0
                let forced = tok.name == "w:fldChar" || tok.name == "w:instrText"
                pieces.append(Piece(bytes: scan.bytes(i, j), text: nil, start: pos, count: n, forcedKept: forced))
                pos += n
            }
            i = j + 1
        }
        var ops: [Op] = []
        var cur: [Piece] = []
        var curDel: TextEdit?
        var curFormat: FormatKey?
        func flush() {
            if !cur.isEmpty { ops.append(.segment(cur, deleted: curDel, format: curFormat)) }
            cur = []
        }
        for piece in pieces {
            var del: TextEdit? = curDel
            var format = curFormat
            if piece.forcedKept {
                del = nil
                format = nil
            } else if piece.count > 0 {
                let b = takeBefore(piece.start)
                if !b.isEmpty { flush(); ops.append(.marks(b)) }
                del = replaces.first { $0.range.lowerBound <= piece.start && piece.start + piece.count <= $0.range.upperBound && !$0.range.isEmpty }
                format = del != nil ? nil : formatSpans.first { $0.0.contains(piece.start) }?.1
            }
            if del != curDel || format != curFormat { flush() }
            curDel = del
            curFormat = format
            cur.append(piece)
            if piece.count > 0 {
                let a = takeAfter(piece.start + piece.count, rPr: insertedRPr)
                if !a.isEmpty { flush(); ops.append(.marks(a)) }
            }
        }
        flush()
        if ops.count == 1, case .segment(let ps, nil, nil) = ops[0], ps.count == pieces.count, ps.allSatisfy({ $0.bytes != nil }) {
            out += scan.bytes(r, e)
            return
        }
        let open = String(decoding: scan.bytes(r, r), as: UTF8.self)
        for op in ops {
            switch op {
            case .marks(let s): out += Array(s.utf8)
            case .segment(let ps, let del, let format):
                if del != nil && accept { continue }
                var s = ""
                if let del { s += "<w:del" + ids.attributes(del.change) + ">" }
                s += open + (format.map { formatted(rPr, $0) } ?? rPr)
                for p in ps {
                    if let b = p.bytes, del == nil || p.text == nil {
                        s += String(decoding: b, as: UTF8.self)
                    } else if let t = p.text {
                        let tag = del == nil ? "w:t" : "w:delText"
                        s += "<\(tag) xml:space=\"preserve\">" + MarkupEscaper.xmlText.escaped(t) + "</\(tag)>"
                    }
                }
                s += "</w:r>"
                if del != nil { s += "</w:del>" }
                out += Array(s.utf8)
            }
        }
    }

    /// `rPr` in a formatting change's flags, the old properties in `w:rPrChange` unless accepted.
    private func formatted(_ rPr: String, _ key: FormatKey) -> String {
        let new = ApplyRuns.rPr(rPr, baseFlags: ApplyRuns.flags(of: rPr), key.flags)
        if accept || new == rPr { return new }
        let old = ApplyXMLScan.children(of: rPr).filter { $0.name != "w:rPrChange" }.map(\.xml).joined()
        let kept = ApplyXMLScan.children(of: new).filter { $0.name != "w:rPrChange" }.map(\.xml).joined()
        return "<w:rPr>" + kept + "<w:rPrChange" + ids.attributes(formats[key.index].change) + "><w:rPr>" + old
            + "</w:rPr></w:rPrChange></w:rPr>"
    }

    private mutating func emitStart() {
        out += prefix
        let s = takeBefore(0) + takeAfter(0, rPr: firstRPr)
        out += Array(s.utf8)
    }

    private mutating func emitRest() {
        var s = ""
        for k in Set(before.keys).union(after.keys).union(pendingInserts.keys).sorted() {
            s += takeBefore(k) + takeAfter(k, rPr: lastRPr)
        }
        out += Array(s.utf8)
    }

    private mutating func emitBefore(_ at: Int) { out += Array(takeBefore(at).utf8) }
    private mutating func emitAfter(_ at: Int, rPr: String) { out += Array(takeAfter(at, rPr: rPr).utf8) }

    private mutating func takeBefore(_ at: Int) -> String {
        guard let b = before.removeValue(forKey: at) else { return "" }
        return b.joined()
    }

    private mutating func takeAfter(_ at: Int, rPr: String) -> String {
        var s = ""
        for e in pendingInserts.removeValue(forKey: at) ?? [] {
            let runs = ApplyRuns.runs(e.inserted, base: rPr, pictures: ids.pictures, notes: ids.notes)
            guard !runs.isEmpty else { continue }
            s += accept ? runs : "<w:ins" + ids.attributes(e.change) + ">" + runs + "</w:ins>"
        }
        if let a = after.removeValue(forKey: at) { s += a.joined() }
        return s
    }
}

extension ApplyXMLScan {
    static func markingParagraphIfNeeded(_ pPr: String, _ c: Change?, _ accept: Bool, _ ids: ApplyIDs) -> String {
        guard let c, !accept else { return pPr }
        return markingParagraph(pPr, "<w:del" + ids.attributes(c) + "/>", isDeletion: true)
    }
}

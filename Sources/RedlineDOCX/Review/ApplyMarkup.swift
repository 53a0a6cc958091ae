import RedlineCore

/// Change ids and attributes for the marks `DOCXApply` writes: ids counted on from the largest `w:id` of
/// every story part, so none clashes.
final class ApplyIDs {
    private(set) var next: Int
    /// Pictures in inserted text: their parts, relationships and drawing ids (nil: pictures as their alt text).
    var pictures: ApplyPictures?
    /// The notes inserted references bring (nil: such references are left out).
    var notes: ApplyNewNotes?

    init(after largest: Int) { next = largest + 1 }

    func take() -> Int {
        defer { next += 1 }
        return next
    }

    /// ` w:id="N" w:author="…" w:date="…"` (no date when the change has none).
    func attributes(_ c: Change) -> String {
        var s = " w:id=\"\(take())\" w:author=\"\(MarkupEscaper.xmlAttribute.escaped(c.author ?? "Redline"))\""
        if let d = c.date.flatMap(DOCXDate.dateTime) { s += " w:date=\"\(d)\"" }
        return s
    }

    /// The largest decimal `w:id` value in `bytes`.
    static func largest(in bytes: [UInt8]) -> Int {
        let key = Array(" w:id=\"".utf8)
        var best = 0
        var i = 0
        let n = bytes.count
        while i + key.count < n {
            if bytes[i] == key[0], ApplyXMLScan.starts(bytes, at: i, key) {
                var j = i + key.count
                var v = 0
                var digits = 0
                while j < n, (48...57).contains(bytes[j]), digits < 12 { v = v * 10 + Int(bytes[j] - 48); j += 1; digits += 1 }
                if digits > 0, j < n, bytes[j] == 34 { best = max(best, v) }
                i = j
            } else {
                i += 1
            }
        }
        return best
    }
}

/// Inserted inlines as WordprocessingML runs, and the run properties that give them their formatting.
enum ApplyRuns {
    struct Flags: Equatable {
        var bold = false, italic = false, strike = false, underline = false, sup = false, sub = false
    }

    /// A piece of inserted text; a picture with the pieces of its alt text (written when it cannot be drawn).
    enum Piece { case text(String, Flags), lineBreak(Flags), picture(Image, Flags, alt: [Piece]), note(String, Flags) }

    /// The text of `inlines` with its formatting (links, styles and notes: their text only; pictures as pictures
    /// with their alt text).
    static func pieces(_ inlines: [Inline], _ f: Flags = Flags(), into out: inout [Piece]) {
        for i in inlines {
            var g = f
            switch i {
            case .text(let s), .code(let s): out.append(.text(s, f)); continue
            case .image(let image):
                var alt: [Piece] = []
                pieces(i.children, f, into: &alt)
                out.append(.picture(image, f, alt: alt))
                continue
            case .lineBreak: out.append(.lineBreak(f)); continue
            case .noteReference(let id): out.append(.note(id, f)); continue
            case .softBreak: out.append(.text(" ", f)); continue
            case .strong: g.bold = true
            case .emphasis: g.italic = true
            case .strikethrough: g.strike = true
            case .underline: g.underline = true
            case .superscript: g.sup = true
            case .subscript: g.sub = true
            case .deletion: continue
            default: break
            }
            pieces(i.children, g, into: &out)
        }
    }

    /// Runs for `inlines` on `base` run properties (a `w:rPr` element or ""), pictures drawn by `pictures` (else
    /// their alt text).
    static func runs(_ inlines: [Inline], base: String, pictures: ApplyPictures? = nil, notes: ApplyNewNotes? = nil) -> String {
        var ps: [Piece] = []
        pieces(inlines, into: &ps)
        return runs(ps, base: base, baseFlags: flags(of: base), pictures: pictures, notes: notes)
    }

    private static func runs(_ ps: [Piece], base: String, baseFlags: Flags, pictures: ApplyPictures?,
                             notes: ApplyNewNotes? = nil) -> String {
        var out = ""
        for p in ps {
            switch p {
            case .note(let id, _): out += notes?.reference(id) ?? ""
            case .picture(let image, let f, let alt):
                if let drawing = pictures?.drawing(image) {
                    out += "<w:r>" + rPr(base, baseFlags: baseFlags, f) + drawing + "</w:r>"
                } else {
                    out += runs(alt, base: base, baseFlags: baseFlags, pictures: pictures)
                }
            case .text(let s, let f):
                guard !s.isEmpty else { continue }
                out += "<w:r>" + rPr(base, baseFlags: baseFlags, f)
                for (k, part) in s.split(separator: "\t", omittingEmptySubsequences: false).enumerated() {
                    if k > 0 { out += "<w:tab/>" }
                    if !part.isEmpty { out += "<w:t xml:space=\"preserve\">" + MarkupEscaper.xmlText.escaped(String(part)) + "</w:t>" }
                }
                out += "</w:r>"
            case .lineBreak(let f): out += "<w:r>" + rPr(base, baseFlags: baseFlags, f) + "<w:br/></w:r>"
            }
        }
        return out
    }

    /// The toggles `rPr` sets directly.
    static func flags(of rPr: String) -> Flags {
        var f = Flags()
        guard !rPr.isEmpty else { return f }
        let s = ApplyXMLScan(Array(rPr.utf8))
        for (t, tok) in s.tokens.enumerated() where tok.kind == .start || tok.kind == .empty {
            let v = s.attribute(t, "w:val")
            let on = v == nil || !["0", "false", "off", "none"].contains(v!)
            switch tok.name {
            case "w:b": f.bold = on
            case "w:i": f.italic = on
            case "w:strike": f.strike = on
            case "w:u": f.underline = on
            case "w:vertAlign": f.sup = v == "superscript"; f.sub = v == "subscript"
            default: break
            }
        }
        return f
    }

    static let order = ["w:ins", "w:del", "w:moveFrom", "w:moveTo", "w:rStyle", "w:rFonts", "w:b", "w:bCs", "w:i", "w:iCs",
                        "w:caps", "w:smallCaps", "w:strike", "w:dstrike", "w:outline", "w:shadow", "w:emboss", "w:imprint",
                        "w:noProof", "w:snapToGrid", "w:vanish", "w:webHidden", "w:color", "w:spacing", "w:w", "w:kern",
                        "w:position", "w:sz", "w:szCs", "w:highlight", "w:u", "w:effect", "w:bdr", "w:shd", "w:fitText",
                        "w:vertAlign", "w:rtl", "w:cs", "w:em", "w:lang", "w:eastAsianLayout", "w:specVanish", "w:oMath",
                        "w:rPrChange"]

    /// `base` with its toggles set to `f` (unchanged when they already are).
    static func rPr(_ base: String, baseFlags: Flags, _ f: Flags) -> String {
        if f == baseFlags { return base }
        var children = ApplyXMLScan.children(of: base)
        let drop: Set<String> = ["w:b", "w:bCs", "w:i", "w:iCs", "w:strike", "w:u", "w:vertAlign"]
        children.removeAll { drop.contains($0.name) }
        var add: [(String, String)] = []
        if f.bold { add.append(("w:b", "<w:b/>")) }
        if f.italic { add.append(("w:i", "<w:i/>")) }
        if f.strike { add.append(("w:strike", "<w:strike/>")) }
        if f.underline { add.append(("w:u", "<w:u w:val=\"single\"/>")) }
        if f.sup || f.sub { add.append(("w:vertAlign", "<w:vertAlign w:val=\"\(f.sup ? "superscript" : "subscript")\"/>")) }
        for (name, xml) in add {
            let rank = order.firstIndex(of: name) ?? 99
            let at = children.firstIndex { (order.firstIndex(of: $0.name) ?? 98) > rank } ?? children.count
            children.insert((name, xml), at: at)
        }
        if children.isEmpty { return "" }
        return "<w:rPr>" + children.map(\.xml).joined() + "</w:rPr>"
    }
}

extension ApplyXMLScan {
    /// The child elements of the one element in `xml` (name, bytes as a string).
    static func children(of xml: String) -> [(name: String, xml: String)] {
        guard !xml.isEmpty else { return [] }
        let s = ApplyXMLScan(Array(xml.utf8))
        guard let root = s.tokens.firstIndex(where: { $0.kind == .start }) else { return [] }
        var out: [(String, String)] = []
        var i = root + 1
        let e = s.end(of: root)
        while i < e {
            let t = s.tokens[i]
            if t.kind == .start || t.kind == .empty {
                let j = s.end(of: i)
                out.append((t.name, String(decoding: s.bytes(i, j), as: UTF8.self)))
                i = j + 1
            } else {
                i += 1
            }
        }
        return out
    }

    /// `pPr` (a `w:pPr` element or "") with its paragraph mark marked `mark` (`<w:ins …/>` or `<w:del …/>`).
    static func markingParagraph(_ pPr: String, _ mark: String, isDeletion: Bool) -> String {
        var children = children(of: pPr)
        if let r = children.firstIndex(where: { $0.name == "w:rPr" }) {
            var inner = ApplyXMLScan.children(of: children[r].xml)
            if inner.contains(where: { $0.name == (isDeletion ? "w:del" : "w:ins") }) { return pPr }
            let at = isDeletion ? (inner.firstIndex { $0.name != "w:ins" } ?? inner.count) : 0
            inner.insert(("", mark), at: at)
            children[r].xml = "<w:rPr>" + inner.map(\.xml).joined() + "</w:rPr>"
        } else {
            let at = children.firstIndex { $0.name == "w:sectPr" || $0.name == "w:pPrChange" } ?? children.count
            children.insert(("w:rPr", "<w:rPr>" + mark + "</w:rPr>"), at: at)
        }
        let open = pPr.isEmpty || pPr.hasSuffix("/>") ? "<w:pPr>" : String(pPr[..<pPr.firstIndex(of: ">")!]) + ">"
        return open + children.map(\.xml).joined() + "</w:pPr>"
    }

    /// The element `xml` (a `root`) without the children `names`, and with a `w:tblW` auto width for a table's
    /// properties.
    static func withoutChildren(_ xml: String, _ names: Set<String>, root: String) -> String {
        var kept = children(of: xml).filter { !names.contains($0.name) }
        if root == "w:tblPr" {
            // tblW goes after tblStyle, tblpPr, tblOverlap, bidiVisual, tblStyleRowBandSize, tblStyleColBandSize.
            let before: Set<String> = ["w:tblStyle", "w:tblpPr", "w:tblOverlap", "w:bidiVisual", "w:tblStyleRowBandSize", "w:tblStyleColBandSize"]
            let at = kept.firstIndex { !before.contains($0.name) } ?? kept.count
            kept.insert(("w:tblW", "<w:tblW w:w=\"0\" w:type=\"auto\"/>"), at: at)
        }
        return "<\(root)>" + kept.map(\.xml).joined() + "</\(root)>"
    }

    /// `pPr` without `names` (for a new paragraph taking an existing one's properties).
    static func without(_ pPr: String, _ names: Set<String>) -> String {
        guard !pPr.isEmpty else { return "" }
        let kept = children(of: pPr).filter { !names.contains($0.name) }
        return kept.isEmpty ? "" : "<w:pPr>" + kept.map(\.xml).joined() + "</w:pPr>"
    }
}

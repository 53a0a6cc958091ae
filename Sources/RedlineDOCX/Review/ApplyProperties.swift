import RedlineCore

/// A property step (`ApplyStep.restyle`) written into a paragraph's `w:pPr` as Word writes a tracked
/// paragraph-property change: the new properties in place, the old ones in a `w:pPrChange` at the end (without
/// `w:rPr`, `w:sectPr`, which it cannot hold). What changed is set element by element over ORIGINAL's own
/// `w:pPr`: `w:pStyle` (a heading level's style, or the style of that name, from ORIGINAL's styles.xml),
/// `w:outlineLvl` (for a heading level ORIGINAL has no style for), `w:jc`, `w:spacing`, `w:ind` (only the
/// attributes that changed); every other child keeps its bytes and place.
struct ApplyProperties {
    /// Paragraph style ids of ORIGINAL's styles.xml by name, lowercased ("heading 1" → "Heading1").
    let idsByName: [String: String]
    /// Every paragraph style id.
    let ids: Set<String>
    /// The default paragraph style's id.
    let defaultID: String?
    /// Heading levels written as an outline level, for want of a style (`docx.apply-heading-style-missing`).
    private(set) var outlineFallbacks = 0
    /// Named styles (or list kinds) ORIGINAL does not have, left as they were.
    private(set) var missingStyles = 0
    /// ORIGINAL's lists (`w:num`), in order: id and each level's number format (`bullet`, `decimal`, ...).
    let lists: [(id: String, formats: [Int: String])]

    init(styles: [UInt8], numbering: [UInt8] = []) {
        var byName: [String: String] = [:], all = Set<String>(), def: String?
        let scan = ApplyXMLScan(styles)
        for (t, tok) in scan.tokens.enumerated() where tok.kind == .start && tok.name == "w:style" {
            guard scan.attribute(t, "w:type") == "paragraph", let id = scan.attribute(t, "w:styleId") else { continue }
            all.insert(id)
            if scan.attribute(t, "w:default") == "1" || scan.attribute(t, "w:default") == "true" { def = id }
            if let n = scan.children(of: t, named: "w:name").first, let name = scan.attribute(n, "w:val") {
                byName[ApplyXMLScan.decode(ArraySlice(name.utf8)).lowercased()] = id
            }
        }
        idsByName = byName
        ids = all
        defaultID = def
        let n = ApplyXMLScan(numbering)
        var abstract: [String: [Int: String]] = [:]
        var nums: [(String, String)] = []
        for (t, tok) in n.tokens.enumerated() where tok.kind == .start || tok.kind == .empty {
            if tok.name == "w:abstractNum", let id = n.attribute(t, "w:abstractNumId") {
                var formats: [Int: String] = [:]
                for l in n.children(of: t, named: "w:lvl") {
                    guard let level = n.attribute(l, "w:ilvl").flatMap({ Int($0) }) else { continue }
                    formats[level] = n.children(of: l, named: "w:numFmt").first.flatMap { n.attribute($0, "w:val") } ?? "decimal"
                }
                abstract[id] = formats
            } else if tok.name == "w:num", let id = n.attribute(t, "w:numId"),
                      let a = n.children(of: t, named: "w:abstractNumId").first.flatMap({ n.attribute($0, "w:val") }) {
                nums.append((id, a))
            }
        }
        lists = nums.map { (id: $0.0, formats: abstract[$0.1] ?? [:]) }
    }

    /// The id of ORIGINAL's first list numbered (or bulleted) at `level`.
    func listID(numbered: Bool, level: Int) -> String? {
        lists.first { l in l.formats[level].map { ($0 == "bullet") != numbered } ?? false }?.id
    }

    /// The children of `w:pPr` in the schema's order (CT_PPr).
    static let order = ["w:pStyle", "w:keepNext", "w:keepLines", "w:pageBreakBefore", "w:framePr", "w:widowControl",
                        "w:numPr", "w:suppressLineNumbers", "w:pBdr", "w:shd", "w:tabs", "w:suppressAutoHyphens",
                        "w:kinsoku", "w:wordWrap", "w:overflowPunct", "w:topLinePunct", "w:autoSpaceDE", "w:autoSpaceDN",
                        "w:bidi", "w:adjustRightInd", "w:snapToGrid", "w:spacing", "w:ind", "w:contextualSpacing",
                        "w:mirrorIndents", "w:suppressOverlap", "w:jc", "w:textDirection", "w:textAlignment",
                        "w:textboxTightWrap", "w:outlineLvl", "w:divId", "w:cnfStyle", "w:rPr", "w:sectPr", "w:pPrChange"]

    /// The style id for a heading of `level`: the style named "heading N", else one of the usual ids.
    func headingID(_ level: Int) -> String? {
        if let id = idsByName["heading \(level)"] { return id }
        return ["Heading\(level)", "heading\(level)", "Titre\(level)", "berschrift\(level)"].first { ids.contains($0) }
    }

    /// `pPr` (ORIGINAL's `w:pPr`, or "" when it has none) with `new`'s differences from `old` written, the old
    /// properties in a `w:pPrChange` by `change` (none when `accept`, or when the paragraph already has one:
    /// it keeps recording the properties before the first change).
    mutating func restyled(_ pPr: String, old: LeafProperties, new: LeafProperties, change: Change, accept: Bool,
                           ids taking: ApplyIDs) -> String {
        var children = ApplyXMLScan.children(of: pPr)
        let oldChildren = children.filter { !["w:rPr", "w:sectPr", "w:pPrChange"].contains($0.name) }
        func index(_ name: String) -> Int? { children.firstIndex { $0.name == name } }
        func set(_ name: String, _ xml: String?) {
            if let i = index(name) {
                if let xml { children[i].xml = xml } else { children.remove(at: i) }
                return
            }
            guard let xml else { return }
            let rank = Self.order.firstIndex(of: name) ?? Self.order.count
            let at = children.firstIndex { (Self.order.firstIndex(of: $0.name) ?? -1) > rank } ?? children.count
            children.insert((name, xml), at: at)
        }
        func val(_ name: String, _ v: String) -> String {
            "<\(name) w:val=\"\(MarkupEscaper.xmlAttribute.escaped(v))\"/>"
        }
        // The style: a heading level decides when it changed, else the named style.
        if new.headingLevel != old.headingLevel {
            if new.headingLevel > 0 {
                let named = new.style.name.flatMap { idsByName[$0.lowercased()] }
                if let id = named ?? headingID(new.headingLevel) {
                    set("w:pStyle", val("w:pStyle", id))
                    set("w:outlineLvl", nil)
                } else {
                    // No heading style in ORIGINAL: its outline level makes the paragraph a heading.
                    outlineFallbacks += 1
                    set("w:outlineLvl", val("w:outlineLvl", String(new.headingLevel - 1)))
                }
            } else {
                let id = new.style.name.flatMap { idsByName[$0.lowercased()] }
                set("w:pStyle", id.flatMap { $0 == defaultID ? nil : val("w:pStyle", $0) })
                set("w:outlineLvl", nil)
            }
        } else if new.style.name != old.style.name {
            if let name = new.style.name {
                if let id = idsByName[name.lowercased()] {
                    set("w:pStyle", id == defaultID ? nil : val("w:pStyle", id))
                } else {
                    missingStyles += 1
                }
            } else {
                set("w:pStyle", nil)
            }
        }
        if new.list != old.list, let list = new.list {
            // Numbered for bulleted (or the other way): ORIGINAL's first list of that kind; a new depth only: the
            // paragraph's own list.
            let own = index("w:numPr").flatMap { i -> String? in
                let x = ApplyXMLScan(Array(children[i].xml.utf8))
                return x.tokens.indices.first { x.tokens[$0].name == "w:numId" && x.tokens[$0].kind != .end }
                    .flatMap { x.attribute($0, "w:val") }
            }
            let id = old.list?.numbered == list.numbered ? own ?? listID(numbered: list.numbered, level: list.level)
                : listID(numbered: list.numbered, level: list.level)
            if let id {
                set("w:numPr", "<w:numPr><w:ilvl w:val=\"\(list.level)\"/><w:numId w:val=\"\(id)\"/></w:numPr>")
            } else {
                missingStyles += 1
            }
        }
        if new.style.alignment != old.style.alignment {
            set("w:jc", new.style.alignment.map { val("w:jc", Properties.jc($0)) })
        }
        var spacing: [(String, String?)] = []
        if new.style.spaceBefore != old.style.spaceBefore { spacing.append(("w:before", new.style.spaceBefore.map(twips))) }
        if new.style.spaceAfter != old.style.spaceAfter { spacing.append(("w:after", new.style.spaceAfter.map(twips))) }
        if new.style.lineSpacing != old.style.lineSpacing {
            switch new.style.lineSpacing {
            case .multiple(let m)?: spacing += [("w:line", String(Int((m * 240).rounded()))), ("w:lineRule", "auto")]
            case .exactly(let p)?: spacing += [("w:line", twips(p)), ("w:lineRule", "exact")]
            case .atLeast(let p)?: spacing += [("w:line", twips(p)), ("w:lineRule", "atLeast")]
            case nil: spacing += [("w:line", nil), ("w:lineRule", nil)]
            }
        }
        if !spacing.isEmpty { set("w:spacing", Self.withAttributes(index("w:spacing").map { children[$0].xml }, "w:spacing", spacing)) }
        var ind: [(String, String?)] = []
        if new.style.leftIndent != old.style.leftIndent { ind += [("w:left", new.style.leftIndent.map(twips)), ("w:start", nil)] }
        if new.style.rightIndent != old.style.rightIndent { ind += [("w:right", new.style.rightIndent.map(twips)), ("w:end", nil)] }
        if new.style.firstLineIndent != old.style.firstLineIndent {
            let v = new.style.firstLineIndent
            ind += [("w:firstLine", v.flatMap { $0 >= 0 ? twips($0) : nil }), ("w:hanging", v.flatMap { $0 < 0 ? twips(-$0) : nil })]
        }
        if !ind.isEmpty { set("w:ind", Self.withAttributes(index("w:ind").map { children[$0].xml }, "w:ind", ind)) }
        if !accept, index("w:pPrChange") == nil {
            let record = "<w:pPrChange" + taking.attributes(change) + ">"
                + (oldChildren.isEmpty ? "<w:pPr/>" : "<w:pPr>" + oldChildren.map(\.xml).joined() + "</w:pPr>") + "</w:pPrChange>"
            children.append(("w:pPrChange", record))
        }
        guard !children.isEmpty else { return "" }
        let open = pPr.isEmpty || pPr.hasSuffix("/>") ? "<w:pPr>" : String(pPr[..<pPr.firstIndex(of: ">")!]) + ">"
        return open + children.map(\.xml).joined() + "</w:pPr>"
    }

    /// An empty element `name` (`existing`, or a new one) with `changes` made to its attributes (nil removes
    /// one); nil when it is left with none.
    static func withAttributes(_ existing: String?, _ name: String, _ changes: [(String, String?)]) -> String? {
        var attrs: [(String, String)] = []
        if let existing {
            // `<w:spacing w:after="640" w:line="240"/>`: name="value" pairs, either quote.
            let b = Array(existing.utf8)
            var i = 1 + name.utf8.count
            while i < b.count {
                while i < b.count, b[i] == 32 || b[i] == 9 || b[i] == 10 || b[i] == 13 { i += 1 }
                let s = i
                while i < b.count, b[i] != UInt8(ascii: "="), b[i] != UInt8(ascii: "/"), b[i] != UInt8(ascii: ">") { i += 1 }
                guard i + 1 < b.count, b[i] == UInt8(ascii: "=") else { break }
                let key = String(decoding: b[s..<i], as: UTF8.self).trimmingSpaces
                let q = b[i + 1]
                var j = i + 2
                while j < b.count, b[j] != q { j += 1 }
                attrs.append((key, String(decoding: b[(i + 2)..<min(j, b.count)], as: UTF8.self)))
                i = j + 1
            }
        }
        for (k, v) in changes {
            if let at = attrs.firstIndex(where: { $0.0 == k }) {
                if let v { attrs[at].1 = v } else { attrs.remove(at: at) }
            } else if let v {
                attrs.append((k, v))
            }
        }
        guard !attrs.isEmpty else { return nil }
        return "<\(name)" + attrs.map { " \($0.0)=\"\($0.1)\"" }.joined() + "/>"
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\n" || s.first == "\t" || s.first == "\r" { s.removeFirst() }
        while s.last == " " || s.last == "\n" || s.last == "\t" || s.last == "\r" { s.removeLast() }
        return String(s)
    }
}

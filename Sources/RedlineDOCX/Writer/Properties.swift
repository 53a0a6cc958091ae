import RedlineCore

/// Points to twentieths of a point (twips), the unit of WordprocessingML lengths.
func twips(_ points: Double) -> String { String(Int((points * 20).rounded())) }

/// Writes `w:pPr` and `w:rPr` content from the model's formatting, children in schema order
/// (Word rejects a file whose property elements are out of order).
enum Properties {
    /// The children of a `w:pPr` for `style` (no `w:pPr` tags). `numbering` is (numId, level).
    static func paragraph(_ style: ParagraphStyle, styleID: String?, numbering: (Int, Int)? = nil,
                          border: Bool = false, fallbackAlignment: ParagraphAlignment? = nil, outlineLevel: Int? = nil,
                          into x: inout XMLText) {
        if let styleID { x.val("w:pStyle", styleID) }
        if let (num, level) = numbering {
            x.open("w:numPr")
            x.val("w:ilvl", String(level))
            x.val("w:numId", String(num))
            x.close("w:numPr")
        }
        if border {
            x.open("w:pBdr")
            x.empty("w:bottom", [("w:val", "single"), ("w:sz", "6"), ("w:space", "1"), ("w:color", "auto")])
            x.close("w:pBdr")
        }
        if !style.tabStops.isEmpty {
            x.open("w:tabs")
            for t in style.tabStops {
                var a = [("w:val", t.alignment.rawValue)]
                if t.leader != .none { a.append(("w:leader", t.leader.rawValue)) }
                a.append(("w:pos", twips(t.position)))
                x.empty("w:tab", a)
            }
            x.close("w:tabs")
        }
        var spacing: [(String, String)] = []
        if let v = style.spaceBefore { spacing.append(("w:before", twips(v))) }
        if let v = style.spaceAfter { spacing.append(("w:after", twips(v))) }
        switch style.lineSpacing {
        case .multiple(let m)?: spacing += [("w:line", String(Int((m * 240).rounded()))), ("w:lineRule", "auto")]
        case .exactly(let p)?: spacing += [("w:line", twips(p)), ("w:lineRule", "exact")]
        case .atLeast(let p)?: spacing += [("w:line", twips(p)), ("w:lineRule", "atLeast")]
        case nil: break
        }
        if !spacing.isEmpty { x.empty("w:spacing", spacing) }
        var ind: [(String, String)] = []
        if let v = style.leftIndent { ind.append(("w:left", twips(v))) }
        if let v = style.rightIndent { ind.append(("w:right", twips(v))) }
        if let v = style.firstLineIndent {
            ind.append(v < 0 ? ("w:hanging", twips(-v)) : ("w:firstLine", twips(v)))
        }
        if !ind.isEmpty { x.empty("w:ind", ind) }
        if let a = style.alignment ?? fallbackAlignment { x.val("w:jc", jc(a)) }
        if let o = outlineLevel { x.val("w:outlineLvl", String(o)) }
    }

    static func jc(_ a: ParagraphAlignment) -> String {
        switch a {
        case .left: return "left"
        case .center: return "center"
        case .right: return "right"
        case .justified: return "both"
        }
    }

    /// The children of a `w:rPr` for `format` (no `w:rPr` tags, no change marks). `styleID` is the
    /// character style to name, if any.
    static func run(_ format: TextFormat, styleID: String?, into x: inout XMLText) {
        let s = format.style
        if let styleID { x.val("w:rStyle", styleID) }
        if let f = s.fontFamily {
            x.empty("w:rFonts", [("w:ascii", f), ("w:hAnsi", f), ("w:eastAsia", f), ("w:cs", f)])
        }
        if format.bold { x.empty("w:b"); x.empty("w:bCs") }
        if format.italic { x.empty("w:i"); x.empty("w:iCs") }
        if s.allCaps { x.empty("w:caps") }
        if format.smallCaps { x.empty("w:smallCaps") }
        if format.strikethrough { x.empty("w:strike") }
        if s.doubleStrikethrough { x.empty("w:dstrike") }
        if let c = s.color { x.val("w:color", c.hex) }
        if let size = s.fontSize {
            let half = String(Int((size * 2).rounded()))
            x.val("w:sz", half)
            x.val("w:szCs", half)
        }
        // A highlight takes Word's named colour for its background; any other background is shading.
        var shading = s.backgroundColor
        if format.highlight {
            let named = shading.flatMap { highlightNames[$0.hex] }
            x.val("w:highlight", named ?? "yellow")
            if named != nil || shading == .yellow { shading = nil }
        }
        if format.underline { x.val("w:u", "single") }
        if let bg = shading {
            x.empty("w:shd", [("w:val", "clear"), ("w:color", "auto"), ("w:fill", bg.hex)])
        }
        if format.superscript { x.val("w:vertAlign", "superscript") } else if format.subscript { x.val("w:vertAlign", "subscript") }
    }

    /// Word's highlight colours by their RGB value.
    static let highlightNames: [String: String] = [
        "000000": "black", "0000FF": "blue", "00FFFF": "cyan", "00FF00": "green", "FF00FF": "magenta",
        "FF0000": "red", "FFFFFF": "white", "000080": "darkBlue", "008080": "darkCyan", "008000": "darkGreen",
        "800080": "darkMagenta", "800000": "darkRed", "808000": "darkYellow", "808080": "darkGray", "C0C0C0": "lightGray",
    ]

    /// The children of a `w:rPr` in `w:rPrDefault` or a style: font and size only.
    static func defaults(_ style: CharacterStyle, into x: inout XMLText) {
        run(TextFormat(style: style), styleID: nil, into: &x)
    }
}

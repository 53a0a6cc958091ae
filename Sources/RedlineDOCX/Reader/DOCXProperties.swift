import RedlineCore
import RedlineXML

/// Run properties as one `w:rPr` (or a style) sets them: nil means "not set here, inherit".
struct RunProps: Equatable {
    var bold, italic, underline, strike, doubleStrike, caps, smallCaps, superscript, `subscript`, highlight: Bool?
    var highlightColor: RGBColor?
    var color: RGBColor?
    var shading: RGBColor?
    var size: Double?
    var font: String?
    var styleID: String?

    /// These properties with every one `other` sets taken from `other`.
    func merged(with o: RunProps) -> RunProps {
        var s = self
        s.bold = o.bold ?? bold; s.italic = o.italic ?? italic; s.underline = o.underline ?? underline
        s.strike = o.strike ?? strike; s.doubleStrike = o.doubleStrike ?? doubleStrike; s.caps = o.caps ?? caps
        s.smallCaps = o.smallCaps ?? smallCaps; s.superscript = o.superscript ?? superscript
        s.subscript = o.subscript ?? `subscript`; s.highlight = o.highlight ?? highlight
        if o.highlight != nil { s.highlightColor = o.highlightColor }
        s.color = o.color ?? color; s.shading = o.shading ?? shading; s.size = o.size ?? size
        s.font = o.font ?? font; s.styleID = o.styleID ?? styleID
        return s
    }

    /// The model's formatting for these properties.
    var textFormat: TextFormat {
        var f = TextFormat(bold: bold ?? false, italic: italic ?? false, underline: underline ?? false,
                           strikethrough: strike ?? false, superscript: superscript ?? false,
                           subscript: `subscript` ?? false, smallCaps: smallCaps ?? false, highlight: highlight ?? false)
        f.style = CharacterStyle(fontFamily: font, fontSize: size, color: color,
                                 backgroundColor: highlight == true ? highlightColor : shading,
                                 allCaps: caps ?? false, doubleStrikethrough: doubleStrike ?? false)
        return f
    }
}

/// Paragraph properties as one `w:pPr` (or a style) sets them.
struct ParaProps: Equatable {
    var style = ParagraphStyle()
    var styleID: String?
    var numID: String?
    var level: Int?
    var outlineLevel: Int?

    func merged(with o: ParaProps) -> ParaProps {
        var s = self
        s.style = style.merged(with: o.style)
        s.styleID = o.styleID ?? styleID
        s.numID = o.numID ?? numID
        s.level = o.level ?? level
        s.outlineLevel = o.outlineLevel ?? outlineLevel
        return s
    }
}

/// What a paragraph's `w:pPr` says, including its review marks.
struct ParagraphMarkup {
    var props = ParaProps()
    /// The paragraph mark's tracked insertion or deletion (`w:pPr/w:rPr/w:ins|w:del`).
    var markChange: ParagraphMarkChange?
    /// The mark was inserted and then deleted: it exists in neither the accepted nor the rejected text.
    var markVanished = false
    /// `w:pPrChange`: who changed the properties and the old ones.
    var propsChange: (Change, ParaProps)?
    /// `w:sectPr`: the paragraph's mark ends a section.
    var section: SectionMarkup?
}

/// A `w:sectPr` as read: the section, and its header and footer references by relationship id.
struct SectionMarkup {
    var section = Section()
    var references: [(kind: HeaderFooter.Kind, which: HeaderFooter.Which, id: String)] = []
}

/// What a run's `w:rPr` says, including a tracked formatting change.
struct RunMarkup {
    var props = RunProps()
    var formatChange: (Change, RunProps)?
}

/// Parsing of property elements; the reader stands on the start tag and ends on its end tag.
enum PropertyParser {
    static func change(_ x: XMLReader) -> Change {
        Change(author: author(x), date: x.attribute("date", in: OOXML.w), id: x.attribute("id", in: OOXML.w))
    }

    /// `w:author`; an empty one (Word requires the attribute, so an unknown author is written "") is no author.
    static func author(_ x: XMLReader) -> String? {
        guard let a = x.attribute("author", in: OOXML.w), !a.isEmpty else { return nil }
        return a
    }

    static func toggle(_ x: XMLReader) -> Bool {
        switch x.attribute("val", in: OOXML.w) {
        case nil: return true
        case "0", "false", "off", "none": return false
        default: return true
        }
    }

    /// A length in twentieths of a point (or a universal measure such as `1in`), in points.
    static func points(_ s: String?, unit: Double = 20) -> Double? {
        guard let s else { return nil }
        if let v = Double(s) { return v / unit }
        let units: [(String, Double)] = [("pt", 1), ("in", 72), ("cm", 72 / 2.54), ("mm", 72 / 25.4), ("pc", 12), ("pi", 12)]
        for (suffix, factor) in units where s.hasSuffix(suffix) {
            if let v = Double(s.dropLast(suffix.count)) { return v * factor }
        }
        return nil
    }

    /// `w:rPr` → run properties (and, in a paragraph mark, the mark's change).
    static func runProperties(_ x: XMLReader, diagnostics: Diagnostics?, markChange: inout ParagraphMarkChange?) throws -> RunMarkup {
        var vanished = false
        return try runProperties(x, diagnostics: diagnostics, markChange: &markChange, markVanished: &vanished)
    }

    static func runProperties(_ x: XMLReader, diagnostics: Diagnostics?, markChange: inout ParagraphMarkChange?,
                              markVanished: inout Bool) throws -> RunMarkup {
        var m = RunMarkup()
        while let k = try x.next(), k != .end {
            guard k == .start else { continue }
            if x.namespace != OOXML.w { try x.skipElement(); continue }
            switch x.tag {
            case .bCs, .iCs, .szCs, .lang, .noProof, .rtl, .cs, .kern, .spacing, .w, .position:
                try x.skipElement()
                continue
            default: break
            }
            let val = x.attribute("val", in: OOXML.w)
            switch x.tag {
            case .b: m.props.bold = toggle(x)
            case .i: m.props.italic = toggle(x)
            case .u: m.props.underline = val != nil && val != "none"
            case .strike: m.props.strike = toggle(x)
            case .dstrike: m.props.doubleStrike = toggle(x)
            case .caps: m.props.caps = toggle(x)
            case .smallCaps: m.props.smallCaps = toggle(x)
            case .vertAlign:
                m.props.superscript = val == "superscript"
                m.props.subscript = val == "subscript"
            case .highlight:
                m.props.highlight = val != nil && val != "none"
                m.props.highlightColor = val.flatMap(highlightColor)
            case .color: m.props.color = val.flatMap { RGBColor(hex: $0) }
            case .shd:
                if let fill = x.attribute("fill", in: OOXML.w), let c = RGBColor(hex: fill), c != RGBColor(red: 255, green: 255, blue: 255) {
                    m.props.shading = c
                }
            case .sz: m.props.size = val.flatMap(Double.init).map { $0 / 2 }
            case .rFonts: m.props.font = x.attribute("ascii", in: OOXML.w) ?? x.attribute("hAnsi", in: OOXML.w)
            case .rStyle: m.props.styleID = val
            // A moved paragraph's mark stays in both versions (Word leaves an empty paragraph behind).
            case .ins:
                if case .deleted? = markChange { markVanished = true }
                markChange = .inserted(change(x))
            case .del:
                if case .inserted? = markChange { markVanished = true }
                markChange = .deleted(change(x))
            case .rPrChange:
                let c = change(x)
                var ignored: ParagraphMarkChange?
                var old = RunProps()
                while let k2 = try x.next(), k2 != .end {
                    if k2 == .start {
                        if x.isElement(.rPr, in: OOXML.w) {
                            old = try runProperties(x, diagnostics: diagnostics, markChange: &ignored).props
                        } else {
                            try x.skipElement()
                        }
                    }
                }
                m.formatChange = (c, old)
                continue
            default: break
            }
            try x.skipElement()
        }
        return m
    }

    /// `w:pPr` → paragraph properties and review marks.
    static func paragraphProperties(_ x: XMLReader, diagnostics: Diagnostics?) throws -> ParagraphMarkup {
        var m = ParagraphMarkup()
        while let k = try x.next(), k != .end {
            guard k == .start else { continue }
            if x.namespace != OOXML.w { try x.skipElement(); continue }
            let val = x.attribute("val", in: OOXML.w)
            switch x.tag {
            case .pStyle: m.props.styleID = val
            case .numPr:
                while let k2 = try x.next(), k2 != .end {
                    guard k2 == .start else { continue }
                    switch x.tag {
                    case .numId: m.props.numID = x.attribute("val", in: OOXML.w)
                    case .ilvl: m.props.level = x.attribute("val", in: OOXML.w).flatMap { Int($0) }
                    case .numberingChange, .ins:
                        diagnostics?.report(.docxNumberingChange, "tracked numbering changes are not kept (the list shows the new numbering)")
                    default: break
                    }
                    try x.skipElement()
                }
                continue
            case .outlineLvl: m.props.outlineLevel = val.flatMap { Int($0) }
            case .jc:
                switch val {
                case "left", "start": m.props.style.alignment = .left
                case "center": m.props.style.alignment = .center
                case "right", "end": m.props.style.alignment = .right
                case "both", "distribute", "lowKashida", "mediumKashida", "highKashida", "thaiDistribute":
                    m.props.style.alignment = .justified
                default: break
                }
            case .ind:
                m.props.style.leftIndent = points(x.attribute("left", in: OOXML.w) ?? x.attribute("start", in: OOXML.w))
                m.props.style.rightIndent = points(x.attribute("right", in: OOXML.w) ?? x.attribute("end", in: OOXML.w))
                if let h = points(x.attribute("hanging", in: OOXML.w)) {
                    m.props.style.firstLineIndent = -h
                } else if let f = points(x.attribute("firstLine", in: OOXML.w)) {
                    m.props.style.firstLineIndent = f
                }
            case .spacing:
                m.props.style.spaceBefore = points(x.attribute("before", in: OOXML.w))
                m.props.style.spaceAfter = points(x.attribute("after", in: OOXML.w))
                if let line = x.attribute("line", in: OOXML.w) {
                    switch x.attribute("lineRule", in: OOXML.w) {
                    case "exact": m.props.style.lineSpacing = points(line).map(LineSpacing.exactly)
                    case "atLeast": m.props.style.lineSpacing = points(line).map(LineSpacing.atLeast)
                    default: m.props.style.lineSpacing = points(line, unit: 240).map(LineSpacing.multiple)
                    }
                }
            case .tabs:
                var stops: [TabStop] = []
                while let k2 = try x.next(), k2 != .end {
                    guard k2 == .start else { continue }
                    if x.tag == .tab, let pos = points(x.attribute("pos", in: OOXML.w)) {
                        let alignment: TabStop.Alignment
                        switch x.attribute("val", in: OOXML.w) {
                        case "clear": try x.skipElement(); continue
                        case "center": alignment = .center
                        case "right", "end": alignment = .right
                        case "decimal": alignment = .decimal
                        default: alignment = .left
                        }
                        let leader: TabStop.Leader
                        switch x.attribute("leader", in: OOXML.w) {
                        case "dot", "middleDot": leader = .dot
                        case "hyphen": leader = .hyphen
                        case "underscore", "heavy": leader = .underscore
                        default: leader = .none
                        }
                        stops.append(TabStop(position: pos, alignment: alignment, leader: leader))
                    }
                    try x.skipElement()
                }
                m.props.style.tabStops = stops.sorted { $0.position < $1.position }
                continue
            case .rPr:
                let r = try runProperties(x, diagnostics: diagnostics, markChange: &m.markChange, markVanished: &m.markVanished)
                if r.formatChange != nil {
                    diagnostics?.report(.docxMarkFormatChange, "tracked formatting changes of paragraph marks are not kept")
                }
                continue
            case .pPrChange:
                let c = change(x)
                var old = ParaProps()
                while let k2 = try x.next(), k2 != .end {
                    guard k2 == .start else { continue }
                    if x.isElement(.pPr, in: OOXML.w) {
                        old = try paragraphProperties(x, diagnostics: nil).props
                    } else {
                        try x.skipElement()
                    }
                }
                m.propsChange = (c, old)
                continue
            case .sectPr:
                m.section = try sectionProperties(x, diagnostics: diagnostics)
                continue
            default: break
            }
            try x.skipElement()
        }
        if let (_, old) = m.propsChange, old.numID != m.props.numID || old.level != m.props.level {
            diagnostics?.report(.docxNumberingChange, "tracked numbering changes are not kept (the list shows the new numbering)")
        }
        return m
    }

    /// `w:sectPr`: the section's page, and its header and footer references (relationship ids), which the
    /// story parser resolves to the stories read from their parts. A tracked change of it is reported
    /// (`docx.section-change`) and its old properties skipped.
    static func sectionProperties(_ x: XMLReader, diagnostics: Diagnostics?) throws -> SectionMarkup {
        var m = SectionMarkup()
        func int(_ name: String) -> Int? { x.attribute(name, in: OOXML.w).flatMap { Int($0) } }
        func length(_ name: String) -> Double? { points(x.attribute(name, in: OOXML.w)) }
        while let k = try x.next(), k != .end {
            guard k == .start else { continue }
            guard x.namespace == OOXML.w else { try x.skipElement(); continue }
            switch x.localName {
            case "sectPrChange":
                diagnostics?.report(.docxSectionChange, "tracked section changes (page size, margins, columns) are not kept")
            case "headerReference", "footerReference":
                let kind: HeaderFooter.Kind = x.localName == "headerReference" ? .header : .footer
                let which: HeaderFooter.Which
                switch x.attribute("type", in: OOXML.w) {
                case "first": which = .first
                case "even": which = .even
                default: which = .default
                }
                if let id = x.attribute("id", in: OOXML.r) { m.references.append((kind, which, id)) }
            case "type":
                m.section.breakKind = x.attribute("val", in: OOXML.w).flatMap(Section.BreakKind.init(rawValue:))
            case "pgSz":
                m.section.pageWidth = length("w")
                m.section.pageHeight = length("h")
                m.section.orientation = x.attribute("orient", in: OOXML.w).flatMap(Section.Orientation.init(rawValue:))
            case "pgMar":
                m.section.margins = Section.Margins(top: length("top"), bottom: length("bottom"), left: length("left"),
                                                    right: length("right"), header: length("header"),
                                                    footer: length("footer"), gutter: length("gutter"))
            case "cols":
                m.section.columns = int("num")
                m.section.columnSpacing = length("space")
            case "lnNumType":
                m.section.lineNumbering = Section.LineNumbering(
                    countBy: int("countBy") ?? 1, start: int("start"), distance: length("distance"),
                    restart: x.attribute("restart", in: OOXML.w).flatMap(Section.LineNumbering.Restart.init(rawValue:)))
            case "titlePg":
                m.section.titlePage = toggle(x)
            default: break
            }
            try x.skipElement()
        }
        return m
    }

    /// Word's named highlight colours; yellow, the usual highlighter, is the model's plain highlight.
    static func highlightColor(_ name: String) -> RGBColor? {
        let colors: [String: String] = [
            "black": "000000", "blue": "0000FF", "cyan": "00FFFF", "green": "00FF00", "magenta": "FF00FF",
            "red": "FF0000", "white": "FFFFFF", "darkBlue": "000080", "darkCyan": "008080", "darkGreen": "008000",
            "darkMagenta": "800080", "darkRed": "800000", "darkYellow": "808000", "darkGray": "808080", "lightGray": "C0C0C0",
        ]
        return colors[name].flatMap { RGBColor(hex: $0) }
    }
}

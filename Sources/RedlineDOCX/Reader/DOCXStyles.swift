import RedlineCore
import RedlineXML

/// `styles.xml`: the document defaults and every style, resolved through its `w:basedOn` chain.
struct StyleSheet {
    /// One style as written (its own properties only).
    struct Style {
        var name: String?
        var basedOn: String?
        var para = ParaProps()
        var run = RunProps()
        var isDefault = false
        var type = "paragraph"
    }

    var styles: [String: Style] = [:]
    var defaultParagraph = ParaProps()
    var defaultRun = RunProps()
    /// The style id of the default paragraph style (`Normal`).
    var defaultParagraphStyleID: String?
    /// Whether a style is one raw content is shown in (`RawStyles`).
    var hasRawStyles = false

    init() {}

    init(_ x: XMLReader, diagnostics: Diagnostics) throws {
        while let k = try x.next() {
            guard k == .start, x.namespace == OOXML.w else { continue }
            switch x.localName {
            case "rPrDefault", "pPrDefault", "docDefaults", "styles": continue
            case "rPr" where x.depth == 3:
                var ignored: ParagraphMarkChange?
                defaultRun = try PropertyParser.runProperties(x, diagnostics: nil, markChange: &ignored).props
            case "pPr" where x.depth == 3:
                defaultParagraph = try PropertyParser.paragraphProperties(x, diagnostics: nil).props
            case "style":
                let id = x.attribute("styleId", in: OOXML.w) ?? ""
                var s = Style()
                s.type = x.attribute("type", in: OOXML.w) ?? "paragraph"
                s.isDefault = ["1", "true", "on"].contains(x.attribute("default", in: OOXML.w) ?? "")
                while let k2 = try x.next(), k2 != .end {
                    guard k2 == .start else { continue }
                    switch (x.namespace == OOXML.w, x.localName) {
                    case (true, "name"): s.name = x.attribute("val", in: OOXML.w); try x.skipElement()
                    case (true, "basedOn"): s.basedOn = x.attribute("val", in: OOXML.w); try x.skipElement()
                    case (true, "pPr"): s.para = try PropertyParser.paragraphProperties(x, diagnostics: nil).props
                    case (true, "rPr"):
                        var ignored: ParagraphMarkChange?
                        s.run = try PropertyParser.runProperties(x, diagnostics: nil, markChange: &ignored).props
                    default: try x.skipElement()
                    }
                }
                if styles[id] == nil { styles[id] = s }
                if RawStyles.isRawStyleName(s.name) { hasRawStyles = true }
                if s.isDefault && s.type == "paragraph" && defaultParagraphStyleID == nil { defaultParagraphStyleID = id }
            default:
                try x.skipElement()
            }
        }
    }

    /// The chain from the root style to `id` (cycles and unknown ids cut it short).
    private func chain(_ id: String?) -> [Style] {
        chainIDs(id).compactMap { styles[$0] }
    }

    /// A paragraph style's properties through its chain (the style's own name and id on top).
    func paragraphProps(_ id: String?) -> ParaProps {
        var p = ParaProps()
        for s in chain(id) { p = p.merged(with: s.para) }
        p.styleID = id
        return p
    }

    /// A paragraph style's run properties through its chain.
    func paragraphRunProps(_ id: String?) -> RunProps {
        chain(id).reduce(RunProps()) { $0.merged(with: $1.run) }
    }

    /// A character style's run properties through its chain.
    func characterProps(_ id: String?) -> RunProps {
        chain(id).reduce(RunProps()) { $0.merged(with: $1.run) }
    }

    /// The display name of a style.
    func name(_ id: String?) -> String? {
        guard let id else { return nil }
        return styles[id]?.name ?? id
    }

    /// The name of Word's built-in quote style, which block quotes are written in (the block says it).
    static let quoteStyleName = BlockStyleRole.quoteName

    /// A block type a paragraph style stands for (Markdown writers, ours and pandoc's, write block quotes,
    /// code blocks and rules as paragraph styles).
    typealias BlockRole = BlockStyleRole

    /// The block role of paragraph style `id`: the first style in its chain (from `id` up) whose id or name,
    /// compared without case and spaces, is a quote style (Quote, Intense Quote, Block Text), Source Code or
    /// Horizontal Rule. Localised documents keep the English name or id of these built-in styles.
    func blockRole(_ id: String?) -> BlockRole? {
        for (i, s) in zip(chainIDs(id).reversed(), chain(id).reversed()) {
            if let role = BlockRole(matching: i) ?? BlockRole(matching: s.name) { return role }
        }
        return nil
    }

    /// The style ids of `chain(id)`, in the same order.
    private func chainIDs(_ id: String?) -> [String] {
        var out: [String] = []
        var seen: Set<String> = []
        var next = id
        while let i = next, !seen.contains(i), let s = styles[i], out.count < 64 {
            seen.insert(i)
            out.append(i)
            next = s.basedOn
        }
        return out.reversed()
    }

    /// The heading level (1...6) of a paragraph with these resolved properties, if it is a heading:
    /// from the outline level (style names are localised), else from a built-in "heading N" name.
    func headingLevel(_ props: ParaProps) -> Int? {
        if let o = props.outlineLevel, (0...8).contains(o) { return min(o + 1, 6) }
        for s in chain(props.styleID).reversed() {
            if let name = s.name, let level = BlockStyleRole.headingLevel(styleName: name) { return level }
        }
        return nil
    }
}

/// `numbering.xml`: numbering instances (`w:num`) over abstract definitions, with level overrides.
struct Numbering {
    /// One level of a list definition.
    struct Level {
        var format = "decimal"
        var start = 1
        var text = "%1."
        var isBullet: Bool { format == "bullet" || format == "none" }
    }

    var abstract: [String: [Int: Level]] = [:]
    /// numId → (abstractNumId, overridden levels, start overrides).
    var instances: [String: (abstractID: String, levels: [Int: Level], starts: [Int: Int])] = [:]

    init() {}

    init(_ x: XMLReader) throws {
        while let k = try x.next() {
            guard k == .start, x.namespace == OOXML.w else { continue }
            switch x.localName {
            case "numbering": continue
            case "abstractNum":
                let id = x.attribute("abstractNumId", in: OOXML.w) ?? ""
                var levels: [Int: Level] = [:]
                while let k2 = try x.next(), k2 != .end {
                    guard k2 == .start else { continue }
                    if x.isElement("lvl", in: OOXML.w) {
                        let (i, l) = try Self.level(x)
                        levels[i] = l
                    } else {
                        try x.skipElement()
                    }
                }
                abstract[id] = levels
            case "num":
                let id = x.attribute("numId", in: OOXML.w) ?? ""
                var abstractID = ""
                var levels: [Int: Level] = [:]
                var starts: [Int: Int] = [:]
                while let k2 = try x.next(), k2 != .end {
                    guard k2 == .start else { continue }
                    switch x.localName {
                    case "abstractNumId": abstractID = x.attribute("val", in: OOXML.w) ?? ""; try x.skipElement()
                    case "lvlOverride":
                        let ilvl = Int(x.attribute("ilvl", in: OOXML.w) ?? "") ?? 0
                        while let k3 = try x.next(), k3 != .end {
                            guard k3 == .start else { continue }
                            if x.localName == "startOverride" {
                                starts[ilvl] = Int(x.attribute("val", in: OOXML.w) ?? "") ?? 1
                                try x.skipElement()
                            } else if x.localName == "lvl" {
                                levels[ilvl] = try Self.level(x).1
                            } else {
                                try x.skipElement()
                            }
                        }
                    default: try x.skipElement()
                    }
                }
                instances[id] = (abstractID, levels, starts)
            default:
                try x.skipElement()
            }
        }
    }

    private static func level(_ x: XMLReader) throws -> (Int, Level) {
        let i = Int(x.attribute("ilvl", in: OOXML.w) ?? "") ?? 0
        var l = Level()
        while let k = try x.next(), k != .end {
            guard k == .start else { continue }
            switch x.localName {
            case "start": l.start = Int(x.attribute("val", in: OOXML.w) ?? "") ?? 1
            case "numFmt": l.format = x.attribute("val", in: OOXML.w) ?? "decimal"
            case "lvlText": l.text = x.attribute("val", in: OOXML.w) ?? ""
            default: break
            }
            try x.skipElement()
        }
        return (i, l)
    }

    /// The level definition of `numID` at `level` (nil when the numbering is unknown).
    func level(_ numID: String, _ level: Int) -> Level? {
        guard let inst = instances[numID] else { return nil }
        var l = inst.levels[level] ?? abstract[inst.abstractID]?[level]
        if l == nil, inst.levels.isEmpty, abstract[inst.abstractID] == nil { return nil }
        if l == nil { l = Level() }
        return l
    }

    /// The start override `numID` sets for `level`, if any.
    func startOverride(_ numID: String, _ level: Int) -> Int? { instances[numID]?.starts[level] }

    /// The abstract definition a numbering instance uses (instances of one definition share counters).
    func abstractID(_ numID: String) -> String? { instances[numID]?.abstractID }
}

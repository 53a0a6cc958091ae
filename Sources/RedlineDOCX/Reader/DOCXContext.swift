import RedlineCore

/// What every story (body, comment, note) parser shares: styles, numbering, the part's relationships,
/// which comments are replies, and the diagnostics.
struct StoryContext {
    var styles: StyleSheet
    var numbering: Numbering
    /// Relationships of the part being parsed (hyperlink and image targets).
    var relationships: [String: Relationship]
    /// Comment ids that are replies: their anchors are not kept (a reply has no anchor of its own).
    var replyIDs: Set<String>
    var diagnostics: Diagnostics
    /// The document's default paragraph formatting, which paragraphs do not repeat.
    var defaultParagraph: ParagraphStyle
    /// The document's default character formatting, which runs do not repeat.
    var defaultCharacter: CharacterStyle
    /// Note labels by the reader's key for a note (`fn`/`en` + `w:id`); see `SideParts.numbered`.
    var noteLabels: [String: String] = [:]
    /// The package's pictures, read into the document's `MediaStore` as drawings name them.
    var pictures: DOCXPictures?
    /// The TeX kept for equations Redline wrote (custom properties `RedlineMath…`).
    var mathSources = KeptSources(prefix: KeptSources.mathPrefix)
    var codeSources = KeptSources(prefix: KeptSources.codePrefix)
    var imageSources = KeptSources(prefix: KeptSources.imagePrefix)
    var headingSources = KeptSources(prefix: KeptSources.headingPrefix) {
        didSet { headingIDs = Set(headingSources.allValues.flatMap(HeadingIDs.all).flatMap { [$0, String($0.prefix(40))] }) }
    }
    /// The `#id`s of the kept heading attributes: the bookmarks the writer put in those headings, not reported.
    private(set) var headingIDs: Set<String> = []
    /// The header and footer parts' stories by the main document's relationship id (what `w:sectPr`
    /// references); empty in other stories and documents without headers and footers.
    var headerStories: [String: [Block]] = [:]
}

extension ParagraphStyle {
    /// This style without the fields that equal `base`'s (what a paragraph adds to the document default).
    func subtracting(_ base: ParagraphStyle) -> ParagraphStyle {
        var s = self
        if s.alignment == base.alignment { s.alignment = nil }
        if s.firstLineIndent == base.firstLineIndent { s.firstLineIndent = nil }
        if s.leftIndent == base.leftIndent { s.leftIndent = nil }
        if s.rightIndent == base.rightIndent { s.rightIndent = nil }
        if s.lineSpacing == base.lineSpacing { s.lineSpacing = nil }
        if s.spaceBefore == base.spaceBefore { s.spaceBefore = nil }
        if s.spaceAfter == base.spaceAfter { s.spaceAfter = nil }
        if s.tabStops == base.tabStops { s.tabStops = [] }
        return s
    }
}

extension CharacterStyle {
    /// This style without the font and size that equal `base`'s.
    func subtracting(_ base: CharacterStyle) -> CharacterStyle {
        var s = self
        if s.fontFamily == base.fontFamily { s.fontFamily = nil }
        if s.fontSize == base.fontSize { s.fontSize = nil }
        if s.color == base.color { s.color = nil }
        return s
    }
}

/// Characters of the Symbol font (`w:sym w:font="Symbol"`) as Unicode: Greek letters and common signs.
enum SymbolFont {
    static func character(_ code: UInt32, font: String?) -> String {
        let c = code >= 0xF000 && code <= 0xF0FF ? code - 0xF000 : code
        if font?.lowercased() == "symbol", let s = table[c] { return String(s) }
        return Unicode.Scalar(code).map { String(Character($0)) } ?? ""
    }

    private static let table: [UInt32: Character] = {
        var t: [UInt32: Character] = [:]
        let upper = Array("ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ"), lower = Array("αβχδεφγηιϕκλμνοπθρστυϖωξψζ")
        for i in 0..<26 {
            t[0x41 + UInt32(i)] = upper[i]
            t[0x61 + UInt32(i)] = lower[i]
        }
        let signs: [(UInt32, Character)] = [
            (0x22, "∀"), (0x24, "∃"), (0x27, "∋"), (0x2A, "∗"), (0x2D, "−"), (0x40, "≅"), (0x5C, "∴"), (0x5E, "⊥"),
            (0x7E, "∼"), (0xA3, "≤"), (0xA5, "∞"), (0xA7, "♣"), (0xA8, "♦"), (0xA9, "♥"), (0xAA, "♠"), (0xAB, "↔"),
            (0xAC, "←"), (0xAD, "↑"), (0xAE, "→"), (0xAF, "↓"), (0xB0, "°"), (0xB1, "±"), (0xB3, "≥"), (0xB4, "×"),
            (0xB5, "∝"), (0xB6, "∂"), (0xB7, "•"), (0xB8, "÷"), (0xB9, "≠"), (0xBA, "≡"), (0xBB, "≈"), (0xBC, "…"),
            (0xC0, "ℵ"), (0xC5, "⊕"), (0xC6, "∅"), (0xC7, "∩"), (0xC8, "∪"), (0xC9, "⊃"), (0xCA, "⊇"), (0xCB, "⊄"),
            (0xCC, "⊂"), (0xCD, "⊆"), (0xCE, "∈"), (0xCF, "∉"), (0xD0, "∠"), (0xD1, "∇"), (0xD5, "∏"), (0xD6, "√"),
            (0xD7, "⋅"), (0xD8, "¬"), (0xD9, "∧"), (0xDA, "∨"), (0xDB, "⇔"), (0xDC, "⇐"), (0xDD, "⇑"), (0xDE, "⇒"),
            (0xDF, "⇓"), (0xE0, "◊"), (0xE5, "∑"), (0xF2, "∫"),
        ]
        for (k, v) in signs { t[k] = v }
        return t
    }()
}

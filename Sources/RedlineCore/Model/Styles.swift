/// An sRGB colour, eight bits a channel.
public struct RGBColor: Hashable, Sendable, Codable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `RRGGBB` or `#RRGGBB` (case-insensitive); nil for anything else.
    public init?(hex: some StringProtocol) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        self.init(red: UInt8((v >> 16) & 0xFF), green: UInt8((v >> 8) & 0xFF), blue: UInt8(v & 0xFF))
    }

    /// `RRGGBB` in upper-case hexadecimal, as DOCX writes it.
    public var hex: String {
        let digits = Array("0123456789ABCDEF")
        return String([red >> 4, red & 15, green >> 4, green & 15, blue >> 4, blue & 15].map { digits[Int($0)] })
    }

    public var description: String { "#" + hex }

    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let yellow = RGBColor(red: 0xFF, green: 0xFF, blue: 0)
}

/// Horizontal alignment of a paragraph.
public enum ParagraphAlignment: String, Hashable, Sendable, Codable, CaseIterable {
    case left, center, right, justified
}

/// Line spacing of a paragraph: a multiple of single spacing, an exact height, or a minimum height (points).
public enum LineSpacing: Hashable, Sendable, Codable {
    case multiple(Double)
    case exactly(Double)
    case atLeast(Double)
}

/// A tab stop: its position from the left indent origin, in points, and how text aligns on it.
public struct TabStop: Hashable, Sendable, Codable {
    /// How text aligns on a tab stop.
    public enum Alignment: String, Hashable, Sendable, Codable, CaseIterable { case left, center, right, decimal }
    /// The character drawn in the space the tab fills.
    public enum Leader: String, Hashable, Sendable, Codable, CaseIterable { case none, dot, hyphen, underscore }

    public var position: Double
    public var alignment: Alignment
    public var leader: Leader

    public init(position: Double, alignment: Alignment = .left, leader: Leader = .none) {
        self.position = position
        self.alignment = alignment
        self.leader = leader
    }
}

/// Scrivener-style paragraph formatting. Every field is optional: nil means "not set here, inherit".
/// Lengths are in points (1/72 inch); a negative `firstLineIndent` is a hanging indent.
public struct ParagraphStyle: Hashable, Sendable, Codable {
    /// The named style (e.g. "Body Text", "Quote"), as the source calls it.
    public var name: String?
    public var alignment: ParagraphAlignment?
    public var firstLineIndent: Double?
    public var leftIndent: Double?
    public var rightIndent: Double?
    public var lineSpacing: LineSpacing?
    public var spaceBefore: Double?
    public var spaceAfter: Double?
    /// Explicit tab stops in increasing position; empty means none set.
    public var tabStops: [TabStop]

    public init(name: String? = nil, alignment: ParagraphAlignment? = nil, firstLineIndent: Double? = nil,
                leftIndent: Double? = nil, rightIndent: Double? = nil, lineSpacing: LineSpacing? = nil,
                spaceBefore: Double? = nil, spaceAfter: Double? = nil, tabStops: [TabStop] = []) {
        self.name = name
        self.alignment = alignment
        self.firstLineIndent = firstLineIndent
        self.leftIndent = leftIndent
        self.rightIndent = rightIndent
        self.lineSpacing = lineSpacing
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
        self.tabStops = tabStops
    }

    /// True when nothing is set.
    public var isEmpty: Bool { self == ParagraphStyle() }

    /// This style with every field that `other` sets taken from `other`.
    public func merged(with other: ParagraphStyle) -> ParagraphStyle {
        var s = self
        if let v = other.name { s.name = v }
        if let v = other.alignment { s.alignment = v }
        if let v = other.firstLineIndent { s.firstLineIndent = v }
        if let v = other.leftIndent { s.leftIndent = v }
        if let v = other.rightIndent { s.rightIndent = v }
        if let v = other.lineSpacing { s.lineSpacing = v }
        if let v = other.spaceBefore { s.spaceBefore = v }
        if let v = other.spaceAfter { s.spaceAfter = v }
        if !other.tabStops.isEmpty { s.tabStops = other.tabStops }
        return s
    }

    /// Scrivener's defaults for new text: line-height multiple 1.2, first-line indent 0.5 in.
    public static let scrivener = ParagraphStyle(firstLineIndent: 36, lineSpacing: .multiple(1.2))
}

/// Character attributes that have no semantic inline of their own (font, size, colours, caps, named style).
/// Bold, italic, underline, strike, super/subscript, small caps and highlight are inlines
/// (`Inline.strong` etc.); see `TextFormat` for the flat combination of both. nil/false means "not set".
public struct CharacterStyle: Hashable, Sendable, Codable {
    /// The named character style, as the source calls it.
    public var name: String?
    public var fontFamily: String?
    /// Font size in points.
    public var fontSize: Double?
    public var color: RGBColor?
    /// Background colour: Word's highlight or shading, RTF's `\highlight`/`\cb`/`\chcbpat`.
    public var backgroundColor: RGBColor?
    public var allCaps: Bool
    public var doubleStrikethrough: Bool

    public init(name: String? = nil, fontFamily: String? = nil, fontSize: Double? = nil, color: RGBColor? = nil,
                backgroundColor: RGBColor? = nil, allCaps: Bool = false, doubleStrikethrough: Bool = false) {
        self.name = name
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.color = color
        self.backgroundColor = backgroundColor
        self.allCaps = allCaps
        self.doubleStrikethrough = doubleStrikethrough
    }

    /// True when nothing is set.
    public var isEmpty: Bool {
        name == nil && fontFamily == nil && fontSize == nil && color == nil && backgroundColor == nil && !allCaps
            && !doubleStrikethrough
    }

    /// This style with every field that `other` sets taken from `other`.
    public func merged(with other: CharacterStyle) -> CharacterStyle {
        var s = self
        if let v = other.name { s.name = v }
        if let v = other.fontFamily { s.fontFamily = v }
        if let v = other.fontSize { s.fontSize = v }
        if let v = other.color { s.color = v }
        if let v = other.backgroundColor { s.backgroundColor = v }
        if other.allCaps { s.allCaps = true }
        if other.doubleStrikethrough { s.doubleStrikethrough = true }
        return s
    }
}

/// The complete formatting of one run of text: the semantic toggles plus the character style.
/// Readers of run-based formats (DOCX, RTF) produce runs with a `TextFormat` and let
/// `InlineBuilder` nest them; writers of run-based formats flatten inlines with `Inline.runs`.
public struct TextFormat: Hashable, Sendable, Codable {
    public var bold = false
    public var italic = false
    public var underline = false
    public var strikethrough = false
    public var superscript = false
    public var `subscript` = false
    public var smallCaps = false
    /// Marked as highlighted (CriticMarkup `{==…==}` without a comment, Word's highlight).
    public var highlight = false
    /// Inline code (monospace, verbatim).
    public var code = false
    /// Font, size, colours... Out of line (nil when empty), so a `TextFormat` is 17 bytes, not 72, and a
    /// `Run` small (PERFORMANCE.md, "Small runs").
    private var styleBox: StyleBox?

    public var style: CharacterStyle {
        get { styleBox?.style ?? CharacterStyle() }
        set { styleBox = newValue.isEmpty ? nil : StyleBox(newValue) }
    }

    public init(bold: Bool = false, italic: Bool = false, underline: Bool = false, strikethrough: Bool = false,
                superscript: Bool = false, subscript: Bool = false, smallCaps: Bool = false,
                highlight: Bool = false, code: Bool = false, style: CharacterStyle = CharacterStyle()) {
        self.bold = bold
        self.italic = italic
        self.underline = underline
        self.strikethrough = strikethrough
        self.superscript = superscript
        self.subscript = `subscript`
        self.smallCaps = smallCaps
        self.highlight = highlight
        self.code = code
        self.styleBox = style.isEmpty ? nil : StyleBox(style)
    }

    /// True when nothing is set. Read field by field (comparing with a new `TextFormat()` cost a few hundred
    /// instructions a run in the writers); an empty style is never boxed, so no box means no style.
    public var isPlain: Bool { !hasToggles && !code && styleBox == nil }

    private enum CodingKeys: String, CodingKey {
        case bold, italic, underline, strikethrough, superscript, `subscript`, smallCaps, highlight, code, style
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(bold: try c.decode(Bool.self, forKey: .bold), italic: try c.decode(Bool.self, forKey: .italic),
                  underline: try c.decode(Bool.self, forKey: .underline),
                  strikethrough: try c.decode(Bool.self, forKey: .strikethrough),
                  superscript: try c.decode(Bool.self, forKey: .superscript),
                  subscript: try c.decode(Bool.self, forKey: .subscript),
                  smallCaps: try c.decode(Bool.self, forKey: .smallCaps), highlight: try c.decode(Bool.self, forKey: .highlight),
                  code: try c.decode(Bool.self, forKey: .code), style: try c.decode(CharacterStyle.self, forKey: .style))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bold, forKey: .bold)
        try c.encode(italic, forKey: .italic)
        try c.encode(underline, forKey: .underline)
        try c.encode(strikethrough, forKey: .strikethrough)
        try c.encode(superscript, forKey: .superscript)
        try c.encode(self.subscript, forKey: .subscript)
        try c.encode(smallCaps, forKey: .smallCaps)
        try c.encode(highlight, forKey: .highlight)
        try c.encode(code, forKey: .code)
        try c.encode(style, forKey: .style)
    }

    public static func == (a: TextFormat, b: TextFormat) -> Bool {
        a.bold == b.bold && a.italic == b.italic && a.underline == b.underline && a.strikethrough == b.strikethrough
            && a.superscript == b.superscript && a.subscript == b.subscript && a.smallCaps == b.smallCaps
            && a.highlight == b.highlight && a.code == b.code
            && (a.styleBox === b.styleBox || a.style == b.style)
    }

    public func hash(into h: inout Hasher) {
        h.combine(bold); h.combine(italic); h.combine(underline); h.combine(strikethrough); h.combine(superscript)
        h.combine(self.subscript); h.combine(smallCaps); h.combine(highlight); h.combine(code); h.combine(style)
    }

    /// True when the character style is not empty (`!style.isEmpty` without building the style value).
    public var hasStyle: Bool { styleBox != nil }

    /// True when a toggle that nests as an inline (bold ... highlight) is on.
    var hasToggles: Bool {
        bold || italic || underline || strikethrough || smallCaps || superscript || self.subscript || highlight
    }
}

/// A `TextFormat`'s character style, shared (immutable) between copies.
private final class StyleBox: Sendable {
    let style: CharacterStyle
    init(_ style: CharacterStyle) { self.style = style }
}

import RedlineCore

/// Character properties as RTF states them (indexes into the font, colour, style and revision tables).
struct CharFormat: Hashable {
    var bold = false, italic = false, underline = false, strike = false, doubleStrike = false
    var superscript = false, `subscript` = false, smallCaps = false, allCaps = false, hidden = false
    var font = -1, fontSize = -1, foreground = -1, background = -1, highlight = -1, charStyle = -1
    var revised = false, deleted = false
    var revisionAuthor = 0, deletionAuthor = 0, revisionDate = 0, deletionDate = 0
}

/// Paragraph properties as RTF states them (lengths in twips).
struct ParaFormat: Equatable {
    var alignment: ParagraphAlignment?
    var firstLine = 0, left = 0, right = 0, before = 0, after = 0, lineSpacing = 0, lineMultiple = 0
    var tabs: [TabStop] = []
    var tabAlignment = TabStop.Alignment.left
    var tabLeader = TabStop.Leader.none
    var style = -1, outline = -1
    var inTable = false, nesting = -1
    var list = -1, listLevel = 0
    /// Legacy `\pn` numbering: its kind and level.
    var legacyList: ListKind?
    var legacyLevel = 0

    /// How deep in nested tables this paragraph is (0: not in a table).
    var tableDepth: Int { nesting >= 0 ? nesting : (inTable ? 1 : 0) }
}

/// The storage of `GroupState.para`.
final class ParaStorage {
    /// Read and written by one parser on one thread; `GroupState.para` makes it unique before writing.
    @exclusivity(unchecked) var value: ParaFormat
    init(_ value: ParaFormat) { self.value = value }
}

/// What the text of a group is.
enum Destination: Equatable {
    case body, skip
    case fontTable, colorTable, styleSheet, revisionTable
    case listTable, list, listLevel, listOverrideTable, listOverride
    case info, infoDate(String), userProps
    case text(TextTarget)
    case fieldInstruction, picture, nestedTableProperties, defaultCharacter, defaultParagraph, legacyList
}

/// Destinations whose text is collected whole and used when the group ends.
enum TextTarget: Equatable {
    case metadata(String), propertyName, propertyValue, pictureName, pictureValue
    case annotationInitials, annotationAuthor, annotationReference, annotationParent, annotationDate
    case rangeStart, rangeEnd, levelText, headingAttributes
}

/// The state a group saves and restores.
struct GroupState {
    var char = CharFormat()
    /// Paragraph properties, shared with the saved states of enclosing groups until a group changes them:
    /// most groups change only character properties, and each group start saves the whole state.
    var para: ParaFormat {
        get { paraStorage.value }
        set { paraStorage = ParaStorage(newValue) }
        _modify {
            if !isKnownUniquelyReferenced(&paraStorage) { paraStorage = ParaStorage(paraStorage.value) }
            yield &paraStorage.value
        }
    }
    private var paraStorage = ParaStorage(ParaFormat())
    var dest = Destination.body
    var fallbackLength = 1
    var story = 0
    var field = -1
    /// Set on the group that set `dest`, opened `story` or `field`: ending it finishes them.
    var ownsDest = false, ownsStory = false, ownsField = false
    /// Inside a shape's instructions (`\shpinst`, skipped but for the text box text `\shptxt`).
    var inShape = false
    /// Inside `\upr`: the destination its `\ud` part continues.
    var unicodeOuter: Destination?
}

/// A text that collects blocks of its own: the document body, a note, or an annotation.
struct Story {
    enum Kind {
        case main
        case note(id: String, kind: NoteKind)
        case annotation(AnnotationInfo)
        /// A header or footer of the current section.
        case headerFooter(HeaderFooter.Kind, HeaderFooter.Which)
        /// A text box's text (`\shptxt`) in story `parent`.
        case textBox(parent: Int, width: Double?, height: Double?)
    }

    var kind: Kind
    /// A note Redline wrote from Markdown's `^[…]` (`\redlineinline`).
    var inlineNote = false
    var runs: [Run] = []
    /// The UTF-8 text of the run being read, with its format and link.
    var text: [UInt8] = []
    var format = CharFormat()
    var link: Link?
    var collector = BlockCollector()
    var tables: [OpenTable] = []
    /// Paragraph properties when text was last added (for a last paragraph without `\par`).
    var lastTextPara: ParaFormat?
    var sawListText = false
    /// Paragraphs finished so far (a field is kept as one when its result ends in the paragraph it began in).
    var paragraphs = 0
    /// Text boxes read since the last paragraph: their blocks, placed after it (as the DOCX reader places them).
    var textBoxes: [Block] = []
    /// The alt text of the story's last paragraph when it was a picture alone (`FigureCaptions`).
    var figureAlt: String?

    init(kind: Kind) {
        self.kind = kind
        text.reserveCapacity(256)
    }
}

/// What is known about an annotation while its body is read.
struct AnnotationInfo {
    var initials: String?
    var author: String?
    var reference: String?
    var parent: String?
    var date: String?
    /// Where its point anchor goes: the story and run index.
    var anchorStory = 0
    var anchorRun = 0
    /// The emphasis around the anchor (no font or size).
    var anchorFormat = TextFormat()
}

/// One open field (`{\field{\*\fldinst ...}{\fldrslt ...}}`).
struct FieldState {
    enum Kind {
        case plain
        case link(Link)
        case comment(String)
        case footnote(Note)
    }
    var instruction: [UInt8] = []
    var kind = Kind.plain
    /// Where its result starts (`\fldrslt`): the story, which of its paragraphs, and the run index in it.
    var result: (story: Int, paragraph: Int, run: Int)?
    /// Its result went on past the paragraph it began in: that paragraph holds its start (`BlockField`).
    var spansParagraphs = false
}

/// A list definition from `\listtable`: per level, the kind.
struct ListDefinition {
    var id = 0
    var levels: [ListLevelDefinition] = []
}

/// One level of a list definition.
struct ListLevelDefinition {
    var format = 0
    var start = 1
    var delimiter: Character = "."

    var kind: ListKind {
        format == 23 || format == 255 ? .bullet : .ordered(start: start, delimiter: delimiter)
    }
}

/// A font table entry.
struct FontEntry {
    var name: String
    var codePage: Int?
}

/// A stylesheet entry, with what its name means worked out once.
struct StyleEntry {
    var name: String
    var outline: Int?
    /// "Normal", "Standard"...: the default style, which the model leaves unnamed.
    var isDefault: Bool
    /// 1...6 for "heading 1"... "heading 9" (levels past 6 are 6).
    var headingLevel: Int?

    init(name: String, outline: Int?) {
        self.name = name
        self.outline = outline
        let n = name.lowercased()
        isDefault = ["normal", "standard", "default", "default paragraph style", "default style"].contains(n)
        headingLevel = BlockStyleRole.headingLevel(styleName: name)
    }
}

/// Decodes a Word DTTM value (`\revdttm`, `\atndate`) into an ISO 8601 date, or nil when it is zero or invalid.
func dateFromDTTM(_ v: Int) -> String? {
    guard v != 0 else { return nil }
    let u = UInt32(truncatingIfNeeded: v)
    let minute = Int(u & 0x3F), hour = Int((u >> 6) & 0x1F), day = Int((u >> 11) & 0x1F)
    let month = Int((u >> 16) & 0xF), year = Int((u >> 20) & 0x1FF) + 1900
    guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60 else { return nil }
    return isoDate(year, month, day, hour, minute)
}

/// Encodes an ISO 8601 date (`2024-01-15T14:30:00Z`, seconds and zone ignored) as a Word DTTM value.
func dttm(fromISO s: String) -> Int? {
    let digits = s.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard digits.count >= 3 else { return nil }
    let (y, mo, d) = (digits[0], digits[1], digits[2])
    let h = digits.count > 3 ? digits[3] : 0, mi = digits.count > 4 ? digits[4] : 0
    guard (1900...2411).contains(y), (1...12).contains(mo), (1...31).contains(d), (0..<24).contains(h), (0..<60).contains(mi) else {
        return nil
    }
    return Int(Int32(bitPattern: UInt32(mi) | UInt32(h) << 6 | UInt32(d) << 11 | UInt32(mo) << 16 | UInt32(y - 1900) << 20))
}

/// `2024-01-15T14:30:00Z`.
func isoDate(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> String {
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(y)-\(two(mo))-\(two(d))T\(two(h)):\(two(mi)):00Z"
}

/// A `\pict` being read: its bytes (hex or `\bin`), type, size and alt text.
struct RTFPicture {
    var data: [UInt8] = []
    /// The high half of a byte whose low hex digit has not come yet (-1: none).
    var nibble = -1
    var type: String?
    var tooLarge = false
    /// `\picwgoal`/`\pichgoal` (twips), `\picscalex`/`\picscaley` (percent), alt text (`wzDescription` in
    /// `\*\picprop`) and the shape property being read.
    var goal: (w: Int, h: Int) = (0, 0)
    var scale: (x: Int, y: Int) = (100, 100)
    var alt = ""
    var propertyName = ""
}

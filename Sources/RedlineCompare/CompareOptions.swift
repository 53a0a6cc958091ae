import RedlineCore

/// How finely changed text is cut into marks.
public enum CompareGranularity: String, Sendable, CaseIterable, Codable {
    /// Whole words, whitespace runs and punctuation marks (CJK text character by character).
    case word
    /// Single characters.
    case character
}

/// What `DocumentComparer.compare` marks and how it attributes the marks.
public struct CompareOptions: Sendable, Codable, Hashable {
    /// The author of every mark.
    public var author: String
    /// The date of every mark, ISO 8601 (nil: undated).
    public var date: String?
    public var granularity: CompareGranularity
    /// Pair text deleted in one place and inserted nearly unchanged in another as a move.
    public var detectMoves: Bool
    /// Do not mark formatting or paragraph-style changes (the result carries NEW's formatting).
    public var ignoreFormatting: Bool
    /// The fewest words a moved span must have.
    public var minimumMoveWords: Int
    /// Words differing only in letter case compare equal (the result keeps NEW's spelling, unmarked).
    public var ignoreCase: Bool = false
    /// Runs of whitespace compare equal whatever their length and kind (NEW's kept, unmarked).
    public var ignoreWhitespace: Bool = false
    /// Compare the notes' text (off: a note whose reference stayed keeps NEW's text, unmarked).
    public var compareNotes: Bool = true
    /// Carry NEW's comments into the result (off: the result has none).
    public var keepComments: Bool = true
    /// Compare tables' structure and formatting (off: two paired tables whose cells hold the same text, cell
    /// by cell, are equal and NEW's is kept unmarked; tables whose text differs are compared as always).
    public var compareTables: Bool = true
    /// Compare paragraphs' formatting beyond their kind and heading level (off: NEW's kept, unmarked).
    /// `DocumentComparer.acrossFormats` turns it off for two documents read from different formats when one
    /// of them carries no paragraph formatting at all (Markdown without `--keep-formatting`).
    public var compareParagraphStyles = true
    /// Keep NEW's own tracked changes with their authors and dates (OLD's too where NEW still carries them) and add
    /// the differences found by comparison as new changes by `author` (off: the inputs' changes are accepted
    /// before comparing). OLD is
    /// taken in its accepted view, or in its rejected view when that is the closer to NEW's rejected view (NEW
    /// made from OLD with OLD's changes still in it); `DocumentComparer.compare` says how the layers compose.
    public var keepInputChanges: Bool = false
    /// Compare the header and footer stories of corresponding sections (off: the result has NEW's, unmarked).
    public var compareHeadersFooters: Bool = true
    /// Compare fields by their instruction and result (off: any field equals any other; NEW's kept, unmarked:
    /// an updated page number or date is no change).
    public var compareFields: Bool = true
    /// Compare the text in text boxes (off: OLD's i-th text box is taken to hold what NEW's i-th holds, so NEW's
    /// boxes are kept unmarked; `TextBoxPairing`).
    public var compareTextBoxes: Bool = true
    /// A paragraph whose kind changed (made a heading, its heading level changed) stays one paragraph with a
    /// style change (its text compared as any paragraph's) rather than the old paragraph deleted and the new
    /// one inserted; the style change's old style then names the old heading level ("heading 2") when it had
    /// no name; and a list made numbered or bulleted is compared item by item with its old self (NEW's kind
    /// kept) rather than replaced whole. `redline apply` and `combine` set it: their plan takes the old kind
    /// from ORIGINAL. Not encoded (it is no user's switch).
    public var keepRelevelled: Bool = false

    public init(author: String = "Redline", date: String? = nil, granularity: CompareGranularity = .word,
                detectMoves: Bool = true, ignoreFormatting: Bool = false, minimumMoveWords: Int = 4) {
        self.author = author
        self.date = date
        self.granularity = granularity
        self.detectMoves = detectMoves
        self.ignoreFormatting = ignoreFormatting
        self.minimumMoveWords = minimumMoveWords
    }

    enum CodingKeys: String, CodingKey {
        case author, date, granularity, detectMoves, ignoreFormatting, minimumMoveWords
        case ignoreCase, ignoreWhitespace, compareNotes, keepComments, compareTables
        case keepInputChanges, compareHeadersFooters, compareFields, compareTextBoxes
    }

    /// Decodes options written before the Word-style switches existed (they take their defaults).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(author: try c.decode(String.self, forKey: .author), date: try c.decodeIfPresent(String.self, forKey: .date),
                  granularity: try c.decode(CompareGranularity.self, forKey: .granularity),
                  detectMoves: try c.decode(Bool.self, forKey: .detectMoves),
                  ignoreFormatting: try c.decode(Bool.self, forKey: .ignoreFormatting),
                  minimumMoveWords: try c.decode(Int.self, forKey: .minimumMoveWords))
        ignoreCase = try c.decodeIfPresent(Bool.self, forKey: .ignoreCase) ?? false
        ignoreWhitespace = try c.decodeIfPresent(Bool.self, forKey: .ignoreWhitespace) ?? false
        compareNotes = try c.decodeIfPresent(Bool.self, forKey: .compareNotes) ?? true
        keepComments = try c.decodeIfPresent(Bool.self, forKey: .keepComments) ?? true
        compareTables = try c.decodeIfPresent(Bool.self, forKey: .compareTables) ?? true
        keepInputChanges = try c.decodeIfPresent(Bool.self, forKey: .keepInputChanges) ?? false
        compareHeadersFooters = try c.decodeIfPresent(Bool.self, forKey: .compareHeadersFooters) ?? true
        compareFields = try c.decodeIfPresent(Bool.self, forKey: .compareFields) ?? true
        compareTextBoxes = try c.decodeIfPresent(Bool.self, forKey: .compareTextBoxes) ?? true
    }
}

/// Counts of the marks one comparison made.
public struct CompareStats: Hashable, Sendable, Codable {
    /// Inserted spans (a substitution counts once here and once under deletions).
    public var insertions = 0
    /// Deleted spans.
    public var deletions = 0
    /// Substitutions (a deletion paired with an insertion).
    public var substitutions = 0
    /// Moves (pairs of from/to spans).
    public var moves = 0
    /// Spans whose character formatting changed.
    public var formatChanges = 0
    /// Paragraphs whose style changed.
    public var paragraphStyleChanges = 0
    /// Paragraph breaks inserted or deleted (splits, merges, whole paragraphs).
    public var paragraphMarkChanges = 0
    /// Table rows inserted or deleted.
    public var rowChanges = 0
    /// Words inserted (moved-to words included).
    public var wordsInserted = 0
    /// Words deleted (moved-from words included).
    public var wordsDeleted = 0

    public init() {}

    /// True when the documents compared equal.
    public var isEmpty: Bool { self == CompareStats() }

    /// Words changed: inserted plus deleted.
    public var wordsChanged: Int { wordsInserted + wordsDeleted }

    /// Adds `other`'s counts to these.
    public mutating func add(_ other: CompareStats) {
        insertions += other.insertions; deletions += other.deletions; substitutions += other.substitutions
        moves += other.moves; formatChanges += other.formatChanges
        paragraphStyleChanges += other.paragraphStyleChanges; paragraphMarkChanges += other.paragraphMarkChanges
        rowChanges += other.rowChanges; wordsInserted += other.wordsInserted; wordsDeleted += other.wordsDeleted
    }
}

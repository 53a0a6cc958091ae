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

    public init(author: String = "Redline", date: String? = nil, granularity: CompareGranularity = .word,
                detectMoves: Bool = true, ignoreFormatting: Bool = false, minimumMoveWords: Int = 4) {
        self.author = author
        self.date = date
        self.granularity = granularity
        self.detectMoves = detectMoves
        self.ignoreFormatting = ignoreFormatting
        self.minimumMoveWords = minimumMoveWords
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

/// Who made a tracked change or wrote a comment, and when.
/// `date` is kept as the source wrote it, normally ISO 8601 (`2024-01-15T14:30:00Z`).
/// `id` is the source's identifier (DOCX `w:id`); writers may renumber, and CriticMarkup does not keep it.
public struct Change: Hashable, Sendable, Codable {
    public var author: String?
    public var date: String?
    public var id: String?

    public init(author: String? = nil, date: String? = nil, id: String? = nil) {
        self.author = author
        self.date = date
        self.id = id
    }

    /// True when neither author nor date is known.
    public var isAnonymous: Bool { author == nil && date == nil }
}

/// Which end of a move a span is.
public enum MoveSide: String, Hashable, Sendable, Codable {
    /// Where the text was (removed on accept, kept on reject).
    case from
    /// Where the text went (kept on accept, removed on reject).
    case to
}

/// One end of a tracked move. Both ends share `name` (DOCX `w:name` of the move range).
public struct Move: Hashable, Sendable, Codable {
    public var change: Change
    public var name: String
    public var side: MoveSide

    public init(change: Change, name: String, side: MoveSide) {
        self.change = change
        self.name = name
        self.side = side
    }
}

/// A tracked formatting change on a span: the span shows the new formatting, `old` is what it was.
public struct FormatChange: Hashable, Sendable, Codable {
    public var change: Change
    /// The complete formatting before the change.
    public var old: TextFormat

    public init(change: Change, old: TextFormat) {
        self.change = change
        self.old = old
    }
}

/// A tracked change to the break that ends a paragraph.
public enum ParagraphMarkChange: Hashable, Sendable, Codable {
    /// The break was inserted (a split): rejecting merges this paragraph with the next.
    case inserted(Change)
    /// The break was deleted (a merge): accepting merges this paragraph with the next.
    case deleted(Change)
}

/// A tracked change to a paragraph's formatting: the paragraph shows the new style, `old` is what it was.
public struct ParagraphStyleChange: Hashable, Sendable, Codable {
    public var change: Change
    public var old: ParagraphStyle

    public init(change: Change, old: ParagraphStyle) {
        self.change = change
        self.old = old
    }
}

/// A tracked insertion or deletion of a whole table row.
public enum RowChange: Hashable, Sendable, Codable {
    case inserted(Change)
    case deleted(Change)
}

/// A comment. Its anchor lives in the text as `Inline.commentStart`/`commentEnd` (a range, which may cross
/// paragraphs and overlap other ranges) or `Inline.commentPoint`. A reply has `parentID` set and no anchor
/// of its own; replies follow their parent in reading order.
public struct Comment: Hashable, Sendable, Codable {
    public var id: String
    public var author: String?
    public var initials: String?
    public var date: String?
    public var body: [Block]
    public var resolved: Bool
    public var parentID: String?

    public init(id: String, author: String? = nil, initials: String? = nil, date: String? = nil,
                body: [Block], resolved: Bool = false, parentID: String? = nil) {
        self.id = id
        self.author = author
        self.initials = initials
        self.date = date
        self.body = body
        self.resolved = resolved
        self.parentID = parentID
    }
}

/// One tracked change or comment as `redline changes` lists it. `id` is what `--accept id=` matches
/// (`Change.id`, DOCX `w:id`, or the ordinal a reader assigned), `kind` what `kind=` matches.
public struct ChangeListItem: Hashable, Sendable, Codable {
    public var id: String
    /// The filter kind (`insertion`, `deletion`, `move`, `formatting`, `paragraph`, `table`, `comment`).
    public var kind: ChangeKind
    /// The source's element or construct (`w:ins`, `w:rPrChange`, `\deleted`, `{++ ++}`).
    public var element: String
    public var author: String?
    public var date: String?
    /// Where it is: `body`, `footnote 3`, `endnote 1`, `header1`, `footer2`, `comment 4`.
    public var story: String
    /// The 1-based number of the paragraph it is in, counted in its story (0 when unknown).
    public var paragraph: Int
    /// The text of the last heading before it in the body, when there is one.
    public var heading: String?
    /// The text before and after the change, in full; for a comment, the commented text and the comment.
    public var before: String
    public var after: String
    /// For a comment: the id of the comment it replies to (its thread), and whether it is resolved.
    public var thread: String?
    public var resolved: Bool?
    /// Whether the change directly follows the one listed before it, with no unchanged text between (a
    /// deletion directly followed by an insertion is one substitution in `redline changes`); nil when unknown.
    public var adjoins: Bool?

    public init(id: String, kind: ChangeKind, element: String, author: String? = nil, date: String? = nil,
                story: String = "body", paragraph: Int = 0, heading: String? = nil, before: String = "", after: String = "",
                thread: String? = nil, resolved: Bool? = nil) {
        self.id = id
        self.kind = kind
        self.element = element
        self.author = author
        self.date = date
        self.story = story
        self.paragraph = paragraph
        self.heading = heading
        self.before = before
        self.after = after
        self.thread = thread
        self.resolved = resolved
    }

    /// `text` on one line, at most `limit` characters (an ellipsis marks the cut).
    public static func shortened(_ text: String, limit: Int = 60) -> String {
        var s = ""
        var last: Character = " "
        for c in text {
            let ch: Character = c.isNewline || c == "\t" ? " " : c
            if ch == " " && last == " " { continue }
            s.append(ch)
            last = ch
        }
        while s.last == " " { s.removeLast() }
        guard s.count > limit else { return s }
        return String(s.prefix(limit - 1)) + "…"
    }
}

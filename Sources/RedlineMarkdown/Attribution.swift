import RedlineCore

/// What the text of one CriticMarkup comment `{>>…<<}` says, in any of the dialects Redline reads.
/// See docs/criticmarkup.md for the syntax and the rules that tell an author from ordinary text.
struct CommentText {
    var author: String?
    var date: String?
    var attributes: [AttributeToken] = []
    /// The Markdown body (after `|`, after `Name: `, or the whole text).
    var body: Substring
    /// True when the text is a header only (`@Ann (date) [...]` with no `|`) or a bare name: an attribution.
    var isAttributionOnly: Bool
    /// The range end marker `{>>/name<<}`: the name.
    var endMarker: String?

    func attribute(_ key: String) -> AttributeToken? { attributes.first { $0.key == key } }
    var hasFlag: (String) -> Bool { { k in attributes.contains { $0.key == k } } }
    var change: Change { Change(author: author, date: date) }
    /// An end marker, a paragraph style change or a row or cell change: a comment that stands alone,
    /// never an attribution of the change before it nor a reply.
    var isStandaloneMarker: Bool { endMarker != nil || hasFlag("style-change") || blockMark != nil }

    /// `[row-inserted]`, `[row-deleted]`, `[cell-inserted]`, `[cell-deleted]`, `[row-kept]` in a header without a body.
    var blockMark: BlockMark? {
        guard isAttributionOnly, endMarker == nil else { return nil }
        for a in attributes {
            switch a.key {
            case "row-inserted": return .row(.inserted(change))
            case "row-deleted": return .row(.deleted(change))
            case "cell-inserted": return .cell(.inserted(change))
            case "cell-deleted": return .cell(.deleted(change))
            case "row-kept": return .rowKept
            default: continue
            }
        }
        return nil
    }

    /// Reads a comment's raw text.
    init(_ raw: Substring) {
        body = raw
        isAttributionOnly = false
        if raw.first == "/", raw.count > 1, raw.dropFirst().allSatisfy(Self.isNameCharacter) {
            endMarker = String(raw.dropFirst())
            return
        }
        if raw.first == "@", parseHeader(raw.dropFirst()) { return }
        body = raw
        if let colon = Self.feedbackAuthor(raw) {
            author = String(raw[..<colon])
            body = raw[raw.index(colon, offsetBy: 2)...]
        } else if Self.isPersonName(raw) {
            author = String(raw)
            body = raw[raw.endIndex...]
            isAttributionOnly = true
        }
    }

    static func isNameCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "-" || c == "_" || c == "."
    }

    /// `Name (date) [attrs] | body` after the `@`. Read by Unicode scalars when the text is ASCII without
    /// a carriage return (there every scalar is a character, and scalars are much faster to step through:
    /// a document of 600,000 comments spent a fifth of its time here), else by characters.
    private mutating func parseHeader(_ s: Substring) -> Bool {
        if s.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return parseHeader(s, units: s.unicodeScalars) }
        return parseHeader(s, units: s)
    }

    /// `parseHeader` stepping through `units`, a view of `s` by characters or (ASCII only) by scalars
    /// (internal for `CommentHeaderTests`, which compares the two).
    mutating func parseHeader<Units: BidirectionalCollection>(_ s: Substring, units u: Units) -> Bool
        where Units.Index == String.Index, Units.Element: HeaderUnit {
        var i = u.startIndex
        // Text is taken a run at a time, from `run` up to `i`: a backslash ends a run, and the character
        // it escapes starts the next.
        var name = "", run = i
        func at(_ c: Units.Element) -> Bool { i < u.endIndex && u[i] == c }
        func skipSpaces() { while at(" ") || at("\t") { i = u.index(after: i) } }
        while i < u.endIndex, u[i] != "(", u[i] != "[", u[i] != "|", u[i] != "\n" {
            if u[i] == "\\", u.index(after: i) < u.endIndex { name += s[run..<i]; i = u.index(after: i); run = i }
            i = u.index(after: i)
        }
        name += s[run..<i]
        if at("\n") { return false }
        var date: String?
        if at("(") {
            i = u.index(after: i)
            var d = ""
            run = i
            while i < u.endIndex, u[i] != ")" {
                if u[i] == "\n" { return false }
                if u[i] == "\\", u.index(after: i) < u.endIndex { d += s[run..<i]; i = u.index(after: i); run = i }
                i = u.index(after: i)
            }
            d += s[run..<i]
            guard at(")") else { return false }
            i = u.index(after: i)
            date = d
            skipSpaces()
        }
        var attrs: [AttributeToken] = []
        if at("[") {
            let start = u.index(after: i)
            var j = start
            var quoted = false
            while j < u.endIndex {
                if u[j] == "\\", u.index(after: j) < u.endIndex { j = u.index(j, offsetBy: 2); continue }
                if u[j] == "\"" { quoted.toggle() }
                if u[j] == "]", !quoted { break }
                if u[j] == "\n" { return false }
                j = u.index(after: j)
            }
            guard j < u.endIndex, let parsed = AttributeList.parse(s[start..<j]) else { return false }
            attrs = parsed
            i = u.index(after: j)
            skipSpaces()
        }
        let trimmedName = name.trimmingSpaces
        author = trimmedName.isEmpty ? nil : trimmedName
        self.date = date
        attributes = attrs
        if i == u.endIndex {
            body = s[s.endIndex...]
            isAttributionOnly = true
            return true
        }
        guard at("|") else { return false }
        i = u.index(after: i)
        skipSpaces()
        body = s[i...]
        return true
    }

    /// Words that look like a name before a colon but are labels (`Note: fix this`), compared case-insensitively.
    static let labels: Set<String> = [
        "note", "notes", "nb", "n.b.", "todo", "to do", "fixme", "xxx", "question", "questions", "answer", "q", "a",
        "comment", "comments", "edit", "editor", "fix", "update", "warning", "caution", "important", "idea",
        "example", "reminder", "check", "done", "suggestion", "summary", "source", "ref", "reference", "see",
        "also", "tip", "hint", "issue", "problem", "bug", "fact", "claim", "quote", "aside", "re", "ps", "p.s.",
        "original", "new", "old", "alternative", "option", "typo", "spelling", "grammar", "style", "citation",
        "cite", "missing", "ok", "yes", "no", "why", "what", "how", "where", "when", "who", "translation",
        "context", "definition", "explanation", "clarify", "clarification", "expand", "cut", "delete", "add",
        "move", "keep", "rewrite", "rephrase", "consider", "maybe", "query", "response", "reply", "feedback",
        "action", "decision", "status", "draft", "version", "date", "time", "tag", "tags", "label", "link", "url",
        "page", "section", "chapter", "figure", "table", "footnote", "agreed", "disagree", "nice", "good",
        "great", "thanks", "thank you", "hmm", "sic", "fyi", "nota bene", "info", "error", "errata", "correction",
    ]

    static let particles: Set<String> = ["van", "von", "de", "der", "den", "da", "di", "du", "la", "le", "del",
                                         "della", "dos", "das", "bin", "al", "ten", "ter", "zu", "y"]

    /// The name rule shared by Markdown Feedback authors and bare attributions: one to four words, each
    /// starting with an upper-case letter (or a name particle such as "van", not first), made of letters and
    /// `.'’-`, ending in a letter (or an initial's "."), and not a common label (`Note`, `TODO`, `Question`...).
    ///
    /// The tests run cheapest first (each is necessary, so the order does not change the answer; every comment
    /// of a document is tried, and most are sentences): the first word's capital, the length (a text of at most
    /// 60 bytes has at most 60 characters, so only longer ones are counted), the number of words, then the
    /// lower-cased label. Guarded by `CommentAuthorRuleTests`.
    static func isPersonName(_ s: Substring) -> Bool {
        guard let initial = s.first, initial.isUppercase else { return false }
        guard s.utf8.count <= 60 || s.count <= 60 else { return false }
        let words = s.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count <= 4, !words.contains(where: \.isEmpty) else { return false }
        guard !labels.contains(s.lowercased()) else { return false }
        for (n, w) in words.enumerated() {
            guard let first = w.first, w.allSatisfy({ $0.isLetter || $0 == "." || $0 == "'" || $0 == "’" || $0 == "-" })
            else { return false }
            if !(first.isUppercase || (n > 0 && particles.contains(String(w)))) { return false }
        }
        guard let last = s.last else { return false }
        if last == "." {
            // Only an initial ("Ann S.") may end in a full stop.
            guard let lw = words.last, lw.count == 2, lw.first!.isUppercase else { return false }
        } else if !last.isLetter {
            return false
        }
        if words.count == 1, s.count < 2 { return false }
        return true
    }

    /// For Markdown Feedback's `Name: text`: the index of the colon, when the text before it is a name.
    /// Only the first 61 characters are searched: a first colon after them is too far (and the text is
    /// not stepped through to its end for every comment).
    static func feedbackAuthor(_ raw: Substring) -> Substring.Index? {
        guard let colon = raw.prefix(61).firstIndex(of: ":"),
              raw.index(after: colon) < raw.endIndex, raw[raw.index(after: colon)] == " ",
              raw.distance(from: raw.startIndex, to: colon) <= 60 else { return nil }
        return isPersonName(raw[..<colon]) ? colon : nil
    }

    // MARK: Writing

    /// The header `@Author (date) [attrs]` for a change or a comment (author nil writes `@`).
    static func header(author: String?, date: String?, attributes: [AttributeToken] = []) -> String {
        var s = "@"
        if let a = author { s += escapeName(a) }
        if let d = date { s += (author == nil ? "" : " ") + "(" + escapeDate(d) + ")" }
        if !attributes.isEmpty { s += " [" + AttributeList.write(attributes) + "]" }
        return s
    }

    static func escapeName(_ s: String) -> String {
        escape(s.replacingNewlines, "\\([|<>")
    }

    /// A date as written inside `(…)`.
    static func escapeDate(_ s: String) -> String {
        escape(s, ")\\<>")
    }

    private static func escape(_ s: String, _ chars: StaticString) -> String {
        // Names and dates rarely hold a character to escape (all ASCII): then the string is kept as is.
        let special = UnsafeBufferPointer(start: chars.utf8Start, count: chars.utf8CodeUnitCount)
        func hasSpecial(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for b in bytes { for c in special where c == b { return true } }
            return false
        }
        var copy = s
        guard copy.withUTF8(hasSpecial) else { return s }
        let chars = chars.description
        var out = ""
        for c in s {
            if chars.contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }

    var replacingNewlines: String {
        guard utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return self }
        return String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

/// A step of `CommentText.parseHeader`: a character, or a Unicode scalar of ASCII text.
protocol HeaderUnit: Equatable, ExpressibleByUnicodeScalarLiteral {}

extension Character: HeaderUnit {}

extension Unicode.Scalar: HeaderUnit {}

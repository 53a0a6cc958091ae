/// What to do with tracked changes, for every change that no filter selects.
public enum ChangeMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Keep every change as a change (the marked version).
    case marked
    /// Accept all changes (the clean version).
    case accept
    /// Reject all changes (the original version).
    case reject
}

/// The kinds of tracked change a filter can name (`kind=...`).
///
/// - `insertion`, `deletion`: inserted and deleted text (a substitution is one of each, decided apart);
/// - `move`: both ends of a move;
/// - `formatting`: character formatting changes;
/// - `paragraph`: inserted and deleted paragraph marks (splits, merges) and paragraph-property changes;
/// - `table`: inserted and deleted rows and cells, table, row and cell property changes;
/// - `comment`: comments (a comment a review decision selects is removed, as a finished review removes it).
public enum ChangeKind: String, Hashable, Sendable, Codable, CaseIterable {
    case insertion, deletion, move, formatting, paragraph, table, comment
}

/// One tracked change as a review decision sees it.
public struct ChangeInfo: Hashable, Sendable {
    public var kind: ChangeKind
    /// Author, date and the source's id (`Change.id`, which `redline changes` lists).
    public var change: Change

    public init(kind: ChangeKind, change: Change) {
        self.kind = kind
        self.change = change
    }
}

/// What happens to one change.
public enum ReviewDecision: Hashable, Sendable {
    case accept, reject, keep
}

/// A selection of changes: every condition given must hold (`author=Ann,kind=insertion,before=2024-02-01`).
///
/// Keys: `author=NAME` (case-insensitive; repeat the filter for several authors), `kind=K[,K...]`,
/// `before=DATE` and `after=DATE` (ISO 8601 dates or date-times, compared by their common prefix; a change
/// without a date matches neither), `id=N[,M...]`. In the text form, pairs are separated by commas; a
/// comma-separated piece without `=` continues the previous value (another kind or id, or part of an
/// author's name such as "Smith, Jane").
public struct ChangeFilter: Hashable, Sendable, Codable, CustomStringConvertible {
    public var author: String?
    public var kinds: Set<ChangeKind>?
    public var before: String?
    public var after: String?
    public var ids: Set<String>?

    public init(author: String? = nil, kinds: Set<ChangeKind>? = nil, before: String? = nil, after: String? = nil,
                ids: Set<String>? = nil) {
        self.author = author
        self.kinds = kinds
        self.before = before
        self.after = after
        self.ids = ids
    }

    /// Parses the text form; throws a usage error naming what is wrong.
    public init(parsing text: String) throws {
        self.init()
        var key: String?
        var values: [String] = []
        func flush() throws {
            guard let k = key else { return }
            try set(k, values)
        }
        for piece in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            if let eq = piece.firstIndex(of: "="),
               Self.keys.contains(piece[..<eq].trimmingSpaces.lowercased()) {
                try flush()
                key = piece[..<eq].trimmingSpaces.lowercased()
                values = [String(piece[piece.index(after: eq)...])]
            } else if key != nil {
                values.append(piece)
            } else {
                throw RedlineError.usage("filter '\(text)': expected key=value with a key of \(Self.keys.sorted().joined(separator: ", "))")
            }
        }
        try flush()
        if author == nil && kinds == nil && before == nil && after == nil && ids == nil {
            throw RedlineError.usage("filter '\(text)' selects nothing: give author=, kind=, before=, after= or id=")
        }
    }

    static let keys: Set<String> = ["author", "kind", "before", "after", "id"]

    private mutating func set(_ key: String, _ values: [String]) throws {
        switch key {
        case "author":
            let name = values.joined(separator: ",").trimmingSpaces
            guard !name.isEmpty else { throw RedlineError.usage("filter: author= needs a name") }
            author = name
        case "kind":
            var set = kinds ?? []
            for v in values.map(\.trimmingSpaces).map({ $0.lowercased() }) {
                guard let k = ChangeKind(rawValue: v) ?? (v == "format" ? .formatting : nil) else {
                    throw RedlineError.usage("filter: unknown kind '\(v)' (kinds: \(ChangeKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                set.insert(k)
            }
            kinds = set
        case "before", "after":
            let v = values.joined(separator: ",").trimmingSpaces
            guard Self.looksLikeDate(v) else {
                throw RedlineError.usage("filter: \(key)= needs an ISO 8601 date such as 2024-01-31 or 2024-01-31T12:00:00Z, not '\(v)'")
            }
            if key == "before" { before = v } else { after = v }
        default: // id
            var set = ids ?? []
            for v in values.map(\.trimmingSpaces) where !v.isEmpty { set.insert(v) }
            guard !set.isEmpty else { throw RedlineError.usage("filter: id= needs one or more ids") }
            ids = set
        }
    }

    /// True when the change meets every condition of this filter.
    public func matches(_ info: ChangeInfo) -> Bool {
        if let kinds, !kinds.contains(info.kind) { return false }
        if let author, info.change.author?.lowercased() != author.lowercased() { return false }
        if let ids {
            guard let id = info.change.id, ids.contains(id) else { return false }
        }
        if before != nil || after != nil {
            guard let date = info.change.date, !date.isEmpty else { return false }
            if let before, !(Self.compare(date, before) < 0) { return false }
            if let after, !(Self.compare(date, after) > 0) { return false }
        }
        return true
    }

    /// Compares two ISO 8601 stamps on their common prefix (`2024-01-31` against `2024-01-31T10:00Z` is equal).
    static func compare(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf8), y = Array(b.utf8)
        for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] ? -1 : 1 }
        return 0
    }

    static func looksLikeDate(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count >= 4, u.prefix(4).allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return false }
        return u.allSatisfy { ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 58 || $0 == 84 || $0 == 90 || $0 == 43 || $0 == 46 }
    }

    private enum CodingKeys: String, CodingKey { case author, kinds, before, after, ids }

    /// Encodes the sets sorted, so equal filters encode to equal bytes in every process (batch fingerprints).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(author, forKey: .author)
        try c.encodeIfPresent(kinds.map { $0.map(\.rawValue).sorted() }, forKey: .kinds)
        try c.encodeIfPresent(before, forKey: .before)
        try c.encodeIfPresent(after, forKey: .after)
        try c.encodeIfPresent(ids.map { $0.sorted() }, forKey: .ids)
    }

    /// The text form (`author=Ann,kind=insertion`), as parsed.
    public var description: String {
        var parts: [String] = []
        if let author { parts.append("author=\(author)") }
        if let kinds { parts.append("kind=" + kinds.map(\.rawValue).sorted().joined(separator: ",")) }
        if let before { parts.append("before=\(before)") }
        if let after { parts.append("after=\(after)") }
        if let ids { parts.append("id=" + ids.sorted().joined(separator: ",")) }
        return parts.joined(separator: ",")
    }
}

/// What happens to comments.
public enum CommentPolicy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Keep comments as comments.
    case keep
    /// Remove every comment.
    case drop
    /// Remove the comments marked resolved (done), with their replies.
    case dropResolved = "drop-resolved"
}

/// Every review decision of one conversion: all changes by `changes`, those that an `accept` or `reject`
/// filter selects by the filter (a change selected by both is rejected: the original text wins), and which
/// comments stay. One value shared by convert, export, check, scrivener and the in-place review paths.
public struct ReviewOptions: Hashable, Sendable, Codable {
    /// The decision for changes no filter selects.
    public var changes: ChangeMode
    public var accept: [ChangeFilter]
    public var reject: [ChangeFilter]
    /// nil: keep comments when changes stay marked, drop them from the clean and original versions.
    public var comments: CommentPolicy?
    /// Comments removed whatever `comments` says (author=, before=, after=, id=).
    public var dropComments: [ChangeFilter]
    /// Where the engines record which filters matched (`FilterTally`); nil: not recorded. Not encoded, and no
    /// part of the options' equality.
    public var tally: FilterTally?

    private enum CodingKeys: String, CodingKey { case changes, accept, reject, comments, dropComments }

    /// True when a filter selects some changes or comments (`--accept`, `--reject`, `--drop-comments`).
    public var hasFilters: Bool { !accept.isEmpty || !reject.isEmpty || !dropComments.isEmpty }

    public init(changes: ChangeMode = .marked, accept: [ChangeFilter] = [], reject: [ChangeFilter] = [],
                comments: CommentPolicy? = nil, dropComments: [ChangeFilter] = []) {
        self.changes = changes
        self.accept = accept
        self.reject = reject
        self.comments = comments
        self.dropComments = dropComments
    }

    /// True when every change stays as it is (nothing to resolve).
    public var keepsAllChanges: Bool { changes == .marked && accept.isEmpty && reject.isEmpty }

    /// True when the output keeps no review mark and no comment: every change is accepted or rejected (filters
    /// only choose which) and the comment policy drops them all. (A marked output may also have none; that is
    /// the document's, not the options'.)
    public var leavesNothingToReview: Bool { changes != .marked && effectiveComments == .drop }

    /// True when every change gets the same decision (`changes`), whatever it is.
    public var isUniform: Bool { accept.isEmpty && reject.isEmpty }

    /// The comment policy in force: explicit, or keep when changes stay marked and drop otherwise.
    public var effectiveComments: CommentPolicy { comments ?? (changes == .marked ? .keep : .drop) }

    /// The decision for one change.
    public func decision(for info: ChangeInfo) -> ReviewDecision {
        tally?.record(change: info, self)
        if reject.contains(where: { $0.matches(info) }) { return .reject }
        if accept.contains(where: { $0.matches(info) }) { return .accept }
        switch changes {
        case .marked: return .keep
        case .accept: return .accept
        case .reject: return .reject
        }
    }

    /// True when the comment stays: by the policy, the drop filters, and accept/reject filters naming
    /// `kind=comment` (a reviewed comment is removed).
    public func keeps(_ comment: Comment) -> Bool {
        let info = ChangeInfo(kind: .comment, change: Change(author: comment.author, date: comment.date, id: comment.id))
        tally?.record(comment: info, self)
        switch effectiveComments {
        case .drop: return false
        case .dropResolved where comment.resolved: return false
        case .keep, .dropResolved: break
        }
        if dropComments.contains(where: { $0.matches(info) }) { return false }
        if (accept + reject).contains(where: { $0.kinds?.contains(.comment) == true && $0.matches(info) }) { return false }
        return true
    }

    /// True when every comment stays (no comment stage is needed).
    public var keepsAllComments: Bool {
        effectiveComments == .keep && dropComments.isEmpty
            && !(accept + reject).contains { $0.kinds?.contains(.comment) == true }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}

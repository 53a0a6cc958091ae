import Foundation
import RedlineMarkdown
import RedlineCore
import RedlineConversion
import RedlineBatch

/// One thing `check` found in a document.
public struct CheckFinding: Codable, Sendable, Hashable {
    /// `changes`, `comments`, `resolved`, `links`, `footnotes` or `lossy:FROM->TO`.
    public var category: String
    /// A stable code: `change.insertion`, `comment.open`, `link.broken`, `footnote.missing`, or for
    /// lossy findings the reader's or writer's diagnostic code.
    public var code: String
    /// One readable line.
    public var message: String
    /// Where it is first found: a 1-based paragraph of the body, and for Markdown sources also the line.
    public var location: SourceLocation?
    /// The 1-based column (in characters) on `location.line`, for Markdown sources.
    public var column: Int?
    /// How many times it occurs (changes and losses are counted, not listed).
    public var count: Int
    /// True when `--fail-on` names its category.
    public var failing: Bool
    /// For a counted finding of a Markdown source: where each of its marks is (line and column), in
    /// source order; `location` and `column` are the first. GitHub annotations give one per mark.
    public var marks: [MarkPositions.Position]?

    public init(category: String, code: String, message: String, location: SourceLocation? = nil, count: Int = 1,
                failing: Bool = false, column: Int? = nil) {
        self.category = category
        self.code = code
        self.message = message
        self.location = location
        self.column = column
        self.count = count
        self.failing = failing
    }
}

/// Looks at a document chunk by chunk as it streams past and collects what `check` reports: tracked
/// changes, comments (open and resolved), internal links and their targets, note references and notes.
/// Paragraphs are numbered in reading order of the body (notes and comment bodies count where they are
/// referenced). A `ModelVisitor`: the defaults walk the chunk; the overrides tally what they meet.
struct DocumentInspector: ModelVisitor {
    private struct Tally {
        var count = 0
        var first: Int?
        var authors: [String] = []
    }

    private var paragraph = 0
    /// Inside a note or comment body: paragraphs there do not move the body's count.
    private var aside = false
    private var changes: [String: Tally] = [:]
    /// Moves seen, by name (both ends of a move are one change).
    private var moves = Set<String>()
    private var commentAnchors: [String: Int] = [:]
    private var comments: [(Comment, replies: Int, at: Int)] = []
    private var links: [(target: String, at: Int)] = []
    private var anchors = Set<String>()
    private var slugCounts: [String: Int] = [:]
    private var noteReferences: [(id: String, at: Int)] = []
    private var notes: [String: NoteKind] = [:]
    /// Where the marks are in a Markdown source: findings then carry a line and column too.
    var positions: MarkPositions?

    /// Looks at one chunk.
    mutating func inspect(_ chunk: Chunk) { visitChunk(chunk) }

    /// The block, then its notes and comment bodies, which do not move the body's paragraph count.
    mutating func visitChunk(_ chunk: Chunk) {
        visitBlock(chunk.block)
        let fallback = max(paragraph, 1)
        aside = true
        for note in chunk.notes { visitNote(note) }
        let replies = Dictionary(grouping: chunk.comments.filter { $0.parentID != nil }, by: { $0.parentID! })
        for c in chunk.comments {
            visitComment(c)
            if c.parentID == nil {
                comments.append((c, replies[c.id]?.count ?? 0, commentAnchors[c.id] ?? fallback))
            }
        }
        aside = false
    }

    mutating func visitNote(_ note: Note) {
        notes[note.id] = note.kind
        descend(into: note)
    }

    /// The code of internal links that could not be checked (never failing).
    static let unverified = "link.unverified"

    /// Everything found, in the order of the categories. With `bookmarksDropped` (the reader does not
    /// keep bookmarks, so a link to no heading may point at one), such links are reported once, as
    /// unverified, instead of as broken.
    /// `rows`: the document's changes as `redline changes` lists them; its counts are then check's (one count
    /// of changes), each category placed where the walk first met it, or at its first row's paragraph.
    func findings(bookmarksDropped: Bool = false, changes rows: [ChangeRow]? = nil) -> [CheckFinding] {
        var out: [CheckFinding] = []
        var changes = self.changes
        if let rows {
            var listed: [String: Tally] = [:]
            for r in rows where r.kind != .comment {
                let code = Self.code(of: r)
                var t = listed[code] ?? Tally()
                t.count += 1
                if t.first == nil { t.first = changes[code]?.first ?? (r.story == "body" ? max(r.paragraph, 1) : nil) }
                if let a = r.author, !a.isEmpty, !t.authors.contains(a) { t.authors.append(a) }
                listed[code] = t
            }
            changes = listed
        }
        for (code, noun) in Self.changeKinds {
            guard let t = changes[code] else { continue }
            var m = "\(t.count) tracked \(noun)\(t.count == 1 ? "" : "s")"
            if !t.authors.isEmpty {
                m += " by " + t.authors.prefix(3).joined(separator: ", ") + (t.authors.count > 3 ? " and others" : "")
            }
            var f = placed(CheckFinding(category: "changes", code: code, message: m, location: .init(paragraph: t.first),
                                        count: t.count), positions?.firstChange[code])
            if let all = positions?.changes[code], all.count > 1 { f.marks = all }
            out.append(f)
        }
        for (c, replies, at) in comments {
            let state = c.resolved ? "resolved" : "open"
            var m = "\(state) comment"
            if let a = c.author, !a.isEmpty { m += " by \(a)" }
            let text = c.body.map(\.plainText).joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if !text.isEmpty { m += ": \"" + (text.count > 80 ? String(text.prefix(79)) + "…" : text) + "\"" }
            if replies > 0 { m += " (\(replies) repl\(replies == 1 ? "y" : "ies"))" }
            out.append(placed(CheckFinding(category: c.resolved ? "resolved" : "comments", code: "comment.\(state)",
                                           message: m, location: .init(paragraph: at)), positions?.comments[c.id]))
        }
        let unmatched = links.filter { !anchors.contains(String($0.target.dropFirst())) }
        if bookmarksDropped, let first = unmatched.first {
            let shown = unmatched.prefix(3).map(\.target).joined(separator: ", ") + (unmatched.count > 3 ? ", ..." : "")
            let n = unmatched.count
            out.append(placed(CheckFinding(category: "links", code: Self.unverified,
                                           message: "\(n) internal link\(n == 1 ? "" : "s") (\(shown)) may point at bookmarks, which the reader does not keep: not checked",
                                           location: .init(paragraph: first.at), count: n), positions?.first("](" + first.target)))
        } else {
            for l in unmatched {
                out.append(placed(CheckFinding(category: "links", code: "link.broken",
                                               message: "link to \(l.target): no heading or anchor of that name",
                                               location: .init(paragraph: l.at)), positions?.first("](" + l.target)))
            }
        }
        var referenced = Set<String>()
        for r in noteReferences {
            referenced.insert(r.id)
            if notes[r.id] == nil {
                out.append(placed(CheckFinding(category: "footnotes", code: "footnote.missing",
                                               message: "reference to note \(r.id), which the document does not have",
                                               location: .init(paragraph: r.at)), positions?.first("[^" + r.id + "]")))
            }
        }
        for (id, kind) in notes.sorted(by: { $0.key < $1.key }) where !referenced.contains(id) {
            out.append(CheckFinding(category: "footnotes", code: "footnote.unreferenced",
                                    message: "\(kind.rawValue) \(id) is never referenced"))
        }
        return out
    }

    /// `finding` with the source line and column of `at`, when known.
    private func placed(_ finding: CheckFinding, _ at: MarkPositions.Position?) -> CheckFinding {
        guard let at else { return finding }
        var f = finding
        f.location = SourceLocation(line: at.line, paragraph: finding.location?.paragraph)
        f.column = at.column
        return f
    }

    static let changeKinds: [(String, String)] = [
        ("change.insertion", "insertion"), ("change.deletion", "deletion"), ("change.substitution", "substitution"),
        ("change.move", "move"), ("change.format", "formatting change"),
        ("change.paragraph-mark", "paragraph break change"), ("change.paragraph-style", "paragraph formatting change"),
        ("change.table-row", "table row change"), ("change.table", "table layout change"),
    ]

    /// The finding code of one row of `redline changes`.
    static func code(of row: ChangeRow) -> String {
        switch row.change {
        case "insertion": return "change.insertion"
        case "deletion": return "change.deletion"
        case "substitution": return "change.substitution"
        case "move": return "change.move"
        case "formatting": return "change.format"
        case "split", "join": return "change.paragraph-mark"
        case "paragraph formatting", "numbering": return "change.paragraph-style"
        case "row inserted", "row deleted": return "change.table-row"
        default: return row.kind == .table ? "change.table" : "change.format"
        }
    }

    // MARK: Walking

    mutating func visitBlock(_ block: Block) {
        switch block {
        case .heading(_, let p):
            visitParagraph(p)
            addHeadingAnchors(p.content.plainText)
        case .raw(_, let text):
            addRawAnchors(text)
        default:
            descend(into: block)
        }
    }

    mutating func visitRow(_ row: TableRow) {
        switch row.change {
        case .inserted(let c)?, .deleted(let c)?: tally("change.table-row", c)
        case nil: break
        }
        descend(into: row)
    }

    mutating func visitParagraph(_ p: Paragraph) {
        if !aside { paragraph += 1 }
        switch p.markChange {
        case .inserted(let c)?, .deleted(let c)?: tally("change.paragraph-mark", c)
        case nil: break
        }
        if let s = p.styleChange { tally("change.paragraph-style", s.change) }
        descend(into: p)
    }

    mutating func visitInline(_ i: Inline) {
        switch i {
        case .insertion(let c, _): tally("change.insertion", c)
        case .deletion(let c, _): tally("change.deletion", c)
        case .substitution(let c, _, _): tally("change.substitution", c)
        case .move(let m, _): if moves.insert(m.name).inserted { tally("change.move", m.change) }
        case .formatChange(let f, _): tally("change.format", f.change)
        case .commentStart(let id), .commentPoint(let id):
            if commentAnchors[id] == nil { commentAnchors[id] = max(paragraph, 1) }
        case .link(let l, _):
            if l.url.hasPrefix("#") && l.url.count > 1 { links.append((l.url, max(paragraph, 1))) }
        case .noteReference(let id):
            noteReferences.append((id, max(paragraph, 1)))
        case .raw(_, let text):
            addRawAnchors(text)
        default: break
        }
        descend(into: i)
    }

    private mutating func tally(_ code: String, _ change: Change) {
        var t = changes[code] ?? Tally()
        t.count += 1
        if t.first == nil { t.first = max(paragraph, 1) }
        if let a = change.author, !a.isEmpty, !t.authors.contains(a) { t.authors.append(a) }
        changes[code] = t
    }

    // MARK: Anchors

    /// The identifiers a heading answers to: GitHub's (`## Hello, World!` → `hello-world`, repeats get
    /// `-1`, `-2`) and pandoc's (leading non-letters dropped: `## 1. Intro` → `intro`).
    private mutating func addHeadingAnchors(_ text: String) {
        let github = Self.githubSlug(text)
        let n = slugCounts[github, default: 0]
        slugCounts[github] = n + 1
        anchors.insert(n == 0 ? github : "\(github)-\(n)")
        var pandoc = Substring(Self.pandocSlug(text))
        while let f = pandoc.first, !f.isLetter { pandoc = pandoc.dropFirst() }
        anchors.insert(pandoc.isEmpty ? "section" : String(pandoc))
    }

    static func githubSlug(_ text: String) -> String {
        String(text.lowercased().compactMap { c -> Character? in
            if c.isLetter || c.isNumber || c == "-" || c == "_" { return c }
            return c == " " ? "-" : nil
        })
    }

    static func pandocSlug(_ text: String) -> String {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
        return words.map { w in String(w.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }) }
            .filter { !$0.isEmpty }.joined(separator: "-")
    }

    /// `id="x"` and `name="x"` in raw HTML.
    private mutating func addRawAnchors(_ text: String) {
        for attr in ["id=\"", "name=\"", "id='", "name='"] {
            var rest = Substring(text)
            while let r = rest.range(of: attr) {
                let quote = attr.last!
                let after = rest[r.upperBound...]
                guard let end = after.firstIndex(of: quote) else { break }
                let before = r.lowerBound == rest.startIndex ? " " : rest[rest.index(before: r.lowerBound)]
                if before.isWhitespace { anchors.insert(String(after[..<end])) }
                rest = after[end...]
            }
        }
    }
}

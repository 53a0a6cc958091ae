import Foundation
import RedlineCore

/// The tracked changes and comments of a document, as `redline changes` lists them. A format with a
/// `ChangeLister` (DOCX) is listed from the file itself (one item per revision element and per comment, ids
/// its `w:id`), by the same walk that reviews it in place; other formats through their reader, changes numbered in reading order as
/// `ReviewTransform` numbers them, so a listed id is the one `--accept id=` selects on either path.
public enum ChangeListing {
    /// Every change and comment of `input`.
    public static func list(_ input: DocumentInput, format: Format, options: ReadOptions = ReadOptions()) throws -> [ChangeListItem] {
        try LargeStack.run {
            if let lister = format.changeLister { return try lister.list(input, limits: options.limits) }
            guard let reader = format.reader else { throw RedlineError.usage("Redline cannot read \(format.name)") }
            var source = try reader.open(input, options: options, diagnostics: Diagnostics())
            var numbering = NumberChanges()
            var list = ModelChangeList()
            while let chunk = try source.next() {
                try numbering.process(chunk) { list.add($0) }
            }
            return list.all
        }
    }

    /// The rows `redline changes` prints for `input`: one per change and per comment (`ChangeRow.rows`).
    public static func rows(_ input: DocumentInput, format: Format, options: ReadOptions = ReadOptions()) throws -> [ChangeRow] {
        ChangeRow.rows(try list(input, format: format, options: options))
    }

    /// How many changes `input` has: its rows that are not comments (`rows`). The one count of changes: `redline
    /// changes` lists this many, `check` reports this many and the review page's panel gives this total.
    public static func changeCount(_ input: DocumentInput, format: Format, options: ReadOptions = ReadOptions()) throws -> Int {
        try rows(input, format: format, options: options).filter { $0.kind != .comment }.count
    }

    /// The items as `redline changes` prints them (grouped into rows, `ChangeRow.rows`).
    public static func render(_ items: [ChangeListItem], as format: String) throws -> String {
        try render(ChangeRow.rows(items), as: format)
    }

    /// The rows as text (one line each, texts shortened), JSON (an array of objects, texts in full) or CSV
    /// (a header line, texts in full).
    public static func render(_ rows: [ChangeRow], as format: String) throws -> String {
        switch format {
        case "json":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(rows), as: UTF8.self) + "\n"
        case "csv":
            var out = "id,kind,change,author,date,story,paragraph,heading,before,after,to_story,to_paragraph,anchor,body,thread,resolved\r\n"
            for r in rows {
                let fields = [r.id, r.kind.rawValue, r.change, r.author ?? "", r.date ?? "", r.story, String(r.paragraph),
                              r.heading ?? "", r.before ?? "", r.after ?? "", r.toStory ?? "", r.toParagraph.map(String.init) ?? "",
                              r.anchor ?? "", r.body ?? "", r.thread ?? "", r.resolved.map { $0 ? "yes" : "no" } ?? ""]
                out += fields.map(csv).joined(separator: ",") + "\r\n"
            }
            return out
        case "text":
            var out = ""
            for r in rows {
                var line = "\(r.id)\t\(r.change)\t\(r.author ?? "-")\t\(r.date ?? "-")\t\(r.story) ¶\(r.paragraph)"
                if let ts = r.toStory, let tp = r.toParagraph { line += " → " + (ts == r.story ? "" : ts + " ") + "¶\(tp)" }
                if let h = r.heading { line += " under \"\(ChangeListItem.shortened(h))\"" }
                func q(_ s: String) -> String { "\"" + shown(s) + "\"" }
                if r.kind == .comment {
                    line += "\ton " + q(r.anchor ?? "") + ": " + q(r.body ?? "")
                } else if let b = r.before, let a = r.after, b != a {
                    line += "\t" + q(b) + " -> " + q(a)
                } else if let t = r.after ?? r.before {
                    line += "\t" + q(t)
                }
                if let t = r.thread { line += "\treply to \(t)" }
                if r.resolved == true { line += "\tresolved" }
                out += line + "\n"
            }
            return out
        default:
            throw RedlineError.usage("unknown listing format '\(format)' (text, json or csv)")
        }
    }

    /// A text for the terminal: whitespace-only text shown as it is (a deleted space is `" "`), other text
    /// on one line and cut at 60 characters.
    static func shown(_ s: String) -> String {
        if !s.isEmpty && s.allSatisfy({ $0.isWhitespace }) {
            return s.map { $0 == "\n" || $0 == "\r" ? "¶" : $0 == "\t" ? "⇥" : String($0) }.joined()
        }
        return ChangeListItem.shortened(s)
    }

    private static func csv(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// The `--accept`, `--reject` and `--drop-comments` filters that select nothing in a document, said so that a
/// person can fix the filter: the document's authors (for an author condition), kinds, ids or dates. Counted by the
/// engines as they decide (`FilterTally`, which `Converter` hands them in `ReviewOptions.tally`), on every route:
/// through the model, DOCX and RTF in place, single files, batches and the library alike.
public enum FilterReport {
    /// One filter that matched nothing, and the sentence saying so.
    public struct Unmatched: Sendable, Equatable {
        /// `--accept`, `--reject` or `--drop-comments`.
        public var option: String
        public var filter: ChangeFilter
        /// `--accept author=Raymond matched no change; the document's authors are "Raymond Smith", "Jane Doe"`.
        public var message: String
    }

    /// The filters of `review` that selected nothing, as the engines recorded them in `tally`.
    public static func unmatched(_ review: ReviewOptions, tally: FilterTally) -> [Unmatched] {
        let matched = tally.matched
        let changes = tally.changes, comments = tally.comments
        var out: [Unmatched] = []
        for (option, filters, hits, pool, noun) in [("--accept", review.accept, matched.accept, changes, "change"),
                                                    ("--reject", review.reject, matched.reject, changes, "change"),
                                                    ("--drop-comments", review.dropComments, matched.dropComments, comments, "comment")] {
            for (i, f) in filters.enumerated() where !hits.contains(i) {
                out.append(Unmatched(option: option, filter: f,
                                     message: "\(option) \(f) matched no \(noun); " + hint(f, pool: pool, noun: noun)))
            }
        }
        return out
    }

    /// The filters of `review` that select nothing among `items` (a listing of the document).
    public static func unmatched(_ review: ReviewOptions, items: [ChangeListItem]) -> [Unmatched] {
        var r = review
        let tally = FilterTally()
        r.tally = tally
        for i in items {
            if i.kind == .comment {
                _ = r.keeps(Comment(id: i.id, author: i.author, date: i.date, body: []))
            } else {
                _ = r.decision(for: ChangeInfo(kind: i.kind, change: Change(author: i.author, date: i.date, id: i.id)))
            }
        }
        return unmatched(r, tally: tally)
    }

    /// Reports the filters of `review` that selected nothing (`review.filter-unmatched`), once a conversion has
    /// decided every change with `tally`; with `strict`, throws instead (`--strict-filters`: the conversion fails).
    public static func report(_ review: ReviewOptions, tally: FilterTally, strict: Bool, into diagnostics: Diagnostics) throws {
        let unmatched = unmatched(review, tally: tally)
        guard !unmatched.isEmpty else { return }
        let message = unmatched.map(\.message).joined(separator: "; and ")
        if strict { throw RedlineError.usage("\(message) (--strict-filters)") }
        diagnostics.report(.reviewFilterUnmatched, message)
    }

    /// What the document has that the filter's conditions could have named.
    static func hint(_ f: ChangeFilter, pool: FilterTally.Pool, noun: String) -> String {
        guard pool.count > 0 else { return "the document has no \(noun)s" }
        func quoted(_ values: [String]) -> String {
            let shown = values.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ")
            return values.count > 12 ? shown + " and \(values.count - 12) more" : shown
        }
        var parts: [String] = []
        if f.author != nil {
            let named = pool.authors.filter { !$0.isEmpty }
            parts.append(named.isEmpty ? "its \(noun)s have no author" : "the document's authors are " + quoted(named))
        }
        if f.kinds != nil {
            parts.append("its kinds are " + pool.kinds.map(\.rawValue).joined(separator: ", "))
        }
        if f.ids != nil {
            let ids = pool.ids
            parts.append("its ids are " + ids.prefix(20).joined(separator: ",") + (ids.count > 20 ? ",… (see redline changes)" : ""))
        }
        if f.before != nil || f.after != nil {
            if let first = pool.firstDate, let last = pool.lastDate {
                parts.append("its \(noun)s are dated \(first) to \(last)")
            } else {
                parts.append("its \(noun)s have no dates")
            }
        }
        if parts.count > 1 || (parts.count == 1 && [f.author != nil, f.kinds != nil, f.ids != nil, f.before != nil || f.after != nil].filter { $0 }.count > 1) {
            parts.append("every condition of a filter must hold")
        }
        return parts.isEmpty ? "the document has \(pool.count) \(noun)s" : parts.joined(separator: "; ")
    }
}

/// One row of `redline changes`: a change as a reader sees it, not as the file stores it. A move is one row
/// with both places (`story`/`paragraph` where it came from, `toStory`/`toParagraph` where it went), a
/// substitution (a deletion directly followed by an insertion by the same author) one row with `before` and
/// `after`, an inserted or deleted paragraph mark a `split` or `join`, a comment one row with `anchor` (the
/// text it is on) and `body`. Empty move range markers are folded into their move. `id` lists the ids of
/// every element in the row, comma-separated: exactly what `--accept id=` takes to decide the whole row.
public struct ChangeRow: Hashable, Sendable, Codable {
    public var id: String
    /// The filter kind (`kind=`).
    public var kind: ChangeKind
    /// What happened: insertion, deletion, substitution, move, formatting, paragraph formatting, numbering,
    /// split, join, row inserted, row deleted, table, comment, conflict (a comment `redline combine` wrote for
    /// a reviewer's change that lost a conflict).
    public var change: String
    public var author: String?
    public var date: String?
    public var story: String
    public var paragraph: Int
    public var heading: String?
    /// The text before and after the change, in full (nil where the change has no such side).
    public var before: String?
    public var after: String?
    /// A move's destination.
    public var toStory: String?
    public var toParagraph: Int?
    /// A comment's commented text and its body.
    public var anchor: String?
    public var body: String?
    public var thread: String?
    public var resolved: Bool?
    /// The source's elements the row stands for (`w:moveFromRangeStart`, `w:moveFrom`, ...).
    public var elements: [String]

    /// The rows of a listing, in reading order (comments after the changes, as listed).
    public static func rows(_ items: [ChangeListItem]) -> [ChangeRow] {
        var rows: [ChangeRow] = []
        /// For each row that is half a move: which half (true: where it came from).
        var halves: [Int: Bool] = [:]
        /// The open half of each direction: its row, kept open by a range marker until the next marker.
        var open: [Bool: Int] = [:]
        func addID(_ r: Int, _ id: String) {
            let old = rows[r].id.split(separator: ",").map(String.init)
            if !id.isEmpty && !old.contains(id) { rows[r].id = rows[r].id.isEmpty ? id : rows[r].id + "," + id }
        }
        for (i, it) in items.enumerated() {
            let e = it.element
            if it.kind == .comment {
                // `redline combine` records a reviewer's change that lost a conflict as such a comment.
                let change = it.after.hasPrefix(CombineConflict.commentPrefix) ? "conflict" : "comment"
                rows.append(ChangeRow(id: it.id, kind: .comment, change: change, author: it.author, date: it.date,
                                      story: it.story, paragraph: it.paragraph, heading: it.heading, anchor: it.before,
                                      body: it.after, thread: it.thread, resolved: it.resolved, elements: [e]))
                continue
            }
            if it.kind == .move {
                let isFrom = e.contains("moveFrom") || e.hasSuffix("move from")
                let isMarker = e.hasSuffix("RangeStart")
                let text = isFrom ? it.before : it.after
                let previousIsSameHalf = i > 0 && rows.indices.last.map { halves[$0] == isFrom } == true
                    && items[i - 1].kind == .move && rows.last?.author == it.author
                if !isMarker, let r = open[isFrom] ?? (previousIsSameHalf ? rows.count - 1 : nil),
                   rows[r].author == it.author, halves[r] == isFrom {
                    addID(r, it.id)
                    rows[r].elements.append(e)
                    if isFrom { rows[r].before = (rows[r].before ?? "") + text } else { rows[r].after = (rows[r].after ?? "") + text }
                    continue
                }
                var row = ChangeRow(id: it.id, kind: .move, change: "move", author: it.author, date: it.date, story: it.story,
                                    paragraph: it.paragraph, heading: it.heading, elements: [e])
                if !isMarker { if isFrom { row.before = text } else { row.after = text } }
                rows.append(row)
                halves[rows.count - 1] = isFrom
                open[isFrom] = isMarker ? rows.count - 1 : nil
                continue
            }
            var row = ChangeRow(id: it.id, kind: it.kind, change: describe(it), author: it.author, date: it.date, story: it.story,
                                paragraph: it.paragraph, heading: it.heading, elements: [e])
            switch row.change {
            case "insertion", "split", "row inserted": row.after = it.after
            case "deletion", "join", "row deleted": row.before = it.before
            default:
                if !it.before.isEmpty || !it.after.isEmpty { row.before = it.before; row.after = it.after }
            }
            // A deletion directly followed by an insertion by the same author: one substitution.
            if row.change == "insertion", it.adjoins != false, i > 0, items[i - 1].kind == .deletion, let last = rows.last,
               last.change == "deletion", last.author == it.author, last.story == it.story, last.paragraph == it.paragraph {
                let r = rows.count - 1
                rows[r].change = "substitution"
                addID(r, it.id)
                rows[r].after = it.after
                rows[r].elements.append(e)
                continue
            }
            rows.append(row)
        }
        // Each move's two halves into one row where the first stands: the same author and the same text, else the
        // same author and date.
        var gone: Set<Int> = []
        for r in rows.indices.sorted() where halves[r] != nil && !gone.contains(r) {
            let isFrom = halves[r]!
            let mine = norm((isFrom ? rows[r].before : rows[r].after) ?? "")
            let candidates = rows.indices.filter { k in
                k > r && !gone.contains(k) && halves[k] == !isFrom && rows[k].author == rows[r].author
            }
            guard let k = candidates.first(where: { norm((isFrom ? rows[$0].after : rows[$0].before) ?? "") == mine })
                    ?? candidates.first(where: { rows[$0].date == rows[r].date }) else { continue }
            let other = rows[k]
            addID(r, other.id)
            rows[r].elements += other.elements
            if isFrom {
                rows[r].after = other.after
                rows[r].toStory = other.story
                rows[r].toParagraph = other.paragraph
            } else {
                // The destination comes first in reading order: the row still says where it came from.
                rows[r].before = other.before
                rows[r].toStory = rows[r].story
                rows[r].toParagraph = rows[r].paragraph
                rows[r].story = other.story
                rows[r].paragraph = other.paragraph
                rows[r].heading = other.heading
            }
            gone.insert(k)
        }
        // A moved paragraph's mark (`w:moveFrom` in its properties) is part of the move of its text.
        let marksOnly: (ChangeRow) -> Bool = { $0.elements.allSatisfy { $0.hasSuffix("(paragraph mark)") } }
        for r in rows.indices where rows[r].kind == .move && !gone.contains(r) && marksOnly(rows[r]) {
            guard let k = rows.indices.first(where: { k in
                k != r && !gone.contains(k) && rows[k].kind == .move && !marksOnly(rows[k]) && rows[k].author == rows[r].author
                    && rows[k].date == rows[r].date && rows[k].story == rows[r].story && rows[k].paragraph == rows[r].paragraph
                    && rows[k].toStory == rows[r].toStory && rows[k].toParagraph == rows[r].toParagraph
            }) else { continue }
            let (keep, drop) = r < k ? (r, k) : (k, r)
            let text = rows[k]
            for id in rows[drop].id.split(separator: ",") { addID(keep, String(id)) }
            rows[keep].elements = rows[r].elements + rows[k].elements
            rows[keep].before = text.before
            rows[keep].after = text.after
            gone.insert(drop)
        }
        return rows.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
    }

    /// What a listed element means, in a reader's words.
    static func describe(_ it: ChangeListItem) -> String {
        let e = it.element
        switch it.kind {
        case .insertion: return "insertion"
        case .deletion: return "deletion"
        case .formatting: return "formatting"
        case .table:
            if e.contains("inserted row") || e.hasSuffix(":ins") || e == "w:ins" { return "row inserted" }
            if e.contains("deleted row") || e.hasSuffix(":del") || e == "w:del" { return "row deleted" }
            return "table"
        case .paragraph:
            if e == "inserted paragraph mark" || e == "w:ins (paragraph mark)" || e.hasSuffix("ins (paragraph mark)") { return "split" }
            if e == "deleted paragraph mark" || e.hasSuffix("del (paragraph mark)") { return "join" }
            if e.contains("numbering") { return "numbering" }
            return "paragraph formatting"
        default: return it.kind.rawValue
        }
    }

    private static func norm(_ s: String) -> String { ChangeListItem.shortened(s, limit: .max) }
}

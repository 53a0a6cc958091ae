import Foundation
import RedlineCore

/// Finding passages in a document's paragraphs and changing them in the model: the text a passage is
/// matched against is a paragraph's current text (inserted text counts, deleted text and the old side of a
/// move do not; a soft break counts as a space, a line break as a newline). A passage lies within one
/// paragraph (or heading, list-item paragraph, table-cell paragraph) of the body.
enum TextEdits {
    /// One place a passage was found: the paragraph's number in reading order and the UTF-8 range.
    struct Match: Equatable {
        var paragraph: Int
        var start: Int
        var end: Int
    }

    /// The current text of each paragraph of the body, in reading order.
    static func paragraphTexts(_ doc: Document) -> [String] {
        var collector = ParagraphCollector()
        _ = collector.rewriteBlocks(doc.blocks)
        return collector.texts
    }

    /// Every occurrence of `needle` in the paragraphs (non-overlapping, in reading order).
    static func occurrences(of needle: String, in texts: [String]) -> [Match] {
        guard !needle.isEmpty else { return [] }
        let n = Array(needle.utf8)
        var out: [Match] = []
        for (i, t) in texts.enumerated() {
            for s in byteOccurrences(of: n, in: Array(t.utf8)) { out.append(Match(paragraph: i, start: s, end: s + n.count)) }
        }
        return out
    }

    /// Byte offsets of the non-overlapping occurrences of `needle` in `hay` that start on a scalar boundary.
    static func byteOccurrences(of needle: [UInt8], in hay: [UInt8]) -> [Int] {
        guard !needle.isEmpty, needle.count <= hay.count else { return [] }
        var out: [Int] = []
        var i = 0
        let last = hay.count - needle.count
        let first = needle[0]
        while i <= last {
            if hay[i] == first, hay[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(i)
                i += needle.count
            } else {
                i += 1
            }
        }
        return out
    }

    /// The single occurrence a call means: `occurrence` (1-based) when given, else the only one.
    static func locate(_ needle: String, in doc: Document, occurrence: Int?, what: String) throws -> Match {
        guard !needle.isEmpty else { throw ToolError("\(what) is empty") }
        let all = occurrences(of: needle, in: paragraphTexts(doc))
        if all.isEmpty {
            throw ToolError("\(what) \(quoted(needle)) was not found in the document's current text (a passage must lie within one paragraph; deleted text does not count)")
        }
        if let occurrence {
            guard occurrence >= 1, occurrence <= all.count else {
                throw ToolError("\(what) \(quoted(needle)) occurs \(all.count) time(s); occurrence \(occurrence) does not exist")
            }
            return all[occurrence - 1]
        }
        guard all.count == 1 else {
            throw ToolError("\(what) \(quoted(needle)) is ambiguous: it occurs \(all.count) times; give more of the surrounding text or an occurrence number")
        }
        return all[0]
    }

    /// Where `find` lies: inside the one occurrence of `context` when given (`find` must occur once in it),
    /// else the one occurrence of `find`.
    static func locate(find: String, context: String?, in doc: Document, occurrence: Int?) throws -> Match {
        guard let context, !context.isEmpty else { return try locate(find, in: doc, occurrence: occurrence, what: "find") }
        let c = try locate(context, in: doc, occurrence: occurrence, what: "context")
        let inside = byteOccurrences(of: Array(find.utf8), in: Array(context.utf8))
        guard !find.isEmpty else { throw ToolError("find is empty") }
        guard !inside.isEmpty else { throw ToolError("find \(quoted(find)) does not occur in its context \(quoted(context))") }
        guard inside.count == 1 else {
            throw ToolError("find \(quoted(find)) occurs \(inside.count) times in its context \(quoted(context)); make the context name one")
        }
        return Match(paragraph: c.paragraph, start: c.start + inside[0], end: c.start + inside[0] + find.utf8.count)
    }

    /// `doc` with the passage at `match` anchored to a new comment.
    static func addComment(to doc: Document, at match: Match, comment: Comment) -> Document {
        var d = doc
        var r = ParagraphEditor(target: match.paragraph) { inlines in
            var offset = 0
            return Splicer.anchor(inlines, offset: &offset, start: match.start, end: match.end, id: comment.id)
        }
        d.blocks = r.rewriteBlocks(d.blocks)
        // Comments are kept in reading order of their anchors: the new one goes before the first comment
        // anchored in a later paragraph (or at the end).
        let later = commentIDs(after: match, in: d)
        if let i = d.comments.firstIndex(where: { later.contains($0.id) && $0.parentID == nil }) {
            d.comments.insert(comment, at: i)
        } else {
            d.comments.append(comment)
        }
        return d
    }

    /// `doc` with the passage at `match` replaced by `replacement` (which takes the formatting of the text
    /// where the passage starts).
    static func replace(in doc: Document, at match: Match, with replacement: String) -> Document {
        var d = doc
        var r = ParagraphEditor(target: match.paragraph) { inlines in
            var offset = 0
            return Splicer.replace(inlines, offset: &offset, start: match.start, end: match.end, with: replacement)
        }
        d.blocks = r.rewriteBlocks(d.blocks)
        return d
    }

    /// A fresh comment id: one more than the largest numeric id, or a new name.
    static func newCommentID(_ doc: Document) -> String {
        let used = Set(doc.comments.map(\.id))
        let numeric = doc.comments.compactMap { Int($0.id) }
        var n = (numeric.max() ?? 0) + 1
        while used.contains(String(n)) { n += 1 }
        return String(n)
    }

    /// Ids of the comments anchored after the match (in paragraphs after it).
    private static func commentIDs(after match: Match, in doc: Document) -> Set<String> {
        var c = AnchorCollector(after: match.paragraph)
        _ = c.rewriteBlocks(doc.blocks)
        return c.ids
    }

    static func quoted(_ s: String) -> String {
        let short = s.count > 80 ? String(s.prefix(77)) + "..." : s
        return "\"" + short + "\""
    }
}

/// The current text of inlines (see `TextEdits`).
enum CurrentText {
    static func of(_ inlines: [Inline]) -> String {
        var out = ""
        append(inlines, to: &out)
        return out
    }

    static func append(_ inlines: [Inline], to out: inout String) {
        for i in inlines {
            switch i {
            case .text(let s), .code(let s): out += s
            case .lineBreak: out += "\n"
            case .softBreak: out += " "
            case .deletion: break
            case .substitution(_, _, let inserted): append(inserted, to: &out)
            case .move(let m, let c): if m.side == .to { append(c, to: &out) }
            case .image, .raw, .noteReference, .commentStart, .commentEnd, .commentPoint: break
            default: append(i.children, to: &out)
            }
        }
    }
}

/// Splits leaves at offsets of the current text and splices in anchors or replacement text.
enum Splicer {
    /// The width of a leaf in the current text, and whether it can be split.
    private static func width(_ i: Inline) -> Int? {
        switch i {
        case .text(let s), .code(let s): return s.utf8.count
        case .lineBreak, .softBreak: return 1
        default: return nil
        }
    }

    private static func split(_ i: Inline, at k: Int) -> (Inline?, Inline?) {
        func make(_ bytes: ArraySlice<UInt8>) -> Inline? {
            guard !bytes.isEmpty else { return nil }
            let s = String(decoding: bytes, as: UTF8.self)
            if case .code = i { return .code(s) }
            return .text(s)
        }
        switch i {
        case .text(let s), .code(let s):
            let b = Array(s.utf8)
            return (make(b[..<k]), make(b[k...]))
        default:
            return k == 0 ? (nil, i) : (i, nil)
        }
    }

    /// Whether an inline's children are not part of the current text (skipped, never entered).
    private static func isHidden(_ i: Inline) -> Bool {
        switch i {
        case .deletion: return true
        case .move(let m, _): return m.side == .from
        default: return false
        }
    }

    /// Inserts `commentStart(id)` before the byte at `start` and `commentEnd(id)` after the byte before `end`.
    static func anchor(_ inlines: [Inline], offset: inout Int, start: Int, end: Int, id: String) -> [Inline] {
        var out: [Inline] = []
        for i in inlines {
            if let w = width(i) {
                let from = offset, to = offset + w
                offset = to
                var pieces: [Inline] = []
                var rest: Inline? = i
                var restFrom = from
                if start >= from, start < to, let r = rest {
                    let (a, b) = split(r, at: start - restFrom)
                    if let a { pieces.append(a) }
                    pieces.append(.commentStart(id))
                    rest = b
                    restFrom = start
                }
                if end > from, end <= to, let r = rest {
                    let (a, b) = split(r, at: end - restFrom)
                    if let a { pieces.append(a) }
                    pieces.append(.commentEnd(id))
                    rest = b
                }
                if let r = rest { pieces.append(r) }
                out += pieces
                continue
            }
            if isHidden(i) { out.append(i); continue }
            if case .substitution(let ch, let d, let ins) = i {
                out.append(.substitution(ch, deleted: d, inserted: anchor(ins, offset: &offset, start: start, end: end, id: id)))
                continue
            }
            out.append(i.mapChildren { anchor($0, offset: &offset, start: start, end: end, id: id) })
        }
        return out
    }

    /// Replaces the current text in [start, end) with `text` (put where `start` is).
    static func replace(_ inlines: [Inline], offset: inout Int, start: Int, end: Int, with text: String) -> [Inline] {
        var out: [Inline] = []
        for i in inlines {
            if let w = width(i) {
                let from = offset, to = offset + w
                offset = to
                guard w > 0, from < end, to > start else { out.append(i); continue }
                // Overlaps [start, end): keep what lies before and after, put the text where start is.
                if start > from, let before = split(i, at: start - from).0 { out.append(before) }
                if start >= from, !text.isEmpty {
                    if case .code = i { out.append(.code(text)) } else { out.append(.text(text)) }
                }
                if end < to, let after = split(i, at: end - from).1 { out.append(after) }
                continue
            }
            if isHidden(i) { out.append(i); continue }
            if case .substitution(let ch, let d, let ins) = i {
                out.append(.substitution(ch, deleted: d, inserted: replace(ins, offset: &offset, start: start, end: end, with: text)))
                continue
            }
            let before = i.children
            let rewritten = i.mapChildren { replace($0, offset: &offset, start: start, end: end, with: text) }
            // A formatting span whose whole text was replaced away is dropped rather than left empty.
            if !before.isEmpty, rewritten.children.isEmpty { continue }
            out.append(rewritten)
        }
        return out
    }
}

/// Collects the current text of every paragraph in reading order.
private struct ParagraphCollector: ModelRewriter {
    var texts: [String] = []
    mutating func rewriteParagraph(_ paragraph: Paragraph) -> Paragraph {
        texts.append(CurrentText.of(paragraph.content))
        return paragraph
    }
}

/// Rewrites the content of the paragraph with one number (in `ParagraphCollector`'s order).
private struct ParagraphEditor: ModelRewriter {
    let target: Int
    let edit: ([Inline]) -> [Inline]
    var index = 0
    init(target: Int, edit: @escaping ([Inline]) -> [Inline]) {
        self.target = target
        self.edit = edit
    }
    mutating func rewriteParagraph(_ paragraph: Paragraph) -> Paragraph {
        defer { index += 1 }
        guard index == target else { return paragraph }
        var p = paragraph
        p.content = edit(p.content)
        return p
    }
}

/// The ids of comments whose anchors start in paragraphs after `after`.
private struct AnchorCollector: ModelRewriter {
    let after: Int
    var index = 0
    var ids: Set<String> = []
    init(after: Int) { self.after = after }
    mutating func rewriteParagraph(_ paragraph: Paragraph) -> Paragraph {
        defer { index += 1 }
        if index > after { collect(paragraph.content) }
        return paragraph
    }
    mutating func collect(_ inlines: [Inline]) {
        for i in inlines {
            switch i {
            case .commentStart(let id), .commentPoint(let id): ids.insert(id)
            default: collect(i.children)
            }
        }
    }
}

import Foundation
import RedlineCore

/// Review decisions applied to an RTF file in place: the token stream is rewritten with the decided
/// changes applied (`RTFReviewRewriter`) and every other byte copied, so the font, colour and style
/// tables, the revision table, the information group, pictures, headers, fields and every control word
/// Redline does not read stay exactly as they were. Change ids are the reader's (`RTFChangeNumbering`).
public enum RTFInPlaceReview {
    /// Applies `review` to the RTF `input` and hands the new file's bytes to `write` in blocks.
    /// Returns whether anything changed.
    @discardableResult
    public static func apply(_ input: DocumentInput, review: ReviewOptions, limits: Limits = Limits(),
                             write: @escaping ([UInt8]) throws -> Void) throws -> Bool {
        try checkHeader(input)
        let comments = try commentDecisions(input, review: review)
        var rewriter = try RTFReviewRewriter(input, review: review, comments: comments, sink: write)
        try rewriter.run()
        return rewriter.changed
    }

    /// Throws unless `input` starts as RTF does (`{\rtf`, after white space).
    static func checkHeader(_ input: DocumentInput) throws {
        var lexer = try RTFRawLexer(input)
        var t = try lexer.next()
        while t.kind == .ignorable || (t.kind == .text && lexer.raw.allSatisfy { $0 == 32 || $0 == 9 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }) {
            t = try lexer.next()
        }
        let w = t.kind == .groupStart ? try lexer.next() : t
        guard t.kind == .groupStart, w.kind == .word, w.name == RTFWordKey("rtf") else {
            throw RedlineError.malformed("\(input.displayName) is not an RTF file (it does not start with {\\rtf)")
        }
    }

    /// Which annotations `review` removes. Per-comment options (filters, `drop-resolved`) need a first pass
    /// over the file for each annotation's author, date and id, which come after its range starts.
    static func commentDecisions(_ input: DocumentInput, review: ReviewOptions) throws -> RTFCommentDecisions {
        var d = RTFCommentDecisions()
        if review.keepsAllComments { return d }
        if review.effectiveComments == .drop { d.all = true; return d }
        var lexer = try RTFRawLexer(input)
        var depth = 0
        var fallback = [1]
        var codePage = 1252
        var collecting: (field: String, depth: Int, text: RTFReviewText)?
        var annotationDepth: Int?
        var initials: String?, author: String?
        var ref: String?, date: String?, parent: String?
        var count = 0
        while true {
            let t = try lexer.next()
            if t.kind == .end { break }
            switch t.kind {
            case .groupStart:
                depth += 1
                fallback.append(fallback.last ?? 1)
            case .groupEnd:
                if let c = collecting, c.depth == depth {
                    let v = c.text.value
                    switch c.field {
                    case "atnid": initials = v.isEmpty ? nil : v
                    case "atnauthor": author = v.isEmpty ? nil : v
                    case "atnref": ref = v
                    case "atndate": date = Int(v).flatMap(dateFromDTTM)
                    default: parent = v.isEmpty ? nil : v
                    }
                    collecting = nil
                }
                if let a = annotationDepth, a == depth {
                    count += 1
                    let id = ref.flatMap { $0.isEmpty ? nil : $0 } ?? "rtf-annotation-\(count)"
                    let c = Comment(id: id, author: author, initials: initials, date: date, body: [], parentID: parent)
                    let drop = !review.keeps(c)
                    d.annotations.append(drop)
                    if drop, let r = ref, !r.isEmpty { d.ranges.insert(r) }
                    annotationDepth = nil
                    initials = nil; author = nil; ref = nil; date = nil; parent = nil
                }
                depth -= 1
                if fallback.count > 1 { fallback.removeLast() }
            case .word:
                if t.name == RTFWordKey("bin") { lexer.expectBinary(t.param ?? 0) }
                else if t.name == RTFWordKey("uc") { fallback[fallback.count - 1] = max(0, min(t.param ?? 1, 16)) }
                else if t.name == RTFWordKey("ansicpg"), let v = t.param, CodePageDecoder.isSupported(v) { codePage = v }
                else if t.name == RTFWordKey("annotation") { annotationDepth = depth }
                else if collecting == nil {
                    for f in ["atnid", "atnauthor", "atnref", "atndate", "atnparent"] where t.name == RTFWordKey(f) {
                        collecting = (f, depth, RTFReviewText(codePage: codePage))
                    }
                } else {
                    collecting?.text.add(t, raw: lexer.raw, fallback: fallback.last ?? 1)
                }
            case .text, .hex, .symbol:
                collecting?.text.add(t, raw: lexer.raw, fallback: fallback.last ?? 1)
            default:
                break
            }
        }
        return d
    }
}

import RedlineCore

/// Where the CriticMarkup marks of a Markdown source are, as line and column (1-based; columns count
/// characters), for reports that point at the source (`redline check --format github`). Found by the
/// reader's own first pass (`CriticScanner`), so a mark here is a mark the reader sees: attributions,
/// moves and formatting changes are told apart from comments as the reader tells them.
public struct MarkPositions: Sendable {
    /// A place in the source.
    public struct Position: Hashable, Sendable, Codable {
        public var line: Int
        public var column: Int
        public init(line: Int, column: Int) { self.line = line; self.column = column }
    }

    /// Every mark of each kind of change, in source order, by the codes `check` reports
    /// (`change.insertion`, `change.deletion`, `change.substitution`, `change.move` (both ends),
    /// `change.format`, `change.paragraph-style`).
    public var changes: [String: [Position]] = [:]
    /// The first mark of each kind of change.
    public var firstChange: [String: Position] { changes.compactMapValues(\.first) }
    /// Where each comment is anchored (its `{==` range start, or the `{>>` of a point comment), by the
    /// comment id the reader gives it.
    public var comments: [String: Position] = [:]
    private var text: [UInt8] = []
    private var lineStarts: [Int] = [0]

    /// Scans `raw` (a whole Markdown file) as the reader does.
    public init(scanning raw: [UInt8]) throws {
        text = MarkdownSource.normalized(raw)
        for (k, b) in text.enumerated() where b == UInt8(ascii: "\n") { lineStarts.append(k + 1) }
        let (_, bodyStart, _) = FrontMatter.read(text, diagnostics: Diagnostics())
        var scanner = CriticScanner(Array(text[bodyStart...]), diagnostics: Diagnostics())
        try scanner.scan()
        var seenChanges = Set<Int>(), seenHighlights = Set<Int>()
        for (e, entry) in scanner.entries.enumerated() {
            let at = position(ofOffset: bodyStart + scanner.originals[e].lowerBound)
            switch entry {
            case .change(let c):
                guard seenChanges.insert(c).inserted else { continue }  // its closing mark
                let change = scanner.changes[c]
                let code: String
                if change.moveName != nil { code = "change.move" } else {
                    switch change.kind {
                    case .insertion: code = "change.insertion"
                    case .deletion: code = "change.deletion"
                    case .substitution: code = "change.substitution"
                    }
                }
                changes[code, default: []].append(at)
            case .highlight(let h):
                guard seenHighlights.insert(h).inserted else { continue }
                switch scanner.highlights[h] {
                case .comment(let id): if comments[id] == nil { comments[id] = at }
                case .formatChange: changes["change.format", default: []].append(at)
                case .plain: break
                }
            case .comments(let list, _):
                for k in list where comments[scanner.commentID(k)] == nil {
                    comments[scanner.commentID(k)] = at
                }
            case .styleChange:
                changes["change.paragraph-style", default: []].append(at)
            case .blockMark(let k):
                switch scanner.blockMarks[k] {
                case .row: changes["change.table-row", default: []].append(at)
                case .cell: changes["change.table-cell", default: []].append(at)
                case .rowKept: break
                }
            case .literal, .commentEnd, .span, .script, .note, .math, .inlineNote: break
            }
        }
    }

    /// Where the first occurrence of `needle` is (nil when there is none).
    public func first(_ needle: String) -> Position? {
        let n = Array(needle.utf8)
        guard !n.isEmpty, n.count <= text.count else { return nil }
        var k = 0
        while k + n.count <= text.count {
            if text[k] == n[0] && text[k..<(k + n.count)].elementsEqual(n) { return position(ofOffset: k) }
            k += 1
        }
        return nil
    }

    func position(ofOffset offset: Int) -> Position {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        let column = String(decoding: text[lineStarts[lo]..<offset], as: UTF8.self).count + 1
        return Position(line: lo + 1, column: column)
    }
}

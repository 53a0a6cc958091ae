import RedlineCore

/// The source a top-level block keeps (`Paragraph.source`, `List.source`, `Table.source`): the lines it was read
/// from, taken only where those lines are the block alone and read the same wherever they stand.
extension BlockConverter {
    /// A paragraph or heading (starting at the line start) or a list read from `node`, with the lines it was read
    /// from (`Paragraph.source`, `List.source`), when they hold no placeholder but math's (CriticMarkup, spans,
    /// notes) and no line that could be pandoc block syntax of its own (a div fence, line block, grid table, caption
    /// or definition; in a list, after its markers), so the lines are this block alone.
    func withSource(_ block: Block, _ node: MDNode) -> Block {
        if case .list(var l) = block, node.kind == .list {
            guard gridDepth == 0, node.startLine > 0, node.endLine >= node.startLine, !parsedText.isEmpty, !readVerbatim(node),
                  let text = keptLines(node.startLine...node.endLine, blockSyntax: true, inContainer: true) else { return block }
            l.source = SourceText(text, of: block)
            return .list(l)
        }
        guard gridDepth == 0, node.kind == .paragraph || node.kind == .heading, node.startColumn == 1, node.startLine > 0,
              node.endLine >= node.startLine, !parsedText.isEmpty, !readVerbatim(node) else { return block }
        // cmark ends a setext heading on the line after its underline: the heading's lines are counted here (an
        // ATX heading is one line).
        var endLine = node.endLine
        if node.kind == .heading {
            endLine = node.startLine
            if !Self.isATXHeadingLine(sourceLine(node.startLine)) {
                while endLine < node.endLine, !Self.isSetextUnderline(sourceLine(endLine)) { endLine += 1 }
                guard Self.isSetextUnderline(sourceLine(endLine)) else { return block }
            }
        }
        guard let text = keptLines(node.startLine...endLine, blockSyntax: true) else { return block }
        switch block {
        case .paragraph(var p):
            p.source = SourceText(text, of: block)
            return .paragraph(p)
        case .heading(let level, var p):
            p.source = SourceText(text, of: block)
            return .heading(level: level, p)
        default:
            return block
        }
    }

    /// The text of `lines` as written, trailing blank space dropped; nil when a line holds a placeholder
    /// (CriticMarkup, spans, notes), or, with `blockSyntax`, starts as pandoc block syntax of its own (a div fence,
    /// line block, grid line, caption or definition; `inContainer`: after a list's or quote's markers). Looked at
    /// first, copied only when kept.
    private func keptLines(_ lines: ClosedRange<Int>, blockSyntax: Bool, inContainer: Bool = false) -> String? {
        for n in lines {
            let line = sourceLine(n)
            if blockSyntax {
                let body = inContainer ? line[Segmenter.afterContainerMarkers(line)...] : line
                switch body.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) {
                case UInt8(ascii: ":"), UInt8(ascii: "|"), UInt8(ascii: "+"), UInt8(ascii: "~"): return nil
                default: break
                }
            }
            // (A placeholder's scalars are U+E000...U+E1FF: a 0xEE lead byte.) Math and reserved characters are
            // kept as written; anything else held beside the text is written by the writer.
            if line.contains(0xEE), !Placeholder.holdsOnly(line, { $0 == .math || $0 == .literal }) { return nil }
        }
        var bytes: [UInt8] = []
        var placeholders = false
        for n in lines {
            if n > lines.lowerBound { bytes.append(UInt8(ascii: "\n")) }
            let line = sourceLine(n)
            if line.contains(0xEE) { placeholders = true }
            bytes += line
        }
        if placeholders { bytes = Array(context.restore(String(decoding: bytes, as: UTF8.self)).utf8) }
        // (cmark may count the blank line after a setext heading's underline as the heading's.)
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") || last == UInt8(ascii: "\r") {
            bytes.removeLast()
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the pre-pass took any of the node's lines as code or HTML (`Segmenter.touchesVerbatim`): then
    /// what was read there is not what the lines read as elsewhere, and they are not kept.
    func readVerbatim(_ node: MDNode) -> Bool {
        guard let touches = touchesVerbatim else { return true }
        let first = node.startLine + firstLineNumber - 1, last = node.endLine + firstLineNumber - 1
        return first < 1 || touches(first...max(first, last))
    }

    /// Whether `line` is a pipe table's delimiter row (`|---|:-:|`): pipes, dashes, colons and blanks, a dash in it.
    private static func isDelimiterRow(_ line: ArraySlice<UInt8>) -> Bool {
        line.contains(UInt8(ascii: "-")) && line.allSatisfy { c in
            c == UInt8(ascii: "|") || c == UInt8(ascii: "-") || c == UInt8(ascii: ":") || c == UInt8(ascii: " ") || c == UInt8(ascii: "\t")
        }
    }

    /// Whether `line` opens an ATX heading: up to three spaces, one to six `#`, then a space, tab or the end (`#f`
    /// is text, and may be a setext heading's first line).
    private static func isATXHeadingLine(_ line: ArraySlice<UInt8>) -> Bool {
        let body = line.drop { $0 == UInt8(ascii: " ") }
        guard line.count - body.count < 4 else { return false }
        let hashes = body.prefix { $0 == UInt8(ascii: "#") }.count
        guard (1...6).contains(hashes) else { return false }
        let next = body.dropFirst(hashes).first
        return next == nil || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t")
    }

    private static func isSetextUnderline(_ line: ArraySlice<UInt8>) -> Bool {
        let body = line.drop { $0 == UInt8(ascii: " ") }
        guard let c = body.first, c == UInt8(ascii: "=") || c == UInt8(ascii: "-"), line.count - body.count < 4 else { return false }
        return body.drop { $0 == c }.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// `table` with the lines it was read from (`Table.source`), when they start at the line start (not in a
    /// list or quote) and hold no CriticMarkup, span or note placeholder (the lines as the author wrote them).
    func withSource(_ table: Table, _ node: MDNode) -> Table {
        guard gridDepth == 0, node.startColumn == 1, node.startLine > 0, node.endLine >= node.startLine, !parsedText.isEmpty,
              !readVerbatim(node) else {
            return table
        }
        // cmark-gfm starts a table that took a paragraph's last line as its header row on the paragraph's first
        // line: the table's own lines start at its header row.
        // (A grid table is a paragraph to cmark: its lines are the node's.) A pipe table's rows are a line each, and
        // the delimiter row one more: the header row is that many lines above the last.
        var lines = node.startLine...node.endLine
        if node.kind == .table {
            let rows = node.children.filter { $0.kind == .tableRow }
            guard let last = rows.last?.startLine, last - rows.count >= node.startLine, last <= node.endLine,
                  Self.isDelimiterRow(sourceLine(last - rows.count + 1)) else { return table }
            lines = (last - rows.count)...last
        }
        guard let text = keptLines(lines, blockSyntax: false) else { return table }
        var t = table
        t.source = SourceText(text, of: .table(table))
        return t
    }
}

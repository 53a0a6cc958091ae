import RedlineCore

/// pandoc's line blocks (`| line`, a line each, leading spaces kept): a paragraph in the "Line Block" style
/// whose lines are separated by hard breaks, each line's leading spaces no-break spaces. The reader makes one
/// from a paragraph whose every source line starts with `|`; the Markdown writer writes such a paragraph back
/// as `| ` lines; DOCX and RTF carry the style, so the block comes back from Word.
enum LineBlocks {
    /// The paragraph style name a line block has.
    static let styleName = "Line Block"

    /// Whether every line of a paragraph's source starts with `| ` or is `|` alone (pandoc's rule).
    static func isLineBlock<S: Sequence>(sourceLines: S) -> Bool where S.Element == ArraySlice<UInt8> {
        var any = false
        for line in sourceLines {
            guard line.first == UInt8(ascii: "|") else { return false }
            let next = line.dropFirst().first
            guard next == nil || next == UInt8(ascii: " ") else { return false }
            any = true
        }
        return any
    }

    /// `content` (lines separated by soft or hard breaks, each beginning with the `|` text cmark read) as a
    /// line block's: the `| ` taken off each line, its leading spaces made no-break spaces, the breaks hard;
    /// nil when a line does not begin with that text (a mark around the bar, say).
    static func content(_ content: [Inline]) -> [Inline]? {
        var out: [Inline] = []
        out.reserveCapacity(content.count)
        var atLineStart = true
        for i in content {
            if atLineStart {
                guard case .text(let s) = i, s.hasPrefix("|") else { return nil }
                var rest = Substring(s.dropFirst())
                if rest.hasPrefix(" ") { rest = rest.dropFirst() }
                let spaces = rest.prefix { $0 == " " }.count
                let line = String(repeating: "\u{A0}", count: spaces) + rest.dropFirst(spaces)
                if !line.isEmpty { out.append(.text(line)) }
                atLineStart = false
                continue
            }
            switch i {
            case .softBreak, .lineBreak:
                out.append(.lineBreak)
                atLineStart = true
            default:
                out.append(i)
            }
        }
        return atLineStart ? nil : out
    }

    /// Whether a break sits inside formatting in `content` (a line block the writer cannot write line by line).
    static func breaksInside(_ content: [Inline]) -> Bool {
        content.contains { containsBreak($0.children) }
    }

    private static func containsBreak(_ xs: [Inline]) -> Bool {
        xs.contains { i in
            switch i {
            case .lineBreak, .softBreak: return true
            default: return containsBreak(i.children)
            }
        }
    }

    /// Whether the writer writes `p` as a line block: in the style and nothing else of it set, no change to
    /// its mark or style, breaks only between top-level inlines.
    static func isWritable(_ p: Paragraph) -> Bool {
        guard p.style.name == styleName, p.markChange == nil, p.styleChange == nil, p.sectionEnd == nil,
              p.codeInfo == nil else { return false }
        var rest = p.style
        rest.name = nil
        return rest.isEmpty && !breaksInside(p.content)
    }

    /// `content` with each line's leading no-break spaces plain spaces, as the source wrote them after `| `.
    static func spacedLines(_ content: [Inline]) -> [Inline] {
        var out = content
        var atLineStart = true
        for k in out.indices {
            if case .lineBreak = out[k] { atLineStart = true; continue }
            if atLineStart, case .text(let s) = out[k] {
                let n = s.prefix { $0 == "\u{A0}" }.count
                if n > 0 { out[k] = .text(String(repeating: " ", count: n) + s.dropFirst(n)) }
            }
            atLineStart = false
        }
        return out
    }
}

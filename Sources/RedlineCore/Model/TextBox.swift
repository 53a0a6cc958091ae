/// A text box (a DOCX `wps:txbx` or VML `v:textbox`, an RTF `\shptxt`): its content is blocks of the story it is
/// anchored in, each paragraph carrying the box (`Paragraph.textBox`), right after the paragraph that anchors it.
/// Consecutive blocks carrying the same box are one box; boxes are numbered in reading order by the reader (the
/// number tells two boxes anchored at one paragraph apart, and is not kept by writers).
public struct TextBox: Hashable, Sendable, Codable {
    /// The box's number in its document (readers count from 1).
    public var number: Int
    /// The box's size in points, when the source gives it (a writer chooses one otherwise).
    public var width: Double?
    public var height: Double?

    public init(number: Int, width: Double? = nil, height: Double? = nil) {
        self.number = number
        self.width = width
        self.height = height
    }
}

extension Block {
    /// The text box this block is in: a paragraph's own; a quote's, list's or table's is its first paragraph's
    /// (readers put a container in a box whole), looked for no deeper than a few levels, so that asking costs the
    /// same at every depth of a deeply nested document; nil for a block without paragraphs (code, a rule, raw).
    public var textBox: TextBox? {
        var b = self
        for _ in 0..<8 {
            switch b {
            case .paragraph(let p), .heading(_, let p): return p.textBox
            case .blockQuote(let bs): guard let f = bs.first else { return nil }; b = f
            case .list(let l): guard let f = l.items.first?.first else { return nil }; b = f
            case .table(let t): guard let f = t.rows.first?.cells.first?.blocks.first else { return nil }; b = f
            case .codeBlock, .thematicBreak, .raw: return nil
            }
        }
        return nil
    }

    /// Whether some paragraph in this block is in a text box (the whole block is looked through).
    public var holdsTextBox: Bool {
        switch self {
        case .paragraph(let p), .heading(_, let p): return p.textBox != nil
        case .codeBlock, .thematicBreak, .raw: return false
        default: return childBlocks.contains { $0.holdsTextBox }
        }
    }

    /// This block with every paragraph in it put in `box` (nil: taken out of any box).
    public func inTextBox(_ box: TextBox?) -> Block {
        switch self {
        case .paragraph(var p): p.textBox = box; return .paragraph(p)
        case .heading(let l, var p): p.textBox = box; return .heading(level: l, p)
        case .codeBlock, .thematicBreak, .raw: return self
        default: return mapBlockArrays { $0.map { $0.inTextBox(box) } }
        }
    }
}

extension Sequence where Element == Block {
    /// The blocks in runs: consecutive blocks wholly in one text box together (with that box), every other block
    /// alone (with nil), in order: how a writer meets them.
    public func textBoxRuns() -> [(box: TextBox?, blocks: ArraySlice<Block>)] {
        let all = Array(self)
        var out: [(box: TextBox?, blocks: ArraySlice<Block>)] = []
        var i = 0
        while i < all.count {
            guard let box = all[i].textBox else {
                out.append((nil, all[i...i]))
                i += 1
                continue
            }
            var j = i + 1
            while j < all.count, all[j].textBox == box { j += 1 }
            out.append((box, all[i..<j]))
            i = j
        }
        return out
    }
}

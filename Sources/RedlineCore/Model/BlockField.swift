/// A field whose result is whole paragraphs (Word's table of contents, an index, a bibliography): the paragraph its
/// result begins in holds `start`, the paragraph it ends in holds `end`, and the paragraphs from one to the other are
/// its result, read and written as the document's own paragraphs (`Paragraph.blockField`). A field whose result stays
/// in one paragraph is an inline (`Inline.field`).
public struct BlockField: Hashable, Sendable, Codable {
    /// Where in its paragraph a field ends.
    public enum End: String, Hashable, Sendable, Codable {
        /// Before the paragraph's content: the paragraph follows the result (Word's usual end of a table of contents,
        /// at the start of the paragraph after its last entry).
        case beforeContent
        /// After the paragraph's content, which is the result's last.
        case afterContent
    }

    /// The field's instruction (`TOC \o "1-3" \h \z \u`), on the paragraph its result begins in.
    public var start: FieldCode?
    /// Where the field ends, on the paragraph it ends in.
    public var end: End?

    public init(start: FieldCode? = nil, end: End? = nil) {
        self.start = start
        self.end = end
    }
}

extension Block {
    /// A paragraph's or heading's `blockField` (the blocks that begin and end such fields); nil for other blocks,
    /// on which setting it does nothing.
    public var blockField: BlockField? {
        get { paragraph?.blockField }
        set {
            switch self {
            case .paragraph(var p): p.blockField = newValue; self = .paragraph(p)
            case .heading(let l, var p): p.blockField = newValue; self = .heading(level: l, p)
            default: break
            }
        }
    }
}

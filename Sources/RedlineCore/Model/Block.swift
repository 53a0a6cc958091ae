/// A paragraph of inline content with its formatting and review state. Headings are paragraphs too.
public struct Paragraph: Hashable, Sendable, Codable {
    public var content: [Inline]
    public var style: ParagraphStyle
    /// A tracked change to the break that ends this paragraph.
    public var markChange: ParagraphMarkChange?
    /// A tracked change to this paragraph's formatting.
    public var styleChange: ParagraphStyleChange?
    /// The section this paragraph's mark ends (a section break, as Word keeps it in the mark); nil for most.
    public var sectionEnd: Section? {
        get { sectionBox?.value }
        set { sectionBox = newValue.map(Boxed.init) }
    }
    /// `sectionEnd`, boxed: a paragraph stays one word larger, not a whole section (paragraphs are copied often).
    private var sectionBox: Boxed<Section>?
    /// The fence's info string (`python`, "" for none) of the code block a code-style paragraph stands for:
    /// set on the paragraph compare writes a changed, inserted or deleted code block as, so resolving it gives
    /// the code block with its language back (`BlockStyleRole.codeBlock`, `ReviewTransform`); nil for others.
    public var codeInfo: String? {
        get { codeBox?.value }
        set { codeBox = newValue.map(Boxed.init) }
    }
    /// `codeInfo`, boxed: one word, like `sectionBox`.
    private var codeBox: Boxed<String>?
    /// The text box this paragraph is in (`TextBox`); nil for most.
    public var textBox: TextBox? {
        get { textBoxBox?.value }
        set { textBoxBox = newValue.map(Boxed.init) }
    }
    /// `textBox`, boxed: one word, like `sectionBox`.
    private var textBoxBox: Boxed<TextBox>?
    /// Where a field whose result spans paragraphs begins or ends (`BlockField`); nil for most.
    public var blockField: BlockField? {
        get { blockFieldBox?.value }
        set { blockFieldBox = newValue.map(Boxed.init) }
    }
    /// `blockField`, boxed: one word, like `sectionBox`.
    private var blockFieldBox: Boxed<BlockField>?
    /// Set on a paragraph written without a blank line before it in Markdown where one could stand (a definition
    /// in a tight definition list: pandoc's `Plain`); Markdown only, as `List.tight`.
    public var compact: Bool {
        get { markdownBox?.value.compact ?? false }
        set { updateMarkdownForm { $0.compact = newValue } }
    }
    /// A Markdown definition's marker as written when it is not pandoc's `:` and three spaces (`: `, `~ `), or
    /// any marker when the definition follows another after a blank line (else it is that one's next paragraph);
    /// Markdown only, as `compact`.
    public var definitionMarker: String? {
        get { markdownBox?.value.definitionMarker }
        set { updateMarkdownForm { $0.definitionMarker = newValue } }
    }
    /// A heading's pandoc attributes as written after its text, with the spaces before them (` {#sec-intro .x}`);
    /// DOCX and RTF keep them beside the heading (Word shows the text alone).
    public var headingAttributes: String? {
        get { markdownBox?.value.headingAttributes }
        set { updateMarkdownForm { $0.headingAttributes = newValue } }
    }
    /// What only Markdown writes of a paragraph (`compact`, `definitionMarker`, `headingAttributes`), boxed: one
    /// word, like `sectionBox`, nil while all are unset.
    private var markdownBox: Boxed<MarkdownForm>?
    /// The Markdown the paragraph or heading was read from, written again while the block is unchanged
    /// (`SourceText`: the `Block` as read, so a heading's level counts).
    public var source = SourceText()

    private mutating func updateMarkdownForm(_ change: (inout MarkdownForm) -> Void) {
        var form = markdownBox?.value ?? MarkdownForm()
        change(&form)
        markdownBox = form == MarkdownForm() ? nil : Boxed(form)
    }

    enum CodingKeys: String, CodingKey {
        case content, style, markChange, styleChange, sectionBox = "sectionEnd", codeBox = "codeInfo", textBoxBox = "textBox"
        case blockFieldBox = "blockField", markdownBox = "markdown"
    }

    public init(_ content: [Inline], style: ParagraphStyle = ParagraphStyle(),
                markChange: ParagraphMarkChange? = nil, styleChange: ParagraphStyleChange? = nil,
                sectionEnd: Section? = nil, codeInfo: String? = nil) {
        self.content = content
        self.style = style
        self.markChange = markChange
        self.styleChange = styleChange
        self.sectionEnd = sectionEnd
        self.codeInfo = codeInfo
    }
}

/// The text a block was read from, and the block as it was read: a writer of that format writes the block as
/// it was written while it is unchanged (a Markdown table keeps its author's padding and delimiter row). The
/// block kept shares its storage with the one in the document, so the check is a comparison of buffers while
/// nothing changed. Not part of the block's value (every two are equal) and not coded: a document read back
/// from JSON has its blocks written anew.
public struct SourceText: Hashable, Sendable {
    private final class Storage: Sendable {
        let text: String
        let block: Block
        let isReadFromText: Bool
        init(_ text: String, _ block: Block, _ read: Bool) { self.text = text; self.block = block; isReadFromText = read }
    }

    private let storage: Storage?

    /// No source.
    public init() { storage = nil }

    /// `text`, for `block` as it was read; `readFromText` false for a text another format kept beside its own
    /// reading (a DOCX's Markdown sources part), which a writer checks reads as the block before using it.
    public init(_ text: String, of block: Block, readFromText: Bool = true) { storage = Storage(text, block, readFromText) }

    /// Whether the block was read from this text (not kept beside another format's reading of it).
    public var isReadFromText: Bool { storage?.isReadFromText ?? true }

    /// The text, when `block` is still the block that was read.
    public func text(ifStill block: Block) -> String? {
        guard let storage, storage.block == block else { return nil }
        return storage.text
    }

    /// Whether there is a text at all.
    public var isEmpty: Bool { storage == nil }

    public static func == (a: SourceText, b: SourceText) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

/// Described as nothing, as it is no part of the value (a block's description is the same with or without it).
extension SourceText: CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String { "SourceText()" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// What only Markdown writes of a paragraph (`Paragraph.compact`, `definitionMarker`, `headingAttributes`).
struct MarkdownForm: Hashable, Sendable, Codable {
    var compact = false
    var definitionMarker: String?
    var headingAttributes: String?
}

/// A value behind a reference, so that a rarely set field adds one word to its holder (`Paragraph.sectionEnd`,
/// `codeInfo`: paragraphs are copied often): equal, hashed and coded as the value it holds.
final class Boxed<Value: Hashable & Codable & Sendable>: Hashable, Codable, Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (a: Boxed, b: Boxed) -> Bool { a === b || a.value == b.value }
    func hash(into h: inout Hasher) { h.combine(value) }

    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// The kind of a list and, for ordered lists, how it numbers.
public enum ListKind: Hashable, Sendable, Codable {
    case bullet
    /// Numbered from `start`; `delimiter` is "." or ")".
    case ordered(start: Int, delimiter: Character)

    enum CodingKeys: String, CodingKey { case kind, start, delimiter }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if try c.decode(String.self, forKey: .kind) == "bullet" { self = .bullet; return }
        let d = try c.decode(String.self, forKey: .delimiter)
        self = .ordered(start: try c.decode(Int.self, forKey: .start), delimiter: d.first ?? ".")
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .bullet: try c.encode("bullet", forKey: .kind)
        case .ordered(let start, let delimiter):
            try c.encode("ordered", forKey: .kind)
            try c.encode(start, forKey: .start)
            try c.encode(String(delimiter), forKey: .delimiter)
        }
    }
}

/// A list: each item is a sequence of blocks (nested lists are blocks inside items).
public struct List: Hashable, Sendable, Codable {
    public var kind: ListKind
    /// Tight lists have no blank lines between items (Markdown); loose lists do.
    public var tight: Bool
    public var items: [[Block]]
    /// The Markdown the list was read from (its markers, numbering and wrapping), written again while the list is
    /// unchanged.
    public var source = SourceText()

    enum CodingKeys: String, CodingKey { case kind, tight, items }

    public init(kind: ListKind, tight: Bool = true, items: [[Block]]) {
        self.kind = kind
        self.tight = tight
        self.items = items
    }
}

/// A block of verbatim text.
public struct CodeBlock: Hashable, Sendable, Codable {
    /// The info string's first word (`swift` in "```swift"), empty when none.
    public var language: String
    /// The text, each line ending in "\n".
    public var text: String
    /// The whole info string where it holds more than the language (Quarto's and R Markdown's chunk options,
    /// "```{r, echo=FALSE}", or pandoc's attributes, "```python title=x"): written back as it is.
    public var info: String?

    public init(language: String = "", text: String, info: String? = nil) {
        self.language = language
        self.text = text
        self.info = info
    }

    /// A code block with a fence's whole info string: its first word is the language.
    public init(text: String, infoString: String) {
        let language = infoString.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        self.init(language: language, text: text, info: infoString == language ? nil : infoString)
    }

    /// The info string as a fence holds it (the language alone when there is nothing more).
    public var infoString: String { info ?? language }

    /// The text as the content of one paragraph: its lines joined by line breaks (how the DOCX and RTF
    /// writers, which have no code block, write it).
    public var lineBrokenContent: [Inline] {
        var text = self.text
        if text.hasSuffix("\n") { text.removeLast() }
        var inlines: [Inline] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if i > 0 { inlines.append(.lineBreak) }
            if !line.isEmpty { inlines.append(.text(String(line))) }
        }
        return inlines
    }
}

/// Horizontal alignment of a table column.
public enum ColumnAlignment: String, Hashable, Sendable, Codable, CaseIterable {
    case none, left, center, right
}

/// One table cell: blocks, and how many grid columns and rows it spans.
public struct TableCell: Hashable, Sendable, Codable {
    public var blocks: [Block]
    public var columnSpan: Int
    public var rowSpan: Int
    /// The cell was inserted or deleted with tracking (DOCX `w:cellIns`/`w:cellDel`): rejecting an inserted
    /// cell, or accepting a deleted one, removes it from its row (the cells after it move left, as in Word).
    public var change: RowChange?

    public init(_ blocks: [Block], columnSpan: Int = 1, rowSpan: Int = 1) {
        self.blocks = blocks
        self.columnSpan = columnSpan
        self.rowSpan = rowSpan
    }

    /// A cell inserted or deleted with tracking.
    public init(_ blocks: [Block], columnSpan: Int = 1, rowSpan: Int = 1, change: RowChange?) {
        self.init(blocks, columnSpan: columnSpan, rowSpan: rowSpan)
        self.change = change
    }
}

/// One table row; `change` records a tracked insertion or deletion of the whole row.
/// A cell covered by a row span from above is not repeated in later rows.
public struct TableRow: Hashable, Sendable, Codable {
    public var cells: [TableCell]
    public var change: RowChange?

    public init(_ cells: [TableCell], change: RowChange? = nil) {
        self.cells = cells
        self.change = change
    }
}

/// A table: column alignments (and widths in points, when the source has them), header rows first.
public struct Table: Hashable, Sendable, Codable {
    public var columns: [ColumnAlignment]
    public var columnWidths: [Double]?
    /// How many of the first rows are header rows.
    public var headerRowCount: Int
    public var rows: [TableRow]
    /// The Markdown the table was read from, written again while the table is unchanged.
    public var source = SourceText()

    enum CodingKeys: String, CodingKey { case columns, columnWidths, headerRowCount, rows }

    public init(columns: [ColumnAlignment], columnWidths: [Double]? = nil, headerRowCount: Int, rows: [TableRow]) {
        self.columns = columns
        self.columnWidths = columnWidths
        self.headerRowCount = headerRowCount
        self.rows = rows
    }
}

extension Table {
    /// The grid columns the rows need, as the DOCX and RTF writers lay them out: each row's cells take, in
    /// order, the columns that no cell spanning rows from above covers (so a row beside such a cell reaches
    /// further right than its own cells' spans add up to); at least `columns.count`, and 1.
    public var gridColumnCount: Int {
        var covered: [(rows: Int, span: Int)] = []  // per column: rows still covered from above, and how wide
        var widest = max(columns.count, 1)
        for row in rows {
            var col = 0
            var cells = row.cells[...]
            while true {
                if col < covered.count, covered[col].rows > 0 {
                    covered[col].rows -= 1
                    col += covered[col].span
                    continue
                }
                guard let c = cells.popFirst() else { break }
                let span = max(c.columnSpan, 1)
                while covered.count < col + span { covered.append((0, 1)) }
                if c.rowSpan > 1 { covered[col] = (c.rowSpan - 1, span) }
                col += span
            }
            widest = max(widest, col)
            // Cells spanning rows from above beyond this row's last cell cover their columns in it too.
            while col < covered.count {
                if covered[col].rows > 0 {
                    covered[col].rows -= 1
                    widest = max(widest, col + covered[col].span)
                    col += covered[col].span
                } else {
                    col += 1
                }
            }
        }
        return widest
    }
}

/// Block content. A document streams as a sequence of top-level blocks.
public indirect enum Block: Hashable, Sendable, Codable {
    case paragraph(Paragraph)
    /// A heading of level 1...6.
    case heading(level: Int, Paragraph)
    case blockQuote([Block])
    case list(List)
    case codeBlock(CodeBlock)
    case table(Table)
    case thematicBreak
    /// Source-format content kept verbatim (e.g. an HTML block in Markdown).
    case raw(format: String, text: String)
}

extension Block {
    /// The paragraph of a paragraph or heading.
    public var paragraph: Paragraph? {
        switch self {
        case .paragraph(let p), .heading(_, let p): return p
        default: return nil
        }
    }

    /// Block children (quote contents, list items, table cells in order); empty for leaves.
    public var childBlocks: [Block] {
        switch self {
        case .blockQuote(let b): return b
        case .list(let l): return l.items.flatMap { $0 }
        case .table(let t): return t.rows.flatMap { $0.cells.flatMap(\.blocks) }
        case .paragraph, .heading, .codeBlock, .thematicBreak, .raw: return []
        }
    }

    /// This block with every nested block array (quote, list items, cells) rewritten by `transform`.
    /// Paragraphs and leaves are returned unchanged.
    public func mapBlockArrays(_ transform: ([Block]) throws -> [Block]) rethrows -> Block {
        switch self {
        case .blockQuote(let b): return .blockQuote(try transform(b))
        case .list(var l):
            l.items = try l.items.map(transform)
            return .list(l)
        case .table(var t):
            for r in t.rows.indices {
                for c in t.rows[r].cells.indices { t.rows[r].cells[c].blocks = try transform(t.rows[r].cells[c].blocks) }
            }
            return .table(t)
        case .paragraph, .heading, .codeBlock, .thematicBreak, .raw: return self
        }
    }

    /// This block with the content of every paragraph and heading in it, nested ones too, rewritten by
    /// `transform` in reading order. Other blocks are returned unchanged.
    public func mapParagraphContent(_ transform: ([Inline]) throws -> [Inline]) rethrows -> Block {
        switch self {
        case .paragraph(var p):
            p.content = try transform(p.content)
            return .paragraph(p)
        case .heading(let level, var p):
            p.content = try transform(p.content)
            return .heading(level: level, p)
        default:
            return try mapBlockArrays { try $0.map { try $0.mapParagraphContent(transform) } }
        }
    }

    /// Every paragraph in this block, depth first, in reading order.
    public func forEachParagraph(_ body: (Paragraph) throws -> Void) rethrows {
        if let p = paragraph { try body(p); return }
        for b in childBlocks { try b.forEachParagraph(body) }
    }

    /// Every inline in this block, depth first in reading order, including nested inlines.
    public func forEachInline(_ body: (Inline) throws -> Void) rethrows {
        func walk(_ inlines: [Inline]) throws {
            for i in inlines {
                try body(i)
                try walk(i.children)
            }
        }
        if let p = paragraph { try walk(p.content); return }
        for b in childBlocks { try b.forEachInline(body) }
    }

    /// The plain text with every change shown, paragraphs separated by "\n".
    public var plainText: String {
        if let p = paragraph { return p.content.plainText }
        switch self {
        case .codeBlock(let c): return c.text
        case .raw, .thematicBreak: return ""
        default: return childBlocks.map(\.plainText).joined(separator: "\n")
        }
    }
}

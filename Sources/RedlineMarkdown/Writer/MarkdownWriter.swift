import RedlineCore

/// Writes Markdown: canonical CommonMark/GFM with exact escaping, review marks as CriticMarkup
/// (docs/criticmarkup.md), formatting as pandoc-style spans and fenced divs with `preserveFormatting`.
/// Without CriticMarkup (format `gfm`), `withoutCriticMarkup` stages in front of the sink accept the
/// changes and drop the comments, with warnings.
public struct MarkdownWriter: FormatWriter {
    /// A writer (options come with each sink).
    public init() {}

    /// The stages that make Markdown without CriticMarkup (format `gfm`): every change accepted, every
    /// comment dropped, and what that resolved reported as `lossy.*` warnings into `diagnostics`.
    public static func withoutCriticMarkup(diagnostics: Diagnostics) -> [any ChunkStage] {
        let count = ReviewMarkCount()
        return [CountReviewMarks(count: count), ReviewTransform(.accept), DropComments(),
                ReportReviewMarks(count: count, diagnostics: diagnostics)]
    }

    /// A sink writing Markdown into `output`.
    public func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
        MarkdownSink(output: output, options: options, diagnostics: diagnostics)
    }

    /// A whole document as Markdown text (convenience for tests); without `criticMarkup`, through the
    /// `withoutCriticMarkup` stages.
    public static func string(_ document: Document, options: WriteOptions = WriteOptions(),
                              diagnostics: Diagnostics = Diagnostics()) throws -> String {
        let out = MemoryOutput()
        var source = ChunkArraySource(document)
        var sink = MarkdownSink(output: out, options: options, diagnostics: diagnostics)
        let stages = options.criticMarkup ? [] : withoutCriticMarkup(diagnostics: diagnostics)
        try Pipeline.run(source: &source, stages: stages, sink: &sink)
        return out.string
    }
}

/// The streaming Markdown sink: each chunk's block is written as it arrives, its notes right after it.
public struct MarkdownSink: ChunkSink {
    private let output: any ByteOutput
    private let options: WriteOptions
    private let diagnostics: Diagnostics
    private let renderer: MarkdownRenderer
    private var wroteBlock = false
    private var previousBulletList: Character?
    /// The delimiter of the ordered list written last, when nothing was written after it.
    private var previousOrderedDelimiter: Character?
    private var heldNotes: [Note] = []
    /// A paragraph with a changed break, written once the next chunk arrives (before an empty paragraph it
    /// leaves its change open over its break).
    private var held: Chunk?
    /// The classes of the fenced div open around the blocks written last (`DivClasses`), as a style name.
    private var openDiv: String?
    /// The fence line of the div just opened, written with the first block inside it (pandoc's tight form,
    /// `::: {.callout-note}` on the line before the paragraph) when that block allows it.
    private var pendingFence: String?
    /// The last thing written is a block of the open div that a `:::` on the very next line closes (a paragraph,
    /// heading or code block: no list, quote or table would take the line in), so the div closes tight.
    private var closesTight = false
    /// Whether the last part put was a definition list's term or definition (`DefinitionLists`).
    private var lastPutDefinitionItem = false
    /// The sections and their headers and footers, which Markdown cannot carry (reported at the end) unless
    /// `preserveFormatting` writes them as page divs (`PageDivs`).
    private var pageLoss = PageLoss()
    /// Sections ended by the blocks written, waiting to be written after them (not inside a change's delimiters).
    private var heldSections: [Section] = []
    private var finalSection: Section?
    /// With `preserveFormatting`, the text box whose div is open (`PageDivs`); without, the last box met and how
    /// many boxes were written as plain blocks.
    private var openTextBox: TextBox?
    private var lastTextBox: TextBox?
    private var textBoxesFlattened = 0
    /// Fields spanning paragraphs (`BlockField`): with `preserveFormatting`, how many of their divs are open; without,
    /// how many were written as their results.
    private var openFieldDivs = 0
    private var fieldsFlattened = 0

    init(output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
        renderer = MarkdownRenderer(options: options, diagnostics: diagnostics)
    }

    /// Writes the metadata as YAML front matter (with `preserveFormatting`, the default styles too).
    public mutating func begin(_ header: DocumentHeader) throws {
        let meta = options.preserveFormatting ? DefaultStyles.adding(header, to: header.metadata) : header.metadata
        try output.write(FrontMatter.write(meta))
    }

    /// Writes one block and the notes it references.
    public mutating func write(_ chunk: Chunk) throws {
        if options.preserveFormatting {
            if let s = chunk.finalSection { finalSection = s }
        } else {
            pageLoss.add(chunk)
        }
        if let h = held {
            held = nil
            renderer.nextBlock = chunk.block
            try emit(h)
            renderer.nextBlock = nil
        }
        // Only a paragraph with a changed break, or a table's caption, depends on the block after it.
        if let p = chunk.block.paragraph, p.markChange != nil || p.style.name == TableCaptions.styleName { held = chunk } else { try emit(chunk) }
    }

    /// Writes what is still waiting (a break change's closer, notes) and reports the losses.
    public mutating func finish() throws {
        if let h = held {
            renderer.nextBlock = nil
            held = nil
            try emit(h)
        }
        if let closer = renderer.takePendingCloser() { try put(closer) }
        try writeHeldNotes()
        if openDiv != nil { try closeDiv() }
        while openFieldDivs > 0 { try closeFieldDiv() }
        if openTextBox != nil {
            try put(":::")
            openTextBox = nil
        }
        if fieldsFlattened > 0 {
            diagnostics.report(.lossyField, "fields were written as their results (--keep-formatting keeps them)", count: fieldsFlattened)
        }
        try writeHeldSections()
        if let s = finalSection { try writeSection(s, last: true) }
        if textBoxesFlattened > 0 {
            diagnostics.report(.lossyTextBox, "text boxes were written as paragraphs in the flow: Markdown has none (--keep-formatting keeps them)",
                               count: textBoxesFlattened)
        }
        if renderer.options.criticMarkup, renderer.unanchoredComments > 0 {
            renderer.diagnostics.report(.markdownUnanchoredComment, "comments that nothing in the text anchors were left out",
                                        count: renderer.unanchoredComments)
        }
        renderer.reportDistinctLosses()
        pageLoss.report(to: diagnostics, format: "Markdown", hint: " (--keep-formatting keeps them)")
        try output.flush()
    }

    private mutating func emit(_ chunk: Chunk) throws {
        renderer.register(chunk.comments)
        renderer.register(notes: chunk.notes)
        var bullet: Character = "-"
        var block = chunk.block
        if case .list(var l) = block, l.kind == .bullet {
            if previousBulletList == "-" { bullet = "*" }
            // A list kept as written (`List.source`) with the bullet of the list just before would read as part of it.
            if let previous = previousBulletList, let kept = l.source.text(ifStill: block),
               kept.first(where: { $0 != " " }) == previous {
                l.source = SourceText()
                block = .list(l)
            }
        }
        // Two ordered lists in a row with one delimiter read as one list: the second takes the other.
        if case .list(var l) = block, case .ordered(let s, let d) = l.kind, previousOrderedDelimiter == d {
            l.kind = .ordered(start: s, delimiter: d == "." ? ")" : ".")
            block = .list(l)
        }
        let blockField = block.blockField
        if blockField?.end == .beforeContent { try closeFieldDiv() }
        if let start = blockField?.start {
            if options.preserveFormatting {
                if openDiv != nil { try closeDiv() }
                try put(PageDivs.fence(start))
                openFieldDivs += 1
            } else {
                fieldsFlattened += 1
            }
        }
        try textBoxDiv(for: block)
        // Blocks in a row whose paragraphs all carry one div's classes are written inside one div.
        let divClass = Self.divClass(of: block)
        if divClass != openDiv, !renderer.hasPendingCloser {
            if openDiv != nil { try closeDiv() }
            openDiv = divClass
            if let c = divClass, DivClasses.isDivName(c) {
                pendingFence = renderer.pandocSyntax ? DivClasses.fence(name: c) : DivClasses.htmlOpen(name: c)
            }
        }
        if let c = openDiv, divClass == c { block = Self.removing(style: c, from: block) }
        renderer.joinsPrevious = false
        let parts = renderer.blockParts(block, bullet: bullet).filter { !$0.isEmpty }
        // A definition goes on the line after its term or the definition before (when nothing came between).
        let joins = renderer.joinsPrevious && lastPutDefinitionItem
        if case .table = block { renderer.previousWasTable = true } else if !parts.isEmpty { renderer.previousWasTable = false }
        // An empty paragraph left out is no block: two lists around it still need different bullets.
        if case .list(let l) = block {
            // (A list kept as written has its own bullet: the first character written.)
            let written = parts.first?.first(where: { $0 != " " }).flatMap { "-*+".contains($0) ? $0 : nil }
            previousBulletList = l.kind == .bullet ? written ?? bullet : nil
            if case .ordered(_, let d) = l.kind { previousOrderedDelimiter = d } else { previousOrderedDelimiter = nil }
        } else if !parts.isEmpty || block.paragraph == nil {
            previousBulletList = nil
            previousOrderedDelimiter = nil
        }
        var rest = parts[...]
        if let fence = pendingFence, !parts.isEmpty {
            pendingFence = nil
            if renderer.pandocSyntax, Self.isTight(block), let first = rest.first, Self.fitsTight(first), !Self.isSetext(block, first) {
                try put(fence + "\n" + first)
                rest = rest.dropFirst()
            } else {
                try put(fence)
            }
        }
        for (k, part) in rest.enumerated() { try put(part, joining: joins && k == 0 && rest.count == parts.count) }
        if renderer.definitionItemBefore != nil, !parts.isEmpty { lastPutDefinitionItem = true }
        if renderer.pandocSyntax, openDiv != nil, pendingFence == nil, Self.isTight(block), let last = parts.last, Self.fitsTight(last) {
            closesTight = true
        }
        if blockField?.end == .afterContent, !renderer.hasPendingCloser { try closeFieldDiv() }
        // Notes go after the block, but not between a paragraph break change's delimiters, nor inside a definition
        // list (after its term or a definition the next definition may follow).
        heldNotes += chunk.notes
        if options.preserveFormatting, block.hasSectionEnd { block.forEachParagraph { if let s = $0.sectionEnd { heldSections.append(s) } } }
        if !renderer.hasPendingCloser {
            if renderer.definitionItemBefore == nil { try writeHeldNotes() }
            try writeHeldSections()
        }
    }

    /// Closes the innermost field div open (none open: nothing).
    private mutating func closeFieldDiv() throws {
        guard openFieldDivs > 0 else { return }
        if openDiv != nil { try closeDiv() }
        try put(":::")
        openFieldDivs -= 1
    }

    /// Opens or closes the text box div `block` needs (with `preserveFormatting`; a block ending a section is
    /// never in one), or counts the text boxes written as plain blocks.
    private mutating func textBoxDiv(for block: Block) throws {
        let box = block.textBox
        // A box inside a list, quote or table has no div of its own (counted once per block holding some).
        if box == nil, !block.childBlocks.isEmpty, block.holdsTextBox { textBoxesFlattened += 1 }
        guard options.preserveFormatting else {
            if let box, box != lastTextBox { textBoxesFlattened += 1 }
            lastTextBox = box
            return
        }
        let target = block.hasSectionEnd ? nil : box
        guard target != openTextBox, !renderer.hasPendingCloser else { return }
        if openDiv != nil { try closeDiv() }
        if openTextBox != nil { try put(":::") }
        if let target { try put(PageDivs.fence(target)) }
        openTextBox = target
    }

    /// The sections the blocks written last ended, as page divs (`PageDivs`), after any style div closes.
    private mutating func writeHeldSections() throws {
        guard !heldSections.isEmpty else { return }
        if openDiv != nil { try closeDiv() }
        let sections = heldSections
        heldSections = []
        for s in sections { try writeSection(s, last: false) }
    }

    private mutating func writeSection(_ s: Section, last: Bool) throws {
        try put(PageDivs.fence(s, last: last))
        for story in s.headersFooters {
            try put(PageDivs.fence(story))
            for b in story.blocks {
                for part in renderer.blockParts(b, bullet: "-") where !part.isEmpty { try put(part) }
            }
            try put(":::")
        }
        try put(":::")
    }

    /// The div classes (a style name) every paragraph of `block` carries; nil when one does not, or for a
    /// block without paragraphs of its own (code, a rule).
    static func divClass(of block: Block) -> String? {
        switch block {
        case .codeBlock, .thematicBreak, .raw: return nil
        default: break
        }
        var name: String?
        var mixed = false
        block.forEachParagraph { p in
            guard !mixed else { return }
            guard let n = p.style.name, DivClasses.isDivName(n), name == nil || name == n else { mixed = true; return }
            name = n
        }
        // Code in a list item or quote has no paragraph style: such a block is not wholly in the div.
        return mixed || holdsCode(block) ? nil : name
    }

    private static func holdsCode(_ block: Block) -> Bool {
        if case .codeBlock = block { return true }
        return block.childBlocks.contains(where: holdsCode)
    }

    /// `block` with the paragraph style name `name` taken off every paragraph in it (the div carries it).
    static func removing(style name: String, from block: Block) -> Block {
        switch block {
        case .paragraph(var p):
            if p.style.name == name { p.style.name = nil }
            return .paragraph(p)
        case .heading(let level, var p):
            if p.style.name == name { p.style.name = nil }
            return .heading(level: level, p)
        default:
            return block.mapBlockArrays { $0.map { removing(style: name, from: $0) } }
        }
    }

    private mutating func writeHeldNotes() throws {
        for note in heldNotes where !renderer.writtenInline.contains(note.id) { try put(renderer.note(note)) }
        heldNotes = []
        // What the notes' blocks were is no part of the flow around them.
        renderer.definitionItemBefore = nil
        // The definitions of the reference links first written in the block (and its notes), after them.
        let definitions = renderer.takeDefinitions()
        if !definitions.isEmpty { try put(definitions) }
    }

    /// Closes the open class div: `:::` right after its last block when that allows it, else after a blank line.
    private mutating func closeDiv() throws {
        if let fence = pendingFence {
            // Nothing was written inside: the fence on its own, as the loose form.
            pendingFence = nil
            try put(fence)
        }
        if closesTight {
            try output.write(":::\n")
            closesTight = false
        } else {
            try put(renderer.pandocSyntax ? ":::" : "</div>")
        }
        openDiv = nil
    }

    /// A block whose Markdown a fence line may touch: a paragraph or heading (a fence line before a list, quote
    /// or table, or `:::` after one, would be read into it), or a code block (after it only).
    private static func isTight(_ block: Block) -> Bool {
        switch block {
        case .paragraph, .heading, .codeBlock: return true
        default: return false
        }
    }

    /// Whether `part` is `block` written as a setext heading (its lines would take a fence line above them in).
    private static func isSetext(_ block: Block, _ part: String) -> Bool {
        guard case .heading = block else { return false }
        return !part.hasPrefix("#")
    }

    /// Whether a block's text may sit next to a fence line: not itself a div or a line block, caption or table.
    private static func fitsTight(_ part: String) -> Bool {
        guard let first = part.first, first != ":", first != "|", first != ">" else { return false }
        let lastLine = part.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        return !lastLine.hasPrefix(":") && !lastLine.hasPrefix("|")
    }

    private mutating func put(_ text: String, joining: Bool = false) throws {
        closesTight = false
        lastPutDefinitionItem = false
        try renderer.media.check()
        try output.write(wroteBlock && !joining ? "\n" + text + "\n" : text + "\n")
        wroteBlock = true
    }
}

/// The review marks Markdown without CriticMarkup resolves, counted before the stages resolve them.
final class ReviewMarkCount: @unchecked Sendable {
    var insertions = 0, deletions = 0, comments = 0, formatChanges = 0, styleChanges = 0, marks = 0
}

/// Counts the review marks of each chunk as it passes (the first of the `withoutCriticMarkup` stages):
/// in the block and its notes (comment bodies go with their comments, counted as comments).
struct CountReviewMarks: ChunkStage, ModelVisitor {
    let count: ReviewMarkCount

    mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        visitChunk(chunk)
        try emit(chunk)
    }

    mutating func visitChunk(_ chunk: Chunk) {
        count.comments += chunk.comments.count
        visitBlock(chunk.block)
        for n in chunk.notes { visitNote(n) }
    }

    mutating func visitParagraph(_ p: Paragraph) {
        if p.markChange != nil { count.marks += 1 }
        if p.styleChange != nil { count.styleChanges += 1 }
        descend(into: p)
    }

    mutating func visitInline(_ i: Inline) {
        switch i {
        case .insertion: count.insertions += 1
        case .deletion: count.deletions += 1
        case .substitution: count.insertions += 1; count.deletions += 1
        case .move(let m, _): if m.side == .to { count.insertions += 1 } else { count.deletions += 1 }
        case .formatChange: count.formatChanges += 1
        default: break
        }
        descend(into: i)
    }
}

/// Reports the counted marks once the stages before it have released everything (the last of the
/// `withoutCriticMarkup` stages, so the warnings come after what writing the last chunks reported).
struct ReportReviewMarks: ChunkStage {
    let count: ReviewMarkCount
    let diagnostics: Diagnostics

    mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws { try emit(chunk) }

    mutating func finish(emit: (Chunk) throws -> Void) throws {
        let d = diagnostics, c = count
        d.report(.lossyInsertionsAccepted, "insertions were kept as plain text (this format has no CriticMarkup)",
                 count: c.insertions)
        d.report(.lossyDeletionsAccepted, "deletions were dropped (this format has no CriticMarkup)", count: c.deletions)
        d.report(.lossyComments, "comments were dropped (this format has no CriticMarkup)", count: c.comments)
        d.report(.lossyFormatChange, "formatting changes were accepted (this format has no CriticMarkup)",
                 count: c.formatChanges)
        d.report(.lossyParagraphStyleChange, "paragraph style changes were accepted (this format has no CriticMarkup)",
                 count: c.styleChanges)
        d.report(.lossyParagraphMarkChange, "paragraph break changes were accepted (this format has no CriticMarkup)",
                 count: c.marks)
    }
}

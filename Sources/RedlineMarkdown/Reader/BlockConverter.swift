import RedlineCore

/// Everything the pre-pass found, shared by the converters of one document.
final class CriticContext {
    let source: [UInt8]
    let scanner: CriticScanner
    let diagnostics: Diagnostics
    /// Per comment index, whether it was handed out (a comment travels once, with its anchor's chunk).
    var emittedComments: [Bool]
    /// Loads linked pictures when the writer embeds them (`ReadOptions.loadLinkedMedia`); nil: links stay links.
    var pictures: MarkdownPictures?

    init(source: [UInt8], scanner: CriticScanner, diagnostics: Diagnostics) {
        self.source = source
        self.scanner = scanner
        self.diagnostics = diagnostics
        emittedComments = [Bool](repeating: false, count: scanner.comments.count)
    }

    /// `s` with every placeholder replaced by the source text it stands for (for code, URLs, raw HTML).
    func restore(_ s: String) -> String {
        guard Placeholder.mayContain(s) else { return s }
        var out = ""
        for piece in Placeholder.pieces(s) {
            switch piece {
            case .text(let t): out += t
            case .mark(let kind, let index): out += original(kind, index)
            }
        }
        return out
    }

    /// The source text of one placeholder.
    func original(_ kind: Placeholder.Kind, _ index: Int) -> String {
        guard index < scanner.originals.count else { return "" }
        if kind == .spanOpen, case .span = scanner.entries[index] { return "[" }
        return String(decoding: source[scanner.originals[index]], as: UTF8.self)
    }
}

/// Turns parsed Markdown (cmark nodes holding placeholders) into model blocks, tracking CriticMarkup state
/// across paragraphs: a change still open when a paragraph ends covers its paragraph break.
final class BlockConverter {
    let context: CriticContext
    /// Resolves a footnote label to its note the first time it is referenced (nil: already given or unknown).
    var noteResolver: ((String) throws -> Note?)?
    /// False for a label with no footnote definition in the flow (its `[^label]:` line was inside a comment
    /// body, code or an HTML comment, where the scanner's line pass also saw it): the reference stays text.
    var noteIsDefined: ((String) -> Bool)?
    /// Comment bodies are parsed with this (a nested Markdown read).
    var bodyParser: ((Range<Int>) throws -> [Block])?
    /// The text cmark parsed (to look at the source lines of div fences).
    var parsedText: [UInt8] = []
    /// Whether lines (1-based, of the scanned text) were taken as verbatim by the pre-pass; nil: no block is
    /// given its source (`withSource`).
    var touchesVerbatim: ((ClosedRange<Int>) -> Bool)?
    var lineStarts: [Int] = []
    /// Lines of `parsedText` that do not belong to the source (prepended definitions).
    var firstLineNumber = 1

    /// Footnote labels by cmark's reference number (1-based).
    var noteLabels: [String] = []

    /// The labels of the document's link reference definitions, by target (`ReaderState.referenceLabels`).
    var referenceLabels: [Link: String] = [:]

    /// Comments (at their first anchor) and notes (at their first reference) read since the reader last took them
    /// for its `ChunkAttacher`.
    var comments: [Comment] = []
    var notes: [Note] = []

    // CriticMarkup state that crosses paragraphs.
    private var change: (index: Int, inserted: Bool)?
    /// The insertion around `change` when that is a deletion nested in it (`{++a{--b--}++}`).
    private var outerChange: Int?
    /// The runs of the nested deletion so far in this paragraph (one atom of the insertion once it ends).
    private var nestedRuns: [Run] = []
    private var highlight = false
    private var formatChange: FormatChange?
    private var divStyles: [ParagraphStyle] = []
    /// Table attributes of the open divs (`widths`, `header-rows`), parallel to `divStyles`.
    private var divTables: [TableFormat] = []
    /// The table attributes of the fence line `fenceLine` parsed last.
    private var fenceTable = TableFormat()
    /// The page roles of the open divs (`PageDivs`), parallel to `divStyles`; nil for a style div.
    private var divPages: [PageDivs.Role?] = []
    /// The page role of the fence line `fenceLine` parsed last.
    private var fencePage: PageDivs.Role?
    /// The sections whose divs are open (their stories so far), and the blocks of the story div open in one.
    private var openSections: [(section: Section, last: Bool)] = []
    private var storyBlocks: [Block]?
    /// Sections whose divs closed, for `ReaderState` to place (after the block before them, or at the end).
    var finishedSections: [(section: Section, last: Bool)] = []
    /// A field's div opened (`PageDivs.Role.field`): the next paragraph read begins it.
    private var pendingFieldStart: FieldCode?
    /// Fields' divs closed since `ReaderState` last looked: each ends after the paragraph before it.
    var finishedFields = 0
    /// The text boxes whose divs are open; the blocks read go into the innermost.
    private var openTextBoxes: [TextBox] = []
    private var textBoxCount = 0
    /// The text box the blocks read now are in.
    var textBox: TextBox? { openTextBoxes.last }
    /// Whether a header's or footer's div is open: the blocks read go into it.
    var inStory: Bool { storyBlocks != nil }

    /// Blocks read inside a story div.
    func addToStory(_ blocks: [Block]) { storyBlocks?.append(contentsOf: blocks) }

    // Per-paragraph state.
    private var runs: [Run] = []
    private var sawSpan = false
    private var styleChange: ParagraphStyleChange?
    /// A row's or cell's change read in the cell being read (`{>>@Ann [row-deleted]<<}`).
    private var pendingRowChange: RowChange?
    /// `{>>@ [row-kept]<<}` read in the cell being read.
    private var pendingRowKept = false
    /// A change closed in this paragraph said `[mark-kept]`.
    private var closedMarkKept = false
    private var pendingCellChange: RowChange?
    private var spanStack: [(index: Int, saved: FlatFormat, runCount: Int, field: FieldCode?)] = []
    /// The run count when the last empty span `[]{}` closed (an empty span at the very end keeps a
    /// paragraph that is one change from reading as a whole inserted or deleted paragraph).
    private var emptySpanAt: Int?
    /// The paragraph converted last held only the closer of a change carried over from the one before.
    private var closedCarriedChange = false
    /// The change an empty paragraph holding only its opener (`{++` alone on its line) opened, until the next
    /// block: a fenced code block inside it replaces that paragraph (`markedCode`).
    private var openedEmpty: Int?
    /// Set when a top-level fenced code block in a change took the place of the empty paragraph its opener's
    /// line made, which is then the reader's last chunk: the mark that paragraph has, for the reader to drop it.
    var replacesOpener: ParagraphMarkChange?
    /// The change the last code block read was in (`markedCode`), until the next paragraph: the line of its
    /// closer then makes no paragraph.
    private var codeChange: Int?
    /// The change open when the paragraph began, and whether any of its text is in it.
    private var carriedChange: Int?
    private var usedCarriedChange = false
    private var flat = FlatFormat()
    private var matchedTags = Set<Int>()
    private var htmlCounter = 0

    /// Formatting that comes from placeholders and HTML tags, which need not nest with the cmark tree.
    struct FlatFormat {
        var underline = 0, smallCaps = 0, highlight = 0, superscript = 0, `subscript` = 0
        var bold = 0, italic = 0, strike = 0
        var styles: [CharacterStyle] = []
    }

    init(context: CriticContext) {
        self.context = context
    }

    /// How many grid tables' cells deep this converter reads (each cell is read by a converter of its own).
    var gridDepth = 0
    /// cmark's nesting limit and `~~` rule, for the cells of grid tables.
    var cmarkDepth = Limits.maxMarkdownNesting
    var doubleTilde = true

    /// A converter for Markdown read apart over the same placeholders (a note's definition, a grid table's cell):
    /// the same note and comment-body resolution and cmark settings, state of its own.
    /// `text` (in this converter's placeholder form) read as Markdown of its own by a `nested()` converter that
    /// knows the document's link labels, its lines numbered from `node`'s: the converter (its comments and notes)
    /// and the blocks. (A grid table's cell, a definition's further paragraphs.)
    func readNested(_ text: [UInt8], at node: MDNode, gridDepth: Int) throws -> (BlockConverter, [Block]) {
        let nested = nested()
        nested.referenceLabels = referenceLabels
        nested.gridDepth = gridDepth
        nested.setParsedText(text)
        nested.firstLineNumber = firstLineNumber + node.startLine - 1
        let root = try Cmark.parse(text, maxDepth: cmarkDepth, doubleTilde: doubleTilde)
        var blocks: [Block] = []
        try nested.convert(root.children, into: &blocks)
        nested.finishFlow()
        return (nested, blocks)
    }

    func nested() -> BlockConverter {
        let c = BlockConverter(context: context)
        c.noteResolver = noteResolver
        c.noteIsDefined = noteIsDefined
        c.bodyParser = bodyParser
        c.cmarkDepth = cmarkDepth
        c.doubleTilde = doubleTilde
        return c
    }

    /// Sets the text the next nodes come from.
    func setParsedText(_ text: [UInt8]) {
        parsedText = text
        lineStarts = [0]
        for (k, b) in text.enumerated() where b == UInt8(ascii: "\n") { lineStarts.append(k + 1) }
    }

    // MARK: Blocks

    /// Converts the children of a container; `previous` is the block list they are appended to.
    /// An empty paragraph of nothing but a closer (`closerOnlyParagraph`) stays only when a paragraph or
    /// heading follows it in the container.
    func convert(_ nodes: [MDNode], into out: inout [Block]) throws {
        var tentative: Int?
        for node in nodes {
            let count = out.count
            closerOnlyParagraph = false
            try convert(node, into: &out)
            if let t = tentative, out.count > count {
                if !Self.joins(out[count]) { out.remove(at: t) }
                tentative = nil
            }
            if closerOnlyParagraph { tentative = out.count - 1 }
        }
        closerOnlyParagraph = false
        if let t = tentative { out.remove(at: t) }
    }

    /// Set after a paragraph of one line (a definition list's term, if a definition follows) and after a
    /// definition (`DefinitionLists`), for the node after it.
    private var previousOneLineParagraph = false, previousDefinition = false
    /// Set when a top-level paragraph was read as the definitions of the paragraph before it, whose chunk the
    /// reader has: that paragraph is the term.
    var termBefore = false

    /// A paragraph as a definition list's term and definitions (`DefinitionLists`): one whose second line
    /// starts a definition, or one whose first line does right after a term (a paragraph of one line, made the
    /// term here) or a definition; nil for any other (or one with a change to its break or style).
    private func definitionItems(_ node: MDNode, _ p: Paragraph, afterTerm: Bool, afterDefinition: Bool, out: inout [Block]) -> [Paragraph]? {
        guard p.style.name == nil, p.markChange == nil, p.styleChange == nil, node.startLine > 0, parsedText.count > 0 else { return nil }
        let count = node.endLine - node.startLine + 1
        guard count >= 1 else { return nil }
        /// Whether line `n` starts a definition (its first bytes only: paragraphs are read once).
        func marker(_ n: Int) -> Bool {
            guard n >= 1, n <= lineStarts.count else { return false }
            let start = min(lineStarts[n - 1] + max(0, node.startColumn - 1), parsedText.count)
            let end = min(n < lineStarts.count ? lineStarts[n] : parsedText.count, start + 16)
            return start < end && DefinitionLists.markerLength(parsedText[start..<end]) != nil
        }
        // Only a paragraph whose first or second line starts a definition can be one.
        let first = marker(node.startLine)
        guard first ? afterTerm || afterDefinition : count > 1 && marker(node.startLine + 1) else { return nil }
        let isMarker = [first] + (node.startLine + 1...max(node.startLine + 1, node.endLine)).prefix(count - 1).map(marker)
        guard let lines = DefinitionLists.lines(p.content, count: count) else { return nil }
        if !isMarker[0] {
            return DefinitionLists.items(lines, isMarker: isMarker, style: p.style, termFirst: true)
        }
        if afterDefinition {
            guard var items = DefinitionLists.items(lines, isMarker: isMarker, style: p.style, termFirst: false) else { return nil }
            // A second definition after a blank line, not the last one's next paragraph: its marker says so.
            if items[0].definitionMarker == nil { items[0].definitionMarker = DefinitionLists.marker }
            return items
        }
        guard afterTerm, let items = DefinitionLists.items(lines, isMarker: isMarker, style: p.style, termFirst: false) else { return nil }
        if out.isEmpty {
            // A top-level paragraph: the term is the reader's last chunk (`MarkdownReader.append`).
            termBefore = true
        } else if case .paragraph(var term)? = out.last, term.style.name == nil, !term.content.isEmpty {
            term.style.name = DefinitionLists.termStyle
            out[out.count - 1] = .paragraph(term)
        } else {
            return nil
        }
        return items
    }

    /// pandoc's attributes ending a heading's line (`# Intro {#sec-intro}`) taken from its text into
    /// `Paragraph.headingAttributes`; the source line decides (a closing `##` or an escaped `\{` is text).
    private func headingAttributes(_ node: MDNode, _ p: inout Paragraph) {
        guard node.startLine > 0, parsedText.count > 0, case .text(let last)? = p.content.last, last.hasSuffix("}") else { return }
        // A setext heading's text ends on the line before its underline.
        let underline = sourceLine(node.endLine).drop { $0 == UInt8(ascii: " ") }
        let setext = node.endLine > node.startLine && (underline.first == UInt8(ascii: "=") || underline.first == UInt8(ascii: "-"))
        guard let suffix = HeadingAttributes.suffix(ofLine: sourceLine(setext ? node.endLine - 1 : node.startLine)),
              let content = HeadingAttributes.dropping(suffix, from: p.content) else { return }
        p.content = content
        p.headingAttributes = suffix
    }

    /// An indented code block after a definition: the definition's further paragraphs (pandoc reads them as
    /// Markdown), each a definition; nil when it is fenced or holds anything but plain paragraphs.
    private func definitionContinuation(_ node: MDNode) throws -> [Paragraph]? {
        guard node.startLine > 0, parsedText.count > 0 else { return nil }
        let first = sourceLine(node.startLine).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard !first.starts(with: "```".utf8), !first.starts(with: "~~~".utf8) else { return nil }
        let (nested, blocks) = try readNested(Array(node.literal.utf8), at: node, gridDepth: 0)
        var out: [Paragraph] = []
        for b in blocks {
            guard case .paragraph(var p) = b, p.style.name == nil, p.markChange == nil, p.styleChange == nil, !p.content.isEmpty else { return nil }
            p.style.name = DefinitionLists.definitionStyle
            out.append(p)
        }
        guard !out.isEmpty else { return nil }
        comments += nested.comments
        notes += nested.notes
        return out
    }

    /// Set when the last paragraph converted held nothing but the closer of a change carried over from
    /// the paragraph before (and its attribution), and was kept as an empty paragraph. That empty
    /// paragraph is what the changed break before it joins on accept or reject: it stays only when a
    /// paragraph or heading follows it (else the closer says that the previous break is changed, nothing
    /// more, which is how a changed break before a list or at a container's end is written).
    var closerOnlyParagraph = false

    /// A top-level paragraph whose inlines come in pieces (`ParagraphPieces`; never a div fence line), converted
    /// as `convert` converts one.
    func convertParagraph(_ first: [MDNode], more: () throws -> [MDNode]?, htmlLiterals: [String], into out: inout [Block]) throws {
        let built = try withoutActuallyEscaping(more) { try paragraph(first, more: $0, htmlLiterals: htmlLiterals, into: &out) }
        if let p = built {
            out.append(.paragraph(p))
        } else if closedCarriedChange {
            out.append(.paragraph(Paragraph([], style: currentDivStyle)))
            closerOnlyParagraph = true
        }
    }

    /// A paragraph or heading: what a changed break joins.
    static func joins(_ b: Block) -> Bool {
        switch b {
        case .paragraph, .heading: return true
        default: return false
        }
    }

    /// Whether the last paragraph node converted starts, in the source, as a table caption does (`: ` or
    /// `Table:`, unescaped): `ReaderState` makes it one next to a table.
    var lastCaptionLike = false

    /// Whether `node`'s source starts as a table caption does.
    private func captionLike(_ node: MDNode) -> Bool {
        // (Most paragraphs start otherwise: one byte decides.)
        guard let b = sourceByte(node.startLine, node.startColumn), b == UInt8(ascii: ":") || b == UInt8(ascii: "T") else { return false }
        let line = sourceLine(node.startLine, from: node.startColumn)
        return line.starts(with: ": ".utf8) || line.starts(with: "Table:".utf8)
    }

    /// The source byte at line `n` (1-based), column `column` (1-based), if there is one on that line.
    private func sourceByte(_ n: Int, _ column: Int) -> UInt8? {
        guard n >= 1, n <= lineStarts.count else { return nil }
        let at = lineStarts[n - 1] + max(0, column - 1)
        return at < parsedText.count ? parsedText[at] : nil
    }

    /// Converts one block node, appending zero or more blocks to `out`.
    func convert(_ node: MDNode, into out: inout [Block]) throws {
        let afterTerm = previousOneLineParagraph, afterDefinition = previousDefinition
        previousOneLineParagraph = false
        previousDefinition = false
        defer { if node.kind != .paragraph && node.kind != .codeBlock { previousOneLineParagraph = false; previousDefinition = false } }
        let captionBefore = lastCaptionLike
        if node.kind == .paragraph { lastCaptionLike = node.startLine > 0 && captionLike(node) } else if node.kind != .table { lastCaptionLike = false }
        switch node.kind {
        case .paragraph:
            fencePage = nil
            // pandoc's grid table (`+---+` lines), read as cmark reads it: one paragraph.
            if gridDepth < Self.maxGridDepth, node.startLine > 0, sourceByte(node.startLine, node.startColumn) == UInt8(ascii: "+"),
               let table = try gridTable(node) {
                lastCaptionLike = captionBefore
                if captionBefore, case .paragraph(let p)? = out.last, let caption = TableCaptions.caption(p) {
                    out[out.count - 1] = .paragraph(caption)
                }
                warnIfInsideChange(node)
                out.append(.table(withSource(divTables.last(where: { !$0.isEmpty })?.applied(to: table) ?? table, node)))
                return
            }
            let fence = divFence(node)
            if fence.opens != nil || fence.closes {
                var page: PageDivs.Role?
                if let style = fence.opens {
                    page = fence.page
                    openPage(page)
                    divStyles.append(style)
                    divTables.append(fence.table)
                    divPages.append(page)
                }
                // Inside a header's or footer's div, what the fence paragraph holds is the story's.
                var here: [Block] = []
                if fence.contentNodes.isEmpty == false {
                    if let p = try paragraph(fence.contentNodes, into: &here) {
                        here.append(.paragraph(p))
                    } else if closedCarriedChange && fence.opens != nil {
                        // `::: {…}` `++}` `:::`: an empty styled paragraph after a changed break.
                        here.append(.paragraph(Paragraph([], style: currentDivStyle)))
                    }
                } else if fence.opens != nil && fence.closes && page == nil {
                    // `::: {…}` `:::`: an empty paragraph with that style.
                    here.append(.paragraph(Paragraph([], style: currentDivStyle)))
                }
                if let box = textBox { here = here.map { $0.inTextBox(box) } }
                if inStory { addToStory(here) } else { out += here }
                if fence.closes { closeDiv() }
                return
            }
            if var p = try paragraph(node.children, into: &out) {
                if let items = definitionItems(node, p, afterTerm: afterTerm, afterDefinition: afterDefinition, out: &out) {
                    out += items.map(Block.paragraph)
                    previousDefinition = true
                    return
                }
                previousOneLineParagraph = node.startLine > 0 && node.startLine == node.endLine && p.style.name == nil
                    && p.markChange == nil && p.styleChange == nil
                // `| line` on every line: pandoc's line block.
                if p.style.name == nil, node.startLine > 0, sourceByte(node.startLine, node.startColumn) == UInt8(ascii: "|"),
                   LineBlocks.isLineBlock(sourceLines: (node.startLine...max(node.startLine, node.endLine)).lazy.map { self.sourceLine($0, from: node.startColumn) }),
                   let lines = LineBlocks.content(p.content) {
                    p.content = lines
                    p.style.name = LineBlocks.styleName
                } else if case .table? = out.last, captionLike(node), let caption = TableCaptions.caption(p) {
                    // `: Caption` after a table: its caption.
                    p = caption
                }
                out.append(.paragraph(p))
            } else if closedCarriedChange {
                out.append(.paragraph(Paragraph([], style: currentDivStyle)))
                closerOnlyParagraph = true
            }
        case .heading:
            if var p = try paragraph(node.children, into: &out) {
                headingAttributes(node, &p)
                out.append(.heading(level: max(1, min(6, node.level)), p))
            } else {
                out.append(.heading(level: max(1, min(6, node.level)), Paragraph([], style: currentDivStyle)))
            }
        case .blockQuote:
            var inner: [Block] = []
            try convert(node.children, into: &inner)
            out.append(.blockQuote(inner))
        case .list:
            var items: [[Block]] = []
            for item in node.children {
                var inner: [Block] = []
                // A marker alone on its line (`-`, or `-` with the item's blocks on the lines below) is an
                // empty first paragraph: Word's empty numbered paragraph.
                if item.children.first.map({ $0.startLine > item.startLine }) ?? true {
                    inner.append(.paragraph(Paragraph([], style: currentDivStyle)))
                }
                try convert(item.children, into: &inner)
                items.append(inner)
            }
            let kind: ListKind = node.ordered ? .ordered(start: node.start, delimiter: node.parenDelimiter ? ")" : ".") : .bullet
            out.append(.list(List(kind: kind, tight: node.tight, items: items)))
        case .codeBlock:
            if afterDefinition, let more = try definitionContinuation(node) {
                out += more.map(Block.paragraph)
                previousDefinition = true
                return
            }
            let info = context.restore(node.url)
            let code = CodeBlock(text: context.restore(node.literal), infoString: info)
            if let marked = markedCode(code, after: &out) {
                out.append(marked)
            } else if let format = RawStyles.format(ofInfo: info) {
                // pandoc's raw block: a fence with `{=latex}`.
                warnIfInsideChange(node)
                out.append(.raw(format: format, text: code.text))
            } else {
                warnIfInsideChange(node)
                out.append(.codeBlock(code))
            }
        case .htmlBlock:
            out.append(.raw(format: "html", text: context.restore(node.literal)))
        case .thematicBreak:
            warnIfInsideChange(node)
            out.append(.thematicBreak)
        case .table:
            warnIfInsideChange(node)
            // `: Caption` (or `Table: Caption`) just before a table: its caption.
            if lastCaptionLike, case .paragraph(let p)? = out.last, let caption = TableCaptions.caption(p) {
                out[out.count - 1] = .paragraph(caption)
            }
            out.append(.table(withSource(try table(node), node)))
        case .footnoteDefinition:
            break
        default:
            break
        }
    }

    /// A fenced code block inside an insertion or deletion (`{++` alone on the line before the fence, `++}` on
    /// the line after: how the writer writes a compared code block) as what compare marks one as: its code-style
    /// paragraph carrying its info string (`Paragraph.codeInfo`), lines and break inserted or deleted. The empty
    /// paragraph the opener's line made goes. nil outside such a change (a substitution, a move, a nested one).
    private func markedCode(_ code: CodeBlock, after out: inout [Block]) -> Block? {
        guard let open = change, outerChange == nil else { return nil }
        let sc = context.scanner.changes[open.index]
        guard sc.moveName == nil, !sc.markKept, sc.kind != .substitution else { return nil }
        let inserted = sc.kind == .insertion
        let mark: ParagraphMarkChange = inserted ? .inserted(sc.change) : .deleted(sc.change)
        if openedEmpty == open.index {
            if case .paragraph(let p)? = out.last, p.content.isEmpty, p.markChange == mark {
                out.removeLast()
            } else if out.isEmpty {
                // At the top level that paragraph is the reader's last chunk (each top-level block is converted
                // into a list of its own): the reader drops it (`ReaderState.append`).
                replacesOpener = mark
            }
        }
        openedEmpty = nil
        codeChange = open.index
        let lines = code.lineBrokenContent
        let content: [Inline] = lines.isEmpty ? [] : [inserted ? .insertion(sc.change, lines) : .deletion(sc.change, lines)]
        return .paragraph(Paragraph(content, style: ParagraphStyle(name: BlockStyleRole.codeName), markChange: mark,
                                    codeInfo: code.infoString))
    }

    private func warnIfInsideChange(_ node: MDNode) {
        if change != nil {
            context.diagnostics.report(.criticBlockChange, "a CriticMarkup change around a code block, table or rule is kept unmarked",
                                       at: SourceLocation(line: node.startLine + firstLineNumber - 1))
        }
    }

    private func table(_ node: MDNode) throws -> Table {
        var rows: [TableRow] = []
        var headers = 0
        for row in node.children where row.kind == .tableRow {
            var cells: [TableCell] = []
            var rowChange: RowChange?
            var kept = false
            for cell in row.children where cell.kind == .tableCell {
                var blocks: [Block] = []
                pendingRowChange = nil
                pendingCellChange = nil
                pendingRowKept = false
                if let p = try paragraph(cell.children, into: &blocks, inCell: true) { blocks.append(.paragraph(p)) }
                if let r = pendingRowChange { rowChange = r }
                if pendingRowKept { kept = true }
                var c = TableCell(blocks)
                if let change = pendingCellChange {
                    c = TableCell(Self.unwrapped(blocks, change), change: change)
                }
                cells.append(c)
            }
            pendingRowChange = nil
            pendingCellChange = nil
            pendingRowKept = false
            if row.isHeaderRow { headers += 1 }
            // A row whose every non-empty cell is one insertion (deletion) of one change is that row inserted
            // (deleted), as the writer writes a changed row, unless it says `[row-kept]`.
            let r = TableRow(cells, change: rowChange)
            rows.append(kept ? r : TableRowChanges.unmarked(r))
        }
        let columns = node.alignments.map { a -> ColumnAlignment in
            switch a {
            case .none: return .none
            case .left: return .left
            case .center: return .center
            case .right: return .right
            }
        }
        let table = Table(columns: columns, headerRowCount: headers, rows: rows)
        return divTables.last(where: { !$0.isEmpty })?.applied(to: table) ?? table
    }

    /// A changed cell's paragraphs without the change of the same kind and author the writer wraps their
    /// text in (`{--old--}` in a deleted cell).
    static func unwrapped(_ blocks: [Block], _ change: RowChange) -> [Block] {
        blocks.map { b in
            guard case .paragraph(var p) = b, p.content.count == 1 else { return b }
            switch (p.content[0], change) {
            case (.insertion(let a, let x), .inserted(let b)) where a.author == b.author && a.date == b.date: p.content = x
            case (.deletion(let a, let x), .deleted(let b)) where a.author == b.author && a.date == b.date: p.content = x
            default: return b
            }
            return .paragraph(p)
        }
    }

    /// Grid tables inside grid tables' cells read as tables this many levels deep; deeper, as text.
    static let maxGridDepth = 8

    /// `node` (a paragraph) as a grid table, when its source lines are one (`GridTables`); each cell's
    /// content is read as Markdown of its own by a converter of its own (the same placeholders, so its
    /// CriticMarkup, comments and notes are the document's).
    private func gridTable(_ node: MDNode) throws -> Table? {
        let first = node.startLine, last = max(node.startLine, node.endLine)
        guard last - first >= 2, last <= lineStarts.count, node.startColumn >= 1 else { return nil }
        var lines: [Range<Int>] = []
        lines.reserveCapacity(last - first + 1)
        for n in first...last {
            let start = lineStarts[n - 1] + node.startColumn - 1
            let end = n < lineStarts.count ? lineStarts[n] - 1 : parsedText.count
            guard start < end, parsedText[start] == UInt8(ascii: "+") || parsedText[start] == UInt8(ascii: "|") else { return nil }
            lines.append(start..<end)
        }
        guard GridTables.startsTable(parsedText[lines[0]]),
              let layout = GridTables.read(parsedText, lines: lines, context: context)
        else { return nil }
        var rows = [TableRow](repeating: TableRow([]), count: layout.rowCount)
        var kept = [Bool](repeating: false, count: layout.rowCount)
        for cell in layout.cells {
            let (nested, read) = try readNested(GridTables.content(parsedText, cell), at: node, gridDepth: gridDepth + 1)
            var blocks = read
            comments += nested.comments
            notes += nested.notes
            // The last paragraph's break is the cell's end: its text reads as text (as in a pipe table).
            if case .paragraph(var p)? = blocks.last, p.markChange != nil {
                p.markChange = nil
                blocks[blocks.count - 1] = .paragraph(p)
            }
            if let r = nested.pendingRowChange { rows[cell.row].change = r }
            if nested.pendingRowKept { kept[cell.row] = true }
            var c = TableCell(blocks, columnSpan: cell.columnSpan, rowSpan: cell.rowSpan)
            if let change = nested.pendingCellChange {
                c = TableCell(Self.unwrapped(blocks, change), columnSpan: cell.columnSpan, rowSpan: cell.rowSpan, change: change)
            }
            rows[cell.row].cells.append(c)
        }
        // A row whose every non-empty cell is one change of one author is that row's change, unless it says
        // `[row-kept]` (as in a pipe table).
        for k in rows.indices where !kept[k] { rows[k] = TableRowChanges.unmarked(rows[k]) }
        return Table(columns: layout.alignments, headerRowCount: layout.headerRows, rows: rows)
    }

    private var currentDivStyle: ParagraphStyle {
        divStyles.reduce(ParagraphStyle()) { $0.merged(with: $1) }
    }

    private func closeDiv() {
        if divStyles.isEmpty {
            context.diagnostics.report(.markdownUnbalancedDiv, "a ':::' closes no fenced div; ignored")
        } else {
            divStyles.removeLast()
            divTables.removeLast()
            if let page = divPages.removeLast() { closePage(page) }
        }
    }

    /// A page div opens: a section's (its stories follow), or a story's inside one.
    private func openPage(_ role: PageDivs.Role?) {
        switch role {
        case .section(let s, let last)?:
            openSections.append((s, last))
        case .story?:
            if openSections.isEmpty || storyBlocks != nil {
                context.diagnostics.report(.markdownUnknownAttribute, "a header or footer div outside a section div (or inside another) was read as its blocks")
            } else {
                storyBlocks = []
            }
        case .textBox(let width, let height)?:
            textBoxCount += 1
            openTextBoxes.append(TextBox(number: textBoxCount, width: width, height: height))
        case .field(let f)?:
            pendingFieldStart = f
        case nil: break
        }
    }

    /// A page div closes: a story joins its section; a section is done.
    private func closePage(_ role: PageDivs.Role) {
        switch role {
        case .story(let kind, let which):
            guard let blocks = storyBlocks, !openSections.isEmpty else { return }
            storyBlocks = nil
            openSections[openSections.count - 1].section.headersFooters.append(HeaderFooter(kind: kind, which: which, blocks: blocks))
        case .section:
            guard let open = openSections.popLast() else { return }
            finishedSections.append(open)
        case .textBox:
            openTextBoxes.removeLast()
        case .field:
            // (A div that held no paragraph begins no field.)
            if pendingFieldStart == nil { finishedFields += 1 }
            pendingFieldStart = nil
        }
    }

    /// Call at the end of a flow: reports divs that never closed.
    func finishFlow() {
        if !divStyles.isEmpty {
            context.diagnostics.report(.markdownUnbalancedDiv, "a fenced div ':::' never closes", count: divStyles.count)
            while !divStyles.isEmpty { closeDiv() }
        }
    }

    // MARK: Div fences

    private struct DivFence {
        var opens: ParagraphStyle?
        var table = TableFormat()
        var page: PageDivs.Role?
        var closes = false
        var contentNodes: [MDNode] = []
    }

    /// The source text of line `n` (1-based) of the parsed text, from column `column` (1-based).
    func sourceLine(_ n: Int, from column: Int = 1) -> ArraySlice<UInt8> {
        guard n >= 1, n <= lineStarts.count else { return [] }
        let start = lineStarts[n - 1]
        var end = start
        while end < parsedText.count, parsedText[end] != UInt8(ascii: "\n") { end += 1 }
        return parsedText[min(start + max(0, column - 1), end)..<end]
    }

    /// Parses a fence line `:::` / `::: {attrs}` / `::: word`: nil when the line is not a fence,
    /// .some(nil) for a closing fence, .some(style) for an opening one.
    private func fenceLine(_ line: ArraySlice<UInt8>) -> ParagraphStyle?? {
        let colons = line.prefix { $0 == UInt8(ascii: ":") }.count
        guard colons >= 3 else { return nil }
        let rest = String(decoding: line.dropFirst(colons), as: UTF8.self).trimmingCharacters(" \t:")
        if rest.isEmpty { return .some(nil) }
        var style = ParagraphStyle()
        fenceTable = TableFormat()
        if rest.hasPrefix("{"), rest.hasSuffix("}") {
            guard let tokens = AttributeList.parse(Substring(rest.dropFirst().dropLast())) else { return nil }
            if let role = PageDivs.role(tokens, diagnostics: context.diagnostics) {
                fencePage = role
                return .some(style)
            }
            var own: [AttributeToken] = []
            var consumed = false
            for t in tokens {
                if FormatAttributes.apply(t, to: &style) || fenceTable.apply(t) {
                    consumed = true
                } else if DivClasses.isDivToken(t) {
                    own.append(t)
                } else {
                    consumed = true
                    context.diagnostics.report(.markdownUnknownAttribute, "a div attribute Redline does not know was ignored ('\(t.key)')")
                }
            }
            if let name = DivClasses.styleName(own, raw: consumed ? nil : Substring(rest.dropFirst().dropLast())) {
                if style.name == nil {
                    style.name = name
                } else {
                    context.diagnostics.report(.markdownUnknownAttribute, "a div's attributes beside its custom-style were ignored ('\(name)')")
                }
            }
            return .some(style)
        }
        guard !rest.contains(" ") else { return nil }
        // `::: warning`: pandoc's one-word form of `::: {.warning}`.
        if DivClasses.isClass(Substring(rest)) { style.name = DivClasses.styleName([rest]) }
        return .some(style)
    }

    private func divFence(_ node: MDNode) -> DivFence {
        var f = DivFence()
        guard parsedText.count > 0 else { return f }
        let first = sourceLine(node.startLine, from: node.startColumn)
        guard first.first == UInt8(ascii: ":"), let opening = fenceLine(first) else {
            // A paragraph of an open div whose last line closes it (`Second paragraph.` then `:::`).
            var nodes = node.children
            if !divStyles.isEmpty, closesOnLastLine(node, &nodes) {
                f.closes = true
                f.contentNodes = nodes
            }
            return f
        }
        var nodes = node.children
        if let style = opening {
            f.opens = style
            f.table = fenceTable
            f.page = fencePage
        } else if node.startLine == node.endLine {
            f.closes = true
            return f
        } else {
            // A closing fence followed by more lines: not a fence paragraph.
            return DivFence()
        }
        // Drop the fence line (everything up to the first top-level break: a fence line may end in
        // spaces, which make its break a hard one).
        if let cut = nodes.firstIndex(where: { $0.kind == .softBreak || $0.kind == .lineBreak }) {
            nodes.removeSubrange(...cut)
        } else {
            nodes = []
        }
        // `::: {…}` and `:::` on the next line: a div around nothing (an empty styled paragraph).
        if node.endLine == node.startLine + 1, f.opens != nil, !nodes.contains(where: { $0.kind == .softBreak || $0.kind == .lineBreak }) {
            let last = sourceLine(node.endLine).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ">") }
            if last.first == UInt8(ascii: ":"), case .some(nil) = fenceLine(last) {
                f.closes = true
                return f
            }
        }
        // A closing fence as the last line.
        if closesOnLastLine(node, &nodes) { f.closes = true }
        f.contentNodes = nodes
        return f
    }

    /// True when the paragraph's last line (not its first) is a closing fence `:::`: `nodes` lose it.
    private func closesOnLastLine(_ node: MDNode, _ nodes: inout [MDNode]) -> Bool {
        guard node.endLine > node.startLine else { return false }
        let last = sourceLine(node.endLine)
        let body = last.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ">") }
        // The break before it is hard when the last content line ends in spaces or a backslash
        // (spaces after a comment at a paragraph's end, say): the fence line still closes.
        guard body.first == UInt8(ascii: ":"), case .some(nil) = fenceLine(body),
              let cut = nodes.lastIndex(where: { $0.kind == .softBreak || $0.kind == .lineBreak }) else { return false }
        nodes.removeSubrange(cut...)
        return true
    }

    // MARK: Paragraphs

    /// Builds a paragraph from inline nodes; nil for a paragraph that only holds CriticMarkup delimiters
    /// (its break, if inside a change, moves to the previous paragraph in `out`).
    func paragraph(_ nodes: [MDNode], into out: inout [Block], inCell: Bool = false) throws -> Paragraph? {
        try paragraph(nodes, more: nil, htmlLiterals: Self.htmlLiterals(nodes), into: &out, inCell: inCell)
    }

    /// Builds a paragraph whose inlines come in pieces (`ParagraphPieces`): `first`, then each batch `more`
    /// gives until nil, the text nodes at each seam joined; `htmlLiterals` are the raw HTML inlines of the
    /// whole paragraph in order (tags are matched across it).
    func paragraph(_ first: [MDNode], more: (() throws -> [MDNode]?)?, htmlLiterals: [String],
                   into out: inout [Block], inCell: Bool = false) throws -> Paragraph? {
        runs = []
        nestedRuns = []
        sawSpan = false
        emptySpanAt = nil
        closedCarriedChange = false
        openedEmpty = nil
        let startChange = change?.index
        let closesCode = startChange != nil && codeChange == startChange
        codeChange = nil
        carriedChange = outerChange ?? change?.index
        usedCarriedChange = false
        styleChange = nil
        closedMarkKept = false
        spanStack = []
        flat = FlatFormat()
        matchedTags = Self.matchHTMLTags(htmlLiterals)
        htmlCounter = 0
        var ctx = TreeFormat()
        var pending = first
        while let batch = try more?() {
            var batch = batch
            if let last = pending.last, last.kind == .text, let next = batch.first, next.kind == .text {
                pending.removeLast()
                batch[0].literal = last.literal + next.literal
            }
            try inlines(pending, &ctx)
            pending = batch
        }
        try inlines(pending, &ctx)
        flushNested()
        // A line holding only delimiters leaves a break at the paragraph's edge: not part of the text.
        // When it closes a change that opened at the end of the line before (`text{++` newline `++}`, as
        // the writer writes a changed break in a tight list item), that change is the paragraph's break.
        var trailingMark: ParagraphMarkChange?
        while let last = runs.last, Self.isBreak(last) {
            switch last.change {
            case .insertion(let c)?: trailingMark = .inserted(c)
            case .deletion(let c)?: trailingMark = .deleted(c)
            default: break
            }
            runs.removeLast()
        }
        // Leading breaks dropped at once (one `removeFirst()` each moved the whole paragraph: quadratic).
        runs.removeFirst(runs.firstIndex { !Self.isBreak($0) } ?? runs.count)
        let mark = currentMarkChange
        if runs.isEmpty && !sawSpan && styleChange == nil {
            // Only delimiters, a change opened here and open over the break (`{++` blank line `++}`):
            // an empty paragraph whose break is that change.
            if outerChange == nil, !inCell, let m = mark ?? trailingMark, trailingMark != nil || change?.index != startChange {
                // (A fenced code block right after it, in the same change, takes its place: `markedCode`.)
                openedEmpty = trailingMark == nil ? change?.index : nil
                return Paragraph([], style: currentDivStyle, markChange: m)
            }
            // Only the closer of the change carried from the previous paragraph: that paragraph's break
            // is changed, and this may be the empty paragraph it joins (the caller decides).
            // (Not after a code block in a change, `markedCode`: its paragraph's break is already the change's.)
            closedCarriedChange = !inCell && startChange != nil && change == nil && mark == nil && !closesCode
            // Only delimiters: no paragraph. A break inside a change belongs to the previous paragraph.
            if let m = mark, !inCell, let last = out.indices.last {
                out[last] = Self.settingMark(out[last], m)
            }
            return nil
        }
        // Only a change that starts in this paragraph makes it a wholly inserted or deleted one. The tail
        // of a change begun in an earlier paragraph (`{++One.` blank line `Two.++}`) keeps its own
        // break, as in Word: only the breaks inside the change are new (or gone).
        let whole = inCell || emptySpanAt == runs.count || usedCarriedChange || closedMarkKept ? nil : Self.wholeParagraphChange(runs)
        var taken: [Run] = []
        swap(&taken, &runs)  // handed over whole: merged in place, never copied
        var p = Paragraph(canonicalInlines(taken), style: currentDivStyle)
        if let f = pendingFieldStart, !inCell {
            p.blockField = BlockField(start: f)
            pendingFieldStart = nil
        }
        if !inCell { p.markChange = mark ?? trailingMark ?? whole }
        p.styleChange = styleChange
        return p
    }

    static func isBreak(_ r: Run) -> Bool {
        if case .lineBreak = r.content { return true }
        if case .atom(.softBreak) = r.content { return true }
        return false
    }

    /// A paragraph that is one insertion (or deletion) as a whole was inserted (deleted) with its break,
    /// as in Word: rejecting (accepting) it removes the paragraph, not just its text.
    static func wholeParagraphChange(_ runs: [Run]) -> ParagraphMarkChange? {
        guard let first = runs.first?.change else { return nil }
        guard runs.allSatisfy({ $0.change == first }) else { return nil }
        switch first {
        case .insertion(let c): return .inserted(c)
        case .deletion(let c): return .deleted(c)
        case .move: return nil
        }
    }

    private static func settingMark(_ block: Block, _ m: ParagraphMarkChange) -> Block {
        switch block {
        case .paragraph(var p) where p.markChange == nil: p.markChange = m; return .paragraph(p)
        case .heading(let l, var p) where p.markChange == nil: p.markChange = m; return .heading(level: l, p)
        default: return block
        }
    }

    private var currentMarkChange: ParagraphMarkChange? {
        guard let c = change else { return nil }
        let sc = context.scanner.changes[c.index]
        if outerChange != nil {
            // A break inserted and deleted again: the model's mark holds one change, and the DOCX reader
            // joins such a paragraph to the next. Here the deletion is kept, which accepting resolves as
            // Word does (the break goes); rejecting keeps it.
            context.diagnostics.report(.criticNestedMark, "a paragraph break inside a deletion nested in an insertion is read as deleted only")
        }
        return c.inserted ? .inserted(sc.change) : .deleted(sc.change)
    }

    /// Formatting from the cmark tree (saved and restored around each node).
    struct TreeFormat {
        var bold = false, italic = false, strike = false
        var link: Link?
    }

    private func inlines(_ nodes: [MDNode], _ ctx: inout TreeFormat) throws {
        var k = 0
        while k < nodes.count {
            let n = nodes[k]
            k += 1
            if n.kind == .code, k < nodes.count, nodes[k].kind == .text, let (format, rest) = Self.rawAttribute(nodes[k].literal) {
                // `` `\LaTeX`{=latex} ``: pandoc's raw inline.
                add(.atom(.raw(format: format, text: context.restore(n.literal))), ctx)
                if !rest.isEmpty { try text(rest, ctx) }
                k += 1
                continue
            }
            guard n.kind == .image else { try inline(n, &ctx); continue }
            // `![alt](src){#fig-x width=…}`: the attribute list is the start of the next text node.
            if k < nodes.count, nodes[k].kind == .text, let (found, rest) = Self.imageAttributes(nodes[k].literal) {
                image(n, size: found.size, attributes: found.text, &ctx)
                if !rest.isEmpty { try text(rest, ctx) }
                k += 1
            } else {
                image(n, size: (nil, nil), attributes: nil, &ctx)
            }
        }
    }

    /// pandoc's raw attribute at the start of `s` (`{=latex}`): the format and the rest of `s`.
    static func rawAttribute(_ s: String) -> (String, String)? {
        guard s.hasPrefix("{="), let close = s.firstIndex(of: "}") else { return nil }
        let format = s[s.index(s.startIndex, offsetBy: 2)..<close]
        guard RawFormats.isFormat(format) else { return nil }
        return (String(format), String(s[s.index(after: close)...]))
    }

    private func image(_ n: MDNode, size: (Double?, Double?), attributes: String?, _ ctx: inout TreeFormat) {
        let alt = context.restore(Self.plainText(n.children))
        let source = context.restore(n.url)
        var picture = Image(source: source, title: context.restore(n.title), alt: alt, width: size.0, height: size.1,
                            attributes: attributes)
        picture.media = context.pictures?.item(for: source, diagnostics: context.diagnostics)
        add(.atom(.image(picture)), ctx)
    }

    /// A pandoc attribute list at the start of `s` (`{#fig-x .class width=50% height=2in}`): its text between
    /// the braces, the size it gives (lengths in in, cm, mm, pt, px, or % of a 6.5-inch text width), and the
    /// rest of `s`; nil when `s` does not start with a well-formed list.
    static func imageAttributes(_ s: String) -> ((text: String, size: (Double?, Double?)), String)? {
        guard s.hasPrefix("{"), let close = s.firstIndex(of: "}") else { return nil }
        let inner = s[s.index(after: s.startIndex)..<close]
        guard let tokens = AttributeList.parse(inner), !tokens.isEmpty else { return nil }
        // pandoc's forms only (`#id`, `.class`, `key=value`): a bare word is text that happens to follow.
        func isName(_ s: Substring) -> Bool {
            guard let f = s.unicodeScalars.first, f.properties.isAlphabetic else { return false }
            return s.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_:.".unicodeScalars.contains($0) }
        }
        for t in tokens {
            let k = Substring(t.key)
            // (`AttributeList` gives `#id` as the key `#` with the value `id`.)
            guard t.value != nil ? isName(k) || k == "#" : k.hasPrefix(".") && isName(k.dropFirst()) else { return nil }
        }
        var w: Double?, h: Double?
        for t in tokens {
            guard let v = t.value else { continue }
            switch t.key {
            case "width": w = Self.points(v)
            case "height": h = Self.points(v)
            default: break
            }
        }
        return ((String(inner), (w, h)), String(s[s.index(after: close)...]))
    }

    /// A CSS-like length in points (`2.5in`, `6cm`, `40mm`, `180pt`, `240px`, a bare number of pixels, or a
    /// percentage of a 6.5-inch text width: US Letter or A4 with one-inch margins, nearly).
    static func points(_ v: String) -> Double? {
        if v.hasSuffix("%") { return Double(v.dropLast()).flatMap { $0 > 0 ? $0 / 100 * 468 : nil } }
        let units: [(String, Double)] = [("in", 72), ("cm", 72 / 2.54), ("mm", 72 / 25.4), ("pt", 1), ("px", 0.75)]
        for (u, f) in units where v.hasSuffix(u) { return Double(v.dropLast(u.count)).map { $0 * f }.flatMap { $0 > 0 ? $0 : nil } }
        return Double(v).map { $0 * 0.75 }.flatMap { $0 > 0 ? $0 : nil }
    }

    private func inline(_ n: MDNode, _ ctx: inout TreeFormat) throws {
        switch n.kind {
        case .text:
            try text(n.literal, ctx)
        case .softBreak:
            add(.atom(.softBreak), ctx)
        case .lineBreak:
            add(.lineBreak, ctx)
        case .code:
            // A mark restored into a code span may bring line ends (a comment's blank line); CommonMark makes
            // a code span's line ends spaces, and a span cannot hold a blank line when written again.
            var code = context.restore(n.literal)
            if code.utf8.contains(where: { $0 == 10 || $0 == 13 }) {
                code = code.replacingOccurrences(of: "\r\n", with: " ")
                    .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
            }
            add(.text(code), ctx, code: true)
        case .htmlInline:
            let index = htmlCounter
            htmlCounter += 1
            if matchedTags.contains(index), applyTag(n.literal) { return }
            add(.atom(.raw(format: "html", text: context.restore(n.literal))), ctx)
        case .emphasis, .strong, .strikethrough:
            let saved = ctx
            if n.kind == .emphasis { ctx.italic = true } else if n.kind == .strong { ctx.bold = true } else { ctx.strike = true }
            try inlines(n.children, &ctx)
            ctx = saved
        case .link:
            let saved = ctx
            var link = Link(url: context.restore(n.url), title: context.restore(n.title))
            if !referenceLabels.isEmpty { link.label = referenceLabels[link] }
            ctx.link = link
            try inlines(n.children, &ctx)
            ctx = saved
        case .image:
            image(n, size: (nil, nil), attributes: nil, &ctx)
        case .footnoteReference:
            let number = Int(n.literal) ?? 0
            let label = number >= 1 && number <= noteLabels.count ? noteLabels[number - 1] : n.literal
            add(.atom(.noteReference(label)), ctx)
            if let note = try noteResolver?(label) { notes.append(note) }
        default:
            try inlines(n.children, &ctx)
        }
    }

    static func plainText(_ nodes: [MDNode]) -> String {
        var s = ""
        for n in nodes {
            switch n.kind {
            case .text, .code: s += n.literal
            case .softBreak, .lineBreak: s += " "
            default: s += plainText(n.children)
            }
        }
        return s
    }

    private func text(_ literal: String, _ ctx: TreeFormat) throws {
        // Most text holds no placeholder: added as it is, without an array of pieces (what `pieces` gives).
        guard Placeholder.mayContain(literal) else { return add(.text(literal), ctx) }
        for piece in Placeholder.pieces(literal) {
            switch piece {
            case .text(let t): add(.text(String(t)), ctx)
            case .mark(let kind, let index): try placeholder(kind, index, ctx)
            }
        }
    }

    private func placeholder(_ kind: Placeholder.Kind, _ index: Int, _ ctx: TreeFormat) throws {
        let scanner = context.scanner
        guard index < scanner.entries.count else { add(.text(context.original(kind, index)), ctx); return }
        let entry = scanner.entries[index]
        switch (kind, entry) {
        case (.changeOpen, .change(let c)):
            // The scanner nests only a deletion in an insertion; a placeholder restored in code may leave
            // one unmatched, which then reads as not nested.
            if let open = change, scanner.changes[open.index].kind == .insertion, scanner.changes[c].kind == .deletion {
                outerChange = open.index
            }
            change = (c, scanner.changes[c].kind == .insertion)
        case (.changeSwitch, .change(let c)) where change?.index == c:
            change = (c, true)
        case (.changeClose, .change(let c)) where change?.index == c:
            if scanner.changes[c].markKept { closedMarkKept = true }
            if let outer = outerChange {
                flushNested()
                change = (outer, true)
                outerChange = nil
            } else {
                change = nil
            }
        case (.highlightOpen, .highlight(let h)):
            switch scanner.highlights[h] {
            case .plain: highlight = true
            case .formatChange(let f): formatChange = f
            case .comment(let id):
                add(.atom(.commentStart(id)), ctx)
                try emitThread(startingWith: id)
            }
        case (.highlightClose, .highlight(let h)):
            switch scanner.highlights[h] {
            case .plain: highlight = false
            case .formatChange: formatChange = nil
            case .comment(let id): add(.atom(.commentEnd(id)), ctx)
            }
        case (.comment, .comments(let ids, let isRangeStart)):
            guard let first = ids.first else { return }
            let id = scanner.commentID(first)
            add(.atom(isRangeStart ? .commentStart(id) : .commentPoint(id)), ctx)
            try emit(ids)
        case (.commentEnd, .commentEnd(let id)):
            add(.atom(.commentEnd(id)), ctx)
        case (.styleChange, .styleChange(let k)):
            styleChange = scanner.styleChanges[k]
        case (.blockMark, .blockMark(let k)):
            // Taken by `table` for the cell being read; outside a table it says nothing.
            switch scanner.blockMarks[k] {
            case .row(let r): pendingRowChange = r
            case .cell(let r): pendingCellChange = r
            case .rowKept: pendingRowKept = true
            }
        case (.spanOpen, .span(let tokens)):
            sawSpan = true
            let saved = flat
            let field = applySpan(tokens)
            spanStack.append((index, saved, runs.count, field))
        case (.noteReference, .note(let label)):
            guard noteIsDefined?(label) ?? true else {
                add(.text(context.original(kind, index)), ctx)
                return
            }
            add(.atom(.noteReference(label)), ctx)
            if let note = try noteResolver?(label) { notes.append(note) }
        case (.inlineNote, .inlineNote(let body, let id)):
            // pandoc's `^[…]`: a footnote whose text is read as Markdown of its own (as a comment's body). pandoc
            // reads that text as inlines: one whose text reads as other blocks (`^[# a]`, `^[1. x]`) stays text.
            let blocks = try bodyParser?(body) ?? []
            guard blocks.count == 1, case .paragraph(let p) = blocks[0], p.markChange == nil, p.style.isEmpty else {
                // As written, its lines without a quote's or item's prefix, joined by soft breaks.
                let text = "^[" + String(decoding: CommentBody.strippingContainerPrefix(context.source, body), as: UTF8.self) + "]"
                for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    if k > 0 { add(.atom(.softBreak), ctx) }
                    let trimmed = k > 0 ? line.drop { $0 == " " || $0 == "\t" } : line
                    if !trimmed.isEmpty { add(.text(String(trimmed)), ctx) }
                }
                return
            }
            add(.atom(.noteReference(id)), ctx)
            var note = Note(id: id, blocks: blocks)
            note.isInline = true
            notes.append(note)
        case (.math, .math(let tex, let display)):
            let text = String(decoding: context.source[tex], as: UTF8.self)
            add(.atom(.math(display ? .display : .inline, text)), ctx)
        case (.spanOpen, .script(let superscript)):
            sawSpan = true
            spanStack.append((index, flat, runs.count, nil))
            if superscript { flat.superscript += 1 } else { flat.subscript += 1 }
        case (.spanClose, .span), (.spanClose, .script):
            if let k = spanStack.lastIndex(where: { $0.index == index }) {
                flat = spanStack[k].saved
                let start = spanStack[k].runCount
                if start == runs.count { emptySpanAt = runs.count }
                // `[1]{.field instr="PAGE"}`: the span's runs are the field's result, one atom.
                if let code = spanStack[k].field, nestedRuns.isEmpty, start <= runs.count,
                   let atom = Run.field(code, result: runs[start...]) {
                    runs.removeSubrange(start...)
                    runs.append(atom)
                }
                spanStack.removeSubrange(k...)
            }
        default:
            add(.text(context.original(kind, index)), ctx)
        }
    }

    /// Applies a span's formatting; a field span (`.field` with `instr=`) gives its field instead.
    private func applySpan(_ tokens: [AttributeToken]) -> FieldCode? {
        if tokens.contains(where: { $0.key == ".field" && $0.value == nil }),
           let instruction = tokens.first(where: { $0.key == "instr" })?.value {
            return FieldCode(instruction: instruction)
        }
        var style = CharacterStyle()
        var hasStyle = false
        for t in tokens {
            switch (t.key, t.value) {
            case (".underline", nil), (".ul", nil): flat.underline += 1
            case (".smallcaps", nil), (".small-caps", nil): flat.smallCaps += 1
            case (".mark", nil), (".highlight", nil): flat.highlight += 1
            case (".superscript", nil), (".sup", nil): flat.superscript += 1
            case (".subscript", nil), (".sub", nil): flat.subscript += 1
            default:
                if FormatAttributes.apply(t, to: &style) { hasStyle = true } else {
                    context.diagnostics.report(.markdownUnknownAttribute, "a span attribute Redline does not know was ignored ('\(t.key)')")
                }
            }
        }
        if hasStyle { flat.styles.append(style) }
        return nil
    }

    private func emitThread(startingWith id: String) throws {
        guard let first = context.scanner.commentIndex(of: id) else { return }
        var ids = [first]
        var k = first + 1
        while k < context.scanner.comments.count, context.scanner.comments[k].parent == first {
            ids.append(k); k += 1
        }
        try emit(ids)
    }

    private func emit(_ ids: [Int]) throws {
        for i in ids where !context.emittedComments[i] {
            context.emittedComments[i] = true
            var (c, body) = context.scanner.comment(at: i)
            c.body = try bodyParser?(body) ?? []
            comments.append(c)
        }
    }

    // MARK: Runs

    private func add(_ content: Run.Content, _ ctx: TreeFormat, code: Bool = false) {
        // The converter's state is read once into locals: each read of a class property is an exclusivity
        // check, and this runs for every run of a paragraph (PERFORMANCE.md, "Small runs").
        // The format is set field by field on a plain one: `TextFormat`'s initializer builds an empty
        // `CharacterStyle` for its default argument (~200 instructions a run).
        let flat = self.flat
        var f = Self.plain
        f.bold = ctx.bold || flat.bold > 0
        f.italic = ctx.italic || flat.italic > 0
        f.underline = flat.underline > 0
        f.strikethrough = ctx.strike || flat.strike > 0
        f.superscript = flat.superscript > 0
        f.subscript = flat.subscript > 0
        f.smallCaps = flat.smallCaps > 0
        f.highlight = highlight || flat.highlight > 0
        f.code = code
        if !flat.styles.isEmpty {
            var style = CharacterStyle()
            for s in flat.styles { style = style.merged(with: s) }
            f.style = style
        }
        let formatChange = self.formatChange
        var run = ctx.link == nil && formatChange == nil
            ? Run(content, format: f) : Run(content, format: f, link: ctx.link, formatChange: formatChange)
        let outerChange = self.outerChange
        if let c = change {
            if c.index == carriedChange || (outerChange != nil && outerChange == carriedChange) { usedCarriedChange = true }
            let sc = context.scanner.changes[c.index]
            let inserted = sc.kind == .insertion || (sc.kind == .substitution && c.inserted)
            if let name = sc.moveName, sc.kind != .substitution {
                run.change = .move(Move(change: sc.change, name: name, side: inserted ? .to : .from))
            } else {
                run.change = inserted ? .insertion(sc.change) : .deletion(sc.change)
            }
        }
        if outerChange != nil { nestedRuns.append(run) } else { runs.append(run) }
    }

    private static let plain = TextFormat()

    /// The outer insertion (or move) as a run change.
    private func runChange(_ index: Int) -> RunChange {
        let sc = context.scanner.changes[index]
        if let name = sc.moveName { return .move(Move(change: sc.change, name: name, side: .to)) }
        return .insertion(sc.change)
    }

    /// The nested deletion read so far, as atoms of the insertion around it (as the DOCX reader nests
    /// `w:del` in `w:ins`).
    private func flushNested() {
        guard let outer = outerChange, !nestedRuns.isEmpty else { return }
        let change = runChange(outer)
        runs += InlineBuilder.inlines(from: nestedRuns).map { Run(.atom($0), change: change) }
        nestedRuns = []
    }

    // MARK: HTML tags

    nonisolated(unsafe) private static let tagNames: [String: WritableKeyPath<FlatFormat, Int>] = [
        "u": \.underline, "sup": \.superscript, "sub": \.subscript, "mark": \.highlight,
        "em": \.italic, "i": \.italic, "strong": \.bold, "b": \.bold, "s": \.strike, "del": \.strike, "strike": \.strike,
    ]

    /// `<u>`, `</u>`...: the tag name and whether it closes; nil for other HTML.
    private static func tag(_ html: String) -> (String, Bool)? {
        guard html.hasPrefix("<"), html.hasSuffix(">"), html.count <= 10 else { return nil }
        var body = html.dropFirst().dropLast()
        let closing = body.first == "/"
        if closing { body = body.dropFirst() }
        let name = body.lowercased()
        return tagNames[name] != nil ? (name, closing) : nil
    }

    /// The HTML inline nodes' text, in document order (not inside images).
    static func htmlLiterals(_ nodes: [MDNode]) -> [String] {
        var list: [String] = []
        func walk(_ ns: [MDNode]) {
            for n in ns {
                if n.kind == .htmlInline { list.append(n.literal) }
                if n.kind != .image { walk(n.children) }
            }
        }
        walk(nodes)
        return list
    }

    /// Indices (in document order) of the HTML inline nodes that are matched formatting tags.
    private static func matchHTMLTags(_ list: [String]) -> Set<Int> {
        guard !list.isEmpty else { return [] }
        var matched = Set<Int>()
        var open: [String: [Int]] = [:]
        for (k, html) in list.enumerated() {
            guard let (name, closing) = Self.tag(html) else { continue }
            if closing {
                if let o = open[name]?.popLast() { matched.insert(o); matched.insert(k) }
            } else {
                open[name, default: []].append(k)
            }
        }
        return matched
    }

    private func applyTag(_ html: String) -> Bool {
        guard let (name, closing) = Self.tag(html), let path = Self.tagNames[name] else { return false }
        flat[keyPath: path] += closing ? -1 : 1
        return true
    }
}

/// The canonical inlines for runs: nested in `InlineBuilder`'s order, then a deletion directly followed by
/// an insertion of the same author and date paired into a substitution.
func canonicalInlines(_ runs: consuming [Run]) -> [Inline] {
    // Adjacent text runs that differ in nothing else are one run (cmark splits text at every
    // punctuation mark; fewer runs make the nesting cheaper). Merged in place: no second array.
    // The runs are compared in place and moved down by swapping: a copy of each (`let r = merged[i]`) cost
    // a retain and release of its text and boxes (PERFORMANCE.md, "Small runs").
    var merged = runs
    var kept = 0
    for i in merged.indices {
        if kept > 0, case .text(let b) = merged[i].content, case .text = merged[kept - 1].content,
           merged[kept - 1].format == merged[i].format, merged[kept - 1].hasSameExtras(as: merged[i]) {
            merged[kept - 1].content.appendText(b)
        } else {
            if kept != i { merged.swapAt(kept, i) }
            kept += 1
        }
    }
    merged.removeLast(merged.count - kept)
    if !merged.indices.contains(where: { !merged[$0].format.isPlain || !merged[$0].hasNoExtras }) {
        return merged.compactMap { r -> Inline? in
            switch r.content {
            case .text(let t): return t.isEmpty ? nil : .text(t)
            case .lineBreak: return .lineBreak
            case .atom(let a): return a
            }
        }
    }
    // Pairing looks for deletions: without any, it would only copy every container of the paragraph.
    let hasDeletion = merged.indices.contains { i in
        if case .deletion? = merged[i].change { return true }
        if case .atom(let a) = merged[i].content, containsDeletion(a) { return true }
        return false
    }
    let inlines = InlineBuilder.inlines(from: merged)
    return hasDeletion ? pairSubstitutions(inlines) : inlines
}

private func containsDeletion(_ inline: Inline) -> Bool {
    switch inline {
    case .deletion, .substitution: return true
    default: return inline.children.contains(where: containsDeletion)
    }
}

/// Pairs a deletion directly followed by an insertion with the same attribution into a substitution.
func pairSubstitutions(_ inlines: [Inline]) -> [Inline] {
    var out: [Inline] = []
    for inline in inlines.map({ $0.mapChildren(pairSubstitutions) }) {
        if case .insertion(let b, let i)? = Optional(inline), case .deletion(let a, let d)? = out.last, a == b {
            out[out.count - 1] = .substitution(a, deleted: d, inserted: i)
            continue
        }
        out.append(inline)
    }
    return out
}

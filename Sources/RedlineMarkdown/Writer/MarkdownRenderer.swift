import RedlineCore

/// Writes blocks as Markdown: the canonical form the reader reads back to the same blocks.
/// Holds what crosses blocks: the comment side table, a paragraph break change waiting for its closing
/// delimiter, comment range names, and the formatting losses to report.
final class MarkdownRenderer {
    let options: WriteOptions
    let diagnostics: Diagnostics
    private var comments: [String: Comment] = [:]
    private var replies: [String: [Comment]] = [:]
    private var rangeNames: [String: String] = [:]
    private var usedRangeNames = Set<String>()
    /// Ids of the notes that arrived so far, and of the referenced ones that never did (reported once each).
    private var noteIDs = Set<String>(), missingNotes = Set<String>()
    /// The closing delimiter (and attribution) of a paragraph-break change, written at the start of the
    /// next paragraph, or alone when no paragraph follows in the same container.
    private var pendingCloser: String?
    /// The change left open at the end of the last paragraph (its closer is `pendingCloser`).
    private var pendingContinuation: ParagraphMarkChange?
    /// The last block written in the current container was a paragraph or heading with a mark change: an
    /// empty paragraph after it is written (it is what that mark joins to on accept or reject).
    private var previousHadMark = false
    /// The block written after the one being written in the same container (nil at its end, or not yet
    /// known): a paragraph with a mark change before an empty paragraph leaves its change open over its
    /// break, so that the closer alone stands for the empty paragraph.
    var nextBlock: Block?
    /// The block written before this one (at this level) was a table.
    var previousWasTable = false
    /// What the block written last was of a definition list (`DefinitionLists`), nil for anything else.
    var definitionItemBefore: DefinitionItem?
    enum DefinitionItem { case term, definition }
    /// Set when the paragraph written last is a definition after a term or definition: the writer puts it on
    /// the line after them (pandoc's tight form), not after a blank line.
    var joinsPrevious = false
    /// Writing a grid table's cell: its paragraphs are not filled (`--wrap=auto`).
    var inGridCell: Bool { gridDepth > 0 }
    /// How many grid tables' cells are being written around the current block: a table deeper than the reader reads
    /// grid tables (`BlockConverter.maxGridDepth`) is a pipe table (each level of a grid adds borders to every line of
    /// the levels around it: thousands of levels would be quadratic).
    var gridDepth = 0
    /// Writing the last block of a grid table's cell (`gridCell`), whose paragraph has no break of its own.
    var atCellEnd = false
    /// Distinct fonts, sizes, colours and backgrounds dropped (reported as counts at the end).
    private var lostFonts = Set<String>(), lostSizes = Set<Double>(), lostColors = Set<RGBColor>(), lostBackgrounds = Set<RGBColor>()

    /// Writing a comment body: nothing inside may use `{>>…<<}` (it would end the comment), so
    /// attributions of changes there are left out (reported).
    var inCommentBody = false
    /// Where pictures go (shared with the renderers of comment bodies, so names stay unique).
    let media: MediaExtractor

    init(options: WriteOptions, diagnostics: Diagnostics, media: MediaExtractor? = nil) {
        self.options = options
        self.diagnostics = diagnostics
        self.media = media ?? MediaExtractor(options: options, diagnostics: diagnostics)
    }

    // MARK: Side tables

    /// The comment tables and range names, saved and restored when a paragraph is written twice.
    /// Block quotes, list items and notes being written around the current block (their lines get prefixes).
    var containerDepth = 0
    /// The width of the line prefixes of the quotes, list items and notes around the current block.
    var containerIndent = 0

    var sideTables: (comments: [String: Comment], replies: [String: [Comment]], names: [String: String], used: Set<String>) {
        get { (comments, replies, rangeNames, usedRangeNames) }
        set { (comments, replies, rangeNames, usedRangeNames) = newValue }
    }

    /// Adds comments arriving with a chunk.
    func register(_ list: [Comment]) {
        for c in list {
            if let p = c.parentID, comments[p] != nil || list.contains(where: { $0.id == p }) {
                replies[p, default: []].append(c)
            } else {
                comments[c.id] = c
            }
        }
    }

    /// Whether pandoc's own syntax is written (else GitHub's: `WriteOptions.markdownDialect`).
    var pandocSyntax: Bool { options.markdownDialect != .gfm }

    /// Adds the ids of notes arriving with a chunk (a note comes with the chunk that first references it).
    func register(notes list: [Note]) {
        for n in list {
            noteIDs.insert(n.id)
            if n.isInline { inlineNotes[n.id] = n }
        }
    }

    /// Notes read from `^[…]` not yet written, and those written so (their definitions are left out).
    private var inlineNotes: [String: Note] = [:]
    private(set) var writtenInline = Set<String>()
    /// The answer `inlineNoteText` gave for each inline note: a paragraph written again (emphasis falling back
    /// to tags after a check) writes its notes as the first time.
    private var inlineAnswers: [String: String?] = [:]

    /// The text of an inline note written as `^[text]` at its reference: one plain paragraph, nothing in it that
    /// only a note of its own can hold (comments, notes, changes to its break or style), no blank line, and its
    /// brackets closing where it ends; else nil (it is written as `[^id]` and a definition).
    func inlineNoteText(_ id: String) -> String? {
        if let answer = inlineAnswers[id] { return answer }
        guard let n = inlineNotes.removeValue(forKey: id) else { return nil }
        let answer = inlineText(n)
        inlineAnswers[id] = answer
        if answer != nil { writtenInline.insert(id) }
        return answer
    }

    private func inlineText(_ n: Note) -> String? {
        guard pandocSyntax, n.kind == .footnote, n.blocks.count == 1,
              case .paragraph(let p) = n.blocks[0], p.markChange == nil, p.styleChange == nil, p.style.isEmpty || !options.preserveFormatting,
              !Self.holdsAnchorsOrNotes(p.content) else { return nil }
        let nested = MarkdownRenderer(options: options, diagnostics: diagnostics, media: media)
        var s = nested.sequence(n.blocks, tight: false)
        while s.hasSuffix("\n") { s.removeLast() }
        guard !s.isEmpty, !s.contains("\n\n"), !s.hasPrefix(" "), InlineNotes.closesAtEnd(s) else { return nil }
        return s
    }

    private static func holdsAnchorsOrNotes(_ content: [Inline]) -> Bool {
        content.contains { i in
            switch i {
            case .commentStart, .commentEnd, .commentPoint, .noteReference: return true
            default: return holdsAnchorsOrNotes(i.children)
            }
        }
    }

    /// Whether the document holds the note `id` refers to. A reference to a note it does not hold (a DOCX
    /// document.xml without its footnotes part) is left out: `[^id]` would read back as text.
    func hasNote(_ id: String) -> Bool {
        if noteIDs.contains(id) { return true }
        if missingNotes.insert(id).inserted {
            diagnostics.report(.markdownMissingNote, "a note reference had no note and was left out")
        }
        return false
    }

    func takeComment(_ id: String) -> Comment? { comments.removeValue(forKey: id) }
    /// Whether a comment with this id is still to be written.
    func hasComment(_ id: String) -> Bool { comments[id] != nil }
    /// Comments registered but never anchored in the text (left out of the output).
    var unanchoredComments: Int { comments.count }
    func takeReplies(_ id: String) -> [Comment] { replies.removeValue(forKey: id) ?? [] }

    /// The milestone name for a comment range (its id when that is a valid name).
    func rangeName(for id: String) -> String {
        if let n = rangeNames[id] { return n }
        var name = id.allSatisfy(CommentText.isNameCharacter) && !id.isEmpty ? id : "c\(rangeNames.count + 1)"
        while usedRangeNames.contains(name) { name += "x" }
        rangeNames[id] = name
        usedRangeNames.insert(name)
        return name
    }

    /// The name to close a milestone range with (nil when its start was never written).
    func endRangeName(for id: String) -> String? {
        rangeNames.removeValue(forKey: id)
    }

    /// The text between `{>>` and `<<}` for a comment.
    func commentText(_ c: Comment, rangeName: String?) -> String {
        let body = renderNested(c.body)
        var attrs: [AttributeToken] = []
        if let n = rangeName { attrs.append(AttributeToken("#", n)) }
        if c.resolved { attrs.append(AttributeToken("resolved")) }
        if let i = c.initials { attrs.append(AttributeToken("initials", i)) }
        if c.author != nil || c.date != nil || !attrs.isEmpty {
            return CommentText.header(author: c.author, date: c.date, attributes: attrs) + " | " + body
        }
        // A plain body, unless it would read as a name, `Name: text`, an end marker or a header.
        let parsed = CommentText(Substring(body))
        if parsed.author == nil, parsed.endMarker == nil, !parsed.isAttributionOnly, parsed.body == Substring(body) {
            return body
        }
        return "@ | " + body
    }

    /// Blocks of a comment body as Markdown (paragraphs separated by blank lines, no trailing newline).
    private func renderNested(_ blocks: [Block]) -> String {
        let nested = MarkdownRenderer(options: options, diagnostics: diagnostics, media: media)
        nested.inCommentBody = true
        var s = nested.sequence(blocks, tight: false)
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }

    // MARK: Losses

    /// Reference labels defined so far (normalized) with their targets, and the definitions not yet written.
    private var definedReferences: [String: Link] = [:]
    private var pendingDefinitions: [(label: String, link: Link)] = []

    /// Whether a link to `link` can be written as a reference to `label`: a label that reads back as one, and
    /// not defined before for another target. A new label's definition waits for `takeDefinitions`.
    func defineReference(_ label: String, _ link: Link) -> Bool {
        // A grid table's cell is read as Markdown of its own, without the document's definitions.
        if inGridCell { return false }
        guard !label.isEmpty, label.utf8.count < 1000, !label.hasPrefix("^"),
              !label.unicodeScalars.contains(where: { $0 == "[" || $0 == "]" || $0 == "\\" || $0.value < 0x20 }),
              !label.allSatisfy({ $0 == " " }), !link.url.isEmpty else { return false }
        let key = Self.normalizedLabel(label)
        if let known = definedReferences[key] { return known == link }
        // Words in brackets written as they are (`plainLabel`) would become this link.
        if plainLabels.contains(key) { return false }
        definedReferences[key] = link
        pendingDefinitions.append((label, link))
        return true
    }

    /// Labels of words in brackets written without escapes (`[sic]`): no reference definition may give them a
    /// target afterwards.
    private var plainLabels = Set<String>()

    /// Whether words in brackets with this text can be written without escapes: no reference link written so
    /// far defines their label (then no later one will: `defineReference`).
    func plainLabel(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count < 1000 else { return false }
        let key = Segmenter.normalizeLabel(Array(text)[...])
        guard !key.isEmpty, definedReferences[key] == nil else { return false }
        plainLabels.insert(key)
        return true
    }

    /// A label as CommonMark matches it: case-folded, runs of spaces as one.
    static func normalizedLabel(_ s: String) -> String { Segmenter.normalizeLabel(Array(s.utf8)[...]) }

    /// The definitions of the reference links written since the last call, one line each (none: "").
    func takeDefinitions() -> String {
        guard !pendingDefinitions.isEmpty else { return "" }
        defer { pendingDefinitions = [] }
        return pendingDefinitions.map {
            "[" + $0.label + "]: " + InlineRenderer.destination($0.link.url) + InlineRenderer.title($0.link.title)
        }.joined(separator: "\n")
    }

    func loss(_ code: DiagnosticCode, _ message: String, count: Int = 1) {
        diagnostics.report(code, message, count: count)
    }

    func characterStyleLost(_ s: CharacterStyle) {
        if let v = s.fontFamily { lostFonts.insert(v) }
        if let v = s.fontSize { lostSizes.insert(v) }
        if let v = s.color { lostColors.insert(v) }
        if let v = s.backgroundColor { lostBackgrounds.insert(v) }
        if s.name != nil { loss(.lossyCharacterStyle, "named character styles were dropped (use --keep-formatting)") }
        if s.allCaps || s.doubleStrikethrough { loss(.lossyCaps, "all caps and double strikethrough were dropped (use --keep-formatting)") }
    }

    /// True for the style name a heading of `level` has anyway ("heading 2", "Heading 2", "Heading2"):
    /// dropping it loses nothing.
    static func isDefaultHeadingStyle(_ name: String, level: Int) -> Bool {
        let n = name.lowercased().filter { $0 != " " }
        return n == "heading\(level)"
    }

    private func paragraphStyleLost(_ s: ParagraphStyle, level: Int?) {
        if let name = s.name, !(level.map { Self.isDefaultHeadingStyle(name, level: $0) } ?? false) { loss(.lossyParagraphStyle, "named paragraph styles were dropped (use --keep-formatting)") }
        if s.alignment != nil { loss(.lossyAlignment, "paragraph alignment was dropped (use --keep-formatting)") }
        if s.firstLineIndent != nil || s.leftIndent != nil || s.rightIndent != nil {
            loss(.lossyParagraphIndent, "paragraph indents were dropped (use --keep-formatting)")
        }
        if s.lineSpacing != nil { loss(.lossyLineSpacing, "line spacing was dropped (use --keep-formatting)") }
        if s.spaceBefore != nil || s.spaceAfter != nil {
            loss(.lossyParagraphSpacing, "space before and after paragraphs was dropped (use --keep-formatting)")
        }
        if !s.tabStops.isEmpty { loss(.lossyTabStops, "tab stops were dropped (use --keep-formatting)") }
    }

    /// Reports the distinct fonts, sizes and colours dropped.
    func reportDistinctLosses() {
        loss(.lossyFont, "fonts were dropped (\(lostFonts.count) distinct; use --keep-formatting)", count: lostFonts.count)
        loss(.lossyFontSize, "font sizes were dropped (\(lostSizes.count) distinct; use --keep-formatting)", count: lostSizes.count)
        loss(.lossyColor, "text colours were dropped (\(lostColors.count) distinct; use --keep-formatting)", count: lostColors.count)
        loss(.lossyBackground, "background colours were dropped (\(lostBackgrounds.count) distinct; use --keep-formatting)",
             count: lostBackgrounds.count)
    }

    // MARK: Blocks

    /// A sequence of blocks (a container's content), joined by blank lines (single newlines when tight);
    /// a waiting closer is flushed at the end, inside the container.
    func sequence(_ blocks: [Block], tight: Bool, endsCell: Bool = false) -> String {
        let savedNext = nextBlock, savedPrevious = previousWasTable, savedEnd = atCellEnd
        defer { nextBlock = savedNext; previousWasTable = savedPrevious; atCellEnd = savedEnd }
        atCellEnd = false
        definitionItemBefore = nil
        var parts: [String] = []
        var previous: Block?
        var bullet: Character = "-"
        previousHadMark = false
        for (k, var b) in blocks.enumerated() {
            nextBlock = k + 1 < blocks.count ? blocks[k + 1] : nil
            if case .table? = previous { previousWasTable = true } else { previousWasTable = false }
            // Two ordered lists in a row with one delimiter read as one list: the second takes the other.
            if case .list(var l) = b, case .ordered(let s, let d) = l.kind, case .list(let p)? = previous,
               case .ordered(_, let pd) = p.kind, pd == d {
                l.kind = .ordered(start: s, delimiter: d == "." ? ")" : ".")
                b = .list(l)
            }
            if case .list(let l) = b, l.kind == .bullet, case .list(let p)? = previous, p.kind == .bullet {
                bullet = bullet == "-" ? "*" : "-"
            } else if case .list = b {
                bullet = "-"
            }
            atCellEnd = endsCell && k == blocks.count - 1
            joinsPrevious = false
            var written = blockParts(b, bullet: bullet).filter { !$0.isEmpty }
            atCellEnd = false
            if joinsPrevious, !written.isEmpty, let last = parts.popLast() {
                // A definition on the line after its term (`DefinitionLists`).
                written[0] = last + "\n" + written[0]
            }
            parts += written
            // An empty paragraph left out is no block: the blocks around it still meet.
            if !written.isEmpty || b.paragraph == nil { previous = b }
        }
        if let closer = takePendingCloser() { parts.append(closer) }
        return parts.joined(separator: tight ? "\n" : "\n\n")
    }

    /// A top-level block: its parts (a waiting closer alone first when this block cannot take it).
    func blockParts(_ block: Block, bullet: Character = "-") -> [String] {
        if case .paragraph = block { return parts(block, bullet: bullet) }
        // Any other block ends a definition list.
        defer { definitionItemBefore = nil; joinsPrevious = false }
        return parts(block, bullet: bullet)
    }

    private func parts(_ block: Block, bullet: Character) -> [String] {
        if let text = writtenAsRead(block) {
            previousHadMark = false
            definitionItemBefore = nil
            return [text]
        }
        switch block {
        case .paragraph(let p) where BlockStyleRole.codeBlock(p) != nil:
            // A code-style paragraph of plain lines (a resolved changed code block) is a code block.
            return blockParts(.codeBlock(BlockStyleRole.codeBlock(p)!), bullet: bullet)
        case .paragraph(let p):
            if options.criticMarkup && !inCommentBody, let (change, fences) = markedCodeFences(p) {
                // A compared code block: whole fences inside `{--`/`--}` and `{++`/`++}` lines. A change the
                // paragraph before left open over its break (`three{++`) goes on over the first fence when it is
                // the same; otherwise its closer comes first, on the first opener's line.
                previousHadMark = true
                let continuation = pendingContinuation
                let closer = takePendingCloser() ?? ""
                var parts: [String] = []
                for (k, f) in fences.enumerated() {
                    let (open, close) = f.inserted ? ("{++", "++}") : ("{--", "--}")
                    let tail = f.fence + "\n" + close + attribution(change)
                    if k == 0, let m = continuation, Self.isSame(m, inserted: f.inserted, change) {
                        parts.append(tail)
                    } else {
                        parts.append((k == 0 ? closer : "") + open + "\n" + tail)
                    }
                }
                return [parts.joined(separator: "\n\n")]
            }
            if p.style.name == BlockStyleRole.codeName && options.criticMarkup && p.content.runs.contains(where: { $0.change != nil }) {
                diagnostics.report(.criticCodeChange,
                                   "a code block with changed lines was written as a marked paragraph: resolved, it is a paragraph")
            }
            return [paragraph(p, level: nil)]
        case .heading(let l, let p): return [paragraph(p, level: l)]
        default: break
        }
        var parts: [String] = []
        if let closer = takePendingCloser() { parts.append(closer) }
        switch block {
        case .blockQuote(let blocks):
            containerDepth += 1
            containerIndent += 2
            let inner = sequence(blocks, tight: false)
            containerDepth -= 1
            containerIndent -= 2
            parts.append(inner.isEmpty ? ">" : prefixLines(inner, first: "> ", rest: "> "))
        case .list(let l):
            parts.append(list(l, bullet: bullet))
        case .codeBlock(let c):
            parts.append(codeBlock(c))
        case .table(let t):
            parts.append(writtenAsRead(t) ?? table(t))
        case .thematicBreak:
            parts.append("***")
        case .raw(let format, var text):
            if format == "html", text.isEmpty || !pandocSyntax || RawHTML.readsAsBlock(text) {
                if text.hasSuffix("\n") { text.removeLast() }
                parts.append(text)
            } else if RawFormats.isFormat(Substring(format)), pandocSyntax {
                // pandoc's raw block: a fence with `{=latex}`.
                parts.append(codeBlock(CodeBlock(text: text, infoString: "{=" + format + "}")))
            } else {
                loss(.lossyRaw, "raw \(format) content was dropped")
            }
        case .paragraph, .heading:
            break
        }
        previousHadMark = false
        return parts
    }

    /// An empty paragraph that carries nothing (no mark or style change, no style kept, no mark before
    /// it) is not written: reading Markdown never gives one back, so dropping it is a normalisation.
    private func isWrittenAsNothing(_ p: Paragraph) -> Bool {
        isPlainEmpty(p) && !previousHadMark && pendingCloser == nil
    }

    /// Blank, with no mark or style change and no style to write: an empty paragraph the text can only
    /// hold as the closer of the change before it (after a paragraph with a mark change), as a bare list
    /// marker (an item's first block), or not at all.
    func isPlainEmpty(_ p: Paragraph) -> Bool {
        Self.isBlank(p.content) && p.markChange == nil && p.styleChange == nil && (p.style.isEmpty || !options.preserveFormatting)
    }

    private static func isEdgeBreak(_ i: Inline) -> Bool {
        if case .lineBreak = i { return true }
        if case .softBreak = i { return true }
        return false
    }

    /// No content, or only spaces and tabs (which a Markdown paragraph cannot hold: `[]{}` would write it
    /// as an empty one).
    static func isBlank(_ content: [Inline]) -> Bool {
        content.allSatisfy { if case .text(let t) = $0 { return t.allSatisfy { $0 == " " || $0 == "\t" } } else { return false } }
    }

    /// True while a paragraph break change waits for its closer (notes must not be written inside it).
    var hasPendingCloser: Bool { pendingCloser != nil }

    func takePendingCloser() -> String? {
        defer { pendingCloser = nil; pendingContinuation = nil }
        return pendingCloser
    }

    /// Prefixes every line; blank lines get the prefix without trailing spaces.
    func prefixLines(_ text: String, first: String, rest: String) -> String {
        var out = ""
        var isFirst = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !isFirst { out += "\n" }
            let p = isFirst ? first : rest
            if line.isEmpty { out += p.trimmingCharacters(" ") } else { out += p; out += line }
            isFirst = false
        }
        return out
    }

    // MARK: Paragraphs

    /// `inlines` as the writer renders them (`ReadableInlines`: what Markdown drops cannot split a run).
    func readable(_ inlines: [Inline]) -> [Inline] {
        ReadableInlines.prepare(inlines, dropStyles: !options.preserveFormatting, moveSpaces: !options.preserveFormatting,
                                lost: characterStyleLost)
    }

    private func paragraph(_ p: Paragraph, level: Int?) -> String {
        var p = p
        p.content = readable(p.content)
        // A line block (`| line`), unless a change left open before it must close first: its breaks are lines
        // (an empty first or last one too).
        let lineBlock = pandocSyntax && level == nil && pendingCloser == nil && pendingContinuation == nil && LineBlocks.isWritable(p)
        if lineBlock {
            p.content = LineBlocks.spacedLines(p.content)
            p.style.name = nil
        }
        // A table's caption next to it: `: caption` (elsewhere it would not read back as one: a paragraph).
        let besideTable = previousWasTable || nextBlock.map { if case .table = $0 { return true }; return false } ?? false
        let caption = level == nil && pendingCloser == nil && pendingContinuation == nil && TableCaptions.isWritable(p) && besideTable
        if caption { p.style.name = nil }
        // A definition list's term, and a definition right after a term or a definition (`DefinitionLists`):
        // `:   ` before the text, its further lines indented four. Either with a changed break stays a paragraph.
        let plainItem = level == nil && pendingCloser == nil && pendingContinuation == nil && p.markChange == nil && p.styleChange == nil
        let definition = plainItem && definitionItemBefore != nil && DefinitionLists.isDefinition(p) && !p.content.isEmpty
        let term = plainItem && DefinitionLists.isTerm(p)
        // A definition's next paragraph: after a definition, neither tight.
        let continued = pandocSyntax && definition && !p.compact && definitionItemBefore == .definition && p.definitionMarker == nil
        // GitHub's Markdown has no definition lists: terms and definitions are paragraphs there.
        joinsPrevious = pandocSyntax && definition && p.compact
        definitionItemBefore = nil
        if definition || term { p.style.name = nil }
        // A break first or last in a paragraph is no break in Markdown (the reader drops it): not written.
        if !lineBlock, p.content.first.map(Self.isEdgeBreak) == true || p.content.last.map(Self.isEdgeBreak) == true {
            loss(.lossyBreak, "a line break at a paragraph's start or end was dropped")
            // All at once (one `removeFirst()` each moved the whole paragraph: quadratic in leading breaks).
            p.content.removeFirst(p.content.firstIndex { !Self.isEdgeBreak($0) } ?? p.content.count)
            while p.content.last.map(Self.isEdgeBreak) == true { p.content.removeLast() }
        }
        if level == nil && isWrittenAsNothing(p) {
            if !p.style.isEmpty { paragraphStyleLost(p.style, level: nil) }
            return ""
        }
        previousHadMark = p.markChange != nil
        // CriticMarkup carries no revision ids: a break change and the text's change with the same author
        // and date are one change (a DOCX reader gives each its own `w:id`).
        let markChange = Self.withoutID(p.markChange)
        var r = InlineRenderer(owner: self)
        r.inHeading = level != nil && (level! > 2 || !Self.hasBreak(p.content))
        if options.lineWrap == .auto, level == nil, !inCommentBody, !inGridCell {
            // The width left beside the prefixes of the quotes, list items and notes around the paragraph.
            r.wrapWidth = max((options.columns ?? 72) - containerIndent, 16)
        }
        // A change left open at the previous paragraph's end continues here when this paragraph starts
        // with the same change (`{++…` blank line `…++}`); otherwise its closer comes first.
        let continuing = pendingContinuation != nil && Self.edgeChange(p.content, first: true) == pendingContinuation
        pendingContinuation = nil
        if continuing {
            pendingCloser = nil
            r.omitFirstOpener = true
        } else if let closer = takePendingCloser() {
            r.bytes += closer.utf8
            r.atLineStart = false
        }
        // This paragraph's break is in the change its text ends with: leave that change open across it
        // (unless the paragraph is that change alone, which `{++…++}` already says, and it did not continue).
        // (The last paragraph of a grid table's cell has no break of its own: its text reads as text.)
        let implied = atCellEnd ? nil : Self.impliedMark(p.content)
        // Before an empty paragraph, a paragraph that is its change as a whole leaves it open too
        // (`{++text` blank line `++}`): the closer alone is the empty paragraph.
        let beforeEmpty = nextBlock.map { if case .paragraph(let q) = $0 { return isPlainEmpty(q) }; return false } ?? false
        let leaveOpen = options.criticMarkup && !inCommentBody && markChange != nil
            && Self.edgeChange(p.content, first: false) == markChange && (implied == nil || continuing || beforeEmpty)
        r.omitLastCloser = leaveOpen
        if let sc = p.styleChange {
            if options.criticMarkup && !inCommentBody {
                let tokens = [AttributeToken("style-change")] + FormatAttributes.tokens(sc.old)
                r.bytes += "{>>".utf8
                r.bytes += CommentText.header(author: sc.change.author, date: sc.change.date, attributes: tokens).utf8
                r.bytes += "<<}".utf8
                r.atLineStart = false
            } else {
                loss(.lossyParagraphStyleChange, "paragraph style changes were dropped")
            }
        }
        if level == nil, r.bytes.isEmpty, case .raw(let f, _)? = p.content.first, f == "html" {
            // A tag alone at a paragraph's start would read as an HTML block.
            r.bytes += "[]{}".utf8
            r.atLineStart = false
        }
        // Spaces before a paragraph break change stay before its opener (`split {++` blank line).
        let bareOpener = markChange.map { !leaveOpen && ($0 != implied || continuing) } ?? false
        r.keepTrailingSpaces = bareOpener && options.criticMarkup && !inCommentBody
        if lineBlock {
            r.inLineBlock = true
            r.bytes += "| ".utf8
            r.atLineStart = false
        } else if caption && !TableCaptions.isLabelled(p.content) {
            r.bytes += ": ".utf8
            r.atLineStart = false
        } else if besideTable && !caption {
            // Text that would read as a caption next to a table is escaped.
            r.escapeLeadingColon = true
        } else if level == nil {
            // A definition's marker; elsewhere `: text` at a line's start would read as a definition.
            if definition && pandocSyntax {
                r.bytes += (continued ? "    " : p.definitionMarker.flatMap { DefinitionLists.isWritable($0) ? $0 : nil } ?? DefinitionLists.marker).utf8
            }
            r.escapeMarkerColon = true
        }
        r.render(p.content)
        var body = r.out
        // A definition's further lines are indented (lazy lines read the same); not when a comment in it holds
        // blocks (a blank line), whose lines the comment's own reading would take as indented code.
        if definition, pandocSyntax, !body.contains("\n\n") { body = body.replacingOccurrences(of: "\n", with: "\n    ") }
        if lineBlock {
            // An empty line is the bar alone.
            body = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0 == "| " ? "|" : String($0) }.joined(separator: "\n")
        }
        // An empty paragraph is written as what it carries: its mark change alone (`{++` blank line `++}`:
        // a paragraph holding only an opener is an empty one), the closer of the change before it (which
        // the reader keeps as an empty paragraph when a paragraph follows), its style change, its style's
        // div. After a paragraph that is one change as a whole, which closes its change (in a comment
        // body, or with no CriticMarkup), it is left out: the same text when accepted or rejected.
        if level == nil && body.isEmpty && markChange == nil && p.styleChange == nil && (p.style.isEmpty || !options.preserveFormatting) {
            if options.criticMarkup {
                loss(.lossyEmptyParagraph, "an empty paragraph after a paragraph wholly inserted or deleted was left out")
            }
            if !p.style.isEmpty { paragraphStyleLost(p.style, level: nil) }
            return ""
        }
        // A paragraph that is one insertion or deletion reads as inserted or deleted with its break: one
        // whose break is unchanged cannot be told from it (an empty span `[]{}` would, but no one writes
        // those), so its break comes back in the change. Accepting gives the same text; rejecting an
        // insertion (accepting a deletion) leaves no empty paragraph where Word leaves one.
        // (The tail of a change continued from the previous paragraph never reads as a whole one.)
        // A paragraph that is one insertion or deletion but keeps its break says so in the change's
        // attribution: `{--text--}{>>@Ann (date) [mark-kept]<<}` (`{>>@ [mark-kept]<<}` when it has none).
        if implied != nil && markChange == nil && options.criticMarkup && !continuing && !inCommentBody {
            if body.hasSuffix("<<}") {
                body.insert(contentsOf: " [mark-kept]", at: body.index(body.endIndex, offsetBy: -3))
            } else {
                body += "{>>@ [mark-kept]<<}"
            }
        }
        if leaveOpen, let m = markChange {
            switch m {
            case .inserted(let c): pendingCloser = "++}" + attribution(c)
            case .deleted(let c): pendingCloser = "--}" + attribution(c)
            }
            pendingContinuation = m
        } else if let m = markChange, m != implied || !options.criticMarkup || continuing {
            if options.criticMarkup {
                switch m {
                case .inserted(let c):
                    body += "{++"
                    pendingCloser = "++}" + attribution(c)
                case .deleted(let c):
                    body += "{--"
                    pendingCloser = "--}" + attribution(c)
                }
                // A next paragraph that starts with the same change continues it: `A.{++` blank line `B.++}`.
                if !inCommentBody { pendingContinuation = m }
            } else {
                loss(.lossyParagraphMarkChange, "paragraph break changes were dropped")
            }
        }
        var text: String
        // A setext heading's lines would take a fence line right above them in: the fence is set apart then.
        var setext = false
        if let level {
            if p.headingAttributes != nil, !pandocSyntax {
                loss(.lossyAttributes, "pandoc attributes of headings and pictures were dropped (GitHub Markdown has none)")
            } else if let attributes = p.headingAttributes, !body.isEmpty, HeadingAttributes.isSuffix(attributes) {
                body += attributes
            } else if let list = HeadingAttributes.wouldRead(p.content),
                      let brace = body.range(of: list, options: .backwards)?.lowerBound ?? HeadingAttributes.looksLikeAttributes(body) {
                // Text that would read as attributes (`Set {#a}` from Word): its brace escaped.
                body.insert("\\", at: brace)
            }
            if r.inHeading {
                if body.hasSuffix("#"), body.reversed().drop(while: { $0 == "#" }).prefix(while: { $0 == "\\" }).count % 2 == 0 {
                    body.insert("\\", at: body.index(before: body.endIndex))
                }
                text = String(repeating: "#", count: level) + (body.isEmpty ? "" : " " + body)
            } else {
                text = body + "\n" + (level == 1 ? "===" : "---")
                setext = true
            }
        } else {
            text = body
        }
        if (definition || term) && !text.isEmpty { definitionItemBefore = term ? .term : .definition }
        if !p.style.isEmpty {
            // A style name that reads as a div's attributes is written as that div (`::: {.callout-note}`), with
            // or without `preserveFormatting`: it is the author's div, not formatting.
            var style = p.style
            let divName = DivClasses.isDivName(style.name) ? style.name : nil
            if divName != nil { style.name = nil }
            if options.preserveFormatting {
                // An empty styled paragraph is a div with nothing in it.
                let tokens = AttributeList.write(FormatAttributes.tokens(style))
                let list = [divName ?? "", tokens].filter { !$0.isEmpty }.joined(separator: " ")
                text = "::: {" + list + "}\n" + (setext ? "\n" : "") + (text.isEmpty ? "" : text + "\n") + ":::"
            } else {
                if !style.isEmpty { paragraphStyleLost(style, level: level) }
                if let divName {
                    text = pandocSyntax ? DivClasses.fence(name: divName) + "\n" + (setext ? "\n" : "") + (text.isEmpty ? "" : text + "\n") + ":::"
                        : DivClasses.htmlOpen(name: divName) + "\n\n" + (text.isEmpty ? "" : text + "\n\n") + "</div>"
                }
            }
        }
        return text
    }

    /// The change of the first (or last) inline when it is an insertion or deletion, as a break change.
    /// The change at the content's first (last) edge as a break change, without its revision id.
    static func edgeChange(_ content: [Inline], first: Bool) -> ParagraphMarkChange? {
        switch first ? content.first : content.last {
        case .insertion(let c, _)?: return withoutID(.inserted(c))
        case .deletion(let c, _)?: return withoutID(.deleted(c))
        default: return nil
        }
    }

    /// The mark change the reader gives a paragraph whose every run is one insertion (deletion) of one change
    /// (`BlockConverter.wholeParagraphChange`): one change inline, or several the reader reads as one (the same
    /// author and date; CriticMarkup has no ids), as `{--a--}{>>@Bob<<}{--b--}{>>@Bob<<}`.
    private static func impliedMark(_ content: [Inline]) -> ParagraphMarkChange? {
        if content.count == 1 {
            switch content[0] {
            case .insertion(let c, _): return withoutID(.inserted(c))
            case .deletion(let c, _): return withoutID(.deleted(c))
            default: return nil
            }
        }
        guard content.count > 1, content.allSatisfy({ if case .insertion = $0 { return true }; if case .deletion = $0 { return true }; return false })
        else { return nil }
        var mark: ParagraphMarkChange?
        for r in content.runs {
            let m: ParagraphMarkChange?
            switch r.change {
            case .insertion(let c)?: m = withoutID(.inserted(c))
            case .deletion(let c)?: m = withoutID(.deleted(c))
            default: return nil
            }
            if let mark, mark != m { return nil }
            mark = m
        }
        return mark
    }

    /// `m` with its change's revision id removed (CriticMarkup does not write ids).
    static func withoutID(_ m: ParagraphMarkChange?) -> ParagraphMarkChange? {
        switch m {
        case .inserted(var c)?: c.id = nil; return .inserted(c)
        case .deleted(var c)?: c.id = nil; return .deleted(c)
        case nil: return nil
        }
    }

    private func attribution(_ c: Change) -> String {
        guard c.author != nil || c.date != nil else { return "" }
        if inCommentBody {
            loss(.lossyCommentBodyAttribution, "authors and dates of changes inside comments were dropped")
            return ""
        }
        return attributionComment(c)
    }

    /// `{>>@Author` with the author escaped, for the authors met so far (a document has few authors, and
    /// most changes a date of their own, so the author is what is worth remembering).
    private var attributionOpeners: [(author: String, opener: [UInt8])] = []

    /// Appends the comment `{>>@Author (date)<<}` that attributes a change with no other attributes:
    /// what `CommentText.header(author:date:)` gives, inside `{>>…<<}`.
    func appendAttributionComment(_ c: Change, to out: inout [UInt8]) {
        if let a = c.author {
            if let known = attributionOpeners.first(where: { $0.author == a }) {
                out += known.opener
            } else {
                let opener = Array(("{>>@" + CommentText.escapeName(a)).utf8)
                if attributionOpeners.count < 64 { attributionOpeners.append((a, opener)) }
                out += opener
            }
        } else {
            out += "{>>@".utf8
        }
        if let d = c.date {
            out += (c.author == nil ? "(" : " (").utf8
            out += CommentText.escapeDate(d).utf8
            out.append(UInt8(ascii: ")"))
        }
        out += "<<}".utf8
    }

    /// The comment `{>>@Author (date)<<}` that attributes a change with no other attributes.
    func attributionComment(_ c: Change) -> String {
        var bytes: [UInt8] = []
        appendAttributionComment(c, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hasBreak(_ inlines: [Inline]) -> Bool {
        inlines.contains { i in
            if case .softBreak = i { return true }
            if case .lineBreak = i { return true }
            return hasBreak(i.children)
        }
    }

    // MARK: Containers and leaves

    private func list(_ l: List, bullet: Character) -> String {
        // In a tight list two blocks of an item meet without a blank line, and a paragraph after a
        // paragraph joins it, as does an ordered list not starting at 1 (only `1.` interrupts a
        // paragraph): such a list is written loose.
        // An empty item is its bare marker, which cannot interrupt a paragraph either (and `-` under a
        // paragraph's line underlines a heading): a list starting with one after an item's text makes the
        // outer list loose too.
        let tight = l.tight && !l.items.contains { item in
            zip(item, item.dropFirst()).contains { a, b in
                if case .list = a { return false }
                if case .list(let nested) = b {
                    // (An empty first paragraph is no text: its marker is alone on its line.)
                    guard let p = a.paragraph, !(item.first == a && isPlainEmpty(p) && a == .paragraph(p)) else { return false }
                    if case .ordered(let start, _) = nested.kind, start != 1 { return true }
                    guard case .paragraph = a else { return false }
                    return nested.items.first.map(startsEmpty) ?? false
                }
                return true
            }
        }
        if l.tight && !tight {
            loss(.lossyListSpacing, "a tight list whose items hold several blocks was written loose")
        }
        var items: [String] = []
        for (n, item) in l.items.enumerated() {
            let marker: String
            switch l.kind {
            case .bullet: marker = String(bullet)
            case .ordered(let start, let d): marker = String(start + n) + String(d)
            }
            containerDepth += 1
            containerIndent += marker.count + 1
            let inner = sequence(item, tight: tight)
            containerDepth -= 1
            containerIndent -= marker.count + 1
            let pad = String(repeating: " ", count: marker.count + 1)
            if inner.isEmpty {
                items.append(marker)
            } else if startsEmpty(item) {
                // An empty first paragraph: the marker alone on its line, the item's other blocks below it.
                items.append(marker + "\n" + prefixLines(inner, first: pad, rest: pad))
            } else {
                items.append(prefixLines(inner, first: marker + " ", rest: pad))
            }
        }
        return items.joined(separator: tight ? "\n" : "\n\n")
    }

    /// An item with no blocks, or whose first block is an empty paragraph written as nothing: its marker
    /// is alone on its line (the reader gives such an item an empty first paragraph back).
    private func startsEmpty(_ item: [Block]) -> Bool {
        guard case .paragraph(let p)? = item.first else { return item.isEmpty }
        return isPlainEmpty(p)
    }

    /// A comparison's code-style paragraph (`Paragraph.codeInfo`) as whole fenced blocks in changes (the fences
    /// here, the marks around them, each alone on its line, by `blockParts`): OLD's code deleted, NEW's inserted,
    /// the one the paragraph has (a deleted or an inserted code block) or both (changed lines: the block
    /// deleted and inserted, which resolve alike). The reader reads each back as such a paragraph. nil when the
    /// paragraph's changes are not one insertion or deletion (or both, with one author and date) of plain lines.
    private func markedCodeFences(_ p: Paragraph) -> (change: Change, fences: [(inserted: Bool, fence: String)])? {
        guard let info = p.codeInfo, p.style.name == BlockStyleRole.codeName, p.styleChange == nil, p.sectionEnd == nil
        else { return nil }
        // One author and date (CriticMarkup carries no revision ids: changes with the same are one).
        var change: Change?
        func take(_ c: Change) -> Bool {
            if let known = change { return known.author == c.author && known.date == c.date }
            change = c
            return true
        }
        for run in p.content.runs {
            switch run.change {
            case .insertion(let c)?, .deletion(let c)?: guard take(c) else { return nil }
            case .move?: return nil
            case nil: break
            }
            if run.formatChange != nil { return nil }
        }
        switch p.markChange {
        case .inserted(let c)?, .deleted(let c)?: guard take(c) else { return nil }
        case nil: break
        }
        let sides = BlockStyleRole.codeSides(p)
        guard let change, sides.accepted != nil || sides.rejected != nil else { return nil }
        var fences: [(inserted: Bool, fence: String)] = []
        for (text, inserted) in [(sides.rejected, false), (sides.accepted, true)] {
            guard let text else { continue }
            fences.append((inserted, codeBlock(CodeBlock(text: text, infoString: info))))
        }
        return (change, fences)
    }

    /// Whether a paragraph break change is an insertion (or deletion) by `change`'s author at its date.
    private static func isSame(_ m: ParagraphMarkChange, inserted: Bool, _ change: Change) -> Bool {
        switch m {
        case .inserted(let c): return inserted && c.author == change.author && c.date == change.date
        case .deleted(let c): return !inserted && c.author == change.author && c.date == change.date
        }
    }

    private func codeBlock(_ c: CodeBlock) -> String {
        var longest = 0, run = 0
        for ch in c.text {
            if ch == "`" { run += 1; longest = max(longest, run) } else if ch == "\n" { run = 0 } else { run = 0 }
        }
        // An info string with a backtick cannot follow a backtick fence: tildes then.
        let info = c.info ?? c.language
        let useTildes = info.contains("`")
        var longestTilde = 0, tildes = 0
        for ch in c.text {
            if ch == "~" { tildes += 1; longestTilde = max(longestTilde, tildes) } else { tildes = 0 }
        }
        let fence = useTildes ? String(repeating: "~", count: max(3, longestTilde + 1))
            : String(repeating: "`", count: max(3, longest + 1))
        var text = c.text
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        return fence + info + "\n" + text + fence
    }

    /// The table's rows laid out on its grid: a cell's text in its first column, an empty cell wherever a
    /// column or row span covers the grid (GFM has no spans), so later cells keep their columns.
    private func gridRows(_ t: Table) -> [[String]] {
        var covered: [Int] = []   // per column: rows still covered by a row span from above
        var rows: [[String]] = []
        var spans = 0
        for row in t.rows {
            var cells: [String] = []
            var pending = row.cells[...]
            func skipCovered() {
                while cells.count < covered.count, covered[cells.count] > 0 {
                    covered[cells.count] -= 1
                    cells.append("")
                }
            }
            skipCovered()
            while let cell = pending.popFirst() {
                let width = max(1, cell.columnSpan), height = max(1, cell.rowSpan)
                if width > 1 || height > 1 { spans += 1 }
                for k in 0..<width {
                    let column = cells.count
                    while covered.count <= column { covered.append(0) }
                    covered[column] = height - 1
                    cells.append(k == 0 ? tableCell(cell) : "")
                }
                skipCovered()
            }
            // Spans from above that reach past this row's last cell.
            while cells.count < covered.count {
                if covered[cells.count] > 0 { covered[cells.count] -= 1 }
                cells.append("")
            }
            rows.append(cells)
        }
        if spans > 0 {
            loss(.lossyTableSpan, "merged table cells were split (each covered position written as an empty cell)", count: spans)
        }
        return rows
    }

    /// A table as its author wrote it (`Table.source`: padding, delimiter row, grid lines), while it is the
    /// table that was read and nothing in it needs the writer: pandoc's Markdown with CriticMarkup, no
    /// formatting to carry or report, and no comment, note, picture or reference link (the writer keeps
    /// those beside the table). Else nil: written anew.
    private func writtenAsRead(_ t: Table) -> String? {
        guard !t.source.isEmpty, pandocSyntax, options.criticMarkup, options.pipeTablesOnly != true, !inCommentBody,
              gridDepth == 0, let text = t.source.text(ifStill: .table(t)), t.source.isReadFromText || Self.reads(text, as: .table(t)),
              // Column widths (every DOCX table has them) are written only with --keep-formatting.
              TableFormat(t).isEmpty || (!options.preserveFormatting && t.headerRowCount == 1),
              t.rows.allSatisfy({ $0.change == nil && $0.cells.allSatisfy { Self.writesAsRead($0.blocks) } }) else { return nil }
        return text
    }

    /// A paragraph, heading or list as its author wrote it (`Paragraph.source`, `List.source`), while it is the
    /// block that was read and every paragraph in it is nothing but text (no style, section, change, comment,
    /// note or picture; a list's code blocks and rules are fine, tables and raw blocks not), no change is left open
    /// before it, and the lines are the source's: pandoc's Markdown with CriticMarkup, the source's line
    /// breaks, outside comments and grid cells. Its reference links' definitions are written as the writer's
    /// are; words in brackets keep later reference links from taking their label (`plainLabel`). Else nil.
    private func writtenAsRead(_ block: Block) -> String? {
        let source: SourceText
        switch block {
        case .paragraph(let p), .heading(_, let p): source = p.source
        case .list(let l): source = l.source
        default: return nil
        }
        guard !source.isEmpty, pandocSyntax, options.criticMarkup, (options.lineWrap ?? .preserve) == .preserve,
              !inCommentBody, !inGridCell, pendingCloser == nil, pendingContinuation == nil,
              let text = source.text(ifStill: block), source.isReadFromText || Self.reads(text, as: block) else { return nil }
        // Every paragraph in it plain text (a list's: in items, nested lists and quotes).
        var paragraphs: [Paragraph] = []
        func collect(_ b: Block) -> Bool {
            switch b {
            case .paragraph(let p), .heading(_, let p):
                var plain = Paragraph(p.content)
                plain.headingAttributes = p.headingAttributes
                // A heading read from a DOCX keeps the heading style's name and spacing, which Markdown has no need
                // of unless it keeps formatting.
                if !options.preserveFormatting, case .heading(let level, _) = b, p.style.isPlainHeadingStyle(level: level) {
                    plain.style = p.style
                }
                guard p == plain, Self.writesAsRead(p.content, referenceLinks: true) else { return false }
                paragraphs.append(p)
                return true
            case .list(let l): return l.items.allSatisfy { $0.allSatisfy(collect) }
            case .blockQuote(let blocks): return blocks.allSatisfy(collect)
            case .codeBlock, .thematicBreak: return true
            case .raw, .table: return false
            }
        }
        guard collect(block) else { return nil }
        // Reference links: their definitions, as the inline renderer would make them.
        var labels = Set<String>()
        var defined = true
        func visit(_ content: [Inline]) {
            for i in content {
                if case .link(let l, let c) = i, let label = l.label {
                    if !defineReference(label, l) { defined = false }
                    labels.insert(Self.normalizedLabel(label))
                    visit(c)
                } else {
                    visit(i.children)
                }
            }
        }
        for p in paragraphs { visit(p.content) }
        guard defined else { return nil }
        // Words in brackets (and link texts, citations): no label any reference link defines but this block's own.
        let bytes = Array(text.utf8)
        var open: Int?
        for (k, b) in bytes.enumerated() {
            if b == UInt8(ascii: "[") { open = k } else if b == UInt8(ascii: "]"), let o = open {
                open = nil
                let inner = bytes[(o + 1)..<k]
                let key = Segmenter.normalizeLabel(inner)
                // (No label is blank: `[ ]`, a task box, takes none.)
                if key.isEmpty || labels.contains(key) { continue }
                if !inner.withUnsafeBufferPointer({ plainLabel($0) }) { return nil }
            }
        }
        return text
    }

    /// Whether `text`, read as Markdown on its own, is one block of `block`'s shape (`BlockShape`): a source kept
    /// beside another format's reading (a DOCX's Markdown sources part) is written only then, so that the
    /// Markdown says what the document shows, whatever the part holds.
    static func reads(_ text: String, as block: Block) -> Bool {
        guard let key = BlockShape.key(block), let doc = try? MarkdownReader.document(text, diagnostics: Diagnostics()),
              doc.blocks.count == 1, doc.notes.isEmpty, doc.comments.isEmpty else { return false }
        return BlockShape.key(doc.blocks[0]) == key
    }

    private static func writesAsRead(_ blocks: [Block]) -> Bool {
        blocks.allSatisfy { b in
            switch b {
            case .paragraph(let p), .heading(_, let p):
                return p.style.isEmpty && p.markChange == nil && p.styleChange == nil && writesAsRead(p.content)
            case .blockQuote(let c): return writesAsRead(c)
            case .list(let l): return l.items.allSatisfy(writesAsRead)
            case .codeBlock, .thematicBreak, .raw: return true
            case .table: return false
            }
        }
    }

    /// Whether `content` is text the writer keeps nothing beside (comments, notes, pictures, character styles),
    /// but the definitions of its reference links where `referenceLinks`.
    private static func writesAsRead(_ content: [Inline], referenceLinks: Bool = false) -> Bool {
        content.allSatisfy { i in
            switch i {
            case .commentStart, .commentEnd, .commentPoint, .noteReference, .image, .styled: return false
            // CriticMarkup is never in kept lines (the reader keeps none holding it): a block holding some took
            // it from marks on lines around its own (`{==` on the line above a heading).
            case .insertion, .deletion, .substitution, .move, .formatChange, .highlight: return false
            case .link(let l, let c): return (referenceLinks || l.label == nil) && writesAsRead(c, referenceLinks: referenceLinks)
            default: return writesAsRead(i.children, referenceLinks: referenceLinks)
            }
        }
    }

    private func table(_ t: Table) -> String {
        let marksRows = options.criticMarkup && !inCommentBody
        // A row that is no row change but whose every non-empty cell is one change of one author would read as
        // that row's change: `{>>@ [row-kept]<<}` at its first cell says it is not.
        // (A cell of nothing but empty paragraphs is written empty, and read as no paragraph.)
        func asRead(_ row: TableRow) -> TableRow {
            var r = row
            for c in r.cells.indices where !r.cells[c].blocks.isEmpty
                && r.cells[c].blocks.allSatisfy({ if case .paragraph(let p) = $0 { return p.content.isEmpty }; return false }) {
                r.cells[c].blocks = []
            }
            return r
        }
        let keptRows = marksRows ? t.rows.map { $0.change == nil && TableRowChanges.unmarked(asRead($0)).change != nil } : []
        var t = t
        if marksRows && t.rows.contains(where: { $0.change != nil }) {
            t = TableRowChanges.marked(t).table
        }
        // A row change the cells' text cannot carry (no text, cells with changes of their own) is an
        // attribution `{>>@Ann (date) [row-deleted]<<}` at the start of the row's first cell.
        var rowMarkers = [String](repeating: "", count: t.rows.count)
        if marksRows {
            for (n, kept) in keptRows.enumerated() where kept {
                rowMarkers[n] = "{>>" + CommentText.header(author: nil, date: nil, attributes: [AttributeToken("row-kept")]) + "<<}"
            }
            for (n, row) in t.rows.enumerated() {
                guard let change = row.change else { continue }
                rowMarkers[n] = Self.attribution(change, of: "row")
                t.rows[n].change = nil
            }
        }
        let width = max(t.columns.count, t.rows.map { $0.cells.reduce(0) { $0 + max(1, $1.columnSpan) } }.max() ?? 0)
        guard width > 0, !t.rows.isEmpty else {
            loss(.lossyTableStructure, "an empty table was dropped")
            return ""
        }
        let carried = TableFormat(t)
        // A GFM cell holds no div: the cells' paragraph style goes on the table's div, so it must be one
        // style for all of them (the most common is kept, the others reported lost).
        let cellStyles = t.rows.flatMap { $0.cells.flatMap { $0.blocks.compactMap { $0.paragraph?.style } } }
        let cellStyle = options.preserveFormatting ? Self.mostCommon(cellStyles) : ParagraphStyle()
        let keep = options.preserveFormatting && !(carried.isEmpty && cellStyle.isEmpty)
        var lines: [String] = []
        if options.pipeTablesOnly != true, gridDepth < BlockConverter.maxGridDepth, Self.needsGridForm(t) {
            let columns = max(t.columns.count, t.gridColumnCount)
            let sides = sideTables
            if let grid = gridTable(t, columns: columns, rowMarkers: rowMarkers) {
                lines = grid
                for s in cellStyles where s != cellStyle { paragraphStyleLost(s, level: nil) }
            } else {
                sideTables = sides
            }
        }
        if lines.isEmpty {
            var grid = gridRows(t)
            for n in grid.indices where !rowMarkers[n].isEmpty && !grid[n].isEmpty { grid[n][0] = rowMarkers[n] + grid[n][0] }
            let columns = max(t.columns.count, grid.map(\.count).max() ?? 0)
            for s in cellStyles where s != cellStyle { paragraphStyleLost(s, level: nil) }
            if t.headerRowCount != 1 && !keep {
                loss(.lossyTableStructure, "a table without exactly one header row was written with its first row as header")
            }
            for (n, row) in grid.enumerated() {
                var cells = row
                while cells.count < columns { cells.append("") }
                lines.append("| " + cells.joined(separator: " | ") + " |")
                if n == 0 {
                    let delims = (0..<columns).map { k -> String in
                        switch k < t.columns.count ? t.columns[k] : .none {
                        case .none: return "---"
                        case .left: return ":--"
                        case .center: return ":-:"
                        case .right: return "--:"
                        }
                    }
                    lines.append("| " + delims.joined(separator: " | ") + " |")
                }
            }
        }
        for row in t.rows where row.change != nil { loss(.lossyTableRowChange, "table row insertions and deletions were dropped") }
        // With preserveFormatting, the cells' style, widths and header rows go on a fenced div around the table.
        if keep {
            let tokens = FormatAttributes.tokens(cellStyle) + carried.tokens
            return "::: {" + AttributeList.write(tokens) + "}\n\n" + lines.joined(separator: "\n") + "\n\n:::"
        }
        return lines.joined(separator: "\n")
    }

    /// The style most of `styles` have (the first of equally common ones; empty for none).
    static func mostCommon(_ styles: [ParagraphStyle]) -> ParagraphStyle {
        var counts: [ParagraphStyle: Int] = [:]
        var best = ParagraphStyle(), bestCount = 0
        for s in styles {
            counts[s, default: 0] += 1
            if counts[s]! > bestCount { best = s; bestCount = counts[s]! }
        }
        return best
    }

    private func tableCell(_ cell: TableCell) -> String {
        var parts: [String] = []
        if cell.blocks.count > 1 || cell.blocks.contains(where: { $0.paragraph == nil }) {
            loss(.lossyTableStructure, "table cells with several blocks were written as one line")
        }
        var marker = ""
        if let change = cell.change {
            if options.criticMarkup && !inCommentBody {
                // `{>>@Ann (date) [cell-deleted]<<}` at the cell's start: the reader takes the cell change back.
                marker = Self.attribution(change, of: "cell")
            } else {
                loss(.lossyTableCellChange, "tracked cell insertions and deletions were written as changes of the cells' text (the cells themselves stay)")
            }
        }
        for b in cell.blocks {
            var r = InlineRenderer(owner: self)
            r.inCell = true
            var content: [Inline]
            if let p = b.paragraph { content = readable(p.content) } else { content = [.text(b.plainText)] }
            if options.criticMarkup && !inCommentBody, !content.isEmpty, !content.contains(where: Self.isChangeInline) {
                switch cell.change {
                case .inserted(let ch)?: content = [.insertion(ch, content)]
                case .deleted(let ch)?: content = [.deletion(ch, content)]
                case nil: break
                }
            }
            r.render(content)
            parts.append(r.out)
        }
        return marker + parts.joined(separator: " ")
    }

    // MARK: Notes

    /// A footnote definition.
    func note(_ n: Note) -> String {
        if n.kind == .endnote { loss(.lossyEndnote, "endnotes were written as footnotes") }
        // A paragraph break change still waiting for its closer belongs to the main text, not the note.
        let waiting = takePendingCloser()
        let hadMark = previousHadMark
        containerDepth += 1
        containerIndent += 4
        let body = sequence(n.blocks, tight: false)
        containerDepth -= 1
        containerIndent -= 4
        pendingCloser = waiting
        previousHadMark = hadMark
        if body.isEmpty { return "[^\(n.id)]:" }
        return prefixLines(body, first: "[^\(n.id)]: ", rest: "    ")
    }
}

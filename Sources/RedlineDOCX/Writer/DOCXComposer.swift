import RedlineCore

/// Turns model blocks into WordprocessingML and keeps everything a package needs besides the body:
/// revision ids, comments, notes, hyperlink relationships, list numbering and the styles in use.
/// The body is rendered block by block (the sink streams it out); side parts are written at the end.
final class DOCXComposer {
    /// The paragraph being written declares the `m` namespace (it holds display math).
    var paragraphDeclaresMath = false

    /// Whether `inlines` hold display math, at any depth.
    static func holdsDisplayMath(_ inlines: [Inline]) -> Bool {
        inlines.contains { inline in
            if case .math(.display, _) = inline { return true }
            return holdsDisplayMath(inline.children)
        }
    }
    /// Which story a block is rendered into: what it may hold and how its paragraphs start.
    enum Story { case body, comment, footnote, endnote, header }

    /// Where in the block tree rendering is.
    struct Context {
        var story: Story = .body
        var quoteDepth = 0
        /// The list level of the enclosing list item, -1 outside lists.
        var listLevel = -1
        /// The alignment of the table column a cell belongs to.
        var cellAlignment: ColumnAlignment?
        /// How many quotes, lists and table cells enclose the block.
        var depth = 0
        /// Inside a text box: the blocks' own text boxes are not opened again.
        var inTextBox = false
    }

    /// The deepest nesting of quotes, lists and tables written as such; deeper content is written as plain
    /// paragraphs (Word nests tables 63 deep at most, and hostile input must not exhaust the stack).
    static let maxDepth = 32

    let diagnostics: Diagnostics
    var styles: StyleCatalog
    /// True when the source has formatting of its own (document defaults: a DOCX or RTF source), whose
    /// paragraphs then carry their complete formatting: the writer adds no styles of its choosing to
    /// paragraphs without a style name (it does for Markdown, where headings and notes need a look).
    var formattedSource = false {
        didSet { styles.bare = formattedSource }
    }
    /// The last revision id handed out (ins, del, moves, property changes share one sequence).
    private var revisionID = 0
    private var dates: [String: String?] = [:]

    // Hyperlinks: relationship ids in order of first use.
    private(set) var links: [(id: String, url: String)] = []
    private var linkIDs: [String: String] = [:]

    // Pictures: drawings written (for unique `wp:docPr` ids), the relationship of each distinct picture by
    // content id, the pictures not yet stored in the package, and (relationship id, target) of each.
    var drawingCount = 0
    /// Pictures given as `data:` URIs in a model built by hand (readers use `Image.media`).
    lazy var dataURIs = MediaStore()
    var imageRelationships: [String: String] = [:]
    var pendingMedia: [(target: String, item: MediaItem)] = []
    var images: [(id: String, target: String)] = []
    /// The image types used (for `[Content_Types].xml`).
    var imageKinds: Set<String> { Set(images.map { String($0.target.split(separator: ".").last ?? "") }) }

    // Numbering: one `w:num` per list (abstract id, level, start override).
    private(set) var lists: [(abstract: Int, level: Int, start: Int?)] = []

    // Comments.
    var comments = CommentTable()
    /// Paragraph ids handed out to comment paragraphs (`w14:paraId`).
    private var paraIDCount = 0
    /// The paragraph id of the last paragraph rendered in a comment.
    /// The number of the last comment paragraph's `w14:paraId` (`hex8`).
    private var lastParaID: Int?
    /// Run markup to open the next paragraph with (a note's or a comment's reference mark).
    var storyPrefix: String?
    /// Fields whose results span paragraphs begun and not yet ended in the body (`BlockField`).
    var openBlockFields = 0
    /// A move range in the body still open at the end of the last paragraph, and its range id.
    var pendingMove: (move: Move, rangeID: String)?
    /// The TeX of equations whose OMML reads back as other TeX (written as custom properties).
    let mathSources = KeptSources(prefix: KeptSources.mathPrefix)
    let codeSources = KeptSources(prefix: KeptSources.codePrefix)
    let imageSources = KeptSources(prefix: KeptSources.imagePrefix)
    let headingSources = KeptSources(prefix: KeptSources.headingPrefix)
    let noteSources = KeptSources(prefix: KeptSources.notePrefix)
    /// Bookmarks written so far (a heading's `#id`, as pandoc writes it).
    var bookmarkCount = 0
    /// The run properties of the last few looks written (`RunPropertiesCache`).
    var runProperties = RunPropertiesCache()

    // Notes.
    var notes = NoteTable()

    /// Header and footer parts written so far (`word/NAME`, the main document's relationship id).
    var headerParts: [(name: String, id: String, kind: HeaderFooter.Kind, xml: XMLText)] = []

    init(styles: StyleCatalog, diagnostics: Diagnostics) {
        self.styles = styles
        self.diagnostics = diagnostics
    }

    // MARK: Blocks

    /// Renders `block` into `x`.
    func block(_ block: Block, _ ctx: Context, into x: inout XMLText) {
        if ctx.depth >= Self.maxDepth && !block.childBlocks.isEmpty {
            flattened(block, ctx, into: &x)
            return
        }
        var ctx = ctx
        switch block {
        case .blockQuote, .list, .table: ctx.depth += 1
        default: break
        }
        switch block {
        case .paragraph(let p):
            if let info = p.codeInfo, p.style.name == BlockStyleRole.codeName {
                // A comparison's code-style paragraph: its info string, for the code it reads as resolved.
                for (text, rejected) in KeptSources.codeTexts(p) { codeSources.keepCode(info, for: text, rejected: rejected) }
            }
            if !formattedSource, ctx.quoteDepth == 0, ctx.listLevel < 0, let caption = FigureCaptions.caption(of: p, shows: { Self.embeddableKinds.contains($0) }) {
                // A Markdown figure (a picture alone in its paragraph, its alt text the caption): pandoc's figure
                // paragraph and a caption paragraph under it, which the reader takes back into the figure.
                paragraph(p, defaultStyle: DOCXFigures.figureID, ctx, into: &x)
                paragraph(Paragraph([.text(caption)]), defaultStyle: DOCXFigures.captionID, ctx, into: &x)
                return
            }
            let base: String? = ctx.quoteDepth > 0 ? "Quote" : ctx.listLevel >= 0 || formattedSource ? nil : storyStyle(ctx.story)
            paragraph(containerIndent(p, ctx), defaultStyle: base, ctx, into: &x)
        case .heading(let level, let p):
            let level = min(max(level, 1), 6)
            if let attributes = p.headingAttributes {
                // Kept beside the heading (Word shows its text alone); its `#id` a bookmark, as pandoc writes it.
                headingSources.keep(attributes, for: p.content.plainText)
                if let id = HeadingIDs.first(in: attributes) {
                    bookmarkCount += 1
                    var b = XMLText()
                    b.empty("w:bookmarkStart", [("w:id", String(900_000 + bookmarkCount)), ("w:name", String(id.prefix(40)))])
                    b.empty("w:bookmarkEnd", [("w:id", String(900_000 + bookmarkCount))])
                    storyPrefix = (storyPrefix ?? "") + String(decoding: b.bytes, as: UTF8.self)
                }
            }
            if ctx.quoteDepth > 0 && p.style.name == nil {
                // A heading in a block quote: a Quote paragraph with the heading's outline level (one style
                // per paragraph), which the reader reads as a heading in the quote.
                paragraph(containerIndent(p, ctx), defaultStyle: "Quote", directOutlineLevel: level - 1, ctx, into: &x)
            } else {
                // In a list item, indented as the item's continuation paragraphs, so that it stays in the item.
                paragraph(containerIndent(p, ctx), defaultStyle: "Heading\(level)", outlineLevel: level - 1, ctx, into: &x)
            }
        case .blockQuote(let blocks):
            var inner = ctx
            inner.quoteDepth += 1
            self.blocks(blocks, inner, into: &x)
        case .list(let l):
            list(l, ctx, into: &x)
        case .codeBlock(let c):
            codeSources.keepCode(c.infoString, for: c.text)
            paragraph(Paragraph(c.lineBrokenContent), defaultStyle: "SourceCode", ctx, into: &x)
        case .table(let t):
            table(t, ctx, into: &x)
        case .thematicBreak:
            paragraph(Paragraph([]), defaultStyle: "HorizontalRule", ctx, into: &x)
        case .raw(let format, let text):
            // Shown as its text in a style naming its format, read back as the raw block (`RawStyles`).
            paragraph(RawStyles.paragraph(format: format, text: text), defaultStyle: nil, ctx, into: &x)
        }
    }

    /// The paragraphs, headings and code of a too deeply nested block, in reading order, without its
    /// structure (walked with an explicit stack, not recursion).
    private func flattened(_ block: Block, _ ctx: Context, into x: inout XMLText) {
        diagnostics.report(.docxNestingFlattened, "quotes, lists and tables nested more than \(Self.maxDepth) deep were written as plain paragraphs")
        var stack: [Block] = [block]
        while let b = stack.popLast() {
            let children = b.childBlocks
            if children.isEmpty {
                self.block(b, ctx, into: &x)
            } else {
                stack += children.reversed()
            }
        }
    }

    /// `p` with the indent of a paragraph in its quotes and list items (unless it has its own).
    private func containerIndent(_ p: Paragraph, _ ctx: Context) -> Paragraph {
        var p = p
        if p.style.leftIndent == nil {
            if ctx.quoteDepth > 1 { p.style.leftIndent = Double(36 * ctx.quoteDepth) }
            else if ctx.listLevel >= 0 && ctx.quoteDepth == 0 { p.style.leftIndent = Double(36 * (ctx.listLevel + 1)) }
            // In a quote, the quote's own indent is the item text's: a continuation goes one step further,
            // so that it is not a paragraph after the list (`ListBuilder` reads it so).
            else if ctx.listLevel >= 0 { p.style.leftIndent = Double(36 * (ctx.listLevel + 2)) }
        }
        return p
    }

    private func storyStyle(_ story: Story) -> String? {
        switch story {
        case .body: return nil
        case .comment: return "CommentText"
        case .footnote: return "FootnoteText"
        case .endnote: return "EndnoteText"
        case .header: return nil
        }
    }

    /// One `w:p`. The style is the paragraph's named style, else `defaultStyle`.
    func paragraph(_ p: Paragraph, defaultStyle: String?, outlineLevel: Int? = nil, directOutlineLevel: Int? = nil,
                   numbering: (Int, Int)? = nil, _ ctx: Context, into x: inout XMLText) {
        let styleID: String?
        var directOutline: Int?
        if let directOutlineLevel {
            styleID = defaultStyle
            styles.choose(defaultStyle)
            directOutline = directOutlineLevel
        } else if let name = p.style.name {
            if outlineLevel != nil, !name.lowercased().hasPrefix("heading") {
                // A heading in a style of its own (a custom style, a div's classes) has its level itself: the
                // style may be the paragraphs' around it too, which must not become headings.
                styleID = styles.paragraphID(name)
                directOutline = outlineLevel
            } else {
                styleID = styles.paragraphID(name, outlineLevel: outlineLevel)
            }
        } else if formattedSource && outlineLevel != nil {
            // A heading in Normal style: its outline level makes it one.
            styleID = nil
            directOutline = outlineLevel
        } else {
            styleID = defaultStyle
            styles.choose(defaultStyle)
        }
        var props = XMLText()
        Properties.paragraph(p.style, styleID: styleID, numbering: numbering,
                             fallbackAlignment: alignment(ctx.cellAlignment), outlineLevel: directOutline, into: &props)
        if let mark = p.markChange {
            props.open("w:rPr")
            switch mark {
            case .inserted(let c): props.empty("w:ins", changeAttributes(c))
            case .deleted(let c): props.empty("w:del", changeAttributes(c))
            }
            props.close("w:rPr")
        }
        if let section = p.sectionEnd, ctx.story == .body { sectionProperties(section, into: &props) }
        if let sc = p.styleChange {
            props.open("w:pPrChange", changeAttributes(sc.change))
            props.open("w:pPr")
            // The old formatting is complete: no name means the style an unnamed paragraph here is written in
            // (`defaultStyle`: a heading's level style), as for the new formatting (a heading's old pPr
            // without its heading style would make it, rejected, a Normal paragraph).
            let oldID: String?
            if let name = sc.old.name { oldID = styles.paragraphID(name, outlineLevel: outlineLevel) }
            else if directOutlineLevel == nil && formattedSource && outlineLevel != nil { oldID = nil }
            else { oldID = defaultStyle }
            Properties.paragraph(sc.old, styleID: oldID, numbering: numbering,
                                 fallbackAlignment: alignment(ctx.cellAlignment), outlineLevel: directOutline, into: &props)
            props.close("w:pPr")
            props.close("w:pPrChange")
        }
        var attributes: [(String, String)] = []
        if ctx.story == .comment {
            paraIDCount += 1
            lastParaID = paraIDCount
            attributes = [("w14:paraId", hex8(paraIDCount)), ("w14:textId", "77777777")]
        }
        // Display math finds the `m` namespace on its paragraph: pandoc (2.17) reads no `m:oMathPara` that
        // declares it itself.
        paragraphDeclaresMath = Self.holdsDisplayMath(p.content)
        if paragraphDeclaresMath { attributes.append(("xmlns:m", OMMLWriter.namespace)) }
        x.open("w:p", attributes)
        defer { paragraphDeclaresMath = false }
        if !props.isEmpty {
            x.open("w:pPr")
            x.append(props)
            x.close("w:pPr")
        }
        if let prefix = storyPrefix {
            x.raw(prefix)
            storyPrefix = nil
        }
        // A field whose result spans paragraphs: begun and ended in top-level body paragraphs only, each end
        // matching a begin (the writer closes what is left open before the last section).
        let blockField = ctx.story == .body && ctx.depth == 0 && !ctx.inTextBox ? p.blockField : nil
        if blockField?.end == .beforeContent, openBlockFields > 0 {
            x.raw(Self.fieldEndRun)
            openBlockFields -= 1
        }
        if let start = blockField?.start {
            Self.fieldStart(start, deleted: false, into: &x)
            openBlockFields += 1
        }
        runs(p.content, ctx, into: &x)
        if blockField?.end == .afterContent, openBlockFields > 0 {
            x.raw(Self.fieldEndRun)
            openBlockFields -= 1
        }
        x.close("w:p")
    }

    /// A complex field's runs up to its result: begin, the instruction (deleted text in a deletion), separate.
    static func fieldStart(_ f: FieldCode, deleted: Bool, into x: inout XMLText) {
        x.raw("<w:r><w:fldChar w:fldCharType=\"begin\"/></w:r>")
        x.raw(deleted ? "<w:r><w:delInstrText xml:space=\"preserve\">" : "<w:r><w:instrText xml:space=\"preserve\">")
        x.text(" " + f.instruction + " ")
        x.raw(deleted ? "</w:delInstrText></w:r>" : "</w:instrText></w:r>")
        x.raw("<w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>")
    }

    /// A complex field's end.
    static let fieldEndRun = "<w:r><w:fldChar w:fldCharType=\"end\"/></w:r>"

    /// Ends the fields spanning paragraphs still open, in a paragraph of their own (before the last section).
    func closeBlockFields(into x: inout XMLText) {
        guard openBlockFields > 0 else { return }
        x.raw("<w:p>" + String(repeating: Self.fieldEndRun, count: openBlockFields) + "</w:p>")
        openBlockFields = 0
    }

    private func alignment(_ a: ColumnAlignment?) -> ParagraphAlignment? {
        switch a {
        case .left?: return .left
        case .center?: return .center
        case .right?: return .right
        case .none?, nil: return nil
        }
    }

    private func list(_ l: List, _ ctx: Context, into x: inout XMLText) {
        let level = min(ctx.listLevel + 1, 8)
        let numID: Int
        switch l.kind {
        case .bullet: numID = newList(abstract: 0, level: level, start: nil)
        case .ordered(let start, let delimiter): numID = newList(abstract: delimiter == ")" ? 2 : 1, level: level, start: start)
        }
        var inner = ctx
        inner.listLevel = level
        for item in l.items {
            var blocks = item[...]
            if case .paragraph(let p)? = blocks.first {
                paragraph(p, defaultStyle: ctx.quoteDepth > 0 ? "Quote" : nil, numbering: (numID, level), inner, into: &x)
                blocks = blocks.dropFirst()
            } else if level > 0 || l.items.count == 1, case .list? = blocks.first {
                // An item holding only a deeper list, inside another list or a top-level list's only item: a
                // level skipped (Word's level 0, then 2; a list that starts at level 1). No paragraph of its
                // own: the deeper items carry the depth, as the reader reads them. (In a top-level list of
                // several items it keeps an empty paragraph: without it the deeper list would read as the item
                // before's, or the items after it as a list of their own.)
            } else {
                paragraph(Paragraph([]), defaultStyle: nil, numbering: (numID, level), inner, into: &x)
            }
            self.blocks(blocks, inner, into: &x)
        }
    }

    private func newList(abstract: Int, level: Int, start: Int?) -> Int {
        lists.append((abstract, level, start))
        return lists.count
    }

    // MARK: Review marks

    /// A fresh revision id.
    func nextRevisionID() -> String {
        revisionID += 1
        return String(revisionID)
    }

    /// `w:id`, `w:author` and `w:date` of a tracked change (Word needs an author; an unknown one is empty).
    func changeAttributes(_ c: Change) -> [(String, String)] {
        var a = [("w:id", nextRevisionID()), ("w:author", c.author ?? "")]
        if let d = c.date, let v = dateTime(d) { a.append(("w:date", v)) }
        return a
    }

    /// A model date as `xsd:dateTime`, or nil (reported) when it is no date. Documents repeat a few dates
    /// many times, so conversions are remembered.
    func dateTime(_ d: String) -> String? {
        if let known = dates[d] { return known }
        let v = DOCXDate.dateTime(d)
        if v == nil { diagnostics.report(.docxDateDropped, "date '\(d)' is not an ISO 8601 date and was dropped") }
        dates[d] = v
        return v
    }

    // MARK: Hyperlinks

    /// The relationship id for an external link target.
    func linkID(_ url: String) -> String {
        if let id = linkIDs[url] { return id }
        let id = "rIdLink\(links.count + 1)"
        links.append((id, url))
        linkIDs[url] = id
        return id
    }

    // MARK: Comment and note stories

    /// Renders a comment's body (story prefix: the annotation reference mark); returns the number of its
    /// last paragraph's id (`hex8`; 0 when it has none).
    func commentBody(_ blocks: [Block], into x: inout XMLText) -> Int {
        storyPrefix = "<w:r><w:rPr><w:rStyle w:val=\"CommentReference\"/></w:rPr><w:annotationRef/></w:r>"
        lastParaID = nil
        var ctx = Context()
        ctx.story = .comment
        storyBlocks(blocks, ctx, into: &x)
        return lastParaID ?? 0
    }

    /// Renders a note's body, opening with the note's reference mark.
    func noteBody(_ blocks: [Block], kind: NoteKind, into x: inout XMLText) {
        let (style, mark) = kind == .footnote ? ("FootnoteReference", "w:footnoteRef") : ("EndnoteReference", "w:endnoteRef")
        storyPrefix = "<w:r><w:rPr><w:rStyle w:val=\"\(style)\"/></w:rPr><\(mark)/></w:r>"
        var ctx = Context()
        ctx.story = kind == .footnote ? .footnote : .endnote
        storyBlocks(blocks, ctx, into: &x)
    }

    /// Blocks of a side story; it must hold at least one paragraph, and the prefix lands in the first one
    /// (an empty paragraph is added when the story starts with a table or holds nothing).
    func storyBlocks(_ blocks: [Block], _ ctx: Context, into x: inout XMLText) {
        let startsWithParagraph: Bool
        switch blocks.first {
        case .paragraph?, .heading?, .codeBlock?, .thematicBreak?: startsWithParagraph = true
        case .list(let l)?: startsWithParagraph = !l.items.isEmpty
        case .blockQuote(let b)?: startsWithParagraph = b.first?.paragraph != nil
        default: startsWithParagraph = false
        }
        // A header or footer may start with a table (it has no reference mark to hold); it must hold a block.
        if ctx.story == .header ? blocks.isEmpty : !startsWithParagraph {
            paragraph(Paragraph([]), defaultStyle: storyStyle(ctx.story), ctx, into: &x)
        }
        self.blocks(blocks, ctx, into: &x)
        storyPrefix = nil
    }

    /// An eight-digit upper-case hexadecimal id (`w14:paraId`, `w16cid:durableId`).
    func hex8(_ n: Int) -> String {
        // Written as bytes into the string's own storage (eight bytes: a small string, no allocation); a
        // document of many comments asks for three of these a comment.
        String(unsafeUninitializedCapacity: 8) { out in
            var v = n
            for i in (0..<8).reversed() {
                let d = UInt8(v & 15)
                out[i] = d < 10 ? UInt8(ascii: "0") + d : UInt8(ascii: "A") + d - 10
                v >>= 4
            }
            return 8
        }
    }
}

/// The page a part of a document is laid out on, as Word's `w:sectPr` and RTF's section words state it.
/// A section that ends inside the document rides on the paragraph whose mark ends it (`Paragraph.sectionEnd`);
/// the document's last one on the last chunk (`Chunk.finalSection`, `Document.finalSection`). Every field is
/// optional: nil is "not stated" (the application's default), so a section reads back as it was written.
public struct Section: Hashable, Sendable, Codable {
    /// How a section starts relative to the one before it (DOCX `w:type`, RTF `\sbk…`).
    public enum BreakKind: String, Hashable, Sendable, Codable, CaseIterable {
        case nextPage, continuous, evenPage, oddPage, nextColumn
    }

    /// Portrait or landscape pages.
    public enum Orientation: String, Hashable, Sendable, Codable, CaseIterable { case portrait, landscape }

    /// Page margins in points; nil where not stated.
    public struct Margins: Hashable, Sendable, Codable {
        public var top, bottom, left, right, header, footer, gutter: Double?

        /// Margins; each nil where not stated.
        public init(top: Double? = nil, bottom: Double? = nil, left: Double? = nil, right: Double? = nil,
                    header: Double? = nil, footer: Double? = nil, gutter: Double? = nil) {
            self.top = top; self.bottom = bottom; self.left = left; self.right = right
            self.header = header; self.footer = footer; self.gutter = gutter
        }

        /// Whether no margin is stated.
        public var isEmpty: Bool { self == Margins() }
    }

    /// Line numbering in the margin (DOCX `w:lnNumType`, RTF `\linemod…`).
    public struct LineNumbering: Hashable, Sendable, Codable {
        /// When numbering starts again (DOCX `w:restart`, RTF `\linerestart`/`\lineppage`/`\linecont`).
        public enum Restart: String, Hashable, Sendable, Codable, CaseIterable { case newPage, newSection, continuous }

        /// Every how many lines a number is shown (1: every line).
        public var countBy: Int
        /// The first number, where stated.
        public var start: Int?
        /// Distance from the text in points, where stated.
        public var distance: Double?
        /// When numbering restarts, where stated.
        public var restart: Restart?

        /// Line numbering every `countBy` lines.
        public init(countBy: Int = 1, start: Int? = nil, distance: Double? = nil, restart: Restart? = nil) {
            self.countBy = countBy; self.start = start; self.distance = distance; self.restart = restart
        }
    }

    /// Page width in points (US Letter is 612), where stated.
    public var pageWidth: Double?
    /// Page height in points (US Letter is 792), where stated.
    public var pageHeight: Double?
    /// Page orientation, where stated.
    public var orientation: Orientation?
    /// Page margins.
    public var margins: Margins
    /// Text columns, where stated (1: one column).
    public var columns: Int?
    /// Space between columns in points, where stated.
    public var columnSpacing: Double?
    /// Line numbering, when on.
    public var lineNumbering: LineNumbering?
    /// How the section starts, where stated (Word's default is a new page).
    public var breakKind: BreakKind?
    /// The first page has its own header and footer (`w:titlePg`, `\titlepg`).
    public var titlePage: Bool
    /// The section's headers and footers, each a story of its own.
    public var headersFooters: [HeaderFooter]

    /// A section; every field unstated unless given.
    public init(pageWidth: Double? = nil, pageHeight: Double? = nil, orientation: Orientation? = nil,
                margins: Margins = Margins(), columns: Int? = nil, columnSpacing: Double? = nil,
                lineNumbering: LineNumbering? = nil, breakKind: BreakKind? = nil, titlePage: Bool = false,
                headersFooters: [HeaderFooter] = []) {
        self.pageWidth = pageWidth; self.pageHeight = pageHeight; self.orientation = orientation
        self.margins = margins; self.columns = columns; self.columnSpacing = columnSpacing
        self.lineNumbering = lineNumbering; self.breakKind = breakKind; self.titlePage = titlePage
        self.headersFooters = headersFooters
    }

    /// The header or footer of `kind` for `which` pages, if the section has one.
    public func story(_ kind: HeaderFooter.Kind, _ which: HeaderFooter.Which) -> HeaderFooter? {
        headersFooters.first { $0.kind == kind && $0.which == which }
    }

    /// Whether this section asks for more than one plain page: landscape, columns, line numbering, a title
    /// page, or a break other than a new page (what a writer without pages reports as `lossy.section`).
    public var isBeyondPlainPage: Bool {
        orientation == .landscape || (columns ?? 1) > 1 || lineNumbering != nil || titlePage
            || (breakKind != nil && breakKind != .nextPage)
    }

    /// Header and footer stories holding some text.
    public var storiesWithText: Int {
        headersFooters.reduce(0) { n, s in
            n + (s.blocks.contains { !$0.plainText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ? 1 : 0)
        }
    }
}

/// A header or footer: a story of its own (paragraphs, tables, pictures, its own tracked changes).
public struct HeaderFooter: Hashable, Sendable, Codable {
    /// Header or footer.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable { case header, footer }
    /// Which pages it is shown on: every page (or odd pages, when even pages have their own), the first
    /// page of a section with a title page, or even pages.
    public enum Which: String, Hashable, Sendable, Codable, CaseIterable { case `default`, first, even }

    /// Where a story stands in its section: header or footer, and the pages it is shown on.
    public struct Place: Hashable, Sendable {
        public var kind: Kind
        public var which: Which

        public init(kind: Kind, which: Which) {
            self.kind = kind
            self.which = which
        }
    }

    public var kind: Kind
    public var which: Which
    public var blocks: [Block]

    /// Its kind and the pages it is shown on.
    public var place: Place { Place(kind: kind, which: which) }

    /// A header or footer story.
    public init(kind: Kind, which: Which = .default, blocks: [Block]) {
        self.kind = kind
        self.which = which
        self.blocks = blocks
    }
}

/// What a writer that has no pages drops of a document's sections: counted as it goes, reported once.
public struct PageLoss: Sendable {
    /// Header and footer stories with text.
    public private(set) var stories = 0
    /// Sections beyond one plain page (every section after the first, and a first one beyond a plain page).
    public private(set) var sections = 0
    private var seen = 0

    /// Nothing counted yet.
    public init() {}

    /// Counts one section.
    public mutating func add(_ section: Section) {
        seen += 1
        stories += section.storiesWithText
        if seen > 1 || section.isBeyondPlainPage { sections += 1 }
    }

    /// Counts the section a paragraph ends, anywhere in `block`, and `finalSection`.
    public mutating func add(_ chunk: Chunk) {
        if chunk.block.hasSectionEnd { chunk.block.forEachParagraph { if let s = $0.sectionEnd { add(s) } } }
        if let s = chunk.finalSection { add(s) }
    }

    /// Reports `lossy.header-footer` and `lossy.section`, once each, with their counts (and `hint`, what keeps them).
    public func report(to diagnostics: Diagnostics, format: String, hint: String = "") {
        if stories > 0 {
            diagnostics.report(.lossyHeaderFooter, "headers and footers were dropped: \(format) has no pages\(hint)", count: stories)
        }
        if sections > 0 {
            diagnostics.report(.lossySection, "section layout was dropped: \(format) has no pages\(hint)", count: sections)
        }
    }
}

extension Block {
    /// Whether some paragraph in this block ends a section (cheap for a top-level paragraph: one nil check).
    public var hasSectionEnd: Bool {
        switch self {
        case .paragraph(let p), .heading(_, let p): return p.sectionEnd != nil
        case .codeBlock, .thematicBreak, .raw: return false
        case .blockQuote(let b): return b.contains { $0.hasSectionEnd }
        case .list(let l): return l.items.contains { $0.contains { $0.hasSectionEnd } }
        case .table(let t): return t.rows.contains { $0.cells.contains { $0.blocks.contains { $0.hasSectionEnd } } }
        }
    }
}

extension Block {
    /// This block with `section` on its last paragraph (the last of a quote or list, at any depth), or nil
    /// when it ends in no paragraph that could carry it (a table, code block, rule or raw block).
    public func endingSection(_ section: Section) -> Block? {
        switch self {
        case .paragraph(var p): p.sectionEnd = section; return .paragraph(p)
        case .heading(let l, var p): p.sectionEnd = section; return .heading(level: l, p)
        case .blockQuote(var b):
            guard let last = b.last, let n = last.endingSection(section) else { return nil }
            b[b.count - 1] = n
            return .blockQuote(b)
        case .list(var l):
            guard var item = l.items.last, let last = item.last, let n = last.endingSection(section) else { return nil }
            item[item.count - 1] = n
            l.items[l.items.count - 1] = item
            return .list(l)
        case .table, .codeBlock, .thematicBreak, .raw: return nil
        }
    }
}

extension Document {
    /// The sections ending inside the body (a paragraph's `sectionEnd`), in reading order; the last section
    /// (`finalSection`) is not among them.
    public var sectionsInBody: [Section] {
        var out: [Section] = []
        for b in blocks where b.hasSectionEnd { b.forEachParagraph { if let s = $0.sectionEnd { out.append(s) } } }
        return out
    }

    /// Every section in reading order: those ending inside the body, then the last.
    public var sections: [Section] { sectionsInBody + (finalSection.map { [$0] } ?? []) }

    /// This document without its page: no last section, no paragraph ending one (what a finisher that lays
    /// another document's own page in, such as compare's DOCX layout transfer, writes from).
    public func removingSections() -> Document {
        func strip(_ b: Block) -> Block {
            switch b {
            case .paragraph(var p): p.sectionEnd = nil; return .paragraph(p)
            case .heading(let l, var p): p.sectionEnd = nil; return .heading(level: l, p)
            default: return b.hasSectionEnd ? b.mapBlockArrays { $0.map(strip) } : b
            }
        }
        var d = self
        d.finalSection = nil
        if d.blocks.contains(where: \.hasSectionEnd) { d.blocks = d.blocks.map(strip) }
        return d
    }
}

import RedlineCore
import RedlineXML

/// A block as the story parser reads it: a plain block, or a numbered paragraph that `ListBuilder`
/// nests into a list. `quoted`: the paragraph has a quote style, and consecutive quoted blocks are
/// grouped into one block quote.
enum ParsedBlock {
    case block(Block, quoted: Bool = false)
    case listItem(Block, numID: String, level: Int, quoted: Bool = false)

    /// Whether the block belongs in a block quote.
    var quoted: Bool {
        switch self {
        case .block(_, let q), .listItem(_, _, _, let q): return q
        }
    }
}

/// Parses the blocks of one story (the body, a comment, a note, a table cell, a text box) from a
/// streaming `XMLReader`. The body is pulled one block-level element at a time (`nextBodyBlocks`);
/// nested containers are collected whole. State that crosses paragraphs (move ranges, fields, comment
/// markers between paragraphs) lives here; it is read for nearly every element, one access at a time,
/// so its exclusivity checks are off (they cost more than the reading). The unchecked state is three
/// parts, not one struct: `context`, `progress` and `cache`, each accessed on its own, so an access to one
/// can never overlap an access to another (unchecked, an overlap would be undefined behaviour, not a trap).
final class StoryParser {
    let x: XMLReader
    @exclusivity(unchecked) var context: StoryContext
    var diagnostics: Diagnostics { context.diagnostics }

    /// What the parser has met so far in the story (see `StoryProgress`).
    @exclusivity(unchecked) var progress = StoryProgress()
    /// The run-building caches (see `RunLookCache`).
    @exclusivity(unchecked) var cache = RunLookCache()

    /// A complex field (`w:fldChar begin … separate … end`).
    struct Field {
        var instruction = ""
        var showingResult = false
        var link: Link?
        /// Where its result starts: the run array (`StoryProgress.runArray`) and the index in it.
        var array = 0
        var start = 0
        /// A field began inside its instruction (`IF { MERGEFIELD x } …`): the instruction read is not whole,
        /// so the field is not kept as one.
        var nestedInstruction = false
        /// Its result went on past the paragraph it began in: that paragraph holds its start (`BlockField`).
        var spansParagraphs = false
    }

    init(_ x: XMLReader, context: StoryContext) {
        self.x = x
        self.context = context
    }

    var location: SourceLocation { SourceLocation(paragraph: max(progress.paragraphCount, 1)) }

    // MARK: Containers

    /// Calls `body` on every child element of the current element, looking through content controls,
    /// custom XML, smart tags and bidi wrappers, and taking the first choice of `mc:AlternateContent`.
    /// `body` is called on a start tag and must end on its end tag.
    func forEachChild(_ body: () throws -> Void) throws {
        var wrappers = 0
        while let k = try x.next() {
            switch k {
            case .end:
                if wrappers == 0 { return }
                wrappers -= 1
            case .text:
                continue
            case .start:
                switch wrapperAction() {
                case .enter: wrappers += 1
                case .skip: try x.skipElement()
                case .alternate: try alternateContent(body)
                case .handle: try body()
                }
            }
        }
    }

    enum WrapperAction { case enter, skip, alternate, handle }

    func wrapperAction() -> WrapperAction {
        let ns = x.namespace
        if ns == OOXML.mc { return x.tag == .AlternateContent ? .alternate : .skip }
        guard ns == OOXML.w else { return .handle }
        switch x.tag {
        case .sdt, .sdtContent, .customXml, .smartTag, .dir, .bdo: return .enter
        case .sdtPr, .sdtEndPr, .customXmlPr, .smartTagPr, .proofErr, .permStart, .permEnd,
             .bookmarkEnd, .lastRenderedPageBreak, .annotationRef, .footnoteRef, .endnoteRef,
             .separator, .continuationSeparator, .rsid:
            return .skip
        default: return .handle
        }
    }

    /// `mc:AlternateContent`: the first `mc:Choice` is read, other choices and the fallback skipped.
    func alternateContent(_ body: () throws -> Void) throws {
        var taken = false
        while let k = try x.next(), k != .end {
            guard k == .start else { continue }
            if !taken && x.isElement(.Choice, in: OOXML.mc) {
                taken = true
                try forEachChild(body)
            } else {
                try x.skipElement()
            }
        }
    }

    /// The blocks of the current container element (a cell, comment, note, text box), lists nested.
    func blocks() throws -> [Block] {
        var builder = ListBuilder(numbering: context.numbering)
        var out: [Block] = []
        try forEachChild {
            for b in try blockElement() { out += builder.add(b) }
        }
        out += builder.finish()
        if !progress.pendingAtoms.isEmpty { out = Self.appendingAtoms(&progress.pendingAtoms, to: out) }
        return out
    }

    /// Moves into `w:body`; false when the part has none.
    func enterBody() throws -> Bool {
        while let k = try x.next() {
            if k == .start && x.isElement(.body, in: OOXML.w) { return true }
        }
        return false
    }

    /// The blocks of the next block-level element of the body; nil at the end of the body.
    func nextBodyBlocks() throws -> [ParsedBlock]? {
        while let k = try x.next() {
            switch k {
            case .end:
                if progress.bodyWrappers == 0 { return nil }
                progress.bodyWrappers -= 1
            case .text: continue
            case .start:
                switch wrapperAction() {
                case .enter: progress.bodyWrappers += 1
                case .skip: try x.skipElement()
                case .alternate:
                    var out: [ParsedBlock] = []
                    try alternateContent { out += try blockElement() }
                    if !out.isEmpty { return out }
                case .handle:
                    let out = try blockElement()
                    if !out.isEmpty { return out }
                }
            }
        }
        return nil
    }

    /// Appends `atoms` (comment markers left at the end of a container) to the last paragraph of `blocks`.
    static func appendingAtoms(_ atoms: inout [Run], to blocks: [Block]) -> [Block] {
        var blocks = blocks
        let extra = InlineBuilder.inlines(from: atoms)
        atoms = []
        func append(_ b: Block) -> Block? {
            switch b {
            case .paragraph(var p): p.content += extra; return .paragraph(p)
            case .heading(let l, var p): p.content += extra; return .heading(level: l, p)
            case .blockQuote(var blocks):
                guard let last = blocks.last, let n = append(last) else { return nil }
                blocks[blocks.count - 1] = n
                return .blockQuote(blocks)
            case .list(var l):
                guard var item = l.items.last, let last = item.last, let n = append(last) else { return nil }
                item[item.count - 1] = n
                l.items[l.items.count - 1] = item
                return .list(l)
            default: return nil
            }
        }
        if let last = blocks.last, let n = append(last) {
            blocks[blocks.count - 1] = n
        } else {
            blocks.append(.paragraph(Paragraph(extra)))
        }
        return blocks
    }

    // MARK: Block-level elements

    /// One block-level element (the reader on its start tag): a paragraph, a table, or a marker.
    func blockElement() throws -> [ParsedBlock] {
        guard x.namespace == OOXML.w else {
            if x.namespace == OOXML.m { return [.block(.paragraph(Paragraph(InlineBuilder.inlines(from: try equation()))))] }
            try x.skipElement()
            return []
        }
        switch x.tag {
        case .p: return try paragraph()
        case .tbl: return [.block(.table(try table()))]
        case .sectPr:
            // The body's own: the document's last section (a sectPr in a cell or note is not Word's).
            let m = try PropertyParser.sectionProperties(x, diagnostics: diagnostics)
            let s = section(m)
            // The writer's own default page (what it writes when no section is stated) reads as unstated.
            progress.finalSection = DOCXWriter.isDefaultPage(s) ? nil : s
        case .commentRangeStart, .commentRangeEnd:
            if let atom = commentMarker() { progress.pendingAtoms.append(atom) }
            try x.skipElement()
        case .moveFromRangeStart, .moveToRangeStart, .moveFromRangeEnd, .moveToRangeEnd, .bookmarkStart:
            rangeMarker()
            try x.skipElement()
        case .ins, .del, .moveFrom, .moveTo:
            // Block-level revision wrappers (rare): read their content as blocks.
            var out: [ParsedBlock] = []
            try forEachChild { out += try blockElement() }
            return out
        default:
            try x.skipElement()
        }
        return []
    }

    /// The section `m` states, its header and footer references resolved to their stories (a reference to a
    /// part that is missing or not a header or footer is left out).
    func section(_ m: SectionMarkup) -> Section {
        var s = m.section
        for r in m.references {
            guard let blocks = context.headerStories[r.id] else { continue }
            s.headersFooters.append(HeaderFooter(kind: r.kind, which: r.which, blocks: blocks))
        }
        return s
    }

    // MARK: Tables

    func table() throws -> Table {
        var widths: [Double] = []
        var rows: [TableRow] = []
        var headerRows = 0
        var countingHeaders = true
        /// For each grid column, the (row, cell) of the cell a vertical merge continues.
        var mergeOrigin: [Int: (Int, Int)] = [:]
        try forEachChild {
            switch (x.namespace == OOXML.w, x.tag) {
            case (true, .tblPr):
                try countChanges(["tblPrChange"], .docxTablePropertyChange)
            case (true, .tblGrid):
                try forEachChild {
                    if x.tag == .gridCol, let w = PropertyParser.points(x.attribute("w", in: OOXML.w)) { widths.append(w) }
                    if x.tag == .tblGridChange {
                        diagnostics.report(.docxTablePropertyChange, "tracked table, row and cell property changes are not kept", at: location)
                    }
                    try x.skipElement()
                }
            case (true, .tr):
                let (row, isHeader) = try tableRow(rowIndex: rows.count, mergeOrigin: &mergeOrigin, rows: &rows)
                if countingHeaders && isHeader { headerRows += 1 } else { countingHeaders = false }
                rows.append(row)
            default:
                try x.skipElement()
            }
        }
        let columns = max(widths.count, rows.map { $0.cells.reduce(0) { $0 + $1.columnSpan } }.max() ?? 0)
        var table = Table(columns: Array(repeating: .none, count: columns), columnWidths: widths.isEmpty ? nil : widths,
                          headerRowCount: headerRows, rows: rows)
        table.inferColumnAlignments()
        return table
    }

    private func tableRow(rowIndex: Int, mergeOrigin: inout [Int: (Int, Int)], rows: inout [TableRow]) throws -> (TableRow, Bool) {
        var row = TableRow([])
        var header = false
        var column = 0
        var after = 0
        try forEachChild {
            switch (x.namespace == OOXML.w, x.tag) {
            case (true, .trPr), (true, .tblPrEx):
                try forEachChild {
                    switch x.tag {
                    case .tblHeader: header = PropertyParser.toggle(x)
                    case .ins: row.change = .inserted(PropertyParser.change(x))
                    case .del: row.change = .deleted(PropertyParser.change(x))
                    case .gridBefore:
                        let n = Int(x.attribute("val", in: OOXML.w) ?? "") ?? 0
                        for _ in 0..<max(0, min(n, 1000)) { row.cells.append(TableCell([])) }
                        column += max(0, min(n, 1000))
                    case .gridAfter: after = Int(x.attribute("val", in: OOXML.w) ?? "") ?? 0
                    case .trPrChange, .tblPrExChange:
                        diagnostics.report(.docxTablePropertyChange, "tracked table, row and cell property changes are not kept", at: location)
                    default: break
                    }
                    try x.skipElement()
                }
            case (true, .tc):
                var span = 1
                var merge: String?  // "restart", "continue" or nil
                var cellChange: RowChange?
                var blocks: [Block] = []
                var builder = ListBuilder(numbering: context.numbering)
                try forEachChild {
                    if x.isElement(.tcPr, in: OOXML.w) {
                        try forEachChild {
                            switch x.tag {
                            case .gridSpan: span = max(1, min(Int(x.attribute("val", in: OOXML.w) ?? "") ?? 1, 1000))
                            case .vMerge: merge = x.attribute("val", in: OOXML.w) ?? "continue"
                            case .cellIns: cellChange = .inserted(PropertyParser.change(x))
                            case .cellDel: cellChange = .deleted(PropertyParser.change(x))
                            case .cellMerge:
                                diagnostics.report(.docxCellChange, "tracked cell merges are not kept (the cells are shown)", at: location)
                            case .tcPrChange:
                                diagnostics.report(.docxTablePropertyChange, "tracked table, row and cell property changes are not kept", at: location)
                            default: break
                            }
                            try x.skipElement()
                        }
                    } else {
                        for b in try blockElement() { blocks += builder.add(b) }
                    }
                }
                blocks += builder.finish()
                if merge == "continue", let (r, c) = mergeOrigin[column], r < rows.count, c < rows[r].cells.count {
                    rows[r].cells[c].rowSpan += 1
                    let text = blocks.contains { !$0.plainText.isEmpty }
                    if text { rows[r].cells[c].blocks += blocks }
                } else {
                    if merge == "restart" { mergeOrigin[column] = (rowIndex, row.cells.count) } else { mergeOrigin[column] = nil }
                    row.cells.append(TableCell(blocks, columnSpan: span, change: cellChange))
                }
                column += span
            default:
                try x.skipElement()
            }
        }
        for _ in 0..<max(0, min(after, 1000)) { row.cells.append(TableCell([])) }
        return (row, header)
    }

    /// Reports each descendant element named in `names` under `code`; ends on the element's end tag.
    func countChanges(_ names: Set<String>, _ code: DiagnosticCode) throws {
        try x.forEachDescendant {
            if names.contains(x.localName) {
                diagnostics.report(code, "tracked table, row and cell property changes are not kept", at: location)
            }
            return false
        }
    }

    // MARK: Markers

    /// A comment range marker as a run; nil for a reply's marker (replies have no anchor of their own).
    func commentMarker() -> Run? {
        guard let id = x.attribute("id", in: OOXML.w), !context.replyIDs.contains(id) else { return nil }
        if x.tag == .commentRangeStart {
            progress.startedComments.insert(id)
            return Run(.atom(.commentStart(id)))
        }
        return Run(.atom(.commentEnd(id)))
    }

    /// Move range starts and ends (which name the moves) and bookmarks.
    func rangeMarker() {
        let id = x.attribute("id", in: OOXML.w) ?? ""
        switch x.tag {
        case .moveFromRangeStart:
            let name = x.attribute("name", in: OOXML.w) ?? "move\(id)"
            progress.moveNames[id] = name
            progress.moveFromName = name
        case .moveToRangeStart:
            let name = x.attribute("name", in: OOXML.w) ?? "move\(id)"
            progress.moveNames[id] = name
            progress.moveToName = name
        case .moveFromRangeEnd:
            if progress.moveNames.removeValue(forKey: id) == progress.moveFromName { progress.moveFromName = nil }
        case .moveToRangeEnd:
            if progress.moveNames.removeValue(forKey: id) == progress.moveToName { progress.moveToName = nil }
        case .bookmarkStart:
            if let name = x.attribute("name", in: OOXML.w), !name.hasPrefix("_"), !context.headingIDs.contains(name) {
                diagnostics.report(.docxBookmark, "bookmarks are not kept (links to them keep their #name)", at: location)
            }
        default: break
        }
    }
}

/// What a `StoryParser` has met so far in its story, read and written for nearly every element.
struct StoryProgress {
    /// The alt text of the last paragraph when it was a picture alone (a figure whose caption may come next).
    var figureAlt: String?
    /// Text boxes read so far (their `TextBox.number`).
    var textBoxCount = 0
    /// The w14:paraId of the last paragraph read (comments are linked to their replies by it).
    var lastParaID: String?
    /// Paragraphs read so far, for diagnostic locations.
    var paragraphCount = 0
    /// Comment ids whose range start has been seen (a reference without one is a point comment).
    var startedComments: Set<String> = []
    /// Comment markers met between paragraphs, waiting for the next paragraph.
    var pendingAtoms: [Run] = []
    /// Open move ranges: range id → name, and the innermost name of each side.
    var moveNames: [String: String] = [:]
    var moveFromName: String?
    var moveToName: String?
    /// The runs of the last paragraph, emptied: their storage is reused by the next one.
    var runBuffer: [Run] = []
    /// Open complex fields, innermost last.
    var fields: [StoryParser.Field] = []
    /// A field whose result spans paragraphs ended in the paragraph being read, and where (`BlockField.End`).
    var blockFieldEnd: BlockField.End?
    /// Which run array runs are being added to (a paragraph's, or a nested revision's): a field is kept as
    /// one only when its result starts and ends in the same one.
    var runArray = 0
    private var runArrays = 0

    /// A number for a new run array, which no array of this story had.
    mutating func newRunArray() -> Int {
        runArrays &+= 1
        return runArrays
    }
    /// Text runs before this index are not joined by the next text: a field's result starts there.
    var joinFloor = 0
    /// Body-level wrapper elements (w:sdt, w:customXml) currently open.
    var bodyWrappers = 0
    /// The body's own `w:sectPr`: the document's last section.
    var finalSection: Section?
}

/// The run-building caches of a `StoryParser` (PERFORMANCE.md, "DOCX run building").
struct RunLookCache {
    /// The last four run looks computed (properties, old properties, change, in a link) and their results,
    /// newest first: runs repeat a few looks (plain, italic, bold...) over and over.
    /// A struct, not a tuple, read in place by index: a tuple element was copied whole (through the
    /// runtime's generic witnesses) for every look compared, ~450 instructions a run.
    var recentFormats: [RecentLook] = []
    /// The look of a run without properties outside links (computed once).
    var plainRunFormat: (TextFormat, FormatChange?)?

    /// A run look and what it resolved to.
    struct RecentLook {
        var props: RunProps
        var old: RunProps?
        var change: Change?
        var inLink: Bool
        var format: TextFormat
        var formatChange: FormatChange?
    }
    /// Paragraph styles resolved so far (see `resolvedStyle`).
    var styleCache: [String: (props: ParaProps, heading: Int?, role: StyleSheet.BlockRole?)] = [:]
}

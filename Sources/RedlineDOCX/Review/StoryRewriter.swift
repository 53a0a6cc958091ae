import RedlineCore
import RedlineXML

/// The local names the in-place review switches on (`XMLReader.nameID` is the position in this list).
enum ReviewName: Int, CaseIterable {
    case ins, del, moveFrom, moveTo
    case moveFromRangeStart, moveFromRangeEnd, moveToRangeStart, moveToRangeEnd
    case customXmlInsRangeStart, customXmlInsRangeEnd, customXmlDelRangeStart, customXmlDelRangeEnd
    case customXmlMoveFromRangeStart, customXmlMoveFromRangeEnd, customXmlMoveToRangeStart, customXmlMoveToRangeEnd
    case p, r, t, delText, delInstrText, tbl, tr, tc
    case pPr, rPr, sectPr, tblPr, trPr, tcPr, tblGrid, tblPrEx
    case commentRangeStart, commentRangeEnd, commentReference, comment
    case footnote, endnote, bookmarkStart, bookmarkEnd, numberingChange

    static let names: [String] = allCases.map { "\($0)" }
}

/// Rewrites one story part (body, header, footer, notes, comments, also styles and numbering) event by
/// event: what `review` decides is applied as Word's Accept/Reject does, every other event is written
/// back as it was read. Works in pieces: `flush` receives the output whenever nothing waits for a
/// decision (between top-level paragraphs and tables), so memory stays flat. With `listing` set, nothing
/// is decided (every change is kept) and every change met is recorded instead.
final class StoryRewriter {
    let x: XMLReader
    @exclusivity(unchecked) var w = XMLEventWriter()
    let review: ReviewOptions
    /// Comments that go (their ranges and references go from the text, their entries from comments.xml).
    let droppedComments: Set<String>
    let story: String
    /// True once the output differs from the input in meaning (a change decided, a comment dropped).
    private(set) var changed = false
    /// Comments whose reference (`w:commentReference`) went with removed content (a row, a deletion).
    private(set) var lostReferences: Set<String> = []
    /// Comments whose reference or a range marker was written.
    private(set) var keptAnchors: Set<String> = []
    private let flush: ([UInt8]) throws -> Void

    // Listing.
    let listing: Bool
    var headingStyles: Set<String> = []
    private(set) var items: [ChangeListItem] = []
    /// Where each comment's anchor is (story, paragraph, heading, commented text).
    private(set) var anchors: [String: ChangeListItem] = [:]
    @exclusivity(unchecked) private var collectors: [(item: Int, depth: Int, before: Bool, after: Bool)] = []
    private var commentCollectors: [String: String] = [:]
    @exclusivity(unchecked) private var inText = 0
    private var paragraphNumber = 0
    /// Listing: text outside any change since the last change was listed (the next change does not adjoin it).
    private var textBetween = true
    private var heading: String?
    private var paragraphText: [String] = []
    private var noteStory: String?

    /// Output marks that are still open (tables, rows, cells): no flushing meanwhile.
    @exclusivity(unchecked) private var holds = 0
    @exclusivity(unchecked) private var paragraphDepth = 0
    /// Per open `w:tbl`: rows written.
    private var rowsWritten: [Int] = []
    /// Per enclosing surviving deletion (rejected w:del, w:moveFrom): true; per kept one: false.
    @exclusivity(unchecked) private var deletedText: [Bool] = []
    /// Decisions of range starts, for their ends (`moveFromRangeEnd` has only an id).
    private var rangeDecisions: [String: ReviewDecision] = [:]

    private let W: Int

    init(_ x: XMLReader, review: ReviewOptions, droppedComments: Set<String> = [], story: String, listing: Bool = false,
         flush: @escaping ([UInt8]) throws -> Void) {
        self.x = x
        self.review = review
        self.droppedComments = droppedComments
        self.story = story
        self.listing = listing
        self.flush = flush
        W = OOXML.w
    }

    /// Reads the whole part and writes it (the XML declaration first).
    func run() throws {
        w.declaration()
        while let k = try x.next() {
            switch k {
            case .start:
                w.start(x)
                try contents()
                w.end(x)
            case .text: w.text(x)
            case .end: break
            }
        }
        try flush(w.take())
    }

    private func flushIfIdle() throws {
        if holds == 0 && paragraphDepth == 0 && w.bytes.count >= 1 << 20 {
            try flush(w.take())
        }
    }

    // MARK: Walking

    private var name: ReviewName? { x.namespace == W ? ReviewName(rawValue: x.nameID) : nil }

    /// A paragraph whose mark went: its start tag and properties, its content, waiting for the next one.
    private struct Carry {
        var head: [UInt8]
        var content: [UInt8]
        var end: [UInt8]
    }

    /// The children of the element whose start tag was just handled; returns on its end tag (unwritten).
    /// `pending`: the reader is already on the first child's start tag.
    private func contents(pending: Bool = false) throws {
        var carry: Carry?
        var onStart = pending
        /// A paragraph of this container was written (so removing a later one leaves it one).
        var wroteParagraph = false
        while true {
            let k: XMLNodeKind
            if onStart { k = .start; onStart = false } else {
                guard let n = try x.next() else { return }
                k = n
            }
            switch k {
            case .end:
                if let c = carry { put(c, lastOf: wroteParagraph); carry = nil }
                return
            case .text:
                if inText > 0 { collect(x.text) }
                w.text(x)
            case .start:
                let n = name
                if n == .p {
                    try paragraph(&carry)
                    if carry == nil { wroteParagraph = true }
                    if paragraphDepth == 0 { try flushIfIdle() }
                } else {
                    if let c = carry, !Self.rangeMarkup.contains(n ?? .p) {
                        if n == .tbl { put(c, beforeTable: true) } else { put(c, lastOf: wroteParagraph && n == .sectPr) }
                        carry = nil
                    }
                    try element(n)
                }
            }
        }
    }

    private static let rangeMarkup: Set<ReviewName> = [
        .bookmarkStart, .bookmarkEnd, .commentRangeStart, .commentRangeEnd, .moveFromRangeStart, .moveFromRangeEnd,
        .moveToRangeStart, .moveToRangeEnd,
    ]

    /// Writes a paragraph whose mark went but that has no paragraph after it to join. One left with nothing
    /// in it goes instead (as Word and Open-Xml-PowerTools' RevisionAccepter remove it) when a table follows
    /// it, or when it ends the body or a cell that has another paragraph; not one holding a section break.
    private func put(_ c: Carry, beforeTable: Bool = false, lastOf containerWithOthers: Bool = false) {
        if (beforeTable || containerWithOthers) && c.content.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 })
            && !c.head.containsSequence(Self.sectPrTag) {
            changed = true
            return
        }
        w.append(c.head)
        w.append(c.content)
        w.append(c.end)
    }

    private static let sectPrTag = Array("sectPr".utf8)

    /// Handles the element whose start tag the reader is on, through its end tag.
    private func element(_ n: ReviewName?) throws {
        guard let n else { return try copy() }
        switch n {
        case .ins, .del, .moveFrom, .moveTo: try container(n)
        case .moveFromRangeStart, .moveToRangeStart, .customXmlMoveFromRangeStart, .customXmlMoveToRangeStart:
            try rangeStart(.move)
        case .customXmlInsRangeStart: try rangeStart(.insertion)
        case .customXmlDelRangeStart: try rangeStart(.deletion)
        case .moveFromRangeEnd, .moveToRangeEnd, .customXmlInsRangeEnd, .customXmlDelRangeEnd, .customXmlMoveFromRangeEnd,
             .customXmlMoveToRangeEnd:
            try rangeEnd()
        case .delText, .delInstrText:
            if deletedText.last == true {
                let new = n == .delText ? "t" : "instrText"
                w.start(x, rename: new)
                inText += n == .delText ? 1 : 0
                try contents()
                inText -= n == .delText ? 1 : 0
                w.end(x, rename: new)
            } else {
                inText += n == .delText ? 1 : 0
                try copy()
                inText -= n == .delText ? 1 : 0
            }
        case .t:
            inText += 1
            try copy()
            inText -= 1
        case .r: try runElement()
        case .tbl: try table()
        case .tr: try heldRowOrCell(row: true)
        case .tc: try heldRowOrCell(row: false)
        case .pPr, .rPr, .sectPr, .tblPr, .trPr, .tcPr, .tblGrid, .tblPrEx:
            let f = try x.fragment()
            if let r = resolve(f) { w.write(r) }
        case .commentRangeStart, .commentRangeEnd:
            let id = x.attribute("id", in: W) ?? ""
            if droppedComments.contains(id) {
                changed = true
                try x.skipElement()
            } else {
                if listing { anchor(id, start: n == .commentRangeStart) }
                keptAnchors.insert(id)
                try copy()
            }
        case .comment:
            let id = x.attribute("id", in: W) ?? ""
            if droppedComments.contains(id) {
                changed = true
                try x.skipElement()
            } else {
                noteStory = "comment \(id)"
                paragraphNumber = 0
                try copy()
                noteStory = nil
            }
        case .numberingChange:
            // In a field's end (`w:fldChar`): the list number it showed before; gone once decided.
            let d = decide(.paragraph, change { x.attribute($0, in: W) }, element: "numberingChange")
            if d == .keep { try copy() } else { try x.skipElement() }
        case .footnote, .endnote:
            noteStory = "\(n == .footnote ? "footnote" : "endnote") \(x.attribute("id", in: W) ?? "")"
            paragraphNumber = 0
            try copy()
            noteStory = nil
        default: try copy()
        }
    }

    private func copy() throws {
        w.start(x)
        try contents()
        w.end(x)
    }

    // MARK: Text changes

    private func change(_ attrs: (String) -> String?) -> Change {
        Change(author: attrs("author"), date: attrs("date"), id: attrs("id"))
    }

    /// Decides (or, when listing, records and keeps) one change.
    private func decide(_ kind: ChangeKind, _ change: Change, element: String, collect: (depth: Int, before: Bool, after: Bool)? = nil) -> ReviewDecision {
        if listing {
            items.append(ChangeListItem(id: change.id ?? "", kind: kind, element: "w:" + element, author: change.author,
                                        date: change.date, story: noteStory ?? story, paragraph: paragraphNumber,
                                        heading: heading))
            items[items.count - 1].adjoins = !textBetween
            textBetween = false
            if let c = collect { collectors.append((items.count - 1, c.depth, c.before, c.after)) }
            return .keep
        }
        let d = review.decision(for: ChangeInfo(kind: kind, change: change))
        if d != .keep { changed = true }
        return d
    }

    /// `w:ins`, `w:del`, `w:moveFrom`, `w:moveTo` around runs: kept, unwrapped or removed.
    private func container(_ n: ReviewName) throws {
        let kind: ChangeKind = n == .ins ? .insertion : n == .del ? .deletion : .move
        let isDeletion = n == .del || n == .moveFrom
        let depth = x.depth
        let d = decide(kind, change { x.attribute($0, in: W) }, element: "\(n)",
                       collect: (depth, isDeletion, !isDeletion))
        let current = deletedText.last ?? false
        switch d {
        case .keep:
            deletedText.append(isDeletion ? false : current)
            try copy()
            deletedText.removeLast()
        case .accept where !isDeletion, .reject where isDeletion:
            deletedText.append(isDeletion ? true : current)
            try contents()
            deletedText.removeLast()
        default:
            try drop()
        }
        closeCollectors(depth)
    }

    /// Skips the current element, keeping the bookmarks and comment anchors inside it (so that none
    /// loses its other end) unless their comment goes.
    private func drop() throws {
        var open = 1
        while open > 0, let k = try x.next() {
            switch k {
            case .start:
                open += 1
                switch name {
                case .bookmarkStart?, .bookmarkEnd?, .commentRangeStart?, .commentRangeEnd?:
                    if droppedComments.contains(x.attribute("id", in: W) ?? "") && (name == .commentRangeStart || name == .commentRangeEnd) {
                        try x.skipElement()
                    } else {
                        if name == .commentRangeStart || name == .commentRangeEnd { keptAnchors.insert(x.attribute("id", in: W) ?? "") }
                        try copy()
                    }
                    open -= 1
                case .commentReference?:
                    lostReferences.insert(x.attribute("id", in: W) ?? "")
                default: break
                }
            case .end: open -= 1
            case .text: break
            }
        }
    }

    /// Move and custom-XML range starts: removed once their change is decided.
    private func rangeStart(_ kind: ChangeKind) throws {
        let c = change { x.attribute($0, in: W) }
        let d = decide(kind, c, element: x.localName)
        if let id = c.id { rangeDecisions[x.localName.replacingOccurrences(of: "Start", with: "") + id] = d }
        if d == .keep { try copy() } else { try x.skipElement() }
    }

    private func rangeEnd() throws {
        let id = x.attribute("id", in: W)
        let key = x.localName.replacingOccurrences(of: "End", with: "") + (id ?? "")
        // An end whose start was not met: the shared decision for what the end says (its kind and id).
        let kind: ChangeKind = x.localName.hasPrefix("customXmlIns") ? .insertion : x.localName.hasPrefix("customXmlDel") ? .deletion : .move
        let d = rangeDecisions[key] ?? (listing ? .keep : review.decision(for: ChangeInfo(kind: kind, change: Change(id: id))))
        if d == .keep { try copy() } else { changed = true; try x.skipElement() }
    }

    // MARK: Runs

    /// A run: its properties resolved; a run left with nothing but a dropped comment's reference goes.
    private func runElement() throws {
        let mark = w.mark()
        let depth = x.depth
        w.start(x)
        var meaningful = false, droppedReference = false
        while let k = try x.next() {
            switch k {
            case .end:
                if droppedReference && !meaningful { w.cut(to: mark) } else { w.end(x) }
                closeCollectors(depth)
                return
            case .text:
                if inText > 0 { collect(x.text) }
                w.text(x)
            case .start:
                let n = name
                if n == .rPr {
                    let f = try x.fragment()
                    if let r = resolve(f, run: depth) { w.write(r) }
                } else if n == .commentReference, droppedComments.contains(x.attribute("id", in: W) ?? "") {
                    changed = true
                    droppedReference = true
                    try x.skipElement()
                } else {
                    if n == .commentReference {
                        if listing { anchor(x.attribute("id", in: W) ?? "", start: true) }
                        keptAnchors.insert(x.attribute("id", in: W) ?? "")
                    }
                    meaningful = true
                    try element(n)
                }
            }
        }
    }

    // MARK: Paragraphs

    private func paragraph(_ carry: inout Carry?) throws {
        paragraphNumber += 1
        paragraphDepth += 1
        defer { paragraphDepth -= 1 }
        let depth = x.depth
        let start = w.mark()
        let prefix = x.prefix
        w.start(x)
        var markGoes = false
        var pending = false, ended = false
        var isHeading = false
        if listing { paragraphText.append("") }
        // Leading whitespace, then the properties (if any).
        while let k = try x.next() {
            if k == .text { w.text(x); continue }
            if k == .start && name == .pPr {
                let f = try x.fragment()
                let (r, goes, style) = resolveParagraph(f, depth: depth)
                if let r { w.write(r) }
                markGoes = goes
                isHeading = style.map { headingStyles.contains($0) } ?? false
            } else {
                pending = k == .start
                ended = k == .end
            }
            break
        }
        // What earlier paragraphs carried: written here when this mark stays, carried on (never copied back
        // into the buffer, so a chain of merges stays linear) when it goes too.
        var carried: [UInt8] = []
        if var c = carry {
            carry = nil  // `c` now holds the only reference: swapped out, never copied
            if markGoes { swap(&carried, &c.content) } else { w.append(c.content) }
        }
        let contentStart = w.mark()
        if !ended { try contents(pending: pending) }
        finishParagraph(start: start, contentStart: contentStart, markGoes: markGoes, prefix: prefix, carry: &carry,
                        carried: &carried, isHeading: isHeading, depth: depth)
    }

    private func finishParagraph(start: Int, contentStart: Int, markGoes: Bool, prefix: String, carry: inout Carry?,
                                 carried: inout [UInt8], isHeading: Bool, depth: Int) {
        closeCollectors(depth)
        if listing {
            let text = paragraphText.removeLast()
            if !paragraphText.isEmpty { paragraphText[paragraphText.count - 1] += text }
            if isHeading && noteStory == nil && story == "body" { heading = ChangeListItem.shortened(text, limit: 80) }
        }
        if markGoes {
            var content: [UInt8] = []
            swap(&content, &carried)
            content.append(contentsOf: w.slice(from: contentStart))
            let head = w.slice(from: start)
            carry = Carry(head: head, content: content, end: Array("</\(prefix.isEmpty ? "" : prefix + ":")p>".utf8))
        } else {
            w.end(x)
        }
    }

    /// A paragraph's properties resolved, whether its mark goes, and its style.
    private func resolveParagraph(_ f: XMLFragment, depth: Int) -> (XMLFragment?, Bool, String?) {
        guard var p = resolve(f, paragraph: depth) else { return (nil, false, nil) }
        var goes = false
        let style = p.elements.first { $0.isElement("pStyle", in: W) }?.attribute("val", in: W)
        if let i = p.children.firstIndex(where: { if case .element(let e) = $0 { return e.isElement("rPr", in: W) }; return false }),
           case .element(var rPr) = p.children[i] {
            rPr.children = rPr.children.filter { child in
                guard case .element(let e) = child, e.namespace == W,
                      ["ins", "del", "moveFrom", "moveTo"].contains(e.localName) else { return true }
                let kind: ChangeKind = e.localName == "ins" || e.localName == "del" ? .paragraph : .move
                let d = decide(kind, change { e.attribute($0, in: W) }, element: e.localName + " (paragraph mark)",
                               collect: (depth, true, true))
                guard d != .keep else { return true }
                // A moved paragraph's mark stays either way (as RevisionAccepter leaves it): only the
                // marker goes. An inserted mark goes on reject, a deleted one on accept.
                if kind == .paragraph, (e.localName == "ins") == (d == .reject) { goes = true }
                return false
            }
            p.children[i] = .element(rPr)
        }
        return (p, goes, style)
    }

    // MARK: Tables

    /// A table: held (it goes when every row went) until its first row is written; then the output may
    /// be flushed between its paragraphs, so a document in one long table stays flat in memory.
    private func table() throws {
        let mark = w.mark()
        holds += 1
        var held = true
        rowsWritten.append(0)
        var sawRow = false
        w.start(x)
        while let k = try x.next() {
            switch k {
            case .end:
                let rows = rowsWritten.removeLast()
                if held { holds -= 1 }
                if held && sawRow && rows == 0 { w.cut(to: mark) } else { w.end(x) }
                if paragraphDepth == 0 { try flushIfIdle() }
                return
            case .text: w.text(x)
            case .start:
                let n = name
                if n == .tr { sawRow = true }
                try element(n)
                if held, let r = rowsWritten.last, r > 0 {
                    holds -= 1
                    held = false
                }
            }
        }
    }

    /// A row (`w:tr`) or a cell (`w:tc`): held until its properties (`w:trPr`, `w:tcPr`) say whether it stays.
    /// A row is released by its first child other than properties and `w:tblPrEx`, and counted in
    /// `rowsWritten` at its end; a cell's first other child starts its blocks, which run to the cell's end.
    private func heldRowOrCell(row: Bool) throws {
        let mark = w.mark()
        let depth = x.depth
        holds += 1
        var held = true
        defer { if held { holds -= 1 } }
        w.start(x)
        while let k = try x.next() {
            switch k {
            case .end:
                w.end(x)
                closeCollectors(depth)
                if row && !rowsWritten.isEmpty { rowsWritten[rowsWritten.count - 1] += 1 }
                return
            case .text: w.text(x)
            case .start:
                let n = name
                if n == (row ? .trPr : .tcPr) {
                    if try heldProperties(inserted: row ? "ins" : "cellIns", deleted: row ? "del" : "cellDel",
                                          depth: depth, mark: mark, held: held) {
                        return
                    }
                    continue
                }
                if held && !(row && n == .tblPrEx) {
                    holds -= 1
                    held = false
                }
                if row {
                    try element(n)
                } else {
                    // The cell's blocks, paragraphs merging as anywhere else; returns on the cell's end.
                    try contents(pending: true)
                    w.end(x)
                    closeCollectors(depth)
                    return
                }
            }
        }
    }

    /// A row's or cell's properties (`w:trPr`, `w:tcPr`, the reader on their start), written resolved; true
    /// when they say the row or cell goes while it is still held: its output is cut back to `mark` and the
    /// rest of it skipped. (Properties after content, against the schema: the row or cell stays.)
    private func heldProperties(inserted: String, deleted: String, depth: Int, mark: Int, held: Bool) throws -> Bool {
        let (r, goes) = resolveMarked(try x.fragment(), inserted: inserted, deleted: deleted, depth: depth)
        if goes && held {
            w.cut(to: mark)
            try dropRest()
            closeCollectors(depth)
            return true
        }
        if let r { w.write(r) }
        return false
    }

    /// After a row's or cell's properties said it goes: skips to its end, keeping range markers.
    private func dropRest() throws {
        var open = 1
        while open > 0, let k = try x.next() {
            switch k {
            case .start:
                switch name {
                case .bookmarkStart?, .bookmarkEnd?: try copy()
                case .commentReference?:
                    lostReferences.insert(x.attribute("id", in: W) ?? "")
                    open += 1
                default: open += 1
                }
            case .end: open -= 1
            case .text: break
            }
        }
    }

    /// Row or cell properties resolved, and whether the row or cell goes (an insertion rejected, a
    /// deletion accepted). `w:cellMerge` is removed once decided.
    private func resolveMarked(_ f: XMLFragment, inserted: String, deleted: String, depth: Int) -> (XMLFragment?, Bool) {
        guard var props = resolve(f) else { return (nil, false) }
        var goes = false
        props.children = props.children.filter { child in
            guard case .element(let e) = child, e.namespace == W,
                  [inserted, deleted, "cellMerge"].contains(e.localName) else { return true }
            let d = decide(.table, change { e.attribute($0, in: W) }, element: e.localName, collect: (depth, true, true))
            guard d != .keep else { return true }
            if e.localName == inserted && d == .reject { goes = true }
            if e.localName == deleted && d == .accept { goes = true }
            return false
        }
        return (props, goes)
    }

    // MARK: Properties

    private static let changeKinds: [String: ChangeKind] = [
        "rPr": .formatting, "pPr": .paragraph, "sectPr": .paragraph, "tblPr": .table, "trPr": .table, "tcPr": .table,
        "tblGrid": .table, "tblPrEx": .table,
    ]
    /// Children of a properties element that its `...Change` does not record (they stay on reject), and
    /// whether they come before the recorded ones.
    private static let unrecorded: [String: (names: Set<String>, first: Bool)] = [
        "pPr": (["rPr", "sectPr"], false), "rPr": (["ins", "del", "moveFrom", "moveTo"], true),
        "sectPr": (["headerReference", "footerReference"], true), "trPr": (["ins", "del"], false),
        "tcPr": (["cellIns", "cellDel", "cellMerge"], false),
    ]

    /// A properties element with its `...Change` accepted (removed), rejected (the recorded properties
    /// restored) or kept; nested properties and numbering changes too. nil: the element goes.
    /// `run`/`paragraph`: the depth of the run or paragraph whose text a listing shows.
    private func resolve(_ f: XMLFragment, run: Int? = nil, paragraph: Int? = nil) -> XMLFragment? {
        guard f.namespace == W, let kind = Self.changeKinds[f.localName] ?? (f.localName == "numPr" ? .paragraph : nil) else {
            return f
        }
        var f = f
        var removeSelf = false
        var children: [XMLFragmentChild] = []
        for child in f.children {
            guard case .element(let e) = child, e.namespace == W else { children.append(child); continue }
            switch e.localName {
            case "rPr", "pPr", "sectPr", "numPr", "tblPr", "trPr", "tcPr":
                if e.localName != f.localName, let r = resolve(e, run: run, paragraph: paragraph) { children.append(.element(r)) }
                else if e.localName == f.localName { children.append(child) }
            case "numberingChange":
                let d = decide(.paragraph, change { e.attribute($0, in: W) }, element: "numberingChange",
                               collect: paragraph.map { ($0, true, true) })
                if d == .keep { children.append(child) }
            case "ins" where f.localName == "numPr":
                let d = decide(.paragraph, change { e.attribute($0, in: W) }, element: "ins (numbering)",
                               collect: paragraph.map { ($0, true, true) })
                if d == .keep { children.append(child) } else if d == .reject { removeSelf = true }
            default:
                children.append(child)
            }
        }
        f.children = children
        if removeSelf { return nil }
        let changeName = f.localName + "Change"
        guard let i = f.children.firstIndex(where: { if case .element(let e) = $0 { return e.isElement(changeName, in: W) }; return false }),
              case .element(let ch) = f.children[i] else { return f }
        let depth = run ?? paragraph
        let d = decide(kind, change { ch.attribute($0, in: W) }, element: changeName, collect: depth.map { ($0, true, true) })
        switch d {
        case .keep: return f
        case .accept:
            f.children.remove(at: i)
            return f
        case .reject:
            let old = ch.elements.first?.children.filter { c in
                if case .element(let e) = c, let u = Self.unrecorded[f.localName], u.names.contains(e.localName) { return false }
                return true
            } ?? []
            let keep = f.children.filter { c in
                if case .element(let e) = c, let u = Self.unrecorded[f.localName], e.namespace == W, u.names.contains(e.localName) { return true }
                return false
            }
            let first = Self.unrecorded[f.localName]?.first ?? false
            f.children = first ? keep + old : old + keep
            return f
        }
    }

    // MARK: Listing

    private func collect(_ s: String) {
        guard listing else { return }
        if collectors.isEmpty && !s.isEmpty { textBetween = true }
        if !paragraphText.isEmpty { paragraphText[paragraphText.count - 1] += s }
        // The innermost changes only: revisions nested thousands deep must not make listing quadratic.
        for c in collectors.suffix(16) {
            if c.before && c.after {
                items[c.item].before += s
                items[c.item].after += s
            } else if c.before {
                items[c.item].before += s
            } else {
                items[c.item].after += s
            }
        }
        for k in commentCollectors.keys { commentCollectors[k]! += s }
    }

    private func closeCollectors(_ depth: Int) {
        guard listing else { return }
        while let c = collectors.last, c.depth >= depth {
            collectors.removeLast()
        }
    }

    private func anchor(_ id: String, start: Bool) {
        if start {
            if anchors[id] == nil {
                anchors[id] = ChangeListItem(id: id, kind: .comment, element: "w:comment", story: noteStory ?? story,
                                             paragraph: paragraphNumber, heading: heading)
                commentCollectors[id] = ""
            }
        } else if let text = commentCollectors.removeValue(forKey: id) {
            anchors[id]?.before = text
        }
    }
}

extension Array where Element == UInt8 {
    /// True when `needle` occurs in these bytes.
    fileprivate func containsSequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return needle.isEmpty }
        for i in 0...(count - needle.count) where self[i] == needle[0] {
            if self[i..<i + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}

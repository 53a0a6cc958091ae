import RedlineCore

/// Nests numbered paragraphs into `List` blocks as they stream by: consecutive items form a list,
/// deeper levels nest inside the last item, a different numbering at the same level starts a new
/// list, an unnumbered paragraph indented as an open list's text continues its last item, and
/// anything else closes every open list. Numbers continue across interruptions as Word counts them
/// (per numbering definition and level; `w:startOverride` restarts). Consecutive quoted blocks (and
/// the lists among them) are grouped into one block quote. These decisions are the DOCX reader's; the
/// nesting itself is `ListNesting`'s.
struct ListBuilder {
    let numbering: Numbering
    /// The open lists (keyed by numbering instance) and the block quote being grouped.
    private var nesting = ListNesting<String>()
    /// The last number used, per counter key and level.
    private var counters: [String: [Int: Int]] = [:]
    /// (numID, level) pairs whose start override has been applied.
    private var overridden: Set<String> = []
    /// The key of the outermost open list when it is one a list starting deeper made (its first item holds
    /// only the deeper list): its own numbering is unknown, so only its own key's items continue it.
    private var startedDeeper: String?

    init(numbering: Numbering) { self.numbering = numbering }

    /// Takes the next parsed block; returns the top-level blocks completed by it.
    mutating func add(_ parsed: ParsedBlock) -> [Block] {
        if parsed.quoted != nesting.isQuoting {
            nesting.closeAllLists()
            if nesting.isQuoting { nesting.closeQuote() } else { nesting.openQuote() }
        }
        addUnquoted(parsed)
        return nesting.take()
    }

    /// Closes every open list and block quote; returns the completed top-level blocks.
    mutating func finish() -> [Block] {
        nesting.closeAll()
        return nesting.take()
    }

    /// The indent the writer (and Word) gives the text of a list item at `level`, in points.
    static func itemIndent(level: Int) -> Double { Double(36 * (level + 1)) }

    private mutating func addUnquoted(_ parsed: ParsedBlock) {
        switch parsed {
        case .block(let b, let quoted):
            // In a quote the quote's own indent is the item text's: a continuation there is one step further.
            let quoteIndent: Double = quoted ? 36 : 0
            // A heading in a list item is written as a continuation paragraph in its heading style.
            let heading: Int?
            var p: Paragraph
            switch b {
            case .paragraph(let x) where x.style.name == nil: (heading, p) = (nil, x)
            case .heading(let level, let x): (heading, p) = (level, x)
            default:
                nesting.closeAllLists()
                nesting.emit(b)
                return
            }
            if p.markChange == nil, let indent = p.style.leftIndent,
               let i = nesting.lastDepth(where: { Self.itemIndent(level: $0.level) + quoteIndent == indent }) {
                // A continuation paragraph of the last item at that level: an item of two paragraphs, a loose list.
                p.style.leftIndent = nil
                if p.styleChange?.old.leftIndent == indent { p.styleChange?.old.leftIndent = nil }
                nesting.continueItem(heading.map { .heading(level: $0, p) } ?? .paragraph(p), depth: i, loose: true)
                return
            }
            nesting.closeAllLists()
            nesting.emit(b)
        case .listItem(let b, let numID, let level, _):
            let (number, restarted) = count(numID, level)
            nesting.closeLists(deeperThan: level)
            if let top = nesting.innermost, top.level == level {
                // Another numbering instance of the same definition continues an ordered list (Word counts
                // on) unless it restarts; a bullet list under another instance is another list.
                let continues = !restarted && top.kind != .bullet
                    && numbering.abstractID(top.key) == numbering.abstractID(numID)
                    && !(nesting.depth == 1 && startedDeeper == top.key)
                if top.key == numID || continues {
                    nesting.addItem(b)
                    return
                }
                nesting.closeInnermost()
            }
            // A level skipped (level 0, then 2; or a list that starts at level 1: Word indents the paragraph to
            // its level) is an item holding only the deeper list, so the paragraph keeps its depth.
            let shallowest = nesting.innermost.map { $0.level + 1 } ?? 0
            if nesting.depth == 0 { startedDeeper = level > 0 ? numID : nil }
            if level > shallowest {
                for skipped in shallowest ..< level {
                    nesting.startSkippedLevel(key: numID, level: skipped, kind: kind(numID, skipped, start: 1))
                }
            }
            nesting.startList(key: numID, level: level, kind: kind(numID, level, start: number), item: b)
        }
    }

    private func kind(_ numID: String, _ level: Int, start: Int) -> ListKind {
        guard let l = numbering.level(numID, level), !l.isBullet else { return .bullet }
        return .ordered(start: start, delimiter: l.text.hasSuffix(")") ? ")" : ".")
    }

    /// The number this item gets, advancing the counter its numbering definition shares with every
    /// instance of it; and whether a start override restarted it here.
    private mutating func count(_ numID: String, _ level: Int) -> (Int, Bool) {
        let key = numbering.abstractID(numID) ?? numID
        var levels = counters[key] ?? [:]
        let number: Int
        var restarted = false
        let overrideKey = "\(numID)/\(level)"
        if let start = numbering.startOverride(numID, level), !overridden.contains(overrideKey) {
            overridden.insert(overrideKey)
            number = start
            restarted = true
        } else if let last = levels[level] {
            number = last + 1
        } else {
            number = numbering.level(numID, level)?.start ?? 1
        }
        levels[level] = number
        for deeper in levels.keys where deeper > level { levels[deeper] = nil }
        counters[key] = levels
        return (number, restarted)
    }
}

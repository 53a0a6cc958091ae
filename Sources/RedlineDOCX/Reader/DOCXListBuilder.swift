import RedlineCore

/// Nests numbered paragraphs into `List` blocks as they stream by: consecutive items form a list,
/// deeper levels nest inside the last item, a different numbering at the same level starts a new
/// list, an unnumbered paragraph indented as an open list's text continues its last item, and
/// anything else closes every open list. Numbers continue across interruptions as Word counts them
/// (per numbering definition and level; `w:startOverride` restarts). Consecutive quoted blocks (and
/// the lists among them) are grouped into one block quote.
struct ListBuilder {
    let numbering: Numbering
    private var open: [(numID: String, level: Int, list: List)] = []
    /// The last number used, per counter key and level.
    private var counters: [String: [Int: Int]] = [:]
    /// (numID, level) pairs whose start override has been applied.
    private var overridden: Set<String> = []

    init(numbering: Numbering) { self.numbering = numbering }

    /// The block quote being grouped, if the last block was quoted.
    private var quote: [Block]?

    /// Takes the next parsed block; returns the top-level blocks completed by it.
    mutating func add(_ parsed: ParsedBlock) -> [Block] {
        var out: [Block] = []
        if parsed.quoted != (quote != nil) {
            let lists = finishLists()
            if let q = quote {
                out.append(.blockQuote(q + lists))
                quote = nil
            } else {
                out += lists
                quote = []
            }
        }
        let blocks = addUnquoted(parsed)
        if quote != nil { quote! += blocks } else { out += blocks }
        return out
    }

    /// Closes every open list and block quote; returns the completed top-level blocks.
    mutating func finish() -> [Block] {
        let lists = finishLists()
        guard let q = quote else { return lists }
        quote = nil
        return [.blockQuote(q + lists)]
    }

    /// The indent the writer (and Word) gives the text of a list item at `level`, in points.
    static func itemIndent(level: Int) -> Double { Double(36 * (level + 1)) }

    private mutating func addUnquoted(_ parsed: ParsedBlock) -> [Block] {
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
            default: return finishLists() + [b]
            }
            if p.markChange == nil, let indent = p.style.leftIndent,
               let i = open.lastIndex(where: { Self.itemIndent(level: $0.level) + quoteIndent == indent }) {
                // A continuation paragraph of the last item at that level.
                var out: [Block] = []
                while open.count > i + 1 { close(into: &out) }
                p.style.leftIndent = nil
                if p.styleChange?.old.leftIndent == indent { p.styleChange?.old.leftIndent = nil }
                let items = open[i].list.items.count
                open[i].list.items[items - 1].append(heading.map { .heading(level: $0, p) } ?? .paragraph(p))
                open[i].list.tight = false  // an item of two paragraphs: a loose list
                return out
            }
            return finishLists() + [b]
        case .listItem(let b, let numID, let level, _):
            var out: [Block] = []
            let (number, restarted) = count(numID, level)
            while let top = open.last, top.level > level { close(into: &out) }
            if let top = open.last, top.level == level {
                // Another numbering instance of the same definition continues an ordered list (Word counts
                // on) unless it restarts; a bullet list under another instance is another list.
                let continues = !restarted && top.list.kind != .bullet
                    && numbering.abstractID(top.numID) == numbering.abstractID(numID)
                if top.numID == numID || continues {
                    open[open.count - 1].list.items.append([b])
                    return out
                }
                close(into: &out)
            }
            open.append((numID, level, List(kind: kind(numID, level, start: number), items: [[b]])))
            return out
        }
    }

    /// Closes every open list; returns the completed top-level block, if any.
    private mutating func finishLists() -> [Block] {
        var out: [Block] = []
        while !open.isEmpty { close(into: &out) }
        return out
    }

    private mutating func close(into out: inout [Block]) {
        let last = open.removeLast()
        let block = Block.list(last.list)
        if open.isEmpty {
            out.append(block)
        } else {
            let parent = open.count - 1
            if open[parent].list.items.isEmpty { open[parent].list.items.append([]) }
            open[parent].list.items[open[parent].list.items.count - 1].append(block)
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

/// Nests a flat stream of paragraphs into lists and block quotes: the mechanics the readers that see a
/// document as a sequence of paragraphs (DOCX's `ListBuilder`, RTF's `BlockCollector`) share. Which list
/// and level a paragraph belongs to is the reader's decision; what happens to the blocks is decided here:
///
/// - Open lists form a stack, outermost first, each with the reader's `Key` for it (a numbering id) and
///   a level. `startList` opens a list inside the last item of the innermost open list, or at top level
///   when none is open.
/// - A closed list becomes the last block of its parent's last item (an empty item is made when the
///   parent has none yet); the outermost one, when closed, is a finished block.
/// - `addItem` starts a new item in the innermost list; `continueItem` adds a further block to the last
///   item of the list at a depth, closing the deeper lists first.
/// - Finished blocks go into the open block quote while one is open (`openQuote`...`closeQuote`: one quote
///   for a run of quoted blocks, lists closed inside it included), else to the output, where the reader
///   takes them (`take`).
public struct ListNesting<Key: Equatable & Sendable>: Sendable {
    /// What a reader needs to know about an open list to decide where the next paragraph goes.
    public struct Frame: Sendable {
        public var key: Key
        public var level: Int
        public var kind: ListKind
        public var itemCount: Int
    }

    private var open: [(key: Key, level: Int, list: List)] = []
    private var quote: [Block]?
    /// Finished top-level blocks, in order, until the reader takes them.
    public private(set) var finished: [Block] = []

    public init() {}

    /// How many lists are open (0 when none).
    public var depth: Int { open.count }

    /// The open list at `depth` (0 is the outermost).
    public func frame(at depth: Int) -> Frame {
        let o = open[depth]
        return Frame(key: o.key, level: o.level, kind: o.list.kind, itemCount: o.list.items.count)
    }

    /// The innermost open list, if any.
    public var innermost: Frame? { open.isEmpty ? nil : frame(at: open.count - 1) }

    /// The depth of the innermost open list `matches` accepts, if any.
    public func lastDepth(where matches: (Frame) -> Bool) -> Int? {
        open.indices.last { matches(frame(at: $0)) }
    }

    /// Opens a list whose first item holds `item`, nested in the last item of the innermost open list.
    public mutating func startList(key: Key, level: Int, kind: ListKind, item: Block) {
        open.append((key, level, List(kind: kind, items: [[item]])))
    }

    /// Opens a list whose first item is empty, nested as `startList` nests: a level a paragraph skipped (Word's
    /// level 0 followed by level 2), whose item then holds only the deeper list.
    public mutating func startSkippedLevel(key: Key, level: Int, kind: ListKind) {
        open.append((key, level, List(kind: kind, items: [[]])))
    }

    /// Starts a new item holding `block` in the innermost open list.
    public mutating func addItem(_ block: Block) {
        precondition(!open.isEmpty, "addItem needs an open list")
        open[open.count - 1].list.items.append([block])
    }

    /// Adds `block` to the last item of the list at `depth` (the innermost when nil), after closing the
    /// lists inside it; `loose` makes that list loose (an item of two paragraphs).
    public mutating func continueItem(_ block: Block, depth: Int? = nil, loose: Bool = false) {
        precondition(!open.isEmpty, "continueItem needs an open list")
        let d = depth ?? open.count - 1
        while open.count > d + 1 { closeInnermost() }
        if open[d].list.items.isEmpty { open[d].list.items.append([]) }
        open[d].list.items[open[d].list.items.count - 1].append(block)
        if loose { open[d].list.tight = false }
    }

    /// Closes the innermost open list.
    public mutating func closeInnermost() {
        let last = open.removeLast()
        let block = Block.list(last.list)
        guard let parent = open.indices.last else { emit(block); return }
        if open[parent].list.items.isEmpty { open[parent].list.items.append([]) }
        open[parent].list.items[open[parent].list.items.count - 1].append(block)
    }

    /// Closes the innermost lists while their level is deeper than `level`; with `keepingOutermost`,
    /// never the outermost one.
    public mutating func closeLists(deeperThan level: Int, keepingOutermost: Bool = false) {
        while open.count > (keepingOutermost ? 1 : 0), let top = open.last?.level, top > level { closeInnermost() }
    }

    /// Closes every open list.
    public mutating func closeAllLists() {
        while !open.isEmpty { closeInnermost() }
    }

    /// Whether finished blocks go into a block quote.
    public var isQuoting: Bool { quote != nil }

    /// Starts gathering finished blocks into a block quote (nothing when one is open).
    public mutating func openQuote() {
        if quote == nil { quote = [] }
    }

    /// Ends the open block quote, which becomes a finished block (nothing when none is open).
    public mutating func closeQuote() {
        guard let q = quote else { return }
        quote = nil
        emit(.blockQuote(q))
    }

    /// A finished block: into the open block quote, else to the output.
    public mutating func emit(_ block: Block) {
        if quote != nil { quote!.append(block) } else { finished.append(block) }
    }

    /// Closes every open list and the block quote.
    public mutating func closeAll() {
        closeAllLists()
        closeQuote()
    }

    /// Takes the finished blocks.
    public mutating func take() -> [Block] {
        defer { finished.removeAll(keepingCapacity: true) }
        return finished
    }
}

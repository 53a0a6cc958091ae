/// A tracked change that covers a run (the run-level review marks of DOCX and RTF).
public enum RunChange: Hashable, Sendable, Codable {
    case insertion(Change)
    case deletion(Change)
    case move(Move)
}

/// One run of uniformly formatted content: the flat view of inlines that DOCX and RTF read and write.
public struct Run: Hashable, Sendable, Codable {
    /// What a run holds.
    public enum Content: Hashable, Sendable, Codable {
        case text(String)
        case lineBreak
        /// An inline with no text children: image, note reference, comment anchor, raw, soft break, math.
        case atom(Inline)
    }

    public var content: Content
    public var format: TextFormat
    /// The link, change and format change, which most runs lack, live out of line (nil when none is
    /// set), so a run is 56 bytes instead of 320: a paragraph of a million runs is held as runs while it
    /// nests (PERFORMANCE.md, "Small runs"; `RunLayoutTests` guards it).
    private var extras: RunExtras?

    public var link: Link? {
        get { extras?.link }
        set { extras = RunExtras.make(link: newValue, change: change, formatChange: formatChange) }
    }
    public var change: RunChange? {
        get { extras?.change }
        set { extras = RunExtras.make(link: link, change: newValue, formatChange: formatChange) }
    }
    public var formatChange: FormatChange? {
        get { extras?.formatChange }
        set { extras = RunExtras.make(link: link, change: change, formatChange: newValue) }
    }

    public init(_ content: Content, format: TextFormat = TextFormat(), link: Link? = nil,
                change: RunChange? = nil, formatChange: FormatChange? = nil) {
        self.content = content
        self.format = format
        self.extras = RunExtras.make(link: link, change: change, formatChange: formatChange)
    }

    private enum CodingKeys: String, CodingKey { case content, format, link, change, formatChange }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(Content.self, forKey: .content), format: try c.decode(TextFormat.self, forKey: .format),
                  link: try c.decodeIfPresent(Link.self, forKey: .link),
                  change: try c.decodeIfPresent(RunChange.self, forKey: .change),
                  formatChange: try c.decodeIfPresent(FormatChange.self, forKey: .formatChange))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(content, forKey: .content)
        try c.encode(format, forKey: .format)
        try c.encodeIfPresent(link, forKey: .link)
        try c.encodeIfPresent(change, forKey: .change)
        try c.encodeIfPresent(formatChange, forKey: .formatChange)
    }

    public static func == (a: Run, b: Run) -> Bool {
        a.content == b.content && a.format == b.format
            && (a.extras === b.extras || (a.link == b.link && a.change == b.change && a.formatChange == b.formatChange))
    }

    public func hash(into h: inout Hasher) {
        h.combine(content)
        h.combine(format)
        h.combine(link)
        h.combine(change)
        h.combine(formatChange)
    }

    /// True when the run has no link, change or format change (one test, not three optionals copied).
    public var hasNoExtras: Bool { extras == nil }

    /// True when the run's link, change and format change equal `other`'s (without copying them when
    /// neither run has any, or both share them).
    public func hasSameExtras(as other: Run) -> Bool {
        if extras === other.extras { return true }
        return change.isSame(as: other.change) && link.isSame(as: other.link) && formatChange.isSame(as: other.formatChange)
    }

    /// A text run.
    public static func text(_ s: String, _ format: TextFormat = TextFormat()) -> Run { Run(.text(s), format: format) }

    /// The one atom run of a field whose result a reader read as `result`, or nil when those runs cannot sit
    /// inside one atom: a link, a format change, changes that differ between them, or anything but text,
    /// breaks and fields (a comment anchor, a note, a picture inside a field's result stay where walks over
    /// the document find them). A reader then keeps the runs as they are: the result as plain text. A change
    /// every run shares is the atom's.
    public static func field(_ code: FieldCode, result: ArraySlice<Run>) -> Run? {
        guard let first = result.first else { return Run(.atom(.field(code, []))) }
        for r in result {
            if r.link != nil || r.formatChange != nil || !r.change.isSame(as: first.change) { return nil }
            switch r.content {
            case .text, .lineBreak, .atom(.field), .atom(.softBreak): continue
            case .atom: return nil
            }
        }
        var inner = Array(result)
        if first.change != nil { for k in inner.indices { inner[k].change = nil } }
        return Run(.atom(.field(code, InlineBuilder.inlines(from: inner))), change: first.change)
    }
}

/// A run's rarely set parts, shared (immutable) between copies of the run.
private final class RunExtras: Sendable {
    let link: Link?
    let change: RunChange?
    let formatChange: FormatChange?

    private init(link: Link?, change: RunChange?, formatChange: FormatChange?) {
        self.link = link
        self.change = change
        self.formatChange = formatChange
    }

    /// nil when nothing is set.
    static func make(link: Link?, change: RunChange?, formatChange: FormatChange?) -> RunExtras? {
        // Matched in place: `== nil` on these optionals copied each value first (a few hundred instructions
        // a run in the readers).
        if case nil = link, case nil = change, case nil = formatChange { return nil }
        return RunExtras(link: link, change: change, formatChange: formatChange)
    }
}

extension Array where Element == Inline {
    /// These inlines as flat runs. A substitution becomes its deletion's runs then its insertion's.
    public var runs: [Run] {
        var out: [Run] = []
        var ctx = Run(.text(""))
        var track: EnclosingInsertions?
        appendRuns(to: &out, context: &ctx, track: &track)
        return out
    }

    /// These inlines as flat runs (`runs`), each with the insertion (or a move's destination) it sits in when
    /// the run's own change is a deletion (or a move's source) inside one: text one reviewer inserted and
    /// another deleted, which a run's one change cannot hold and RTF writes as `\revised` with `\deleted`.
    public var runsWithEnclosingInsertions: [(run: Run, insertion: Change?)] {
        let (runs, insertions) = runsAndEnclosingInsertions
        return runs.enumerated().map { (run: $1, insertion: insertions[$0]) }
    }

    /// What `runsWithEnclosingInsertions` gives, as the runs and, by run index, the insertions of the
    /// runs that sit in one (most runs do not): no second array of a million pairs for a huge paragraph
    /// (PERFORMANCE.md, "Small runs").
    public var runsAndEnclosingInsertions: (runs: [Run], insertions: [Int: Change]) {
        var out: [Run] = []
        var ctx = Run(.text(""))
        var track: EnclosingInsertions? = EnclosingInsertions()
        appendRuns(to: &out, context: &ctx, track: &track)
        return (out, track!.byRun)
    }

    private func appendRuns(to out: inout [Run], context ctx: inout Run, track: inout EnclosingInsertions?) {
        func append(_ r: Run) {
            if track != nil, let insertion = track!.current {
                switch r.change {
                case .deletion?: track!.byRun[out.count] = insertion
                case .move(let m)? where m.side == .from: track!.byRun[out.count] = insertion
                default: break
                }
            }
            out.append(r)
        }
        for inline in self {
            let saved = ctx
            let savedTrack = track?.current
            defer {
                ctx = saved
                if track != nil { track!.current = savedTrack }
            }
            switch inline {
            case .text(let s):
                var r = ctx; r.content = .text(s); append(r)
            case .code(let s):
                var r = ctx; r.content = .text(s); r.format.code = true; append(r)
            case .lineBreak:
                var r = ctx; r.content = .lineBreak; append(r)
            case .softBreak, .image, .raw, .noteReference, .math, .field, .commentStart, .commentEnd, .commentPoint:
                var r = ctx; r.content = .atom(inline); append(r)
            case .emphasis(let c): ctx.format.italic = true; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .strong(let c): ctx.format.bold = true; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .strikethrough(let c): ctx.format.strikethrough = true; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .underline(let c): ctx.format.underline = true; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .superscript(let c): ctx.format.superscript = true; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .subscript(let c): ctx.format.subscript = true; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .smallCaps(let c): ctx.format.smallCaps = true; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .highlight(let c): ctx.format.highlight = true; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .styled(let s, let c):
                ctx.format.style = ctx.format.style.merged(with: s); c.appendRuns(to: &out, context: &ctx, track: &track)
            case .link(let l, let c): ctx.link = l; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .insertion(let ch, let c):
                track?.enter(insertion: ch, in: ctx.change)
                ctx.change = .insertion(ch); c.appendRuns(to: &out, context: &ctx, track: &track)
            case .deletion(let ch, let c): ctx.change = .deletion(ch); c.appendRuns(to: &out, context: &ctx, track: &track)
            case .move(let m, let c):
                if m.side == .to { track?.enter(insertion: m.change, in: ctx.change) }
                ctx.change = .move(m); c.appendRuns(to: &out, context: &ctx, track: &track)
            case .formatChange(let f, let c): ctx.formatChange = f; c.appendRuns(to: &out, context: &ctx, track: &track)
            case .substitution(let ch, let d, let i):
                ctx.change = .deletion(ch); d.appendRuns(to: &out, context: &ctx, track: &track)
                ctx.change = .insertion(ch); i.appendRuns(to: &out, context: &ctx, track: &track)
            }
        }
    }
}

/// What `runsWithEnclosingInsertions` keeps while it flattens: the insertion the walk is in (only one that
/// is in no other change) and, by run index, the insertion a deleted run sits in.
private struct EnclosingInsertions {
    var current: Change?
    var byRun: [Int: Change] = [:]

    /// Entering an insertion (or a move's destination) whose surroundings carry `outer`.
    mutating func enter(insertion: Change, in outer: RunChange?) {
        current = outer == nil ? insertion : nil
    }
}

/// Builds inlines from runs in one canonical nesting (outermost first): tracked change, link,
/// formatting change, character style, strong, emphasis, underline, strikethrough, small caps,
/// superscript, subscript, highlight; adjacent text of equal formatting is merged.
///
/// Every level writes into its caller's array (a container gets a fresh one), and text is merged as it is
/// appended, so the result comes out normalized without building it twice. A level that is not wrapped
/// (no change, no link, empty style, toggle off) always sits between wrapped siblings, so only leaves of
/// one group can ever be adjacent text: merging on append gives exactly what `normalized` would.
public enum InlineBuilder {
    /// The inlines for `runs`.
    public static func inlines(from runs: [Run]) -> [Inline] {
        var out: [Inline] = []
        // No run with a change, link or format change (most paragraphs): one group at each of those
        // levels, so straight to the formatting (each level's grouping read three optionals a run).
        if !runs.indices.contains(where: { !runs[$0].hasNoExtras }) {
            formatted(runs[...], level: 0, into: &out)
            return out
        }
        var i = 0
        while i < runs.count {
            var j = i + 1
            while j < runs.count && runs[j].change.isSame(as: runs[i].change) { j += 1 }
            let part = runs[i..<j]
            switch runs[i].change {
            case nil: byLink(part, into: &out)
            case .insertion(let c)?: out.append(.insertion(c, wrapped(part, byLink)))
            case .deletion(let c)?: out.append(.deletion(c, wrapped(part, byLink)))
            case .move(let m)?: out.append(.move(m, wrapped(part, byLink)))
            }
            i = j
        }
        return out
    }

    /// What `build` writes for `runs`, in a new array (the children of a container).
    @inline(__always)
    private static func wrapped(_ runs: ArraySlice<Run>,
                                _ build: (ArraySlice<Run>, inout [Inline]) -> Void) -> [Inline] {
        var inner: [Inline] = []
        inner.reserveCapacity(runs.count)
        build(runs, &inner)
        return inner
    }

    private static func byLink(_ runs: ArraySlice<Run>, into out: inout [Inline]) {
        var i = runs.startIndex
        while i < runs.endIndex {
            var j = i + 1
            while j < runs.endIndex && runs[j].link.isSame(as: runs[i].link) { j += 1 }
            if let link = runs[i].link {
                out.append(.link(link, wrapped(runs[i..<j], byFormatChange)))
            } else {
                byFormatChange(runs[i..<j], into: &out)
            }
            i = j
        }
    }

    private static func byFormatChange(_ runs: ArraySlice<Run>, into out: inout [Inline]) {
        var i = runs.startIndex
        while i < runs.endIndex {
            var j = i + 1
            while j < runs.endIndex && runs[j].formatChange.isSame(as: runs[i].formatChange) { j += 1 }
            if let fc = runs[i].formatChange {
                out.append(.formatChange(fc, wrapped(runs[i..<j]) { formatted($0, level: 0, into: &$1) }))
            } else {
                formatted(runs[i..<j], level: 0, into: &out)
            }
            i = j
        }
    }

    /// The number of toggles, nested in this order below the character style (level 0): strong, emphasis,
    /// underline, strikethrough, small caps, superscript, subscript, highlight.
    private static let toggleCount = 8

    /// Whether toggle `level` (1...8) is on in `f` (a switch, not key paths: this runs for every run).
    @inline(__always)
    private static func isOn(_ f: TextFormat, _ level: Int) -> Bool {
        switch level {
        case 1: return f.bold
        case 2: return f.italic
        case 3: return f.underline
        case 4: return f.strikethrough
        case 5: return f.smallCaps
        case 6: return f.superscript
        case 7: return f.subscript
        default: return f.highlight
        }
    }

    /// The inline of toggle `level` (1...8, in the order above) around `c`.
    public static func wrap(_ level: Int, _ c: [Inline]) -> Inline {
        switch level {
        case 1: return .strong(c)
        case 2: return .emphasis(c)
        case 3: return .underline(c)
        case 4: return .strikethrough(c)
        case 5: return .smallCaps(c)
        case 6: return .superscript(c)
        case 7: return .subscript(c)
        default: return .highlight(c)
        }
    }

    /// Writes the inlines for `runs` (whose change, link and formatting change are all equal), nesting toggles
    /// from `level` on. The runs are read in place: copying their formats and contents costs more than the rest.
    private static func formatted(_ runs: ArraySlice<Run>, level: Int, into out: inout [Inline]) {
        var level = level
        // Skip levels no run uses (most runs are plain or have one toggle). The tests go through indices:
        // `contains(where:)` on the runs themselves would copy every run it looks at.
        let indices = runs.indices
        if level == 0 && !indices.contains(where: { runs[$0].format.hasStyle }) { level = 1 }
        if level >= 1 && !indices.contains(where: { runs[$0].format.hasToggles }) { level = toggleCount + 1 }
        while level >= 1 && level <= toggleCount && !indices.contains(where: { isOn(runs[$0].format, level) }) { level += 1 }
        if level > toggleCount {
            for k in runs.indices {
                switch runs[k].content {
                case .text(let s): appendMerging(runs[k].format.code ? .code(s) : .text(s), to: &out)
                case .lineBreak: out.append(.lineBreak)
                case .atom(let a): appendMerging(a.mapChildren(normalized), to: &out)
                }
            }
            return
        }
        var i = runs.startIndex
        while i < runs.endIndex {
            var j = i + 1
            if level == 0 {
                while j < runs.endIndex && runs[j].format.style == runs[i].format.style { j += 1 }
                if runs[i].format.style.isEmpty {
                    formatted(runs[i..<j], level: 1, into: &out)
                } else {
                    out.append(.styled(runs[i].format.style, wrapped(runs[i..<j]) { formatted($0, level: 1, into: &$1) }))
                }
            } else {
                let on = isOn(runs[i].format, level)
                while j < runs.endIndex && isOn(runs[j].format, level) == on { j += 1 }
                if on {
                    out.append(wrap(level, wrapped(runs[i..<j]) { formatted($0, level: level + 1, into: &$1) }))
                } else {
                    formatted(runs[i..<j], level: level + 1, into: &out)
                }
            }
            i = j
        }
    }

    /// Appends `inline` as `normalized` places it: text after text (code after code) is merged into it,
    /// in place (`Inline.appendText`: compare gives one run a word, and `a + b` made 200,000 words 5.4 s),
    /// and empty text is dropped.
    @inline(__always)
    private static func appendMerging(_ inline: Inline, to out: inout [Inline]) {
        // The last inline is looked at in place: a copy of it would keep its text shared.
        switch inline {
        case .text(let b):
            if let k = out.indices.last, case .text = out[k] { out[k].appendText(b) } else if !b.isEmpty { out.append(inline) }
        case .code(let b):
            if let k = out.indices.last, case .code = out[k] { out[k].appendText(b) } else { out.append(inline) }
        default:
            out.append(inline)
        }
    }

    /// Merges adjacent text (and adjacent code) inlines, recursively, and drops empty text.
    public static func normalized(_ inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        for inline in inlines { appendMerging(inline.mapChildren(normalized), to: &out) }
        return out
    }

    /// Pairs a deletion followed by an insertion with the same author and date into a substitution, as
    /// Word records typing over a selection. An insertion followed by a deletion stays two changes: a
    /// substitution reads deleted-then-inserted, so pairing it would swap the two texts (a DOCX whose
    /// `w:ins` precedes its `w:del` came back with them in the other order).
    public static func pairingSubstitutions(_ inlines: [Inline]) -> [Inline] {
        // Most inlines have nothing to pair: return them as they are instead of rebuilding every container.
        guard hasPair(inlines) else { return inlines }
        var out: [Inline] = []
        out.reserveCapacity(inlines.count)
        for original in inlines {
            let inline = hasPair(original.children) ? original.mapChildren(pairingSubstitutions) : original
            if let last = out.last {
                switch (last, inline) {
                case (.deletion(let a, let d), .insertion(let b, let i)) where a.author == b.author && a.date == b.date:
                    out[out.count - 1] = .substitution(a, deleted: d, inserted: i)
                    continue
                default: break
                }
            }
            out.append(inline)
        }
        return out
    }

    /// Whether `pairingSubstitutions` would pair anything in `inlines`, at any depth.
    private static func hasPair(_ inlines: [Inline]) -> Bool {
        var previous: Change?
        var previousIsDeletion = false
        for inline in inlines {
            switch inline {
            case .deletion(let c, let children), .insertion(let c, let children):
                let isDeletion = if case .deletion = inline { true } else { false }
                if let p = previous, p.author == c.author, p.date == c.date, previousIsDeletion && !isDeletion { return true }
                if hasPair(children) { return true }
                previous = c
                previousIsDeletion = isDeletion
                continue
            case .substitution(_, let d, let i):
                if hasPair(d) || hasPair(i) { return true }
            case .text, .code, .image, .lineBreak, .softBreak, .raw, .noteReference, .math,
                 .commentStart, .commentEnd, .commentPoint:
                break
            default:
                if hasPair(inline.children) { return true }
            }
            previous = nil
        }
        return false
    }
}

extension Optional where Wrapped: Equatable {
    /// `self == other`, compared in place (`==` on optionals copies both sides into a tuple first, which
    /// for the large model values of a run costs more than the comparison).
    @inlinable
    package func isSame(as other: Wrapped?) -> Bool {
        switch self {
        case nil: if case nil = other { return true }
        case let x?: if case let y? = other { return x == y }
        }
        return false
    }
}

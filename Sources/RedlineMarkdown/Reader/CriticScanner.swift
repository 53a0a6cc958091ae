import RedlineCore

/// A CriticMarkup change found by the pre-pass: insertion, deletion or substitution, with its attribution.
struct ScannedChange {
    enum Kind { case insertion, deletion, substitution }
    var kind: Kind
    var change = Change()
    /// Set when the attribution names a move (`[move=m1]`): a deletion is the source, an insertion the target.
    var moveName: String?
    /// Set when the attribution says `[mark-kept]`: a paragraph that is this change as a whole keeps its
    /// break unchanged (without it such a paragraph is inserted or deleted with its break).
    var markKept = false
}

/// What a `{==…==}` turned out to be once its end and the comment after it were seen.
enum ScannedHighlight {
    /// No comment: highlighted text.
    case plain
    /// The range of a comment.
    case comment(id: String)
    /// A tracked formatting change (`{>>@Ann [format-change bold]<<}` after it).
    case formatChange(FormatChange)
}

/// A comment found by the pre-pass, kept small (a document may hold hundreds of thousands): where its
/// text is in the source and which comment it replies to. `CriticScanner.comment(at:)` reads its author,
/// date and attributes again when the reader reaches its anchor, and the reader then parses its body.
struct ScannedComment {
    /// The text between `{>>` and `<<}` in the scanned source.
    var text: Range<Int>
    /// The index of the thread's first comment for a reply, else -1.
    var parent: Int
}

/// A table row's or cell's tracked insertion or deletion, written at the start of the row's first cell
/// (the cell's) as an attribution with `[row-inserted]`, `[row-deleted]`, `[cell-inserted]` or `[cell-deleted]`.
enum BlockMark: Equatable {
    case row(RowChange)
    case cell(RowChange)
    /// `[row-kept]`: the row is no row change, though every cell's text is one change (which alone reads as one).
    case rowKept
}

/// One placeholder's meaning.
enum ScannedEntry {
    case literal
    case change(Int)
    case highlight(Int)
    /// A comment thread (indices into `comments`), first the anchored comment, then its replies.
    case comments([Int], isRangeStart: Bool)
    case commentEnd(id: String)
    /// Index into `styleChanges` (kept out of line: entries stay small).
    case styleChange(Int)
    /// Index into `blockMarks`: a table row's or cell's tracked insertion or deletion.
    case blockMark(Int)
    case span([AttributeToken])
    /// pandoc's `^superscript^` or `~subscript~` (`ScriptSpans`): its open and close placeholders share the entry.
    case script(superscript: Bool)
    case note(label: String)
    /// TeX math: the TeX's bytes in the source, and whether it is display math (`$$…$$`).
    case math(tex: Range<Int>, display: Bool)
    /// pandoc's inline note `^[…]`: its text's bytes in the source and the id the reader gives the note.
    case inlineNote(body: Range<Int>, id: String)
}

/// The CriticMarkup pre-pass over a whole Markdown source: replaces every mark delimiter with a
/// `Placeholder` and records what it means, so cmark-gfm can then parse the Markdown structure, marks
/// wrapping Markdown and marks crossing paragraphs alike. Fenced code and code spans are copied as they are;
/// marks the pass still finds in code (an indented block, say) are restored by the reader from `originals`.
/// Also turns pandoc bracketed spans `[text]{attrs}` into placeholders.
struct CriticScanner {
    let source: [UInt8]
    let diagnostics: Diagnostics
    private(set) var output: [UInt8] = []
    private(set) var entries: [ScannedEntry] = []
    /// The source bytes each entry replaced (restored verbatim where a placeholder lands in code).
    private(set) var originals: [Range<Int>] = []
    private(set) var changes: [ScannedChange] = []
    private(set) var highlights: [ScannedHighlight] = []
    /// Comment `k` has the id `idPrefix` + (`firstCommentID` + k) (`commentID`), so a highlight's thread is
    /// found from its id in constant time (`commentIndex`), with no table of ids.
    private(set) var comments: [ScannedComment] = []
    private let firstCommentID: Int
    private(set) var styleChanges: [ParagraphStyleChange] = []
    /// Row and cell changes `{>>@Ann [row-deleted]<<}`, `[row-inserted]`, `[cell-deleted]`, `[cell-inserted]`.
    private(set) var blockMarks: [BlockMark] = []
    /// Milestone names (`[#name]`) to comment ids.
    private var rangeNames: [String: String] = [:]
    private var nextCommentID: Int
    private let idPrefix: String

    /// The output lines of code spans that run over a line end (`Segmenter` line numbers): the pre-pass read
    /// nothing in them, which cmark may not take as one span (the first line indented code, say).
    private(set) var multiLineCodeSpans: [ClosedRange<Int>] = []
    /// Output lines counted so far (up to `countedOutput`), for `multiLineCodeSpans`.
    private var countedOutput = 0, outputLine = 1

    private var i = 0
    private var line = 1
    /// Which lines are fenced code or HTML blocks, copied as they are.
    private var verbatimLines = VerbatimLines()
    private var openChange: (index: Int, entry: Int, switchEntry: Int?, joinSpaces: [UInt8])?
    /// The insertion around `openChange` when that is a deletion nested in it (`{++a{--b--}++}`: text one
    /// reviewer inserted and another deleted, as Word nests `w:del` in `w:ins`). Nothing nests deeper.
    private var outerChange: (index: Int, entry: Int, switchEntry: Int?, joinSpaces: [UInt8])?
    private var openHighlight: (index: Int, entry: Int)?
    /// Where a comment search last failed: no `<<}` follows this offset.
    private var noCommentCloseFrom = Int.max
    /// Output offsets of `[` that may start a bracketed span, reset at blank lines.
    private var brackets: [(offset: Int, isImage: Bool)] = []
    /// Bytes a field span's attribute list (`]{.field instr="…"}`: a Zotero citation's instruction runs to
    /// kilobytes) may still be looked through beyond the usual bound, for the whole input: twice its size,
    /// so a line full of `]{.field ` stays linear.
    private lazy var longSpanBudget = 2 * source.count

    /// Where searches for a closing `$` failed (`MathSpans.match`).
    private var mathMemo = MathSpans.Memo()
    /// The closing delimiters of the `^…^`/`~…~` spans open here (innermost last) and their entries.
    private var scriptCloses: [(at: Int, entry: Int)] = []
    /// No script span opens before this offset (a link's destination, an autolink or a tag is not text).
    private var noScriptsUntil = 0
    /// No `>` is before this offset on its line (a tag search found none): later searches start there.
    private var noTagEndUntil = 0

    /// Labels of the footnote definitions in the source (`[^label]:` at a line start).
    private var noteLabels = Set<String>()
    /// False for a comment body: a comment cannot hold notes, so `[^label]` and `[^label]:` lines are text.
    private let notes: Bool
    /// pandoc's `^sup^` and `~sub~` are read (off for GitHub's Markdown).
    private let scripts: Bool

    /// Scans `source`; comment ids are `idPrefix` + a running number starting at `firstCommentID`.
    /// Without `notes` (a comment body) footnote syntax is text: a `[^label]:` line is not a definition.
    init(_ source: [UInt8], diagnostics: Diagnostics, firstCommentID: Int = 1, idPrefix: String = "", notes: Bool = true,
         scripts: Bool = true) {
        self.source = source
        self.scripts = scripts
        self.diagnostics = diagnostics
        self.nextCommentID = firstCommentID
        self.firstCommentID = firstCommentID
        self.idPrefix = idPrefix
        self.notes = notes
        var k = notes ? 0 : source.count
        while k < source.count {
            var e = k
            while e < source.count, source[e] != UInt8(ascii: "\n") { e += 1 }
            if let label = Segmenter.footnoteLabel(source[k..<e]) { noteLabels.insert(label) }
            k = e + 1
        }
    }

    /// The next unused comment number.
    var commentCounter: Int { nextCommentID }

    /// Runs the pass.
    mutating func scan() throws {
        output.reserveCapacity(source.count + source.count / 16)
        var atLineStart = true
        while i < source.count {
            if atLineStart {
                atLineStart = false
                if try handleLineStart() { atLineStart = true; continue }
            }
            let c = source[i]
            switch c {
            case UInt8(ascii: "\n"):
                output.append(c); i += 1; line += 1
                atLineStart = true
                if isBlankLine(from: i) { brackets.removeAll() }
            case UInt8(ascii: "\\"):
                if !scriptCloses.isEmpty, i + 1 < source.count, source[i + 1] == UInt8(ascii: " ") {
                    // pandoc's escaped space in `^a\ b^`: a no-break space (the span's text holds no space).
                    output += [0xC2, 0xA0]; i += 2
                } else if i + 1 < source.count, isASCIIPunctuation(source[i + 1]) {
                    output.append(c); output.append(source[i + 1]); i += 2
                } else {
                    output.append(c); i += 1
                }
            case UInt8(ascii: "`"):
                copyCodeSpanOrRun()
            case UInt8(ascii: "$"):
                try handleMath()
            case UInt8(ascii: "{"):
                if try !handleOpener() { output.append(c); i += 1 }
            case UInt8(ascii: "~"):
                if try !handleScript(), try !handleCloser() { output.append(c); i += 1 }
            case UInt8(ascii: "^"):
                if try !handleInlineNote(), try !handleScript() { output.append(c); i += 1 }
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "="):
                if try !handleCloser() { output.append(c); i += 1 }
            case UInt8(ascii: "<"):
                skipScripts(inTagAt: i)
                output.append(c); i += 1
            case UInt8(ascii: "["):
                if try handleNoteReference() { continue }
                brackets.append((output.count, isImageBracket(at: i)))
                output.append(c); i += 1
            case UInt8(ascii: "]"):
                if !handleSpanEnd() {
                    if !brackets.isEmpty { brackets.removeLast() }
                    skipScripts(inDestinationAfter: i)
                    output.append(c); i += 1
                }
            case 0xEE:
                copyReservedOrByte()
            default:
                output.append(c); i += 1
            }
        }
        try finishUnclosed()
    }

    // MARK: Lines and code

    /// Handles an HTML block (copied whole: cmark makes it raw HTML, where marks are text, so a mark must
    /// neither open nor close in it) and fenced code at a line start: copies the whole line when it opens,
    /// closes or is inside one.
    private mutating func handleLineStart() throws -> Bool {
        var end = i
        while end < source.count, source[end] != UInt8(ascii: "\n") { end += 1 }
        switch verbatimLines.next(source[i..<end]) {
        case .opensVerbatim, .verbatim:
            copyLine()
            return true
        case .blank, .text:
            return false
        }
    }

    private func restOfLineIsBlank(from k: Int) -> Bool {
        var k = k
        while k < source.count, source[k] != UInt8(ascii: "\n") {
            if source[k] != UInt8(ascii: " ") && source[k] != UInt8(ascii: "\t") { return false }
            k += 1
        }
        return true
    }

    /// True when the rest of the line from `k` is blank and the next line is blank too (spaces, tabs and
    /// block-quote markers only): a paragraph ends there.
    private func breaksParagraph(after k: Int) -> Bool {
        guard restOfLineIsBlank(from: k) else { return false }
        var k = k
        while k < source.count, source[k] != UInt8(ascii: "\n") { k += 1 }
        k += 1
        guard k < source.count else { return false }
        while k < source.count, source[k] != UInt8(ascii: "\n") {
            let b = source[k]
            if b != UInt8(ascii: " ") && b != UInt8(ascii: "\t") && b != UInt8(ascii: ">") { return false }
            k += 1
        }
        return true
    }

    private func isBlankLine(from k: Int) -> Bool {
        var k = k
        while k < source.count, source[k] == UInt8(ascii: " ") || source[k] == UInt8(ascii: "\t") { k += 1 }
        return k >= source.count || source[k] == UInt8(ascii: "\n")
    }

    /// Copies through the end of the line, newline included.
    private mutating func copyLine() {
        var end = i
        while end < source.count, source[end] != UInt8(ascii: "\n") { end += 1 }
        if end < source.count { end += 1; line += 1 }
        copyVerbatim(i..<end)
        i = end
    }

    /// Copies bytes, escaping reserved Private Use Area characters.
    private mutating func copyVerbatim(_ r: Range<Int>) {
        var k = r.lowerBound
        while k < r.upperBound {
            if source[k] == 0xEE, k + 2 < source.count, source[k + 1] >= 0x80, source[k + 1] <= 0x87 {
                addEntry(.literal, kind: .literal, original: k..<(k + 3))
                k += 3
            } else {
                output.append(source[k]); k += 1
            }
        }
    }

    private mutating func copyReservedOrByte() {
        if i + 2 < source.count, source[i + 1] >= 0x80, source[i + 1] <= 0x87 {
            addEntry(.literal, kind: .literal, original: i..<(i + 3))
            i += 3
        } else {
            output.append(source[i]); i += 1
        }
    }

    /// A run of backticks: when a run of the same length closes it before a blank line, the whole code
    /// span is copied unscanned; otherwise just the run.
    private mutating func copyCodeSpanOrRun() {
        var n = 0
        while i + n < source.count, source[i + n] == UInt8(ascii: "`") { n += 1 }
        var k = i + n
        while k < source.count {
            let b = source[k]
            if b == UInt8(ascii: "\n"), isBlankLine(from: k + 1) { break }
            if b == UInt8(ascii: "`") {
                var m = 0
                while k + m < source.count, source[k + m] == UInt8(ascii: "`") { m += 1 }
                if m == n {
                    let end = k + m
                    let newlines = source[i..<end].lazy.filter { $0 == UInt8(ascii: "\n") }.count
                    line += newlines
                    if newlines > 0 {
                        outputLine += output[countedOutput...].lazy.filter { $0 == UInt8(ascii: "\n") }.count
                        countedOutput = output.count
                        multiLineCodeSpans.append(outputLine...(outputLine + newlines))
                    }
                    copyVerbatim(i..<end)
                    i = end
                    return
                }
                k += m
                continue
            }
            k += 1
        }
        output.append(contentsOf: source[i..<(i + n)])
        i += n
    }

    // MARK: Marks

    private func starts(_ s: String, at k: Int) -> Bool {
        var k = k
        for b in s.utf8 {
            guard k < source.count, source[k] == b else { return false }
            k += 1
        }
        return true
    }

    /// Spaces before a mark that ends its line are the line's trailing spaces: dropped, as CommonMark
    /// drops them without the mark (`paragraph {++` then a blank line).
    /// A change that opens at a line end keeps those spaces for after its closer, so a joined paragraph
    /// (`two {--` blank line `--}paragraphs`) keeps its word space.
    @discardableResult
    private mutating func trimSpaces(ifLineEndsAt next: Int) -> [UInt8] {
        guard restOfLineIsBlank(from: next) else { return [] }
        // A mark first on its line's text, after block syntax only (indent, `>`, a list marker, an ATX
        // heading's `#`s), as an empty paragraph's or heading's `{++` is: those spaces are no text (and
        // `## ` needs its space).
        var k = output.count
        while k > 0, output[k - 1] != UInt8(ascii: "\n") { k -= 1 }
        if Self.isBlockSyntax(output[k...]) { return [] }
        var removed: [UInt8] = []
        while let last = output.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { removed.append(output.removeLast()) }
        return removed
    }

    /// Whether a line's start holds only block syntax: indents and `>`, list markers (`-`, `*`, `+`, `1.`,
    /// `1)`), ATX heading markers (`##`), each followed by a space.
    private static func isBlockSyntax(_ line: ArraySlice<UInt8>) -> Bool {
        for token in line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ">") }) {
            let digits = token.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            if token.count == 1, [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")].contains(token.first!) { continue }
            if digits >= 1, digits <= 9, token.count == digits + 1, token.last == UInt8(ascii: ".") || token.last == UInt8(ascii: ")") { continue }
            if token.count <= 6, token.allSatisfy({ $0 == UInt8(ascii: "#") }) { continue }
            return false
        }
        return true
    }

    /// After a change's closer: the spaces its opener took from a line end, unless this line ends too.
    private mutating func restoreJoinSpaces(_ spaces: [UInt8], next: Int) {
        if !spaces.isEmpty, !restOfLineIsBlank(from: next) { output += spaces }
    }

    @discardableResult
    private mutating func addEntry(_ e: ScannedEntry, kind: Placeholder.Kind, original: Range<Int>) -> Int {
        let index = entries.count
        entries.append(e)
        originals.append(original)
        output += Placeholder.bytes(kind, index)
        return index
    }

    private mutating func handleOpener() throws -> Bool {
        guard i + 2 < source.count else { return false }
        let a = source[i + 1], b = source[i + 2]
        guard a == b else { return false }
        try checkEntryLimit()
        switch a {
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "~"):
            let kind: ScannedChange.Kind = a == UInt8(ascii: "+") ? .insertion : a == UInt8(ascii: "-") ? .deletion : .substitution
            if let open = openChange {
                // Only a deletion directly inside an insertion nests (Word's `w:del` in `w:ins`).
                guard outerChange == nil, kind == .deletion, changes[open.index].kind == .insertion else {
                    diagnostics.report(.criticNestedMark, "a CriticMarkup change inside another change is kept as text (only {--…--} nests, inside {++…++})",
                                       at: SourceLocation(line: line))
                    return false
                }
                outerChange = open
            }
            changes.append(ScannedChange(kind: kind))
            // Before a paragraph break the spaces stay in the paragraph (`split {++` blank line: "split "
            // keeps its space, as in Word); only before a line break inside a paragraph do they move.
            let spaces = breaksParagraph(after: i + 3) ? [] : trimSpaces(ifLineEndsAt: i + 3)
            let e = addEntry(.change(changes.count - 1), kind: .changeOpen, original: i..<(i + 3))
            openChange = (changes.count - 1, e, nil, spaces)
            i += 3
            return true
        case UInt8(ascii: "="):
            if openHighlight != nil {
                diagnostics.report(.criticNestedMark, "a CriticMarkup highlight inside another highlight is kept as text",
                                   at: SourceLocation(line: line))
                return false
            }
            highlights.append(.plain)
            let e = addEntry(.highlight(highlights.count - 1), kind: .highlightOpen, original: i..<(i + 3))
            openHighlight = (highlights.count - 1, e)
            i += 3
            return true
        case UInt8(ascii: ">"):
            guard starts("{>>", at: i) else { return false }
            let start = i
            guard let thread = readCommentThread() else {
                diagnostics.report(.criticUnclosedMark, "a CriticMarkup comment '{>>' never closes; kept as text",
                                   at: SourceLocation(line: line))
                return false
            }
            emitStandalone(thread, from: start)
            return true
        default:
            return false
        }
    }

    private mutating func handleCloser() throws -> Bool {
        let c = source[i]
        if c == UInt8(ascii: "~"), starts("~>", at: i), let open = openChange,
           changes[open.index].kind == .substitution, open.switchEntry == nil {
            let e = addEntry(.change(open.index), kind: .changeSwitch, original: i..<(i + 2))
            openChange?.switchEntry = e
            i += 2
            return true
        }
        guard i + 2 < source.count, source[i + 1] == c, source[i + 2] == UInt8(ascii: "}") else { return false }
        if c == UInt8(ascii: "=") {
            guard let open = openHighlight else { return false }
            let start = i
            i += 3
            openHighlight = nil
            if starts("{>>", at: i), let thread = readCommentThread() {
                let first = CommentText(thread[0].text)
                if first.isStandaloneMarker {
                    addEntry(.highlight(open.index), kind: .highlightClose, original: start..<(start + 3))
                    emitStandalone(thread, from: start + 3)
                } else if first.hasFlag("format-change") {
                    var old = TextFormat()
                    for t in first.attributes { _ = FormatAttributes.apply(t, to: &old) }
                    highlights[open.index] = .formatChange(FormatChange(change: first.change, old: old))
                    addEntry(.highlight(open.index), kind: .highlightClose, original: start..<thread[0].end)
                    if thread.count > 1 { emitStandalone(Array(thread.dropFirst()), from: thread[0].end) }
                } else {
                    // The comment and its replies, up to a marker that is not a reply.
                    var n = 1
                    while n < thread.count {
                        let t = CommentText(thread[n].text)
                        if t.isStandaloneMarker { break }
                        n += 1
                    }
                    let ids = makeComments(Array(thread.prefix(n)), rangeStart: false)
                    highlights[open.index] = .comment(id: commentID(ids[0]))
                    addEntry(.highlight(open.index), kind: .highlightClose, original: start..<thread[n - 1].end)
                    if n < thread.count { emitStandalone(Array(thread.dropFirst(n)), from: thread[n - 1].end) }
                }
            } else {
                addEntry(.highlight(open.index), kind: .highlightClose, original: start..<i)
            }
            return true
        }
        guard let open = openChange else { return false }
        let kind = changes[open.index].kind
        let matches = (c == UInt8(ascii: "+") && kind == .insertion) || (c == UInt8(ascii: "-") && kind == .deletion)
            || (c == UInt8(ascii: "~") && kind == .substitution)
        guard matches else { return false }
        let start = i
        i += 3
        openChange = outerChange
        outerChange = nil
        var end = i
        if starts("{>>", at: i), let thread = readCommentThread() {
            let first = CommentText(thread[0].text)
            if first.isAttributionOnly && !first.isStandaloneMarker {
                changes[open.index].change = first.change
                changes[open.index].moveName = first.attribute("move")?.value
                changes[open.index].markKept = first.hasFlag("mark-kept")
                end = thread[0].end
                addEntry(.change(open.index), kind: .changeClose, original: start..<end)
                restoreJoinSpaces(open.joinSpaces, next: end)
                if thread.count > 1 { emitStandalone(Array(thread.dropFirst()), from: end) }
                return true
            }
            addEntry(.change(open.index), kind: .changeClose, original: start..<end)
            restoreJoinSpaces(open.joinSpaces, next: end)
            emitStandalone(thread, from: end)
            return true
        }
        addEntry(.change(open.index), kind: .changeClose, original: start..<end)
        restoreJoinSpaces(open.joinSpaces, next: end)
        return true
    }

    /// A run of adjacent comments `{>>…<<}{>>…<<}` starting at `i`; nil (and `i` unchanged) when the
    /// first never closes. On success `i` is after the last one.
    private mutating func readCommentThread() -> [(text: Substring, body: Range<Int>, end: Int)]? {
        var out: [(text: Substring, body: Range<Int>, end: Int)] = []
        var k = i
        // Once a search ran to the end without a `<<}`, no later comment can close: no second search.
        while starts("{>>", at: k), k < noCommentCloseFrom {
            let bodyStart = k + 3
            var j = bodyStart
            var closed = false
            while j + 2 < source.count {
                if source[j] == UInt8(ascii: "\\"), isASCIIPunctuation(source[j + 1]) { j += 2; continue }
                if source[j] == UInt8(ascii: "<"), source[j + 1] == UInt8(ascii: "<"), source[j + 2] == UInt8(ascii: "}") {
                    closed = true
                    break
                }
                j += 1
            }
            guard closed else { noCommentCloseFrom = k; break }
            let text = Substring(decoding: source[bodyStart..<j], as: UTF8.self)
            out.append((text, bodyStart..<j, j + 3))
            k = j + 3
        }
        guard !out.isEmpty else { return nil }
        line += source[i..<k].lazy.filter { $0 == UInt8(ascii: "\n") }.count
        i = k
        return out
    }

    /// Comments not attached to a change or highlight: an end marker, a paragraph style change, or a
    /// thread anchored here (a point, or the start of a milestone range when the first has `[#name]`).
    private mutating func emitStandalone(_ thread: [(text: Substring, body: Range<Int>, end: Int)], from start: Int) {
        var rest = thread[...]
        var from = start
        while let first = rest.first {
            let t = CommentText(first.text)
            if let name = t.endMarker {
                if let id = rangeNames[name] {
                    addEntry(.commentEnd(id: id), kind: .commentEnd, original: from..<first.end)
                } else {
                    diagnostics.report(.criticUnknownRange, "a comment range end '{>>/\(name)<<}' has no start; kept as text",
                                       at: SourceLocation(line: line))
                    output += Array("{>>/\(name)<<}".utf8)
                }
                from = first.end
                rest = rest.dropFirst()
                continue
            }
            if let mark = t.blockMark {
                blockMarks.append(mark)
                addEntry(.blockMark(blockMarks.count - 1), kind: .blockMark, original: from..<first.end)
                from = first.end
                rest = rest.dropFirst()
                continue
            }
            if t.hasFlag("style-change") {
                var old = ParagraphStyle()
                for a in t.attributes { _ = FormatAttributes.apply(a, to: &old) }
                styleChanges.append(ParagraphStyleChange(change: t.change, old: old))
                addEntry(.styleChange(styleChanges.count - 1), kind: .styleChange,
                         original: from..<first.end)
                from = first.end
                rest = rest.dropFirst()
                continue
            }
            // A thread: this comment and the following ones that are not markers.
            var n = 1
            while n < rest.count {
                let next = CommentText(rest[rest.startIndex + n].text)
                if next.isStandaloneMarker { break }
                n += 1
            }
            let part = Array(rest.prefix(n))
            let name = t.attribute("#")?.value
            let ids = makeComments(part, rangeStart: name != nil)
            if let name { rangeNames[name] = commentID(ids[0]) }
            addEntry(.comments(ids, isRangeStart: name != nil), kind: .comment, original: from..<part[part.count - 1].end)
            from = part[part.count - 1].end
            rest = rest.dropFirst(n)
        }
    }

    /// Records a thread's comments (the first anchored, the rest replies); returns their indices.
    private mutating func makeComments(_ thread: [(text: Substring, body: Range<Int>, end: Int)], rangeStart: Bool) -> [Int] {
        var ids: [Int] = []
        for item in thread {
            nextCommentID += 1
            comments.append(ScannedComment(text: item.body, parent: ids.first ?? -1))
            ids.append(comments.count - 1)
        }
        return ids
    }

    /// The id of comment `k`.
    func commentID(_ k: Int) -> String { idPrefix + String(firstCommentID + k) }

    /// The index in `comments` of the comment with this id.
    func commentIndex(of id: String) -> Int? {
        guard id.hasPrefix(idPrefix), let n = Int(id.dropFirst(idPrefix.count)) else { return nil }
        let k = n - firstCommentID
        guard comments.indices.contains(k), commentID(k) == id else { return nil }
        return k
    }

    /// Comment `k` (its body empty) and where its body's Markdown is in the source.
    func comment(at k: Int) -> (comment: Comment, body: Range<Int>) {
        let s = comments[k]
        let text = Substring(decoding: source[s.text], as: UTF8.self)
        let t = CommentText(text)
        var c = Comment(id: commentID(k), author: t.author, date: t.date, body: [], resolved: t.hasFlag("resolved"),
                        parentID: s.parent >= 0 ? commentID(s.parent) : nil)
        c.initials = t.attribute("initials")?.value
        // The source is valid UTF-8 (MarkdownSource.normalized), so this is exact; clamped all the same.
        let offset = max(0, min(s.text.count, text.utf8.count - t.body.utf8.count))
        return (c, (s.text.lowerBound + offset)..<s.text.upperBound)
    }

    /// `![`: the `[` of an image (an escaped `\!` does not count).
    private func isImageBracket(at k: Int) -> Bool {
        guard k > 0, source[k - 1] == UInt8(ascii: "!") else { return false }
        var n = 0
        while k - 2 - n >= 0, source[k - 2 - n] == UInt8(ascii: "\\") { n += 1 }
        return n % 2 == 0
    }

    // MARK: Math

    /// At `$`: TeX math becomes one placeholder (its TeX untouched by cmark); a `$` or `$$` that opens no
    /// math is copied.
    private mutating func handleMath() throws {
        var memo = mathMemo
        let at = i
        var found = source.withUnsafeBufferPointer { MathSpans.match($0, at: at, memo: &memo) }
        mathMemo = memo
        // Math over a line end may not start on a line that would then be a code fence: its placeholder would hide
        // what keeps the line from being one (a backtick in a backtick fence's info string), and cmark would take
        // the rest of the math for the info string. (Looked at only then: once per line end, so linear.)
        if let f = found, source[at..<f.end].contains(UInt8(ascii: "\n")) {
            let lineStart = (output.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
            if Segmenter.fence(output[lineStart...]) != nil { found = nil }
        }
        guard let found else {
            let n = i + 1 < source.count && source[i + 1] == UInt8(ascii: "$") ? 2 : 1
            output.append(contentsOf: source[i..<(i + n)])
            i += n
            return
        }
        try checkEntryLimit()
        line += source[i..<found.end].lazy.filter { $0 == UInt8(ascii: "\n") }.count
        addEntry(.math(tex: found.tex, display: found.display), kind: .math, original: i..<found.end)
        i = found.end
    }

    // MARK: Superscript and subscript

    /// At `^` or `~`: closes the innermost script span when this is its closing delimiter, or opens one when
    /// `ScriptSpans` finds it closing inside the span around it (spans nest, never cross).
    private mutating func handleScript() throws -> Bool {
        if let top = scriptCloses.last, top.at == i {
            scriptCloses.removeLast()
            output += Placeholder.bytes(.spanClose, top.entry)
            i += 1
            return true
        }
        guard scripts, i >= noScriptsUntil else { return false }
        let at = i
        let found = source.withUnsafeBufferPointer { ScriptSpans.find($0, at: at, end: $0.count) }
        guard case .closes(let close) = found, close < (scriptCloses.last?.at ?? Int.max) else { return false }
        try checkEntryLimit()
        let e = addEntry(.script(superscript: source[i] == UInt8(ascii: "^")), kind: .spanOpen, original: close..<(close + 1))
        scriptCloses.append((close, e))
        i += 1
        return true
    }

    /// After a `]`: a link's destination `(…)` on this line holds no script span.
    private mutating func skipScripts(inDestinationAfter k: Int) {
        guard scripts, k + 1 < source.count, source[k + 1] == UInt8(ascii: "(") else { return }
        var j = k + 2, depth = 1
        while j < source.count, j - k < 2_000, source[j] != UInt8(ascii: "\n") {
            switch source[j] {
            case UInt8(ascii: "\\"): j += 1
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { noScriptsUntil = max(noScriptsUntil, j); return }
            default: break
            }
            j += 1
        }
    }

    /// At `<`: an autolink or tag up to its `>` on this line holds no script span.
    private mutating func skipScripts(inTagAt k: Int) {
        guard scripts, k + 1 < source.count else { return }
        let b = source[k + 1]
        guard (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "/") || b == UInt8(ascii: "!") else { return }
        // Where an earlier search found no `>` on this line, this one would not either: it starts past it
        // (a line of `<a` without `>` stays linear).
        var j = max(k + 1, noTagEndUntil)
        while j < source.count, j - k < 2_000, source[j] != UInt8(ascii: "\n") {
            if source[j] == UInt8(ascii: ">") { noScriptsUntil = max(noScriptsUntil, j); return }
            j += 1
        }
        if j < source.count, source[j] == UInt8(ascii: "\n") || j - k >= 2_000 { noTagEndUntil = j } else { noTagEndUntil = source.count }
    }

    // MARK: Footnote references

    /// `[^label]` for a defined footnote (and not the definition itself) becomes a placeholder.
    private mutating func handleNoteReference() throws -> Bool {
        if !notes {
            // In a comment body a definition line would be a link reference definition to cmark, and
            // its text would vanish: its `[` becomes a literal placeholder, so the line reads as text.
            guard i == 0 || source[i - 1] == UInt8(ascii: "\n") else { return false }
            var e = i
            while e < source.count, source[e] != UInt8(ascii: "\n") { e += 1 }
            guard Segmenter.footnoteLabel(source[i..<e]) != nil else { return false }
            try checkEntryLimit()
            addEntry(.literal, kind: .literal, original: i..<(i + 1))
            i += 1
            return true
        }
        guard !noteLabels.isEmpty, i + 2 < source.count, source[i + 1] == UInt8(ascii: "^") else { return false }
        var j = i + 2
        while j < source.count, j - i < 256, source[j] != UInt8(ascii: "]") {
            let b = source[j]
            if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "[") { return false }
            j += 1
        }
        guard j < source.count, source[j] == UInt8(ascii: "]"), j > i + 2 else { return false }
        let atLineStart = i == 0 || source[i - 1] == UInt8(ascii: "\n")
        if atLineStart, j + 1 < source.count, source[j + 1] == UInt8(ascii: ":") { return false }
        let label = String(decoding: source[(i + 2)..<j], as: UTF8.self)
        guard noteLabels.contains(label) else { return false }
        addEntry(.note(label: label), kind: .noteReference, original: i..<(j + 1))
        i = j + 1
        return true
    }

    // MARK: Inline notes

    /// Inline notes read so far (their ids are `inline-1`, `inline-2`… unless a note of the source has one).
    private var inlineNoteCount = 0
    /// The closing brackets of the paragraph's `[` from the first `^[` on (`InlineNotes.matches`), up to its end.
    private var noteBrackets: [Int: Int] = [:]
    private var noteBracketsEnd = 0

    /// pandoc's inline note `^[…]` (its brackets balanced, code spans and escapes inside skipped, within one
    /// paragraph: the paragraph's brackets are matched once) becomes a placeholder whose text the reader reads as a note.
    private mutating func handleInlineNote() throws -> Bool {
        guard notes, scripts, i + 1 < source.count, source[i + 1] == UInt8(ascii: "["), i >= noScriptsUntil else { return false }
        if i + 1 >= noteBracketsEnd {
            let from = i + 1
            (noteBrackets, noteBracketsEnd) = source.withUnsafeBufferPointer { InlineNotes.matches($0, from: from) }
        }
        guard let end = noteBrackets[i + 1] else { return false }
        try checkEntryLimit()
        var id: String
        repeat {
            inlineNoteCount += 1
            id = "inline-\(inlineNoteCount)"
        } while noteLabels.contains(id)
        _ = addEntry(.inlineNote(body: (i + 2)..<(end - 1), id: id), kind: .inlineNote, original: i..<end)
        line += source[i..<end].lazy.filter { $0 == UInt8(ascii: "\n") }.count
        i = end
        return true
    }

    // MARK: Bracketed spans

    /// How a field span's attribute list starts (`InlineRenderer` writes it so).
    private static let fieldSpanStart = Array(".field ".utf8)

    /// At `]`: when `{attrs}` follows on the same line and a `[` is open, both become span placeholders.
    private mutating func handleSpanEnd() -> Bool {
        guard let open = brackets.last, !open.isImage, i + 1 < source.count, source[i + 1] == UInt8(ascii: "{") else {
            return false
        }
        var j = i + 2
        var quoted = false
        // Attribute lists are short: a bounded look, so a line full of `]{` stays linear. A field's may be long,
        // within a budget for the whole input.
        var bound = 1_000
        if source[(i + 2)...].starts(with: Self.fieldSpanStart), longSpanBudget > 0 { bound = longSpanBudget }
        defer { if bound > 1_000 { longSpanBudget -= j - i } }
        while j < source.count, j - i < bound, source[j] != UInt8(ascii: "\n") {
            if source[j] == UInt8(ascii: "\\"), j + 1 < source.count { j += 2; continue }
            if source[j] == UInt8(ascii: "\"") { quoted.toggle() }
            if source[j] == UInt8(ascii: "}"), !quoted { break }
            j += 1
        }
        guard j < source.count, source[j] == UInt8(ascii: "}"),
              let attrs = AttributeList.parse(Substring(decoding: source[(i + 2)..<j], as: UTF8.self)) else { return false }
        brackets.removeLast()
        let index = entries.count
        entries.append(.span(attrs))
        originals.append(i..<(j + 1))
        // The `[` becomes the open placeholder (same entry: the reader pairs them by index).
        output.replaceSubrange(open.offset..<(open.offset + 1), with: Placeholder.bytes(.spanOpen, index))
        output += Placeholder.bytes(.spanClose, index)
        i = j + 1
        return true
    }

    // MARK: End

    private mutating func checkEntryLimit() throws {
        if entries.count + 4 >= Placeholder.maxIndex {
            throw RedlineError.limit("more than \(Placeholder.maxIndex) CriticMarkup marks and spans (\(Limits.name("maxCriticMarks", Placeholder.maxIndex)))")
        }
    }

    /// Marks still open at the end become literal text again, with a warning.
    private mutating func finishUnclosed() throws {
        var unclosed: [(Int, String)] = []
        for c in [outerChange, openChange].compactMap({ $0 }) {
            unclosed.append((c.entry, "a CriticMarkup change never closes; kept as text"))
            if let s = c.switchEntry { unclosed.append((s, "")) }
        }
        if let h = openHighlight { unclosed.append((h.entry, "a CriticMarkup highlight '{==' never closes; kept as text")) }
        for (entry, message) in unclosed {
            let kind: Placeholder.Kind = {
                if case .highlight = entries[entry] { return .highlightOpen }
                return message.isEmpty ? .changeSwitch : .changeOpen
            }()
            let needle = Placeholder.bytes(kind, entry)
            if let at = find(needle, in: output) {
                output.replaceSubrange(at..<(at + needle.count), with: source[originals[entry]])
            }
            entries[entry] = .literal
            if message.isEmpty { continue }
            let lineNo = source[..<originals[entry].lowerBound].lazy.filter { $0 == UInt8(ascii: "\n") }.count + 1
            diagnostics.report(.criticUnclosedMark, message, at: SourceLocation(line: lineNo))
        }
    }

    private func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard needle.count <= hay.count else { return nil }
        var k = 0
        let first = needle[0]
        while k + needle.count <= hay.count {
            if hay[k] == first, hay[k..<(k + needle.count)].elementsEqual(needle) { return k }
            k += 1
        }
        return nil
    }
}

@inline(__always) func isASCIIPunctuation(_ b: UInt8) -> Bool {
    (b >= 0x21 && b <= 0x2F) || (b >= 0x3A && b <= 0x40) || (b >= 0x5B && b <= 0x60) || (b >= 0x7B && b <= 0x7E)
}

import Foundation
import RedlineCore

/// Writes inlines as Markdown with exact escaping: whatever the text, reading the output gives the same
/// inlines back. Review marks become CriticMarkup; features GFM lacks use pandoc-style spans or HTML tags.
struct InlineRenderer {
    unowned let owner: MarkdownRenderer
    /// What is written so far, as UTF-8 (appending bytes is cheaper than appending strings).
    var bytes: [UInt8] = []
    /// What is written so far.
    var out: String { String(decoding: bytes, as: UTF8.self) }
    /// True at the start of a line (block syntax could start here).
    var atLineStart = true
    /// Spaces and tabs written last, held back: dropped if the line ends after them.
    private var heldSpaces = ""
    /// Inside a table cell: `|` is escaped in code too, breaks become spaces.
    var inCell = false
    /// Inside a heading: breaks become spaces.
    var inHeading = false
    /// Writing a line block: a hard break starts the next line with `| ` (`LineBlocks`).
    var inLineBlock = false
    /// The line length to fill lines to (`LineWrap.auto`), 0 for none; and where the current line starts in `bytes`.
    var wrapWidth = 0
    private var lineStart = 0
    /// A soft break was just written as a space (`--wrap=none|auto`): the next text decides whether it stays one.
    private var softBreakPending = false
    /// A `:` first in the text is escaped (a paragraph next to a table, which `: ` would make its caption).
    var escapeLeadingColon = false
    /// Escape a `:` before a space or tab at a line's start, where it would start a definition
    /// (`DefinitionLists`).
    var escapeMarkerColon = false
    /// Comment ranges written in the short form `{==…==}{>>…<<}` (no other anchor or highlight inside).
    var shortRanges = Set<String>()
    /// Short-form ranges whose `{==` is written and whose `==}` and comment are not yet.
    private var openShortRanges = Set<String>()
    /// The last thing written was `==}` of a plain highlight, or a comment: a comment written next that is
    /// not a reply would attach to it, so a separator `[]{}` goes between.
    private var commentWouldAttach = false
    /// Inside `{==…==}` of a formatting change, where a highlight uses the span form `[…]{.mark}`.
    private var inFormatChange = false
    /// The insertion or deletion being written, if any: CriticMarkup nests only a deletion in an insertion,
    /// so other changes inside one are written as their text (`nested(_:)`).
    private var enclosingChange: EnclosingChange = .none
    private enum EnclosingChange { case none, insertion, deletion }
    /// Emphasis written so far in this paragraph (numbers them, so a second pass can tell them apart).
    private var delimitedCount = 0
    /// Emphasis that must use HTML tags (its delimiters would not be read back in their place).
    private var forcedTags = Set<Int>()
    /// Closing delimiters after punctuation: the output offset after them, which must be a space or the end.
    private var afterChecks: [(offset: Int, index: Int)] = []
    /// Offsets of the backslash before a `!` that ends a text: kept only where `[` follows.
    private var bangChecks: [Int] = []
    /// Words in brackets written as they are at a text's end (`… [sic]`): the offsets of their `[` and after their
    /// `]`, escaped at the paragraph's end where what follows would make them a link (`escapeBracketsBeforeSyntax`).
    private var bracketChecks: [(open: Int, end: Int)] = []
    /// `$` of text written so far in this pass (their number counts them), and the offsets of those written
    /// unescaped: checked at the paragraph's end against the math they would open or close (`MathSpans`);
    /// those that do are escaped in the next pass (`escapedDollars`, by number).
    private var dollarCount = 0
    private var dollarChecks: [(offset: Int, number: Int)] = []
    private var escapedDollars = Set<Int>()
    private var escapeAllDollars = false
    /// Math written in this pass: its opening `$` and the offset after its closing one.
    private var mathWritten: [(open: Int, end: Int)] = []
    /// Inline math (by its number in the paragraph) followed by a digit, which would keep its closing `$`
    /// from closing: an empty span `[]{}` goes between.
    private var separatedMath = Set<Int>()

    /// The paragraph continues a change from the previous one: its first inline's opener is not written.
    var omitFirstOpener = false
    /// The paragraph's last inline stays open across the break: its closer and attribution are not written.
    var omitLastCloser = false
    /// Spaces at the paragraph's end are written (a paragraph break change's opener follows them).
    var keepTrailingSpaces = false
    private var topLevelIndex = -1
    private var topLevelCount = 0
    /// Writing the paragraph's last top-level inline (or inside it): nothing of the paragraph follows it.
    private var inLastTopLevel = false
    /// `^sup^`/`~sub~` written in this pass (their number counts them): the offsets of their delimiters, checked
    /// at the paragraph's end against what the reader makes of them (a `~~}` after `~sub~`, say); those that
    /// do not read back are written as HTML tags in the next pass (`taggedScripts`, by number).
    private var scriptCount = 0
    private var scriptsWritten: [(open: Int, close: Int, number: Int)] = []
    private var taggedScripts = Set<Int>()

    init(owner: MarkdownRenderer) {
        self.owner = owner
    }

    /// Renders a paragraph's inlines.
    mutating func render(_ inlines: [Inline]) {
        shortRanges = Self.shortRanges(in: inlines).filter { owner.hasComment($0) }
        let start = (bytes.count, atLineStart)
        let saved = owner.sideTables
        for pass in 0..<4 {
            // From the third pass on, every `$` of text is escaped (each pass escapes only those that made math).
            escapeAllDollars = pass >= 2
            // A pass starts again from `start`: the line it is on starts after the last line break before it.
            lineStart = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            topLevelCount = inlines.count
            openShortRanges = []
            for (k, inline) in inlines.enumerated() {
                topLevelIndex = k
                inLastTopLevel = k == inlines.count - 1
                write(inline)
            }
            topLevelIndex = -1
            if keepTrailingSpaces && !atLineStart { bytes += heldSpaces.utf8; heldSpaces = "" }
            endLine()
            // A closing `*` after punctuation must be followed by a space, the line end or punctuation (CommonMark's
            // right-flanking rule: `*Nature*,`), but not by another delimiter character, which would join its run.
            let bad = afterChecks.filter { check in
                guard check.offset < bytes.count else { return false }
                let b = bytes[check.offset]
                if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n") { return false }
                return !(isASCIIPunctuation(b) && b != UInt8(ascii: "*") && b != UInt8(ascii: "_") && b != UInt8(ascii: "~"))
            }
            let mathRetry = (!dollarChecks.isEmpty || !mathWritten.isEmpty) && checkMath(from: start.0)
            let scriptRetry = !scriptsWritten.isEmpty && checkScripts()
            if (bad.isEmpty && !mathRetry && !scriptRetry) || (pass == 3 && bad.isEmpty) {
                escapeBracketsBeforeSyntax()
                dropNeedlessBangEscapes()
                return
            }
            forcedTags.formUnion(bad.map(\.index))
            bytes.removeSubrange(start.0...)
            atLineStart = start.1
            owner.sideTables = saved
            heldSpaces = ""
            commentWouldAttach = false
            inFormatChange = false
            delimitedCount = 0
            afterChecks = []
            bangChecks = []
            bracketChecks = []
            dollarChecks = []
            dollarCount = 0
            mathWritten = []
            scriptCount = 0
            scriptsWritten = []
        }
    }

    /// Whether the paragraph must be written again: a `^sup^` or `~sub~` as written does not read back as itself.
    private mutating func checkScripts() -> Bool {
        var retry = false
        bytes.withUnsafeBufferPointer { u in
            for s in scriptsWritten where ScriptSpans.find(u, at: s.open, end: u.count) != .closes(s.close) {
                taggedScripts.insert(s.number)
                retry = true
            }
        }
        return retry
    }

    /// Whether the paragraph must be written again: a `$` of text opens or closes math as written (then every
    /// `$` of text is escaped), or math written does not read back as it is (a digit after it: separated).
    private mutating func checkMath(from start: Int) -> Bool {
        let spans = MathSpans.spans(in: bytes, from: start)
        var retry = false
        if !dollarChecks.isEmpty {
            let dollars = Dictionary(dollarChecks.map { ($0.offset, $0.number) }, uniquingKeysWith: { a, _ in a })
            for span in spans {
                for offset in [span.open, span.close] {
                    if let n = dollars[offset] { escapedDollars.insert(n); retry = true }
                }
            }
        }
        let opens = Set(spans.map(\.open))
        for (k, m) in mathWritten.enumerated() where !opens.contains(m.open) && !separatedMath.contains(k) {
            if m.end < bytes.count, bytes[m.end] >= UInt8(ascii: "0"), bytes[m.end] <= UInt8(ascii: "9") {
                separatedMath.insert(k)
                retry = true
            }
        }
        return retry
    }

    /// Words in brackets that ended a text and are followed by `(`, `[`, `{` or `:` (a link, reference, attributes or
    /// definition would take them) get their brackets escaped; the `!` checks after them move with the bytes.
    private mutating func escapeBracketsBeforeSyntax() {
        guard !bracketChecks.isEmpty else { return }
        var inserts: [Int] = []
        for c in bracketChecks where c.end < bytes.count {
            switch bytes[c.end] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ":"): inserts += [c.open, c.end - 1]
            default: break
            }
        }
        bracketChecks = []
        guard !inserts.isEmpty else { return }
        // One copy for all of them (an insert each would be quadratic in a paragraph of many).
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + inserts.count)
        var from = 0
        for at in inserts {
            out += bytes[from..<at]
            out.append(UInt8(ascii: "\\"))
            from = at
        }
        out += bytes[from...]
        bytes = out
        bangChecks = bangChecks.map { o in o + inserts.prefix { $0 <= o }.count }
    }

    private mutating func dropNeedlessBangEscapes() {
        guard !bangChecks.isEmpty else { return }
        for offset in bangChecks.reversed() where offset + 2 >= bytes.count || bytes[offset + 2] != UInt8(ascii: "[") {
            bytes.remove(at: offset)
        }
        bangChecks = []
    }

    // MARK: Output primitives

    /// Raw Markdown (delimiters, placeholders' source forms); flushes held spaces first.
    private mutating func emit(_ s: String) {
        guard !s.isEmpty else { return }
        if wrapWidth > 0, !heldSpaces.isEmpty, !inCell, !inHeading, !inLineBlock, !heldSpaces.contains("\t"),
           let first = s.utf8.first, Self.breaksBefore(first), passesWidth(bytes, word: s.count + 8) {
            // `--wrap=auto` before markup that opens an inline (emphasis, a link, a change, math): the line breaks
            // here when little room is left for it (what it holds is not known yet; 8 characters are kept for it).
            heldSpaces = ""
            bytes.append(0x0A)
            lineStart = bytes.count
        }
        if !heldSpaces.isEmpty { bytes += heldSpaces.utf8; heldSpaces = "" }
        bytes += s.utf8
        atLineStart = false
        commentWouldAttach = false
    }

    /// Whether the text at `k` starts a block in pandoc's Markdown where it starts a line, though CommonMark reads it
    /// as text: a definition (`:` or `~` then a space or tab) or an example list item (`(@`).
    static func startsPandocBlock(_ u: UnsafeBufferPointer<UInt8>, _ k: Int) -> Bool {
        let c = u[k], next: UInt8? = k + 1 < u.count ? u[k + 1] : nil
        if c == UInt8(ascii: ":") || c == UInt8(ascii: "~") { return next == 0x20 || next == 0x09 }
        return c == UInt8(ascii: "(") && next == UInt8(ascii: "@")
    }

    /// Whether a line may start with markup beginning with `b` (nothing a block could start with: not a code
    /// fence's backtick or tilde, an HTML block's `<`, a quote, list, heading or table marker).
    private static func breaksBefore(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "*") || b == UInt8(ascii: "_") || b == UInt8(ascii: "[") || b == UInt8(ascii: "!")
            || b == UInt8(ascii: "{") || b == UInt8(ascii: "$") || b == UInt8(ascii: "^")
    }

    /// Ends a line: spaces held at its end are dropped (Markdown cannot hold them; readers drop them
    /// too), or with `preserveFormatting` kept, the last one as an entity (`a&#32;`).
    mutating func endLine() {
        if owner.options.preserveFormatting, let last = heldSpaces.last {
            bytes += heldSpaces.dropLast().utf8
            bytes += Self.entity(last).utf8
        }
        heldSpaces = ""
    }

    /// A space or tab as a character reference, which cmark keeps at a line's edge.
    private static func entity(_ c: Character) -> String { c == "\t" ? "&#9;" : "&#32;" }

    private mutating func newline(hard: Bool) {
        endLine()
        commentWouldAttach = false
        if hard && inLineBlock {
            // The next line of a line block: after its bar, spaces are the line's own (held, then written).
            bytes += "\n| ".utf8
            atLineStart = false
            return
        }
        bytes += hard ? "\\\n".utf8 : "\n".utf8
        atLineStart = true
        lineStart = bytes.count
    }

    /// Whether a line holding what `buf` holds from `lineStart`, a space and a word of `word` characters would pass
    /// `wrapWidth` (counted in characters: UTF-8 lead bytes) while the line holds something already.
    private func passesWidth(_ buf: [UInt8], word: Int) -> Bool {
        guard buf.count > lineStart else { return false }
        var columns = 0
        for i in lineStart..<buf.count where buf[i] & 0xC0 != 0x80 { columns += 1 }
        return columns > 0 && columns + 1 + word > wrapWidth
    }

    // MARK: Text


    /// Writes text, escaping everything Markdown, GFM or CriticMarkup would read as syntax.
    mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { text(utf8: $0) }
    }

    /// `text(_:)` on the string's UTF-8 bytes: every character Markdown treats specially is ASCII, so the
    /// bytes are scanned and runs of ordinary ones copied at once.
    private mutating func text(utf8 u: UnsafeBufferPointer<UInt8>) {
        var buf = bytes  // written in place (taken out, so appending does not copy it)
        bytes = []
        // Grown geometrically: an exact reserve per call reallocates every time (quadratic on a paragraph of
        // a million short runs).
        if buf.capacity < buf.count + u.count + 8 { buf.reserveCapacity(max(2 * buf.capacity, buf.count + u.count + 8)) }
        var k = 0
        func flushHeld() {
            if !heldSpaces.isEmpty { buf.append(contentsOf: heldSpaces.utf8); heldSpaces = "" }
        }
        while k < u.count {
            let c = u[k]
            if c == 0x20 || c == 0x09 {
                // Spaces at a line start or end cannot be written (Markdown drops them): they are left
                // out, or with `preserveFormatting` the first one is written as an entity (`&#32;b`).
                if !atLineStart {
                    heldSpaces.append(c == 0x20 ? " " : "\t")
                } else if owner.options.preserveFormatting {
                    buf += Array(Self.entity(c == 0x20 ? " " : "\t").utf8)
                    atLineStart = false
                    commentWouldAttach = false
                }
                k += 1
                continue
            }
            if softBreakPending {
                // Text pandoc reads as a block where it starts a line (a definition `:   …` or `~   …`, an example
                // item `(@)`) keeps the source's line break: joined to the line before, it would be text.
                softBreakPending = false
                if !heldSpaces.isEmpty, Self.startsPandocBlock(u, k) {
                    heldSpaces = ""
                    buf.append(0x0A)
                    lineStart = buf.count
                    atLineStart = true
                }
            }
            if wrapWidth > 0, !heldSpaces.isEmpty, !inCell, !inHeading, !inLineBlock, !heldSpaces.contains("\t"),
               !Self.startsPandocBlock(u, k) {
                // `--wrap=auto`: the line is broken at these spaces (not at a tab: it is text) when the word after
                // them would pass the width (the word as far as this text goes; the line-start escapes below then
                // apply to it).
                var end = k
                var chars = 0
                while end < u.count, u[end] != 0x20, u[end] != 0x09 { if u[end] & 0xC0 != 0x80 { chars += 1 }; end += 1 }
                if passesWidth(buf, word: chars) {
                    heldSpaces = ""
                    buf.append(0x0A)
                    lineStart = buf.count
                    atLineStart = true
                }
            }
            flushHeld()
            commentWouldAttach = false
            if atLineStart {
                atLineStart = false
                // Block syntax at a line's start is escaped only where it would start a block (a table
                // cell holds no blocks): `#` before a space (`#tag` is text), `-`/`+`/`=` before a space or
                // another of them, `:` of a fence, `>` always, `1.` or `1)` before a space.
                let next: UInt8? = k + 1 < u.count ? u[k + 1] : nil
                let spaceNext = next == nil || next == 0x20 || next == 0x09
                switch inCell ? 0 : c {
                case UInt8(ascii: ">"),
                     UInt8(ascii: "#") where spaceNext || next == c,
                     UInt8(ascii: "-") where spaceNext || next == c,
                     UInt8(ascii: "=") where spaceNext || next == c,
                     UInt8(ascii: "+") where spaceNext,
                     UInt8(ascii: ":") where next == c || next == UInt8(ascii: "-") || escapeLeadingColon
                        || (spaceNext && next != nil && escapeMarkerColon):
                    buf.append(UInt8(ascii: "\\")); buf.append(c); k += 1
                    continue
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    // `1.` or `1)` would start an ordered list (at most nine digits, then a space or the end).
                    var j = k
                    while j < u.count, u[j] >= UInt8(ascii: "0"), u[j] <= UInt8(ascii: "9") { buf.append(u[j]); j += 1 }
                    if j < u.count, u[j] == UInt8(ascii: ".") || u[j] == UInt8(ascii: ")"), j - k <= 9,
                       j + 1 >= u.count || u[j + 1] == 0x20 || u[j + 1] == 0x09 {
                        buf.append(UInt8(ascii: "\\")); buf.append(u[j]); j += 1
                    }
                    k = j
                    continue
                default: break
                }
            }
            switch c {
            case UInt8(ascii: "^"):
                // pandoc's superscript delimiter: escaped where it would open a span (or might, with what follows).
                // Running off this text's end matters only where more of the paragraph follows.
                if owner.options.criticMarkup {
                    let found = ScriptSpans.find(u, at: k, end: u.count)
                    if found == .runsOff ? !inLastTopLevel : found != .none { buf.append(UInt8(ascii: "\\")) }
                }
                buf.append(c)
            case UInt8(ascii: "_") where Self.isIntraword(u, k):
                // `group_summary`: an underscore between letters or digits opens and closes nothing.
                buf.append(c)
            case UInt8(ascii: "<") where !Self.mayOpenTag(u, k):
                // `a < b`: only `<` before a letter, `/`, `!`, `?` (a tag or autolink) or `<` (`<<}`) is syntax.
                buf.append(c)
            case UInt8(ascii: "[") where plainBracketEnd(u, k, after: buf.last) != nil:
                // A pandoc citation `[@key, p. 3]`, or words in brackets, that CommonMark reads as text anyway:
                // written as they are, so pandoc and Quarto still see the citation and the author their `[sic]`.
                let end = plainBracketEnd(u, k, after: buf.last)!
                if end == u.count { bracketChecks.append((buf.count, buf.count + end - k)) }
                buf.append(contentsOf: UnsafeBufferPointer(rebasing: u[k..<end]))
                k = end
                continue
            case UInt8(ascii: "\\") where k + 1 < u.count && Self.isLiteralAfterBackslash(u[k + 1]):
                // `\alpha`, `C:\Users`: a backslash before a letter, digit or non-ASCII character escapes nothing
                // (CommonMark), so TeX and paths are written as they are.
                buf.append(c)
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
                 UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: "~"), UInt8(ascii: "|"):
                buf.append(UInt8(ascii: "\\")); buf.append(c)
            case UInt8(ascii: "!"):
                // `![` would start an image; what follows this text is checked at the paragraph's end.
                if k + 1 >= u.count {
                    bangChecks.append(buf.count)
                    buf.append(UInt8(ascii: "\\"))
                }
                buf.append(c)
            case UInt8(ascii: "&"):
                if Self.looksLikeEntity(u, after: k) { buf.append(UInt8(ascii: "\\")) }
                buf.append(c)
            case UInt8(ascii: "{"):
                if k + 1 >= u.count || Self.isCriticOpener(u[k + 1]) { buf.append(UInt8(ascii: "\\")) }
                buf.append(c)
            case UInt8(ascii: "$"):
                // `$` is TeX math's delimiter: escaped where it would open or close math (checked per paragraph).
                if escapeAllDollars || escapedDollars.contains(dollarCount) { buf.append(UInt8(ascii: "\\")) } else { dollarChecks.append((buf.count, dollarCount)) }
                dollarCount += 1
                buf.append(c)
            case UInt8(ascii: "}"):
                let prev: UInt8? = buf.last
                if k == 0 || prev.map(Self.isCriticCloserPrefix) ?? true { buf.append(UInt8(ascii: "\\")) }
                buf.append(c)
            case 0x0A: buf += Array("&#10;".utf8)
            case 0x0D: buf += Array("&#13;".utf8)
            case 0x00:
                owner.loss(.lossyControlCharacter, "NUL characters cannot be written in Markdown; replaced")
                buf += [0xEF, 0xBF, 0xBD]
            default:
                // Bytes up to the next special character need nothing: copied in one go, with the spaces
                // and tabs between them (spaces at the end are left to the loop, which holds them back; when
                // filling lines, every space is: a line may break there).
                var j = k + 1, end = k + 1
                let wrapping = wrapWidth > 0
                while j < u.count {
                    let b = u[j]
                    if Self.isOrdinary(b) {
                        j += 1
                        end = j
                    } else if (b == 0x20 || b == 0x09) && !wrapping {
                        j += 1
                    } else {
                        break
                    }
                }
                buf.append(contentsOf: UnsafeBufferPointer(rebasing: u[k..<end]))
                k = end
                continue
            }
            k += 1
        }
        bytes = buf
    }

    /// Where a bracket at `k` that needs no escape ends (just past its `]`): a citation (`plainBracket`), or
    /// words in brackets (`[sic]`, `[1]`; at the text's end checked against what follows: `bracketChecks`), that no reference definition of the
    /// document gives a target (the label is kept from the writer's reference links: `plainLabel`), and not after
    /// `!`. A task list's box (`- [ ] task`, `- [x] done`) is such words too: GitHub shows the box the author wrote.
    private func plainBracketEnd(_ u: UnsafeBufferPointer<UInt8>, _ k: Int, after previous: UInt8?) -> Int? {
        guard let (end, citation) = Self.plainBracket(u, k, after: previous) else { return nil }
        if citation { return end }
        guard previous != UInt8(ascii: "!") else { return nil }
        let inner = UnsafeBufferPointer(rebasing: u[(k + 1)..<(end - 1)])
        // (No label is blank: `[ ]` is no link whatever the document defines.)
        if inner.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return end }
        return owner.plainLabel(inner) ? end : nil
    }

    /// Where a bracket at `k` that needs no escape when nothing defines its label ends (just past its `]`), and
    /// whether it holds a citation (`[@key]`, `[-@key]`, `[see @a, pp. 3-4; @b]`: one needs no escape in any
    /// case): its text holds nothing Markdown reads, no `(`, `[`, `{` or `:` follows (a link, reference or
    /// attributes), and no `^` comes before (an inline note). Stops at the next bracket, so linear.
    static func plainBracket(_ u: UnsafeBufferPointer<UInt8>, _ k: Int, after previous: UInt8?) -> (end: Int, citation: Bool)? {
        var j = k + 1
        var citation = false
        // `[^label]` is a note reference.
        guard j < u.count, u[j] != UInt8(ascii: "^") else { return nil }
        while j < u.count {
            let b = u[j]
            if b == UInt8(ascii: "]") { break }
            switch b {
            case UInt8(ascii: "@"): citation = true
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "<"),
                 UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"), UInt8(ascii: "~"),
                 UInt8(ascii: "&"), UInt8(ascii: "!"), 0x00, 0x0A, 0x0D:
                return nil
            default: break
            }
            j += 1
        }
        // After `^` it would open an inline note: escaped.
        guard j < u.count, j > k + 1, previous != UInt8(ascii: "^") else { return nil }
        if j + 1 < u.count {
            switch u[j + 1] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ":"): return nil
            default: break
            }
        }
        return (j + 1, citation)
    }

    /// Whether a backslash before `b` is a literal backslash in CommonMark: only ASCII punctuation (an escape)
    /// and line ends (a hard break) follow one specially; a space is left to the escape (it may end the line).
    static func isLiteralAfterBackslash(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b >= 0x80
    }

    /// A byte `text(_:)` copies as it is (not a space, tab, line end, NUL or a character it may escape).
    @inline(__always)
    private static func isOrdinary(_ b: UInt8) -> Bool {
        switch b {
        case 0x00, 0x09, 0x0A, 0x0D, 0x20, UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "<"), UInt8(ascii: "^"),
             UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "_"), UInt8(ascii: "`"),
             UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"):
            return false
        default:
            return true
        }
    }

    private static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    /// The `_` at `k` is inside a run of underscores with an ASCII letter or digit on both sides (in this text).
    private static func isIntraword(_ u: UnsafeBufferPointer<UInt8>, _ k: Int) -> Bool {
        var i = k, j = k
        while i > 0, u[i - 1] == UInt8(ascii: "_") { i -= 1 }
        while j + 1 < u.count, u[j + 1] == UInt8(ascii: "_") { j += 1 }
        return i > 0 && j + 1 < u.count && isASCIIAlphanumeric(u[i - 1]) && isASCIIAlphanumeric(u[j + 1])
    }

    /// The `<` at `k` could start a tag, an autolink or a CriticMarkup closer `<<}` (or ends this text).
    private static func mayOpenTag(_ u: UnsafeBufferPointer<UInt8>, _ k: Int) -> Bool {
        guard k + 1 < u.count else { return true }
        let b = u[k + 1]
        return (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "/") || b == UInt8(ascii: "!")
            || b == UInt8(ascii: "?") || b == UInt8(ascii: "<")
    }

    private static func isCriticOpener(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: "~") || b == UInt8(ascii: "=") || b == UInt8(ascii: ">")
    }

    private static func isCriticCloserPrefix(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: "~") || b == UInt8(ascii: "=") || b == UInt8(ascii: "<")
    }

    private static func looksLikeEntity(_ u: UnsafeBufferPointer<UInt8>, after k: Int) -> Bool {
        var j = k + 1
        while j < u.count, j - k <= 32 {
            let b = u[j]
            let alnum = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "#")
            if !alnum { break }
            j += 1
        }
        return j > k + 1 && j < u.count && u[j] == UInt8(ascii: ";")
    }

    // MARK: Inlines

    /// A length in points as inches for an image attribute (`2.5in`, at most four decimals).
    static func inches(_ points: Double) -> String {
        var s = String(format: "%.4f", points / 72)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s + "in"
    }

    mutating func write(_ inlines: [Inline]) {
        for inline in inlines { write(inline) }
    }

    private mutating func write(_ inline: Inline) {
        if case .text = inline {} else { softBreakPending = false }
        let edgeIndex = topLevelIndex
        topLevelIndex = -1
        if enclosingChange != .none {
            switch inline {
            case .insertion, .deletion, .substitution, .move: nested(inline); return
            default: break
            }
        }
        switch inline {
        case .text(let s): text(s)
        case .softBreak:
            if inCell || inHeading { owner.loss(.lossyBreak, "a line break in a table cell or heading was written as a space"); text(" ") }
            else if (owner.options.lineWrap ?? .preserve) != .preserve {
                // A space, unless the text after it starts a line pandoc reads as a block (`text`).
                text(" ")
                softBreakPending = true
                return
            }
            else { newline(hard: false) }
        case .lineBreak:
            if inCell || inHeading { owner.loss(.lossyBreak, "a line break in a table cell or heading was written as a space"); text(" ") }
            else { newline(hard: true) }
        case .code(let s): code(s)
        case .emphasis(let c): delimited(c, "*", "<em>", "</em>", allowStar: true)
        case .strong(let c): delimited(c, "**", "<strong>", "</strong>", allowStar: true)
        case .strikethrough(let c): delimited(c, "~~", "<s>", "</s>", allowStar: false)
        case .underline(let c):
            if owner.pandocSyntax { span(c, "{.underline}") } else { emit("<u>"); write(c); emit("</u>") }
        case .smallCaps(let c):
            if owner.pandocSyntax { span(c, "{.smallcaps}") } else { emit("<span class=\"smallcaps\">"); write(c); emit("</span>") }
        case .field(let f, let c):
            if owner.options.preserveFormatting {
                span(c, "{" + AttributeList.write([AttributeToken(".field"), AttributeToken("instr", f.instruction)]) + "}")
            } else {
                owner.loss(.lossyField, "fields were written as their results (--keep-formatting keeps them)")
                write(c)
            }
        case .superscript(let c): script(c, UInt8(ascii: "^"), "<sup>", "</sup>")
        case .subscript(let c): script(c, UInt8(ascii: "~"), "<sub>", "</sub>")
        case .highlight(let c):
            if owner.options.criticMarkup && !inFormatChange {
                emit("{=="); write(c); emit("==}")
                commentWouldAttach = true
            } else {
                span(c, "{.mark}")
            }
        case .styled(let style, let c):
            if owner.options.preserveFormatting {
                span(c, "{" + AttributeList.write(FormatAttributes.tokens(style)) + "}")
            } else {
                owner.characterStyleLost(style)
                write(c)
            }
        case .link(let l, let c):
            if l.title.isEmpty, c.count == 1, case .text(let t) = c[0], Self.isAutolink(text: t, url: l.url) {
                emit("<" + t + ">")
            } else if let label = l.label, !c.isEmpty, owner.defineReference(label, l) {
                // A reference link, as the author wrote it: `[label]` when its text is the label, else `[text][label]`.
                linkText(c)
                emit(c.count == 1 && MarkdownRenderer.normalizedLabel(c.plainText) == MarkdownRenderer.normalizedLabel(label)
                     && c.plainText.allSatisfy({ $0 != "[" && $0 != "]" }) ? "]" : "][" + label + "]")
            } else {
                linkText(c)
                emit("](" + Self.destination(l.url) + Self.title(l.title) + ")")
            }
        case .image(let i):
            emit("![")
            // cmark-gfm reads `![^` as a footnote-like bracket, never an image: the caret is escaped.
            if i.alt.hasPrefix("^") { emit("\\^"); text(String(i.alt.dropFirst())) } else { text(i.alt) }
            emit("](" + Self.destination(owner.media.reference(for: i)) + Self.title(i.title) + ")")
            if i.attributes != nil, !owner.pandocSyntax {
                owner.loss(.lossyAttributes, "pandoc attributes of headings and pictures were dropped (GitHub Markdown has none)")
            } else if let attributes = i.attributes, !attributes.contains("}"), !attributes.contains("\n"),
               let tokens = AttributeList.parse(Substring(attributes)) {
                // The author's own list, as written (`{#fig-x width=50%}`), with a width or height the picture no
                // longer has (resized in Word) rewritten.
                var changed = false
                let sized = tokens.map { t -> AttributeToken in
                    guard let v = t.value, let now = t.key == "width" ? i.width : t.key == "height" ? i.height : nil else { return t }
                    if let was = BlockConverter.points(v), abs(was - now) < 0.5 { return t }
                    changed = true
                    return AttributeToken(t.key, Self.inches(now))
                }
                emit("{" + (changed ? AttributeList.write(sized) : attributes) + "}")
            } else if i.width != nil || i.height != nil, let size = i.displaySize {
                if owner.options.preserveFormatting {
                    emit("{width=" + Self.inches(size.width) + " height=" + Self.inches(size.height) + "}")
                } else {
                    owner.loss(.lossyPictureSize, "picture sizes were dropped (use --keep-formatting)")
                }
            }
        case .raw(let format, let t):
            if format == "html", t.isEmpty || RawHTML.readsAsInline(t) || !owner.pandocSyntax {
                emit(t)
            } else if !owner.pandocSyntax {
                owner.loss(.lossyRaw, "raw \(format) content was dropped")
            } else if RawFormats.isFormat(Substring(format)), !t.isEmpty, !t.contains("\n"), !t.contains("\r") {
                // pandoc's raw inline: `` `\LaTeX`{=latex} ``.
                code(t)
                emit("{=" + format + "}")
            } else if RawFormats.isFormat(Substring(format)), !t.isEmpty {
                // A code span cannot hold a line end: CommonMark reads one there as a space.
                owner.loss(.lossyRaw, "line ends in raw \(format) content were written as spaces")
                code(t.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " "))
                emit("{=" + format + "}")
            } else {
                owner.loss(.lossyRaw, "raw \(format) content was dropped")
            }
        case .noteReference(let id):
            if let text = owner.inlineNoteText(id) { emit("^[" + text + "]") } else if owner.hasNote(id) { emit("[^" + id + "]") }
        case .math(let kind, let tex): math(kind, tex)
        case .insertion(let ch, let c): change("{++", c, "++}", ch, [], edgeIndex: edgeIndex)
        case .deletion(let ch, let c): change("{--", c, "--}", ch, [], edgeIndex: edgeIndex)
        case .substitution(let ch, let d, let i):
            // Neither side of a substitution holds a change CriticMarkup can read: nested ones keep their text.
            emit("{~~")
            enclosingChange = .deletion
            write(d)
            emit("~>")
            write(i)
            enclosingChange = .none
            emit("~~}")
            attribution(ch, [])
        case .move(let m, let c):
            let attrs = [AttributeToken("move", m.name)]
            if m.side == .from { change("{--", c, "--}", m.change, attrs) } else { change("{++", c, "++}", m.change, attrs) }
        case .formatChange(let f, let c):
            emit("{==")
            inFormatChange = true
            write(c)
            inFormatChange = false
            emit("==}")
 let tokens = [AttributeToken("format-change")] + FormatAttributes.tokens(f.old)
            if owner.inCommentBody { owner.loss(.lossyCommentBodyAttribution, "formatting changes inside comments were dropped"); return }
            emit("{>>" + CommentText.header(author: f.change.author, date: f.change.date, attributes: tokens) + "<<}")
        case .commentStart(let id):
            if shortRanges.contains(id) {
                // Only while its comment is still to be written (an id anchored twice has it written at the
                // first): `{====}` without it would be a highlight the next comment attaches to.
                if owner.hasComment(id) {
                    emit("{==")
                    openShortRanges.insert(id)
                }
            } else if owner.hasComment(id) {
                // A range is named only when its comment is written: an anchor of a comment the document
                // does not hold (a DOCX without its comments part) would leave an end marker with no start.
                writeThread(id, rangeName: owner.rangeName(for: id))
            }
        case .commentEnd(let id):
            if shortRanges.contains(id) {
                if openShortRanges.remove(id) != nil {
                    emit("==}")
                    writeThread(id, rangeName: nil, attached: true)
                }
            } else if let name = owner.endRangeName(for: id) {
                emit("{>>/" + name + "<<}")
            }
        case .commentPoint(let id):
            writeThread(id, rangeName: nil)
        }
    }

    /// A change inside an insertion or deletion. A deletion in an insertion is written as one; the rest
    /// have no CriticMarkup form (the reader would take their marks as text) and keep their text: an
    /// insertion in an insertion, or anything in a deletion, is the enclosing change's text; a
    /// substitution in an insertion is its deletion, then its inserted text.
    private mutating func nested(_ inline: Inline) {
        switch (enclosingChange, inline) {
        case (.insertion, .deletion(let ch, let c)): change("{--", c, "--}", ch, [])
        case (.insertion, .move(let m, let c)) where m.side == .from: change("{--", c, "--}", m.change, [])
        case (.insertion, .substitution(let ch, let d, let i)): change("{--", d, "--}", ch, []); write(i)
        case (_, .insertion(_, let c)), (_, .deletion(_, let c)), (_, .move(_, let c)): write(c)
        case (_, .substitution(_, let d, let i)): write(d); write(i)
        default: break
        }
    }

    /// `edgeIndex`: the inline's index among the paragraph's top-level inlines (-1 when nested).
    private mutating func change(_ open: String, _ c: [Inline], _ close: String, _ ch: Change, _ attrs: [AttributeToken],
                                 edgeIndex: Int = -1) {
        let skipOpen = edgeIndex == 0 && omitFirstOpener
        let skipClose = edgeIndex >= 0 && edgeIndex == topLevelCount - 1 && omitLastCloser
        if !skipOpen { emit(open) }
        let outer = enclosingChange
        enclosingChange = open == "{++" ? .insertion : .deletion
        write(c)
        enclosingChange = outer
        if !skipClose {
            emit(close)
            attribution(ch, attrs)
        }
    }

    private mutating func attribution(_ ch: Change, _ attrs: [AttributeToken]) {
        guard ch.author != nil || ch.date != nil || !attrs.isEmpty else { return }
        if owner.inCommentBody {
            owner.loss(.lossyCommentBodyAttribution, "authors and dates of changes inside comments were dropped")
            return
        }
        guard attrs.isEmpty else {
            emit("{>>" + CommentText.header(author: ch.author, date: ch.date, attributes: attrs) + "<<}")
            return
        }
        if !heldSpaces.isEmpty { bytes += heldSpaces.utf8; heldSpaces = "" }
        owner.appendAttributionComment(ch, to: &bytes)
        atLineStart = false
        commentWouldAttach = false
    }

    /// `[` and a link's text. cmark-gfm reads `[^x](url)` as the footnote reference `[^x]` when a note x exists,
    /// and text when none does: a caret opening a link's text is escaped.
    private mutating func linkText(_ c: [Inline]) {
        emit("[")
        if case .text(let t)? = c.first, t.hasPrefix("^") {
            emit("\\^")
            write([.text(String(t.dropFirst()))] + c.dropFirst())
        } else {
            write(c)
        }
    }

    private mutating func span(_ c: [Inline], _ attrs: String) {
        emit("["); write(c); emit("]" + attrs)
    }

    /// pandoc's `^sup^` / `~sub~` for plain text the rule reads back (`ScriptSpans`), with CriticMarkup on (in
    /// `gfm`, which has no such syntax, and for anything else: the HTML tags).
    private mutating func script(_ c: [Inline], _ d: UInt8, _ openTag: String, _ closeTag: String) {
        let number = scriptCount
        scriptCount += 1
        if owner.options.criticMarkup, !taggedScripts.contains(number), c.count == 1, case .text(let t) = c[0],
           ScriptSpans.canHold(t, delimiter: d) {
            let delimiter = String(UnicodeScalar(d))
            emit(delimiter)
            let open = bytes.count - 1
            text(t)
            scriptsWritten.append((open, bytes.count, number))
            emit(delimiter)
        } else {
            emit(openTag); write(c); emit(closeTag)
        }
    }

    // MARK: Emphasis

    private enum Edge { case word, space, punct, star }

    /// `*text*` when the delimiters are sure to be read back as written (word characters at both inner
    /// edges), else the HTML tags, which always are.
    private mutating func delimited(_ c: [Inline], _ delim: String, _ openTag: String, _ closeTag: String, allowStar: Bool) {
        let index = delimitedCount
        delimitedCount += 1
        let first = Self.edge(c, first: true, owner: owner), last = Self.edge(c, first: false, owner: owner)
        let ok: (Edge) -> Bool = { $0 == .word || (allowStar && $0 == .star) }
        var useDelimiters = !c.isEmpty && ok(first) && ok(last)
        var checkAfter = false
        if !useDelimiters, !c.isEmpty, !forcedTags.contains(index) {
            // Punctuation inside is fine when a space (or the line edge) is on the other side of the delimiter.
            let spaceBefore = atLineStart || !heldSpaces.isEmpty
                || bytes.last.map { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") } ?? true
            if (ok(first) || (first == .punct && spaceBefore)) && (ok(last) || last == .punct) {
                useDelimiters = true
                checkAfter = last == .punct
            }
        }
        if useDelimiters {
            emit(delim); write(c); emit(delim)
            if checkAfter { afterChecks.append((bytes.count, index)) }
        } else {
            emit(openTag); write(c); emit(closeTag)
        }
    }

    /// Whether emphasis or strong with these children is written with `*`.
    static func usesStar(_ c: [Inline], owner: MarkdownRenderer) -> Bool {
        let f = edge(c, first: true, owner: owner), l = edge(c, first: false, owner: owner)
        return !c.isEmpty && (f == .word || f == .star) && (l == .word || l == .star)
    }

    private static func edge(_ c: [Inline], first: Bool, owner: MarkdownRenderer) -> Edge {
        guard let i = first ? c.first : c.last else { return .punct }
        switch i {
        case .text(let s):
            guard let u = first ? s.unicodeScalars.first : s.unicodeScalars.last else { return .punct }
            if u.isASCII ? CharacterClass.isASCIIWhitespace(u) : u.properties.isWhitespace { return .space }
            // Reserved characters are written as placeholders, which begin and end with punctuation.
            if Placeholder.isReserved(u.value) || u == Placeholder.sentinel { return .punct }
            if u.isASCII ? isASCIIPunctuation(UInt8(u.value)) : isUnicodePunctuation(u) { return .punct }
            if u == "&" || u == "\n" || u == "\r" || u == "\0" { return .punct }
            return .word
        case .emphasis(let cc), .strong(let cc):
            return usesStar(cc, owner: owner) ? .star : .punct
        case .softBreak, .lineBreak: return .space
        default: return .punct
        }
    }

    private static func isUnicodePunctuation(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    // MARK: Math

    /// `$tex$` or `$$tex$$`, the TeX byte for byte where Markdown can hold it: an inline formula cannot start
    /// or end with a space, no formula can hold a blank line, and in a table cell, heading or container
    /// (whose lines get prefixes) line ends become spaces. A `|` in a cell's math needs no escape: the reader
    /// takes the math out before cmark-gfm splits the row.
    private mutating func math(_ kind: MathKind, _ tex: String) {
        let delimiter = kind == .display ? "$$" : "$"
        func oneLine(_ t: String) -> String { t.split(whereSeparator: \.isNewline).joined(separator: " ") }
        /// Whether `t` between the delimiters reads back as this math, whole.
        func reads(_ t: String) -> Bool {
            let b = Array((delimiter + t + delimiter).utf8)
            var memo = MathSpans.Memo()
            return b.withUnsafeBufferPointer { MathSpans.match($0, at: 0, memo: &memo)?.end == b.count }
        }
        var t = tex
        if kind == .inline { t = t.trimmingCharacters(in: .whitespacesAndNewlines) }
        if inCell || inHeading || owner.containerDepth > 0 || !reads(t) { t = oneLine(t) }
        guard !t.isEmpty else { return }
        // TeX no delimiters hold (inline math starting with `$`, math ending in a backslash): its source as
        // text, so that it reads back as the same characters rather than as Markdown.
        guard reads(t) else {
            owner.loss(.lossyMath, "equations no $ delimiters can hold were written as text")
            text(delimiter + t + delimiter)
            return
        }
        if !heldSpaces.isEmpty { bytes += heldSpaces.utf8; heldSpaces = "" }
        let open = bytes.count
        emit(delimiter + t + delimiter)
        mathWritten.append((open, bytes.count))
        if separatedMath.contains(mathWritten.count - 1) { emit("[]{}") }
    }

    // MARK: Code, links

    private mutating func code(_ s: String) {
        var content = s
        if inCell { content = String(content.flatMap { $0 == "|" ? ["\\", "|"] : [$0] }) }
        var longest = 0, run = 0
        for c in content.unicodeScalars {
            if c == "`" { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = content.hasPrefix("`") || content.hasSuffix("`")
            || (content.hasPrefix(" ") && content.hasSuffix(" ") && content.contains { $0 != " " })
        emit(fence + (pad ? " " : "") + content + (pad ? " " : "") + fence)
    }

    /// `<url>` reads back as this link: an absolute URL (or an e-mail address for `mailto:`) shown as itself.
    static func isAutolink(text: String, url: String) -> Bool {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "<" && $0 != ">" && $0 != "\\" && $0.value != 0x7F && !$0.properties.isWhitespace }
        guard plain else { return false }
        if url == "mailto:" + text {
            return text.contains("@") && !text.contains(":") && text.unicodeScalars.allSatisfy { $0.isASCII }
        }
        guard url == text, let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        return scheme.count >= 2 && scheme.count <= 32 && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-") }
            && !text.contains("&") && !text.contains("\u{2E2A}")
    }

    static func destination(_ url: String) -> String {
        let safe = !url.isEmpty && url.unicodeScalars.allSatisfy { c in
            c.value > 0x20 && c != "(" && c != ")" && c != "<" && c != ">" && c != "\\" && c != "`" && c != "&" && c != "\u{7F}"
                && c != "{" && c != "}"
        }
        if safe { return url }
        var s = "<"
        for c in url.unicodeScalars {
            switch c {
            // A bare backtick could open a code span that ends in a later backtick, which takes precedence
            // over the link (and the CriticMarkup pre-pass would skip the marks up to it).
            // A brace escaped keeps a `--}` or `{>>` in a URL from reading as a CriticMarkup mark.
            case "<", ">", "\\", "`", "{", "}": s += "\\"; s.unicodeScalars.append(c)
            case "&": s += "&amp;"
            case "\n": s += "%0A"
            case "\r": s += "%0D"
            default: s.unicodeScalars.append(c)
            }
        }
        return s + ">"
    }

    static func title(_ t: String) -> String {
        guard !t.isEmpty else { return "" }
        var s = " \""
        for c in t.unicodeScalars {
            switch c {
            case "\"", "\\", "`", "{", "}": s += "\\"; s.unicodeScalars.append(c)
            case "&": s += "&amp;"
            case "\n": s += "&#10;"
            case "\r": s += "&#13;"
            default: s.unicodeScalars.append(c)
            }
        }
        return s + "\""
    }

    // MARK: Comments

    /// Writes a comment and its replies. `attached` means the comment follows `==}` on purpose.
    private mutating func writeThread(_ id: String, rangeName: String?, attached: Bool = false) {
        guard !owner.inCommentBody, let comment = owner.takeComment(id) else { return }
        if commentWouldAttach && !attached { emit("[]{}") }
        emit("{>>" + owner.commentText(comment, rangeName: rangeName) + "<<}")
        for reply in owner.takeReplies(id) {
            emit("{>>" + owner.commentText(reply, rangeName: nil) + "<<}")
        }
        commentWouldAttach = true
    }

    /// Comment ranges that can use the short form: start and end both here, not inside a highlight or a
    /// formatting change, and nothing between them that the short form could not hold.
    static func shortRanges(in inlines: [Inline]) -> Set<String> {
        func hasStart(_ ins: [Inline]) -> Bool {
            ins.contains { i in
                if case .commentStart = i { return true }
                return hasStart(i.children)
            }
        }
        guard hasStart(inlines) else { return [] }  // most paragraphs
        enum Event { case start(String, Bool), end(String, Bool), other }
        var events: [Event] = []
        func walk(_ ins: [Inline], inHighlight: Bool) {
            for i in ins {
                switch i {
                case .commentStart(let id): events.append(.start(id, inHighlight))
                case .commentEnd(let id): events.append(.end(id, inHighlight))
                case .commentPoint: events.append(.other)
                case .highlight(let c), .formatChange(_, let c):
                    events.append(.other); walk(c, inHighlight: true); events.append(.other)
                default: walk(i.children, inHighlight: inHighlight)
                }
            }
        }
        walk(inlines, inHighlight: false)
        var out = Set<String>()
        for (k, e) in events.enumerated() {
            guard case .start(let id, false) = e, k + 1 < events.count, case .end(let endID, false) = events[k + 1],
                  endID == id else { continue }
            out.insert(id)
        }
        return out
    }
}


internal import CCmarkGFM
import RedlineCore

/// The leaves of a Markdown source (paragraphs, headings, code blocks, table cells) with where their
/// text lies in the source bytes: what `MarkdownSourceApply` needs to write a change at its place.
/// Found by a cmark parse of its own, which keeps every node's source position (the reader's mirror keeps
/// only block lines).
struct SourceLeaves {
    /// A construct whose source must be changed whole or only inside its content: emphasis, strong,
    /// strikethrough, link (content: its text), or an atom (code span, entity, picture, note reference,
    /// inline HTML; no content).
    struct Construct {
        /// `emph`, `strong`, `strikethrough`, `link`, or `atom`.
        var kind: String
        var source: Range<Int>
        var content: Range<Int>?
    }

    struct Leaf {
        var kind: String
        /// The whole block (for a heading its `#` line, for code its fence), and the top-level block holding it.
        var block: Range<Int>
        var topLevel: Range<Int>
        /// Where its inline content lies (for code, the code's lines).
        var content: Range<Int>
        var text: String
        /// Text offset → source offset for every text byte that stands for itself in the source; -1 elsewhere.
        var map: [Int]
        var constructs: [Construct]
        var inTable: Bool
        var inList: Bool
        /// True when every text byte maps (the text could be aligned with the source).
        var mapped: Bool
    }

    var leaves: [Leaf] = []
    /// Each footnote definition's leaves, by its label as the reader names the note (the first definition of a
    /// label; `leaves` holds the body's only).
    var notes: [String: [Leaf]] = [:]
    private let text: [UInt8]
    private var lineStarts: [Int] = [0]

    /// Parses `text` (the body, after any front matter), offsets relative to `base` added.
    init(_ text: [UInt8]) {
        self.text = text
        for (k, b) in text.enumerated() where b == UInt8(ascii: "\n") { lineStarts.append(k + 1) }
        Cmark.ensureExtensions()
        let options = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE
        Cmark.parseLock.lock()
        defer { Cmark.parseLock.unlock() }
        guard let parser = cmark_parser_new(Int32(options)) else { return }
        defer { cmark_parser_free(parser) }
        for name in ["table", "strikethrough"] {
            if let ext = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, ext) }
        }
        text.withUnsafeBufferPointer { buf in
            buf.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buf.count) { cmark_parser_feed(parser, $0, buf.count) }
            }
        }
        guard let root = cmark_parser_finish(parser) else { return }
        defer { cmark_node_free(root) }
        var child = cmark_node_first_child(root)
        while let c = child {
            let top = range(c)
            blocks(c, top: top, inTable: false, inList: false)
            child = cmark_node_next(c)
        }
    }

    private func type(_ n: OpaquePointer) -> String { String(cString: cmark_node_get_type_string(n)) }

    private func offset(line: Int32, column: Int32) -> Int {
        let l = Int(line) - 1
        guard l >= 0, l < lineStarts.count else { return text.count }
        return min(lineStarts[l] + max(Int(column) - 1, 0), text.count)
    }

    private func range(_ n: OpaquePointer) -> Range<Int> {
        let s = offset(line: cmark_node_get_start_line(n), column: cmark_node_get_start_column(n))
        let e = min(offset(line: cmark_node_get_end_line(n), column: cmark_node_get_end_column(n)) + 1, text.count)
        return s..<max(s, e)
    }

    private func literal(_ n: OpaquePointer) -> String {
        guard let p = cmark_node_get_literal(n) else { return "" }
        return String(cString: p)
    }

    private func hasPosition(_ n: OpaquePointer) -> Bool { cmark_node_get_start_line(n) > 0 }

    private mutating func blocks(_ n: OpaquePointer, top: Range<Int>, inTable: Bool, inList: Bool) {
        // (cmark-gfm names a footnote definition's type "<unknown>".)
        let t = cmark_node_get_type(n) == CMARK_NODE_FOOTNOTE_DEFINITION ? "footnote_definition" : type(n)
        switch t {
        case "paragraph", "heading", "table_cell":
            leaf(n, kind: t, top: top, inTable: inTable, inList: inList)
        case "code_block":
            let r = range(n)
            var lit = literal(n)
            if lit.hasSuffix("\n") { lit.removeLast() }
            leaves.append(Leaf(kind: t, block: r, topLevel: top, content: r, text: lit, map: [], constructs: [],
                               inTable: inTable, inList: inList, mapped: false))
        case "footnote_definition":
            // Its label from its source, the last `[^label]:` before its content, on its line or the one before
            // (cmark gives none).
            let r = range(n)
            var from = text[..<r.lowerBound].lastIndex(of: UInt8(ascii: "\n")) ?? 0
            if from > 0 { from = text[..<from].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0 }
            let head = text[from..<r.lowerBound]
            guard let open = head.indices.last(where: { text[$0] == UInt8(ascii: "[") && $0 + 1 < r.lowerBound && text[$0 + 1] == UInt8(ascii: "^") }),
                  let close = text[(open + 2)..<r.lowerBound].firstIndex(of: UInt8(ascii: "]")) else { return }
            let label = Segmenter.normalizeLabel(text[(open + 2)..<close])
            guard notes[label] == nil else { return }
            let body = leaves
            leaves = []
            var child = cmark_node_first_child(n)
            while let c = child {
                blocks(c, top: range(c), inTable: false, inList: false)
                child = cmark_node_next(c)
            }
            notes[label] = leaves
            leaves = body
        case "html_block", "thematic_break": return
        default:
            var child = cmark_node_first_child(n)
            while let c = child {
                blocks(c, top: top, inTable: inTable || t == "table", inList: inList || t == "list")
                child = cmark_node_next(c)
            }
        }
    }

    /// One leaf: its text and map from its inline children.
    private mutating func leaf(_ n: OpaquePointer, kind: String, top: Range<Int>, inTable: Bool, inList: Bool) {
        var w = Walk(text: text)
        // A line block (`| line` on every line) reads as its lines without the bars, hard breaks between them
        // and leading spaces no-break ones (`LineBlocks`): its walk does the same.
        if kind == "paragraph", let at = Optional(range(n).lowerBound), at < text.count, text[at] == UInt8(ascii: "|") {
            let column = cmark_node_get_start_column(n)
            let lines = Int(cmark_node_get_start_line(n))...Int(max(cmark_node_get_start_line(n), cmark_node_get_end_line(n)))
            let sourceLines = lines.map { l -> ArraySlice<UInt8> in
                let s = offset(line: Int32(l), column: column)
                return text[s..<(text[s...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count)]
            }
            w.lineBlock = LineBlocks.isLineBlock(sourceLines: sourceLines)
        }
        var child = cmark_node_first_child(n)
        var first: Int?, last = 0
        while let c = child {
            inline(c, into: &w)
            if hasPosition(c) {
                let r = range(c)
                if first == nil { first = r.lowerBound }
                last = max(last, r.upperBound)
            }
            child = cmark_node_next(c)
        }
        let block = range(n)
        // Code spans' backticks lie outside cmark's position of the code.
        for c in w.constructs {
            first = min(first ?? c.source.lowerBound, c.source.lowerBound)
            last = max(last, c.source.upperBound)
        }
        let content = (first ?? block.lowerBound)..<max(first ?? block.lowerBound, last)
        foldInlineNotes(&w, content)
        leaves.append(Leaf(kind: kind, block: block, topLevel: top, content: content, text: w.out,
                           map: w.map, constructs: w.constructs, inTable: inTable, inList: inList, mapped: w.ok))
    }

    /// pandoc's inline notes `^[…]` in a leaf (text to cmark, a note to the reader): each one atom, its text one
    /// object character, as the reader's note reference. Edits inside one are not placed (it has no definition's
    /// leaves).
    private func foldInlineNotes(_ w: inout Walk, _ content: Range<Int>) {
        guard w.bytes.count >= 2, w.bytes.contains(UInt8(ascii: "^")) else { return }
        var k = content.lowerBound
        var matches: (pairs: [Int: Int], end: Int) = ([:], 0)
        while k + 1 < content.upperBound {
            defer { k += 1 }
            guard text[k] == UInt8(ascii: "^"), text[k + 1] == UInt8(ascii: "["),
                  let t0 = w.map.firstIndex(of: k) else { continue }
            if k + 1 >= matches.end { matches = text.withUnsafeBufferPointer { InlineNotes.matches($0, from: k + 1) } }
            guard let end = matches.pairs[k + 1], end <= content.upperBound else { continue }
            guard let t1 = w.map.lastIndex(where: { $0 >= k && $0 < end }), t1 >= t0 else { continue }
            let object = Array(ApplyPlan.objectCharacter.utf8)
            w.bytes.replaceSubrange(t0...t1, with: object)
            w.map.replaceSubrange(t0...t1, with: repeatElement(-1, count: object.count))
            w.constructs.removeAll { $0.source.lowerBound >= k && $0.source.upperBound <= end }
            w.constructs.append(Construct(kind: "atom", source: k..<end, content: nil))
            k = end - 1
        }
    }

    /// The state of one leaf's walk.
    private struct Walk {
        let text: [UInt8]
        /// The text's bytes (a `String` once the walk is done: `out`).
        var bytes: [UInt8] = []
        var out: String { String(decoding: bytes, as: UTF8.self) }
        var map: [Int] = []
        var constructs: [Construct] = []
        var ok = true
        var previousEnd: Int?
        /// Walking a line block, and at the start of one of its lines.
        var lineBlock = false
        var atLineStart = true

        init(text: [UInt8]) { self.text = text }

        mutating func unmapped(_ s: String) {
            bytes += s.utf8
            map += repeatElement(-1, count: s.utf8.count)
        }

        /// Aligns a text node's literal with its source (escapes and entities decoded by cmark).
        mutating func literal(_ lit: [UInt8], source: Range<Int>) {
            var i = 0, s = source.lowerBound
            while i < lit.count {
                guard s < source.upperBound else { ok = false; unmapped(String(decoding: lit[i...], as: UTF8.self)); return }
                let b = text[s]
                if b == lit[i] {
                    appendByte(lit[i], at: s)
                    i += 1; s += 1
                } else if b == UInt8(ascii: "\\"), s + 1 < source.upperBound, text[s + 1] == lit[i] {
                    appendByte(lit[i], at: s + 1)
                    i += 1; s += 2
                } else if b == UInt8(ascii: "&"), let semi = text[s..<source.upperBound].prefix(34).firstIndex(of: UInt8(ascii: ";")) {
                    // An entity: its decoded scalar(s) as an atom.
                    var k = i + 1
                    while k < lit.count, lit[k] & 0xC0 == 0x80 { k += 1 }
                    if semi + 1 < source.upperBound, k < lit.count, text[semi + 1] != lit[k] {
                        k += 1
                        while k < lit.count, lit[k] & 0xC0 == 0x80 { k += 1 }
                    }
                    constructs.append(Construct(kind: "atom", source: s..<semi + 1, content: nil))
                    unmappedBytes(Array(lit[i..<k]))
                    i = k; s = semi + 1
                } else {
                    ok = false
                    unmapped(String(decoding: lit[i...], as: UTF8.self))
                    return
                }
            }
        }

        // Bytes are kept as bytes and decoded once (a scalar may arrive a byte at a time): appending them to a
        // `String` one by one took a fifth of `redline apply` on the 600,000-word manuscript.
        mutating func appendByte(_ b: UInt8, at s: Int) {
            bytes.append(b)
            map.append(s)
        }

        mutating func unmappedBytes(_ b: [UInt8]) {
            bytes += b
            map += repeatElement(-1, count: b.count)
        }
    }

    private func inline(_ n: OpaquePointer, into w: inout Walk) {
        let t = type(n)
        let r = hasPosition(n) ? range(n) : nil
        switch t {
        case "text" where w.lineBlock && w.atLineStart:
            // `| ` and the spaces after it: the bar unwritten, each space a no-break space in the model.
            w.atLineStart = false
            var lit = Array(literal(n).utf8)
            guard let r, lit.first == UInt8(ascii: "|"), text[r.lowerBound] == UInt8(ascii: "|") else { w.ok = false; w.unmappedBytes(lit); return }
            var from = r.lowerBound + 1
            lit.removeFirst()
            if lit.first == UInt8(ascii: " ") { lit.removeFirst(); from += 1 }
            while lit.first == UInt8(ascii: " ") {
                lit.removeFirst()
                from += 1
                w.unmapped("\u{A0}")
            }
            w.literal(lit, source: from..<max(from, r.upperBound))
        case "text":
            let lit = Array(literal(n).utf8)
            if let r { w.literal(lit, source: r) } else { w.ok = false; w.unmappedBytes(lit) }
        case "softbreak" where w.lineBlock, "linebreak" where w.lineBlock:
            w.unmapped("\n")
            w.atLineStart = true
        case "softbreak": w.unmapped(" ")
        case "linebreak": w.unmapped("\n")
        case "code":
            let lit = literal(n)
            if let r {
                // cmark's position is the content's; the backticks around are the atom's too.
                var s = r.lowerBound, e = r.upperBound
                while s > 0, text[s - 1] == UInt8(ascii: " ") || text[s - 1] == UInt8(ascii: "`") { s -= 1 }
                while e < text.count, text[e] == UInt8(ascii: " ") || text[e] == UInt8(ascii: "`") { e += 1 }
                w.constructs.append(Construct(kind: "atom", source: s..<e, content: nil))
            } else { w.ok = false }
            w.unmapped(lit)
        case "html_inline":
            if let r { w.constructs.append(Construct(kind: "atom", source: r, content: nil)) }
        case "image", "footnote_reference":
            if let r { w.constructs.append(Construct(kind: "atom", source: r, content: nil)) } else { w.ok = false }
            w.unmapped(ApplyPlan.objectCharacter)
        default:
            // emph, strong, strikethrough, link: content is the children's span.
            var child = cmark_node_first_child(n)
            var first: Int?, last = 0
            while let c = child {
                inline(c, into: &w)
                if hasPosition(c) {
                    let cr = range(c)
                    if first == nil { first = cr.lowerBound }
                    last = max(last, cr.upperBound)
                }
                child = cmark_node_next(c)
            }
            if let r {
                let content = first.map { $0..<max($0, last) }
                w.constructs.append(Construct(kind: t, source: r, content: content ?? r.lowerBound..<r.lowerBound))
            } else { w.ok = false }
        }
    }
}

import Foundation
import RedlineCore

/// Writes an `ApplyPlan` into a Markdown source: every byte no step names is copied, and each change is
/// CriticMarkup at the smallest span of the source that holds it (`{++…++}`, `{--…--}`, `{~~…~>…~~}`, each
/// attributed `{>>@Author (date)<<}`; comments `{==…==}{>>…<<}`). An edit whose ends fall inside a
/// construct's syntax (emphasis delimiters, a link's target, a code span) takes the whole paragraph's text.
/// Deleted text is ORIGINAL's own bytes, added text sits inside marks only: removing the marks the way
/// rejecting does gives ORIGINAL byte for byte.
public enum MarkdownSourceApply {
    /// Writes `original` with `plan` into `output`: changes marked, or applied when `accept`.
    public static func apply(_ plan: ApplyPlan, original: DocumentInput, accept: Bool, limits: Limits,
                             diagnostics: Diagnostics, into output: any ByteOutput) throws {
        // The pipeline's own read (FileManager.contents(atPath:) leaks its buffer on an empty file: fuzz-apply).
        let raw = try original.readAll()
        let text = MarkdownSource.normalized(raw)
        let crlf = text != raw
        if crlf, restoringCRLF(text) != raw {
            throw RedlineError.usage("mixed line ends or text that is not UTF-8: changes cannot be written into it byte for byte")
        }
        let marks = try MarkPositions(scanning: text)
        if !marks.changes.isEmpty || !marks.comments.isEmpty {
            throw RedlineError.usage("it already holds CriticMarkup changes or comments; accept or reject them first (redline convert --changes accept|reject)")
        }
        if let (opener, line) = firstOpener(text) {
            throw RedlineError.usage("line \(line) holds `\(opener)`, which a CriticMarkup editor reads as the start of a change (it would pair it with a mark written after it): changes cannot be written into it so that rejecting them gives it back")
        }
        let (_, bodyStart, _) = FrontMatter.read(text, diagnostics: Diagnostics())
        let body = Array(text[bodyStart...])
        var w = Writer(plan: plan, body: body, accept: accept, diagnostics: diagnostics)
        w.run()
        // Each changed note: its plan written over its definition's leaves, into the same replacements.
        for note in plan.notes {
            guard let leaves = w.src.notes[note.id] else {
                w.unplaced += note.plan.steps.count
                continue
            }
            var src = w.src
            src.leaves = leaves
            var n = Writer(plan: note.plan, body: body, src: src, accept: accept, diagnostics: diagnostics)
            n.run()
            w.replacements += n.replacements
            w.unplaced += n.unplaced
        }
        var out = Array(text[..<bodyStart])
        let (bytes, dropped) = w.result()
        out += bytes
        if w.unplaced + dropped > 0 {
            diagnostics.report(.applyUnplaced, "\(w.unplaced + dropped) changes could not be placed in the Markdown source and were left out",
                               count: w.unplaced + dropped)
        }
        if crlf { out = restoringCRLF(out) }
        try output.write(bytes: out)
    }

    static let openers = ["{++", "{--", "{~~", "{==", "{>>"].map { Array($0.utf8) }

    /// The first CriticMarkup opening sequence in `text` (unclosed, or in code where the reader sees no mark)
    /// and its line: text tools pair it with the closing sequence of a mark written after it.
    static func firstOpener(_ text: [UInt8]) -> (String, Int)? {
        var line = 1
        var i = 0
        while i + 2 < text.count {
            if text[i] == UInt8(ascii: "\n") { line += 1 }
            if text[i] == UInt8(ascii: "{"), let o = openers.first(where: { $0[1] == text[i + 1] && $0[2] == text[i + 2] }) {
                return (String(decoding: o, as: UTF8.self), line)
            }
            i += 1
        }
        return nil
    }

    /// `open` + `body` + `close` (a CriticMarkup mark) read back as `body` by a text tool, which ends a mark
    /// at the first `close` after `open`: each `close` inside `body` (`--}` in deleted source) ends one mark
    /// before its `}` and a new mark holds the rest (`a --} b` → `{--a ----}{--} b--}`).
    static func enclosed(_ open: String, _ body: String, _ close: String) -> String {
        let b = Array(body.utf8), c = Array(close.utf8)
        guard b.count >= c.count else { return open + body + close }
        var out: [UInt8] = Array(open.utf8)
        out.reserveCapacity(b.count + open.utf8.count + close.utf8.count)
        var i = 0
        while i < b.count {
            if i + c.count <= b.count, b[i] == c[0], b[i + 1] == c[1], b[i + 2] == c[2] {
                out += [c[0], c[1]] + c + Array(open.utf8)
                i += 2
                continue
            }
            out.append(b[i])
            i += 1
        }
        out += c
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `s` holds the three bytes of `seq`.
    static func holds(_ s: String, _ seq: String) -> Bool {
        let b = Array(s.utf8), q = Array(seq.utf8)
        guard b.count >= q.count else { return false }
        for i in 0...(b.count - q.count) where b[i] == q[0] && b[i + 1] == q[1] && (q.count < 3 || b[i + 2] == q[2]) {
            return true
        }
        return false
    }

    static func restoringCRLF(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count + b.count / 32)
        for x in b {
            if x == UInt8(ascii: "\n") { out.append(UInt8(ascii: "\r")) }
            out.append(x)
        }
        return out
    }

    /// Source replacements, worked out step by step.
    struct Writer {
        let plan: ApplyPlan
        let body: [UInt8]
        let accept: Bool
        let diagnostics: Diagnostics
        let src: SourceLeaves
        /// For each of the plan's leaves, the source leaf it is.
        var pairs: [Int?] = []
        var replacements: [(range: Range<Int>, text: String)] = []
        /// Replacements that go after any other at the same place (a heading's old marker after its text).
        var tails: [(range: Range<Int>, text: String)] = []
        let renderer: MarkdownRenderer
        /// The notes new text may reference (`ApplyPlan.referableNotes`), by id.
        var referable: [String: Note] = [:]
        var unplaced = 0
        /// Source ranges already highlighted for a comment in the current leaf: CriticMarkup highlights do
        /// not nest or cross (another leaf's never touch this one's: cleared for each leaf).
        var highlighted: [Range<Int>] = []
        /// How many source leaves each top-level block holds.
        let leavesInTopLevel: [Range<Int>: Int]

        /// `src`: the source's leaves already found (a note's writer takes its definition's), else parsed here.
        init(plan: ApplyPlan, body: [UInt8], src given: SourceLeaves? = nil, accept: Bool, diagnostics: Diagnostics) {
            self.plan = plan
            self.body = body
            self.accept = accept
            self.diagnostics = diagnostics
            src = given ?? SourceLeaves(body)
            renderer = MarkdownRenderer(options: WriteOptions(), diagnostics: Diagnostics())
            renderer.register(plan.comments)
            for n in plan.referableNotes { referable[n.id] = n }
            pairs = Self.match(plan.leaves.map(\.text), src.leaves.map(\.text))
            var counts: [Range<Int>: Int] = [:]
            for l in src.leaves { counts[l.topLevel, default: 0] += 1 }
            leavesInTopLevel = counts
        }

        /// Pairs the plan's leaves with the source's in order: equal texts, skipping up to 16 on either side
        /// to find one; a leaf left between two pairs is paired with the source leaf in the same place.
        static func match(_ a: [String], _ b: [String]) -> [Int?] {
            var out = [Int?](repeating: nil, count: a.count)
            var j = 0
            var i = 0
            while i < a.count, j < b.count {
                if a[i] == b[j] { out[i] = j; i += 1; j += 1; continue }
                if let d = (1...16).first(where: { j + $0 < b.count && b[j + $0] == a[i] }) { j += d; continue }
                if (1...16).contains(where: { i + $0 < a.count && a[i + $0] == b[j] }) { i += 1; continue }
                out[i] = j
                i += 1; j += 1
            }
            return out
        }

        func source(_ r: Range<Int>) -> String { String(decoding: body[r], as: UTF8.self) }

        func attribution(_ c: Change) -> String { renderer.attributionComment(c) }

        mutating func run() {
            for step in plan.steps {
                switch step {
                case .edit(let k, let edits, let markDeleted):
                    guard let j = pairs[k] else { unplaced += 1; continue }
                    edit(k, src.leaves[j], edits)
                    if let c = markDeleted { joinNext(j, c) }
                case .delete(let k, let c):
                    guard let j = pairs[k] else { unplaced += 1; continue }
                    delete(src.leaves[j], c)
                case .insert(let after, let blocks, let whole, let path, let c):
                    insert(after: after.flatMap { pairs[$0] }, hadAfter: after != nil, blocks, whole: whole,
                           path: path, c)
                case .restyle(let k, let old, let new, let c):
                    guard let j = pairs[k], restyle(src.leaves[j], old: old, new: new, c) else { unplaced += 1; continue }
                }
            }
            replacements += tails
        }

        // MARK: Writing a mark

        func marked(old: String, new: String, _ c: Change) -> String {
            if accept { return new }
            if old.isEmpty { return new.isEmpty ? "" : inserted(new) + attribution(c) }
            if new.isEmpty { return deleted(old) + attribution(c) }
            // A text tool takes a substitution's old text up to its first `~>` and ends it at the first `~~}`:
            // old text holding either, or new text holding `~~}`, is a deletion and an insertion instead.
            if MarkdownSourceApply.holds(old, "~>") || MarkdownSourceApply.holds(old, "~~}") || MarkdownSourceApply.holds(new, "~~}") {
                return deleted(old) + attribution(c) + inserted(new) + attribution(c)
            }
            return "{~~" + old + "~>" + new + "~~}" + attribution(c)
        }

        func deleted(_ s: String) -> String { MarkdownSourceApply.enclosed("{--", s, "--}") }
        func inserted(_ s: String) -> String { MarkdownSourceApply.enclosed("{++", s, "++}") }

        /// Inlines as Markdown, their leading and trailing spaces kept (a paragraph writer trims them).
        func render(_ inlines: [Inline], inTable: Bool) -> String {
            let flat = inlines.map { i -> Inline in if case .softBreak = i { return .text(" ") }; return i }
            let plain = ApplyPlan.text(of: flat, view: .accept)
            guard !plain.isEmpty else { return "" }
            let lead = plain.prefix { $0 == " " }.count, trail = plain.reversed().prefix { $0 == " " }.count
            guard lead < plain.count else { return plain }
            // The notes it references, so that the references are written (an inline note whole); a definition
            // the writer puts after the paragraph is cut off (ORIGINAL keeps its own).
            var notes: [Note] = []
            func collect(_ xs: [Inline]) {
                for i in xs {
                    if case .noteReference(let id) = i, let n = referable[id] { notes.append(n) } else { collect(i.children) }
                }
            }
            collect(flat)
            var s = (try? MarkdownWriter.string(Document(blocks: [.paragraph(Paragraph(flat))], notes: notes))) ?? plain
            if !notes.isEmpty, let cut = s.range(of: "\n\n") { s = String(s[..<cut.lowerBound]) }
            while s.hasSuffix("\n") { s.removeLast() }
            s = s.trimmingCharacters(in: .whitespaces)
            if inTable { s = s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\\\\|", with: "\\|") }
            return String(repeating: " ", count: lead) + s + String(repeating: " ", count: trail)
        }

        // MARK: Steps

        mutating func edit(_ k: Int, _ leaf: SourceLeaves.Leaf, _ edits: [TextEdit]) {
            if leaf.kind == "code_block" { return codeEdit(k, leaf, edits) }
            highlighted.removeAll(keepingCapacity: true)
            let changes = edits.filter { if case .comment = $0.kind { return false }; return true }
            var placed: [(range: Range<Int>, text: String)] = []
            var whole = !leaf.mapped || leaf.text != plan.leaves[k].text
            if !whole {
                for e in changes {
                    var rotated = false
                    guard var (r, stack) = place(e.range, in: leaf, inserted: e.inserted) else { whole = true; break }
                    // A mark right after `]` would read as a span's attributes (`[text]{…}`): a change that
                    // starts with a space moves one space on when the same space follows it.
                    if r.lowerBound > 0, body[r.lowerBound - 1] == UInt8(ascii: "]") {
                        let first = r.isEmpty ? Array(ApplyPlan.text(of: e.inserted, view: .accept).utf8).first
                                              : body[r.lowerBound]
                        guard first == UInt8(ascii: " "), r.upperBound < leaf.content.upperBound,
                              body[r.upperBound] == UInt8(ascii: " ") else { whole = true; break }
                        r = (r.lowerBound + 1)..<(r.upperBound + 1)
                        rotated = true
                    }
                    if let last = placed.last, last.range.upperBound > r.lowerBound { whole = true; break }
                    var new = render(strip(e.inserted, stack), inTable: leaf.inTable)
                    if rotated, new.hasPrefix(" ") { new = String(new.dropFirst()) + " " }
                    placed.append((r, marked(old: source(r), new: new, e.change)))
                }
            }
            if whole, !changes.isEmpty {
                let new = render(splice(plan.leaves[k].block.paragraph?.content ?? [], changes), inTable: leaf.inTable)
                placed = [(leaf.content, marked(old: source(leaf.content), new: new, changes[0].change))]
            }
            replacements += placed
            if !accept { comments(edits, leaf, avoiding: placed.map(\.range), whole: whole) }
        }

        /// Where a text range lies in the source, and the constructs around it (outermost first); nil when
        /// an end falls in syntax.
        func place(_ t: Range<Int>, in leaf: SourceLeaves.Leaf, inserted: [Inline]) -> (Range<Int>, [String])? {
            let map = leaf.map
            var r: Range<Int>
            if t.isEmpty {
                var s: Int
                if t.lowerBound > 0, map[t.lowerBound - 1] >= 0 { s = map[t.lowerBound - 1] + 1 }
                else if t.lowerBound < map.count, map[t.lowerBound] >= 0 { s = map[t.lowerBound] }
                else if t.lowerBound == 0, map.isEmpty { s = leaf.content.lowerBound }
                else { return nil }
                // After a construct's content: outside it unless the insertion carries its formatting.
                let kinds = wrapperKinds(inserted)
                while let c = leaf.constructs.first(where: { $0.content?.upperBound == s && $0.kind != "atom"
                                                             && !kinds.contains($0.kind) }) {
                    s = c.source.upperBound
                }
                r = s..<s
            } else {
                guard t.upperBound <= map.count, map[t.lowerBound] >= 0, map[t.upperBound - 1] >= 0 else { return nil }
                r = map[t.lowerBound]..<(map[t.upperBound - 1] + 1)
                // A deletion that takes a construct's whole content takes the construct.
                while let c = leaf.constructs.first(where: { $0.content == r && $0.source != r }) { r = c.source }
            }
            var stack: [(Int, String)] = []
            for c in leaf.constructs {
                let inside = c.content.map { $0.lowerBound <= r.lowerBound && r.upperBound <= $0.upperBound } ?? false
                let covers = r.lowerBound <= c.source.lowerBound && c.source.upperBound <= r.upperBound && !r.isEmpty
                let apart = r.upperBound <= c.source.lowerBound || r.lowerBound >= c.source.upperBound
                if inside { stack.append((c.source.count, c.kind)); continue }
                if covers || apart { continue }
                return nil
            }
            guard leaf.content.lowerBound <= r.lowerBound, r.upperBound <= leaf.content.upperBound else { return nil }
            return (r, stack.sorted { $0.0 > $1.0 }.map(\.1))
        }

        func kind(of i: Inline) -> String? {
            switch i {
            case .emphasis: return "emph"
            case .strong: return "strong"
            case .strikethrough: return "strikethrough"
            case .link: return "link"
            default: return nil
            }
        }

        func wrapperKinds(_ inlines: [Inline]) -> Set<String> {
            var out = Set<String>()
            var cur = inlines
            while cur.count == 1, let k = kind(of: cur[0]) { out.insert(k); cur = cur[0].children }
            return out
        }

        /// `inlines` without the outer formatting the source already gives them.
        func strip(_ inlines: [Inline], _ stack: [String]) -> [Inline] {
            var cur = inlines
            for k in stack {
                guard cur.count == 1, kind(of: cur[0]) == k else { break }
                cur = cur[0].children
            }
            return cur
        }

        /// A leaf's inlines with the edits made (their ranges in its text).
        func splice(_ inlines: [Inline], _ edits: [TextEdit]) -> [Inline] {
            var out: [Inline] = []
            var at = 0
            let total = ApplyPlan.text(of: inlines, view: .accept).utf8.count
            for e in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where e.range.lowerBound >= at {
                out += Self.slice(inlines, at..<e.range.lowerBound)
                out += e.inserted
                at = e.range.upperBound
            }
            out += Self.slice(inlines, at..<max(at, total))
            return out
        }

        /// The inlines covering text range `r`, containers kept around their cut content.
        static func slice(_ inlines: [Inline], _ r: Range<Int>) -> [Inline] {
            var out: [Inline] = []
            var pos = 0
            for i in inlines {
                let n = ApplyPlan.text(of: [i], view: .accept).utf8.count
                let s = pos, e = pos + n
                pos = e
                if n == 0 {
                    if s >= r.lowerBound && s <= r.upperBound && !r.isEmpty { out.append(i) }
                    continue
                }
                if e <= r.lowerBound || s >= r.upperBound { continue }
                if r.lowerBound <= s && e <= r.upperBound { out.append(i); continue }
                let lo = max(r.lowerBound, s) - s, hi = min(r.upperBound, e) - s
                switch i {
                case .text(let t), .code(let t):
                    let u = Array(t.utf8)
                    let piece = String(decoding: u[lo..<hi], as: UTF8.self)
                    if case .code = i { out.append(.code(piece)) } else { out.append(.text(piece)) }
                default:
                    let inner = slice(i.children, lo..<hi)
                    if !inner.isEmpty { out.append(i.mapChildren { _ in inner }) }
                }
            }
            return out
        }

        mutating func comments(_ edits: [TextEdit], _ leaf: SourceLeaves.Leaf, avoiding: [Range<Int>], whole: Bool) {
            for e in edits {
                guard case .comment(let id) = e.kind, let c = renderer.takeComment(id) else { continue }
                var r: Range<Int>? = whole ? nil : place(e.range, in: leaf, inserted: [])?.0
                // A highlight ends at the first `==}`: source holding one takes the comment at a point.
                if let x = r, MarkdownSourceApply.holds(source(x), "==}") { r = x.lowerBound..<x.lowerBound }
                if let x = r, avoiding.contains(where: { $0.overlaps(x) || ($0.isEmpty && x.contains($0.lowerBound)) })
                    || highlighted.contains(where: { $0.overlaps(x) || $0.upperBound == x.lowerBound || x.upperBound == $0.lowerBound }) {
                    r = nil
                }
                var text = "{>>" + renderer.commentText(c, rangeName: nil) + "<<}"
                for reply in renderer.takeReplies(id) { text += "{>>" + renderer.commentText(reply, rangeName: nil) + "<<}" }
                if let r, !r.isEmpty {
                    highlighted.append(r)
                    replacements.append((r.lowerBound..<r.lowerBound, "{=="))
                    replacements.append((r.upperBound..<r.upperBound, "==}" + text))
                } else {
                    let at = r?.lowerBound ?? leaf.content.upperBound
                    let after = avoiding.filter { $0.upperBound >= at && $0.lowerBound <= at }.map(\.upperBound).max() ?? at
                    replacements.append((after..<after, text))
                }
            }
        }

        /// A changed code block: the old block deleted and the new one inserted whole, around the blank
        /// line before it (the model has no change inside code, so Redline's reader keeps both unmarked;
        /// CriticMarkup editors resolve them).
        mutating func codeEdit(_ k: Int, _ leaf: SourceLeaves.Leaf, _ edits: [TextEdit]) {
            let changes = edits.filter { if case .replace = $0.kind { return true }; return false }
            guard let first = changes.first else { return }
            var code = Array(plan.leaves[k].text.utf8)
            for e in changes.reversed() where e.range.upperBound <= code.count {
                code.replaceSubrange(e.range, with: Array(ApplyPlan.text(of: e.inserted, view: .accept).utf8))
            }
            let old = source(leaf.block)
            let lines = old.split(separator: "\n", omittingEmptySubsequences: false)
            let fenced = lines.first.map { $0.hasPrefix("```") || $0.hasPrefix("~~~") } ?? false
            let open = fenced ? String(lines.first!) : "```", close = fenced && lines.count > 1 ? String(lines.last!) : "```"
            let new = open + "\n" + String(decoding: code, as: UTF8.self) + "\n" + close
            if accept { replacements.append((leaf.block, new)); return }
            let start = separatorStart(before: leaf.block.lowerBound)
            let sep = source(start..<leaf.block.lowerBound)
            replacements.append((start..<leaf.block.upperBound,
                                 deleted(sep + old) + attribution(first.change) + inserted((sep.isEmpty ? "\n\n" : sep) + new) + attribution(first.change)))
        }

        /// Where the blank lines before `offset` begin (the end of the text before them).
        func separatorStart(before offset: Int) -> Int {
            var s = offset
            while s > 0, body[s - 1] == UInt8(ascii: "\n") || body[s - 1] == UInt8(ascii: " ") { s -= 1 }
            return s
        }

        /// A paragraph made a heading, a heading's level changed, a heading made a paragraph: ORIGINAL's marker
        /// (`## `, a setext underline, closing `#`s) marked as replaced by EDITED's ATX marker, `{~~## ~>### ~~}`,
        /// `{++## ++}`, `{--## --}`, so the marks resolved as text give either version's bytes. False (nothing
        /// written) for what Markdown cannot show: a change of style alone, a table cell, a paragraph of several
        /// lines made a heading.
        mutating func restyle(_ leaf: SourceLeaves.Leaf, old: LeafProperties, new: LeafProperties, _ c: Change) -> Bool {
            guard leaf.kind == "heading" || leaf.kind == "paragraph", !leaf.inTable, !leaf.content.isEmpty,
                  new.headingLevel != old.headingLevel, (leaf.kind == "heading") == (old.headingLevel > 0),
                  (1...6).contains(new.headingLevel) || new.headingLevel == 0 else { return false }
            let space = [UInt8(ascii: " "), UInt8(ascii: "\t")]
            // ORIGINAL's marker: `## ` before the text (ATX), or the underline after it (setext), and an ATX
            // heading's closing `#`s.
            var before = leaf.content.lowerBound..<leaf.content.lowerBound
            var after = leaf.content.upperBound..<leaf.content.upperBound
            if leaf.kind == "heading" {
                let lead = body[leaf.block.lowerBound..<leaf.content.lowerBound]
                if lead.contains(UInt8(ascii: "#")) {
                    guard lead.allSatisfy({ $0 == UInt8(ascii: "#") || space.contains($0) }) else { return false }
                    before = leaf.block.lowerBound..<leaf.content.lowerBound
                    // The closing `#`s (cmark's heading ends before them): the rest of the line.
                    var e = leaf.content.upperBound
                    while e < body.count, body[e] != UInt8(ascii: "\n"), body[e] != UInt8(ascii: "\r") { e += 1 }
                    let rest = body[leaf.content.upperBound..<e]
                    guard rest.allSatisfy({ $0 == UInt8(ascii: "#") || space.contains($0) }) else { return false }
                    // Closing `#`s close any level: they go only with the heading.
                    if new.headingLevel == 0 { after = leaf.content.upperBound..<e }
                } else {
                    // Setext: the line break and the underline go (ATX says the level, or the paragraph stays one).
                    var e = leaf.content.upperBound
                    while e < body.count, body[e] == UInt8(ascii: "\n") || space.contains(body[e]) { e += 1 }
                    guard e < body.count, body[e] == UInt8(ascii: "=") || body[e] == UInt8(ascii: "-") else { return false }
                    while e < body.count, body[e] == UInt8(ascii: "=") || body[e] == UInt8(ascii: "-") || space.contains(body[e]) { e += 1 }
                    after = leaf.content.upperBound..<e
                }
            }
            // An ATX heading is one line.
            if new.headingLevel > 0, body[leaf.content].contains(UInt8(ascii: "\n")) { return false }
            let marker = new.headingLevel > 0 ? String(repeating: "#", count: new.headingLevel) + " " : ""
            // The markers themselves are marked, as any text: rejecting every mark as text gives ORIGINAL's
            // bytes and accepting them EDITED's (the guarantee fuzz-apply checks).
            replacements.append((before, marked(old: source(before), new: marker, c)))
            // After the leaf's own edits, which may insert at its end.
            if !after.isEmpty { tails.append((after, marked(old: source(after), new: "", c))) }
            return true
        }

        /// The paragraph mark after leaf `j` deleted: the blank line to the next leaf.
        mutating func joinNext(_ j: Int, _ c: Change) {
            guard j + 1 < src.leaves.count else { return }
            let a = src.leaves[j], b = src.leaves[j + 1]
            guard a.content.upperBound <= b.content.lowerBound else { return }
            let gap = a.content.upperBound..<b.content.lowerBound
            guard body[gap].allSatisfy({ $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: " ") }) else {
                unplaced += 1
                return
            }
            replacements.append((gap, accept ? " " : deleted(source(gap)) + attribution(c)))
        }

        mutating func delete(_ leaf: SourceLeaves.Leaf, _ c: Change) {
            if accept {
                // The whole top-level block when this leaf is all of it, with the blank lines before it.
                if leaf.topLevel == leaf.block || leavesInTopLevel[leaf.topLevel] == 1 {
                    let start = separatorStart(before: leaf.topLevel.lowerBound)
                    replacements.append((start..<leaf.topLevel.upperBound, ""))
                } else {
                    replacements.append((leaf.content, ""))
                }
                return
            }
            if leaf.kind == "code_block" {
                let start = separatorStart(before: leaf.block.lowerBound)
                replacements.append((start..<leaf.block.upperBound, deleted(source(start..<leaf.block.upperBound)) + attribution(c)))
                return
            }
            guard !leaf.content.isEmpty else { return }
            replacements.append((leaf.content, deleted(source(leaf.content)) + attribution(c)))
        }

        mutating func insert(after j: Int?, hadAfter: Bool, _ blocks: [Block], whole: Bool, path: [LeafContainer],
                             _ c: Change) {
            guard !blocks.isEmpty else { return }
            var rendered = (try? MarkdownWriter.string(Document(blocks: blocks))) ?? ""
            while rendered.hasSuffix("\n") { rendered.removeLast() }
            guard !rendered.isEmpty else { return }
            guard let j else {
                if hadAfter { unplaced += 1; return }
                // Before the first leaf: at the start of the body.
                let text = accept ? rendered + "\n\n" : inserted(rendered + "\n\n") + attribution(c)
                replacements.append((0..<0, text))
                return
            }
            let a = src.leaves[j]
            if !whole, a.inTable {
                // More text in the cell (a table cell holds one paragraph in Markdown).
                let inline = blocks.compactMap { $0.paragraph?.content }.map { render($0, inTable: true) }
                    .joined(separator: " ")
                let at = a.content.upperBound
                replacements.append((at..<at, accept ? " " + inline : inserted(" " + inline) + attribution(c)))
                return
            }
            if !whole, a.inList, case .item? = path.last {
                // A new list item: the line's own marker and indentation.
                var ls = a.block.lowerBound
                while ls > 0, body[ls - 1] != UInt8(ascii: "\n") { ls -= 1 }
                let prefix = String(decoding: body[ls..<a.block.lowerBound], as: UTF8.self)
                let indent = String(repeating: " ", count: prefix.count)
                let item = blocks.compactMap { $0.paragraph?.content }.map { render($0, inTable: false) }
                let text = item.map { "\n" + prefix + $0 }.joined() .replacingOccurrences(of: "\n\n", with: "\n" + indent)
                let at = a.block.upperBound
                replacements.append((at..<at, accept ? text : inserted(text) + attribution(c)))
                return
            }
            let at = whole || !a.inList ? a.topLevel.upperBound : a.block.upperBound
            replacements.append((at..<at, accept ? "\n\n" + rendered : inserted("\n\n" + rendered) + attribution(c)))
        }

        /// The body with every replacement made (in order; later ones at the same point after earlier ones).
        func result() -> ([UInt8], dropped: Int) {
            let sorted = replacements.enumerated().sorted {
                ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
            }.map(\.element)
            var out: [UInt8] = []
            out.reserveCapacity(body.count + replacements.count * 32)
            var at = 0, dropped = 0
            for r in sorted {
                guard r.range.lowerBound >= at else { dropped += 1; continue }  // overlapping: the first one wins
                out += body[at..<r.range.lowerBound]
                out += r.text.utf8
                at = r.range.upperBound
            }
            out += body[at...]
            return (out, dropped)
        }
    }
}

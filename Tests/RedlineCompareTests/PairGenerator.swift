import RedlineCore
import RedlineCompare

/// Random documents and random edit scripts over them: the pairs the exactness property runs on.
/// A document is kept as flat paragraphs (level, style, runs) and tables of one-paragraph cells, so edits
/// are simple; `document` nests the runs into inlines as the readers do.
struct PairGenerator {
    enum Item {
        case para(level: Int, style: ParagraphStyle, runs: [Run])
        case table(rows: [[[Run]]], header: Int)
        case quote([Run])
        case code([String])
    }

    /// Three small pictures of different bytes (PNG signature and a distinguishing byte), made once.
    static let pictureStore = MediaStore()
    static let pictures: [MediaItem] = (0..<3).compactMap { k in
        pictureStore.add([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, UInt8(k)], name: "p\(k).png",
                         diagnostics: Diagnostics())
    }
    static let codeLines = ["let x = 1", "print(x)", "}", "", "if a {", "  return b", "// note", "x += 2"]

    mutating func picture() -> Run {
        let k = int(0...2)
        let w: Double? = chance(0.5) ? nil : Double(pick([20, 40, 60]))
        return Run(.atom(.image(Image(source: "p\(k).png", alt: "fig", media: Self.pictures[k], width: w, height: w))))
    }

    mutating func codeLine() -> String { pick(Self.codeLines) }

    var rng: SeededRandom
    var notes: [String: [Run]] = [:]
    var noteCounter = 0
    /// Which edit kinds were applied (for the report).
    var applied: [String: Int] = [:]

    init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func pick<T>(_ a: [T]) -> T { a[int(0...(a.count - 1))] }

    static let vocabulary = ["the", "a", "of", "and", "river", "stone", "light", "over", "quiet", "never",
                             "house", "went", "down", "into", "morning", "she", "he", "said", "it", "was",
                             "don't", "well-known", "42", "naïve", "Zürich", "東京", "日本語", "über", "1.5"]

    mutating func word() -> String { pick(Self.vocabulary) }

    mutating func format() -> TextFormat {
        var f = TextFormat()
        if chance(0.15) { f.bold = true }
        if chance(0.15) { f.italic = true }
        if chance(0.04) { f.code = true }
        if chance(0.04) { f.underline = true }
        return f
    }

    /// A sentence as runs: words separated by spaces, ending with punctuation, formats in spans.
    mutating func sentence(words: Int? = nil) -> [Run] {
        var runs: [Run] = []
        let n = words ?? int(2...12)
        var f = TextFormat()
        for k in 0..<n {
            if chance(0.2) { f = format() }
            var w = word()
            if k == 0 { w = w.prefix(1).uppercased() + w.dropFirst() }
            var link: Link?
            if chance(0.03) { link = Link(url: "https://example.org/" + word()) }
            runs.append(Run(.text(w), format: f, link: link))
            if chance(0.05) { runs.append(Run(.text(","), format: f)) }
            if k < n - 1 { runs.append(Run(.text(" "), format: f)) }
        }
        runs.append(Run(.text(pick([".", "!", "?", "…"])), format: f))
        if chance(0.08) { runs.append(noteRef()) }
        return runs
    }

    mutating func noteRef() -> Run {
        noteCounter += 1
        let id = "n\(noteCounter)"
        notes[id] = sentence(words: int(2...6)).filter { if case .atom = $0.content { return false }; return true }
        return Run(.atom(.noteReference(id)))
    }

    mutating func paragraphRuns() -> [Run] {
        var runs: [Run] = []
        for k in 0..<int(1...3) {
            if k > 0 { runs.append(Run(.text(" "))) }
            runs += sentence()
        }
        if chance(0.05) { runs.insert(Run(.lineBreak), at: int(0...runs.count)) }
        if chance(0.1) { runs.insert(picture(), at: int(0...runs.count)) }
        return runs
    }

    mutating func style() -> ParagraphStyle {
        chance(0.8) ? ParagraphStyle() : ParagraphStyle(alignment: pick([.center, .right, .justified]))
    }

    mutating func item() -> Item {
        let r = int(0...99)
        if r < 70 { return .para(level: 0, style: style(), runs: paragraphRuns()) }
        if r < 82 { return .para(level: int(1...3), style: ParagraphStyle(), runs: sentence(words: int(1...5))) }
        if r < 94 {
            let cols = int(1...3)
            let rows = (0..<int(1...4)).map { _ in (0..<cols).map { _ in sentence(words: int(1...4)) } }
            return .table(rows: rows, header: chance(0.5) ? 1 : 0)
        }
        if r < 97 { return .code((0..<int(1...5)).map { _ in codeLine() }) }
        return .quote(sentence())
    }

    mutating func items() -> [Item] { (0..<int(1...9)).map { _ in item() } }

    // MARK: Edits

    mutating func edited(_ items: [Item]) -> [Item] {
        var d = items
        for _ in 0..<int(0...5) { edit(&d) }
        return d
    }

    private mutating func paragraphIndices(_ d: [Item]) -> [Int] {
        d.indices.filter { if case .para = d[$0] { return true }; return false }
    }

    private mutating func note(_ kind: String) { applied[kind, default: 0] += 1 }

    /// Word boundaries in runs: indices k where runs[k] starts a word (or runs.count).
    private func wordStarts(_ runs: [Run]) -> [Int] {
        var out: [Int] = []
        for (k, r) in runs.enumerated() {
            if case .text(let s) = r.content, s != " ", s != ",", !".!?…".contains(s) { out.append(k) }
        }
        return out
    }

    mutating func edit(_ d: inout [Item]) {
        let paras = paragraphIndices(d)
        switch int(0...17) {
        case 0, 1: // insert words
            guard let p = paras.randomElement(using: &rng), case .para(let l, let s, var runs) = d[p] else { return }
            let at = int(0...runs.count)
            var ins: [Run] = []
            for _ in 0..<int(1...4) { ins.append(Run(.text(word()))); ins.append(Run(.text(" "))) }
            runs.insert(contentsOf: ins, at: at)
            d[p] = .para(level: l, style: s, runs: runs); note("insert words")
        case 2, 3: // delete a span
            guard let p = paras.randomElement(using: &rng), case .para(let l, let s, var runs) = d[p], !runs.isEmpty else { return }
            let a = int(0...(runs.count - 1)), b = min(runs.count, a + int(1...5))
            runs.removeSubrange(a..<b)
            d[p] = .para(level: l, style: s, runs: runs); note("delete words")
        case 4: // substitute a word
            guard let p = paras.randomElement(using: &rng), case .para(let l, let s, var runs) = d[p] else { return }
            let ws = wordStarts(runs)
            guard let k = ws.randomElement(using: &rng) else { return }
            runs[k].content = .text(word())
            d[p] = .para(level: l, style: s, runs: runs); note("substitute")
        case 5: // move a run of words to another paragraph
            guard paras.count >= 2, let p = paras.randomElement(using: &rng), let q = paras.randomElement(using: &rng),
                  case .para(let l, let s, var runs) = d[p], runs.count >= 8 else { return }
            let a = int(0...(runs.count - 8)), b = a + 8
            let moved = Array(runs[a..<b])
            runs.removeSubrange(a..<b)
            d[p] = .para(level: l, style: s, runs: runs)
            guard case .para(let l2, let s2, var runs2) = d[q] else { return }
            runs2.insert(contentsOf: [Run(.text(" "))] + moved + [Run(.text(" "))], at: int(0...runs2.count))
            d[q] = .para(level: l2, style: s2, runs: runs2); note("move words")
        case 6: // move a block
            guard d.count >= 2 else { return }
            let from = int(0...(d.count - 1))
            let it = d.remove(at: from)
            d.insert(it, at: int(0...d.count)); note("move block")
        case 7: // split
            guard let p = paras.randomElement(using: &rng), case .para(let l, let s, let runs) = d[p], runs.count >= 2 else { return }
            let at = int(1...(runs.count - 1))
            d[p] = .para(level: l, style: s, runs: Array(runs[..<at]))
            d.insert(.para(level: 0, style: s, runs: Array(runs[at...])), at: p + 1); note("split")
        case 8: // merge with the next paragraph
            guard let p = paras.randomElement(using: &rng), p + 1 < d.count,
                  case .para(_, _, let a) = d[p], case .para(let l, let s, let b) = d[p + 1] else { return }
            d[p] = .para(level: l, style: s, runs: a + [Run(.text(" "))] + b)
            d.remove(at: p + 1); note("merge")
        case 9: // formatting change
            guard let p = paras.randomElement(using: &rng), case .para(let l, let s, var runs) = d[p], !runs.isEmpty else { return }
            let a = int(0...(runs.count - 1)), b = min(runs.count, a + int(1...4))
            let bold = !runs[a].format.bold
            for k in a..<b { runs[k].format.bold = bold }
            d[p] = .para(level: l, style: s, runs: runs); note("formatting")
        case 10: // heading level / kind
            guard let p = paras.randomElement(using: &rng), case .para(let l, let s, let runs) = d[p] else { return }
            d[p] = .para(level: l == 0 ? int(1...3) : pick([0, max(1, (l % 3) + 1)]), style: s, runs: runs); note("heading")
        case 11: // paragraph style
            guard let p = paras.randomElement(using: &rng), case .para(let l, _, let runs) = d[p] else { return }
            d[p] = .para(level: l, style: style(), runs: runs); note("paragraph style")
        case 12: // insert or delete a paragraph
            if chance(0.5) || d.isEmpty {
                d.insert(.para(level: 0, style: style(), runs: paragraphRuns()), at: int(0...d.count)); note("insert paragraph")
            } else {
                d.remove(at: int(0...(d.count - 1))); note("delete block")
            }
        case 13, 14: // table edit
            guard let t = d.indices.first(where: { if case .table = d[$0] { return true }; return false }),
                  case .table(var rows, var header) = d[t] else { return }
            let cols = rows.first?.count ?? 1
            switch int(0...2) {
            case 0:
                rows.insert((0..<cols).map { _ in sentence(words: int(1...3)) }, at: int(header...rows.count)); note("table row inserted")
            case 1:
                guard rows.count > 1 else { return }
                let r = int(0...(rows.count - 1))
                rows.remove(at: r)
                if r < header { header -= 1 }
                note("table row deleted")
            default:
                guard !rows.isEmpty else { return }
                let r = int(0...(rows.count - 1)), c = int(0...(cols - 1))
                rows[r][c] = sentence(words: int(1...4)); note("table cell edited")
            }
            d[t] = .table(rows: rows, header: header)
        case 16: // a picture replaced, resized, added or removed
            guard let p = paras.randomElement(using: &rng), case .para(let l, let s, var runs) = d[p] else { return }
            if let k = runs.indices.first(where: { if case .atom(.image) = runs[$0].content { return true }; return false }),
               case .atom(.image(var i)) = runs[k].content {
                switch int(0...2) {
                case 0: let n = (Self.pictures.firstIndex(of: i.media!)! + 1) % 3
                        i.media = Self.pictures[n]; i.source = "p\(n).png"; runs[k].content = .atom(.image(i)); note("picture replaced")
                case 1: i.width = (i.width ?? 10) + 10; i.height = i.width; runs[k].content = .atom(.image(i)); note("picture resized")
                default: runs.remove(at: k); note("picture removed")
                }
            } else {
                runs.insert(picture(), at: int(0...runs.count)); note("picture added")
            }
            d[p] = .para(level: l, style: s, runs: runs)
        case 17: // a code block's lines edited, or a code block added
            guard let c = d.indices.first(where: { if case .code = d[$0] { return true }; return false }),
                  case .code(var lines) = d[c] else {
                d.insert(.code([codeLine(), codeLine()]), at: int(0...d.count)); note("code added")
                return
            }
            for _ in 0..<int(1...3) {
                switch int(0...2) {
                case 0: lines.insert(codeLine(), at: int(0...lines.count))
                case 1: if lines.count > 1 { lines.remove(at: int(0...(lines.count - 1))) }
                default: lines[int(0...(lines.count - 1))] = codeLine()
                }
            }
            d[c] = .code(lines); note("code edited")
        default: // note edit
            if let id = notes.keys.sorted().randomElement(using: &rng), chance(0.6) {
                notes[id] = sentence(words: int(2...5)).filter { if case .atom = $0.content { return false }; return true }
                note("note edited")
            } else if let p = paras.randomElement(using: &rng), case .para(let l, let s, var runs) = d[p] {
                runs.insert(noteRef(), at: int(0...runs.count))
                d[p] = .para(level: l, style: s, runs: runs); note("note added")
            }
        }
    }

    // MARK: Documents

    func document(_ items: [Item], notes noteTable: [String: [Run]]) -> Document {
        var blocks: [Block] = []
        var refs: [String] = []
        func collect(_ runs: [Run]) { for r in runs { if case .atom(.noteReference(let id)) = r.content { refs.append(id) } } }
        for it in items {
            switch it {
            case .para(let l, let s, let runs):
                collect(runs)
                let p = Paragraph(InlineBuilder.inlines(from: runs), style: s)
                blocks.append(l == 0 ? .paragraph(p) : .heading(level: l, p))
            case .table(let rows, let header):
                let cols = rows.first?.count ?? 1
                blocks.append(.table(Table(columns: Array(repeating: .none, count: cols), headerRowCount: header,
                                           rows: rows.map { TableRow($0.map { TableCell([.paragraph(Paragraph(InlineBuilder.inlines(from: $0)))]) }) })))
                for r in rows { for c in r { collect(c) } }
            case .code(let lines):
                blocks.append(.codeBlock(CodeBlock(text: lines.map { $0 + "\n" }.joined())))
            case .quote(let runs):
                collect(runs)
                blocks.append(.blockQuote([.paragraph(Paragraph(InlineBuilder.inlines(from: runs)))]))
            }
        }
        var seen = Set<String>()
        let notes = refs.compactMap { id -> Note? in
            guard seen.insert(id).inserted, let body = noteTable[id] else { return nil }
            return Note(id: id, blocks: [.paragraph(Paragraph(InlineBuilder.inlines(from: body)))])
        }
        return Document(blocks: blocks, notes: notes)
    }
}

/// What both sides of an exactness check are brought to (`ExactnessNormalization`, shared with the compare fuzzer).
typealias Normalize = ExactnessNormalization

import RedlineCore

/// The page of a printed HTML document (the Chromium PDF engine's), from the document's last section: its size
/// and margins as `@page`, and its headers and footers as running heads in the page-margin boxes of CSS paged
/// media, with page numbers counted by the printer (`PAGE` → `counter(page)`, `NUMPAGES` → `counter(pages)`).
///
/// A header or footer is text in a margin box: its paragraphs one line each (accepted view; pictures and
/// tables left out), a paragraph with tabs split into the left, centre and right boxes (Word's header
/// paragraph has a centre and a right tab stop), else placed by its alignment. The stories shown are the last
/// section's, each place inheriting the one an earlier section stated (as in Word). What this cannot print
/// (other sections' different stories and pages, pictures in headers) is what the caller reports as lost.
struct RunningHeads {
    /// The last story stated for each place, and the last section.
    private var stories: [HeaderFooter.Place: HeaderFooter] = [:]
    private var last: Section?
    /// Each stated story with text: its place and its printed text (what `unprinted` compares).
    private var stated: [(place: HeaderFooter.Place, text: String)] = []
    /// Sections seen.
    private(set) var sections = 0

    mutating func add(_ chunk: Chunk) {
        if chunk.block.hasSectionEnd { chunk.block.forEachParagraph { if let s = $0.sectionEnd { add(s) } } }
        if let s = chunk.finalSection { add(s) }
    }

    private mutating func add(_ s: Section) {
        sections += 1
        for story in s.headersFooters {
            stories[story.place] = story
            let text = Self.text(of: story.blocks)
            if !text.isEmpty { stated.append((story.place, text)) }
        }
        last = s
    }

    /// Stated stories with text that the pages do not show: an earlier section's header or footer that differs
    /// from the one printed in its place.
    var unprinted: Int {
        let printed = stories.mapValues { Self.text(of: $0.blocks) }
        return stated.filter { printed[$0.place] != $0.text }.count
    }

    /// The `@page` rules, or "" when the document states no page and no header or footer.
    func css(evenAndOddHeaders: Bool) -> String {
        guard let section = last ?? (stories.isEmpty ? nil : Section()) else { return "" }
        var page = ""
        if let w = section.pageWidth, let h = section.pageHeight, w > 0, h > 0 { page += "size:\(Self.points(w)) \(Self.points(h));" }
        let m = section.margins
        if let t = m.top, let r = m.right, let b = m.bottom, let l = m.left {
            page += "margin:\(Self.points(abs(t))) \(Self.points(r)) \(Self.points(abs(b))) \(Self.points(l));"
        }
        var out = "@page{" + page + boxes(.default) + "}"
        if section.titlePage { out += "@page :first{" + boxes(.first, blankWhenMissing: true) + "}" }
        if evenAndOddHeaders { out += "@page :left{" + boxes(.even, blankWhenMissing: true) + "}" }
        return out
    }

    /// The margin boxes of `which` pages' header and footer (on the first and left pages, every box, blank where
    /// the story says nothing, so the default pages' do not show through).
    private func boxes(_ which: HeaderFooter.Which, blankWhenMissing: Bool = false) -> String {
        var out = ""
        for kind in HeaderFooter.Kind.allCases {
            let edge = kind == .header ? "top" : "bottom"
            let story = stories[HeaderFooter.Place(kind: kind, which: which)]
            guard story != nil || blankWhenMissing else { continue }
            let parts = story.map { Self.placed($0.blocks) } ?? [:]
            for side in ["left", "center", "right"] {
                guard let content = parts[side] ?? (blankWhenMissing ? "none" : nil) else { continue }
                out += "@\(edge)-\(side){content:\(content);font-size:9pt;white-space:pre-wrap;text-align:\(side)}"
            }
        }
        return out
    }

    /// A story's lines as CSS content by margin box (`left`, `center`, `right`).
    private static func placed(_ blocks: [Block]) -> [String: String] {
        var lines: [String: [String]] = [:]
        for block in blocks {
            block.forEachParagraph { p in
                let pieces = split(content(p.content))
                if pieces.count > 1 {
                    for (side, piece) in zip(["left", "center", "right"], pieces) where !piece.isEmpty { lines[side, default: []].append(piece) }
                } else if let piece = pieces.first, !piece.isEmpty {
                    let side = switch p.style.alignment { case .center?: "center"; case .right?: "right"; default: "left" }
                    lines[side, default: []].append(piece)
                }
            }
        }
        return lines.mapValues { $0.joined(separator: " \"\\A\" ") }
    }

    /// A paragraph's content as CSS content pieces, split at tabs (at most three: left, centre, right).
    private static func split(_ items: [Item]) -> [String] {
        var pieces: [[Item]] = [[]]
        for item in items {
            if case .text(let t) = item, t.contains("\t") {
                let parts = t.split(separator: "\t", omittingEmptySubsequences: false)
                for (k, part) in parts.enumerated() {
                    if k > 0 { pieces.append([]) }
                    if !part.isEmpty { pieces[pieces.count - 1].append(.text(String(part))) }
                }
            } else {
                pieces[pieces.count - 1].append(item)
            }
        }
        if pieces.count > 3 { pieces = [pieces[0], pieces[1], Array(pieces[2...].joined(separator: [.text(" ")]))] }
        return pieces.map { css($0) }
    }

    private enum Item { case text(String), counter(String) }

    /// The content of inlines in the accepted view: text, and fields the printer counts as counters.
    private static func content(_ inlines: [Inline]) -> [Item] {
        var out: [Item] = []
        func walk(_ xs: [Inline]) {
            for x in xs {
                switch x {
                case .text(let s), .code(let s): out.append(.text(s))
                case .softBreak, .lineBreak: out.append(.text(" "))
                case .field(let f, let result):
                    switch f.kind {
                    case "PAGE": out.append(.counter("page"))
                    case "NUMPAGES", "SECTIONPAGES": out.append(.counter("pages"))
                    default: walk(result)
                    }
                case .deletion, .commentStart, .commentEnd, .commentPoint, .noteReference, .image, .raw: break
                case .move(let m, let c): if m.side == .to { walk(c) }
                case .substitution(_, _, let inserted): walk(inserted)
                case .math(_, let tex): out.append(.text(tex))
                default: walk(x.children)
                }
            }
        }
        walk(inlines)
        return out
    }

    /// CSS content for items: strings and counters; "" when there is nothing but spaces.
    private static func css(_ items: [Item]) -> String {
        var parts: [String] = []
        var text = ""
        func flush() {
            if !text.isEmpty { parts.append(quoted(text)) }
            text = ""
        }
        for item in items {
            switch item {
            case .text(let t): text += t
            case .counter(let name): flush(); parts.append("counter(\(name))")
            }
        }
        flush()
        let blank = items.allSatisfy { if case .text(let t) = $0 { t.allSatisfy(\.isWhitespace) } else { false } }
        return blank ? "" : parts.joined(separator: " ")
    }

    /// A CSS string: quotes and backslashes escaped, control characters as escapes.
    private static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "<": out += "\\3C "  // never `</style>` inside the style element
            default:
                if u.value < 0x20 || u.value == 0x7F { out += "\\" + String(u.value, radix: 16) + " " } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    private static func text(of blocks: [Block]) -> String {
        var s = ""
        for b in blocks { b.forEachParagraph { p in s += css(content(p.content)) + "\n" } }
        return s.allSatisfy(\.isNewline) ? "" : s
    }

    private static func points(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return (r == r.rounded() ? String(Int(r)) : String(r)) + "pt"
    }
}

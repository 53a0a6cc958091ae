import Foundation
import RedlineCore

/// Reads Markdown (CommonMark + GFM tables, strikethrough, autolinks, footnotes; YAML front matter;
/// pandoc bracketed spans and fenced divs for formatting) with CriticMarkup, always.
///
/// Coverage: paragraphs, headings, block quotes, lists, code blocks, HTML blocks, thematic breaks, GFM
/// tables; emphasis, strong, strikethrough, code, links, images, autolinks, breaks, footnotes, raw HTML,
/// `<u> <sup> <sub> <mark> <s>` tags; `[text]{.underline .smallcaps .mark custom-style= font= size= color=
/// background=}` spans; `::: {custom-style= align= indent-*= line-*= space-*= tabs=}` divs; the five
/// CriticMarkup marks with attribution, threads, milestone ranges, moves, format and style changes
/// (docs/criticmarkup.md).
public struct MarkdownReader: FormatReader {
    /// Whether `^sup^` and `~sub~` are read (pandoc's Markdown); off for GitHub's, where `~text~` is strikethrough.
    public let scripts: Bool

    /// A reader (CriticMarkup is always on); `scripts: false` reads GitHub's `~text~` as strikethrough.
    public init(scripts: Bool = true) { self.scripts = scripts }

    /// Reads the whole input and runs the CriticMarkup pre-pass; blocks are parsed as they are asked for.
    public func open(_ input: DocumentInput, options: ReadOptions, diagnostics: Diagnostics) throws -> any ChunkSource {
        var base = FileManager.default.currentDirectoryPath
        if let path = input.path { base = URL(fileURLWithPath: path).deletingLastPathComponent().path }
        return try MarkdownSource(bytes: input.readAll(), options: options, diagnostics: diagnostics, baseDirectory: base,
                                  scripts: scripts)
    }

    /// Reads a whole document (convenience for tests and small inputs).
    public static func document(_ text: String, diagnostics: Diagnostics = Diagnostics()) throws -> Document {
        var source = try MarkdownSource(bytes: Array(text.utf8), options: ReadOptions(), diagnostics: diagnostics)
        return try Document(reading: &source)
    }
}

/// The streaming source: the CriticMarkup pre-pass and the segmenting run over the whole text up front
/// (linear, a few bytes per input byte); cmark then parses one group of top-level blocks at a time.
public struct MarkdownSource: ChunkSource {
    /// The YAML front matter as metadata.
    public let header: DocumentHeader
    private let state: ReaderState

    init(bytes raw: [UInt8], options: ReadOptions, diagnostics: Diagnostics,
         baseDirectory: String = FileManager.default.currentDirectoryPath,
         pieceSizes: ParagraphPieces.Sizes = .standard, scripts: Bool = true) throws {
        let bytes = Self.boundingTableCells(Self.withoutNUL(Self.normalized(raw, diagnostics: diagnostics)), diagnostics: diagnostics)
        let (metadata, bodyStart, _) = FrontMatter.read(bytes, diagnostics: diagnostics)
        header = DefaultStyles.header(from: metadata, diagnostics: diagnostics)
        let body = Array(bytes[bodyStart...])
        state = try ReaderState(body, options: options, diagnostics: diagnostics, scripts: scripts)
        state.pieceSizes = pieceSizes
        if options.loadLinkedMedia {
            state.context.pictures = MarkdownPictures(baseDirectory: baseDirectory, options: options)
        }
    }

    /// Valid UTF-8 (UTF-16 with a byte-order mark transcoded, invalid bytes replaced by U+FFFD with a
    /// `markdown.invalid-utf8` warning), without a byte-order mark, with CRLF and CR line ends as LF. (`redline apply`
    /// maps positions in it back to the file's bytes: the reader's NUL replacement is its own, `withoutNUL`.)
    static func normalized(_ raw: [UInt8], diagnostics: Diagnostics? = nil) -> [UInt8] {
        let (b, report) = TextDecoding.utf8(raw)
        if let message = TextDecoding.message(report) {
            diagnostics?.report(.markdownInvalidUTF8, message, at: SourceLocation(line: report.firstLine), count: report.replaced)
        }
        guard Self.holds(0x0D, b) else { return b }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var k = 0
        while k < b.count {
            if b[k] == UInt8(ascii: "\r") {
                out.append(UInt8(ascii: "\n"))
                if k + 1 < b.count, b[k + 1] == UInt8(ascii: "\n") { k += 1 }
            } else {
                out.append(b[k])
            }
            k += 1
        }
        return out
    }

    /// `b` with NUL as U+FFFD, as CommonMark says (cmark, given a NUL in a fence line, reads the rest of the file as
    /// its info string, and kept lines would hand it back).
    static func withoutNUL(_ b: [UInt8]) -> [UInt8] {
        guard Self.holds(0, b) else { return b }
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 16)
        for c in b { if c == 0 { out += [0xEF, 0xBF, 0xBD] } else { out.append(c) } }
        return out
    }

    /// Whether `b` holds the byte `c` (memchr: the common input holds no CR or NUL, and is looked at whole).
    private static func holds(_ c: Int32, _ b: [UInt8]) -> Bool {
        b.withUnsafeBufferPointer { u in u.count > 0 && memchr(u.baseAddress!, c, u.count) != nil }
    }

    /// cmark-gfm appends each table cell to a linked list by walking it (quadratic in the cells of a row): a
    /// line with more than `Limits.maxTableColumns` unescaped `|` gets the ones past it escaped (`\|` reads as
    /// the same text), with a `markdown.table-too-wide` warning. Linear; lines without that many pipes are kept.
    static func boundingTableCells(_ b: [UInt8], diagnostics: Diagnostics) -> [UInt8] {
        let limit = Limits.maxTableColumns
        var out: [UInt8]? = nil
        var lines = 0, firstLine = 0, lineNumber = 1
        var start = 0
        while start < b.count {
            var end = start, pipes = 0
            while end < b.count, b[end] != UInt8(ascii: "\n") {
                if b[end] == UInt8(ascii: "|"), end == 0 || b[end - 1] != UInt8(ascii: "\\") { pipes += 1 }
                end += 1
            }
            if pipes > limit {
                if out == nil { out = Array(b[..<start]); out!.reserveCapacity(b.count + b.count / 8) }
                var seen = 0
                for k in start..<end {
                    if b[k] == UInt8(ascii: "|"), k == 0 || b[k - 1] != UInt8(ascii: "\\") {
                        seen += 1
                        if seen > limit { out!.append(UInt8(ascii: "\\")) }
                    }
                    out!.append(b[k])
                }
                if end < b.count { out!.append(b[end]) }
                lines += 1
                if firstLine == 0 { firstLine = lineNumber }
            } else if out != nil {
                out! += b[start..<min(end + 1, b.count)]
            }
            start = end + 1
            lineNumber += 1
        }
        guard let out else { return b }
        diagnostics.report(.markdownTableTooWide, "table rows with more than \(limit) cells: the cells past it were kept as text (\(Limits.name("maxTableColumns", limit)))",
                           at: SourceLocation(line: firstLine), count: lines)
        return out
    }

    /// How many times a long paragraph line was cut so far (`ParagraphPieces`; for tests).
    var paragraphPiecesCut: Int { state.piecesCut }

    /// The next top-level block with the comments and notes it first references; nil at the end.
    public mutating func next() throws -> Chunk? {
        try state.next()
    }
}

/// The reader's mutable state (a class, so the source stays a small value).
final class ReaderState {
    let context: CriticContext
    let converter: BlockConverter
    let segmenter: Segmenter
    /// The link reference definitions by normalized label, as a group that uses one gets it (`linkDefinitions`).
    private(set) var linkDefinitions: [String: [UInt8]] = [:]
    let options: ReadOptions
    /// pandoc's `^sup^`/`~sub~` (off: GitHub's `~text~` strikethrough).
    let scripts: Bool
    private var nextSegment = 0
    /// The last block appended came from a paragraph that starts as a table caption does (`BlockConverter.lastCaptionLike`).
    private var previousCaptionLike = false
    private var ready = ChunkQueue()
    /// The comments and notes the converter has read, until the block that references them (`ChunkAttacher`).
    private var attacher = ChunkAttacher()
    private var done = false
    /// The document's last section, from its `.redline-last-section` div.
    private var finalSection: Section?
    private var footnoteRanges: [String: (range: Range<Int>, line: Int)] = [:]
    private var usedNotes = Set<String>()
    private var bodyCounter = 0
    private var noteDepth = 0
    /// Bytes per cmark parse.
    static let groupSize = 48 * 1024
    /// When a paragraph's last line is read in pieces (`ParagraphPieces`).
    var pieceSizes = ParagraphPieces.Sizes.standard
    /// Cuts made in long paragraph lines (for tests).
    private(set) var piecesCut = 0
    /// What follows a paragraph read in pieces in its group, parsed next.
    private var pendingRange: (range: Range<Int>, line: Int)?

    init(_ body: [UInt8], options: ReadOptions, diagnostics: Diagnostics, scripts: Bool = true) throws {
        self.scripts = scripts
        var scanner = CriticScanner(body, diagnostics: diagnostics, scripts: scripts)
        try scanner.scan()
        self.options = options
        context = CriticContext(source: body, scanner: scanner, diagnostics: diagnostics)
        var segmenter = Segmenter(scanner.output)
        let candidates = segmenter.takeLinkCandidates()
        self.segmenter = segmenter
        converter = BlockConverter(context: context)
        converter.doubleTilde = scripts
        converter.cmarkDepth = min(options.limits.maxNesting, Limits.maxMarkdownNesting)
        for (k, f) in segmenter.footnotes.enumerated() where footnoteRanges[f.label] == nil {
            footnoteRanges[f.label] = (f.range, segmenter.footnoteLines[k])
        }
        if !candidates.isEmpty {
            (linkDefinitions, converter.referenceLabels) = try Self.linkDefinitions(candidates, context)
        }
        converter.noteResolver = { [unowned self] label in try self.note(label) }
        converter.noteIsDefined = { [unowned self] label in self.footnoteRanges[label] != nil }
        converter.bodyParser = { [unowned self] range in try self.commentBody(range) }
        // (Code spans over line ends too: the pre-pass and cmark may not agree where they are.)
        let codeSpans = scanner.multiLineCodeSpans
        converter.touchesVerbatim = { [unowned self] lines in
            self.segmenter.touchesVerbatim(lines) || Segmenter.touches(codeSpans, lines)
        }
    }

    var text: [UInt8] { context.scanner.output }

    /// The link reference definitions cmark takes (the first of each label), by normalized label: each
    /// written anew as `[label]: <url> "title"` (every ASCII punctuation character escaped), so a group that
    /// uses the label gets the definition and nothing of the lines around it. A line that only looks like one
    /// (`[a]: two words`) is text and defines nothing. And the label each target keeps (`Link.label`; the
    /// first definition of a target wins).
    private static func linkDefinitions(_ candidates: [(key: String, label: String, text: [UInt8], after: Int?)],
                                        _ context: CriticContext) throws -> ([String: [UInt8]], [Link: String]) {
        var definitions: [String: [UInt8]] = [:]
        var labels: [Link: String] = [:]
        // Whether each candidate is a definition to cmark (one after another only if that one is: `[o]: 1 f` is no
        // definition, and then neither is the line after it, which alone would be).
        var defines = [Bool](repeating: false, count: candidates.count)
        for (k, c) in candidates.enumerated() {
            if let p = c.after, !defines[p] { continue }
            guard definitions[c.key] == nil else {
                // (A label defined already: this line defines nothing new, but ends the paragraph's definitions
                // no sooner; taken as one.)
                defines[k] = true
                continue
            }
            guard !c.label.isEmpty, !c.label.contains("\n") else { continue }
            // Probed in the text of the candidate before it, which holds this line: cmark reads it in its place.
            let probe = (c.after.map { candidates[$0].text } ?? c.text) + Array("\n\n[x][".utf8) + Array(c.label.utf8) + Array("]\n".utf8)
            let root = try Cmark.parse(probe, maxDepth: 16)
            var link: MDNode?
            func find(_ n: MDNode) { if n.kind == .link { link = link ?? n }; for c in n.children where link == nil { find(c) } }
            if let last = root.children.last { find(last) }
            guard let n = link else { continue }
            defines[k] = true
            definitions[c.key] = Array("[\(c.label)]: <".utf8) + escaped(n.url) + Array(">".utf8)
                + (n.title.isEmpty ? [] : Array(" \"".utf8) + escaped(n.title) + Array("\"".utf8))
            let target = Link(url: context.restore(n.url), title: context.restore(n.title))
            if labels[target] == nil { labels[target] = c.label }
        }
        return (definitions, labels)
    }

    /// `s` with a backslash before each ASCII punctuation character: read back as `s` in a link destination
    /// or title (no entity, escape or line start means anything there).
    private static func escaped(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            if (0x21...0x2F).contains(b) || (0x3A...0x40).contains(b) || (0x5B...0x60).contains(b) || (0x7B...0x7E).contains(b) {
                out.append(UInt8(ascii: "\\"))
            }
            out.append(b)
        }
        return out
    }

    func next() throws -> Chunk? {
        // (An empty paragraph still waiting to know what follows it does not count.)
        while ready.count - (tentativeEmpty ? 1 : 0) < 2 && !done {
            try parseGroup()
        }
        if ready.isEmpty { return nil }
        if ready.count == 1 && done {
            // The last chunk carries the notes nobody referenced and whatever else is left.
            var last = ready.removeFirst()
            for f in segmenter.footnotes where !usedNotes.contains(f.label) {
                if let n = try note(f.label) { attacher.add(n) }
            }
            takeConverted()
            let left = attacher.takeUnreferenced()
            last.comments += left.comments
            last.notes += left.notes
            if let s = finalSection { last.finalSection = s }
            return last
        }
        return ready.removeFirst()
    }

    /// Moves the comments and notes the converter has read into the attacher.
    private func takeConverted() {
        for c in converter.comments { attacher.add(c) }
        for n in converter.notes { attacher.add(n) }
        converter.comments = []
        converter.notes = []
    }

    /// Parses the next group of segments into chunks.
    private func parseGroup() throws {
        if let rest = pendingRange {
            pendingRange = nil
            return try parse(rest.range, firstLine: rest.line)
        }
        guard nextSegment < segmenter.segments.count else {
            dropTentativeEmpty()
            converter.finishFlow()
            placeSections()
            placeFieldEnds()
            takeConverted()
            done = true
            if ready.isEmpty, !attacher.isEmpty || !segmenter.footnotes.isEmpty || finalSection != nil {
                ready.append(Chunk(.paragraph(Paragraph([]))))
            }
            return
        }
        let first = nextSegment
        var end = segmenter.segments[first].upperBound
        nextSegment += 1
        while nextSegment < segmenter.segments.count,
              end - segmenter.segments[first].lowerBound < Self.groupSize,
              segmenter.segments[nextSegment].lowerBound == end {
            end = segmenter.segments[nextSegment].upperBound
            nextSegment += 1
        }
        try parse(segmenter.segments[first].lowerBound..<end, firstLine: segmenter.segmentLines[first])
    }

    /// Parses a range of whole top-level blocks into chunks; a huge last line of a paragraph is parsed in
    /// pieces (`ParagraphPieces`), and what follows its paragraph is left in `pendingRange`.
    private func parse(_ range: Range<Int>, firstLine: Int) throws {
        if let line = ParagraphPieces.hugeLine(in: text, range, sizes: pieceSizes), try parseInPieces(range, line: line, firstLine: firstLine) {
            return
        }
        let (parsed, prependedLines) = Self.groupText(text, range, definitions: linkDefinitions)
        converter.setParsedText(parsed)
        converter.firstLineNumber = firstLine - prependedLines
        let root = try Cmark.parse(parsed, maxDepth: maxDepth, doubleTilde: scripts)
        for node in root.children where node.kind != .footnoteDefinition {
            var blocks: [Block] = []
            converter.closerOnlyParagraph = false
            try converter.convert(node, into: &blocks)
            if blocks.count == 1 { blocks[0] = converter.withSource(blocks[0], node) }
            append(blocks)
        }
    }

    private var maxDepth: Int { min(options.limits.maxNesting, Limits.maxMarkdownNesting) }

    private func append(_ blocks: [Block]) {
        var blocks = blocks
        if let box = converter.textBox { blocks = blocks.map { $0.inTextBox(box) } }
        // Inside a header's or footer's div (`PageDivs`): the story's blocks.
        if converter.inStory {
            converter.addToStory(blocks)
            return
        }
        placeSections()
        placeFieldEnds()
        // None for a paragraph of delimiters only (its break may belong to the previous block).
        guard !blocks.isEmpty else { return }
        if tentativeEmpty, !BlockConverter.joins(blocks[0]) { dropTentativeEmpty() }
        tentativeEmpty = false
        if let mark = converter.replacesOpener {
            // A code block in a change (`{++` alone on the line before its fence) replaces the empty paragraph
            // that line made; its comments and notes, if any, go with the next chunk.
            converter.replacesOpener = nil
            if case .paragraph(let p)? = ready.last?.block, p.content.isEmpty, p.markChange == mark, let last = ready.popLast() {
                for c in last.comments { attacher.add(c) }
                for n in last.notes { attacher.add(n) }
            }
        }
        takeConverted()
        let captionLike = converter.lastCaptionLike
        if converter.termBefore {
            converter.termBefore = false
            if case .paragraph(var term)? = ready.last?.block, term.style.name == nil, var chunk = ready.popLast() {
                term.style.name = DefinitionLists.termStyle
                chunk.block = .paragraph(term)
                ready.append(chunk)
            }
        }
        for var b in blocks {
            // A table's caption, `: Caption` right before or after it (the block before is still queued: `next`
            // keeps two). (A flag is tested first: most blocks are no caption's neighbours.)
            if previousCaptionLike, case .table = b, case .paragraph(let p)? = ready.last?.block,
               let caption = TableCaptions.caption(p), var before = ready.popLast() {
                before.block = .paragraph(caption)
                ready.append(before)
            } else if captionLike, case .paragraph(let p) = b, case .table? = ready.last?.block, let caption = TableCaptions.caption(p) {
                b = .paragraph(caption)
            }
            ready.append(attacher.chunk(for: b))
        }
        previousCaptionLike = captionLike
        tentativeEmpty = converter.closerOnlyParagraph
    }

    /// Sections whose divs closed: each on the block before it (its last paragraph's `sectionEnd`), the last one
    /// on the document's last chunk.
    private func placeSections() {
        guard !converter.finishedSections.isEmpty else { return }
        for (section, last) in converter.finishedSections {
            if last {
                finalSection = section
            } else if let block = ready.last?.block.endingSection(section), var chunk = ready.popLast() {
                chunk.block = block
                ready.append(chunk)
            } else {
                context.diagnostics.report(.markdownUnknownAttribute, "a section div follows no paragraph that could end the section; it was ignored")
            }
        }
        converter.finishedSections = []
    }

    /// Fields whose divs closed: each ends after the paragraph (or heading) before the fence.
    private func placeFieldEnds() {
        guard converter.finishedFields > 0 else { return }
        converter.finishedFields = 0
        guard var chunk = ready.popLast() else { return }
        chunk.block.blockField = BlockField(start: chunk.block.blockField?.start, end: .afterContent)
        ready.append(chunk)
    }

    /// The blocks of `range` up to `line`'s paragraph, parsed whole, then that paragraph with its last line
    /// `line` parsed in pieces; false (nothing done) when no cut in `line` is safe.
    private func parseInPieces(_ range: Range<Int>, line: Range<Int>, firstLine: Int) throws -> Bool {
        // The pieces after the first are parsed on a thread of their own while the converter builds this
        // one's runs (`Prefetch`), so parsing touches nothing of the reader's: it has its own copies.
        let text = self.text, definitions = linkDefinitions, maxDepth = self.maxDepth, scripts = self.scripts
        var pieces = ParagraphPieces(text: text, line: line, from: line.lowerBound, sizes: pieceSizes) { r in
            let (parsed, prepended) = Self.groupText(text, r, definitions: definitions)
            return (try Cmark.parse(parsed, maxDepth: maxDepth, doubleTilde: scripts), prepended > 0)
        }
        guard let root = try pieces.first(of: range) else { return false }
        let (parsed, prependedLines) = Self.groupText(text, range.lowerBound..<pieces.position, definitions: linkDefinitions)
        converter.setParsedText(parsed)
        converter.firstLineNumber = firstLine - prependedLines
        var blocks = root.children
        let paragraph = blocks.removeLast()
        for node in blocks where node.kind != .footnoteDefinition {
            var out: [Block] = []
            converter.closerOnlyParagraph = false
            try converter.convert(node, into: &out)
            append(out)
        }
        // Raw HTML tags are matched across the paragraph: their text first, in a pass of its own, when the
        // line has any.
        var html = BlockConverter.htmlLiterals(paragraph.children)
        if text[line].contains(UInt8(ascii: "<")) {
            var scout = pieces
            while let nodes = try scout.next() { html += BlockConverter.htmlLiterals(nodes) }
        }
        var out: [Block] = []
        let ahead = Prefetch(walking: pieces) { try $0.next() }
        defer { ahead.stop() }
        let more = { () throws -> [MDNode]? in
            let next = try ahead.next()
            if next != nil { self.piecesCut += 1 }
            return next
        }
        converter.closerOnlyParagraph = false
        try converter.convertParagraph(paragraph.children, more: more, htmlLiterals: html, into: &out)
        append(out)
        if line.upperBound + 1 < range.upperBound {
            let lineNumber = firstLine + text[range.lowerBound..<line.lowerBound].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            pendingRange = (line.upperBound + 1..<range.upperBound, lineNumber + 1)
        }
        return true
    }

    /// The last chunk is an empty paragraph of nothing but a closer, kept only if a paragraph or heading
    /// follows (`BlockConverter.closerOnlyParagraph`).
    private var tentativeEmpty = false

    /// Drops the waiting empty paragraph (no paragraph followed it). It anchors nothing, so it carries nothing
    /// (`ChunkAttacher`); anything it did carry goes back to the attacher.
    private func dropTentativeEmpty() {
        guard tentativeEmpty, let last = ready.popLast() else { return }
        tentativeEmpty = false
        for c in last.comments { attacher.add(c) }
        for n in last.notes { attacher.add(n) }
    }

    /// The text cmark parses for the group `range` of `text`: the link definitions (of `definitions`) it uses
    /// first, then the group, then nothing else; and how many lines were put before it. Static, so a
    /// prefetching thread can call it with copies of the text and definitions.
    private static func groupText(_ text: [UInt8], _ range: Range<Int>, definitions: [String: [UInt8]]) -> ([UInt8], Int) {
        let group = text[range]
        var prefix: [UInt8] = []
        var prepended = 0
        if !definitions.isEmpty {
            var seenLabels = Set<String>()
            var k = group.startIndex
            while k < group.endIndex {
                guard group[k] == UInt8(ascii: "[") else { k += 1; continue }
                var j = k + 1
                while j < group.endIndex, j - k < 1000, group[j] != UInt8(ascii: "]") {
                    if group[j] == UInt8(ascii: "\\") { j += 1 }
                    j += 1
                }
                guard j < group.endIndex, group[j] == UInt8(ascii: "]") else { k += 1; continue }
                let inner = group[(k + 1)..<j]
                do {
                    let label = Segmenter.normalizeLabel(inner)
                    if let def = definitions[label], seenLabels.insert(label).inserted {
                        prefix += def + [UInt8(ascii: "\n"), UInt8(ascii: "\n")]
                        prepended += 2 + def.lazy.filter { $0 == UInt8(ascii: "\n") }.count
                    }
                }
                k += 1
            }
        }
        if prefix.isEmpty { return (Array(group), 0) }
        return (prefix + group, prepended)
    }

    /// The note for `label`, the first time it is asked for: its definition with the `[^label]:` marker
    /// removed and continuation lines dedented, read as Markdown of its own.
    private func note(_ label: String) throws -> Note? {
        guard !usedNotes.contains(label), let f = footnoteRanges[label], noteDepth < 50 else { return nil }
        usedNotes.insert(label)
        noteDepth += 1
        defer { noteDepth -= 1 }
        var bytes: [UInt8] = []
        var first = true
        for line in text[f.range].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if first {
                first = false
                let marker = line.firstIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? line.startIndex
                var rest = line[marker...]
                while rest.first == UInt8(ascii: " ") || rest.first == UInt8(ascii: "\t") { rest = rest.dropFirst() }
                bytes += rest
            } else {
                bytes.append(UInt8(ascii: "\n"))
                var rest = line[...]
                var n = 0
                while n < 4, rest.first == UInt8(ascii: " ") { rest = rest.dropFirst(); n += 1 }
                bytes += rest
            }
        }
        let root = try Cmark.parse(bytes, maxDepth: min(options.limits.maxNesting, Limits.maxMarkdownNesting), doubleTilde: scripts)
        let nested = converter.nested()
        nested.setParsedText(bytes)
        nested.firstLineNumber = f.line
        var blocks: [Block] = []
        try nested.convert(root.children, into: &blocks)
        nested.finishFlow()
        converter.comments += nested.comments
        converter.notes += nested.notes
        return Note(id: label, blocks: blocks)
    }

    /// A comment body's Markdown, read as a small document of its own.
    private func commentBody(_ range: Range<Int>) throws -> [Block] {
        let raw = CommentBody.strippingContainerPrefix(context.source, range)
        if raw.isEmpty { return [] }
        bodyCounter += 1
        var scanner = CriticScanner(raw, diagnostics: context.diagnostics, idPrefix: "b\(bodyCounter)-", notes: false, scripts: scripts)
        try scanner.scan()
        let ctx = CriticContext(source: raw, scanner: scanner, diagnostics: context.diagnostics)
        ctx.pictures = context.pictures
        let nested = BlockConverter(context: ctx)
        nested.setParsedText(scanner.output)
        let root = try Cmark.parse(scanner.output, maxDepth: min(options.limits.maxNesting, Limits.maxMarkdownNesting), doubleTilde: scripts)
        var blocks: [Block] = []
        try nested.convert(root.children, into: &blocks)
        nested.finishFlow()
        return blocks
    }
}

/// Comment bodies that span lines inside a block quote or list item carry the container's prefix
/// (`> `, indentation) on their later lines; it is removed before the body is parsed.
enum CommentBody {
    static func strippingContainerPrefix(_ source: [UInt8], _ range: Range<Int>) -> [UInt8] {
        let body = Array(source[range])
        guard body.contains(UInt8(ascii: "\n")) else { return body }
        // The prefix pattern of the line where the body starts.
        var lineStart = range.lowerBound
        while lineStart > 0, source[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var pattern: [UInt8] = []
        var k = lineStart
        while k < range.lowerBound {
            let c = source[k]
            if c == UInt8(ascii: ">") { pattern.append(c); k += 1; if k < range.lowerBound, source[k] == UInt8(ascii: " ") { pattern.append(UInt8(ascii: " ")); k += 1 }; continue }
            if c == UInt8(ascii: " ") { pattern.append(c); k += 1; continue }
            let marker = Segmenter.isListMarkerLine(source[k..<range.lowerBound])
            if marker {
                var w = 0
                while k + w < range.lowerBound, source[k + w] != UInt8(ascii: " ") { w += 1 }
                pattern += Array(repeating: UInt8(ascii: " "), count: w + 1)
                k += w + 1
                continue
            }
            break
        }
        guard !pattern.isEmpty else { return body }
        var out: [UInt8] = []
        var first = true
        for line in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if !first { out.append(UInt8(ascii: "\n")) }
            if first { out += line; first = false; continue }
            var l = line[...]
            for p in pattern {
                if p == UInt8(ascii: ">") {
                    while l.first == UInt8(ascii: " ") { l = l.dropFirst() }
                    if l.first == UInt8(ascii: ">") { l = l.dropFirst() }
                } else if l.first == UInt8(ascii: " ") {
                    l = l.dropFirst()
                }
            }
            out += l
        }
        return out
    }
}

/// Chunks in reading order, taken from the front without moving the rest: `removeFirst()` on an array moved
/// every chunk of a 48 KiB group (thousands of one-word paragraphs) for each chunk taken, 6 s for a million
/// paragraphs. A taken slot is emptied at once (it held the chunk's storage alive) and the slots are
/// compacted when more than half are taken.
struct ChunkQueue {
    private var slots: [Chunk?] = []
    private var head = 0

    var count: Int { slots.count - head }
    var isEmpty: Bool { head == slots.count }

    mutating func append(_ chunk: Chunk) { slots.append(chunk) }

    /// The first chunk (the queue must not be empty).
    mutating func removeFirst() -> Chunk {
        let chunk = slots[head].take()!
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return chunk
    }

    /// The chunk last appended and still queued.
    var last: Chunk? { isEmpty ? nil : slots[slots.count - 1] }

    mutating func popLast() -> Chunk? {
        guard !isEmpty else { return nil }
        let chunk = slots.removeLast()
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        }
        return chunk
    }
}

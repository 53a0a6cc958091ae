import RedlineCore

/// Writes Markdown: canonical CommonMark/GFM with exact escaping, review marks as CriticMarkup
/// (docs/criticmarkup.md), formatting as pandoc-style spans and fenced divs with `preserveFormatting`.
/// With `criticMarkup` false (format `gfm`) changes are accepted and comments dropped, with warnings.
public struct MarkdownWriter: FormatWriter {
    /// A writer (options come with each sink).
    public init() {}

    /// A sink writing Markdown into `output`.
    public func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
        MarkdownSink(output: output, options: options, diagnostics: diagnostics)
    }

    /// A whole document as Markdown text (convenience for tests).
    public static func string(_ document: Document, options: WriteOptions = WriteOptions(),
                              diagnostics: Diagnostics = Diagnostics()) throws -> String {
        let out = MemoryOutput()
        var source = ChunkArraySource(document)
        var sink = MarkdownSink(output: out, options: options, diagnostics: diagnostics)
        try Pipeline.run(source: &source, stages: [], sink: &sink)
        return out.string
    }
}

/// The streaming Markdown sink: each chunk's block is written as it arrives, its notes right after it.
public struct MarkdownSink: ChunkSink {
    private let output: any ByteOutput
    private let options: WriteOptions
    private let diagnostics: Diagnostics
    private let renderer: MarkdownRenderer
    private var wroteBlock = false
    private var previousBulletList: Character?
    private var heldNotes: [Note] = []
    /// Without CriticMarkup: changes are accepted and comments dropped on the way in.
    private var resolve: (ReviewTransform, DropComments)?
    private var counts = (insertions: 0, deletions: 0, comments: 0, formatChanges: 0, styleChanges: 0, marks: 0)

    init(output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
        renderer = MarkdownRenderer(options: options, diagnostics: diagnostics)
        if !options.criticMarkup { resolve = (ReviewTransform(.accept), DropComments()) }
    }

    /// Writes the metadata as YAML front matter (with `preserveFormatting`, the default styles too).
    public mutating func begin(_ header: DocumentHeader) throws {
        let meta = options.preserveFormatting ? DefaultStyles.adding(header, to: header.metadata) : header.metadata
        try output.write(FrontMatter.write(meta))
    }

    /// Writes one block and the notes it references (resolving changes first without CriticMarkup).
    public mutating func write(_ chunk: Chunk) throws {
        guard var (review, drop) = resolve else { try emit(chunk); return }
        count(chunk)
        var accepted: [Chunk] = []
        try review.process(chunk) { accepted.append($0) }
        for c in accepted { try drop.process(c) { try emit($0) } }
        resolve = (review, drop)
    }

    /// Writes what is still waiting (a break change's closer, notes) and reports the losses.
    public mutating func finish() throws {
        if var (review, drop) = resolve {
            var rest: [Chunk] = []
            try review.finish { rest.append($0) }
            for c in rest { try drop.process(c) { try emit($0) } }
            report()
        }
        if let closer = renderer.takePendingCloser() { try put(closer) }
        try writeHeldNotes()
        renderer.reportDistinctLosses()
        try output.flush()
    }

    private mutating func emit(_ chunk: Chunk) throws {
        renderer.register(chunk.comments)
        var bullet: Character = "-"
        if case .list(let l) = chunk.block, l.kind == .bullet, previousBulletList == "-" { bullet = "*" }
        let parts = renderer.blockParts(chunk.block, bullet: bullet).filter { !$0.isEmpty }
        // An empty paragraph left out is no block: two lists around it still need different bullets.
        if case .list(let l) = chunk.block, l.kind == .bullet {
            previousBulletList = bullet
        } else if !parts.isEmpty || chunk.block.paragraph == nil {
            previousBulletList = nil
        }
        for part in parts { try put(part) }
        // Notes go after the block, but not between a paragraph break change's delimiters.
        heldNotes += chunk.notes
        if !renderer.hasPendingCloser { try writeHeldNotes() }
    }

    private mutating func writeHeldNotes() throws {
        for note in heldNotes { try put(renderer.note(note)) }
        heldNotes = []
    }

    private mutating func put(_ text: String) throws {
        try renderer.media.check()
        try output.write(wroteBlock ? "\n" + text + "\n" : text + "\n")
        wroteBlock = true
    }

    private mutating func count(_ chunk: Chunk) {
        counts.comments += chunk.comments.count
        for b in [chunk.block] + chunk.notes.flatMap(\.blocks) {
            b.forEachParagraph { p in
                if p.markChange != nil { counts.marks += 1 }
                if p.styleChange != nil { counts.styleChanges += 1 }
            }
            b.forEachInline { i in
                switch i {
                case .insertion: counts.insertions += 1
                case .deletion: counts.deletions += 1
                case .substitution: counts.insertions += 1; counts.deletions += 1
                case .move(let m, _): if m.side == .to { counts.insertions += 1 } else { counts.deletions += 1 }
                case .formatChange: counts.formatChanges += 1
                default: break
                }
            }
        }
    }

    private func report() {
        let d = diagnostics
        d.report(.lossyInsertionsAccepted, "insertions were kept as plain text (this format has no CriticMarkup)",
                 count: counts.insertions)
        d.report(.lossyDeletionsAccepted, "deletions were dropped (this format has no CriticMarkup)", count: counts.deletions)
        d.report(.lossyComments, "comments were dropped (this format has no CriticMarkup)", count: counts.comments)
        d.report(.lossyFormatChange, "formatting changes were accepted (this format has no CriticMarkup)",
                 count: counts.formatChanges)
        d.report(.lossyParagraphStyleChange, "paragraph style changes were accepted (this format has no CriticMarkup)",
                 count: counts.styleChanges)
        d.report(.lossyParagraphMarkChange, "paragraph break changes were accepted (this format has no CriticMarkup)",
                 count: counts.marks)
    }
}

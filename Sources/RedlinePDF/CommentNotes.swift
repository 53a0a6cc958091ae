import RedlineCore

/// Prints each comment thread as a small note in its author's colour right after the end of its anchor
/// (for a point comment, at the point): "[Ann Smith 2024-01-15: text | Bob (reply): text]". The PDF
/// writer uses it because LibreOffice 7.4's PDF export cannot put comments in the margin; the comments
/// themselves stay in the document too (LibreOffice exports them as PDF annotations).
public struct CommentNotes: ChunkStage {
    /// Comments seen whose note has not been printed yet, by id.
    private var waiting: [String: Comment] = [:]
    /// Replies by the id of the comment they answer.
    private var replies: [String: [Comment]] = [:]
    private var printed: Set<String> = []
    private var authors: [String: Int] = [:]

    public init() {}

    public mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws {
        for c in chunk.comments {
            waiting[c.id] = c
            if let parent = c.parentID { replies[parent, default: []].append(c) }
        }
        var c = chunk
        c.block = c.block.mapParagraphContent { annotate($0) }
        try emit(c)
    }

    public mutating func finish(emit: (Chunk) throws -> Void) throws {
        // Comments whose anchor never ended: printed after the last block, so none is lost.
        let left = waiting.values.filter { $0.parentID == nil && !printed.contains($0.id) }.sorted { $0.id < $1.id }
        guard !left.isEmpty else { return }
        var notes: [Inline] = []
        for c in left { notes.append(contentsOf: note(for: c.id)) }
        try emit(Chunk(.paragraph(Paragraph(notes))))
    }

    /// The inlines with each thread's note after the top-level inline holding its anchor's end.
    private mutating func annotate(_ inlines: [Inline]) -> [Inline] {
        var out: [Inline] = []
        out.reserveCapacity(inlines.count)
        for inline in inlines {
            out.append(inline)
            var ends: [String] = []
            Self.commentEnds(in: inline, into: &ends)
            for id in ends { out.append(contentsOf: note(for: id)) }
        }
        return out
    }

    private static func commentEnds(in inline: Inline, into ends: inout [String]) {
        switch inline {
        case .commentEnd(let id), .commentPoint(let id): ends.append(id)
        default: for c in inline.children { commentEnds(in: c, into: &ends) }
        }
    }

    /// The note for the thread whose root (or a reply) is `id`, once.
    private mutating func note(for id: String) -> [Inline] {
        guard var comment = waiting[id] else { return [] }
        while let parent = comment.parentID, let p = waiting[parent] { comment = p }
        guard !printed.contains(comment.id) else { return [] }
        var parts: [Inline] = []
        var thread = [comment]
        var i = 0
        while i < thread.count {
            thread.append(contentsOf: replies[thread[i].id] ?? [])
            i += 1
        }
        for (n, c) in thread.enumerated() {
            printed.insert(c.id)
            let who = (c.author ?? "Anonymous") + (n > 0 ? " (reply)" : "")
            let when = c.date.map { " " + $0.prefix(10) } ?? ""
            let state = c.resolved ? " (resolved)" : ""
            let text = c.body.map(\.plainText).joined(separator: " ")
            var style = CharacterStyle(fontSize: 8, color: Self.color(authorIndex(c.author)))
            style.backgroundColor = RGBColor(red: 0xFF, green: 0xF6, blue: 0xD5)
            parts.append(.styled(style, [.strong([.text((n == 0 ? "[" : " | ") + who + when + state + ":")]),
                                         .text(" " + text + (n == thread.count - 1 ? "]" : ""))]))
        }
        return [.text(" ")] + parts
    }

    private mutating func authorIndex(_ author: String?) -> Int {
        let key = author ?? ""
        if let i = authors[key] { return i }
        authors[key] = authors.count
        return authors.count - 1
    }

    /// The colour of the n-th author (the HTML review page uses the same palette).
    static func color(_ n: Int) -> RGBColor {
        let palette: [(UInt8, UInt8, UInt8)] = [(0x1F, 0x5F, 0xBF), (0xB0, 0x3A, 0x2E), (0x2E, 0x7D, 0x32),
                                                (0x8E, 0x44, 0xAD), (0xC0, 0x6C, 0x00), (0x00, 0x83, 0x8F)]
        let c = palette[n % palette.count]
        return RGBColor(red: c.0, green: c.1, blue: c.2)
    }
}

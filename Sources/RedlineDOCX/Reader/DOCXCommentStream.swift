import RedlineCore
import RedlineXML

/// The comments of `comments.xml`, read alongside the body instead of before it, so that a document of
/// many comments is not held whole (PERFORMANCE.md, "Comments").
///
/// A first pass over the part keeps only what the body and the threads need: each comment's thread (its
/// root's id, with replies and resolved state from `commentsExtended.xml`) and, per thread, where its last
/// comment is. A second reader over the part then parses comments in file order as the body reaches an
/// anchor of a thread not yet read (`through(thread:)`), handing them to `ChunkAttacher`, which holds only
/// those met before their anchor. The comments, their order and the warnings are those of reading the
/// part whole before the body (`DOCXCommentStreamTests` compares the two ways): warnings of the comments'
/// bodies are collected apart and put where reading the part first put them when the part is done (`rest`).
final class DOCXCommentStream {
    /// Ids of the comments that are replies (the body keeps no anchor of theirs).
    let replyIDs: Set<String>
    /// Per comment in file order: the id of its thread's root when it is a reply, and whether it is resolved.
    private let parents: [String?]
    private let resolved: [Bool]
    /// Per thread (by the id `ChunkAttacher` keys it with): the file index of its last comment.
    private let threadEnds: [String: Int32]
    private let parser: StoryParser
    /// Comments parsed so far (the file index of the next).
    private(set) var parsed = 0
    private let warnings = Diagnostics()
    private let diagnostics: Diagnostics
    /// Where the reader's diagnostics were when the part was opened (where its warnings go).
    private let stamp: Int, mark: Int
    private var warned = false

    /// Nil when the package has no comments part. `context` is the one comments are parsed with.
    init?(_ package: DOCXPackage, context: StoryContext) throws {
        guard let entry = package.part("comments", fallback: "word/comments.xml") else { return nil }
        var ctx = context
        ctx.relationships = try SideParts.relationships(of: entry, in: package)
        diagnostics = context.diagnostics
        stamp = context.diagnostics.stamp
        mark = context.diagnostics.mark
        ctx.diagnostics = warnings

        let index = try Self.index(try package.xml(entry))
        let threads = try Self.threads(index, extended: try package.part("commentsExtended", fallback: "word/commentsExtended.xml")
            .map { try package.xml($0) })
        parents = threads.parents
        resolved = threads.resolved
        var ends: [String: Int32] = [:]
        var replies = Set<String>()
        for (i, id) in index.ids.enumerated() {
            ends[parents[i] ?? id] = Int32(i)
            if parents[i] != nil { replies.insert(id) }
        }
        threadEnds = ends
        replyIDs = replies
        parser = StoryParser(try package.xml(entry, again: true), context: ctx)
    }

    /// The comments to add before the thread `id` is looked up: every comment not read yet up to the
    /// thread's last (none when it is read already or is no thread).
    func through(thread id: String) throws -> [Comment] {
        guard let end = threadEnds[id], Int(end) >= parsed else { return [] }
        var out: [Comment] = []
        while parsed <= Int(end), let c = try next() { out.append(c) }
        return out
    }

    /// Every comment not read yet; the comments' warnings then go before the reader's.
    func rest() throws -> [Comment] {
        var out: [Comment] = []
        while let c = try next() { out.append(c) }
        if !warned {
            warned = true
            diagnostics.insert(warnings, at: mark, stamp: stamp)
        }
        return out
    }

    /// The next comment of the part, parsed.
    private func next() throws -> Comment? {
        let x = parser.x
        while let k = try x.next() {
            guard k == .start, x.isElement("comment", in: OOXML.w) else { continue }
            let id = x.attribute("id", in: OOXML.w) ?? String(parsed)
            let author = PropertyParser.author(x), date = x.attribute("date", in: OOXML.w)
            let initials = x.attribute("initials", in: OOXML.w)
            var c = Comment(id: id, author: author, initials: initials, date: date, body: try parser.blocks())
            if parsed < parents.count {
                c.parentID = parents[parsed]
                c.resolved = resolved[parsed]
            }
            parsed += 1
            return c
        }
        return nil
    }

    // MARK: The first pass

    /// Each comment's id and the `w14:paraId` of its last paragraph (what `commentsExtended.xml` names it by).
    private static func index(_ x: XMLReader) throws -> (ids: [String], byParaID: [String: Int]) {
        var ids: [String] = []
        var byParaID: [String: Int] = [:]
        while let k = try x.next() {
            guard k == .start, x.isElement("comment", in: OOXML.w) else { continue }
            ids.append(x.attribute("id", in: OOXML.w) ?? String(ids.count))
            var last: String?
            try lastParagraphID(x, &last)
            if let p = last { byParaID[p] = ids.count - 1 }
        }
        return (ids, byParaID)
    }

    /// From a start tag to its end tag: sets `last` to the paragraph id of each `w:p` at its end, as the
    /// story parser does (`StoryProgress.lastParaID`), reading only the first choice of `mc:AlternateContent`.
    private static func lastParagraphID(_ x: XMLReader, _ last: inout String?) throws {
        while let k = try x.next() {
            switch k {
            case .end: return
            case .text: continue
            case .start:
                if x.namespace == OOXML.mc {
                    guard x.tag == .AlternateContent else { try x.skipElement(); continue }
                    var taken = false
                    while let k = try x.next(), k != .end {
                        guard k == .start else { continue }
                        if !taken && x.isElement(.Choice, in: OOXML.mc) {
                            taken = true
                            try lastParagraphID(x, &last)
                        } else {
                            try x.skipElement()
                        }
                    }
                } else if x.isElement(.p, in: OOXML.w) {
                    let id = x.attribute("paraId", in: OOXML.w14)
                    try lastParagraphID(x, &last)
                    last = id
                } else {
                    try lastParagraphID(x, &last)
                }
            }
        }
    }

    /// Replies and resolved state from `commentsExtended.xml` (a comment is named by its last paragraph's
    /// id), each reply's parent then taken up to its thread's root (a cycle ends after as many hops as
    /// there are comments).
    private static func threads(_ index: (ids: [String], byParaID: [String: Int]), extended y: XMLReader?)
        throws -> (parents: [String?], resolved: [Bool]) {
        let ids = index.ids
        var parents = [String?](repeating: nil, count: ids.count)
        var resolved = [Bool](repeating: false, count: ids.count)
        if let y {
            while let k = try y.next() {
                guard k == .start, y.localName == "commentEx", let p = y.attribute("paraId", in: OOXML.w15),
                      let i = index.byParaID[p] else { continue }
                if let done = y.attribute("done", in: OOXML.w15), done == "1" || done == "true" { resolved[i] = true }
                if let parent = y.attribute("paraIdParent", in: OOXML.w15), let j = index.byParaID[parent], j != i {
                    parents[i] = ids[j]
                }
            }
        }
        var first: [String: Int] = [:]
        for (i, id) in ids.enumerated() where first[id] == nil { first[id] = i }
        for i in ids.indices {
            var parent = parents[i]
            var hops = 0
            while let p = parent, let j = first[p], let up = parents[j], hops < ids.count {
                parent = up
                hops += 1
            }
            parents[i] = parent == ids[i] ? nil : parent
        }
        return (parents, resolved)
    }
}

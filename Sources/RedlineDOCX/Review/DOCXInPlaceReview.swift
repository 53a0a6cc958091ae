import Foundation
import RedlineCore
import RedlineXML
import RedlineZip

/// Review decisions applied to a DOCX in place: the package is rewritten part by part, the story parts
/// (body, headers, footers, notes, comments) and `styles.xml`/`numbering.xml` streamed through
/// `StoryRewriter` and stored anew only when a decision changed them; every other part (media, theme,
/// settings, custom XML...) is copied as it is stored, byte for byte, without recompression. When
/// every comment goes, the comments parts go too, with their relationships and content types.
public enum DOCXInPlaceReview {
    /// What an in-place review did.
    public struct Summary: Sendable {
        /// Parts stored anew (the others were copied).
        public var rewritten: [String] = []
        /// Parts removed (comments parts when no comment is left).
        public var removed: [String] = []
    }

    /// Applies `review` to the DOCX `input` and hands the new package's bytes to `write` in blocks.
    @discardableResult
    public static func apply(_ input: DocumentInput, review: ReviewOptions, limits: Limits = Limits(),
                             write: (UnsafeRawBufferPointer) throws -> Void) throws -> Summary {
        let package = try DOCXPackage(input, limits: limits)
        let parts = try Parts(package)
        let comments = try ReviewComments(package, parts: parts)
        var dropped = comments.dropped(by: review)
        let zip = try ZipWriter(compressionLevel: 1)
        let archive = package.archive
        // The stories other than the comments go first, into spools: a comment whose anchors all went with
        // removed content (a removed row, say) goes too, as in Word, which the comments parts then say.
        var stories: [String: ZipSpool?] = [:]
        var lost: Set<String> = [], kept: Set<String> = []
        for entry in archive.entries where !entry.isDirectory {
            guard let story = parts.stories[entry.name], story != "comments" else { continue }
            let (spool, anchors) = try rewrite(entry, package: package, zip: zip, story: story, review: review, dropped: dropped)
            stories[entry.name] = .some(spool)
            lost.formUnion(anchors.lost)
            kept.formUnion(anchors.kept)
        }
        dropped.formUnion(comments.withReplies(lost.subtracting(kept).subtracting(dropped)))
        let removeCommentParts = !comments.all.isEmpty && dropped.count == comments.all.count
        let droppedParaIDs = comments.paraIDs(of: dropped)
        let droppedDurable = try comments.durableIDs(for: droppedParaIDs, package: package, parts: parts)
        var summary = Summary()
        for entry in archive.entries where !entry.isDirectory {
            let n = entry.name
            if removeCommentParts && (parts.commentParts.contains(n) || parts.commentParts.contains(where: { DOCXPackage.relationshipsPart(of: $0) == n })) {
                summary.removed.append(n)
                continue
            }
            if let done = stories[n] {
                if let spool = done {
                    try zip.add(spool)
                    summary.rewritten.append(n)
                } else {
                    try zip.copy(entry, from: archive)
                }
            } else if let story = parts.stories[n] {
                let (spool, _) = try rewrite(entry, package: package, zip: zip, story: story, review: review, dropped: dropped)
                if let spool {
                    try zip.add(spool)
                    summary.rewritten.append(n)
                } else {
                    try zip.copy(entry, from: archive)
                }
            } else if n == parts.commentsExtended || n == parts.commentsIds || n == parts.commentsExtensible, !dropped.isEmpty {
                let bytes = try archive.read(entry)
                let (out, changed) = try filterPart(bytes, name: n, limits: limits) { x in
                    if let p = x.attribute("paraId", in: ReviewNamespaces.w15) ?? x.attribute("paraId", in: ReviewNamespaces.w16cid) {
                        return droppedParaIDs.contains(p)
                    }
                    if let d = x.attribute("durableId", in: ReviewNamespaces.w16cex) { return droppedDurable.contains(d) }
                    return false
                }
                if changed { try zip.add(n, bytes: out); summary.rewritten.append(n) } else { try zip.copy(entry, from: archive) }
            } else if removeCommentParts && (n == DOCXPackage.relationshipsPart(of: package.documentPart) || n == "[Content_Types].xml") {
                let bytes = try archive.read(entry)
                let removed = Set(parts.commentParts.map { "/" + $0 })
                let relIDs = parts.commentRelationshipIDs
                let (out, changed) = try filterPart(bytes, name: n, limits: limits) { x in
                    if x.localName == "Relationship", let id = x.attribute("Id") { return relIDs.contains(id) }
                    if x.localName == "Override", let p = x.attribute("PartName") { return removed.contains(p) || removed.contains("/" + p) }
                    return false
                }
                if changed { try zip.add(n, bytes: out); summary.rewritten.append(n) } else { try zip.copy(entry, from: archive) }
            } else {
                try zip.copy(entry, from: archive)
            }
        }
        try zip.finish(write)
        return summary
    }

    /// Every tracked change and comment of the DOCX `input`, in reading order (body, then headers,
    /// footers, notes and comments as the package lists them), with the ids `--accept id=` matches.
    /// Who last saved the file (core properties' last-modified-by), if it says.
    public static func lastEditor(_ input: DocumentInput, limits: Limits = Limits()) throws -> String? {
        try SideParts.lastEditor(DOCXPackage(input, limits: limits))
    }

    public static func list(_ input: DocumentInput, limits: Limits = Limits()) throws -> [ChangeListItem] {
        let package = try DOCXPackage(input, limits: limits)
        let parts = try Parts(package)
        let comments = try ReviewComments(package, parts: parts)
        let headings = try headingStyles(package)
        var items: [ChangeListItem] = []
        var anchors: [String: ChangeListItem] = [:]
        for (name, story) in parts.ordered {
            guard let entry = package.archive.entry(named: name) else { continue }
            let x = try package.xml(entry, names: ReviewName.names)
            let r = StoryRewriter(x, review: ReviewOptions(), story: story, listing: true) { _ in }
            r.headingStyles = headings
            try r.run()
            items += r.items
            anchors.merge(r.anchors) { a, _ in a }
        }
        for c in comments.all {
            var item = anchors[c.id] ?? ChangeListItem(id: c.id, kind: .comment, element: "w:comment", story: "comments")
            item.author = c.author
            item.date = c.date
            item.after = c.text
            item.thread = c.parent
            item.resolved = c.resolved
            items.append(item)
        }
        return items
    }

    // MARK: Parts

    /// Streams one part through the rewriter into a closed spool, nil when nothing changed (the stored part
    /// is copied instead); with the comments whose references the rewrite removed and those whose
    /// references or range markers it kept.
    private static func rewrite(_ entry: ZipEntry, package: DOCXPackage, zip: ZipWriter, story: String, review: ReviewOptions,
                                dropped: Set<String>) throws -> (ZipSpool?, (lost: Set<String>, kept: Set<String>)) {
        let spool = try zip.spool(entry.name)
        let r = StoryRewriter(try package.xml(entry, names: ReviewName.names), review: review, droppedComments: dropped, story: story) { bytes in
            try spool.write(bytes)
        }
        try r.run()
        try spool.close()
        return (r.changed ? spool : nil, (r.lostReferences, r.keptAnchors))
    }

    /// A small part with the elements `remove` selects removed (with what they hold); the bytes and
    /// whether anything was removed.
    private static func filterPart(_ bytes: [UInt8], name: String, limits: Limits,
                                   remove: (XMLReader) -> Bool) throws -> ([UInt8], Bool) {
        let x = try XMLReader(bytes: bytes, name: name, namespaces: ReviewNamespaces.table, limits: limits)
        var w = XMLEventWriter()
        w.declaration()
        var changed = false
        while let k = try x.next() {
            switch k {
            case .start:
                if x.depth >= 1 && remove(x) {
                    changed = true
                    try x.skipElement()
                } else {
                    w.start(x)
                }
            case .end: w.end(x)
            case .text: w.text(x)
            }
        }
        return (w.take(), changed)
    }

    /// Style ids that are headings (an outline level, or named "heading N" / "Title").
    private static func headingStyles(_ package: DOCXPackage) throws -> Set<String> {
        guard let entry = package.part("styles", fallback: "word/styles.xml") else { return [] }
        let x = try package.xml(entry)
        var out: Set<String> = []
        var current: String?
        while let k = try x.next() {
            guard k == .start, x.namespace == OOXML.w else { continue }
            switch x.localName {
            case "style": current = x.attribute("type", in: OOXML.w) == "paragraph" ? x.attribute("styleId", in: OOXML.w) : nil
            case "name":
                if let c = current, let v = x.attribute("val", in: OOXML.w)?.lowercased(), v.hasPrefix("heading") || v == "title" {
                    out.insert(c)
                }
            case "outlineLvl":
                if let c = current, let v = x.attribute("val", in: OOXML.w), let n = Int(v), n < 9 { out.insert(c) }
            default: break
            }
        }
        return out
    }

    /// Where the parts that hold changes are.
    struct Parts {
        /// Part name → story label, for every part streamed through the rewriter.
        var stories: [String: String] = [:]
        /// The same in reading order (body first).
        var ordered: [(String, String)] = []
        var commentParts: [String] = []
        var commentRelationshipIDs: Set<String> = []
        var comments: String?
        var commentsExtended: String?
        var commentsIds: String?
        var commentsExtensible: String?

        init(_ package: DOCXPackage) throws {
            func add(_ name: String, _ story: String) {
                guard stories[name] == nil, let real = package.archive.entry(named: name)?.name else { return }
                stories[real] = story
                ordered.append((real, story))
            }
            add(package.documentPart, "body")
            let rels = package.relationships.sorted { $0.value.target < $1.value.target }
            for kind in ["header", "footer", "footnotes", "endnotes", "comments", "styles", "numbering"] {
                for (_, r) in rels where r.kind == kind && !r.external {
                    let file = r.target.split(separator: "/").last.map { String($0.split(separator: ".").first ?? "") } ?? kind
                    add(r.target, kind == "header" || kind == "footer" ? file : kind)
                }
            }
            for (id, r) in package.relationships where !r.external {
                switch r.kind {
                case "comments": comments = r.target
                case "commentsExtended": commentsExtended = r.target
                case "commentsIds": commentsIds = r.target
                case "commentsExtensible": commentsExtensible = r.target
                default: continue
                }
                commentParts.append(r.target)
                commentRelationshipIDs.insert(id)
            }
        }
    }
}

/// Namespaces the comments side parts and package parts are matched in.
enum ReviewNamespaces {
    static let w15 = 101, w16cid = 102, w16cex = 103
    static let table: [String: Int] = OOXML.table.merging([
        "http://schemas.microsoft.com/office/word/2016/wordml/cid": w16cid,
        "http://schemas.microsoft.com/office/word/2018/wordml/cex": w16cex,
    ]) { a, _ in a }.mapValues { $0 == OOXML.w15 ? w15 : $0 }
}

/// The comments of a package as review decisions see them: id, author, date, resolved, parent, the
/// paragraph ids of their bodies (which `commentsExtended`/`commentsIds` refer to).
struct ReviewComments {
    struct Entry {
        var id: String
        var author: String?
        var date: String?
        var text = ""
        var paraIDs: [String] = []
        var resolved = false
        var parent: String?
    }

    var all: [Entry] = []

    init(_ package: DOCXPackage, parts: DOCXInPlaceReview.Parts) throws {
        guard let name = parts.comments, let entry = package.archive.entry(named: name) else { return }
        let x = try XMLReader(bytes: try package.archive.read(entry), name: name, namespaces: OOXML.table, limits: package.limits)
        var current: Entry?
        var inText = false
        while let k = try x.next() {
            switch k {
            case .start where x.namespace == OOXML.w:
                switch x.localName {
                case "comment":
                    current = Entry(id: x.attribute("id", in: OOXML.w) ?? String(all.count),
                                    author: x.attribute("author", in: OOXML.w), date: x.attribute("date", in: OOXML.w))
                case "p":
                    if let p = x.attribute("paraId", in: OOXML.w14) {
                        current?.paraIDs.append(p)
                    }
                    if current?.text.isEmpty == false { current?.text += " " }
                case "t": inText = true
                default: break
                }
            case .text where inText: current?.text += x.text
            case .end where x.namespace == OOXML.w:
                if x.localName == "t" { inText = false }
                if x.localName == "comment", let c = current {
                    all.append(c)
                    current = nil
                }
            default: break
            }
        }
        guard let extName = parts.commentsExtended, let ext = package.archive.entry(named: extName) else { return }
        var byPara: [String: Int] = [:]
        for (i, c) in all.enumerated() { if let last = c.paraIDs.last { byPara[last] = i } }
        let y = try XMLReader(bytes: try package.archive.read(ext), name: extName, namespaces: OOXML.table, limits: package.limits)
        while let k = try y.next() {
            guard k == .start, y.localName == "commentEx", let p = y.attribute("paraId", in: OOXML.w15), let i = byPara[p] else { continue }
            if let done = y.attribute("done", in: OOXML.w15), done == "1" || done == "true" { all[i].resolved = true }
            if let parent = y.attribute("paraIdParent", in: OOXML.w15), let j = byPara[parent], j != i { all[i].parent = all[j].id }
        }
    }

    /// The comments `review` removes, with the replies of removed comments.
    func dropped(by review: ReviewOptions) -> Set<String> {
        var out: Set<String> = []
        if review.keepsAllComments { return out }
        for c in all {
            if let p = c.parent, out.contains(p) { out.insert(c.id); continue }
            let comment = Comment(id: c.id, author: c.author, date: c.date, body: [], resolved: c.resolved, parentID: c.parent)
            // A resolved thread goes whole: replies share their root's state.
            if !review.keeps(comment) { out.insert(c.id) }
        }
        return out
    }

    /// `ids` with the replies to them (and to those replies).
    func withReplies(_ ids: Set<String>) -> Set<String> {
        guard !ids.isEmpty else { return ids }
        var out = ids
        var grew = true
        while grew {
            grew = false
            for c in all where !out.contains(c.id) {
                if let p = c.parent, out.contains(p) { out.insert(c.id); grew = true }
            }
        }
        return out
    }

    func paraIDs(of ids: Set<String>) -> Set<String> {
        Set(all.filter { ids.contains($0.id) }.flatMap(\.paraIDs))
    }

    /// `commentsIds` maps paragraph ids to durable ids, which `commentsExtensible` uses.
    func durableIDs(for paraIDs: Set<String>, package: DOCXPackage, parts: DOCXInPlaceReview.Parts) throws -> Set<String> {
        guard !paraIDs.isEmpty, let name = parts.commentsIds, let entry = package.archive.entry(named: name) else { return [] }
        let x = try XMLReader(bytes: try package.archive.read(entry), name: name, namespaces: ReviewNamespaces.table, limits: package.limits)
        var out: Set<String> = []
        while let k = try x.next() {
            guard k == .start, let p = x.attribute("paraId", in: ReviewNamespaces.w16cid), paraIDs.contains(p),
                  let d = x.attribute("durableId", in: ReviewNamespaces.w16cid) else { continue }
            out.insert(d)
        }
        return out
    }
}

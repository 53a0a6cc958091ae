import Foundation
import RedlineCore
import RedlineRTF

/// What a binder item holds besides its metadata: its text (with comments and footnotes resolved),
/// its document notes and its synopsis.
public struct ItemText: Sendable {
    /// The text; no blocks when the item has none.
    public var document: Document
    /// The inspector's document notes.
    public var notes: [Block]
    /// The index-card synopsis.
    public var synopsis: String?

    public init(document: Document = Document(blocks: []), notes: [Block] = [], synopsis: String? = nil) {
        self.document = document
        self.notes = notes
        self.synopsis = synopsis
    }
}

extension ScrivenerProject {
    /// Reads the text, notes, synopsis and comments of `item`. `linkTarget` gives the URL a `scrivlnk://`
    /// target id leads to (nil: not migrated, the link is dropped with a warning). Losses and damaged side
    /// files are reported; throws only when the text itself cannot be read.
    public func readText(of item: BinderItem, diagnostics: Diagnostics,
                         linkTarget: @escaping @Sendable (String) -> String?) throws -> ItemText {
        var out = ItemText()
        if let p = path(of: .synopsis, for: item, diagnostics: diagnostics) {
            do {
                let s = String(decoding: try ProjectFolder.read(p, limit: 1 << 20), as: UTF8.self).trimmed
                if !s.isEmpty { out.synopsis = s }
            } catch {
                diagnostics.report(.scrivenerUnreadableFile, "the synopsis cannot be read: \(error)")
            }
        }
        let reader = RTFReader(scrivenerLinkTarget: { linkTarget($0) ?? "scrivlnk://" + $0 })
        if let p = path(of: .notes, for: item, diagnostics: diagnostics) {
            do {
                var markup = ScrivenerMarkup(idPrefix: item.id + "-notes", diagnostics: diagnostics)
                out.notes = markup.resolve(try Self.read(p, with: reader, diagnostics: diagnostics)).blocks
            } catch {
                diagnostics.report(.scrivenerUnreadableFile, "the document notes cannot be read: \(error)")
            }
        }
        let annotations = readComments(of: item, diagnostics: diagnostics)
        var markup = ScrivenerMarkup(annotations: annotations, idPrefix: item.id, diagnostics: diagnostics)
        guard let p = path(of: .text, for: item, diagnostics: diagnostics) else {
            if item.kind == .text {
                diagnostics.report(.scrivenerMissingText, "a document has no text file; migrated as empty", severity: .note)
            }
            out.document = markup.resolve(Document(blocks: []))
            return out
        }
        var textReader = reader
        textReader.scrivenerAnnotations = Dictionary(annotations.map { ($0.id, $0.annotation) }, uniquingKeysWith: { a, _ in a })
        out.document = markup.resolve(try Self.read(p, with: textReader, diagnostics: diagnostics))
        return out
    }

    /// The comments and footnotes of `item`'s comments file, bodies read, in file order. A damaged file or
    /// body is reported and left out.
    func readComments(of item: BinderItem, diagnostics: Diagnostics) -> [(id: String, annotation: ScrivenerAnnotation)] {
        guard let p = path(of: .comments, for: item, diagnostics: diagnostics) else { return [] }
        var out: [(id: String, annotation: ScrivenerAnnotation)] = []
        var seen = Set<String>()
        do {
            for c in try CommentsFile.read(try ProjectFolder.read(p)) where seen.insert(c.id).inserted {
                do {
                    let body = try RTFReader().read(.bytes(Array(c.rtf.utf8)), diagnostics: diagnostics).blocks
                    out.append((c.id, c.isFootnote ? .footnote(Note(id: c.id, blocks: body))
                                                   : .comment(Comment(id: c.id, body: body))))
                } catch {
                    diagnostics.report(.scrivenerUnreadableFile, "a comment's text cannot be read: \(error)")
                }
            }
        } catch {
            diagnostics.report(.scrivenerUnreadableFile, "the comments file cannot be read: \(error)")
        }
        return out
    }

    /// Reads an RTF file of the project into a document.
    static func read(_ path: String, with reader: RTFReader, diagnostics: Diagnostics) throws -> Document {
        try reader.read(.bytes(try ProjectFolder.read(path)), diagnostics: diagnostics)
    }
}

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
    /// target id leads to (nil: not migrated). Losses and damaged side files are reported; throws only when
    /// the text itself cannot be read.
    public func readText(of item: BinderItem, diagnostics: Diagnostics,
                         linkTarget: @escaping (String) -> String?) throws -> ItemText {
        var out = ItemText()
        if let p = path(of: .synopsis, for: item, diagnostics: diagnostics) {
            do {
                let s = String(decoding: try ProjectFolder.read(p, limit: 1 << 20), as: UTF8.self).trimmed
                if !s.isEmpty { out.synopsis = s }
            } catch {
                diagnostics.report(.scrivenerUnreadableFile, "the synopsis cannot be read: \(error)")
            }
        }
        if let p = path(of: .notes, for: item, diagnostics: diagnostics) {
            do {
                var markup = ScrivenerMarkup(comments: [:], commentOrder: [], idPrefix: item.id + "-notes",
                                             diagnostics: diagnostics, linkTarget: linkTarget)
                out.notes = markup.resolve(try Self.readRTF(p, diagnostics: diagnostics)).blocks
            } catch {
                diagnostics.report(.scrivenerUnreadableFile, "the document notes cannot be read: \(error)")
            }
        }
        var comments: [String: (isFootnote: Bool, body: [Block])] = [:]
        var order: [String] = []
        if let p = path(of: .comments, for: item, diagnostics: diagnostics) {
            do {
                for c in try CommentsFile.read(try ProjectFolder.read(p)) where comments[c.id] == nil {
                    do {
                        let body = try Self.readRTF(bytes: Array(c.rtf.utf8), name: "a comment", diagnostics: diagnostics)
                        comments[c.id] = (c.isFootnote, body.blocks)
                        order.append(c.id)
                    } catch {
                        diagnostics.report(.scrivenerUnreadableFile, "a comment's text cannot be read: \(error)")
                    }
                }
            } catch {
                diagnostics.report(.scrivenerUnreadableFile, "the comments file cannot be read: \(error)")
            }
        }
        guard let p = path(of: .text, for: item, diagnostics: diagnostics) else {
            if item.kind == .text && !comments.isEmpty {
                diagnostics.report(.scrivenerMissingText, "a document has comments but no text file", severity: .note)
            } else if item.kind == .text {
                diagnostics.report(.scrivenerMissingText, "a document has no text file; migrated as empty", severity: .note)
            }
            var markup = ScrivenerMarkup(comments: comments, commentOrder: order, idPrefix: item.id,
                                         diagnostics: diagnostics, linkTarget: linkTarget)
            out.document = order.isEmpty ? Document(blocks: []) : markup.resolve(Document(blocks: []))
            return out
        }
        var markup = ScrivenerMarkup(comments: comments, commentOrder: order, idPrefix: item.id,
                                     diagnostics: diagnostics, linkTarget: linkTarget)
        out.document = markup.resolve(try Self.readRTF(p, diagnostics: diagnostics))
        return out
    }

    /// Reads an RTF file of the project into a document.
    static func readRTF(_ path: String, diagnostics: Diagnostics) throws -> Document {
        try readRTF(bytes: try ProjectFolder.read(path), name: (path as NSString).lastPathComponent,
                    diagnostics: diagnostics)
    }

    /// Reads RTF held in memory into a document.
    static func readRTF(bytes: [UInt8], name: String, diagnostics: Diagnostics) throws -> Document {
        var source = try RTFReader().open(.bytes(bytes), options: ReadOptions(), diagnostics: diagnostics)
        return try Document(reading: &source)
    }
}

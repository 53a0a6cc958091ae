import Foundation
import RedlineCore
import RedlineRTF

/// An open Scrivener project: its folder and binder, and the files behind each binder item.
///
///     Name.scriv/
///       Name.scrivx                       the binder (BinderReader)
///       Files/Data/<UUID>/content.rtf     Scrivener 3: text, notes.rtf, synopsis.txt, content.comments
///       Files/Docs/<ID>.rtf               Scrivener 2: text, <ID>_notes.rtf, <ID>_synopsis.txt, <ID>.comments
///       Snapshots/<ID>.snapshots/*.rtf    earlier versions of a document
public struct ScrivenerProject: Sendable {
    public let folder: ProjectFolder
    public let binder: Binder

    /// Opens the project at `path`; throws when there is no readable binder.
    public init(path: String, diagnostics: Diagnostics) throws {
        folder = try ProjectFolder(path: path, diagnostics: diagnostics)
        let bytes = try ProjectFolder.read(folder.binderPath, limit: ProjectFolder.maxBinderBytes)
        let hasDocs = folder.directory("Files/Docs", diagnostics: diagnostics) != nil
        let hasData = folder.directory("Files/Data", diagnostics: diagnostics) != nil
        do {
            binder = try BinderReader.read(bytes, fallbackFormat: hasDocs && !hasData ? .scrivener2 : .scrivener3,
                                           diagnostics: diagnostics)
        } catch let e as RedlineError {
            throw RedlineError(e.kind, "\((folder.binderPath as NSString).lastPathComponent): \(e.message)")
        }
        guard binder.draft != nil else {
            throw RedlineError.malformed("\((folder.binderPath as NSString).lastPathComponent): the binder has no Draft (manuscript) folder")
        }
    }

    /// The project's name (the folder's, without `.scriv`).
    public var name: String { folder.name }

    // MARK: Files

    /// Which of an item's files.
    public enum ItemFile: Sendable {
        case text, notes, synopsis, comments
    }

    /// The path, inside the project, of one of an item's files; nil when the item's id cannot name a file
    /// (reported once under `scrivener.unsafe-id`).
    public func relativePath(of file: ItemFile, for item: BinderItem, diagnostics: Diagnostics) -> String? {
        guard ProjectFolder.isSafeID(item.id) else {
            if !item.id.isEmpty {
                diagnostics.report(.scrivenerUnsafeID,
                                   "the binder item id '\(item.id)' is not a plain name; its files were not read")
            }
            return nil
        }
        switch binder.format {
        case .scrivener3:
            let name: String
            switch file {
            case .text: name = item.kind.holdsText ? "content.rtf" : contentName(item)
            case .notes: name = "notes.rtf"
            case .synopsis: name = "synopsis.txt"
            case .comments: name = "content.comments"
            }
            return "Files/Data/\(item.id)/\(name)"
        case .scrivener2:
            switch file {
            case .text: return item.kind.holdsText ? "Files/Docs/\(item.id).rtf" : "Files/Docs/\(item.id).\(safeExtension(item) ?? "")"
            case .notes: return "Files/Docs/\(item.id)_notes.rtf"
            case .synopsis: return "Files/Docs/\(item.id)_synopsis.txt"
            case .comments: return "Files/Docs/\(item.id).comments"
            }
        }
    }

    /// The existing file behind `file` of `item`, resolved inside the project; nil when there is none.
    public func path(of file: ItemFile, for item: BinderItem, diagnostics: Diagnostics) -> String? {
        guard let rel = relativePath(of: file, for: item, diagnostics: diagnostics) else { return nil }
        return folder.file(rel, diagnostics: diagnostics)
    }

    /// A non-text item's file extension when it is a plain name (`png`, `pdf`), else nil.
    public func safeExtension(_ item: BinderItem) -> String? {
        guard let e = item.fileExtension, !e.isEmpty, ProjectFolder.isSafeID(e) else { return nil }
        return e
    }

    private func contentName(_ item: BinderItem) -> String {
        safeExtension(item).map { "content.\($0)" } ?? "content"
    }

    /// The snapshot files of `item`, sorted by name (Scrivener names them by date), with their titles from
    /// the snapshot index when it has them.
    public func snapshots(of item: BinderItem, diagnostics: Diagnostics) -> [Snapshot] {
        guard ProjectFolder.isSafeID(item.id),
              let dir = folder.directory("Snapshots/\(item.id).snapshots", diagnostics: diagnostics) else { return [] }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.lowercased().hasSuffix(".rtf") && !$0.hasPrefix(".") }.sorted()
        return names.compactMap { n in
            folder.file("Snapshots/\(item.id).snapshots/\(n)", diagnostics: diagnostics).map {
                Snapshot(name: String(n.dropLast(4)), path: $0)
            }
        }
    }

    /// How many items lie below `root` (the Trash, Research...), `root` itself not counted.
    public func countItems(in root: BinderItem?) -> Int {
        guard let root else { return 0 }
        var n = 0
        root.walk { _, depth in if depth > 0 { n += 1 } }
        return n
    }
}

/// One snapshot of a document: an earlier version kept by Scrivener.
public struct Snapshot: Hashable, Sendable {
    /// The file's name without `.rtf` (a date and time).
    public var name: String
    public var path: String
}

extension ScrivenerProject {
    /// Reads one snapshot's text (style markers removed; snapshots keep no comments file of their own here).
    public func readSnapshot(_ snapshot: Snapshot, diagnostics: Diagnostics) throws -> Document {
        var markup = ScrivenerMarkup(idPrefix: "snapshot", diagnostics: diagnostics)
        return markup.resolve(try Self.read(snapshot.path, with: RTFReader(scrivenerLinkTarget: { "scrivlnk://" + $0 }),
                                            diagnostics: diagnostics))
    }
}

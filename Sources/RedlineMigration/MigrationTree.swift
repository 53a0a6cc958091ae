import RedlineCore
import RedlineScrivener
import RedlineConversion
import RedlineBatch

/// One binder item in a migration: the item, its depth (1 for a child of the Draft or Research folder),
/// whether it is written itself, and its children that have something to write.
public struct MigrationNode: Hashable, Sendable {
    public var item: BinderItem
    public var depth: Int
    /// False for a folder left out of compile whose children are written: it keeps its place, not its text.
    public var included: Bool
    /// A picture, PDF or other file rather than text (written only when research is exported).
    public var isMedia: Bool
    public var children: [MigrationNode]

    /// This node and every node below it, depth first in binder order.
    public func forEach(_ body: (MigrationNode) throws -> Void) rethrows {
        try body(self)
        for c in children { try c.forEach(body) }
    }
}

extension ScrivenerProject {
    /// The manuscript: the Draft folder's items depth first in binder order. Items not included in compile
    /// are left out (a folder left out keeps its place when something inside it is written); pictures come
    /// along (`isMedia`); PDFs and other files are left out with a warning. What is left out is counted in
    /// `diagnostics`.
    public func manuscript(diagnostics: Diagnostics) -> [MigrationNode] {
        var excluded = 0
        var media = 0
        func node(_ item: BinderItem, depth: Int) -> MigrationNode? {
            let children = item.children.compactMap { node($0, depth: depth + 1) }
            let isMedia = !item.kind.holdsText
            let picture = isMedia && isPicture(item)
            var included = item.includeInCompile
            if included && isMedia && !picture { media += 1; included = false }
            if !item.includeInCompile { excluded += 1 }
            guard included || !children.isEmpty else { return nil }
            return MigrationNode(item: item, depth: depth, included: included, isMedia: picture, children: children)
        }
        let nodes = (binder.draft?.children ?? []).compactMap { node($0, depth: 1) }
        if excluded > 0 {
            diagnostics.report(.scrivenerExcluded, "items not included in compile were left out",
                               count: excluded, severity: .note)
        }
        if media > 0 {
            diagnostics.report(.scrivenerMediaSkipped, "PDFs and other files (not pictures) in the manuscript were not migrated",
                               count: media)
        }
        return nodes
    }

    /// True for a binder item that is a picture file (Scrivener's `Image` type, or a picture extension).
    public func isPicture(_ item: BinderItem) -> Bool {
        if item.kind == .other("Image") { return true }
        return ["png", "jpg", "jpeg", "gif", "bmp", "tif", "tiff"].contains(safeExtension(item)?.lowercased() ?? "")
    }

    /// The Research folder's items, all of them (compile settings do not apply), pictures and files included.
    public func research() -> [MigrationNode] {
        func node(_ item: BinderItem, depth: Int) -> MigrationNode {
            MigrationNode(item: item, depth: depth, included: true, isMedia: !item.kind.holdsText,
                          children: item.children.map { node($0, depth: depth + 1) })
        }
        return (binder.research?.children ?? []).map { node($0, depth: 1) }
    }
}

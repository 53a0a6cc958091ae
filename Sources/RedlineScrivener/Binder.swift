/// Which generation of Scrivener wrote a project; they keep their files in different places.
public enum ScrivenerFormat: String, Hashable, Sendable, Codable {
    /// Scrivener 1 and 2: `Files/Docs/<ID>.rtf`, numeric `ID` attributes, binder `Version="1.x"`.
    case scrivener2
    /// Scrivener 3: `Files/Data/<UUID>/content.rtf`, `UUID` attributes, binder `Version="2.0"`.
    case scrivener3
}

/// The kind of a binder item (its `Type` attribute).
public enum BinderItemKind: Hashable, Sendable, Codable {
    /// The manuscript root (`DraftFolder`), whatever the writer renamed it to.
    case draftFolder
    case researchFolder
    case trashFolder
    case folder
    case text
    /// A picture, PDF, web archive, media file...: the `Type` as written.
    case other(String)

    /// The kind named by a `Type` attribute.
    public init(typeAttribute t: String) {
        switch t {
        case "DraftFolder": self = .draftFolder
        case "ResearchFolder": self = .researchFolder
        case "TrashFolder": self = .trashFolder
        case "Folder": self = .folder
        case "Text": self = .text
        default: self = .other(t)
        }
    }

    /// True for items whose file is RTF text (documents and folders, which may have text of their own).
    public var holdsText: Bool {
        switch self {
        case .other: return false
        default: return true
        }
    }
}

/// One value of a custom metadata field on a binder item.
public struct CustomMetadataValue: Hashable, Sendable, Codable {
    /// The field's `ID` (`FieldID` in the item).
    public var fieldID: String
    public var value: String
}

/// One item of the binder: a folder or document with its metadata and children, in binder order.
/// The binder's types are made by `BinderReader` (their memberwise initializers are the compiler's, internal).
public struct BinderItem: Hashable, Sendable, Codable {
    /// The `UUID` (Scrivener 3) or `ID` (Scrivener 2) attribute, as written: not yet checked as a file name.
    public var id: String
    public var kind: BinderItemKind
    /// The title; empty when the binder has none (Scrivener shows "Untitled").
    public var title: String = ""
    /// `MetaData/IncludeInCompile` is `Yes` (Scrivener writes the element only when it is on).
    public var includeInCompile: Bool = true
    public var labelID: String?
    public var statusID: String?
    public var keywordIDs: [String] = []
    /// Keywords written as names rather than ids (older binders).
    public var keywordNames: [String] = []
    public var customMetadata: [CustomMetadataValue] = []
    /// `MetaData/FileExtension`: the extension of a non-text item's file.
    public var fileExtension: String?
    public var created: String?
    public var modified: String?
    public var children: [BinderItem] = []

    /// The title, or "Untitled" as Scrivener shows an item without one.
    public var displayTitle: String { title.isEmpty ? "Untitled" : title }

    /// Every item in this subtree, depth first in binder order, with its depth (this item at `depth`).
    public func walk(depth: Int = 0, _ body: (BinderItem, Int) throws -> Void) rethrows {
        try body(self, depth)
        for c in children { try c.walk(depth: depth + 1, body) }
    }
}

/// A custom metadata field defined in `CustomMetaDataSettings`.
public struct CustomMetadataField: Hashable, Sendable, Codable {
    public var id: String
    public var title: String
    /// `Text`, `List`, `Checkbox`, `Date`...
    public var type: String = "Text"
    /// For list fields: option id → option text.
    public var options: [String: String] = [:]
}

/// Project-wide names the binder refers to by id: labels, statuses, keywords, custom metadata fields.
public struct ProjectSettings: Hashable, Sendable, Codable {
    public var labels: [String: String] = [:]
    public var statuses: [String: String] = [:]
    public var keywords: [String: String] = [:]
    /// In the order the project defines them.
    public var customFields: [CustomMetadataField] = []
    /// What the project calls labels and statuses (`LabelSettings/Title`, e.g. "POV").
    public var labelTitle = "Label"
    public var statusTitle = "Status"
}

/// The binder of a project: top-level items in order, and the settings their ids refer to.
public struct Binder: Hashable, Sendable, Codable {
    public var format: ScrivenerFormat
    public var items: [BinderItem]
    public var settings = ProjectSettings()

    /// The manuscript root (`DraftFolder`), if any.
    public var draft: BinderItem? { items.first { $0.kind == .draftFolder } }
    public var research: BinderItem? { items.first { $0.kind == .researchFolder } }
    public var trash: BinderItem? { items.first { $0.kind == .trashFolder } }
}

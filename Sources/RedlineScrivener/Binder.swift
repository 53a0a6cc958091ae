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

    public init(fieldID: String, value: String) {
        self.fieldID = fieldID
        self.value = value
    }
}

/// One item of the binder: a folder or document with its metadata and children, in binder order.
public struct BinderItem: Hashable, Sendable, Codable {
    /// The `UUID` (Scrivener 3) or `ID` (Scrivener 2) attribute, as written: not yet checked as a file name.
    public var id: String
    public var kind: BinderItemKind
    /// The title; empty when the binder has none (Scrivener shows "Untitled").
    public var title: String
    /// `MetaData/IncludeInCompile` is `Yes` (Scrivener writes the element only when it is on).
    public var includeInCompile: Bool
    public var labelID: String?
    public var statusID: String?
    public var keywordIDs: [String]
    /// Keywords written as names rather than ids (older binders).
    public var keywordNames: [String]
    public var customMetadata: [CustomMetadataValue]
    /// `MetaData/FileExtension`: the extension of a non-text item's file.
    public var fileExtension: String?
    public var created: String?
    public var modified: String?
    public var children: [BinderItem]

    public init(id: String, kind: BinderItemKind, title: String = "", includeInCompile: Bool = true,
                labelID: String? = nil, statusID: String? = nil, keywordIDs: [String] = [], keywordNames: [String] = [],
                customMetadata: [CustomMetadataValue] = [], fileExtension: String? = nil,
                created: String? = nil, modified: String? = nil, children: [BinderItem] = []) {
        self.id = id
        self.kind = kind
        self.title = title
        self.includeInCompile = includeInCompile
        self.labelID = labelID
        self.statusID = statusID
        self.keywordIDs = keywordIDs
        self.keywordNames = keywordNames
        self.customMetadata = customMetadata
        self.fileExtension = fileExtension
        self.created = created
        self.modified = modified
        self.children = children
    }

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
    public var type: String
    /// For list fields: option id → option text.
    public var options: [String: String]

    public init(id: String, title: String, type: String = "Text", options: [String: String] = [:]) {
        self.id = id
        self.title = title
        self.type = type
        self.options = options
    }
}

/// Project-wide names the binder refers to by id: labels, statuses, keywords, custom metadata fields.
public struct ProjectSettings: Hashable, Sendable, Codable {
    public var labels: [String: String]
    public var statuses: [String: String]
    public var keywords: [String: String]
    /// In the order the project defines them.
    public var customFields: [CustomMetadataField]
    /// What the project calls labels and statuses (`LabelSettings/Title`, e.g. "POV").
    public var labelTitle: String
    public var statusTitle: String

    public init(labels: [String: String] = [:], statuses: [String: String] = [:], keywords: [String: String] = [:],
                customFields: [CustomMetadataField] = [], labelTitle: String = "Label", statusTitle: String = "Status") {
        self.labels = labels
        self.statuses = statuses
        self.keywords = keywords
        self.customFields = customFields
        self.labelTitle = labelTitle
        self.statusTitle = statusTitle
    }
}

/// The binder of a project: top-level items in order, and the settings their ids refer to.
public struct Binder: Hashable, Sendable, Codable {
    public var format: ScrivenerFormat
    public var items: [BinderItem]
    public var settings: ProjectSettings

    public init(format: ScrivenerFormat, items: [BinderItem], settings: ProjectSettings = ProjectSettings()) {
        self.format = format
        self.items = items
        self.settings = settings
    }

    /// The manuscript root (`DraftFolder`), if any.
    public var draft: BinderItem? { items.first { $0.kind == .draftFolder } }
    public var research: BinderItem? { items.first { $0.kind == .researchFolder } }
    public var trash: BinderItem? { items.first { $0.kind == .trashFolder } }
}

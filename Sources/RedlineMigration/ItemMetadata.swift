import RedlineCore
import RedlineScrivener
import RedlineConversion
import RedlineBatch

/// A binder item's metadata as named fields: synopsis, label, status, keywords, custom metadata, notes.
/// Front matter in the tree layout; a metadata section under the heading in the single layout.
struct ItemMetadata {
    /// One field: its front-matter key, its label for people, and its value.
    struct Field {
        var key: String
        var label: String
        var value: MetadataValue
    }

    var fields: [Field] = []

    /// The metadata of `item` (synopsis and notes from `text`), names looked up in `settings`.
    /// Ids the settings do not define are kept as they are, with a warning.
    init(item: BinderItem, text: ItemText, settings: ProjectSettings, diagnostics: Diagnostics) {
        func unknown(_ what: String) {
            diagnostics.report(.scrivenerUnknownReference, "the binder names a \(what) its settings do not define")
        }
        if let s = text.synopsis { fields.append(Field(key: "synopsis", label: "Synopsis", value: .text(s))) }
        if let id = item.labelID, id != "-1", !id.isEmpty {
            if settings.labels[id] == nil { unknown("label") }
            fields.append(Field(key: "label", label: settings.labelTitle, value: .text(settings.labels[id] ?? id)))
        }
        if let id = item.statusID, id != "-1", !id.isEmpty {
            if settings.statuses[id] == nil { unknown("status") }
            fields.append(Field(key: "status", label: settings.statusTitle, value: .text(settings.statuses[id] ?? id)))
        }
        var keywords = item.keywordIDs.map { id -> String in
            if settings.keywords[id] == nil { unknown("keyword") }
            return settings.keywords[id] ?? id
        }
        keywords += item.keywordNames
        if !keywords.isEmpty { fields.append(Field(key: "keywords", label: "Keywords", value: .list(keywords))) }
        let reserved: Set<String> = ["title", "synopsis", "label", "status", "keywords", "notes"]
        for v in item.customMetadata where !v.value.trimmed.isEmpty {
            let field = settings.customFields.first { $0.id == v.fieldID }
            if field == nil { unknown("custom metadata field") }
            let label = field?.title ?? v.fieldID
            var key = OutputNames.slug(label)
            if reserved.contains(key) || fields.contains(where: { $0.key == key }) { key = "custom-" + key }
            let value = field?.options[v.value] ?? v.value.trimmed
            fields.append(Field(key: key, label: label, value: .text(value)))
        }
        if !text.notes.isEmpty {
            let plain = text.notes.map(\.plainText).joined(separator: "\n\n").trimmed
            if !plain.isEmpty { fields.append(Field(key: "notes", label: "Notes", value: .text(plain))) }
        }
    }

    var isEmpty: Bool { fields.isEmpty }

    /// Front matter for the tree layout: the title first, then every field. Notes go in as plain text:
    /// when they had formatting, comments or notes of their own, that is reported.
    func frontMatter(title: String, notes: [Block], diagnostics: Diagnostics) -> Metadata {
        var m = Metadata()
        m["title"] = .text(title)
        for f in fields { m[f.key] = f.value }
        if !notes.isEmpty && notes.contains(where: Self.hasFormatting) {
            diagnostics.report(.scrivenerNotesFlattened,
                               "document notes went into the front matter as plain text; their formatting was dropped")
        }
        return m
    }

    /// The metadata section of the single layout: a block quote with one paragraph per field,
    /// notes kept as their own blocks (formatting included) under a "Notes:" line.
    func section(notes: [Block]) -> Block? {
        guard !isEmpty else { return nil }
        var blocks: [Block] = []
        for f in fields where f.key != "notes" {
            let value = f.value.strings.joined(separator: ", ")
            blocks.append(.paragraph(Paragraph([.strong([.text(f.label)]), .text(": " + value)])))
        }
        if !notes.isEmpty && fields.contains(where: { $0.key == "notes" }) {
            blocks.append(.paragraph(Paragraph([.strong([.text("Notes")]), .text(":")])))
            blocks += notes
        }
        return .blockQuote(blocks)
    }

    /// True when a notes block holds more than plain paragraphs of plain text.
    static func hasFormatting(_ block: Block) -> Bool {
        guard case .paragraph(let p) = block else { return true }
        func formatted(_ inlines: [Inline]) -> Bool {
            inlines.contains { inline in
                switch inline {
                case .text, .softBreak, .lineBreak: return false
                case .styled(_, let c): return formatted(c)
                default: return true
                }
            }
        }
        return formatted(p.content)
    }
}

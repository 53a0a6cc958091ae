import RedlineCore

/// Reads a `.scrivx` binder into a `Binder`: items in binder order with their metadata, and the project's
/// label, status, keyword and custom-field names. Scrivener 2 (`ID`) and 3 (`UUID`) binders alike.
public enum BinderReader {
    /// Deepest binder nesting accepted.
    public static let maxDepth = Limits.maxBinderDepth

    /// Parses binder XML. `fallbackFormat` is used when the root has no `Version`.
    public static func read(_ bytes: [UInt8], fallbackFormat: ScrivenerFormat,
                            diagnostics: Diagnostics) throws -> Binder {
        let root = try XMLTree.parse(bytes, name: "the binder")
        guard root.name == "ScrivenerProject" else {
            throw RedlineError.malformed("the binder's root is <\(root.name)>, not <ScrivenerProject>")
        }
        var format = fallbackFormat
        if let v = root.attributes["Version"], let major = v.split(separator: ".").first.flatMap({ Int($0) }) {
            format = major >= 2 ? .scrivener3 : .scrivener2
        }
        guard let binder = root.child("Binder") else {
            throw RedlineError.malformed("the binder has no <Binder> element")
        }
        var seen = Set<String>()
        let items = try binder.children("BinderItem").map {
            try item($0, depth: 0, seen: &seen, diagnostics: diagnostics)
        }
        return Binder(format: format, items: items, settings: settings(root))
    }

    private static func item(_ e: XMLTree.Element, depth: Int, seen: inout Set<String>,
                             diagnostics: Diagnostics) throws -> BinderItem {
        guard depth < maxDepth else { throw RedlineError.limit("the binder nests deeper than \(maxDepth) levels (\(Limits.name("maxBinderDepth", maxDepth)))") }
        var id = e.attributes["UUID"] ?? e.attributes["ID"] ?? ""
        if !id.isEmpty && !seen.insert(id).inserted {
            diagnostics.report(.scrivenerDuplicateID, "two binder items share the id \(id); only the first gets its files")
            id = ""
        }
        var item = BinderItem(id: id, kind: BinderItemKind(typeAttribute: e.attributes["Type"] ?? ""),
                              title: e.child("Title")?.text ?? "", includeInCompile: false,
                              created: e.attributes["Created"], modified: e.attributes["Modified"])
        if let meta = e.child("MetaData") {
            item.includeInCompile = meta.child("IncludeInCompile")?.text.trimmed.lowercased() == "yes"
            item.labelID = meta.child("LabelID")?.text.trimmed
            item.statusID = meta.child("StatusID")?.text.trimmed
            item.fileExtension = meta.child("FileExtension")?.text.trimmed
            let values = (meta.child("CustomMetaData")?.children("MetaDataItem") ?? []) + meta.children("MetaDataItem")
            for v in values {
                guard let field = v.child("FieldID")?.text.trimmed, !field.isEmpty else { continue }
                item.customMetadata.append(CustomMetadataValue(fieldID: field, value: v.child("Value")?.text ?? ""))
            }
        }
        if let keywords = e.child("Keywords") {
            item.keywordIDs = keywords.children("KeywordID").map(\.text.trimmed).filter { !$0.isEmpty }
            if item.keywordIDs.isEmpty {
                item.keywordNames = keywords.text.split(separator: ";").map { String($0).trimmed }.filter { !$0.isEmpty }
            }
        }
        item.children = try (e.child("Children")?.children("BinderItem") ?? []).map {
            try self.item($0, depth: depth + 1, seen: &seen, diagnostics: diagnostics)
        }
        return item
    }

    private static func settings(_ root: XMLTree.Element) -> ProjectSettings {
        var s = ProjectSettings()
        if let l = root.child("LabelSettings") {
            if let t = l.child("Title")?.text.trimmed, !t.isEmpty { s.labelTitle = t }
            for x in l.child("Labels")?.children("Label") ?? [] {
                if let id = x.attributes["ID"] { s.labels[id] = x.text.trimmed }
            }
        }
        if let st = root.child("StatusSettings") {
            if let t = st.child("Title")?.text.trimmed, !t.isEmpty { s.statusTitle = t }
            for x in st.child("StatusItems")?.children("Status") ?? [] {
                if let id = x.attributes["ID"] { s.statuses[id] = x.text.trimmed }
            }
        }
        func keywords(_ e: XMLTree.Element, depth: Int) {
            guard depth < maxDepth else { return }
            for k in e.children("Keyword") {
                if let id = k.attributes["ID"] { s.keywords[id] = (k.child("Title")?.text ?? k.text).trimmed }
                if let c = k.child("Children") { keywords(c, depth: depth + 1) }
            }
        }
        if let k = root.child("Keywords") { keywords(k, depth: 0) }
        for f in root.child("CustomMetaDataSettings")?.children("MetaDataField") ?? [] {
            guard let id = f.attributes["ID"] else { continue }
            var field = CustomMetadataField(id: id, title: (f.child("Title")?.text ?? f.child("Name")?.text ?? id).trimmed,
                                            type: f.attributes["Type"] ?? "Text")
            for o in f.child("ListOptions")?.children("Option") ?? [] {
                if let oid = o.attributes["ID"] { field.options[oid] = o.text.trimmed }
            }
            s.customFields.append(field)
        }
        return s
    }
}

extension String {
    /// Without leading and trailing white space and newlines (also for the migration in module `Redline`).
    package var trimmed: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}

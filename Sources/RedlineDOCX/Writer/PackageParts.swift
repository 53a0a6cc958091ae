import RedlineCore

/// The small parts of a WordprocessingML package, each a pure function of what the composer collected.
enum PackageParts {
    /// Which optional parts a package has.
    struct Contents {
        var numbering = false
        var footnotes = false
        var endnotes = false
        var comments = false
        var customProperties = false
        /// The Markdown sources part (`MarkdownSources`).
        var markdownSources = false
        /// Extensions of the pictures in `word/media` (png, jpg, gif, ...).
        var images: Set<String> = []
        /// Header and footer parts (`word/NAME`) and their relationship ids.
        var headers: [(name: String, id: String, kind: HeaderFooter.Kind)] = []
        /// `w:evenAndOddHeaders` in the settings.
        var evenAndOddHeaders = false
    }

    static func contentTypes(_ c: Contents) -> String {
        var x = XMLText()
        x.raw(xmlDeclaration)
        x.open("Types", [("xmlns", NS.contentTypes)])
        x.empty("Default", [("Extension", "rels"), ("ContentType", "application/vnd.openxmlformats-package.relationships+xml")])
        x.empty("Default", [("Extension", "xml"), ("ContentType", "application/xml")])
        for ext in c.images.sorted() {
            let type = MediaKind.allCases.first { $0.fileExtension == ext }?.mimeType ?? "image/" + ext
            x.empty("Default", [("Extension", ext), ("ContentType", type)])
        }
        let wml = "application/vnd.openxmlformats-officedocument.wordprocessingml."
        var parts: [(String, String)] = [
            ("/word/document.xml", wml + "document.main+xml"),
            ("/word/styles.xml", wml + "styles+xml"),
            ("/word/settings.xml", wml + "settings+xml"),
        ]
        if c.numbering { parts.append(("/word/numbering.xml", wml + "numbering+xml")) }
        for h in c.headers { parts.append(("/word/" + h.name, wml + h.kind.rawValue + "+xml")) }
        if c.footnotes { parts.append(("/word/footnotes.xml", wml + "footnotes+xml")) }
        if c.endnotes { parts.append(("/word/endnotes.xml", wml + "endnotes+xml")) }
        if c.comments {
            parts += [("/word/comments.xml", wml + "comments+xml"),
                      ("/word/commentsExtended.xml", wml + "commentsExtended+xml"),
                      ("/word/commentsIds.xml", wml + "commentsIds+xml")]
        }
        parts.append(("/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml"))
        if c.customProperties {
            parts.append(("/docProps/custom.xml", "application/vnd.openxmlformats-officedocument.custom-properties+xml"))
        }
        if c.markdownSources {
            parts.append(("/customXml/itemProps1.xml", "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"))
        }
        for (name, type) in parts { x.empty("Override", [("PartName", name), ("ContentType", type)]) }
        x.close("Types")
        return string(x)
    }

    static func packageRelationships(_ c: Contents) -> String {
        var rels = [
            ("rId1", NS.officeRels + "/officeDocument", "word/document.xml"),
            ("rId2", "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties", "docProps/core.xml"),
        ]
        if c.customProperties { rels.append(("rId3", NS.officeRels + "/custom-properties", "docProps/custom.xml")) }
        return relationships(rels.map { ($0.0, $0.1, $0.2, false) })
    }

    static func documentRelationships(_ c: Contents, links: [(id: String, url: String)],
                                      images: [(id: String, target: String)] = []) -> String {
        var rels: [(String, String, String, Bool)] = [
            ("rId1", NS.officeRels + "/styles", "styles.xml", false),
            ("rId2", NS.officeRels + "/settings", "settings.xml", false),
        ]
        if c.numbering { rels.append(("rId3", NS.officeRels + "/numbering", "numbering.xml", false)) }
        if c.footnotes { rels.append(("rId4", NS.officeRels + "/footnotes", "footnotes.xml", false)) }
        if c.endnotes { rels.append(("rId5", NS.officeRels + "/endnotes", "endnotes.xml", false)) }
        if c.comments {
            rels += [("rId6", NS.officeRels + "/comments", "comments.xml", false),
                     ("rId7", "http://schemas.microsoft.com/office/2011/relationships/commentsExtended", "commentsExtended.xml", false),
                     ("rId8", "http://schemas.microsoft.com/office/2016/09/relationships/commentsIds", "commentsIds.xml", false)]
        }
        if c.markdownSources { rels.append(("rId9", NS.officeRels + "/customXml", "../" + MarkdownSources.partName, false)) }
        for h in c.headers { rels.append((h.id, NS.officeRels + "/" + h.kind.rawValue, h.name, false)) }
        for l in links { rels.append((l.id, NS.officeRels + "/hyperlink", l.url, true)) }
        for i in images { rels.append((i.id, NS.officeRels + "/image", i.target, false)) }
        return relationships(rels)
    }

    private static func relationships(_ rels: [(id: String, type: String, target: String, external: Bool)]) -> String {
        var x = XMLText()
        x.raw(xmlDeclaration)
        x.open("Relationships", [("xmlns", NS.packageRels)])
        for r in rels {
            var a = [("Id", r.id), ("Type", r.type), ("Target", r.target)]
            if r.external { a.append(("TargetMode", "External")) }
            x.empty("Relationship", a)
        }
        x.close("Relationships")
        return string(x)
    }

    static func settings(_ c: Contents) -> String {
        var x = XMLText()
        x.raw(xmlDeclaration)
        x.open("w:settings", [("xmlns:w", NS.w)])
        x.empty("w:zoom", [("w:percent", "100")])
        x.val("w:defaultTabStop", "720")
        if c.evenAndOddHeaders { x.empty("w:evenAndOddHeaders") }
        x.val("w:characterSpacingControl", "doNotCompress")
        if c.footnotes {
            x.raw("<w:footnotePr><w:footnote w:id=\"-1\"/><w:footnote w:id=\"0\"/></w:footnotePr>")
        }
        if c.endnotes {
            x.raw("<w:endnotePr><w:endnote w:id=\"-1\"/><w:endnote w:id=\"0\"/></w:endnotePr>")
        }
        x.open("w:compat")
        x.empty("w:compatSetting", [("w:name", "compatibilityMode"), ("w:uri", "http://schemas.microsoft.com/office/word"),
                                    ("w:val", "15")])
        x.close("w:compat")
        x.close("w:settings")
        return string(x)
    }

    /// `numbering.xml`: three abstract lists (bullets, "1.", "1)") and one `w:num` per list written, each
    /// ordered one restarting at its start value.
    static func numbering(_ lists: [(abstract: Int, level: Int, start: Int?)]) -> String {
        var x = XMLText()
        x.raw(xmlDeclaration)
        x.open("w:numbering", [("xmlns:w", NS.w)])
        let bullets = ["\u{2022}", "\u{25E6}", "\u{25AA}"]
        for abstract in 0..<3 {
            x.open("w:abstractNum", [("w:abstractNumId", String(abstract))])
            x.val("w:multiLevelType", "multilevel")
            for level in 0..<9 {
                x.open("w:lvl", [("w:ilvl", String(level))])
                x.val("w:start", "1")
                x.val("w:numFmt", abstract == 0 ? "bullet" : "decimal")
                x.val("w:lvlText", abstract == 0 ? bullets[level % 3] : "%\(level + 1)" + (abstract == 1 ? "." : ")"))
                x.val("w:lvlJc", "left")
                x.open("w:pPr")
                x.empty("w:ind", [("w:left", String(720 * (level + 1))), ("w:hanging", "360")])
                x.close("w:pPr")
                x.close("w:lvl")
            }
            x.close("w:abstractNum")
        }
        for (i, l) in lists.enumerated() {
            x.open("w:num", [("w:numId", String(i + 1))])
            x.val("w:abstractNumId", String(l.abstract))
            if let start = l.start {
                x.open("w:lvlOverride", [("w:ilvl", String(l.level))])
                x.val("w:startOverride", String(start))
                x.close("w:lvlOverride")
            }
            x.close("w:num")
        }
        x.close("w:numbering")
        return string(x)
    }

    /// `docProps/core.xml` from the metadata fields Dublin Core has; the rest go to `custom.xml`.
    static func coreProperties(_ m: Metadata) -> String {
        var x = XMLText()
        x.raw(xmlDeclaration)
        x.open("cp:coreProperties", [
            ("xmlns:cp", "http://schemas.openxmlformats.org/package/2006/metadata/core-properties"),
            ("xmlns:dc", "http://purl.org/dc/elements/1.1/"), ("xmlns:dcterms", "http://purl.org/dc/terms/"),
            ("xmlns:dcmitype", "http://purl.org/dc/dcmitype/"), ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
        ])
        for field in m.fields {
            guard let tag = coreFields.first(where: { $0.0 == field.key })?.1 else { continue }
            let (key, v) = (field.key, field.value)
            switch tag {
            case "dcterms:created", "dcterms:modified":
                if let d = DOCXDate.w3cdtf(v.strings.first ?? "") {
                    x.element(tag, [("xsi:type", "dcterms:W3CDTF")], text: d)
                }
            default:
                x.element(tag, text: v.strings.joined(separator: key == "keywords" ? ", " : "; "))
            }
        }
        x.close("cp:coreProperties")
        return string(x)
    }

    /// Model keys written to core properties (in the model's order).
    static let coreFields: [(String, String)] = [
        ("title", "dc:title"), ("subject", "dc:subject"), ("author", "dc:creator"), ("keywords", "cp:keywords"),
        ("description", "dc:description"), ("language", "dc:language"), ("category", "cp:category"),
        ("created", "dcterms:created"), ("modified", "dcterms:modified"),
    ]

    /// The metadata fields core properties cannot hold: other keys, and dates that are not W3CDTF; and the
    /// Markdown front matter as written (`Metadata.source`), so that it comes back whole from the DOCX.
    static func customFields(_ m: Metadata) -> [Metadata.Field] {
        m.fields.filter { f in
            guard let tag = coreFields.first(where: { $0.0 == f.key })?.1 else {
                return f.key != frontMatterProperty && !KeptSources.isKept(f.key)
            }
            if tag.hasPrefix("dcterms:") { return DOCXDate.w3cdtf(f.value.strings.first ?? "") == nil }
            return false
        } + (m.source.map { [Metadata.Field(key: frontMatterProperty, value: .text($0))] } ?? [])
    }

    /// The custom property holding the Markdown front matter as its author wrote it.
    static let frontMatterProperty = "RedlineFrontMatter"

    /// `docProps/custom.xml`: one text property per field (lists joined with "; ").
    static func customProperties(_ fields: [Metadata.Field]) -> String {
        var x = XMLText()
        x.raw(xmlDeclaration)
        x.open("Properties", [("xmlns", "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"),
                              ("xmlns:vt", "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes")])
        for (i, f) in fields.enumerated() {
            x.open("property", [("fmtid", "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"), ("pid", String(i + 2)), ("name", f.key)])
            x.element("vt:lpwstr", text: f.value.strings.joined(separator: "; "))
            x.close("property")
        }
        x.close("Properties")
        return string(x)
    }

    static func string(_ x: XMLText) -> String { String(decoding: x.bytes, as: UTF8.self) }
}

import Foundation
import RedlineCore
import RedlineXML
import RedlineZip

/// The parts read before the body: core properties and notes (comments: `DOCXCommentStream`).
enum SideParts {
    /// `docProps/core.xml` → metadata (title, author, subject, keywords, description, created, modified).
    static func metadata(_ package: DOCXPackage) throws -> Metadata {
        var m = Metadata()
        var part = "docProps/core.xml"
        if let core = package.rootRelationships.values.first(where: { $0.kind == "core-properties" && !$0.external }) {
            part = core.target
        }
        guard let entry = package.archive.entry(named: part) else { return m }
        let x = try package.xml(entry)
        let keys: [String: String] = ["title": "title", "creator": "author", "subject": "subject", "keywords": "keywords",
                                      "description": "description", "created": "created", "modified": "modified"]
        while let k = try x.next() {
            guard k == .start, x.depth == 1, [OOXML.dc, OOXML.cp, OOXML.dcterms].contains(x.namespace), let key = keys[x.localName] else { continue }
            let value = try x.elementText().trimmingCharacters(in: .whitespacesAndNewlines)
            if value.isEmpty { continue }
            // Several authors are written "Ann; Bob" (Word, pandoc).
            m[key] = key == "author"
                ? .list(value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
                : .text(value)
        }
        try frontMatter(package, into: &m)
        return m
    }

    /// A package Redline wrote from Markdown keeps the front matter as written in a custom property: it and the
    /// other custom properties (the front matter's fields core properties have no place for) come back. Other
    /// packages' custom properties (a document management system's) are not the author's metadata: left alone.
    static func frontMatter(_ package: DOCXPackage, into m: inout Metadata) throws {
        var part = "docProps/custom.xml"
        if let custom = package.rootRelationships.values.first(where: { $0.kind == "custom-properties" && !$0.external }) {
            part = custom.target
        }
        guard let entry = package.archive.entry(named: part) else { return }
        let x = try package.xml(entry)
        var fields: [Metadata.Field] = []
        var source: String?
        while let k = try x.next() {
            guard k == .start, x.localName == "property", let name = x.attribute("name") else { continue }
            let value = try x.elementText()
            if name == PackageParts.frontMatterProperty { source = value }
            else if !KeptSources.isKept(name) { fields.append(.init(key: name, value: .text(value))) }
        }
        guard let source else { return }
        m.source = source
        for f in fields where m[f.key] == nil { m.fields.append(f) }
    }

    /// What Redline kept beside the text it wrote (`KeptSources`: equations' TeX, code's info strings, pictures'
    /// and headings' attributes, inline notes), from the custom properties: a table for each of
    /// `KeptSources.prefixes`, by prefix (empty when the package has none).
    static func keptSources(_ package: DOCXPackage) throws -> [String: KeptSources] {
        let prefixes = KeptSources.prefixes
        var tables = prefixes.map { KeptSources(prefix: $0) }
        var part = "docProps/custom.xml"
        if let custom = package.rootRelationships.values.first(where: { $0.kind == "custom-properties" && !$0.external }) {
            part = custom.target
        }
        if let entry = package.archive.entry(named: part) {
            let x = try package.xml(entry)
            var pieces: [[Int: String]] = prefixes.map { _ in [:] }
            while let k = try x.next() {
                guard k == .start, x.localName == "property", let name = x.attribute("name") else { continue }
                if let t = tables.indices.first(where: { tables[$0].pieceNumber(name) != nil }) {
                    pieces[t][tables[t].pieceNumber(name)!] = try x.elementText()
                }
            }
            for t in tables.indices where !pieces[t].isEmpty { tables[t] = KeptSources(prefix: prefixes[t], pieces: pieces[t]) }
        }
        return Dictionary(uniqueKeysWithValues: zip(prefixes, tables))
    }

    /// Who last saved the package: `cp:lastModifiedBy` in `docProps/core.xml`, if set.
    static func lastEditor(_ package: DOCXPackage) throws -> String? {
        var part = "docProps/core.xml"
        if let core = package.rootRelationships.values.first(where: { $0.kind == "core-properties" && !$0.external }) {
            part = core.target
        }
        guard let entry = package.archive.entry(named: part) else { return nil }
        let x = try package.xml(entry)
        while let k = try x.next() {
            guard k == .start, x.depth == 1, x.namespace == OOXML.cp, x.localName == "lastModifiedBy" else { continue }
            let v = try x.elementText().trimmingCharacters(in: .whitespacesAndNewlines)
            return v.isEmpty ? nil : v
        }
        return nil
    }

    /// `footnotes.xml` or `endnotes.xml`: every note (separators skipped), ids prefixed `fn`/`en`.
    static func notes(_ package: DOCXPackage, kind: NoteKind, context: StoryContext) throws -> [Note] {
        let (rel, fallback, element, prefix) = kind == .footnote
            ? ("footnotes", "word/footnotes.xml", "footnote", "fn") : ("endnotes", "word/endnotes.xml", "endnote", "en")
        guard let entry = package.part(rel, fallback: fallback) else { return [] }
        var ctx = context
        ctx.relationships = try relationships(of: entry, in: package)
        let parser = StoryParser(try package.xml(entry), context: ctx)
        let x = parser.x
        var notes: [Note] = []
        while let k = try x.next() {
            guard k == .start, x.isElement(element, in: OOXML.w) else { continue }
            if let type = x.attribute("type", in: OOXML.w), type != "normal" {
                try x.skipElement()
                continue
            }
            let id = x.attribute("id", in: OOXML.w) ?? String(notes.count)
            notes.append(Note(id: prefix + id, kind: kind, blocks: try parser.blocks()))
        }
        return notes
    }

    /// Whether even pages have their own headers and footers (`w:evenAndOddHeaders` in the settings part).
    static func evenAndOddHeaders(_ package: DOCXPackage) throws -> Bool {
        guard let entry = package.part("settings", fallback: "word/settings.xml") else { return false }
        let x = try package.xml(entry)
        while let k = try x.next() {
            guard k == .start, x.depth == 1, x.namespace == OOXML.w, x.localName == "evenAndOddHeaders" else { continue }
            return PropertyParser.toggle(x)
        }
        return false
    }

    /// The header and footer parts the main document relates to, each read as a story (paragraphs, tables,
    /// pictures, tracked changes), by relationship id. Nothing is read for a document without them.
    static func headerStories(_ package: DOCXPackage, context: StoryContext) throws -> [String: [Block]] {
        var out: [String: [Block]] = [:]
        for (id, rel) in package.relationships where !rel.external && (rel.kind == "header" || rel.kind == "footer") {
            guard let entry = package.archive.entry(named: rel.target) else { continue }
            var ctx = context
            ctx.relationships = try relationships(of: entry, in: package)
            let parser = StoryParser(try package.xml(entry), context: ctx)
            let x = parser.x
            while let k = try x.next() {
                guard k == .start else { continue }
                if x.namespace == OOXML.w && (x.localName == "hdr" || x.localName == "ftr") { out[id] = try parser.blocks() }
                break
            }
        }
        return out
    }

    /// Names notes by their number: footnotes 1, 2, ... in file order (Word's, ours and pandoc's order of
    /// reference), then endnotes continuing the count, so `[^1]` → DOCX → Markdown is `[^1]` again. Returns
    /// the renamed notes (references inside note bodies renamed too) and the map from the reader's internal
    /// key (`fn`/`en` + `w:id`) to the label, for the body's references.
    static func numbered(_ notes: [Note]) -> (notes: [Note], labels: [String: String]) {
        var labels: [String: String] = [:]
        // Markdown's inline notes (`Note.isInline`) are numbered apart, as the Markdown reader numbers them.
        var counts = (plain: 0, inline: 0)
        for n in notes where labels[n.id] == nil {
            if n.isInline { counts.inline += 1; labels[n.id] = "inline-\(counts.inline)" } else { counts.plain += 1; labels[n.id] = String(counts.plain) }
        }
        func inlines(_ list: [Inline]) -> [Inline] {
            list.map { i in
                if case .noteReference(let id) = i { return .noteReference(labels[id] ?? id) }
                return i.mapChildren(inlines)
            }
        }
        func blocks(_ list: [Block]) -> [Block] {
            list.map { b in
                switch b {
                case .paragraph(var p): p.content = inlines(p.content); return .paragraph(p)
                case .heading(let l, var p): p.content = inlines(p.content); return .heading(level: l, p)
                default: return b.mapBlockArrays(blocks)
                }
            }
        }
        let renamed = notes.map { n in
            var n = n
            n.id = labels[n.id] ?? n.id
            if n.blocks.contains(where: { b in var found = false; b.forEachInline { if case .noteReference = $0 { found = true } }; return found }) {
                n.blocks = blocks(n.blocks)
            }
            return n
        }
        return (renamed, labels)
    }

    /// The relationships of a part other than the main document (links and images in comments and notes).
    static func relationships(of entry: ZipEntry, in package: DOCXPackage) throws -> [String: Relationship] {
        let name = DOCXPackage.relationshipsPart(of: entry.name)
        guard let rels = package.archive.entry(named: name) else { return [:] }
        return try DOCXPackage.readRelationships(try package.archive.read(rels), base: DOCXPackage.directory(of: entry.name),
                                                 name: name, limits: package.limits)
    }
}

import Foundation
import RedlineCore
import RedlineXML
import RedlineZip

/// Lays a written DOCX into the page layout of another: the generated package (a comparison's result,
/// written with NEW as reference document, so NEW's styles) gets NEW's headers and footers (copied byte
/// for byte, with the pictures they show), NEW's final section properties (page size, margins, columns,
/// header and footer references) and NEW's section breaks inside the body. Everything else of the
/// generated package (body, notes, comments, styles, numbering, pictures) is kept as it is.
///
/// Section breaks inside the body sit on paragraphs; the k-th paragraph of NEW's body that holds one is
/// found in the generated body as the k-th paragraph whose mark is not deleted (the result's paragraphs
/// that NEW has, in order). When the two counts differ (a paragraph the reader folded away), those
/// section breaks are left out with a warning (`docx.sections-dropped`); the final one always carries.
public enum DOCXLayoutTransfer {
    static let relationshipsNamespace = "http://schemas.openxmlformats.org/package/2006/relationships"
    static let officeRelationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    static let contentTypesNamespace = "http://schemas.openxmlformats.org/package/2006/content-types"

    /// One relationship as written in a `.rels` part.
    struct Rel {
        var id: String
        var type: String
        var target: String
        var external: Bool
    }

    /// Writes `generated` laid into `new`'s layout to `output`. The last section's headers and footers at the
    /// places in `generatedStories` (kind and `w:type`) are the generated package's (a
    /// comparison's, with tracked changes) where its last section has them, referenced from NEW's section
    /// properties in place of NEW's own; NEW's other stories are copied byte for byte as always.
    public static func transfer(generated: [UInt8], new: DocumentInput, limits: Limits = Limits(),
                                generatedStories: Set<HeaderFooter.Place> = [],
                                diagnostics: Diagnostics, into output: any ByteOutput) throws {
        let gen = try DOCXPackage(.bytes(generated), limits: limits)
        let src = try DOCXPackage(new, limits: limits)
        let layout = try Layout(src)
        // Strict OOXML (another namespace for every element) is not mixed into the transitional result.
        guard !layout.strict, layout.final != nil || !layout.breaks.isEmpty else {
            try output.write(bytes: generated)
            try output.flush()
            return
        }
        // NEW's headers and footers, under names the generated package does not use.
        let taken = Set(gen.archive.entries.map(\.name))
        var newNames = taken
        func fresh(_ name: String) -> String {
            if !newNames.contains(name) { newNames.insert(name); return name }
            let dir = DOCXPackage.directory(of: name), file = name.split(separator: "/").last.map(String.init) ?? name
            var k = 1
            while newNames.contains((dir.isEmpty ? "" : dir + "/") + "new\(k)-" + file) { k += 1 }
            let n = (dir.isEmpty ? "" : dir + "/") + "new\(k)-" + file
            newNames.insert(n)
            return n
        }
        let genDocRelsName = DOCXPackage.relationshipsPart(of: gen.documentPart)
        var genRels = try gen.archive.read(named: genDocRelsName).map { try rels($0, name: genDocRelsName, limits: limits) } ?? []
        var usedIDs = Set(genRels.map(\.id))
        var idMap: [String: String] = [:]
        // The generated last section's stories, in place of NEW's of the same kind and type (or added).
        var extraReferences: [XMLFragment] = []
        if !generatedStories.isEmpty, let genFinal = try Layout(gen).final, let newFinal = layout.final {
            func references(_ f: XMLFragment) -> [(key: HeaderFooter.Place, id: String, fragment: XMLFragment)] {
                f.elements.compactMap { e in
                    guard e.namespace == OOXML.w, e.localName == "headerReference" || e.localName == "footerReference",
                          let id = e.attribute("id", in: OOXML.r),
                          let which = HeaderFooter.Which(rawValue: e.attribute("type", in: OOXML.w) ?? "default") else { return nil }
                    let key = HeaderFooter.Place(kind: e.localName == "headerReference" ? .header : .footer, which: which)
                    return generatedStories.contains(key) ? (key, id, e) : nil
                }
            }
            let genRefs = references(genFinal), newRefs = references(newFinal)
            for n in newRefs { if let g = genRefs.first(where: { $0.key == n.key }) { idMap[n.id] = g.id } }
            extraReferences = genRefs.filter { g in !newRefs.contains { $0.key == g.key } }.map(\.fragment)
        }
        var copies: [(from: String, to: String)] = []      // parts copied byte for byte
        var added: [(name: String, bytes: [UInt8])] = []    // rewritten .rels parts
        var overrides: [(part: String, type: String)] = []
        let srcTypes = try contentTypes(src, limits: limits)
        for id in layout.referencedIDs.sorted() where idMap[id] == nil {
            guard let r = src.relationships[id], !r.external, r.kind == "header" || r.kind == "footer",
                  src.archive.entry(named: r.target) != nil else { continue }
            let name = fresh(r.target)
            copies.append((r.target, name))
            overrides.append((name, srcTypes.overrides[r.target]
                ?? "application/vnd.openxmlformats-officedocument.wordprocessingml.\(r.kind)+xml"))
            var k = 1
            while usedIDs.contains("rIdNew\(k)") { k += 1 }
            let newID = "rIdNew\(k)"
            usedIDs.insert(newID)
            idMap[id] = newID
            genRels.append(Rel(id: newID, type: officeRelationships + r.kind, target: relative(name, from: gen.documentPart),
                               external: false))
            // The part's own relationships (pictures in a header): their targets copied too.
            let relsName = DOCXPackage.relationshipsPart(of: r.target)
            if let bytes = try src.archive.read(named: relsName) {
                var partRels = try rels(bytes, name: relsName, limits: limits)
                for i in partRels.indices where !partRels[i].external {
                    let target = DOCXPackage.resolve(partRels[i].target, base: DOCXPackage.directory(of: r.target))
                    guard src.archive.entry(named: target) != nil else { continue }
                    let copy = fresh(target)
                    copies.append((target, copy))
                    if let t = srcTypes.overrides[target] { overrides.append((copy, t)) }
                    partRels[i].target = relative(copy, from: name)
                }
                added.append((DOCXPackage.relationshipsPart(of: name), relsXML(partRels)))
            }
        }
        // Picture extensions the generated package has no default content type for.
        let genTypes = try contentTypes(gen, limits: limits)
        var defaults: [(String, String)] = []
        for (_, to) in copies {
            let ext = (to as NSString).pathExtension.lowercased()
            guard !ext.isEmpty, genTypes.defaults[ext] == nil, !defaults.contains(where: { $0.0 == ext }),
                  !overrides.contains(where: { $0.part == to }), let t = srcTypes.defaults[ext] else { continue }
            defaults.append((ext, t))
        }

        let body = try relaidBody(gen, layout: layout, idMap: idMap, extraReferences: extraReferences, limits: limits,
                                  diagnostics: diagnostics)
        let genSettings = gen.part("settings", fallback: "word/settings.xml")?.name
        let settings = try genSettings.flatMap { try layoutSettings(gen, part: $0, from: src, limits: limits) }
        let genStyles = gen.part("styles", fallback: "word/styles.xml")?.name
        let styles = try genStyles.flatMap { try orderedStyles(gen, part: $0) }
        let zip = try ZipWriter(compressionLevel: 1)
        for entry in gen.archive.entries where !entry.isDirectory {
            switch entry.name {
            case gen.documentPart: try zip.add(entry.name, bytes: body)
            case genSettings where settings != nil: try zip.add(entry.name, bytes: settings!)
            case genStyles where styles != nil: try zip.add(entry.name, bytes: styles!)
            case genDocRelsName: try zip.add(entry.name, bytes: relsXML(genRels))
            case "[Content_Types].xml":
                try zip.add(entry.name, bytes: try addTypes(try gen.archive.read(entry), defaults: defaults,
                                                            overrides: overrides, limits: limits))
            default: try zip.copy(entry, from: gen.archive)
            }
        }
        if gen.archive.entry(named: genDocRelsName) == nil { try zip.add(genDocRelsName, bytes: relsXML(genRels)) }
        for (from, to) in copies {
            guard let e = src.archive.entry(named: from) else { continue }
            try zip.copy(e, from: src.archive, as: to)
        }
        for (name, bytes) in added { try zip.add(name, bytes: bytes) }
        try zip.finish { try output.write($0) }
        try output.flush()
    }

    /// True when the DOCX `input` is Strict OOXML (its elements in the `purl.oclc.org` namespaces): its
    /// parts cannot be mixed into a transitional package, nor its styles used as reference.
    public static func isStrict(_ input: DocumentInput, limits: Limits = Limits()) -> Bool {
        guard let p = try? DOCXPackage(input, limits: limits), let e = p.archive.entry(named: p.documentPart),
              let stream = try? p.archive.open(e) else { return false }
        // Small pieces: the root element is at the start, so the parser need not take in 64 KiB of the body.
        return rootIsStrict(try? XMLReader(name: e.name, namespaces: OOXML.table, names: OOXML.names, limits: limits, read: { b in
            try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: b[..<min(b.count, 4096)]))
        }))
    }

    /// Whether a main document part already read (`bytes`, named `name`) is Strict OOXML, as `isStrict` decides:
    /// only its root element is parsed.
    static func isStrict(documentPart bytes: [UInt8], name: String, limits: Limits) -> Bool {
        rootIsStrict(try? XMLReader(bytes: bytes, name: name, namespaces: OOXML.table, names: OOXML.names, limits: limits))
    }

    /// Whether the first element `x` reads is in a Strict (`purl.oclc.org`) namespace.
    private static func rootIsStrict(_ x: XMLReader?) -> Bool {
        guard let x else { return false }
        while let k = try? x.next() {
            if k == .start { return x.namespaceURI.hasPrefix("http://purl.oclc.org/ooxml/") }
        }
        return false
    }

    // MARK: NEW's layout

    /// NEW's section properties: the final one, and those on paragraphs by the paragraph's ordinal.
    struct Layout {
        var final: XMLFragment?
        var breaks: [(paragraph: Int, sectPr: XMLFragment)] = []
        var paragraphs = 0
        var referencedIDs: Set<String> = []
        /// NEW is Strict OOXML.
        var strict = false

        init(_ package: DOCXPackage) throws {
            guard let entry = package.archive.entry(named: package.documentPart) else { return }
            let x = try package.xml(entry)
            var rootDeclarations: [XMLNamespaceDeclaration] = []
            var inParagraph = false
            while let k = try x.next() {
                switch k {
                case .start:
                    if x.depth == 0 {
                        rootDeclarations = x.declarations
                        strict = x.namespaceURI.hasPrefix("http://purl.oclc.org/ooxml/")
                        if strict { return }
                        continue
                    }
                    if x.depth == 2 && x.namespace == OOXML.w && x.localName == "p" {
                        paragraphs += 1
                        inParagraph = true
                    } else if x.namespace == OOXML.w && x.localName == "sectPr" && (x.depth == 2 || (inParagraph && x.depth == 4)) {
                        let atDepth = x.depth
                        var f = try x.fragment()
                        var decl = rootDeclarations.filter { d in !f.declarations.contains { $0.prefix == d.prefix } }
                        decl += f.declarations
                        f.declarations = decl
                        Self.collectIDs(f, into: &referencedIDs)
                        if atDepth == 2 { final = f } else { breaks.append((paragraphs, f)) }
                    }
                case .end:
                    if x.depth == 2 && x.namespace == OOXML.w && x.localName == "p" { inParagraph = false }
                case .text: break
                }
            }
        }

        static func collectIDs(_ f: XMLFragment, into ids: inout Set<String>) {
            if f.localName == "headerReference" || f.localName == "footerReference", let id = f.attribute("id", in: OOXML.r) {
                ids.insert(id)
            }
            for c in f.elements { collectIDs(c, into: &ids) }
        }
    }

    /// `f` with the relationship ids of its header and footer references mapped (references to parts not
    /// carried over are dropped).
    /// Page margins missing an attribute the schema requires (written so by some tools) get Word's default.
    static func remapped(_ f: XMLFragment, _ idMap: [String: String]) -> XMLFragment? {
        var f = f
        if f.localName == "pgMar" && f.namespace == OOXML.w {
            let defaults = [("top", "1440"), ("right", "1440"), ("bottom", "1440"), ("left", "1440"), ("header", "720"),
                            ("footer", "720"), ("gutter", "0")]
            for (name, value) in defaults where f.attribute(name, in: OOXML.w) == nil {
                f.attributes.append(XMLNodeAttribute(prefix: f.prefix, localName: name, namespace: OOXML.w, value: value))
            }
            return f
        }
        if f.localName == "headerReference" || f.localName == "footerReference" {
            guard let i = f.attributes.firstIndex(where: { $0.namespace == OOXML.r && $0.localName == "id" }),
                  let id = idMap[f.attributes[i].value] else { return nil }
            f.attributes[i].value = id
            return f
        }
        f.children = f.children.compactMap { c in
            if case .element(let e) = c { return remapped(e, idMap).map { .element($0) } }
            return c
        }
        return f
    }

    // MARK: The generated body

    /// The generated document part with NEW's section properties in place of its own.
    /// `extraReferences` (header and footer references of the generated package) go first in the final one.
    static func relaidBody(_ gen: DOCXPackage, layout: Layout, idMap: [String: String], extraReferences: [XMLFragment] = [],
                           limits: Limits, diagnostics: Diagnostics) throws -> [UInt8] {
        guard let entry = gen.archive.entry(named: gen.documentPart) else { throw RedlineError.malformed("no document part") }
        // Count the generated paragraphs that NEW has (mark not deleted) to place the breaks.
        var placeBreaks = !layout.breaks.isEmpty
        if placeBreaks {
            let x = try gen.xml(entry)
            var kept = 0
            while let k = try x.next() {
                if k == .start, x.depth == 2, x.namespace == OOXML.w, x.localName == "p" {
                    if !markDeleted(try x.fragment()) { kept += 1 }
                }
            }
            if kept != layout.paragraphs {
                placeBreaks = false
                diagnostics.report(.docxSectionsDropped,
                                   "\(layout.breaks.count) section break(s) of NEW left out: its \(layout.paragraphs) body paragraphs do not line up with the result's \(kept)",
                                   count: layout.breaks.count)
            }
        }
        var breaks = Dictionary(layout.breaks.map { ($0.paragraph, $0.sectPr) }, uniquingKeysWith: { a, _ in a })
        var final = layout.final
        let x = try gen.xml(entry)
        var w = XMLEventWriter(capacity: Int(min(entry.declaredSize + 4096, 1 << 26)))
        w.declaration()
        var kept = 0
        while let k = try x.next() {
            switch k {
            case .start:
                if x.depth == 0 {
                    // NEW's namespace declarations that the generated root already makes are left off.
                    let root = x.declarations
                    breaks = breaks.mapValues { undeclared($0, in: root) }
                    final = final.map { undeclared($0, in: root) }
                    w.start(x)
                } else if x.depth == 2 && x.namespace == OOXML.w && x.localName == "p" && placeBreaks {
                    var p = try x.fragment()
                    if !markDeleted(p) {
                        kept += 1
                        if let s = breaks[kept], let s = remapped(s, idMap) { p = withSection(p, s) }
                    }
                    w.write(p)
                } else if x.depth == 2 && x.namespace == OOXML.w && x.localName == "sectPr", let f = final {
                    try x.skipElement()
                    if var f = remapped(f, idMap) {
                        f.children.insert(contentsOf: extraReferences.map { e in
                            var e = e
                            e.prefix = f.prefix
                            return .element(e)
                        }, at: 0)
                        w.write(f)
                    }
                } else {
                    w.start(x)
                }
            case .end: w.end(x)
            case .text: w.text(x)
            }
        }
        return w.take()
    }

    /// `f` without the namespace declarations `root` makes the same way.
    static func undeclared(_ f: XMLFragment, in root: [XMLNamespaceDeclaration]) -> XMLFragment {
        var f = f
        f.declarations.removeAll { d in root.contains { $0.prefix == d.prefix && $0.uri == d.uri } }
        return f
    }

    /// True when a paragraph's mark is deleted or moved away (the paragraph is not NEW's).
    static func markDeleted(_ p: XMLFragment) -> Bool {
        guard let ppr = p.elements.first(where: { $0.isElement("pPr", in: OOXML.w) }),
              let rpr = ppr.elements.first(where: { $0.isElement("rPr", in: OOXML.w) }) else { return false }
        return rpr.elements.contains { $0.isElement("del", in: OOXML.w) || $0.isElement("moveFrom", in: OOXML.w) }
    }

    /// `p` with `sectPr` in its paragraph properties (before a `pPrChange`, as the schema orders them).
    static func withSection(_ p: XMLFragment, _ sectPr: XMLFragment) -> XMLFragment {
        var p = p
        var s = sectPr
        s.prefix = p.prefix
        if let i = p.children.firstIndex(where: { if case .element(let e) = $0 { return e.isElement("pPr", in: OOXML.w) }; return false }),
           case .element(var ppr) = p.children[i] {
            ppr.children.removeAll { if case .element(let e) = $0 { return e.isElement("sectPr", in: OOXML.w) }; return false }
            let at = ppr.children.firstIndex { if case .element(let e) = $0 { return e.isElement("pPrChange", in: OOXML.w) }; return false }
            ppr.children.insert(.element(s), at: at ?? ppr.children.endIndex)
            p.children[i] = .element(ppr)
        } else {
            let ppr = XMLFragment(prefix: p.prefix, localName: "pPr", namespace: OOXML.w, children: [.element(s)])
            p.children.insert(.element(ppr), at: 0)
        }
        return p
    }

    // MARK: Settings

    /// The document settings that shape NEW's pages (mirrored margins, gutter position, different even
    /// and odd headers, default tab stop, compatibility options) carried into the generated settings.
    static let layoutSettingNames: Set<String> = ["mirrorMargins", "gutterAtTop", "bordersDoNotSurroundHeader",
                                                  "bordersDoNotSurroundFooter", "defaultTabStop", "evenAndOddHeaders",
                                                  "bookFoldPrinting", "bookFoldRevPrinting", "bookFoldPrintingSheets", "compat"]

    /// `CT_Settings`' element order (ECMA-376 Part 1, 17.15.1.78), for inserting carried settings in place.
    static let settingsOrder: [String: Int] = Dictionary(uniqueKeysWithValues: [
        "writeProtection", "view", "zoom", "removePersonalInformation", "removeDateAndTime", "doNotDisplayPageBoundaries",
        "displayBackgroundShape", "printPostScriptOverText", "printFractionalCharacterWidth", "printFormsData",
        "embedTrueTypeFonts", "embedSystemFonts", "saveSubsetFonts", "saveFormsData", "mirrorMargins", "alignBordersAndEdges",
        "bordersDoNotSurroundHeader", "bordersDoNotSurroundFooter", "gutterAtTop", "hideSpellingErrors", "hideGrammaticalErrors",
        "activeWritingStyle", "proofState", "formsDesign", "attachedTemplate", "linkStyles", "stylePaneFormatFilter",
        "stylePaneSortMethod", "documentType", "mailMerge", "revisionView", "trackRevisions", "doNotTrackMoves",
        "doNotTrackFormatting", "documentProtection", "autoFormatOverride", "styleLockTheme", "styleLockQFSet", "defaultTabStop",
        "autoHyphenation", "consecutiveHyphenLimit", "hyphenationZone", "doNotHyphenateCaps", "showEnvelope", "summaryLength",
        "clickAndTypeStyle", "defaultTableStyle", "evenAndOddHeaders", "bookFoldRevPrinting", "bookFoldPrinting",
        "bookFoldPrintingSheets", "drawingGridHorizontalSpacing", "drawingGridVerticalSpacing", "displayHorizontalDrawingGridEvery",
        "displayVerticalDrawingGridEvery", "doNotUseMarginsForDrawingGridOrigin", "drawingGridHorizontalOrigin",
        "drawingGridVerticalOrigin", "doNotShadeFormData", "noPunctuationKerning", "characterSpacingControl", "printTwoOnOne",
        "strictFirstAndLastChars", "noLineBreaksAfter", "noLineBreaksBefore", "savePreviewPicture", "doNotValidateAgainstSchema",
        "saveInvalidXml", "ignoreMixedContent", "alwaysShowPlaceholderText", "doNotDemarcateInvalidXml", "saveXmlDataOnly",
        "useXSLTWhenSaving", "saveThroughXslt", "showXMLTags", "alwaysMergeEmptyNamespace", "updateFields", "hdrShapeDefaults",
        "footnotePr", "endnotePr", "compat", "docVars", "rsids", "mathPr", "attachedSchema", "themeFontLang", "clrSchemeMapping",
        "doNotIncludeSubdocsInStats", "doNotAutoCompressPictures", "forceUpgrade", "captions", "readModeInkLockDown",
        "smartTagType", "schemaLibrary", "shapeDefaults", "doNotEmbedSmartTags", "decimalSymbol", "listSeparator",
    ].enumerated().map { ($1, $0) })

    /// The generated settings part with NEW's layout settings in place of its own; nil when NEW has none.
    static func layoutSettings(_ gen: DOCXPackage, part: String, from src: DOCXPackage, limits: Limits) throws -> [UInt8]? {
        guard let srcEntry = src.part("settings", fallback: "word/settings.xml"), let genEntry = gen.archive.entry(named: part)
        else { return nil }
        func children(_ p: DOCXPackage, _ e: ZipEntry) throws -> (root: XMLFragment, children: [XMLFragment]) {
            let x = try p.xml(e)
            var root = XMLFragment(prefix: "w", localName: "settings", namespace: OOXML.w)
            var out: [XMLFragment] = []
            while let k = try x.next() {
                guard k == .start else { continue }
                if x.depth == 0 {
                    root = XMLFragment(prefix: x.prefix, localName: x.localName, namespace: x.namespace,
                                       declarations: x.declarations, attributes: x.prefixedAttributes)
                } else if x.depth == 1 {
                    out.append(try x.fragment())
                }
            }
            return (root, out)
        }
        let (srcRoot, srcChildren) = try children(src, srcEntry)
        var carried = srcChildren.filter { $0.namespace == OOXML.w && layoutSettingNames.contains($0.localName) }.map { f in
            var f = f
            f.declarations = srcRoot.declarations.filter { d in !f.declarations.contains { $0.prefix == d.prefix } } + f.declarations
            return f
        }
        guard !carried.isEmpty else { return nil }
        let (genRoot, genChildren) = try children(gen, genEntry)
        carried = carried.map { undeclared($0, in: genRoot.declarations) }
        let replaced = Set(carried.map(\.localName))
        var merged: [(order: Int, index: Int, f: XMLFragment)] = []
        var last = -1
        for f in genChildren where !(f.namespace == OOXML.w && replaced.contains(f.localName)) {
            last = settingsOrder[f.localName] ?? last
            merged.append((last, merged.count, f))
        }
        for f in carried { merged.append((settingsOrder[f.localName] ?? Int.max, merged.count, f)) }
        merged.sort { ($0.order, $0.index) < ($1.order, $1.index) }
        var w = XMLEventWriter(capacity: 8192)
        w.declaration()
        w.start(genRoot)
        for m in merged { w.write(m.f) }
        w.end(prefix: genRoot.prefix, localName: genRoot.localName)
        return w.take()
    }

    // MARK: Styles

    /// The element order of `CT_Style` (ECMA-376 Part 1, 17.7.4.17) and of the cell properties inside it
    /// (`CT_TcPr`, 17.4.70), by the element they order.
    static let childOrders: [String: [String: Int]] = [
        "style": ["name", "aliases", "basedOn", "next", "link", "autoRedefine", "hidden", "uiPriority", "semiHidden",
                  "unhideWhenUsed", "qFormat", "locked", "personal", "personalCompose", "personalReply", "rsid", "pPr", "rPr",
                  "tblPr", "trPr", "tcPr", "tblStylePr"],
        "tcPr": ["cnfStyle", "tcW", "gridSpan", "hMerge", "vMerge", "tcBorders", "shd", "noWrap", "tcMar", "textDirection",
                 "tcFitText", "vAlign", "hideMark", "headers", "cellIns", "cellDel", "cellMerge", "tcPrChange"],
    ].mapValues { Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($1, $0) }) }

    /// `f` with the children of every element `childOrders` knows in that order (an unknown child stays
    /// after the one before it); `changed` is set when anything moved.
    static func ordered(_ f: XMLFragment, changed: inout Bool) -> XMLFragment {
        var f = f
        var children: [XMLFragmentChild] = []
        for c in f.children {
            if case .element(let e) = c { children.append(.element(ordered(e, changed: &changed))) } else { children.append(c) }
        }
        f.children = children
        guard f.namespace == OOXML.w, let order = childOrders[f.localName] else { return f }
        let elements = f.elements
        var last = -1
        let keyed = elements.enumerated().map { i, e -> (Int, Int, XMLFragment) in
            if e.namespace == OOXML.w, let o = order[e.localName] { last = o }
            return (last, i, e)
        }
        let sorted = keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        if sorted.map(\.1) != Array(elements.indices) {
            changed = true
            f.children = sorted.map { .element($0.2) }
        }
        return f
    }

    /// The generated styles part (NEW's styles, as the writer took them from NEW) with the children of each
    /// style in the schema's order, when NEW had some out of it (pandoc's reference styles put `w:qFormat`
    /// after `w:pPr`); nil when every style is in order already (the part is then copied as it is).
    /// Kept by the exact bytes of the part (the pairs of a compare batch nearly always share their styles).
    static func orderedStyles(_ gen: DOCXPackage, part: String) throws -> [UInt8]? {
        guard let entry = gen.archive.entry(named: part) else { return nil }
        guard entry.declaredSize <= UInt64(ExactBytesCache<[UInt8]?>.maxBytes) else {
            return try orderedStyles(try gen.xml(entry), size: entry.declaredSize)
        }
        let bytes = try gen.archive.read(entry)
        return try orderedStylesCache.value(for: bytes, limits: gen.limits) {
            try orderedStyles(try XMLReader(bytes: bytes, name: entry.name, namespaces: OOXML.table, names: OOXML.names,
                                            limits: gen.limits), size: UInt64(bytes.count))
        }
    }

    /// `orderedStyles(_:part:)`'s results by the part's bytes.
    static let orderedStylesCache = ExactBytesCache<[UInt8]?>()

    /// The styles part read by `x` (`size` bytes) with each style's children in order; nil when all were.
    private static func orderedStyles(_ x: XMLReader, size: UInt64) throws -> [UInt8]? {
        var w = XMLEventWriter(capacity: Int(min(size + 4096, 1 << 24)))
        w.declaration()
        var changed = false
        while let k = try x.next() {
            switch k {
            case .start:
                if x.depth == 1 && x.namespace == OOXML.w && x.localName == "style" {
                    w.write(ordered(try x.fragment(), changed: &changed))
                } else {
                    w.start(x)
                }
            case .end: w.end(x)
            case .text: w.text(x)
            }
        }
        return changed ? w.take() : nil
    }

    // MARK: Package parts

    /// The relationships of a `.rels` part, as written.
    static func rels(_ bytes: [UInt8], name: String, limits: Limits) throws -> [Rel] {
        let x = try XMLReader(bytes: bytes, name: name, namespaces: OOXML.table, limits: limits)
        var out: [Rel] = []
        while let k = try x.next() {
            guard k == .start, x.localName == "Relationship", let id = x.attribute("Id"), let type = x.attribute("Type"),
                  let target = x.attribute("Target") else { continue }
            out.append(Rel(id: id, type: type, target: target, external: x.attribute("TargetMode") == "External"))
        }
        return out
    }

    static func relsXML(_ rels: [Rel]) -> [UInt8] {
        func esc(_ v: String) -> String { MarkupEscaper.xmlAttribute.escaped(v) }
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n<Relationships xmlns=\"\(relationshipsNamespace)\">"
        for r in rels {
            s += "<Relationship Id=\"\(esc(r.id))\" Type=\"\(esc(r.type))\" Target=\"\(esc(r.target))\""
            s += r.external ? " TargetMode=\"External\"/>" : "/>"
        }
        s += "</Relationships>"
        return Array(s.utf8)
    }

    /// `part` as a target relative to the directory of `source`.
    static func relative(_ part: String, from source: String) -> String {
        let dir = DOCXPackage.directory(of: source)
        if !dir.isEmpty, part.hasPrefix(dir + "/") { return String(part.dropFirst(dir.count + 1)) }
        return "/" + part
    }

    /// A package's content types: defaults by extension, overrides by part name (without the leading '/').
    static func contentTypes(_ p: DOCXPackage, limits: Limits) throws -> (defaults: [String: String], overrides: [String: String]) {
        guard let bytes = try p.archive.read(named: "[Content_Types].xml") else { return ([:], [:]) }
        let x = try XMLReader(bytes: bytes, name: "[Content_Types].xml", namespaces: OOXML.table, limits: limits)
        var d: [String: String] = [:], o: [String: String] = [:]
        while let k = try x.next() {
            guard k == .start, let t = x.attribute("ContentType") else { continue }
            if x.localName == "Default", let e = x.attribute("Extension") { d[e.lowercased()] = t }
            if x.localName == "Override", let n = x.attribute("PartName") { o[n.hasPrefix("/") ? String(n.dropFirst()) : n] = t }
        }
        return (d, o)
    }

    /// `[Content_Types].xml` with defaults and overrides added at the end.
    static func addTypes(_ bytes: [UInt8], defaults: [(String, String)], overrides: [(part: String, type: String)],
                         limits: Limits) throws -> [UInt8] {
        let x = try XMLReader(bytes: bytes, name: "[Content_Types].xml", namespaces: OOXML.table, limits: limits)
        var w = XMLEventWriter(capacity: bytes.count + 1024)
        w.declaration()
        while let k = try x.next() {
            switch k {
            case .start: w.start(x)
            case .text: w.text(x)
            case .end:
                if x.depth == 0 {
                    let prefix = x.prefix
                    for (e, t) in defaults {
                        w.write(XMLFragment(prefix: prefix, localName: "Default", namespace: -1, attributes: [
                            XMLNodeAttribute(prefix: "", localName: "Extension", namespace: -1, value: e),
                            XMLNodeAttribute(prefix: "", localName: "ContentType", namespace: -1, value: t)]))
                    }
                    for (p, t) in overrides {
                        w.write(XMLFragment(prefix: prefix, localName: "Override", namespace: -1, attributes: [
                            XMLNodeAttribute(prefix: "", localName: "PartName", namespace: -1, value: "/" + p),
                            XMLNodeAttribute(prefix: "", localName: "ContentType", namespace: -1, value: t)]))
                    }
                }
                w.end(x)
            }
        }
        return w.take()
    }
}

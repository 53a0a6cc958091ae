import RedlineCore
import RedlineXML
import RedlineZip

/// Writes a WordprocessingML package (.docx) with real tracked changes, comments (replies and resolved
/// state included), notes, lists, tables and paragraph and character formatting.
///
///     chunk ──▶ DOCXComposer ──XML──▶ word/document.xml (spooled to a temporary file as blocks arrive)
///                   │ comments, notes, links, lists, styles (side tables)
///                   ▼
///     finish: styles, numbering, comments, notes, settings, properties, relationships ──▶ zip ──▶ output
///
/// Output is deterministic: the same chunks and options give the same bytes.
public struct DOCXWriter: FormatWriter {
    /// The writer; options come with each output.
    public init() {}

    /// A sink that writes one package into `output` (a `--reference-doc` is read here: a bad one fails early).
    public func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
        try DOCXSink(output: output, options: options, diagnostics: diagnostics)
    }
}

/// The streaming side of `DOCXWriter`: one per output.
struct DOCXSink: ChunkSink {
    private let output: any ByteOutput
    private let options: WriteOptions
    private let diagnostics: Diagnostics
    private let zip: ZipWriter
    private let body: ZipSpool
    private let composer: DOCXComposer
    private var header = DocumentHeader()
    private var buffer = XMLText()
    /// Writes the body buffer out in the middle of a huge block (`XMLText.spill`).
    private var spill: BodySpill?
    private var media: [ZipSpool] = []
    /// `word/comments.xml`, `commentsExtended.xml` and `commentsIds.xml`, written as each comment comes
    /// (`SpooledPart`); nil until the first comment.
    private var commentsPart: SpooledPart?, extendedPart: SpooledPart?, idsPart: SpooledPart?
    /// The Markdown sources part (`MarkdownSources`), written as blocks with a kept source come (empty until the
    /// first), and its spool once it outgrew memory (`SpooledPart.flushSize`).
    private var sources = XMLText(), sourcesSpool: ZipSpool?
    /// Comments written so far (their `w16cid:durableId` numbers).
    private var commentsWritten = 0
    /// The document's last section, from the last chunk (nil: the writer's default page).
    private var finalSection: Section?
    /// The text box the last top-level block was written into, still open.
    private var openTextBox: TextBox?

    init(output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
        let reference = try options.referenceDocument.map(ReferenceDocument.styles(path:))
        composer = DOCXComposer(styles: StyleCatalog(reference: reference), diagnostics: diagnostics)
        // Level 3: about twice as fast as zlib's default on WordprocessingML, files about 10% larger.
        zip = try ZipWriter(compressionLevel: 3)
        body = try zip.spool("word/document.xml")
        let spill = BodySpill(body)
        self.spill = spill
        buffer.spill = { spill.write(&$0) }
    }

    mutating func begin(_ header: DocumentHeader) throws {
        self.header = header
        composer.formattedSource = header.hasOwnFormatting
        buffer.raw(xmlDeclaration)
        buffer.open("w:document", [("xmlns:w", NS.w), ("xmlns:r", NS.r), ("xmlns:wp", NS.wp)])
        buffer.open("w:body")
    }

    mutating func write(_ chunk: Chunk) throws {
        for c in chunk.comments {
            if let parent = c.parentID { composer.comments.replies[parent, default: []].append(c.id) }
        }
        for n in chunk.notes { composer.notes.kinds[n.id] = n.kind }
        if let box = chunk.block.textBox, !chunk.block.hasSectionEnd {
            // A top-level block in a text box: the box stays open while the blocks after it are in it too.
            if openTextBox != box {
                closeTextBox()
                composer.openTextBox(box, into: &buffer)
                openTextBox = box
            }
            var ctx = DOCXComposer.Context()
            ctx.inTextBox = true
            composer.block(chunk.block, ctx, into: &buffer)
        } else {
            closeTextBox()
            composer.block(chunk.block, DOCXComposer.Context(), into: &buffer)
        }
        if let s = chunk.finalSection { finalSection = s }
        if let e = MarkdownSources.entry(of: chunk.block) {
            if sources.bytes.isEmpty && sourcesSpool == nil { MarkdownSources.begin(into: &sources) }
            MarkdownSources.add(e.key, e.text, into: &sources)
            if sources.bytes.count >= SpooledPart.flushSize {
                let spool = try sourcesSpool ?? zip.spool(MarkdownSources.partName)
                try spool.write(sources.bytes)
                sources.removeAll()
                sourcesSpool = spool
            }
        }
        for n in chunk.notes { note(n) }
        for c in chunk.comments { try comment(c) }
        try storeMedia()
        if buffer.bytes.count >= 1 << 16 { try flush() }
    }

    /// Closes the text box top-level blocks are being written into, if one is open.
    private mutating func closeTextBox() {
        guard openTextBox != nil else { return }
        composer.closeTextBox(into: &buffer)
        openTextBox = nil
    }

    mutating func finish() throws {
        closeTextBox()
        composer.closePendingMove(into: &buffer)
        composer.closeBlockFields(into: &buffer)
        try closeDanglingAnchors()
        if let s = finalSection {
            composer.sectionProperties(s, into: &buffer)
        } else {
            buffer.raw(DOCXWriter.defaultSectionXML)
        }
        try storeMedia()
        buffer.close("w:body")
        buffer.close("w:document")
        try flush()
        try writePackage()
        try zip.finish { try output.write($0) }
    }

    /// Moves the pictures met so far out of memory into temporary files the package takes at the end.
    private mutating func storeMedia() throws {
        for (target, item) in composer.pendingMedia {
            let spool = try zip.spool("word/" + target)
            try item.read { try spool.write($0) }
            try spool.close()
            media.append(spool)
        }
        composer.pendingMedia = []
    }

    private mutating func flush() throws {
        if let e = spill?.error { throw e }
        try buffer.bytes.withUnsafeBytes { try body.write($0) }
        buffer.removeAll()
    }

    // MARK: Comments and notes

    /// Writes `c` into `word/comments.xml` (once per id), and its entries into `commentsExtended.xml` (last
    /// paragraph id, its parent's, resolved state) and `commentsIds.xml`.
    private mutating func comment(_ c: Comment) throws {
        let k = composer.comments.place(c.id)
        guard composer.comments.mark(.written, at: k) else { return }
        let n = composer.comments.number(at: k)
        var a = [("w:id", String(n)), ("w:author", c.author ?? "")]
        if let d = c.date, let v = composer.dateTime(d) { a.append(("w:date", v)) }
        if let i = c.initials { a.append(("w:initials", i)) }
        var part = try commentsPart ?? openCommentsPart()
        commentsPart = nil  // `part` is the only reference while it grows: appending never copies it
        part.x.open("w:comment", a)
        let para = composer.commentBody(c.body, into: &part.x)
        part.x.close("w:comment")
        try part.flushIfFull()
        commentsPart = part
        composer.comments.setParagraphID(para, at: k)

        var ext = try extendedPart ?? openExtendedPart()
        extendedPart = nil
        var e = [("w15:paraId", composer.hex8(para))]
        if let p = c.parentID.flatMap({ composer.comments.paragraphID(of: $0) }) { e.append(("w15:paraIdParent", composer.hex8(p))) }
        e.append(("w15:done", c.resolved ? "1" : "0"))
        ext.x.empty("w15:commentEx", e)
        try ext.flushIfFull()
        extendedPart = ext
        var ids = try idsPart ?? openIDsPart()
        idsPart = nil
        commentsWritten += 1
        ids.x.empty("w16cid:commentId", [("w16cid:paraId", composer.hex8(para)), ("w16cid:durableId", composer.hex8(0x1000_0000 + commentsWritten))])
        try ids.flushIfFull()
        idsPart = ids
    }

    private func note(_ n: Note) {
        guard let (kind, number) = composer.notes.number(n.id) else {
            diagnostics.report(.docxNoteUnreferenced, "note '\(n.id)' is not referenced in the text and was dropped")
            return
        }
        guard composer.notes.written.insert(n.id).inserted else { return }
        if n.isInline { composer.noteSources.keep("^", for: KeptSources.noteText(n)) }
        var x = XMLText()
        let tag = kind == .footnote ? "w:footnote" : "w:endnote"
        x.open(tag, [("w:id", String(number))])
        composer.noteBody(n.blocks, kind: kind, into: &x)
        x.close(tag)
        if kind == .footnote { composer.notes.footnotes.append(x) } else { composer.notes.endnotes.append(x) }
    }

    /// Completes what the text left open: comment ranges without an end, comments without an anchor,
    /// anchors and references without a body. Anchors go into one last paragraph.
    private mutating func closeDanglingAnchors() throws {
        var tail = XMLText()
        for (k, id) in composer.comments.ids.enumerated() {
            let n = composer.comments.number(at: k)
            if composer.comments.has(.started, at: k) && composer.comments.mark(.ended, at: k) {
                tail.empty("w:commentRangeEnd", [("w:id", String(n))])
            }
            if composer.comments.mark(.referenced, at: k) {
                diagnostics.report(.docxCommentUnanchored, "comment '\(id)' has no anchor in the text; it was anchored at the end")
                tail.raw("<w:r><w:rPr><w:rStyle w:val=\"CommentReference\"/></w:rPr><w:commentReference w:id=\"\(n)\"/></w:r>")
            }
        }
        if !tail.isEmpty {
            buffer.raw("<w:p>")
            buffer.append(tail)
            buffer.raw("</w:p>")
        }
        for id in composer.comments.ids where !composer.comments.isWritten(id) {
            diagnostics.report(.docxCommentMissing, "comment '\(id)' is anchored in the text but missing; an empty comment was written")
            try comment(Comment(id: id, body: []))
        }
        for id in composer.notes.referenced where !composer.notes.written.contains(id) {
            diagnostics.report(.docxNoteMissing, "note '\(id)' is referenced but missing; an empty note was written")
            note(Note(id: id, kind: composer.notes.number(id)?.0 ?? .footnote, blocks: []))
        }
    }

    // MARK: The package

    private mutating func writePackage() throws {
        let customFields = PackageParts.customFields(header.metadata) + composer.mathSources.properties() + composer.codeSources.properties()
            + composer.imageSources.properties() + composer.headingSources.properties() + composer.noteSources.properties()
        let c = PackageParts.Contents(
            numbering: !composer.lists.isEmpty, footnotes: composer.notes.footnoteCount > 0,
            endnotes: composer.notes.endnoteCount > 0, comments: !composer.comments.isEmpty,
            customProperties: !customFields.isEmpty, markdownSources: !sources.bytes.isEmpty || sourcesSpool != nil, images: composer.imageKinds,
            headers: composer.headerParts.map { ($0.name, $0.id, $0.kind) }, evenAndOddHeaders: header.evenAndOddHeaders)
        try zip.add("[Content_Types].xml", text: PackageParts.contentTypes(c))
        try zip.add("_rels/.rels", text: PackageParts.packageRelationships(c))
        try zip.add("docProps/core.xml", text: PackageParts.coreProperties(header.metadata))
        if c.customProperties {
            try zip.add("docProps/custom.xml", text: PackageParts.customProperties(customFields))
        }
        try zip.add(body)
        if c.markdownSources {
            MarkdownSources.end(into: &sources)
            if let spool = sourcesSpool {
                try spool.write(sources.bytes)
                try zip.add(spool)
            } else {
                try zip.add(MarkdownSources.partName, bytes: sources.bytes, stored: sources.bytes.count < 1024)
            }
            try zip.add("customXml/itemProps1.xml", text: MarkdownSources.propertiesXML, stored: true)
            try zip.add("customXml/_rels/item1.xml.rels", text: MarkdownSources.relationshipsXML, stored: true)
        }
        try zip.add("word/_rels/document.xml.rels", text: PackageParts.documentRelationships(c, links: composer.links,
                                                                                             images: composer.images))
        for spool in media { try zip.add(spool) }
        let (paragraphDefaults, characterDefaults) = defaults()
        try zip.add("word/styles.xml", text: composer.styles.stylesXML(paragraphDefaults: paragraphDefaults,
                                                                       characterDefaults: characterDefaults))
        try zip.add("word/settings.xml", text: PackageParts.settings(c))
        if c.numbering { try zip.add("word/numbering.xml", text: PackageParts.numbering(composer.lists)) }
        let linkRels = composer.links.isEmpty && composer.images.isEmpty ? nil
            : PackageParts.documentRelationships(PackageParts.Contents(), links: composer.links, images: composer.images)
        if c.footnotes { try addStory("footnotes.xml", root: "w:footnotes", item: "w:footnote", composer.notes.footnotes, linkRels) }
        if c.endnotes { try addStory("endnotes.xml", root: "w:endnotes", item: "w:endnote", composer.notes.endnotes, linkRels) }
        if c.comments { try addComments(linkRels) }
        for part in composer.headerParts {
            try zip.add("word/" + part.name, bytes: part.xml.bytes)
            if let linkRels { try zip.add("word/_rels/\(part.name).rels", text: linkRels) }
        }
    }

    /// The document defaults: the source's, with the preset (or the plain default for a source that has
    /// none at all) filling what the source leaves unset.
    private func defaults() -> (ParagraphStyle, CharacterStyle) {
        let sourceHasNone = !header.hasOwnFormatting
        let paragraph = options.paragraphPreset ?? (sourceHasNone ? DOCXWriter.plainParagraph : ParagraphStyle())
        let character = options.characterPreset ?? (sourceHasNone ? DOCXWriter.plainCharacter : CharacterStyle())
        return (paragraph.merged(with: header.defaultParagraphStyle), character.merged(with: header.defaultCharacterStyle))
    }

    private func addStory(_ name: String, root: String, item: String, _ notes: XMLText, _ linkRels: String?) throws {
        var x = XMLText()
        x.raw(xmlDeclaration)
        x.open(root, [("xmlns:w", NS.w), ("xmlns:r", NS.r), ("xmlns:wp", NS.wp)])
        for (id, type, mark) in [("-1", "separator", "w:separator"), ("0", "continuationSeparator", "w:continuationSeparator")] {
            x.raw("<\(item) w:type=\"\(type)\" w:id=\"\(id)\"><w:p><w:pPr><w:spacing w:after=\"0\" w:line=\"240\" "
                  + "w:lineRule=\"auto\"/><w:ind w:firstLine=\"0\"/></w:pPr><w:r><\(mark)/></w:r></w:p></\(item)>")
        }
        x.append(notes)
        x.close(root)
        try zip.add("word/" + name, bytes: x.bytes)
        if let linkRels { try zip.add("word/_rels/\(name).rels", text: linkRels) }
    }

    /// `word/comments.xml` begun: the declaration and the root's start tag.
    private func openCommentsPart() throws -> SpooledPart {
        var part = SpooledPart(try zip.spool("word/comments.xml"))
        part.x.raw(xmlDeclaration)
        part.x.open("w:comments", [("xmlns:w", NS.w), ("xmlns:r", NS.r), ("xmlns:wp", NS.wp), ("xmlns:w14", NS.w14), ("xmlns:mc", NS.mc),
                                   ("mc:Ignorable", "w14")])
        return part
    }

    /// `word/commentsExtended.xml` begun.
    private func openExtendedPart() throws -> SpooledPart {
        var part = SpooledPart(try zip.spool("word/commentsExtended.xml"))
        part.x.raw(xmlDeclaration)
        part.x.open("w15:commentsEx", [("xmlns:w15", NS.w15), ("xmlns:mc", NS.mc), ("mc:Ignorable", "w15")])
        return part
    }

    /// `word/commentsIds.xml` begun.
    private func openIDsPart() throws -> SpooledPart {
        var part = SpooledPart(try zip.spool("word/commentsIds.xml"))
        part.x.raw(xmlDeclaration)
        part.x.open("w16cid:commentsIds", [("xmlns:w16cid", NS.w16cid), ("xmlns:mc", NS.mc), ("mc:Ignorable", "w16cid")])
        return part
    }

    /// Adds the comments parts, each spooled as the comments came: `comments.xml`, then `commentsExtended.xml`
    /// and `commentsIds.xml`.
    private mutating func addComments(_ linkRels: String?) throws {
        var part = try commentsPart ?? openCommentsPart()
        commentsPart = nil
        part.x.close("w:comments")
        try zip.add(try part.finished())
        if let linkRels { try zip.add("word/_rels/comments.xml.rels", text: linkRels) }

        var ext = try extendedPart ?? openExtendedPart()
        extendedPart = nil
        ext.x.close("w15:commentsEx")
        try zip.add(try ext.finished())

        var ids = try idsPart ?? openIDsPart()
        idsPart = nil
        ids.x.close("w16cid:commentsIds")
        try zip.add(try ids.finished())
    }
}

extension DOCXWriter {
    /// The body's `w:sectPr` for a document that states no last section: US Letter, one-inch margins. The
    /// reader reads exactly this as no section stated, so a document without one reads back without one.
    static let defaultSectionXML = "<w:sectPr><w:pgSz w:w=\"12240\" w:h=\"15840\"/><w:pgMar w:top=\"1440\" w:right=\"1440\" "
        + "w:bottom=\"1440\" w:left=\"1440\" w:header=\"720\" w:footer=\"720\" w:gutter=\"0\"/></w:sectPr>"
    /// `defaultSectionXML` as the reader reads it.
    static let defaultSection = Section(pageWidth: 612, pageHeight: 792,
                                        margins: Section.Margins(top: 72, bottom: 72, left: 72, right: 72,
                                                                 header: 36, footer: 36, gutter: 0))

    /// Whether `s` states nothing but some of `defaultSection`'s values (no stories, columns, line numbering,
    /// break kind or title page): the page the writer writes anyway, which the reader reads as unstated.
    static func isDefaultPage(_ s: Section) -> Bool {
        func within(_ v: Double?, _ d: Double?) -> Bool { v == nil || v == d }
        let d = defaultSection, m = s.margins, dm = d.margins
        return s.headersFooters.isEmpty && s.orientation == nil && s.columns == nil && s.columnSpacing == nil
            && s.lineNumbering == nil && s.breakKind == nil && !s.titlePage
            && within(s.pageWidth, d.pageWidth) && within(s.pageHeight, d.pageHeight)
            && within(m.top, dm.top) && within(m.bottom, dm.bottom) && within(m.left, dm.left) && within(m.right, dm.right)
            && within(m.header, dm.header) && within(m.footer, dm.footer) && within(m.gutter, dm.gutter)
    }

    /// The paragraph defaults for a source with no formatting at all and no preset (`--paragraph-style plain`).
    public static let plainParagraph = ParagraphStyle(spaceAfter: 6)
    /// The character defaults for a source with no formatting at all and no preset.
    public static let plainCharacter = CharacterStyle(fontFamily: "Times New Roman", fontSize: 12)
}

/// Reads what `--reference-doc` provides.
enum ReferenceDocument {
    /// The styles of the DOCX at `path`.
    static func styles(path: String) throws -> ReferenceStyles {
        do {
            let archive = try ZipArchive(path: path)
            guard let bytes = try archive.read(named: "word/styles.xml") else {
                throw RedlineError.malformed("it has no word/styles.xml")
            }
            let styles = try repairedStyles.value(for: bytes, limits: Limits()) { try repaired(styles: bytes) }
            return try ReferenceStyles(xml: String(decoding: styles, as: UTF8.self))
        } catch let e as RedlineError {
            throw RedlineError(e.kind == .io ? .io : .usage, "reference document \(path): \(e.message)")
        }
    }

    /// A reference document's `styles.xml` made valid in the transitional package the writer makes, by the
    /// repair compare's layout transfer makes: each style's children in the schema's order
    /// (`DOCXLayoutTransfer.ordered`: pandoc's reference document puts `w:qFormat` after `w:pPr`), and Strict
    /// OOXML's namespaces (`purl.oclc.org`) declared as their transitional ones, every name and value kept
    /// (the transitional schema takes Strict's measures with units, "8pt"). Returns `bytes` when nothing
    /// needed repair.
    /// `repaired(styles:)` of the reference documents' `styles.xml` seen so far, by their exact bytes (compare
    /// uses NEW as reference document for every pair).
    static let repairedStyles = ExactBytesCache<[UInt8]>()

    static func repaired(styles bytes: [UInt8], limits: Limits = Limits()) throws -> [UInt8] {
        let x = try XMLReader(bytes: bytes, name: "word/styles.xml", namespaces: OOXML.table, limits: limits)
        var w = XMLEventWriter(capacity: bytes.count + 4096)
        w.declaration()
        var changed = false
        func mapped(_ f: XMLFragment) -> XMLFragment {
            var f = f
            f.declarations = f.declarations.map { d in
                guard let t = OOXML.transitionalURI[d.uri] else { return d }
                changed = true
                var d = d
                d.uri = t
                return d
            }
            f.children = f.children.map { c in
                if case .element(let e) = c { return .element(mapped(e)) }
                return c
            }
            return f
        }
        while let k = try x.next() {
            switch k {
            case .start:
                if x.depth == 1 && x.namespace == OOXML.w && x.localName == "style" {
                    w.write(mapped(DOCXLayoutTransfer.ordered(try x.fragment(), changed: &changed)))
                } else {
                    w.start(mapped(XMLFragment(prefix: x.prefix, localName: x.localName, namespace: x.namespace,
                                               declarations: x.declarations, attributes: x.prefixedAttributes)))
                }
            case .end: w.end(x)
            case .text: w.text(x)
            }
        }
        return changed ? w.take() : bytes
    }
}

/// The body part's spool as the body buffer's spill target: an error is kept and thrown at the next flush.
final class BodySpill {
    private let spool: ZipSpool
    private(set) var error: (any Error)?

    init(_ spool: ZipSpool) { self.spool = spool }

    func write(_ bytes: inout [UInt8]) {
        if error == nil {
            do { try bytes.withUnsafeBytes { try spool.write($0) } } catch { self.error = error }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// A side part written as it is made (`comments.xml` and its companions): XML gathered in a small buffer
/// and moved to a zip spool (a temporary file) whenever the buffer passes 64 KiB, so a part of any size
/// holds no more than that in memory (PERFORMANCE.md, "Comments").
struct SpooledPart {
    let spool: ZipSpool
    var x = XMLText()

    init(_ spool: ZipSpool) { self.spool = spool }

    /// Moves the buffer to the spool once it holds `flushSize` bytes or more.
    mutating func flushIfFull() throws {
        if x.bytes.count >= Self.flushSize { try flush() }
    }

    /// The spool with everything written, for `ZipWriter.add(_:)`.
    mutating func finished() throws -> ZipSpool {
        try flush()
        return spool
    }

    private mutating func flush() throws {
        try spool.write(x.bytes)
        x.removeAll()
    }

    static let flushSize = 1 << 16
}

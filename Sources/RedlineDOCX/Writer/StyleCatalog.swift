import Foundation
import RedlineCore

/// The styles a written package defines: Word's built-in ones the writer uses (Normal, headings, Quote,
/// list, code, note and comment styles, hyperlink...), plus one custom style for every other style name the
/// model uses. Maps the model's style names to style ids and writes `styles.xml`.
struct StyleCatalog {
    /// One style definition.
    struct Style {
        enum Kind: String { case paragraph, character, table }
        var kind: Kind
        var id: String
        var name: String
        /// The XML after `w:name` (basedOn, pPr, rPr...).
        var body: String
        var isDefault = false
    }

    /// Built-in styles written only when a paragraph uses them (the others are always written).
    static let onDemand: Set<String> = [DOCXFigures.figureID, DOCXFigures.captionID]

    /// Built-in styles in the order they are written.
    static let builtIn: [Style] = {
        var s: [Style] = [
            Style(kind: .paragraph, id: "Normal", name: "Normal", body: "<w:qFormat/>", isDefault: true),
        ]
        let sizes = [32, 28, 26, 24, 24, 24]
        for level in 1...6 {
            let italic = level >= 5 ? "<w:i/><w:iCs/>" : ""
            s.append(Style(kind: .paragraph, id: "Heading\(level)", name: "heading \(level)", body:
                "<w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:uiPriority w:val=\"9\"/><w:qFormat/>"
                + "<w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before=\"240\" w:after=\"80\"/><w:ind w:firstLine=\"0\"/>"
                + "<w:outlineLvl w:val=\"\(level - 1)\"/></w:pPr>"
                + "<w:rPr><w:b/><w:bCs/>\(italic)<w:sz w:val=\"\(sizes[level - 1])\"/><w:szCs w:val=\"\(sizes[level - 1])\"/></w:rPr>"))
        }
        // Footnote, endnote and comment text share one look; footnote and endnote references another.
        let noteText = "<w:basedOn w:val=\"Normal\"/><w:uiPriority w:val=\"99\"/><w:unhideWhenUsed/>"
            + "<w:pPr><w:spacing w:before=\"0\" w:after=\"0\" w:line=\"240\" w:lineRule=\"auto\"/><w:ind w:firstLine=\"0\"/></w:pPr>"
            + "<w:rPr><w:sz w:val=\"20\"/><w:szCs w:val=\"20\"/></w:rPr>"
        let noteReference = "<w:basedOn w:val=\"DefaultParagraphFont\"/><w:uiPriority w:val=\"99\"/><w:unhideWhenUsed/>"
            + "<w:rPr><w:vertAlign w:val=\"superscript\"/></w:rPr>"
        s += [
            Style(kind: .paragraph, id: "Quote", name: BlockStyleRole.quoteName, body:
                "<w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:uiPriority w:val=\"29\"/><w:qFormat/>"
                + "<w:pPr><w:ind w:left=\"720\" w:right=\"720\" w:firstLine=\"0\"/></w:pPr><w:rPr><w:i/><w:iCs/></w:rPr>"),
            Style(kind: .paragraph, id: "ListParagraph", name: "List Paragraph", body:
                "<w:basedOn w:val=\"Normal\"/><w:uiPriority w:val=\"34\"/><w:qFormat/>"
                + "<w:pPr><w:ind w:left=\"720\" w:firstLine=\"0\"/></w:pPr>"),
            Style(kind: .paragraph, id: "SourceCode", name: BlockStyleRole.codeName, body:
                "<w:basedOn w:val=\"Normal\"/><w:link w:val=\"VerbatimChar\"/>"
                + "<w:pPr><w:wordWrap w:val=\"0\"/><w:spacing w:before=\"0\" w:after=\"0\" w:line=\"240\" w:lineRule=\"auto\"/>"
                + "<w:ind w:firstLine=\"0\"/></w:pPr>"
                + "<w:rPr><w:rFonts w:ascii=\"Courier New\" w:hAnsi=\"Courier New\" w:cs=\"Courier New\"/><w:sz w:val=\"20\"/><w:szCs w:val=\"20\"/></w:rPr>"),
            Style(kind: .paragraph, id: "HorizontalRule", name: BlockStyleRole.ruleName, body:
                "<w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/>"
                + "<w:pPr><w:pBdr><w:bottom w:val=\"single\" w:sz=\"6\" w:space=\"1\" w:color=\"auto\"/></w:pBdr>"
                + "<w:ind w:firstLine=\"0\"/></w:pPr>"),
            // pandoc's figure styles: the picture's paragraph, and its caption under it (`FigureCaptions`).
            Style(kind: .paragraph, id: DOCXFigures.figureID, name: FigureCaptions.figureName, body:
                "<w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:pPr><w:keepNext/></w:pPr>"),
            Style(kind: .paragraph, id: DOCXFigures.captionID, name: FigureCaptions.captionName, body:
                "<w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:pPr><w:spacing w:before=\"0\" w:after=\"200\"/>"
                + "<w:ind w:firstLine=\"0\"/></w:pPr><w:rPr><w:i/><w:iCs/><w:sz w:val=\"20\"/><w:szCs w:val=\"20\"/></w:rPr>"),
            Style(kind: .paragraph, id: "FootnoteText", name: "footnote text", body: noteText),
            Style(kind: .paragraph, id: "EndnoteText", name: "endnote text", body: noteText),
            Style(kind: .paragraph, id: "CommentText", name: "annotation text", body: noteText),
            Style(kind: .character, id: "DefaultParagraphFont", name: "Default Paragraph Font", body:
                "<w:uiPriority w:val=\"1\"/><w:semiHidden/><w:unhideWhenUsed/>", isDefault: true),
            Style(kind: .character, id: "VerbatimChar", name: "Verbatim Char", body:
                "<w:basedOn w:val=\"DefaultParagraphFont\"/><w:link w:val=\"SourceCode\"/>"
                + "<w:rPr><w:rFonts w:ascii=\"Courier New\" w:hAnsi=\"Courier New\" w:cs=\"Courier New\"/></w:rPr>"),
            Style(kind: .character, id: "Hyperlink", name: "Hyperlink", body:
                "<w:basedOn w:val=\"DefaultParagraphFont\"/><w:uiPriority w:val=\"99\"/><w:unhideWhenUsed/>"
                + "<w:rPr><w:color w:val=\"0563C1\"/><w:u w:val=\"single\"/></w:rPr>"),
            Style(kind: .character, id: "FootnoteReference", name: "footnote reference", body: noteReference),
            Style(kind: .character, id: "EndnoteReference", name: "endnote reference", body: noteReference),
            Style(kind: .character, id: "CommentReference", name: "annotation reference", body:
                "<w:basedOn w:val=\"DefaultParagraphFont\"/><w:uiPriority w:val=\"99\"/><w:unhideWhenUsed/>"
                + "<w:rPr><w:sz w:val=\"16\"/><w:szCs w:val=\"16\"/></w:rPr>"),
            Style(kind: .table, id: "TableNormal", name: "Normal Table", body:
                "<w:uiPriority w:val=\"99\"/><w:semiHidden/><w:unhideWhenUsed/>"
                + "<w:tblPr><w:tblInd w:w=\"0\" w:type=\"dxa\"/><w:tblCellMar><w:top w:w=\"0\" w:type=\"dxa\"/>"
                + "<w:left w:w=\"108\" w:type=\"dxa\"/><w:bottom w:w=\"0\" w:type=\"dxa\"/><w:right w:w=\"108\" w:type=\"dxa\"/>"
                + "</w:tblCellMar></w:tblPr>", isDefault: true),
            Style(kind: .table, id: "TableGrid", name: "Table Grid", body:
                "<w:basedOn w:val=\"TableNormal\"/><w:uiPriority w:val=\"39\"/>"
                + "<w:pPr><w:spacing w:before=\"0\" w:after=\"0\"/><w:ind w:firstLine=\"0\"/></w:pPr>"
                + "<w:tblPr><w:tblBorders>"
                + ["top", "left", "bottom", "right", "insideH", "insideV"].map {
                    "<w:\($0) w:val=\"single\" w:sz=\"4\" w:space=\"0\" w:color=\"auto\"/>" }.joined()
                + "</w:tblBorders></w:tblPr>"),
        ]
        return s
    }()

    /// Styles of a reference document: its `styles.xml` and the (id, name, kind) of each style in it.
    private let reference: ReferenceStyles?
    /// Custom styles added for names neither the built-ins nor the reference know, in order of first use.
    private(set) var custom: [Style] = []
    private var byName: [String: String] = [:]
    private var usedIDs: Set<String> = []
    /// Write every built-in style bare (see `asUsed`): for a source with formatting of its own.
    var bare = false
    /// Built-in style ids the writer chose for paragraphs the model gives no style name.
    private var chosen: Set<String> = []
    /// Built-in style ids the model names, with the name as the model spells it.
    private var named: [String: String] = [:]

    init(reference: ReferenceStyles?) {
        self.reference = reference
        for s in Self.builtIn { usedIDs.insert(s.id) }
        for s in reference?.styles ?? [] { usedIDs.insert(s.id) }
    }

    /// The paragraph style id for a model style name (nil for Normal). A new custom style for a heading
    /// gets `outlineLevel`, so it reads back as a heading.
    mutating func paragraphID(_ name: String, outlineLevel: Int? = nil) -> String? {
        let id = id(for: name, kind: .paragraph, outlineLevel: outlineLevel)
        return id == "Normal" ? nil : id
    }

    /// The character style id for a model character style name (nil for the default font).
    mutating func characterID(_ name: String) -> String? {
        let id = id(for: name, kind: .character, outlineLevel: nil)
        return id == "DefaultParagraphFont" ? nil : id
    }

    /// Records that the writer chose built-in style `id` for content the model gives no style name.
    mutating func choose(_ id: String?) {
        if let id { chosen.insert(id) }
    }

    private mutating func id(for name: String, kind: Style.Kind, outlineLevel: Int?) -> String {
        let key = kind.rawValue + "\u{0}" + name.lowercased()
        if let id = byName[key] { return id }
        let lower = name.lowercased()
        let known = (reference?.styles ?? []) + Self.builtIn
        if let s = known.first(where: { $0.kind == kind && ($0.name.lowercased() == lower || $0.id.lowercased() == lower) }) {
            byName[key] = s.id
            if named[s.id] == nil { named[s.id] = name }
            return s.id
        }
        var base = String(name.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init))
        if base.isEmpty { base = "Style" }
        var id = base
        var n = 2
        while usedIDs.contains(id) { id = base + String(n); n += 1 }
        usedIDs.insert(id)
        byName[key] = id
        let basedOn = kind == .paragraph ? "<w:basedOn w:val=\"Normal\"/>" : "<w:basedOn w:val=\"DefaultParagraphFont\"/>"
        let outline = outlineLevel.map { "<w:pPr><w:outlineLvl w:val=\"\($0)\"/></w:pPr>" } ?? ""
        custom.append(Style(kind: kind, id: id, name: name, body: basedOn + "<w:qFormat/>" + outline))
        return id
    }

    /// `styles.xml`: the reference document's styles plus what it lacks, or ours with `defaults`.
    func stylesXML(paragraphDefaults: ParagraphStyle, characterDefaults: CharacterStyle) -> String {
        let ours = Self.builtIn.filter { !Self.onDemand.contains($0.id) || chosen.contains($0.id) || named[$0.id] != nil }
            .map(asUsed) + custom
        if let reference {
            let have = Set(reference.styles.map(\.id))
            return reference.inserting(ours.filter { !have.contains($0.id) }.map(Self.definition).joined())
        }
        var x = XMLText()
        x.raw(xmlDeclaration)
        x.open("w:styles", [("xmlns:w", NS.w)])
        x.open("w:docDefaults")
        x.open("w:rPrDefault")
        x.open("w:rPr")
        Properties.defaults(characterDefaults, into: &x)
        x.empty("w:lang", [("w:val", "en-US"), ("w:eastAsia", "en-US"), ("w:bidi", "ar-SA")])
        x.close("w:rPr")
        x.close("w:rPrDefault")
        x.close("w:docDefaults")
        // The paragraph defaults go into Normal, which every paragraph style is based on: LibreOffice
        // ignores the line spacing of w:pPrDefault (lines overlap), and Word reads both alike.
        var para = paragraphDefaults
        para.name = nil
        var props = XMLText()
        Properties.paragraph(para, styleID: nil, into: &props)
        for var s in ours {
            if s.id == "Normal" && !props.isEmpty {
                s.body += "<w:pPr>" + String(decoding: props.bytes, as: UTF8.self) + "</w:pPr>"
            }
            x.raw(Self.definition(s))
        }
        x.close("w:styles")
        return String(decoding: x.bytes, as: UTF8.self)
    }

    /// A built-in style as this document uses it. A style only the model names (a source with styles, whose
    /// paragraphs carry their complete formatting), or any style when `bare`, is written bare: under the
    /// model's name, without the spacing, indents, alignment and tabs the model holds per paragraph (or the
    /// character formatting, for a character style), so reading the file back gives the model's formatting.
    private func asUsed(_ s: Style) -> Style {
        guard bare || (named[s.id] != nil && !chosen.contains(s.id)), s.kind != .table else { return s }
        var bare = s
        bare.name = named[s.id] ?? s.name
        if s.kind == .paragraph {
            for tag in ["<w:spacing ", "<w:ind ", "<w:jc "] { bare.body = Self.removing(tag, from: bare.body) }
            bare.body = bare.body.replacingOccurrences(of: "<w:pPr></w:pPr>", with: "")
        } else if let r = bare.body.range(of: "<w:rPr>") {
            bare.body = String(bare.body[..<r.lowerBound])
        }
        return bare
    }

    /// `xml` without the empty elements that start with `tag`.
    private static func removing(_ tag: String, from xml: String) -> String {
        var out = xml
        while let r = out.range(of: tag), let end = out[r.upperBound...].range(of: "/>") {
            out.removeSubrange(r.lowerBound..<end.upperBound)
        }
        return out
    }

    private static func definition(_ s: Style) -> String {
        var x = XMLText()
        var a = [("w:type", s.kind.rawValue)]
        if s.isDefault { a.append(("w:default", "1")) }
        if !builtIn.contains(where: { $0.id == s.id }) { a.append(("w:customStyle", "1")) }
        a.append(("w:styleId", s.id))
        x.open("w:style", a)
        x.val("w:name", s.name)
        x.raw(s.body)
        x.close("w:style")
        return String(decoding: x.bytes, as: UTF8.self)
    }
}

/// The styles of a reference DOCX (`--reference-doc`): its `styles.xml` text and the styles it defines.
/// Both are found by scanning the UTF-8 bytes for the literal tags (a compare writes NEW as reference
/// document for every DOCX pair, so this runs once per output: PERFORMANCE.md "Compare batches").
struct ReferenceStyles {
    let xml: String
    let styles: [StyleCatalog.Style]
    /// `xml`'s UTF-8.
    private let bytes: [UInt8]

    /// Reads the style ids, names and kinds from `xml` (a `styles.xml`, any namespace prefix).
    init(xml: String) throws {
        self.xml = xml
        let b = Array(xml.utf8)
        bytes = b
        guard Self.find("</w:styles>", in: b, from: 0, to: b.count) != nil else {
            throw RedlineError.malformed("its styles.xml has no w:styles element")
        }
        var found: [StyleCatalog.Style] = []
        var rest = 0
        while let start = Self.find("<w:style ", in: b, from: rest, to: b.count) {
            let after = start + 9
            let end = Self.find("</w:style>", in: b, from: after, to: b.count) ?? b.count
            let header = b[after..<end].firstIndex(of: UInt8(ascii: ">")) ?? end
            if let id = Self.attribute("w:styleId", in: b, after, header) {
                let kind = StyleCatalog.Style.Kind(rawValue: Self.attribute("w:type", in: b, after, header) ?? "paragraph") ?? .paragraph
                let name = Self.find("<w:name ", in: b, from: after, to: end).flatMap { r in
                    Self.attribute("w:val", in: b, r + 8, b[(r + 8)..<end].firstIndex(of: UInt8(ascii: ">")) ?? end)
                } ?? id
                found.append(StyleCatalog.Style(kind: kind, id: id, name: name, body: ""))
            }
            rest = end
        }
        styles = found
    }

    /// `xml` with `definitions` inserted before the last `</w:styles>`.
    func inserting(_ definitions: String) -> String {
        var at: Int?
        var from = 0
        while let i = Self.find("</w:styles>", in: bytes, from: from, to: bytes.count) { at = i; from = i + 1 }
        guard let at else { return xml }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + definitions.utf8.count)
        out += bytes[..<at]
        out += definitions.utf8
        out += bytes[at...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The first `needle` (ASCII) in `b[from..<to]`.
    private static func find(_ needle: StaticString, in b: [UInt8], from: Int, to: Int) -> Int? {
        let n = needle.utf8CodeUnitCount
        guard n > 0, to - from >= n else { return nil }
        return needle.withUTF8Buffer { nb -> Int? in
            b.withUnsafeBufferPointer { hb -> Int? in
                let first = nb[0]
                var i = from
                let last = to - n
                while i <= last {
                    if hb[i] == first {
                        var k = 1
                        while k < n && hb[i + k] == nb[k] { k += 1 }
                        if k == n { return i }
                    }
                    i += 1
                }
                return nil
            }
        }
    }

    /// The value of the first `name="..."` in `b[from..<to]` (up to its closing quote or `to`), its
    /// `&amp;`, `&quot;`, `&lt;` and `&gt;` replaced in that order.
    private static func attribute(_ name: StaticString, in b: [UInt8], _ from: Int, _ to: Int) -> String? {
        var from = from, start = 0
        while true {
            guard let r = find(name, in: b, from: from, to: to) else { return nil }
            start = r + name.utf8CodeUnitCount
            if start + 2 <= to && b[start] == UInt8(ascii: "=") && b[start + 1] == UInt8(ascii: "\"") { break }
            from = r + 1  // `name` without `="` after it: look further, as a search for `name="` does
        }
        start += 2
        let end = b[start..<to].firstIndex(of: UInt8(ascii: "\"")) ?? to
        let value = String(decoding: b[start..<end], as: UTF8.self)
        guard b[start..<end].contains(UInt8(ascii: "&")) else { return value }
        return value.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
    }
}

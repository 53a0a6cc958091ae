import Foundation
import RedlineCore

/// Writes the document model as RTF 1.9 that Word, LibreOffice and TextEdit open: font, colour, style,
/// list and revision tables; paragraph and character formatting; lists; tables (nested, merged cells);
/// footnotes and endnotes; comments as annotations; tracked changes as `\revised`/`\deleted` revisions;
/// Unicode as `\uN` with an ASCII fallback.
///
/// The body streams into a spill buffer (memory, then a temporary file) while the tables are collected,
/// and is copied out after the header at the end, so memory stays flat however long the document is.
public struct RTFWriter: FormatWriter {
    /// A writer.
    public init() {}

    /// A sink writing RTF into `output`.
    public func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
        RTFSink(output: output, options: options, diagnostics: diagnostics)
    }

    /// The RTF of a whole document.
    public func write(_ document: Document, options: WriteOptions = WriteOptions(),
                      diagnostics: Diagnostics = Diagnostics()) throws -> [UInt8] {
        let out = MemoryOutput()
        var sink = RTFSink(output: out, options: options, diagnostics: diagnostics)
        var source = ChunkArraySource(document)
        try Pipeline.run(source: &source, stages: [], sink: &sink)
        return out.bytes
    }
}

/// The streaming RTF writer behind `RTFWriter`.
struct RTFSink: ChunkSink {
    let output: any ByteOutput
    let options: WriteOptions
    let diagnostics: Diagnostics
    /// Pictures given as `data:` URIs in a model built by hand (readers use `Image.media`).
    let dataURIs = MediaStore()
    var body = SpillBuffer()
    var header = DocumentHeader()
    var tables = RTFTables()
    var comments: [String: Comment] = [:]
    var replies: [String: [Comment]] = [:]
    var commentOrder: [String] = []
    var writtenComments = Set<String>()
    var notes: [String: Note] = [:]
    var out: [UInt8] = []
    /// DTTM values of the ISO dates met so far.
    var dateCache: [String: Int] = [:]
    /// The insertion around the run being written when it is a deletion nested in it (`\revised` and
    /// `\deleted` together: text one reviewer inserted and another deleted).
    var outerInsertion: Change?
    /// The kind of the last top-level block, to separate adjacent tables and quotations.
    var lastTopLevel: String?
    /// The document's last section, from the last chunk.
    var finalSection: Section?
    /// The text box top-level blocks are being written into (`switchTextBox`).
    var openTextBox: TextBox?
    /// `\field` groups of fields spanning paragraphs begun and not yet ended (`BlockField`).
    var openBlockFields = 0
    /// A header or footer story is being written (its paragraphs end no section).
    var inHeaderStory = false

    init(output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) {
        self.output = output
        self.options = options
        self.diagnostics = diagnostics
        out.reserveCapacity(1 << 16)
    }

    mutating func begin(_ header: DocumentHeader) throws {
        self.header = header
        if let f = header.defaultCharacterStyle.fontFamily { _ = tables.font(f) } else { _ = tables.font("Times New Roman") }
    }

    mutating func write(_ chunk: Chunk) throws {
        for c in chunk.comments {
            if let p = c.parentID { replies[p, default: []].append(c) } else {
                comments[c.id] = c
                commentOrder.append(c.id)
            }
        }
        for n in chunk.notes { notes[n.id] = n }
        let kind: String?
        switch chunk.block {
        case .table: kind = "table"
        case .blockQuote: kind = "quote"
        default: kind = nil
        }
        let box = chunk.block.hasSectionEnd ? nil : chunk.block.textBox
        // A field whose result spans paragraphs (`BlockField`) is a `\field` group around top-level body
        // paragraphs: any other block, or a text box, ends it first.
        let blockField = box == nil ? chunk.block.blockField : nil
        if openBlockFields > 0, box != nil || chunk.block.paragraph == nil { closeBlockFields() }
        if blockField?.end == .beforeContent, openBlockFields > 0 {
            emit("}}")
            openBlockFields -= 1
        }
        if box != openTextBox { switchTextBox(to: box) }
        if let start = blockField?.start {
            openField(start)
            openBlockFields += 1
        }
        if let kind, kind == lastTopLevel { emit("\\pard\\plain\\par\n") }
        lastTopLevel = kind
        if !header.hasOwnFormatting, case .paragraph(var p) = chunk.block,
           let caption = FigureCaptions.caption(of: p, shows: { [.png, .jpeg, .emf, .wmf].contains($0) }) {
            // A Markdown figure: the picture's paragraph and its caption under it (`FigureCaptions`).
            p.style.name = FigureCaptions.figureName
            writeParagraph(p, headingLevel: nil, context: BlockContext())
            writeParagraph(Paragraph([.text(caption)], style: ParagraphStyle(name: FigureCaptions.captionName)),
                           headingLevel: nil, context: BlockContext())
        } else {
            writeBlock(chunk.block, context: BlockContext())
        }
        if blockField?.end == .afterContent, openBlockFields > 0 {
            emit("}}\n")
            openBlockFields -= 1
        }
        if let s = chunk.finalSection { finalSection = s }
        if out.count >= 1 << 16 { try flushOut() }
    }

    mutating func flushOut() throws {
        try body.append(out)
        out.removeAll(keepingCapacity: true)
    }

    /// Closes the open text box, if any, and opens `box`: a paragraph of its own holding a shape whose `\shptxt`
    /// the box's top-level blocks are written into (the reader reads it back as the box alone).
    mutating func switchTextBox(to box: TextBox?) {
        if openTextBox != nil { emit("}}}\\par\n") }
        openTextBox = box
        lastTopLevel = nil
        guard let box else { return }
        func twips(_ v: Double?, _ fallback: Int) -> Int { v.flatMap { $0 > 0 && $0 < 2000 ? Int(($0 * 20).rounded()) : nil } ?? fallback }
        emit("\\pard\\plain {\\shp{\\*\\shpinst\\shpleft0\\shptop0\\shpright\(twips(box.width, 9360))\\shpbottom\(twips(box.height, 720))")
        emit("\\shpfhdr0\\shpbxcolumn\\shpbypara\\shpwr1\\shpwrk0\\shpfblwtxt0\\shpz0")
        emit("{\\sp{\\sn shapeType}{\\sv 202}}{\\sp{\\sn posrelh}{\\sv 2}}{\\sp{\\sn posrelv}{\\sv 2}}")
        emit("{\\sp{\\sn fFitShapeToText}{\\sv 1}}{\\shptxt\n")
    }

    /// Ends the fields spanning paragraphs still open.
    mutating func closeBlockFields() {
        guard openBlockFields > 0 else { return }
        emit(String(repeating: "}}", count: openBlockFields) + "\n")
        openBlockFields = 0
    }

    mutating func finish() throws {
        closeBlockFields()
        switchTextBox(to: nil)
        // Comments never anchored (or whose range never ended) go in a last paragraph, so none is lost.
        let left = commentOrder.filter { !writtenComments.contains($0) }
        if !left.isEmpty {
            diagnostics.report(.rtfUnreferenced, "comments without an anchor were placed at the end", count: left.count)
            emit("\\pard\\plain ")
            for id in left { writeAnnotations(id) }
            emit("\\par\n")
        }
        if !notes.isEmpty {
            diagnostics.report(.rtfUnreferenced, "notes that nothing references were left out", count: notes.count)
        }
        if let s = finalSection { writeSection(s) }
        try flushOut()
        var h: [UInt8] = []
        tables.writeHeader(header, into: &h, diagnostics: diagnostics)
        try output.write(bytes: h)
        try body.copy(to: output)
        try output.write("}\n")
    }

    mutating func emit(_ s: String) { out.append(contentsOf: s.utf8) }
}

/// Where a block is being written: its table depth and list position.
struct BlockContext {
    var tableDepth = 0
    var list: (ls: Int, level: Int)?
    /// For the first paragraph of a list item: the marker text.
    var marker: String?
    /// The style name for paragraphs that have none (quotations).
    var defaultStyleName: String?
    /// The alignment for paragraphs that have none (table columns).
    var defaultAlignment: ParagraphAlignment?
}

/// The tables an RTF header declares, filled while the body is written.
struct RTFTables {
    var fonts: [String] = []
    var fontIndex: [String: Int] = [:]
    var colors: [RGBColor] = []
    var colorIndex: [RGBColor: Int] = [:]
    var styles: [(name: String, character: Bool, outline: Int?)] = []
    var styleIndex: [String: Int] = [:]
    var authors: [String] = ["Unknown"]
    var authorIndex: [String: Int] = [:]
    /// One list definition per written list: its kind at each level.
    var lists: [[ListKind]] = []

    mutating func font(_ name: String) -> Int {
        if let i = fontIndex[name] { return i }
        fonts.append(name)
        fontIndex[name] = fonts.count - 1
        return fonts.count - 1
    }

    mutating func color(_ c: RGBColor) -> Int {
        if let i = colorIndex[c] { return i }
        colors.append(c)
        colorIndex[c] = colors.count
        return colors.count
    }

    /// The style number for a paragraph (or character) style name; numbers start at 1 (0 is Normal).
    mutating func style(_ name: String, character: Bool = false, outline: Int? = nil) -> Int {
        let key = (character ? "c:" : "p:") + name
        if let i = styleIndex[key] { return i }
        styles.append((name, character, outline))
        styleIndex[key] = styles.count
        return styles.count
    }

    mutating func author(_ name: String?) -> Int {
        guard let name, !name.isEmpty else { return 0 }
        if let i = authorIndex[name] { return i }
        authors.append(name)
        authorIndex[name] = authors.count - 1
        return authors.count - 1
    }

    /// A new list; returns its `\ls` number (1-based).
    mutating func list(kind: ListKind, level: Int) -> Int {
        var levels = Array(repeating: ListKind.bullet, count: 9)
        levels[min(max(level, 0), 8)] = kind
        lists.append(levels)
        return lists.count
    }

    func writeHeader(_ header: DocumentHeader, into h: inout [UInt8], diagnostics: Diagnostics) {
        func emit(_ s: String) { h.append(contentsOf: s.utf8) }
        emit("{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1\n{\\fonttbl")
        for (i, f) in fonts.enumerated() {
            emit("{\\f\(i)\\fnil\\fcharset0 ")
            RTFText.escape(f, into: &h)
            emit(";}")
        }
        emit("}\n{\\colortbl;")
        for c in colors { emit("\\red\(c.red)\\green\(c.green)\\blue\(c.blue);") }
        emit("}\n{\\stylesheet{\\s0 Normal;}")
        for (i, s) in styles.enumerated() {
            if s.character { emit("{\\*\\cs\(i + 1)\\additive ") } else {
                emit("{\\s\(i + 1)")
                if let o = s.outline { emit("\\outlinelevel\(o)") }
                emit(" ")
            }
            // A ';' ends the name: one in it is written as `\'3b`.
            var name: [UInt8] = []
            RTFText.escape(s.name, into: &name)
            for b in name { if b == UInt8(ascii: ";") { emit("\\'3b") } else { h.append(b) } }
            emit(";}")
        }
        emit("}\n")
        if !lists.isEmpty {
            emit("{\\*\\listtable")
            for (i, levels) in lists.enumerated() {
                emit("{\\list\\listtemplateid\(i + 1)\\listhybrid")
                for (l, kind) in levels.enumerated() {
                    let indent = 720 * (l + 1)
                    switch kind {
                    case .bullet:
                        emit("{\\listlevel\\levelnfc23\\levelnfcn23\\leveljc0\\levelfollow0\\levelstartat1{\\leveltext\\'01\\u8226 ?;}{\\levelnumbers;}\\fi-360\\li\(indent)}")
                    case .ordered(let start, let delimiter):
                        emit("{\\listlevel\\levelnfc0\\levelnfcn0\\leveljc0\\levelfollow0\\levelstartat\(start){\\leveltext\\'02\\'0\(l)\(delimiter == ")" ? ")" : ".");}{\\levelnumbers\\'01;}\\fi-360\\li\(indent)}")
                    }
                }
                emit("\\listid\(i + 1)}")
            }
            emit("}\n{\\*\\listoverridetable")
            for i in lists.indices { emit("{\\listoverride\\listid\(i + 1)\\listoverridecount0\\ls\(i + 1)}") }
            emit("}\n")
        }
        if authors.count > 1 {
            emit("{\\*\\revtbl ")
            for a in authors {
                emit("{")
                RTFText.escape(a, into: &h)
                emit(";}")
            }
            emit("}\n")
        }
        Self.writeInfo(header.metadata, into: &h)
        var defchp: [UInt8] = []
        let cs = header.defaultCharacterStyle
        if let f = cs.fontFamily, let i = fontIndex[f] { defchp += Array("\\f\(i)".utf8) }
        if let s = cs.fontSize { defchp += Array("\\fs\(Int((s * 2).rounded()))".utf8) }
        if let c = cs.color, let i = colorIndex[c] { defchp += Array("\\cf\(i)".utf8) }
        if !defchp.isEmpty { emit("{\\*\\defchp "); h += defchp; emit("}\n") }
        if !header.defaultParagraphStyle.isEmpty {
            emit("{\\*\\defpap ")
            RTFParagraphFormat.write(header.defaultParagraphStyle, alignment: header.defaultParagraphStyle.alignment, into: &h)
            emit("}\n")
        }
        emit(header.evenAndOddHeaders ? "\\deftab720\\facingp\\viewkind4\n" : "\\deftab720\\viewkind4\n")
    }

    private static func writeInfo(_ m: Metadata, into h: inout [UInt8]) {
        func emit(_ s: String) { h.append(contentsOf: s.utf8) }
        guard !m.isEmpty else { return }
        var user: [(String, String)] = []
        emit("{\\info")
        for f in m.fields {
            let value = f.value.strings.joined(separator: "; ")
            switch f.key {
            case "title", "author", "subject", "keywords":
                emit("{\\\(f.key) ")
                RTFText.escape(value, into: &h)
                emit("}")
            case "created", "modified":
                let parts = value.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                if parts.count >= 5, value.count >= 16, parts[1] <= 12, parts[2] <= 31,
                   isoDate(parts[0], parts[1], parts[2], parts[3], parts[4]) == value {
                    emit("{\\\(f.key == "created" ? "creatim" : "revtim")\\yr\(parts[0])\\mo\(parts[1])\\dy\(parts[2])\\hr\(parts[3])\\min\(parts[4])}")
                } else {
                    user.append((f.key, value))
                }
            default:
                user.append((f.key, value))
            }
        }
        emit("}\n")
        if !user.isEmpty {
            emit("{\\*\\userprops ")
            for (k, v) in user {
                emit("{\\propname ")
                RTFText.escape(k, into: &h)
                emit("}\\proptype30{\\staticval ")
                RTFText.escape(v, into: &h)
                emit("}")
            }
            emit("}\n")
        }
    }
}

/// Paragraph properties as RTF control words.
enum RTFParagraphFormat {
    static func twips(_ pt: Double) -> Int { Int((pt * 20).rounded()) }

    static func write(_ s: ParagraphStyle, alignment: ParagraphAlignment?, into h: inout [UInt8]) {
        func emit(_ s: String) { h.append(contentsOf: s.utf8) }
        switch alignment {
        case .center?: emit("\\qc")
        case .right?: emit("\\qr")
        case .justified?: emit("\\qj")
        case .left?, nil: emit("\\ql")
        }
        if let v = s.firstLineIndent { emit("\\fi\(twips(v))") }
        if let v = s.leftIndent { emit("\\li\(twips(v))") }
        if let v = s.rightIndent { emit("\\ri\(twips(v))") }
        if let v = s.spaceBefore { emit("\\sb\(twips(v))") }
        if let v = s.spaceAfter { emit("\\sa\(twips(v))") }
        switch s.lineSpacing {
        case .multiple(let m)?: emit("\\sl\(Int((m * 240).rounded()))\\slmult1")
        case .exactly(let v)?: emit("\\sl-\(twips(v))\\slmult0")
        case .atLeast(let v)?: emit("\\sl\(twips(v))\\slmult0")
        case nil: break
        }
        for t in s.tabStops {
            switch t.alignment {
            case .left: break
            case .center: emit("\\tqc")
            case .right: emit("\\tqr")
            case .decimal: emit("\\tqdec")
            }
            switch t.leader {
            case .none: break
            case .dot: emit("\\tldot")
            case .hyphen: emit("\\tlhyph")
            case .underscore: emit("\\tlul")
            }
            emit("\\tx\(twips(t.position))")
        }
    }
}

/// Escaping text for RTF: `\`, `{`, `}` escaped, non-ASCII as `\uN` with an ASCII fallback.
enum RTFText {
    static func escape(_ s: String, into h: inout [UInt8]) {
        // Fast path: plain ASCII text without special characters is copied as is.
        var plain = true
        for b in s.utf8 where b >= 0x80 || b < 0x20 || b == 0x5C || b == 0x7B || b == 0x7D {
            plain = false
            break
        }
        if plain {
            h.append(contentsOf: s.utf8)
            return
        }
        for u in s.unicodeScalars {
            let v = u.value
            switch v {
            case 0x5C: h += [0x5C, 0x5C]
            case 0x7B: h += [0x5C, 0x7B]
            case 0x7D: h += [0x5C, 0x7D]
            case 0x09: h += Array("\\tab ".utf8)
            case 0x0A: h += Array("\\line ".utf8)
            case 0x00..<0x20: break
            case 0x20..<0x80: h.append(UInt8(v))
            case 0xA0: h += Array("\\~".utf8)
            case 0xAD: h += Array("\\-".utf8)
            case 0x2011: h += Array("\\_".utf8)
            case 0x10000...:
                let x = v - 0x10000
                unit(0xD800 + (x >> 10), fallback: "?", into: &h)
                unit(0xDC00 + (x & 0x3FF), fallback: "?", into: &h)
            default:
                unit(v, fallback: fallback(u), into: &h)
            }
        }
    }

    private static func unit(_ v: UInt32, fallback: String, into h: inout [UInt8]) {
        let signed = v > 0x7FFF ? Int(v) - 0x10000 : Int(v)
        h += Array("\\u\(signed)".utf8)
        h += Array(fallback.utf8)
    }

    /// One ASCII character that stands for `u` in readers without Unicode: the base letter of an accented
    /// letter, a plain quote or dash for typographic ones, else `?`.
    static func fallback(_ u: Unicode.Scalar) -> String {
        switch u.value {
        case 0x2018, 0x2019, 0x201A, 0x2032: return "'"
        case 0x201C, 0x201D, 0x201E, 0x2033: return "\""
        case 0x2013, 0x2014, 0x2212: return "-"
        case 0x2026: return "."
        default: break
        }
        if let base = String(u).decomposedStringWithCanonicalMapping.unicodeScalars.first, base.isASCII,
           base.properties.isAlphabetic {
            return String(base)
        }
        return "?"
    }
}

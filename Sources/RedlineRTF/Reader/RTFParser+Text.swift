import Foundation
import RedlineCore

extension RTFParser {
    // MARK: Text routing

    /// Raw text bytes (in the current code page) for the current destination; `isASCII` when already known.
    func text(_ bytes: [UInt8], isASCII: Bool? = nil) {
        switch state.dest {
        case .body:
            if state.char.hidden { hiddenCount += bytes.count; return }
            let s = state.story
            prepareRun(s)
            // Fast path: ASCII with no double-byte lead waiting needs no code page at all.
            if !leadPending && isASCII ?? bytes.allSatisfy({ $0 < 0x80 }) {
                stories[s].text.append(contentsOf: bytes)
            } else {
                decode(bytes, codePage: currentCodePage(), into: &stories[s].text)
            }
            if s == 0 { bodyStarted = true }
        case .fontTable, .colorTable, .styleSheet, .revisionTable:
            for b in bytes { tableByte(b) }
        case .text, .fieldInstruction:
            var out: [UInt8] = []
            decode(bytes, codePage: currentCodePage(), into: &out)
            appendCollected(out)
        case .picture:
            for b in bytes { pictureHex(b) }
        default:
            break
        }
    }

    /// A `\'hh` byte.
    func byte(_ b: UInt8) {
        switch state.dest {
        case .text(.levelText) where b < 0x20:
            collect.append(b)
        case .fontTable, .styleSheet, .revisionTable where b == UInt8(ascii: ";"):
            // `\'3b`: a ';' in the name, not its end.
            collect.append(b)
        default:
            text([b])
        }
    }

    /// A character given as a Unicode scalar (`\uN`, `\emdash`, `\tab`...).
    func appendCharacter(_ scalar: UInt32) {
        var utf8: [UInt8] = []
        appendScalar(scalar, to: &utf8)
        switch state.dest {
        case .body:
            if state.char.hidden { hiddenCount += 1; return }
            let s = state.story
            prepareRun(s)
            stories[s].text.append(contentsOf: utf8)
            if s == 0 { bodyStarted = true }
        case .text, .fieldInstruction:
            appendCollected(utf8)
        case .fontTable, .styleSheet, .revisionTable:
            collect.append(contentsOf: utf8)
        default:
            break
        }
    }

    private func appendCollected(_ utf8: [UInt8]) {
        if state.dest == .fieldInstruction, state.field >= 0, state.field < fields.count {
            if fields[state.field].instruction.count < 1 << 16 { fields[state.field].instruction += utf8 }
        } else if collect.count < 1 << 20 {
            collect += utf8
        }
    }

    private func tableByte(_ b: UInt8) {
        guard b == UInt8(ascii: ";") else {
            if state.dest != .colorTable {
                var out: [UInt8] = []
                let cp = state.dest == .fontTable ? (tables.fontCodePage ?? tables.fontCharset.flatMap { codePage(forCharset: $0, documentCodePage: tables.documentCodePage) } ?? tables.documentCodePage) : tables.documentCodePage
                decode([b], codePage: cp, into: &out)
                if collect.count < 4096 { collect += out }
            }
            return
        }
        switch state.dest {
        case .fontTable: commitFont()
        case .colorTable:
            tables.colors.append(tables.colorParts.map { RGBColor(red: UInt8($0.r), green: UInt8($0.g), blue: UInt8($0.b)) })
            tables.colorParts = nil
            invalidateFormats()
        case .styleSheet: commitStyle()
        case .revisionTable:
            tables.revisionAuthors.append(collectedString())
        default: break
        }
    }

    func collectedString() -> String {
        defer { collect.removeAll(keepingCapacity: true) }
        let s = String(decoding: collect, as: UTF8.self)
        // Text that starts and ends with visible ASCII (annotation ids, authors, dates) has nothing to trim,
        // and Foundation's trimming costs thousands of instructions a call.
        if let first = collect.first, let last = collect.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return s
        }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func commitFont() {
        guard let n = tables.fontNumber else { collect.removeAll(); return }
        let name = collectedString()
        let cp = tables.fontCodePage ?? tables.fontCharset.flatMap { codePage(forCharset: $0, documentCodePage: tables.documentCodePage) }
        if let cp, !CodePageDecoder.isSupported(cp) {
            diagnostics.report(.rtfUnknownCodePage, "code page \(cp) is not known; its bytes were read as Windows-1252")
        }
        tables.fonts[n] = FontEntry(name: name, codePage: cp)
        tables.fontNumber = nil
        fontCodePages.removeAll()
        invalidateFormats()
    }

    func commitStyle() {
        let name = collectedString()
        defer { tables.styleNumber = 0; tables.styleIsCharacter = false; tables.styleOutline = nil }
        guard !name.isEmpty, tables.styleNumber >= 0 else { return }
        invalidateFormats()
        if RawStyles.isRawStyleName(name) { tables.hasRawStyles = true }
        if tables.styleIsCharacter { tables.characterStyles[tables.styleNumber] = name } else {
            tables.paragraphStyles[tables.styleNumber] = StyleEntry(name: name, outline: tables.styleOutline)
        }
    }

    /// The code page of text in the current font.
    func currentCodePage() -> Int {
        let f = state.char.font >= 0 ? state.char.font : tables.defaultFont
        if let cp = fontCodePages[f] { return cp }
        var cp = tables.fonts[f]?.codePage ?? tables.documentCodePage
        if !CodePageDecoder.isSupported(cp) { cp = 1252 }
        fontCodePages[f] = cp
        return cp
    }

    func decode(_ bytes: [UInt8], codePage cp: Int, into out: inout [UInt8]) {
        if cp == 65001 { out += bytes; return }
        if decoders[cp] == nil { decoders[cp] = CodePageDecoder(codePage: cp) }
        // ASCII with no lead byte waiting decodes to itself (one lookup, not one a byte).
        if !decoders[cp]!.isPending && bytes.allSatisfy({ $0 < 0x80 }) {
            out += bytes
            leadPending = false
            return
        }
        for b in bytes { decoders[cp]!.decode(b, into: &out) }
        leadPending = decoders[cp]!.isPending
    }

    // MARK: Runs

    /// Starts a new run in story `s` if the format or link changed.
    @inline(__always)
    func prepareRun(_ s: Int) {
        let link = currentLink()
        if stories[s].format != state.char || stories[s].link != link {
            flushRun(s)
            stories[s].format = state.char
            stories[s].link = link
        }
        // The paragraph's properties as its text starts (for a last paragraph that has no \par).
        if case .none = stories[s].lastTextPara { stories[s].lastTextPara = state.para }
    }

    func currentLink() -> Link? {
        guard state.field >= 0, state.field < fields.count, case .link(let l) = fields[state.field].kind else { return nil }
        return l
    }

    func flushRun(_ s: Int) {
        guard !stories[s].text.isEmpty else { return }
        let str = String(decoding: stories[s].text, as: UTF8.self)
        // Code page 65001 passes bytes through: ones that are not UTF-8 were replaced above; say so.
        if str.utf8.count != stories[s].text.count || (str.utf8.contains(0xEF) && str.contains("\u{FFFD}")
            && String(validating: stories[s].text, as: UTF8.self) == nil) {
            invalidUTF8Runs += 1
        }
        stories[s].text.removeAll(keepingCapacity: true)
        let link = stories[s].link
        let (format, change) = textFormat(stories[s].format, link: link)
        let run = Run(.text(str), format: format, link: link, change: change)
        append(run, story: s, marks: stories[s].format)
    }

    /// Appends `run` to story `s`. One marked both `\revised` and `\deleted` (text one reviewer inserted and
    /// another deleted) is its deletion nested in the insertion, as the DOCX reader reads `w:del` inside
    /// `w:ins`; the nested deletion grows while the runs after it are deleted alike.
    func append(_ run: Run, story s: Int, marks c: CharFormat) {
        guard c.deleted && c.revised, case .deletion(let d)? = run.change else {
            stories[s].runs.append(run)
            return
        }
        let insertion = RunChange.insertion(Change(author: author(c.revisionAuthor), date: formats.date(c.revisionDate)))
        var plain = run
        plain.change = nil
        var inner = InlineBuilder.inlines(from: [plain])
        if let last = stories[s].runs.last, last.change == insertion, case .atom(.deletion(let prev, let kids)) = last.content, prev == d {
            inner = InlineBuilder.inlines(from: kids.runs + [plain])
            stories[s].runs.removeLast()
        }
        stories[s].runs.append(Run(.atom(.deletion(d, inner)), change: insertion))
    }

    /// Adds a non-text inline (comment anchor, image) to story `s` at the current position, unformatted and
    /// outside any change or link, as the DOCX reader gives them.
    func appendAtom(_ inline: Inline, story s: Int) {
        flushRun(s)
        stories[s].runs.append(Run(.atom(inline)))
    }

    func lineBreak() {
        guard state.dest == .body, !state.char.hidden else { return }
        let s = state.story
        flushRun(s)
        let (format, change) = textFormat(state.char, link: currentLink())
        append(Run(.lineBreak, format: format, link: currentLink(), change: change), story: s, marks: state.char)
        if case .none = stories[s].lastTextPara { stories[s].lastTextPara = state.para }
    }

    /// Forgets worked-out display formats (a font, colour or style table entry changed).
    func invalidateFormats() {
        formats.invalidate()
    }

    /// The model's format and change for RTF character properties.
    func textFormat(_ c: CharFormat, link: Link?) -> (TextFormat, RunChange?) {
        let change: RunChange?
        if c.deleted {
            change = .deletion(Change(author: author(c.deletionAuthor), date: formats.date(c.deletionDate)))
        } else if c.revised {
            change = .insertion(Change(author: author(c.revisionAuthor), date: formats.date(c.revisionDate)))
        } else {
            change = nil
        }
        // The display format does not depend on the revision marks: cache it by the rest.
        var key = c
        key.revised = false
        key.deleted = false
        key.revisionAuthor = 0
        key.deletionAuthor = 0
        key.revisionDate = 0
        key.deletionDate = 0
        if link == nil {
            if let t = formats.format(for: key) { return (t, change) }
        }
        var t = TextFormat(bold: c.bold, italic: c.italic, underline: c.underline, strikethrough: c.strike,
                           superscript: c.superscript, subscript: c.subscript, smallCaps: c.smallCaps)
        t.style.allCaps = c.allCaps
        t.style.doubleStrikethrough = c.doubleStrike
        if c.font >= 0, let f = tables.fonts[c.font], !f.name.isEmpty { t.style.fontFamily = f.name }
        if c.fontSize > 0 { t.style.fontSize = Double(c.fontSize) / 2 }
        if c.foreground > 0, c.foreground < tables.colors.count { t.style.color = tables.colors[c.foreground] }
        if c.background > 0, c.background < tables.colors.count { t.style.backgroundColor = tables.colors[c.background] }
        if c.highlight > 0, c.highlight < tables.colors.count, let h = tables.colors[c.highlight] {
            if h == .yellow { t.highlight = true } else { t.style.backgroundColor = h }
        }
        if c.charStyle >= 0, let name = tables.characterStyles[c.charStyle] {
            switch name.lowercased() {
            case "verbatim char", "source text":
                t.code = true
                t.style.fontFamily = nil
            case "hyperlink", "internet link", "internet-link":
                if link != nil {
                    t.underline = false
                    t.style.color = nil
                }
            case "default paragraph font", "footnote reference", "footnote characters", "annotation reference":
                break
            default:
                t.style.name = name
            }
        }
        if link == nil {
            formats.store(t, for: key)
        }
        return (t, change)
    }

    private func author(_ i: Int) -> String? {
        guard i >= 0, i < tables.revisionAuthors.count else { return nil }
        let a = tables.revisionAuthors[i]
        return a.isEmpty || a == "Unknown" ? nil : a
    }

    var hasPendingContent: Bool {
        !stories[state.story].runs.isEmpty || !stories[state.story].text.isEmpty
    }

    // MARK: Pictures

    func startPicture() {
        setDestination(.picture)
        picture = RTFPicture()
    }

    func pictureHex(_ c: UInt8) {
        let v: Int
        switch c {
        case 48...57: v = Int(c) - 48
        case 65...70: v = Int(c) - 55
        case 97...102: v = Int(c) - 87
        default: return
        }
        if picture.tooLarge { return }
        if picture.nibble < 0 { picture.nibble = v; return }
        picture.data.append(UInt8(picture.nibble << 4 | v))
        picture.nibble = -1
        if picture.data.count > maxPictureBytes { picture.tooLarge = true; picture.data = [] }
    }

    /// The end of a `\pict` group: its bytes into the media store, its size from `\picwgoal`/`\pichgoal`
    /// scaled by `\picscalex`/`\picscaley`, its alt text from `wzDescription`.
    func finishPicture() {
        defer { picture.data = [] }
        guard state.dest == .body || state.dest == .picture else { return }
        if picture.tooLarge {
            diagnostics.report(.mediaTooLarge, "a picture over the size limit (\(maxPictureBytes >> 20) MiB) was left out")
            return
        }
        guard picture.type != nil, !picture.data.isEmpty else {
            diagnostics.report(.rtfPictureDropped, "a picture that is not PNG, JPEG, EMF or WMF was left out")
            return
        }
        guard let item = media.add(picture.data, name: "an RTF picture", diagnostics: diagnostics) else { return }
        var image = Image(source: "", alt: picture.alt, media: item)
        if picture.goal.w > 0, picture.goal.h > 0 {
            image.width = Double(picture.goal.w) / 20 * Double(picture.scale.x) / 100
            image.height = Double(picture.goal.h) / 20 * Double(picture.scale.y) / 100
        }
        // A picture keeps the revision and link around it (an inserted picture is an inserted run).
        let s = state.story
        flushRun(s)
        let link = currentLink()
        let (_, change) = textFormat(state.char, link: link)
        stories[s].runs.append(Run(.atom(.image(image)), link: link, change: change))
        if s == 0 { bodyStarted = true }
    }
}

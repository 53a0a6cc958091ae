import RedlineCore

/// The control words the RTF reader acts on, grouped by what they act on: each group has its own handler
/// (`RTFParser.word`). Everything else is ignored (or, after `\*`, skipped with its group).
enum RTFKeyword: Equatable {
    /// The document, its character set and Unicode escapes (`RTFParser+Words.swift`).
    case document(DocumentWord)
    /// The header's tables: fonts, colours, styles, revision authors, lists, `\info` (`RTFParser+TableWords.swift`).
    case table(TableWord)
    /// Paragraph, section, row and cell boundaries and table definitions (`RTFParser+BodyWords.swift`).
    case structure(StructureWord)
    /// Character properties (`RTFParser+FormatWords.swift`).
    case character(CharacterWord)
    /// Paragraph properties, tabs and legacy `\pn` numbering (`RTFParser+FormatWords.swift`).
    case paragraph(ParagraphWord)
    /// A character written as a word (`\emdash`, `\tab`...): its Unicode scalar.
    case special(UInt32)
    /// Notes, annotations and fields (`RTFParser+BodyWords.swift`).
    case note(NoteWord)
    /// Pictures and objects (`RTFParser+BodyWords.swift`).
    case picture(PictureWord)
    /// A known word that does nothing here (`\page`, `\chftn`...): known, so `\*` before it does not skip its group.
    case ignored
    /// A destination whose text is not body text (bookmarks, index entries...): its group is skipped.
    case skipDestination
    /// A header or footer: its group is read as a story of the current section (`RTFParser+Sections.swift`).
    case headerFooter(HeaderFooter.Kind, HeaderFooter.Which)
    /// Page layout: the document's page (`\paperw`...) and the current section's (`RTFParser+Sections.swift`).
    case section(SectionWord)

    /// Section words (`\sectd`, break kinds, page size, orientation, margins, columns, line numbering, title
    /// page) and the document's page words (`\paperw`, `\margl`..., `\landscape`, `\facingp`).
    enum SectionWord: String, CaseIterable {
        case sectd, sbknone, sbkcol, sbkpage, sbkeven, sbkodd, pgwsxn, pghsxn, lndscpsxn
        case marglsxn, margrsxn, margtsxn, margbsxn, headery, footery, guttersxn
        case cols, colsx, linemod, linex, linestarts, linerestart, lineppage, linecont, titlepg
        case paperw, paperh, margl, margr, margt, margb, gutter, landscape, facingp
    }

    enum DocumentWord: String, CaseIterable { case rtf, ansi, mac, pc, pca, ansicpg, deff, uc, u, upr, ud }

    enum TableWord: String, CaseIterable {
        case fonttbl, f, fcharset, cpg, colortbl, red, green, blue, stylesheet, s, cs, ds, ts, outlinelevel
        case revtbl, listtable, listoverridetable, list, listid, listlevel, levelnfc, levelnfcn, levelstartat
        case leveltext, levelnumbers, listname, listoverride, listpicture, ls, ilvl
        case info, title, author, subject, keywords, creatim, revtim, yr, mo, dy, hr, min
        case userprops, propname, staticval, defchp, defpap
    }

    enum StructureWord: String, CaseIterable {
        case par, pard, plain, line, sect
        case cell, row, nestcell, nestrow, nesttableprops, nonesttables, trowd, cellx, intbl, itap, trhdr
        case clmgf, clmrg, clvmgf, clvmrg
        /// Redline's own row flag (`\rltrmarked`, ignored by other readers as an unknown word): the row was
        /// inserted or deleted with tracking, and its cells' text is wholly inserted (deleted) by that change.
        case rltrmarked
        /// Redline's own cell words (unknown to other readers): the cell was inserted (`\rltclins`) or deleted
        /// (`\rltcldel`) with tracking, by the revision author `\rltclauthN` at `\rltcldttmN`.
        case rltclins, rltcldel, rltclauth, rltcldttm
    }

    enum CharacterWord: String, CaseIterable {
        case b, i, ul, uld, uldash, uldashd, uldashdd, uldb, ulhwave, ulldash, ulth, ulthd, ulthdash, ulthdashd
        case ulthdashdd, ulthldash, ululdbwave, ulw, ulwave, ulnone, strike, striked
        case `super`, sub, nosupersub, scaps, caps, v, fs, cf, cb, highlight, chcbpat
        case revised, deleted, revauth, revauthdel, revdttm, revdttmdel, crauth
    }

    enum ParagraphWord: String, CaseIterable {
        case ql, qc, qr, qj, qd, fi, li, ri, sb, sa, sl, slmult, tx, tb, tqr, tqc, tqdec
        case tldot, tlmdot, tlhyph, tlul, tlth, tleq, listtext
        case pntext, pn, pnlvlblt, pnlvlbody, pnlvl, pndec, pnucltr, pnlcltr, pnucrm, pnlcrm, pnstart
    }

    enum NoteWord: String, CaseIterable {
        case footnote, ftnalt, annotation, atnid, atnauthor, atndate, atnref, atrfstart, atrfend, atnparent
        case field, fldinst, fldrslt
        /// Redline's own destination: a heading's pandoc attributes as written (` {#sec-intro}`).
        case redlineattr
        /// Redline's own destination in a footnote: Markdown's inline note `^[…]`.
        case redlineinline
    }

    enum PictureWord: String, CaseIterable {
        case pict, nonshppict, pngblip, jpegblip, emfblip, wmetafile, macpict, dibitmap, wbitmap, bin
        case picwgoal, pichgoal, picscalex, picscaley, picprop, objdata, shpinst, shptxt
        /// A shape's rectangle in twips (read inside `\shpinst`, for a text box's size).
        case shpleft, shptop, shpright, shpbottom
        /// Shape properties: read inside `\pict` (alt text), skipped elsewhere.
        case sp, sn, sv
    }

    static let specialCharacters: [(String, UInt32)] = [
        ("tab", 9), ("emdash", 0x2014), ("endash", 0x2013), ("bullet", 0x2022), ("lquote", 0x2018),
        ("rquote", 0x2019), ("ldblquote", 0x201C), ("rdblquote", 0x201D), ("emspace", 0x2003),
        ("enspace", 0x2002), ("qmspace", 0x2005), ("zwj", 0x200D), ("zwnj", 0x200C), ("ltrmark", 0x200E),
        ("rtlmark", 0x200F), ("zwbo", 0x200B), ("zwnbo", 0xFEFF),
    ]

    static let ignoredWords = [
        "page", "pnlvlcont", "chftn", "chatn", "chdate", "chtime", "chpgn",
        "shppict", "object", "result", "shp", "shprslt",
    ]

    static let skippedDestinations = [
        "ftnsep", "ftnsepc",
        "ftncn", "aftnsep", "aftnsepc", "aftncn", "xe", "tc", "txe", "rxe", "bkmkstart", "bkmkend", "filetbl",
        "rsidtbl", "themedata", "colorschememapping", "latentstyles", "datastore", "xmlnstbl", "generator",
        "mmathPr", "pgdsctbl", "comment", "private", "template", "docvar", "fchars", "lchars", "pnseclvl",
        "pntxta", "pntxtb", "falt", "panose", "fontemb", "fontfile", "background", "pgptbl", "protusertbl",
        "stylesheetdummy", "printim", "buptim", "atntime", "atnicn", "htmltag", "mhtmltag", "wgrffmtfilter",
        "keycode", "formfield", "datafield", "operator", "doccomm",
    ]

    /// Header and footer destinations: `\header`/`\headerr` are every (or odd) page's, `\headerl` even pages',
    /// `\headerf` the first page's.
    static let headersAndFooters: [(String, HeaderFooter.Kind, HeaderFooter.Which)] = [
        ("header", .header, .default), ("headerl", .header, .even), ("headerr", .header, .default), ("headerf", .header, .first),
        ("footer", .footer, .default), ("footerl", .footer, .even), ("footerr", .footer, .default), ("footerf", .footer, .first),
    ]

    /// Every known word with its keyword (each name once).
    static let all: [(name: String, keyword: RTFKeyword)] =
        DocumentWord.allCases.map { ($0.rawValue, .document($0)) }
        + TableWord.allCases.map { ($0.rawValue, .table($0)) }
        + StructureWord.allCases.map { ($0.rawValue, .structure($0)) }
        + CharacterWord.allCases.map { ($0.rawValue, .character($0)) }
        + ParagraphWord.allCases.map { ($0.rawValue, .paragraph($0)) }
        + specialCharacters.map { ($0.0, .special($0.1)) }
        + NoteWord.allCases.map { ($0.rawValue, .note($0)) }
        + PictureWord.allCases.map { ($0.rawValue, .picture($0)) }
        + ignoredWords.map { ($0, .ignored) }
        + skippedDestinations.map { ($0, .skipDestination) }
        + headersAndFooters.map { ($0.0, .headerFooter($0.1, $0.2)) }
        + SectionWord.allCases.map { ($0.rawValue, .section($0)) }

    /// Name → keyword, for the tokenizer.
    static let table = KeywordTable(all.map { (RTFWordKey($0.name), $0.keyword) })
}

/// An open-addressing table from control-word names to keywords with a cheap multiplicative hash
/// (the tokenizer looks up every control word; `Dictionary` would hash each with SipHash).
struct KeywordTable {
    private var keys: [RTFWordKey?]
    private var values: [RTFKeyword?]
    private let mask: Int

    init(_ entries: [(RTFWordKey, RTFKeyword)]) {
        var size = 1
        while size < entries.count * 4 { size <<= 1 }
        mask = size - 1
        keys = Array(repeating: nil, count: size)
        values = Array(repeating: nil, count: size)
        for (k, v) in entries {
            var i = k.cheapHash & mask
            while let existing = keys[i] {
                precondition(existing != k, "a control word is listed twice")
                i = (i + 1) & mask
            }
            keys[i] = k
            values[i] = v
        }
    }

    subscript(key: RTFWordKey) -> RTFKeyword? {
        var i = key.cheapHash & mask
        while let k = keys[i] {
            if k == key { return values[i] }
            i = (i + 1) & mask
        }
        return nil
    }
}

/// The control words the RTF reader acts on. Everything else is ignored (or, after `\*`, skipped with its group).
enum RTFKeyword: String, CaseIterable {
    // Document and character sets.
    case rtf, ansi, mac, pc, pca, ansicpg, deff, uc, u, upr, ud
    // Tables in the header.
    case fonttbl, f, fcharset, cpg, colortbl, red, green, blue, stylesheet, s, cs, ds, ts
    case revtbl, listtable, listoverridetable, list, listid, listlevel, levelnfc, levelnfcn, levelstartat
    case leveltext, levelnumbers, listname, listoverride, listpicture
    case info, title, author, subject, keywords, `operator`, doccomm, creatim, revtim, yr, mo, dy, hr, min
    case userprops, propname, staticval, defchp, defpap
    // Structure.
    case par, pard, plain, line, tab, page, sect, sectd
    case cell, row, nestcell, nestrow, nesttableprops, nonesttables, trowd, cellx, intbl, itap, trhdr
    case clmgf, clmrg, clvmgf, clvmrg
    // Character formatting.
    case b, i, ul, uld, uldash, uldashd, uldashdd, uldb, ulhwave, ulldash, ulth, ulthd, ulthdash, ulthdashd
    case ulthdashdd, ulthldash, ululdbwave, ulw, ulwave, ulnone, strike, striked
    case `super`, sub, nosupersub, scaps, caps, v, fs, cf, cb, highlight, chcbpat
    case revised, deleted, revauth, revauthdel, revdttm, revdttmdel, crauth
    // Paragraph formatting.
    case ql, qc, qr, qj, qd, fi, li, ri, sb, sa, sl, slmult, tx, tb, tqr, tqc, tqdec
    case tldot, tlmdot, tlhyph, tlul, tlth, tleq, outlinelevel, ls, ilvl, listtext
    case pntext, pn, pnlvlblt, pnlvlbody, pnlvlcont, pnlvl, pndec, pnucltr, pnlcltr, pnucrm, pnlcrm, pnstart
    // Special characters.
    case emdash, endash, bullet, lquote, rquote, ldblquote, rdblquote, emspace, enspace, qmspace
    case zwj, zwnj, ltrmark, rtlmark, zwbo, zwnbo, chftn, chatn, chdate, chtime, chpgn
    // Notes, annotations, fields, pictures.
    case footnote, ftnalt, annotation, atnid, atnauthor, atndate, atnref, atrfstart, atrfend, atnparent
    case field, fldinst, fldrslt
    case pict, shppict, nonshppict, pngblip, jpegblip, emfblip, wmetafile, macpict, dibitmap, wbitmap, bin
    case picwgoal, pichgoal, picscalex, picscaley, picprop, object, objdata, result, shp, shpinst, shprslt
    // Destinations whose text is not body text.
    case header, headerl, headerr, headerf, footer, footerl, footerr, footerf
    case ftnsep, ftnsepc, ftncn, aftnsep, aftnsepc, aftncn, xe, tc, txe, rxe, bkmkstart, bkmkend
    case filetbl, rsidtbl, themedata, colorschememapping, latentstyles, datastore, xmlnstbl, generator
    case mmathPr, pgdsctbl, comment, `private`, template, docvar, fchars, lchars, pnseclvl, pntxta, pntxtb
    case falt, panose, fontemb, fontfile, background, pgptbl, protusertbl, stylesheetdummy, printim, buptim
    case atntime, atnicn, htmltag, mhtmltag, wgrffmtfilter, sp, sn, sv, keycode, formfield, datafield

    /// Name → keyword, for the tokenizer.
    static let table = KeywordTable(allCases.map { (RTFWordKey($0.rawValue), $0) })
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
            while keys[i] != nil { i = (i + 1) & mask }
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

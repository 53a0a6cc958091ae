import RedlineCore

extension RTFParser {
    /// Character properties.
    func characterWord(_ w: RTFKeyword.CharacterWord, _ p: Int?) {
        let on = (p ?? 1) != 0
        let v = p ?? 0
        switch w {
        case .b: state.char.bold = on
        case .i: state.char.italic = on
        case .ul, .uld, .uldash, .uldashd, .uldashdd, .uldb, .ulhwave, .ulldash, .ulth, .ulthd, .ulthdash,
             .ulthdashd, .ulthdashdd, .ulthldash, .ululdbwave, .ulw, .ulwave:
            state.char.underline = on
        case .ulnone: state.char.underline = false
        case .strike: state.char.strike = on
        case .striked: state.char.doubleStrike = on
        case .super: state.char.superscript = on; if on { state.char.subscript = false }
        case .sub: state.char.subscript = on; if on { state.char.superscript = false }
        case .nosupersub: state.char.superscript = false; state.char.subscript = false
        case .scaps: state.char.smallCaps = on
        case .caps: state.char.allCaps = on
        case .v: state.char.hidden = on
        case .fs:
            if p == nil { state.char.fontSize = -1 } else if v < 1 || v > 3276 {
                reportClamped()
                state.char.fontSize = min(max(v, 1), 3276)
            } else { state.char.fontSize = v }
        case .cf: state.char.foreground = v
        case .cb, .chcbpat: state.char.background = v
        case .highlight: state.char.highlight = v
        case .revised: state.char.revised = on
        case .deleted: state.char.deleted = on
        case .revauth: state.char.revisionAuthor = v
        case .revauthdel: state.char.deletionAuthor = v
        case .revdttm: state.char.revisionDate = v
        case .revdttmdel: state.char.deletionDate = v
        case .crauth:
            diagnostics.report(.rtfFormatChangeDropped, "tracked formatting changes were read as the new formatting")
        }
    }

    /// Paragraph properties, tab stops and legacy `\pn` numbering.
    func paragraphWord(_ w: RTFKeyword.ParagraphWord, _ v: Int) {
        switch w {
        case .ql: state.para.alignment = nil
        case .qc: state.para.alignment = .center
        case .qr: state.para.alignment = .right
        case .qj, .qd: state.para.alignment = .justified
        case .fi: state.para.firstLine = v
        case .li: state.para.left = v
        case .ri: state.para.right = v
        case .sb: state.para.before = v
        case .sa: state.para.after = v
        case .sl: state.para.lineSpacing = v
        case .slmult: state.para.lineMultiple = v
        case .tqr: state.para.tabAlignment = .right
        case .tqc: state.para.tabAlignment = .center
        case .tqdec: state.para.tabAlignment = .decimal
        case .tldot, .tlmdot: state.para.tabLeader = .dot
        case .tlhyph: state.para.tabLeader = .hyphen
        case .tlul, .tlth, .tleq: state.para.tabLeader = .underscore
        case .tx, .tb:
            // `\tx` sets a tab stop with the alignment and leader before it; `\tb` (a bar tab) is not kept.
            if w == .tx, state.para.tabs.count < 256 {
                state.para.tabs.append(TabStop(position: Double(v) / 20, alignment: state.para.tabAlignment,
                                               leader: state.para.tabLeader))
            }
            state.para.tabAlignment = .left
            state.para.tabLeader = .none
        case .listtext, .pntext:
            stories[state.story].sawListText = true
            setDestination(.skip)
        case .pn: setDestination(.legacyList); state.para.legacyList = .ordered(start: 1, delimiter: "."); state.para.legacyLevel = 0
        case .pnlvlblt: state.para.legacyList = .bullet
        case .pnlvlbody: if state.para.legacyList == .bullet { state.para.legacyList = .ordered(start: 1, delimiter: ".") }
        case .pnlvl: state.para.legacyLevel = min(max(v - 1, 0), 8)
        case .pndec, .pnucltr, .pnlcltr, .pnucrm, .pnlcrm:
            if case .ordered(let s, let d)? = state.para.legacyList { state.para.legacyList = .ordered(start: s, delimiter: d) }
            else if state.para.legacyList == nil { state.para.legacyList = .ordered(start: 1, delimiter: ".") }
        case .pnstart:
            if case .ordered(_, let d)? = state.para.legacyList { state.para.legacyList = .ordered(start: v, delimiter: d) }
        }
    }
}

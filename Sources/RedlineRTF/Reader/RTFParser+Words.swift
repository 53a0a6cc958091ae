import RedlineCore

extension RTFParser {
    /// Acts on one known control word.
    func word(_ k: RTFKeyword, _ p: Int?) throws {
        let on = (p ?? 1) != 0
        let v = p ?? 0
        switch k {
        // Character sets.
        case .rtf: break
        case .ansi: documentCodePage = 1252
        case .mac: documentCodePage = 10000
        case .pc: documentCodePage = 437
        case .pca: documentCodePage = 850
        case .ansicpg:
            if CodePageDecoder.isSupported(v) { documentCodePage = v } else {
                diagnostics.report(.rtfUnknownCodePage, "code page \(v) is not known; its bytes were read as Windows-1252")
                documentCodePage = 1252
            }
            fontCodePages.removeAll()
        case .deff: defaultFont = v
        case .uc:
            if v < 0 || v > 16 {
                reportClamped()
                state.fallbackLength = min(max(v, 0), 16)
            } else {
                state.fallbackLength = v
            }
        case .u: unicode(v)
        case .upr:
            state.unicodeOuter = state.dest
            setDestination(.skip)
        case .ud: break

        // Header tables.
        case .fonttbl: setDestination(.fontTable)
        case .f:
            if state.dest == .fontTable {
                commitFont()
                fontNumber = v
                fontCharset = nil
                fontCodePage = nil
            } else {
                state.char.font = v
            }
        case .fcharset: if state.dest == .fontTable { fontCharset = v }
        case .cpg: if state.dest == .fontTable { fontCodePage = v }
        case .colortbl: setDestination(.colorTable); colorParts = nil
        case .red: colorComponent(0, v)
        case .green: colorComponent(1, v)
        case .blue: colorComponent(2, v)
        case .stylesheet: setDestination(.styleSheet)
        case .s:
            if state.dest == .styleSheet { styleNumber = v; styleIsCharacter = false } else { state.para.style = v }
        case .cs:
            if state.dest == .styleSheet { styleNumber = v; styleIsCharacter = true } else { state.char.charStyle = v }
        case .ds, .ts: if state.dest == .styleSheet { styleNumber = -1 - v; styleIsCharacter = false }
        case .outlinelevel:
            if state.dest == .styleSheet { styleOutline = v } else { state.para.outline = v }
        case .revtbl: setDestination(.revisionTable)
        case .listtable: setDestination(.listTable)
        case .list: setDestination(.list); listInProgress = ListDefinition()
        case .listid:
            if state.dest == .list { listInProgress.id = v } else if state.dest == .listOverride { overrideInProgress.list = v }
        case .listlevel:
            setDestination(.listLevel)
            listInProgress.levels.append(ListLevelDefinition())
        case .levelnfc, .levelnfcn:
            if state.dest == .listLevel, !listInProgress.levels.isEmpty {
                listInProgress.levels[listInProgress.levels.count - 1].format = v
            }
        case .levelstartat:
            if state.dest == .listLevel, !listInProgress.levels.isEmpty {
                listInProgress.levels[listInProgress.levels.count - 1].start = v
            }
        case .leveltext: setDestination(.text(.levelText)); collect.removeAll()
        case .levelnumbers, .listname, .listpicture: setDestination(.skip)
        case .listoverridetable: setDestination(.listOverrideTable)
        case .listoverride: setDestination(.listOverride); overrideInProgress = (0, 0)
        case .ls:
            if state.dest == .listOverride { overrideInProgress.ls = v } else { state.para.list = v }
        case .ilvl: state.para.listLevel = min(max(v, 0), 8)
        case .info: setDestination(.info)
        case .title: textDestination(.metadata("title"))
        case .author: textDestination(.metadata("author"))
        case .subject: textDestination(.metadata("subject"))
        case .keywords: textDestination(.metadata("keywords"))
        case .creatim: setDestination(.infoDate("created")); dateParts = [0, 0, 0, 0, 0]
        case .revtim: setDestination(.infoDate("modified")); dateParts = [0, 0, 0, 0, 0]
        case .yr: dateParts[0] = v
        case .mo: dateParts[1] = v
        case .dy: dateParts[2] = v
        case .hr: dateParts[3] = v
        case .min: dateParts[4] = v
        case .userprops: setDestination(.userProps)
        case .propname: textDestination(.propertyName)
        case .staticval: textDestination(.propertyValue)
        case .defchp: setDestination(.defaultCharacter); state.char = CharFormat()
        case .defpap: setDestination(.defaultParagraph); state.para = ParaFormat()

        // Structure.
        case .par: paragraphEnd()
        case .pard: state.para = ParaFormat()
        case .plain: state.char = CharFormat()
        case .line: lineBreak()
        case .tab: appendCharacter(9)
        case .page: break
        case .sect: if hasPendingContent { paragraphEnd() }
        case .sectd: break
        case .cell: cellEnd(depth: max(1, state.para.tableDepth))
        case .nestcell: cellEnd(depth: max(2, state.para.tableDepth))
        case .row: rowEnd(depth: 1)
        case .nestrow: rowEnd(depth: max(2, state.para.tableDepth))
        case .nesttableprops: setDestination(.nestedTableProperties)
        case .nonesttables: setDestination(.skip)
        case .trowd:
            rowDefinitionDepth = state.dest == .nestedTableProperties
                ? min(max(2, state.para.tableDepth), max(stories[state.story].tables.count, 1)) : 1
            rowDefinitions[rowDefinitionDepth] = RowDefinition()
        case .cellx:
            var d = rowDefinitions[rowDefinitionDepth] ?? RowDefinition()
            var c = d.pending
            c.right = v
            d.cells.append(c)
            d.pending = CellDefinition(right: 0)
            rowDefinitions[rowDefinitionDepth] = d
        case .clmgf: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.mergeFirst = true
        case .clmrg: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.mergeContinue = true
        case .clvmgf: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.verticalFirst = true
        case .clvmrg: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.verticalContinue = true
        case .trhdr: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].header = true
        case .intbl: state.para.inTable = true
        case .itap: state.para.nesting = min(max(v, 0), 1000)

        // Character formatting.
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

        // Paragraph formatting.
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
        case .tx:
            if state.para.tabs.count < 256 {
                state.para.tabs.append(TabStop(position: Double(v) / 20, alignment: state.para.tabAlignment,
                                               leader: state.para.tabLeader))
            }
            state.para.tabAlignment = .left
            state.para.tabLeader = .none
        case .tb:
            state.para.tabAlignment = .left
            state.para.tabLeader = .none
        case .listtext, .pntext:
            stories[state.story].sawListText = true
            setDestination(.skip)
        case .pn: setDestination(.legacyList); state.para.legacyList = .ordered(start: 1, delimiter: "."); state.para.legacyLevel = 0
        case .pnlvlblt: state.para.legacyList = .bullet
        case .pnlvlbody: if state.para.legacyList == .bullet { state.para.legacyList = .ordered(start: 1, delimiter: ".") }
        case .pnlvl: state.para.legacyLevel = min(max(v - 1, 0), 8)
        case .pnlvlcont: break
        case .pndec, .pnucltr, .pnlcltr, .pnucrm, .pnlcrm:
            if case .ordered(let s, let d)? = state.para.legacyList { state.para.legacyList = .ordered(start: s, delimiter: d) }
            else if state.para.legacyList == nil { state.para.legacyList = .ordered(start: 1, delimiter: ".") }
        case .pnstart:
            if case .ordered(_, let d)? = state.para.legacyList { state.para.legacyList = .ordered(start: v, delimiter: d) }

        // Special characters.
        case .emdash: appendCharacter(0x2014)
        case .endash: appendCharacter(0x2013)
        case .bullet: appendCharacter(0x2022)
        case .lquote: appendCharacter(0x2018)
        case .rquote: appendCharacter(0x2019)
        case .ldblquote: appendCharacter(0x201C)
        case .rdblquote: appendCharacter(0x201D)
        case .emspace: appendCharacter(0x2003)
        case .enspace: appendCharacter(0x2002)
        case .qmspace: appendCharacter(0x2005)
        case .zwj: appendCharacter(0x200D)
        case .zwnj: appendCharacter(0x200C)
        case .ltrmark: appendCharacter(0x200E)
        case .rtlmark: appendCharacter(0x200F)
        case .zwbo: appendCharacter(0x200B)
        case .zwnbo: appendCharacter(0xFEFF)
        case .chftn, .chatn, .chdate, .chtime, .chpgn: break

        // Notes and annotations.
        case .footnote: startNote()
        case .ftnalt:
            if case .note(let id, _) = stories[state.story].kind { stories[state.story].kind = .note(id: id, kind: .endnote) }
        case .annotation: startAnnotation()
        case .atnid: textDestination(.annotationInitials)
        case .atnauthor: textDestination(.annotationAuthor)
        case .atnref: textDestination(.annotationReference)
        case .atnparent: textDestination(.annotationParent)
        case .atndate: textDestination(.annotationDate)
        case .atrfstart: textDestination(.rangeStart)
        case .atrfend: textDestination(.rangeEnd)

        // Fields.
        case .field: startField()
        case .fldinst:
            if state.field >= 0 { setDestination(.fieldInstruction) } else { setDestination(.skip) }
        case .fldrslt: if state.dest == .fieldInstruction { setDestination(.body) }

        // Pictures and objects.
        case .pict: startPicture()
        case .pngblip: pictureType = "png"
        case .jpegblip: pictureType = "jpeg"
        case .emfblip: pictureType = "emf"
        case .wmetafile: pictureType = "wmf"
        case .macpict, .dibitmap, .wbitmap: pictureType = nil
        case .bin:
            if state.dest == .picture {
                let n = max(0, v)
                let before = pictureData.count
                if before + n > maxPictureBytes { pictureTooLarge = true; try skipBinary(n: n) } else {
                    try tokenizer.readBinary(n, into: &pictureData)
                    if pictureData.count - before < n {
                        diagnostics.report(.rtfTruncated, "a \\bin of \(n) bytes runs past the end of the input (truncated?)")
                    }
                }
            } else {
                try skipBinary(n: max(0, v))
            }
        case .nonshppict, .objdata, .shpinst: setDestination(.skip)
        case .shppict, .object, .result, .shp, .shprslt: break
        case .picwgoal: if state.dest == .picture { pictureGoal.w = max(0, v) }
        case .pichgoal: if state.dest == .picture { pictureGoal.h = max(0, v) }
        case .picscalex: if state.dest == .picture, v > 0 { pictureScale.x = v }
        case .picscaley: if state.dest == .picture, v > 0 { pictureScale.y = v }
        case .picprop: if state.dest != .picture { setDestination(.skip) }
        case .sp where state.dest == .picture: break
        case .sn where state.dest == .picture: textDestination(.pictureName)
        case .sv where state.dest == .picture: textDestination(.pictureValue)

        // Destinations without body text.
        case .header, .headerl, .headerr, .headerf, .footer, .footerl, .footerr, .footerf, .ftnsep, .ftnsepc, .ftncn,
             .aftnsep, .aftnsepc, .aftncn, .xe, .tc, .txe, .rxe, .bkmkstart, .bkmkend, .filetbl, .rsidtbl, .themedata,
             .colorschememapping, .latentstyles, .datastore, .xmlnstbl, .generator, .mmathPr, .pgdsctbl, .comment,
             .private, .template, .docvar, .fchars, .lchars, .pnseclvl, .pntxta, .pntxtb, .falt, .panose, .fontemb,
             .fontfile, .background, .pgptbl, .protusertbl, .stylesheetdummy, .printim, .buptim, .atntime, .atnicn,
             .htmltag, .mhtmltag, .wgrffmtfilter, .sp, .sn, .sv, .keycode, .formfield, .datafield, .operator, .doccomm:
            setDestination(.skip)
        }
    }

    /// Skips `\bin` data, warning when it runs past the end of the input.
    func skipBinary(n: Int) throws {
        let got = try tokenizer.skipBinary(n)
        if got < n {
            diagnostics.report(.rtfTruncated, "a \\bin of \(n) bytes runs past the end of the input (truncated?)")
        }
    }

    func reportClamped() {
        diagnostics.report(.rtfParameterClamped, "a control word parameter out of range was clamped")
    }

    private func textDestination(_ t: TextTarget) {
        setDestination(.text(t))
        collect.removeAll(keepingCapacity: true)
    }

    private func colorComponent(_ i: Int, _ v: Int) {
        guard state.dest == .colorTable else { return }
        var c = colorParts ?? (0, 0, 0)
        let x = min(max(v, 0), 255)
        if i == 0 { c.r = x } else if i == 1 { c.g = x } else { c.b = x }
        colorParts = c
    }

    /// A control symbol.
    func symbol(_ c: UInt8) {
        switch c {
        case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"): text([c])
        case UInt8(ascii: "~"): appendCharacter(0xA0)
        case UInt8(ascii: "_"): appendCharacter(0x2011)
        case UInt8(ascii: "-"): break
        case 9: appendCharacter(9)
        default: break
        }
    }

    /// `\uN`: a UTF-16 code unit (negative values count from 65536), then fallback characters to skip.
    private func unicode(_ v: Int) {
        var u = UInt32(truncatingIfNeeded: v < 0 ? v + 65536 : v) & 0xFFFF
        if v > 0xFFFF { u = 0xFFFD }
        fallbackToSkip = state.fallbackLength
        if (0xD800...0xDBFF).contains(u) { highSurrogate = u; return }
        if (0xDC00...0xDFFF).contains(u) {
            if let h = highSurrogate {
                highSurrogate = nil
                appendCharacter(0x10000 + ((h - 0xD800) << 10) + (u - 0xDC00))
            } else { appendCharacter(0xFFFD) }
            return
        }
        if highSurrogate != nil { highSurrogate = nil; appendCharacter(0xFFFD) }
        appendCharacter(u)
    }
}

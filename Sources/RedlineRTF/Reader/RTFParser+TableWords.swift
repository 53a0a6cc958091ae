import RedlineCore

extension RTFParser {
    /// The header's tables (tables.fonts, colours, styles, revision authors, lists, `\info`), and the words that
    /// name a table entry in the header but set a property in the body (`\f`, `\s`, `\cs`, `\ls`...).
    func tableWord(_ w: RTFKeyword.TableWord, _ v: Int) {
        switch w {
        case .fonttbl: setDestination(.fontTable)
        case .f:
            if state.dest == .fontTable {
                commitFont()
                tables.fontNumber = v
                tables.fontCharset = nil
                tables.fontCodePage = nil
            } else {
                state.char.font = v
            }
        case .fcharset: if state.dest == .fontTable { tables.fontCharset = v }
        case .cpg: if state.dest == .fontTable { tables.fontCodePage = v }
        case .colortbl: setDestination(.colorTable); tables.colorParts = nil
        case .red: colorComponent(0, v)
        case .green: colorComponent(1, v)
        case .blue: colorComponent(2, v)
        case .stylesheet: setDestination(.styleSheet)
        case .s:
            if state.dest == .styleSheet { tables.styleNumber = v; tables.styleIsCharacter = false } else { state.para.style = v }
        case .cs:
            if state.dest == .styleSheet { tables.styleNumber = v; tables.styleIsCharacter = true } else { state.char.charStyle = v }
        case .ds, .ts: if state.dest == .styleSheet { tables.styleNumber = -1 - v; tables.styleIsCharacter = false }
        case .outlinelevel:
            if state.dest == .styleSheet { tables.styleOutline = v } else { state.para.outline = v }
        case .revtbl: setDestination(.revisionTable)
        case .listtable: setDestination(.listTable)
        case .list: setDestination(.list); tables.listInProgress = ListDefinition()
        case .listid:
            if state.dest == .list { tables.listInProgress.id = v } else if state.dest == .listOverride { tables.overrideInProgress.list = v }
        case .listlevel:
            setDestination(.listLevel)
            tables.listInProgress.levels.append(ListLevelDefinition())
        case .levelnfc, .levelnfcn:
            if state.dest == .listLevel, !tables.listInProgress.levels.isEmpty {
                tables.listInProgress.levels[tables.listInProgress.levels.count - 1].format = v
            }
        case .levelstartat:
            if state.dest == .listLevel, !tables.listInProgress.levels.isEmpty {
                tables.listInProgress.levels[tables.listInProgress.levels.count - 1].start = v
            }
        case .leveltext: setDestination(.text(.levelText)); collect.removeAll()
        case .levelnumbers, .listname, .listpicture: setDestination(.skip)
        case .listoverridetable: setDestination(.listOverrideTable)
        case .listoverride: setDestination(.listOverride); tables.overrideInProgress = (0, 0)
        case .ls:
            if state.dest == .listOverride { tables.overrideInProgress.ls = v } else { state.para.list = v }
        case .ilvl: state.para.listLevel = min(max(v, 0), 8)
        case .info: setDestination(.info)
        case .title: textDestination(.metadata("title"))
        case .author: textDestination(.metadata("author"))
        case .subject: textDestination(.metadata("subject"))
        case .keywords: textDestination(.metadata("keywords"))
        case .creatim: setDestination(.infoDate("created")); tables.dateParts = [0, 0, 0, 0, 0]
        case .revtim: setDestination(.infoDate("modified")); tables.dateParts = [0, 0, 0, 0, 0]
        case .yr: tables.dateParts[0] = v
        case .mo: tables.dateParts[1] = v
        case .dy: tables.dateParts[2] = v
        case .hr: tables.dateParts[3] = v
        case .min: tables.dateParts[4] = v
        case .userprops: setDestination(.userProps)
        case .propname: textDestination(.propertyName)
        case .staticval: textDestination(.propertyValue)
        case .defchp: setDestination(.defaultCharacter); state.char = CharFormat()
        case .defpap: setDestination(.defaultParagraph); state.para = ParaFormat()
        }
    }

    private func colorComponent(_ i: Int, _ v: Int) {
        guard state.dest == .colorTable else { return }
        var c = tables.colorParts ?? (0, 0, 0)
        let x = min(max(v, 0), 255)
        if i == 0 { c.r = x } else if i == 1 { c.g = x } else { c.b = x }
        tables.colorParts = c
    }
}

import RedlineCore

extension RTFParser {
    /// Paragraph, section, row and cell boundaries, and table row definitions.
    func structureWord(_ w: RTFKeyword.StructureWord, _ v: Int) {
        switch w {
        case .par: paragraphEnd()
        case .pard: state.para = ParaFormat()
        case .plain: state.char = CharFormat()
        case .line: lineBreak()
        case .sect: sectionBreak()
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
            // Redline's cell change words: the cell's change, its author and date from the revision table.
            if let inserted = rowDefinitions[rowDefinitionDepth]?.pending.changeInserted {
                let p = rowDefinitions[rowDefinitionDepth]!.pending
                let c = Change(author: revisionAuthor(p.changeAuthor), date: formats.date(p.changeDate))
                rowDefinitions[rowDefinitionDepth]!.pending.change = inserted ? .inserted(c) : .deleted(c)
            }
            // In place: a copy taken out of the dictionary and stored back copied every cell so far, each
            // time (quadratic in the cells of a row).
            rowDefinitions[rowDefinitionDepth, default: RowDefinition()].appendCell(right: v)
        case .rltclins: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.changeInserted = true
        case .rltcldel: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.changeInserted = false
        case .rltclauth: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.changeAuthor = v
        case .rltcldttm: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.changeDate = v
        case .clmgf: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.mergeFirst = true
        case .clmrg: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.mergeContinue = true
        case .clvmgf: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.verticalFirst = true
        case .clvmrg: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].pending.verticalContinue = true
        case .trhdr: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].header = true
        case .rltrmarked: rowDefinitions[rowDefinitionDepth, default: RowDefinition()].changeInCells = true
        case .intbl: state.para.inTable = true
        case .itap: state.para.nesting = min(max(v, 0), 1000)
        }
    }

    /// Notes, annotations and fields.
    func noteWord(_ w: RTFKeyword.NoteWord) {
        switch w {
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
        case .redlineattr: textDestination(.headingAttributes)
        case .redlineinline: pendingInlineNote = true
        case .field: startField()
        case .fldinst:
            if state.field >= 0 { setDestination(.fieldInstruction) } else { setDestination(.skip) }
        case .fldrslt:
            if state.dest == .fieldInstruction { setDestination(.body) }
            if state.dest == .body { startFieldResult() }
        }
    }

    /// Pictures and objects.
    func pictureWord(_ w: RTFKeyword.PictureWord, _ v: Int) throws {
        switch w {
        case .pict: startPicture()
        case .pngblip: picture.type = "png"
        case .jpegblip: picture.type = "jpeg"
        case .emfblip: picture.type = "emf"
        case .wmetafile: picture.type = "wmf"
        case .macpict, .dibitmap, .wbitmap: picture.type = nil
        case .bin:
            if state.dest == .picture {
                let n = max(0, v)
                let before = picture.data.count
                if before + n > maxPictureBytes { picture.tooLarge = true; try skipBinary(n: n) } else {
                    try tokenizer.readBinary(n, into: &picture.data)
                    if picture.data.count - before < n {
                        diagnostics.report(.rtfTruncated, "a \\bin of \(n) bytes runs past the end of the input (truncated?)")
                    }
                }
            } else {
                try skipBinary(n: max(0, v))
            }
        case .nonshppict, .objdata: setDestination(.skip)
        case .shpinst:
            setDestination(.skip)
            state.inShape = true
            shapeRect = [nil, nil, nil, nil]
        case .shpleft, .shptop, .shpright, .shpbottom: break  // read inside `\shpinst` (`RTFParser.step`)
        case .shptxt: break  // read where it counts: inside `\shpinst` (`RTFParser.step`)
        case .picwgoal: if state.dest == .picture { picture.goal.w = max(0, v) }
        case .pichgoal: if state.dest == .picture { picture.goal.h = max(0, v) }
        case .picscalex: if state.dest == .picture, v > 0 { picture.scale.x = v }
        case .picscaley: if state.dest == .picture, v > 0 { picture.scale.y = v }
        case .picprop: if state.dest != .picture { setDestination(.skip) }
        case .sp: if state.dest != .picture { setDestination(.skip) }
        case .sn: if state.dest == .picture { textDestination(.pictureName) } else { setDestination(.skip) }
        case .sv: if state.dest == .picture { textDestination(.pictureValue) } else { setDestination(.skip) }
        }
    }
}

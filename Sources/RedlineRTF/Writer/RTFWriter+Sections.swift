import RedlineCore

extension RTFSink {
    /// A section's words and its header and footer groups: `\sectd`, the break kind, page size and
    /// orientation, margins, columns, line numbering, title page, then `{\header…}`/`{\footer…}`. Written
    /// before the `\sect` that ends the section (the last section's before the document's closing brace):
    /// RTF takes the properties in effect at the break.
    mutating func writeSection(_ s: Section) {
        func tw(_ v: Double) -> String { String(Int((v * 20).rounded())) }
        var w = "\\sectd"
        switch s.breakKind {
        case .continuous?: w += "\\sbknone"
        case .nextColumn?: w += "\\sbkcol"
        case .nextPage?: w += "\\sbkpage"
        case .evenPage?: w += "\\sbkeven"
        case .oddPage?: w += "\\sbkodd"
        case nil: break
        }
        if let v = s.pageWidth { w += "\\pgwsxn" + tw(v) }
        if let v = s.pageHeight { w += "\\pghsxn" + tw(v) }
        if s.orientation == .landscape { w += "\\lndscpsxn" }
        let m = s.margins
        for (word, v) in [("marglsxn", m.left), ("margrsxn", m.right), ("margtsxn", m.top), ("margbsxn", m.bottom),
                          ("headery", m.header), ("footery", m.footer), ("guttersxn", m.gutter)] {
            if let v { w += "\\" + word + tw(v) }
        }
        if let n = s.columns { w += "\\cols\(n)" }
        if let v = s.columnSpacing { w += "\\colsx" + tw(v) }
        if let l = s.lineNumbering {
            w += "\\linemod\(max(l.countBy, 1))"
            if let v = l.distance { w += "\\linex" + tw(v) }
            if let v = l.start { w += "\\linestarts\(v)" }
            switch l.restart {
            case .newSection?: w += "\\linerestart"
            case .newPage?: w += "\\lineppage"
            case .continuous?: w += "\\linecont"
            case nil: break
            }
        }
        if s.titlePage { w += "\\titlepg" }
        emit(w + "\n")
        var seen: Set<String> = []
        for hf in s.headersFooters where seen.insert(hf.kind.rawValue + hf.which.rawValue).inserted {
            let word: String
            switch hf.which {
            case .default: word = header.evenAndOddHeaders ? "r" : ""
            case .first: word = "f"
            case .even: word = "l"
            }
            emit("{\\" + hf.kind.rawValue + word + " ")
            let was = inHeaderStory
            inHeaderStory = true
            for b in hf.blocks { writeBlock(b, context: BlockContext()) }
            inHeaderStory = was
            emit("}\n")
        }
    }
}

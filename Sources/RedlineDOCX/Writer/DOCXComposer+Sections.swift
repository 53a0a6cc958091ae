import RedlineCore

extension DOCXComposer {
    /// `w:sectPr` for `section`, children in the schema's order (header and footer references, type, pgSz,
    /// pgMar, lnNumType, cols, titlePg). Each header and footer story becomes a part of its own
    /// (`headerParts`), referenced by a relationship the package writes; one per kind and pages, the first.
    func sectionProperties(_ section: Section, into x: inout XMLText) {
        x.open("w:sectPr")
        var seen: Set<String> = []
        for hf in section.headersFooters where seen.insert(hf.kind.rawValue + hf.which.rawValue).inserted {
            let n = headerParts.count + 1
            let tag = hf.kind == .header ? "w:hdr" : "w:ftr"
            var part = XMLText()
            part.raw(xmlDeclaration)
            part.open(tag, [("xmlns:w", NS.w), ("xmlns:r", NS.r), ("xmlns:wp", NS.wp)])
            var ctx = Context()
            ctx.story = .header
            storyBlocks(hf.blocks, ctx, into: &part)
            part.close(tag)
            let id = "rIdHdr\(n)"
            headerParts.append(("\(hf.kind.rawValue)\(n).xml", id, hf.kind, part))
            x.empty(hf.kind == .header ? "w:headerReference" : "w:footerReference",
                    [("w:type", hf.which.rawValue), ("r:id", id)])
        }
        if let k = section.breakKind { x.val("w:type", k.rawValue) }
        var size: [(String, String)] = []
        if let w = section.pageWidth { size.append(("w:w", twips(w))) }
        if let h = section.pageHeight { size.append(("w:h", twips(h))) }
        if let o = section.orientation { size.append(("w:orient", o.rawValue)) }
        if !size.isEmpty { x.empty("w:pgSz", size) }
        let m = section.margins
        if !m.isEmpty {
            // Every attribute is required: what the section leaves unstated is Word's default.
            x.empty("w:pgMar", [("w:top", twips(m.top ?? 72)), ("w:right", twips(m.right ?? 72)),
                                ("w:bottom", twips(m.bottom ?? 72)), ("w:left", twips(m.left ?? 72)),
                                ("w:header", twips(m.header ?? 36)), ("w:footer", twips(m.footer ?? 36)),
                                ("w:gutter", twips(m.gutter ?? 0))])
        }
        if let l = section.lineNumbering {
            var a = [("w:countBy", String(l.countBy))]
            if let s = l.start { a.append(("w:start", String(s))) }
            if let d = l.distance { a.append(("w:distance", twips(d))) }
            if let r = l.restart { a.append(("w:restart", r.rawValue)) }
            x.empty("w:lnNumType", a)
        }
        var cols: [(String, String)] = []
        if let s = section.columnSpacing { cols.append(("w:space", twips(s))) }
        if let n = section.columns { cols.append(("w:num", String(n))) }
        if !cols.isEmpty { x.empty("w:cols", cols) }
        if section.titlePage { x.empty("w:titlePg") }
        x.close("w:sectPr")
    }
}

import RedlineCore

/// A plan's header and footer edits written into ORIGINAL's header and footer parts: each part a section
/// refers to for that place rewritten with the body's paragraph writer (`ApplyDocument` over its `w:hdr` or
/// `w:ftr`), every other byte kept. Comments are not anchored there (Word has none in headers).
enum ApplyHeadersFooters {
    /// Each section's header and footer parts by place: the sections ending inside the body in order (their
    /// `w:sectPr` in a paragraph's properties), then the body's own (`last`). Old properties
    /// (`w:pPrChange`, `w:sectPrChange`) are not sections.
    static func parts(_ scan: ApplyXMLScan, package: DOCXPackage) -> (body: [[HeaderFooter.Place: String]], last: [HeaderFooter.Place: String]) {
        var body: [[HeaderFooter.Place: String]] = []
        var last: [HeaderFooter.Place: String] = [:]
        var stack: [String] = []
        for (t, tok) in scan.tokens.enumerated() {
            switch tok.kind {
            case .start, .empty:
                if tok.name == "w:sectPr", !stack.contains("w:pPrChange"), !stack.contains("w:sectPrChange") {
                    var places: [HeaderFooter.Place: String] = [:]
                    if tok.kind == .start {
                        for (name, kind) in [("w:headerReference", HeaderFooter.Kind.header), ("w:footerReference", .footer)] {
                            for r in scan.children(of: t, named: name) {
                                let which = HeaderFooter.Which(rawValue: scan.attribute(r, "w:type") ?? "default") ?? .default
                                guard let id = scan.attribute(r, "r:id"), let rel = package.relationships[id], !rel.external else { continue }
                                places[HeaderFooter.Place(kind: kind, which: which)] = rel.target
                            }
                        }
                    }
                    if stack.last == "w:body" { last = places } else { body.append(places) }
                }
                if tok.kind == .start { stack.append(tok.name) }
            case .end: _ = stack.popLast()
            default: break
            }
        }
        return (body, last)
    }

    static func write(_ plan: ApplyPlan, scan: ApplyXMLScan, package: DOCXPackage, accept: Bool, ids: ApplyIDs,
                      styles: [UInt8], numbering: [UInt8], into edits: inout ApplyPackageEdits) throws -> Int {
        guard !plan.headerFooters.isEmpty else { return 0 }
        let (body, last) = parts(scan, package: package)
        var keptInside = 0
        var done = Set<String>()
        let properties = ApplyProperties(styles: styles, numbering: numbering)
        for hf in plan.headerFooters {
            let places = hf.section.map { $0 < body.count ? body[$0] : [:] } ?? last
            guard let name = places[hf.place] else {
                throw RedlineError.unsupported("the \(hf.place.kind.rawValue) of section \(hf.section.map { String($0 + 1) } ?? "last") was not found in the package: nothing was written")
            }
            // A part several sections share is written once.
            guard done.insert(name).inserted else { continue }
            guard let entry = package.archive.entry(named: name) else {
                throw RedlineError.unsupported("\(name) is missing from the package: nothing was written")
            }
            let part = ApplyXMLScan(try package.archive.read(entry))
            let rootName = hf.place.kind == .header ? "w:hdr" : "w:ftr"
            guard let root = part.tokens.firstIndex(where: { $0.kind == .start && $0.name == rootName }) else {
                throw RedlineError.unsupported("\(name) has no \(rootName) element with the w: prefix: Redline cannot apply changes to it")
            }
            var story = hf.plan
            story.steps = story.steps.map { step in
                guard case .edit(let leaf, let edits, let mark) = step else { return step }
                return .edit(leaf: leaf, edits: edits.filter { if case .comment = $0.kind { return false } else { return true } },
                             markDeleted: mark)
            }
            var w = ApplyDocument(body: ApplyBody(part, root: root), plan: story, accept: accept, ids: ids,
                                  existingComments: [], styles: styles, properties: properties)
            edits.store(entry.name, try w.render())
            keptInside += w.keptInside
        }
        return keptInside
    }
}

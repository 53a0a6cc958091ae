import RedlineCore
import RedlineXML

/// Drawings, VML pictures, embedded objects and OMML equations inside a run or paragraph.
extension StoryParser {
    /// A drawing, VML picture or embedded object: a picture (its bytes into the media store, its size from
    /// `wp:extent`), the text of text boxes (as blocks after the paragraph), a warning for charts and objects.
    func graphic(enclosing: Enclosing, add: (Inline) -> Void, extra: inout [Block]) throws {
        var alt = "", title = ""
        var target: String?
        var size: (Double, Double)?
        var chart = false, object = x.tag == .object
        try x.forEachDescendant {
            if x.isElement(.txbxContent, in: OOXML.w) {
                let saved = progress.fields
                progress.fields = []
                extra += try blocks()
                progress.fields = saved
                diagnostics.report(.docxTextBox, "text boxes are kept as paragraphs after their anchor; their position is lost", at: location)
                return true
            }
            switch (x.namespace, x.tag) {
            case (OOXML.wp, .docPr):
                alt = x.attribute("descr") ?? ""
                title = x.attribute("title") ?? ""
            case (OOXML.wp, .extent):
                if let cx = x.attribute("cx").flatMap(Double.init), let cy = x.attribute("cy").flatMap(Double.init),
                   cx > 0, cy > 0, size == nil {
                    size = (cx / 12700, cy / 12700)
                }
            case (OOXML.a, .blip):
                target = x.attribute("embed", in: OOXML.r) ?? x.attribute("link", in: OOXML.r)
            case (OOXML.v, .imagedata):
                target = x.attribute("id", in: OOXML.r) ?? target
                if title.isEmpty { title = x.attribute("title", in: OOXML.o) ?? "" }
            case (OOXML.c, .chart): chart = true
            case (OOXML.o, .OLEObject): object = true
            default: break
            }
            return false
        }
        if chart || object {
            diagnostics.report(.docxChart, "charts and embedded objects are not kept (their text lives outside the document)", at: location)
            return
        }
        guard let id = target, let rel = context.relationships[id] else { return }
        var image = Image(source: "", title: title, alt: alt, width: size?.0, height: size?.1)
        image.attributes = context.imageSources.kept(for: alt)
        if rel.external {
            image.source = rel.target
            diagnostics.report(.docxImage, "linked (not embedded) pictures are kept as links (e.g. \(rel.target))", at: location)
        } else if let item = context.pictures?.item(rel.target, diagnostics: diagnostics, at: location) {
            image.media = item
        } else {
            return
        }
        add(.image(image))
    }

    /// An OMML equation (`m:oMath`, `m:oMathPara`, reader on its start tag): a math inline with its TeX
    /// (`OMMLReader`, then the author's own TeX when `KeptSources` kept it for this OMML). Tracked changes
    /// inside the equation make it the old equation deleted and the new one inserted; inside a change of
    /// its own (`enclosing`) it is the equation as accepted, in that change.
    func equation(enclosing: RunChange? = nil) throws -> [Run] {
        let eq = try OMMLReader.read(x)
        if !eq.unknown.isEmpty {
            diagnostics.report(.docxEquation, "equation elements Redline does not know were read as their content (\(eq.unknown.sorted().joined(separator: ", ")))",
                               at: location)
        }
        let kind: MathKind = eq.display ? .display : .inline
        func math(_ n: MathNode) -> Inline? {
            let tex = context.mathSources.original(for: TeXWriter.tex(n), display: eq.display)
            return tex.isEmpty ? nil : .math(kind, tex)
        }
        guard let rejected = eq.rejected, enclosing == nil else {
            return math(eq.accepted).map { [Run(.atom($0), change: enclosing)] } ?? []
        }
        var out: [Run] = []
        if let old = math(rejected) { out.append(Run(.atom(old), change: .deletion(eq.deletion ?? eq.insertion ?? Change()))) }
        if let new = math(eq.accepted) { out.append(Run(.atom(new), change: .insertion(eq.insertion ?? eq.deletion ?? Change()))) }
        return out
    }
}

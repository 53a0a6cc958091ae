import RedlineCore
import RedlineXML

/// Drawings, VML pictures, embedded objects and OMML equations inside a run or paragraph.
extension StoryParser {
    /// A drawing, VML picture or embedded object: a picture (its bytes into the media store, its size from
    /// `wp:extent`), the blocks of text boxes (after the paragraph, in their `TextBox`), a warning for charts and
    /// objects.
    func graphic(enclosing: Enclosing, add: (Inline) -> Void, extra: inout [Block]) throws {
        var alt = "", title = ""
        var target: String?
        var size: (Double, Double)?
        var shapeSize: (Double?, Double?)  // a VML shape's, from its style (for a text box only)
        var chart = false, object = x.tag == .object
        try x.forEachDescendant {
            if x.isElement(.txbxContent, in: OOXML.w) {
                let saved = progress.fields
                progress.fields = []
                progress.textBoxCount += 1
                func points(_ v: Double?) -> Double? { v.map { ($0 * 100).rounded() / 100 } }
                let box = TextBox(number: progress.textBoxCount, width: points(size?.0 ?? shapeSize.0),
                                  height: points(size?.1 ?? shapeSize.1))
                extra += try blocks().map { $0.inTextBox(box) }
                progress.fields = saved
                diagnostics.report(.docxTextBox, "text boxes are kept in the flow after the paragraph that anchors them; their position on the page is not", at: location)
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
            case (OOXML.v, .rect), (OOXML.v, .shape), (OOXML.v, .roundrect):
                if shapeSize == (nil, nil), let style = x.attribute("style") { shapeSize = Self.vmlSize(style) }
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

    /// The width and height a VML style gives (`width:186.95pt;height:110.55pt`), in points (`pt`, `in`, `cm`, `mm`,
    /// `px`, or none: points).
    static func vmlSize(_ style: String) -> (Double?, Double?) {
        var w: Double?, h: Double?
        for decl in style.split(separator: ";") {
            let kv = decl.split(separator: ":", maxSplits: 1)
            guard kv.count == 2 else { continue }
            let key = kv[0].trimmingCharacters(in: .whitespaces)
            guard key == "width" || key == "height" else { continue }
            let v = kv[1].trimmingCharacters(in: .whitespaces)
            let units: [(String, Double)] = [("pt", 1), ("in", 72), ("cm", 72 / 2.54), ("mm", 72 / 25.4), ("px", 0.75)]
            let (number, factor) = units.first { v.hasSuffix($0.0) }.map { (String(v.dropLast(2)), $0.1) } ?? (v, 1)
            guard let n = Double(number), n.isFinite, n > 0 else { continue }
            if key == "width" { w = n * factor } else { h = n * factor }
        }
        return (w, h)
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

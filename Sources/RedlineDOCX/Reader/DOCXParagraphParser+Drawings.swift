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

    /// An OMML equation (`m:oMath`, `m:oMathPara`, reader on its start tag): its text, with a warning.
    func equation() throws -> [Run] {
        diagnostics.report(.docxEquation, "equations are kept as plain text", at: location)
        var out = ""
        try x.forEachDescendant {
            guard x.isElement(.t, in: OOXML.m) else { return false }
            out += try x.elementText()
            return true
        }
        return out.isEmpty ? [] : [Run(.text(out))]
    }
}

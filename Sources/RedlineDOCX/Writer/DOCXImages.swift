import Foundation
import RedlineCore

extension DOCXComposer {
    /// Kinds Word shows as a `word/media` part.
    static let embeddableKinds: Set<MediaKind> = [.png, .jpeg, .gif, .bmp, .tiff, .emf, .wmf]

    /// An inline picture (`w:drawing`/`wp:inline`) for `image`, or false (reported; the caller writes its alt
    /// text instead) when the model carries no picture bytes for it or Word cannot show them. Each distinct picture is one `word/media` part,
    /// shared by every drawing that shows it.
    func drawing(_ image: Image, into x: inout XMLText) -> Bool {
        guard let item = image.media ?? dataURIs.add(dataURI: image.source, diagnostics: diagnostics) else {
            let what = image.source.isEmpty ? "a picture" : image.source
            diagnostics.report(.docxImageDropped, "pictures the document only links to (not loaded: remote, missing or refused) were written as their alt text (\(what))")
            return false
        }
        guard Self.embeddableKinds.contains(item.kind) else {
            diagnostics.report(.docxImageDropped, "pictures Word cannot show inline (\(item.kind.rawValue)) were written as their alt text")
            return false
        }
        let rel: String
        if let known = imageRelationships[item.id] {
            rel = known
        } else {
            rel = "rIdImage\(imageRelationships.count + 1)"
            imageRelationships[item.id] = rel
            let target = "media/image\(imageRelationships.count).\(item.kind.fileExtension)"
            pendingMedia.append((target, item))
            images.append((rel, target))
        }
        drawingCount += 1
        var shown = image
        shown.media = item
        if let attributes = image.attributes { imageSources.keep(attributes, for: image.alt) }
        Self.inlineDrawing(shown, relationship: rel, id: drawingCount, into: &x)
        return true
    }

    /// The `w:drawing` of an inline picture showing the part of relationship `relationship`, with `wp:docPr` id
    /// `n` (unique in the document), sized by `extent`. With `declaringNamespaces`, the `wp` and `r` prefixes are
    /// declared on the elements that use them (for a part whose root may not declare them: `redline apply`).
    static func inlineDrawing(_ image: Image, relationship rel: String, id n: Int, declaringNamespaces: Bool = false,
                              into x: inout XMLText) {
        let (cx, cy) = extent(image)
        let wp = declaringNamespaces ? " xmlns:wp=\"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing\"" : ""
        let r = declaringNamespaces ? " xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"" : ""
        x.raw("<w:drawing><wp:inline\(wp) distT=\"0\" distB=\"0\" distL=\"0\" distR=\"0\">")
        x.empty("wp:extent", [("cx", String(cx)), ("cy", String(cy))])
        var doc = [("id", String(n)), ("name", "Picture \(n)")]
        if !image.alt.isEmpty { doc.append(("descr", image.alt)) }
        if !image.title.isEmpty { doc.append(("title", image.title)) }
        x.empty("wp:docPr", doc)
        x.raw("<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" noChangeAspect=\"1\"/></wp:cNvGraphicFramePr>"
              + "<a:graphic xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\">"
              + "<a:graphicData uri=\"http://schemas.openxmlformats.org/drawingml/2006/picture\">"
              + "<pic:pic xmlns:pic=\"http://schemas.openxmlformats.org/drawingml/2006/picture\">"
              + "<pic:nvPicPr><pic:cNvPr id=\"0\" name=\"Picture \(n)\"/><pic:cNvPicPr/></pic:nvPicPr>"
              + "<pic:blipFill><a:blip\(r) r:embed=\"\(rel)\"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>"
              + "<pic:spPr><a:xfrm><a:off x=\"0\" y=\"0\"/><a:ext cx=\"\(cx)\" cy=\"\(cy)\"/></a:xfrm>"
              + "<a:prstGeom prst=\"rect\"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>"
              + "</wp:inline></w:drawing>")
    }

    /// The drawing's size in EMU (12,700 a point): the image's size (given, else natural at its DPI, else
    /// 96 dpi), no wider than a 6.5-inch text column (height in proportion).
    static func extent(_ image: Image, maxWidth: Double = 5_943_600) -> (Int, Int) {
        var (w, h) = image.displaySize.map { ($0.width * 12700, $0.height * 12700) } ?? (914400, 914400)
        if w > maxWidth {
            h = h * maxWidth / w
            w = maxWidth
        }
        return (max(Int(w.rounded()), 1), max(Int(h.rounded()), 1))
    }
}

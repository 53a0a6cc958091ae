import Foundation
import RedlineCore

/// Images the model carries as data (`data:image/png;base64,…`, as the RTF reader gives embedded pictures):
/// decoded, sized from their own header, and stored as `word/media/imageN.ext`.
struct DOCXImage {
    /// The file extension and content type of a supported image.
    enum Kind: String {
        case png, jpeg, gif

        var contentType: String { "image/" + rawValue }
    }

    var kind: Kind
    var bytes: [UInt8]
    /// Size in pixels, from the image's header.
    var width: Int
    var height: Int

    /// The image in a data URI, or nil when `source` is not one of a supported, readable image.
    init?(dataURI source: String) {
        guard source.hasPrefix("data:image/"), let comma = source.firstIndex(of: ",") else { return nil }
        let header = source[source.index(source.startIndex, offsetBy: 11)..<comma].lowercased()
        guard header.hasSuffix(";base64") else { return nil }
        switch header.dropLast(7) {
        case "png": kind = .png
        case "jpeg", "jpg": kind = .jpeg
        case "gif": kind = .gif
        default: return nil
        }
        guard let data = Data(base64Encoded: String(source[source.index(after: comma)...]), options: .ignoreUnknownCharacters)
        else { return nil }
        bytes = [UInt8](data)
        guard let (w, h) = Self.size(bytes, kind), w > 0, h > 0 else { return nil }
        width = w
        height = h
    }

    /// Width and height in EMU (914400 an inch) at 96 pixels an inch, no wider than `maxWidth`.
    func extent(maxWidth: Int = 5_943_600) -> (Int, Int) {
        var cx = width * 9525, cy = height * 9525
        if cx > maxWidth {
            cy = Int((Double(cy) * Double(maxWidth) / Double(cx)).rounded())
            cx = maxWidth
        }
        return (cx, max(cy, 1))
    }

    /// Pixel size from a PNG IHDR, a GIF screen descriptor or a JPEG start-of-frame marker.
    static func size(_ b: [UInt8], _ kind: Kind) -> (Int, Int)? {
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        switch kind {
        case .png:
            guard b.count >= 24, b[0] == 0x89, b[1] == 0x50, b[12...15].elementsEqual("IHDR".utf8) else { return nil }
            return (be16(16) << 16 | be16(18), be16(20) << 16 | be16(22))
        case .gif:
            guard b.count >= 10, b[0...2].elementsEqual("GIF".utf8) else { return nil }
            return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        case .jpeg:
            guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return (be16(i + 7), be16(i + 5))
                }
                i += 2 + be16(i + 2)
            }
            return nil
        }
    }
}

extension DOCXComposer {
    /// An inline picture for `image`, or nil (reported) when the model has no image data for it.
    func drawing(_ image: Image, into x: inout XMLText) -> Bool {
        guard let picture = DOCXImage(dataURI: image.source) else {
            diagnostics.report(.docxImageDropped, "images given by a path or URL (not as embedded data) are not carried in DOCX and were dropped")
            return false
        }
        imageCount += 1
        let n = imageCount
        let id = "rIdImage\(n)"
        pendingMedia.append((n, picture))
        images.append((id, "media/image\(n).\(picture.kind.rawValue)"))
        let (cx, cy) = picture.extent()
        x.raw("<w:drawing><wp:inline distT=\"0\" distB=\"0\" distL=\"0\" distR=\"0\">")
        x.empty("wp:extent", [("cx", String(cx)), ("cy", String(cy))])
        var doc = [("id", String(n)), ("name", "Picture \(n)")]
        if !image.alt.isEmpty { doc.append(("descr", image.alt)) }
        if !image.title.isEmpty { doc.append(("title", image.title)) }
        x.empty("wp:docPr", doc)
        x.raw("<a:graphic xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\">"
              + "<a:graphicData uri=\"http://schemas.openxmlformats.org/drawingml/2006/picture\">"
              + "<pic:pic xmlns:pic=\"http://schemas.openxmlformats.org/drawingml/2006/picture\">"
              + "<pic:nvPicPr><pic:cNvPr id=\"0\" name=\"image\(n).\(picture.kind.rawValue)\"/><pic:cNvPicPr/></pic:nvPicPr>"
              + "<pic:blipFill><a:blip r:embed=\"\(id)\"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>"
              + "<pic:spPr><a:xfrm><a:off x=\"0\" y=\"0\"/><a:ext cx=\"\(cx)\" cy=\"\(cy)\"/></a:xfrm>"
              + "<a:prstGeom prst=\"rect\"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>"
              + "</wp:inline></w:drawing>")
        return true
    }
}

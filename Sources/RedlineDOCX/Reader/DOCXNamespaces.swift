/// The XML namespaces the DOCX reader matches, as numbers for `XMLReader`. Transitional and Strict
/// OOXML URIs share a number, so every match works for both; prefixes are never looked at.
enum OOXML {
    static let w = 1, r = 2, m = 3, mc = 4, wp = 5, a = 6, pic = 7, c = 8, v = 9, w14 = 10, w15 = 11, wps = 12
    static let rels = 13, cp = 14, dc = 15, dcterms = 16, o = 17

    /// Namespace URI → number.
    static let table: [String: Int] = [
        "http://schemas.openxmlformats.org/wordprocessingml/2006/main": w,
        "http://purl.oclc.org/ooxml/wordprocessingml/main": w,
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships": r,
        "http://purl.oclc.org/ooxml/officeDocument/relationships": r,
        "http://schemas.openxmlformats.org/officeDocument/2006/math": m,
        "http://purl.oclc.org/ooxml/officeDocument/math": m,
        "http://schemas.openxmlformats.org/markup-compatibility/2006": mc,
        "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing": wp,
        "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing": wp,
        "http://schemas.openxmlformats.org/drawingml/2006/main": a,
        "http://purl.oclc.org/ooxml/drawingml/main": a,
        "http://schemas.openxmlformats.org/drawingml/2006/picture": pic,
        "http://purl.oclc.org/ooxml/drawingml/picture": pic,
        "http://schemas.openxmlformats.org/drawingml/2006/chart": c,
        "http://purl.oclc.org/ooxml/drawingml/chart": c,
        "urn:schemas-microsoft-com:vml": v,
        "http://schemas.microsoft.com/office/word/2010/wordml": w14,
        "http://schemas.microsoft.com/office/word/2012/wordml": w15,
        "http://schemas.microsoft.com/office/word/2010/wordprocessingShape": wps,
        "http://schemas.openxmlformats.org/package/2006/relationships": rels,
        "http://schemas.openxmlformats.org/package/2006/metadata/core-properties": cp,
        "http://purl.org/dc/elements/1.1/": dc,
        "http://purl.org/dc/terms/": dcterms,
        "urn:schemas-microsoft-com:office:office": o,
    ]
}

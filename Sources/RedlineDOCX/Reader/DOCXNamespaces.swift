import RedlineXML

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

    /// Strict OOXML namespace URI → the transitional one of the same number (for parts copied into the
    /// transitional packages Redline writes).
    static let transitionalURI: [String: String] = {
        var byNumber: [Int: String] = [:]
        for (uri, n) in table where uri.hasPrefix("http://schemas.openxmlformats.org/") { byNumber[n] = uri }
        var map: [String: String] = [:]
        for (uri, n) in table where uri.hasPrefix("http://purl.oclc.org/ooxml/") { map[uri] = byNumber[n] }
        return map
    }()
}

/// The local names the DOCX reader matches while it reads stories, as numbers: every `XMLReader` of a
/// package is given `OOXML.names`, and `x.tag` is then an integer switch instead of a string built and
/// compared per element. A name is matched together with its namespace (`t` is in `w` and in `m`).
/// A case's raw value is its element's local name.
enum Tag: String, CaseIterable {
    /// A name not listed here.
    case other = ""
    // Block and run level (the usual ones first).
    case r, t, p, rPr, pPr, body, tbl, sectPr, delText, instrText, delInstrText, fldChar, fldSimple, hyperlink
    case tab, ptab, br, cr, noBreakHyphen, softHyphen, sym, footnoteReference, endnoteReference, commentReference
    case drawing, pict, object, ins, del, moveFrom, moveTo
    case commentRangeStart, commentRangeEnd, moveFromRangeStart, moveToRangeStart, moveFromRangeEnd, moveToRangeEnd
    case bookmarkStart, bookmarkEnd
    // Wrappers looked through, and elements skipped.
    case sdt, sdtContent, customXml, smartTag, dir, bdo, sdtPr, sdtEndPr, customXmlPr, smartTagPr, proofErr
    case permStart, permEnd, lastRenderedPageBreak, annotationRef, footnoteRef, endnoteRef, separator
    case continuationSeparator, rsid, AlternateContent, Choice
    // Run properties.
    case bCs, iCs, szCs, lang, noProof, rtl, cs, kern, spacing, w, position, b, i, u, strike, dstrike, caps, smallCaps
    case vertAlign, highlight, color, shd, sz, rFonts, rStyle, rPrChange
    // Paragraph properties.
    case pStyle, numPr, numId, ilvl, numberingChange, outlineLvl, jc, ind, tabs, pPrChange
    // Tables.
    case tblPr, tblGrid, gridCol, tblGridChange, tr, trPr, tblPrEx, tblHeader, gridBefore, gridAfter, trPrChange
    case tblPrExChange, tc, tcPr, gridSpan, vMerge, cellIns, cellDel, cellMerge, tcPrChange
    // Drawings, text boxes, equations.
    case txbxContent, docPr, blip, imagedata, chart, OLEObject, extent, rect, shape, roundrect

    /// The listed tags by `XMLReader.nameID`.
    static let byID: [Tag] = Array(allCases.dropFirst())
}

extension OOXML {
    /// The local names `Tag` lists, in `Tag.byID` order.
    static let names: [String] = Tag.byID.map(\.rawValue)
}

extension XMLReader {
    /// The current element's local name as a `Tag` (`.other` when not listed), whatever its namespace.
    var tag: Tag {
        let id = nameID
        return id >= 0 && id < Tag.byID.count ? Tag.byID[id] : .other
    }

    /// True when the current element is `tag` in namespace number `namespace`.
    func isElement(_ tag: Tag, in namespace: Int) -> Bool { self.tag == tag && self.namespace == namespace }
}

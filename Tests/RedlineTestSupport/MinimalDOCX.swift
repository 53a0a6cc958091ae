import RedlineZip

/// The smallest package the DOCX reader accepts, for tests that need a document built from XML: content
/// types, the package relationship to `word/document.xml`, the body, and any `extraParts` (name, text),
/// which the reader finds at their usual paths. The fuzz package's `Fuzz.docx` is the same (it cannot use
/// this module: it imports XCTest-free code only).
public enum MinimalDOCX {
    /// The WordprocessingML namespace declaration, for building parts.
    public static let w = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\""

    /// A package of `documentXML` (the whole `word/document.xml`) and `extraParts`; `compressionLevel` 0
    /// stores the entries.
    public static func package(documentXML: [UInt8], extraParts: [(name: String, text: String)] = [],
                               packageRelationships: String = "", compressionLevel: Int = 6) throws -> [UInt8] {
        let zip = try ZipWriter(compressionLevel: compressionLevel)
        try zip.add("[Content_Types].xml", text: """
            <?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
            <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
            <Default Extension="xml" ContentType="application/xml"/>\
            <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>
            """)
        try zip.add("_rels/.rels", text: """
            <?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>\
            \(packageRelationships)</Relationships>
            """)
        for part in extraParts { try zip.add(part.name, text: part.text) }
        try zip.add("word/document.xml", bytes: documentXML)
        var bytes: [UInt8] = []
        try zip.finish { bytes += $0 }
        return bytes
    }

    /// A package whose body is `body` (the children of `w:body`).
    public static func package(body: String, extraParts: [(name: String, text: String)] = [],
                               packageRelationships: String = "") throws -> [UInt8] {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document \(w)><w:body>\(body)</w:body></w:document>"
        return try package(documentXML: Array(xml.utf8), extraParts: extraParts, packageRelationships: packageRelationships)
    }
}

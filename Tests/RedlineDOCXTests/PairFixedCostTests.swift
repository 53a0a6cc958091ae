import Foundation
import Redline
import RedlineCore
@testable import RedlineDOCX
import RedlineTestSupport
import RedlineZip
import XCTest

/// The per-document fixed costs cut for compare batches (PERFORMANCE.md "Compare batches"): a reference
/// document's styles found by a byte scan, and style sheets parsed once per distinct `styles.xml`.
final class PairFixedCostTests: XCTestCase {
    /// The byte scan finds what the string search it replaced found (`stringScan`, kept here as the oracle):
    /// ids, kinds (unknown → paragraph), names (escaped, non-ASCII, missing → the id), an attribute name
    /// that only starts like `w:styleId`, a self-closing style (whose element then runs to the next
    /// `</w:style>`, as before); on every `styles.xml` of the shared corpus too. Definitions go before the
    /// last `</w:styles>`.
    func testReferenceStylesScanFindsWhatTheStringSearchFound() throws {
        let xml = """
            <?xml version="1.0"?><w:styles xmlns:w="x"><w:docDefaults/>\
            <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>\
            <w:style w:type="character" w:styleIdx="9" w:styleId="Strong"><w:name w:val="Strong &amp;lt; &quot;bold&quot;"/></w:style>\
            <w:style w:type="numbering" w:styleId="NoList"/>\
            <w:style w:type="table" w:styleId="Grid"><w:name w:val="Überschrift Tabelle"/><w:rPr/></w:style>\
            <w:style w:type="paragraph"><w:name w:val="No id"/></w:style>\
            <w:style w:styleId="Last"><w:name w:val="Last one"/></w:style>\
            <w:style w:type="character" w:styleId="Open"><w:name w:val="unterminated</w:styles>
            """
        let r = try ReferenceStyles(xml: xml)
        XCTAssertEqual(r.styles.map(\.id), ["Normal", "Strong", "NoList", "Last", "Open"])
        XCTAssertEqual(r.styles.map(\.name), ["Normal", "Strong < \"bold\"", "Überschrift Tabelle", "Last one", "unterminated</w:styles"])
        var checked = [xml]
        let corpus = RepositoryPaths.root + "/../shared/corpus"
        for f in (FileManager.default.enumerator(atPath: corpus)?.allObjects as? [String] ?? []).sorted() where f.hasSuffix(".docx") {
            guard let archive = try? ZipArchive(path: corpus + "/" + f), let bytes = try? archive.read(named: "word/styles.xml") else { continue }
            checked.append(String(decoding: bytes, as: UTF8.self))
        }
        XCTAssertGreaterThan(checked.count, 20, "the corpus has DOCX files with styles")
        for x in checked {
            guard let scanned = try? ReferenceStyles(xml: x) else {
                XCTAssertNil(x.range(of: "</w:styles>"), "refused only without </w:styles>")
                continue
            }
            let expected = Self.stringScan(x)
            XCTAssertEqual(scanned.styles.map(\.id), expected.map(\.id))
            XCTAssertEqual(scanned.styles.map(\.name), expected.map(\.name))
            XCTAssertEqual(scanned.styles.map(\.kind), expected.map(\.kind))
            XCTAssertEqual(scanned.inserting("<NEW/>"), Self.stringInserting(x, "<NEW/>"))
        }
        XCTAssertThrowsError(try ReferenceStyles(xml: "<w:styles/>"))
    }

    /// The string search `ReferenceStyles` did before (Foundation `range(of:)` on `String`).
    static func stringScan(_ xml: String) -> [StyleCatalog.Style] {
        func attribute(_ name: String, in s: Substring) -> String? {
            guard let r = s.range(of: name + "=\"") else { return nil }
            let value = s[r.upperBound...].prefix { $0 != "\"" }
            return String(value).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        }
        var found: [StyleCatalog.Style] = []
        var rest = xml[...]
        while let start = rest.range(of: "<w:style ") {
            let after = rest[start.upperBound...]
            let end = after.range(of: "</w:style>")?.lowerBound ?? after.endIndex
            let element = after[..<end]
            let header = element[..<(element.firstIndex(of: ">") ?? element.endIndex)]
            if let id = attribute("w:styleId", in: header) {
                let kind = StyleCatalog.Style.Kind(rawValue: attribute("w:type", in: header) ?? "paragraph") ?? .paragraph
                let name = element.range(of: "<w:name ").flatMap { r in
                    attribute("w:val", in: element[r.upperBound...].prefix { $0 != ">" })
                } ?? id
                found.append(StyleCatalog.Style(kind: kind, id: id, name: name, body: ""))
            }
            rest = after[end...]
        }
        return found
    }

    static func stringInserting(_ xml: String, _ definitions: String) -> String {
        guard let r = xml.range(of: "</w:styles>", options: .backwards) else { return xml }
        return xml.replacingCharacters(in: r.lowerBound..<r.lowerBound, with: definitions)
    }

    /// Two documents with the same `styles.xml` parse it once; a different one is not taken for it, and
    /// reads give what they gave without the cache.
    func testStyleSheetsAreSharedByExactBytesOnly() throws {
        let styles = [0, 1, 2].map { level in
            "<w:style w:type=\"paragraph\" w:styleId=\"Big\"><w:name w:val=\"Big\"/>"
                + "<w:pPr><w:outlineLvl w:val=\"\(level)\"/></w:pPr></w:style>"
        }
        let body = "<w:p><w:pPr><w:pStyle w:val=\"Big\"/></w:pPr><w:r><w:t>Title</w:t></w:r></w:p>"
        let unique = "<w:style w:type=\"character\" w:styleId=\"U\"><w:name w:val=\"\(UUID().uuidString)\"/></w:style>"
        let before = StyleSheetCache.shared.hits
        let a = try DOCXBlockStyleTests.read(body: body, styles: unique + styles[0])
        XCTAssertEqual(StyleSheetCache.shared.hits, before, "a new styles.xml is parsed")
        let b = try DOCXBlockStyleTests.read(body: body, styles: unique + styles[0])
        XCTAssertEqual(StyleSheetCache.shared.hits, before + 1, "the same bytes are not parsed again")
        let c = try DOCXBlockStyleTests.read(body: body, styles: unique + styles[2])
        XCTAssertEqual(StyleSheetCache.shared.hits, before + 1)
        guard case .heading(let la, _)? = a.blocks.first, case .heading(let lb, _)? = b.blocks.first,
              case .heading(let lc, _)? = c.blocks.first else { return XCTFail("\(a.blocks) \(c.blocks)") }
        XCTAssertEqual([la, lb, lc], [1, 1, 3])
        // Read at once on two threads: the same document either way.
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let d = try? DOCXBlockStyleTests.read(body: body, styles: unique + styles[i % 2 == 0 ? 0 : 2])
            results.put(i, d)
        }
        XCTAssertEqual(results.all[0]?.blocks, a.blocks)
        XCTAssertEqual(results.all[2]?.blocks, a.blocks)
        XCTAssertEqual(results.all[1]?.blocks, c.blocks)
        XCTAssertEqual(results.all[3]?.blocks, c.blocks)
    }

    /// Relationship types and targets split per byte when ASCII (`ASCIIPath`): the same kinds and resolved
    /// targets as the Character splits they replaced (kept here as the oracle), for ASCII and other names.
    func testRelationshipsReadAsTheCharacterSplitsRead() throws {
        func oracleResolve(_ target: String, base: String) -> String {
            var parts: [Substring] = target.hasPrefix("/") ? [] : base.split(separator: "/")
            for seg in target.split(separator: "/") {
                if seg == ".." { if !parts.isEmpty { parts.removeLast() } } else if seg != "." { parts.append(seg) }
            }
            return parts.joined(separator: "/")
        }
        let rels: [(type: String, target: String, external: Bool)] = [
            ("http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles", "styles.xml", false),
            ("http://schemas.openxmlformats.org/officeDocument/2006/relationships/image/", "../media/./a.png", false),
            ("http://example.com/rel//", "/word//x.xml", false),
            ("noSlash", "média/é.png", false),
            ("http://example.com/répertoire/kind", "../../../up.xml", false),
            ("http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink", "http://x.org/a/../b", true),
            ("", "", false),
        ]
        let xml = "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            + rels.enumerated().map { i, r in
                "<Relationship Id=\"rId\(i)\" Type=\"\(r.type)\" Target=\"\(r.target)\"\(r.external ? " TargetMode=\"External\"" : "")/>"
            }.joined() + "</Relationships>"
        for base in ["word", "", "word/sub", "dé/x"] {
            let got = try DOCXPackage.readRelationships(Array(xml.utf8), base: base, name: "t.rels", limits: Limits())
            XCTAssertEqual(got.count, rels.count)
            for (i, r) in rels.enumerated() {
                let g = try XCTUnwrap(got["rId\(i)"])
                XCTAssertEqual(g.kind, String(r.type.split(separator: "/").last ?? ""), r.type)
                XCTAssertEqual(g.target, r.external ? r.target : oracleResolve(r.target, base: base), "\(r.target) in \(base)")
                XCTAssertEqual(g.external, r.external)
            }
        }
    }

    /// The package's own relationships are read once, when it opens, and the core properties are found
    /// through them (a core part where the relationship says, not at the usual path).
    func testCorePropertiesFoundThroughThePackagesRelationships() throws {
        let core = { (title: String) in """
            <?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" \
            xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>\(title)</dc:title></cp:coreProperties>
            """ }
        let bytes = try MinimalDOCX.package(
            body: "<w:p><w:r><w:t>x</w:t></w:r></w:p>",
            extraParts: [("meta/props.xml", core("Found by relationship")), ("docProps/core.xml", core("The usual path"))],
            packageRelationships: "<Relationship Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties\" Target=\"meta/props.xml\"/>")
        let package = try DOCXPackage(.bytes(bytes), limits: Limits())
        XCTAssertEqual(package.rootRelationships["rId2"]?.target, "meta/props.xml")
        XCTAssertEqual(package.documentPart, "word/document.xml")
        let doc = try Converter.read(.bytes(bytes), format: FormatRegistry.named("docx")!, diagnostics: Diagnostics())
        XCTAssertEqual(doc.metadata["title"], .text("Found by relationship"))
    }

    /// A package holding `styles` as `word/styles.xml` (and a one-paragraph body), as bytes.
    private func package(styles: String) throws -> [UInt8] {
        try MinimalDOCX.package(body: "<w:p/>", extraParts: [
            ("word/styles.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:styles \(MinimalDOCX.w)>\(styles)</w:styles>"),
        ])
    }

    /// Compare's DOCX output repairs NEW's styles (as reference document) and orders the written styles part
    /// once per distinct bytes (`ExactBytesCache`): a second pair with the same styles gets the same result
    /// from the cache; other bytes are worked on anew; each result is the one the uncached function gives.
    func testReferenceAndOrderedStylesKeptByExactBytes() throws {
        let tag = UUID().uuidString
        let outOfOrder = "<w:style w:type=\"paragraph\" w:styleId=\"A\"><w:name w:val=\"A \(tag)\"/><w:pPr><w:jc w:val=\"center\"/></w:pPr>"
            + "<w:qFormat/></w:style>"
        let inOrder = "<w:style w:type=\"paragraph\" w:styleId=\"B\"><w:name w:val=\"B \(tag)\"/><w:qFormat/></w:style>"
        let dir = NSTemporaryDirectory() + "/pair-fixed-\(tag)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, styles) in [("a", outOfOrder), ("b", outOfOrder), ("c", inOrder)] {
            FileManager.default.createFile(atPath: "\(dir)/\(name).docx", contents: Data(try package(styles: styles)))
        }
        let before = ReferenceDocument.repairedStyles.hits
        let a = try ReferenceDocument.styles(path: dir + "/a.docx")
        let b = try ReferenceDocument.styles(path: dir + "/b.docx")
        XCTAssertEqual(ReferenceDocument.repairedStyles.hits, before + 1, "b has a's styles.xml")
        let c = try ReferenceDocument.styles(path: dir + "/c.docx")
        XCTAssertEqual(ReferenceDocument.repairedStyles.hits, before + 1)
        let zipA = try ZipArchive(path: dir + "/a.docx")
        let direct = try ReferenceDocument.repaired(styles: try XCTUnwrap(zipA.read(named: "word/styles.xml")))
        XCTAssertEqual(a.xml, String(decoding: direct, as: UTF8.self))
        XCTAssertEqual(b.xml, a.xml)
        XCTAssertTrue(a.xml.contains("<w:qFormat/><w:pPr>"), a.xml)
        XCTAssertTrue(c.xml.contains("B \(tag)"))

        let orderedBefore = DOCXLayoutTransfer.orderedStylesCache.hits
        let ga = try DOCXPackage(.bytes(try package(styles: outOfOrder)), limits: Limits())
        let gb = try DOCXPackage(.bytes(try package(styles: outOfOrder)), limits: Limits())
        let gc = try DOCXPackage(.bytes(try package(styles: inOrder)), limits: Limits())
        let oa = try DOCXLayoutTransfer.orderedStyles(ga, part: "word/styles.xml")
        let ob = try DOCXLayoutTransfer.orderedStyles(gb, part: "word/styles.xml")
        XCTAssertEqual(DOCXLayoutTransfer.orderedStylesCache.hits, orderedBefore + 1)
        XCTAssertEqual(oa, ob)
        XCTAssertTrue(String(decoding: try XCTUnwrap(oa), as: UTF8.self).contains("<w:qFormat/><w:pPr>"))
        XCTAssertNil(try DOCXLayoutTransfer.orderedStyles(gc, part: "word/styles.xml"), "in order already: copied as it is")
        XCTAssertNil(try DOCXLayoutTransfer.orderedStyles(gc, part: "word/styles.xml"))
        XCTAssertEqual(DOCXLayoutTransfer.orderedStylesCache.hits, orderedBefore + 2, "a nil result is kept too")
    }

    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Int: Document] = [:]
        func put(_ i: Int, _ d: Document?) { lock.lock(); slots[i] = d; lock.unlock() }
        var all: [Int: Document] { lock.lock(); defer { lock.unlock() }; return slots }
    }
}

import Foundation
import RedlineCore
import RedlineXML
import XCTest

private let transitional = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
private let strict = "http://purl.oclc.org/ooxml/wordprocessingml/main"
private let W = 1

/// Reads `xml` to the end and returns a trace: `<local` / `>` / `"text"`, elements in W marked `w:`.
private func trace(_ xml: String, limits: Limits = Limits()) throws -> [String] {
    let r = try XMLReader(bytes: Array(xml.utf8), name: "test.xml", namespaces: [transitional: W, strict: W], limits: limits)
    var out: [String] = []
    while let k = try r.next() {
        switch k {
        case .start: out.append("<" + (r.namespace == W ? "w:" : "") + r.localName)
        case .end: out.append(">")
        case .text: out.append("\"\(r.text)\"")
        }
    }
    return out
}

final class XMLReaderTests: XCTestCase {
    func testMatchesByNamespaceNotPrefix() throws {
        let a = try trace(#"<x:document xmlns:x="\#(transitional)"><x:p/><p/></x:document>"#)
        let b = try trace(#"<w:document xmlns:w="\#(strict)"><w:p/><p/></w:document>"#)
        let c = try trace(#"<w:document xmlns:w="urn:other"><w:p/></w:document>"#)
        XCTAssertEqual(a, ["<w:document", "<w:p", ">", "<p", ">", ">"])
        XCTAssertEqual(a, b)
        XCTAssertEqual(c, ["<document", "<p", ">", ">"])
    }

    func testAttributesTextAndHelpers() throws {
        let xml = #"<?xml version="1.0"?><!-- c --><w:r xmlns:w="\#(transitional)" w:id="7" plain="p" amp="a&amp;b&#38;c&lt;&#x41;&amp;#38;"><w:t xml:space="preserve"> a &amp; b </w:t><w:t><![CDATA[<c>]]></w:t><w:x><w:y>skipped</w:y></w:x><w:z>done</w:z></w:r>"#
        let r = try XMLReader(bytes: Array(xml.utf8), name: "t", namespaces: [transitional: W])
        XCTAssertEqual(try r.next(), .start)
        XCTAssertTrue(r.isElement("r", in: W))
        XCTAssertEqual(r.attribute("id", in: W), "7")
        XCTAssertNil(r.attribute("id"))
        XCTAssertEqual(r.attribute("plain"), "p")
        XCTAssertEqual(r.attribute("amp"), "a&b&c<A&#38;", "character and predefined entity references decoded")
        XCTAssertEqual(Set(r.attributes.map(\.localName)), ["id", "plain", "amp"])
        XCTAssertEqual(r.localName, "r", "reading attributes leaves the reader on the element")
        XCTAssertEqual(try r.next(), .start)
        XCTAssertEqual(try r.elementText(), " a & b ")
        XCTAssertEqual(try r.next(), .start)
        XCTAssertEqual(try r.elementText(), "<c>")
        XCTAssertEqual(try r.next(), .start)
        XCTAssertEqual(r.localName, "x")
        try r.skipElement()
        XCTAssertEqual(r.kind, .end)
        XCTAssertEqual(try r.next(), .start)
        XCTAssertEqual(r.localName, "z")
        XCTAssertEqual(try r.elementText(), "done")
        XCTAssertEqual(try r.next(), .end)
        XCTAssertNil(try r.next())
        XCTAssertNil(try r.next(), "stays at the end")
    }

    func testForEachDescendantVisitsStartTagsAndEndsOnTheEndTag() throws {
        let xml = #"<root><a><b><c/>text<t>read whole<u/></t></b><d/></a><after/></root>"#
        let r = try XMLReader(bytes: Array(xml.utf8), name: "t", namespaces: [:])
        XCTAssertEqual(try r.next(), .start)
        XCTAssertEqual(try r.next(), .start)
        var visited: [String] = []
        var read = ""
        try r.forEachDescendant {
            visited.append(r.localName)
            guard r.localName == "t" else { return false }
            read = try r.elementText()
            return true
        }
        XCTAssertEqual(visited, ["b", "c", "t", "d"], "not into what the visitor read itself")
        XCTAssertEqual(read, "read whole")
        XCTAssertEqual(r.kind, .end)
        XCTAssertEqual(r.localName, "a")
        XCTAssertEqual(try r.next(), .start)
        XCTAssertEqual(r.localName, "after")
    }

    func testStreamsFromAClosureInSmallPieces() throws {
        let body = String(repeating: "<p>para</p>", count: 20_000)
        let bytes = Array("<doc>\(body)</doc>".utf8)
        var offset = 0
        var calls = 0
        let r = try XMLReader(name: "stream") { buf in
            calls += 1
            let n = min(buf.count, 100, bytes.count - offset)
            bytes.withUnsafeBytes { buf.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
        var paras = 0
        while let k = try r.next() { if k == .start && r.localName == "p" { paras += 1 } }
        XCTAssertEqual(paras, 20_000)
        XCTAssertGreaterThan(calls, 1000)
    }

    func testErrorFromTheSourceIsRethrown() throws {
        let r = try XMLReader(name: "broken-source") { _ in throw RedlineError.limit("source says stop") }
        XCTAssertThrowsError(try r.next()) { XCTAssertEqual(($0 as? RedlineError)?.message, "source says stop") }
    }

    func testMalformed() {
        assertXMLError(.malformedInput, "line 1") { _ = try trace("<a><b></a>") }
        assertXMLError(.malformedInput, "test.xml") { _ = try trace("<a>") }
        assertXMLError(.malformedInput, "") { _ = try trace("") }
        assertXMLError(.malformedInput, "") { _ = try trace("not xml at all") }
    }

    /// libxml2 stops at 10,000,000 bytes of one attribute value with "Huge input lookup": a limit, named.
    func testHugeAttributeIsALimitNamedInTheError() {
        let xml = "<a v=\"" + String(repeating: "x", count: 12_000_000) + "\"/>"
        assertXMLError(.limitExceeded, "Limits.maxXMLTextBytes = 10000000") { _ = try trace(xml) }
    }

    func testExternalEntityIsNeverLoaded() {
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><d>&xxe;</d>"
        assertXMLError(.unsupportedInput, "DTD") { _ = try trace(xml) }
        let external = "<?xml version=\"1.0\"?><!DOCTYPE d SYSTEM \"http://example.com/evil.dtd\"><d/>"
        assertXMLError(.unsupportedInput, "DTD") { _ = try trace(external) }
    }

    func testBillionLaughsFailsFast() {
        var dtd = "<!ENTITY l0 \"lol\">"
        for i in 1...9 { dtd += "<!ENTITY l\(i) \"" + String(repeating: "&l\(i - 1);", count: 10) + "\">" }
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE d [\(dtd)]><d>&l9;</d>"
        let start = Date()
        assertXMLError(nil, "test.xml") { _ = try trace(xml) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testUndefinedEntity() {
        assertXMLError(.malformedInput, "'nope' not defined") { _ = try trace("<d>&nope;</d>") }
    }

    func testInvalidUTF8() {
        var bytes = Array("<d>caf".utf8)
        bytes += [0xC3, 0x28, 0xFF]
        bytes += Array("</d>".utf8)
        assertXMLError(.malformedInput, "UTF-8") {
            let r = try XMLReader(bytes: bytes, name: "bad-utf8")
            while try r.next() != nil {}
        }
    }

    func testNestingLimit() {
        var limits = Limits()
        limits.maxNesting = 50
        let deep = String(repeating: "<a>", count: 60) + String(repeating: "</a>", count: 60)
        assertXMLError(.limitExceeded, "deeper than 50") { _ = try trace(deep, limits: limits) }
        XCTAssertNoThrow(try trace(String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40), limits: limits))
    }
}

private func assertXMLError(_ kind: RedlineError.Kind?, _ fragment: String, file: StaticString = #filePath, line: UInt = #line,
                            _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("expected an error", file: file, line: line)
    } catch let e as RedlineError {
        if let kind { XCTAssertEqual(e.kind, kind, e.message, file: file, line: line) }
        XCTAssertTrue(fragment.isEmpty || e.message.contains(fragment), "'\(e.message)' lacks '\(fragment)'", file: file, line: line)
    } catch {
        XCTFail("not a RedlineError: \(error)", file: file, line: line)
    }
}

final class XMLReaderNameIDTests: XCTestCase {
    /// `nameID` is the position of the local name in `names`, whatever the prefix or namespace; -1 otherwise.
    func testNameIDsByLocalName() throws {
        let xml = #"<w:document xmlns:w="\#(transitional)" xmlns:m="urn:m"><w:p><m:t/><w:t>x</w:t><w:q/></w:p></w:document>"#
        let r = try XMLReader(bytes: Array(xml.utf8), name: "t", namespaces: [transitional: W], names: ["p", "t", "document"])
        var out: [String] = []
        while let k = try r.next() {
            switch k {
            case .start: out.append("<\(r.localName):\(r.nameID):\(r.namespace)")
            case .end: out.append(">\(r.nameID)")
            case .text: out.append("text:\(r.nameID)")
            }
        }
        XCTAssertEqual(out, ["<document:2:1", "<p:0:1", "<t:1:-1", ">1", "<t:1:1", "text:-1", ">1", "<q:-1:1", ">-1", ">0", ">2"])
    }
}

import Foundation
import RedlineCore
import RedlineXML
import XCTest

/// `XMLEventWriter`: what it copies from an `XMLReader` reads back the same.
final class XMLEventWriterTests: XCTestCase {
    static func copy(_ xml: String) throws -> String {
        let x = try XMLReader(bytes: Array(xml.utf8), name: "t.xml", namespaces: ["urn:a": 1])
        var w = XMLEventWriter()
        while let k = try x.next() {
            switch k {
            case .start: w.start(x)
            case .end: w.end(x)
            case .text: w.text(x)
            }
        }
        return String(decoding: w.take(), as: UTF8.self)
    }

    func testCopiesPrefixesDeclarationsAttributesAndText() throws {
        let xml = #"<a:root xmlns:a="urn:a" xmlns="urn:d" a:x="1" y="q&quot;&lt;&amp;&#10;&#9;&#13;z"><a:e/><f>  t &amp; &lt;x&gt; </f><g xmlns:h="urn:h" h:v="2"><h:i>é€😀</h:i></g></a:root>"#
        let out = try Self.copy(xml)
        XCTAssertEqual(out, #"<a:root xmlns:a="urn:a" xmlns="urn:d" a:x="1" y="q&quot;&lt;&amp;&#10;&#9;&#13;z"><a:e/><f>  t &amp; &lt;x&gt; </f><g xmlns:h="urn:h" h:v="2"><h:i>é€😀</h:i></g></a:root>"#)
        XCTAssertEqual(try Self.copy(out), out, "a copy of a copy is the same")
    }

    func testFragmentsRoundTrip() throws {
        let xml = #"<w:rPr xmlns:w="urn:a"><w:b/><w:rPrChange w:id="3"><w:rPr><w:i w:val="0"/></w:rPr></w:rPrChange></w:rPr>"#
        let x = try XMLReader(bytes: Array(xml.utf8), name: "t.xml", namespaces: ["urn:a": 1])
        _ = try x.next()
        let f = try x.fragment()
        XCTAssertEqual(f.elements.map(\.localName), ["b", "rPrChange"])
        XCTAssertEqual(f.elements[1].attribute("id", in: 1), "3")
        var w = XMLEventWriter()
        w.write(f)
        XCTAssertEqual(String(decoding: w.take(), as: UTF8.self), xml)
    }

    func testMarksCutAndSlice() throws {
        var w = XMLEventWriter()
        w.start(XMLFragment(prefix: "w", localName: "p", namespace: 1))
        let m = w.mark()
        w.text("abc")
        XCTAssertEqual(w.slice(from: m), Array("abc".utf8))
        w.text("x")
        w.cut(to: m)
        w.end(prefix: "w", localName: "p")
        XCTAssertEqual(String(decoding: w.take(), as: UTF8.self), "<w:p></w:p>")
    }
}

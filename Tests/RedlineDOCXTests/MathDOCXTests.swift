import Foundation
import Redline
import RedlineCore
import RedlineDOCX
import RedlineTestSupport
import XCTest

/// Equations through DOCX: TeX written as OMML (valid by the schema), read back to the same TeX (the OMML's
/// own reading, or the author's TeX kept in `RedlineMath…` custom properties), Word-made OMML read to TeX,
/// tracked changes inside an equation, TeX Redline cannot make into an equation, and pandoc as an oracle.
final class MathDOCXTests: XCTestCase {
    private func docx(_ inlines: [Inline], diagnostics: Diagnostics = Diagnostics()) throws -> [UInt8] {
        try DOCXTest.write(Document(blocks: [.paragraph(Paragraph(inlines))]), diagnostics: diagnostics)
    }

    private func read(_ bytes: [UInt8], _ d: Diagnostics = Diagnostics()) throws -> Document {
        var source = try DOCXReader().open(.bytes(bytes), options: ReadOptions(), diagnostics: d)
        return try Document(reading: &source)
    }

    private func maths(_ doc: Document) -> [(MathKind, String)] {
        var out: [(MathKind, String)] = []
        func walk(_ inlines: [Inline]) {
            for i in inlines {
                if case .math(let k, let t) = i { out.append((k, t)) }
                walk(i.children)
            }
        }
        for b in doc.blocks { walk(b.paragraph?.content ?? []) }
        return out
    }

    /// The package without its custom properties: what Word shows and a reader without Redline's table reads.
    private func withoutKeptTeX(_ bytes: [UInt8]) throws -> [UInt8] {
        let parts = try ZipEntries.read(bytes).filter { $0.name != "docProps/custom.xml" }
        return try ZipEntries.package(parts)
    }

    /// Each typical formula, inline and display, comes back as the same TeX; the OMML alone reads back as TeX
    /// that parses and gives the same OMML again.
    func testTypicalFormulasComeBackExactly() throws {
        var inlines: [Inline] = []
        for tex in MathFormulas.typical { inlines += [.math(.inline, tex), .text(" "), .math(.display, tex), .text(" ")] }
        let d = Diagnostics()
        let bytes = try docx(inlines, diagnostics: d)
        XCTAssertEqual(d.count(of: .lossyMathUnsupported), 0, "\(d.all)")
        let back = maths(try read(bytes))
        XCTAssertEqual(back.count, 2 * MathFormulas.typical.count)
        for (k, tex) in MathFormulas.typical.enumerated() where 2 * k + 1 < back.count {
            XCTAssertEqual(back[2 * k].1, tex)
            XCTAssertEqual(back[2 * k].0, .inline)
            XCTAssertEqual(back[2 * k + 1].1, tex)
            XCTAssertEqual(back[2 * k + 1].0, .display)
        }
        // Without the kept TeX: the OMML's own TeX, which must parse and write the same OMML again.
        let plain = maths(try read(try withoutKeptTeX(bytes)))
        XCTAssertEqual(plain.count, back.count)
        var regenerated: [Inline] = []
        for (k, t) in plain { regenerated += [.math(k, t), .text(" ")] }
        let again = maths(try read(try withoutKeptTeX(try docx(regenerated))))
        XCTAssertEqual(again.map(\.1), plain.map(\.1), "the OMML reader's TeX is not a fixpoint")
    }

    func testWrittenEquationsAreValidOOXML() throws {
        var inlines: [Inline] = [.text("Before ")]
        for tex in MathFormulas.typical { inlines += [.math(.inline, tex), .text(" and "), .math(.display, tex)] }
        inlines.append(.insertion(Change(author: "Ann"), [.math(.inline, "x^2")]))
        inlines.append(.deletion(Change(author: "Bob"), [.math(.display, "\\frac{1}{2}")]))
        let url = try DOCXTest.file(try docx(inlines))
        try OOXMLValidate.assertValid(url.path)
    }

    /// Word's own shapes: `m:ctrlPr` and `w:rPr` with Cambria Math, upright function names in `m:func`, a
    /// `m:nary` without `m:chr` (an integral), a hyperlink around a subscript, an equation array with `&`.
    func testWordMadeEquationsReadAsTeX() throws {
        let m = "xmlns:m=\"http://schemas.openxmlformats.org/officeDocument/2006/math\""
        let font = "<w:rPr><w:rFonts w:ascii=\"Cambria Math\" w:hAnsi=\"Cambria Math\"/></w:rPr>"
        func r(_ t: String, sty: String? = nil) -> String {
            "<m:r>" + (sty.map { "<m:rPr><m:sty m:val=\"\($0)\"/></m:rPr>" } ?? "") + font + "<m:t>\(t)</m:t></m:r>"
        }
        let cases: [(String, String)] = [
            ("<m:oMath \(m)><m:sSup><m:sSupPr><m:ctrlPr>\(font)</m:ctrlPr></m:sSupPr><m:e>\(r("x"))</m:e><m:sup>\(r("2"))</m:sup></m:sSup>\(r("+1"))</m:oMath>",
             "x^2+1"),
            ("<m:oMath \(m)><m:func><m:funcPr><m:ctrlPr>\(font)</m:ctrlPr></m:funcPr><m:fName>\(r("sin", sty: "p"))</m:fName><m:e>\(r("θ"))</m:e></m:func></m:oMath>",
             "\\sin\\theta"),
            ("<m:oMath \(m)><m:nary><m:naryPr><m:subHide m:val=\"1\"/><m:supHide m:val=\"1\"/></m:naryPr><m:sub/><m:sup/><m:e>\(r("f"))</m:e></m:nary></m:oMath>",
             "\\int f"),
            ("<m:oMath \(m)><w:hyperlink w:history=\"1\"><m:sSub><m:e>\(r("A"))</m:e><m:sub>\(r("2"))</m:sub></m:sSub></w:hyperlink></m:oMath>",
             "A_2"),
            ("<m:oMathPara \(m)><m:oMath><m:eqArr><m:e>\(r("a"))\(r("&amp;=b"))</m:e><m:e>\(r("c"))\(r("&amp;=d"))</m:e></m:eqArr></m:oMath></m:oMathPara>",
             "\\begin{aligned}a & =b \\\\ c & =d\\end{aligned}"),
            ("<m:oMath \(m)><m:func><m:fName><m:limLow><m:e>\(r("lim", sty: "p"))</m:e><m:lim>\(r("n→∞"))</m:lim></m:limLow></m:fName><m:e>\(r("a"))</m:e></m:func></m:oMath>",
             "\\lim_{n\\to\\infty}a"),
            ("<m:oMath \(m)><m:d><m:e>\(r("a+b"))</m:e></m:d><m:r><m:rPr><m:nor/></m:rPr><m:t xml:space=\"preserve\"> if </m:t></m:r><m:acc><m:e>\(r("x"))</m:e></m:acc></m:oMath>",
             "\\left(a+b\\right)\\text{ if }\\hat{x}"),
            ("<m:oMath \(m)><m:r><m:rPr><m:scr m:val=\"double-struck\"/><m:sty m:val=\"p\"/></m:rPr><m:t>R</m:t></m:r><m:rad><m:radPr><m:degHide m:val=\"1\"/></m:radPr><m:deg/><m:e>\(r("2"))</m:e></m:rad></m:oMath>",
             "\\mathbb{R}\\sqrt{2}"),
            // Mathematical italic letters for variables, one upright letter (LibreOffice marks every run so).
            ("<m:oMath \(m)>\(r("𝑥"))\(r("=", sty: "p"))\(r("y", sty: "p"))</m:oMath>", "x=y"),
        ]
        for (xml, tex) in cases {
            let bytes = try MinimalDOCX.package(body: "<w:p>" + xml + "</w:p>")
            let d = Diagnostics()
            let doc = try read(bytes, d)
            XCTAssertEqual(maths(doc).map(\.1), [tex], xml)
            XCTAssertEqual(d.count(of: .docxEquation), 0, "\(d.all)")
            XCTAssertNoThrow(try TeXParser.parse(tex), tex)
            // Written back: valid, and the same TeX again.
            let out = try DOCXTest.write(doc)
            XCTAssertEqual(maths(try read(out)).map(\.1), [tex])
            try OOXMLValidate.assertValid(try DOCXTest.file(out).path)
        }
    }

    /// Changes inside an equation: the equation with the changes rejected, deleted, then as accepted, inserted
    /// (nothing lost, nothing twice).
    func testTrackedChangesInsideAnEquation() throws {
        let m = "xmlns:m=\"http://schemas.openxmlformats.org/officeDocument/2006/math\""
        let xml = "<w:p><m:oMath \(m)><m:r><m:t>x+</m:t></m:r><w:del w:id=\"1\" w:author=\"Ann\"><m:r><m:t>1</m:t></m:r></w:del>"
            + "<w:ins w:id=\"2\" w:author=\"Ann\"><m:r><m:t>2</m:t></m:r></w:ins></m:oMath></w:p>"
        let doc = try read(try MinimalDOCX.package(body: xml))
        let content = doc.blocks.first?.paragraph?.content ?? []
        XCTAssertEqual(content, [.substitution(Change(author: "Ann", id: "1"), deleted: [.math(.inline, "x+1")], inserted: [.math(.inline, "x+2")])]
                       .map { InlineBuilder.normalized([$0])[0] }, "\(content)")
        let accepted = try doc.applying([ReviewTransform(.accept)])
        XCTAssertEqual(maths(accepted).map(\.1), ["x+2"])
        let rejected = try doc.applying([ReviewTransform(.reject)])
        XCTAssertEqual(maths(rejected).map(\.1), ["x+1"])
    }

    /// OMML nested thousands deep is read without recursing past `Limits.maxMathNesting`: its text is kept.
    func testDeepOMMLKeepsItsText() throws {
        let m = "xmlns:m=\"http://schemas.openxmlformats.org/officeDocument/2006/math\""
        let depth = 3_000
        let xml = "<w:p><m:oMath \(m)>" + String(repeating: "<m:d><m:e>", count: depth) + "<m:r><m:t>deep</m:t></m:r>"
            + String(repeating: "</m:e></m:d>", count: depth) + "</m:oMath></w:p>"
        let doc = try read(try MinimalDOCX.package(body: xml))
        let tex = maths(doc).map(\.1)
        XCTAssertEqual(tex.count, 1)
        XCTAssertTrue(tex.first?.contains("deep") ?? false)
        // Written back: the TeX is too deep for an equation, so it is text, with the warning.
        let d = Diagnostics()
        let out = try DOCXTest.write(doc, diagnostics: d)
        XCTAssertEqual(d.count(of: .lossyMathUnsupported), 1)
        XCTAssertTrue(try read(out).blocks[0].plainText.contains("deep"))
    }

    /// TeX outside the supported set is written as its text, with one counted warning, never dropped.
    func testUnsupportedTeXIsTextWithOneWarning() throws {
        let d = Diagnostics()
        let bytes = try docx([.math(.inline, "\\foo{x}"), .text(" and "), .math(.display, "{a"), .math(.inline, "x")], diagnostics: d)
        XCTAssertEqual(d.count(of: .lossyMathUnsupported), 2)
        XCTAssertEqual(d.all.filter { $0.code == .lossyMathUnsupported }.count, 1)
        let doc = try read(bytes)
        XCTAssertTrue(doc.blocks[0].plainText.contains("\\foo{x}"), doc.blocks[0].plainText)
        XCTAssertTrue(doc.blocks[0].plainText.contains("{a"))
        XCTAssertEqual(maths(doc).map(\.1), ["x"])
    }

    /// The kept TeX is used only while the equation reads as what Redline wrote: an equation edited elsewhere
    /// (here: its OMML replaced) reads as its own TeX.
    func testKeptTeXFollowsTheEquationNotItsPlace() throws {
        let bytes = try docx([.math(.inline, "\\dfrac12"), .text(" "), .math(.inline, "x^{2}")])
        XCTAssertEqual(maths(try read(bytes)).map(\.1), ["\\dfrac12", "x^{2}"])
        var parts = try ZipEntries.read(bytes)
        let k = parts.firstIndex { $0.name == "word/document.xml" }!
        var xml = String(decoding: parts[k].bytes, as: UTF8.self)
        // A co-author changes the fraction's numerator: its kept TeX no longer applies.
        xml = xml.replacingOccurrences(of: "<m:num><m:r><m:t xml:space=\"preserve\">1</m:t>", with: "<m:num><m:r><m:t xml:space=\"preserve\">3</m:t>")
        parts[k].bytes = Array(xml.utf8)
        XCTAssertEqual(maths(try read(try ZipEntries.package(parts))).map(\.1), ["\\frac{3}{2}", "x^{2}"])
    }

    /// pandoc reads Redline's OMML to the same formulas it reads from the Markdown (up to spacing and the
    /// spelling of delimiters).
    func testPandocReadsTheSameMath() throws {
        try DOCXTest.require("pandoc")
        let source = MathFormulas.typical.map { "$\($0)$" }.joined(separator: "\n\n") + "\n"
        let doc = try Converter.read(.bytes(Array(source.utf8)), format: FormatRegistry.named("md")!)
        let url = try DOCXTest.file(try DOCXTest.write(doc))
        let fromDOCX = try pandocMath(["pandoc", "-f", "docx", "-t", "json", url.path])
        let md = url.deletingLastPathComponent().appendingPathComponent("in.md")
        try Data(source.utf8).write(to: md)
        let fromMarkdown = try pandocMath(["pandoc", "-f", "markdown", "-t", "json", md.path])
        XCTAssertEqual(fromDOCX.count, MathFormulas.typical.count)
        XCTAssertEqual(fromMarkdown.count, MathFormulas.typical.count)
        // pandoc 2.17's OMML reader reads a bar-less fraction as `\frac` (`\binom`), an equation array's `&` as
        // `\&` (`cases`, `aligned`) and a brace's limit in its own way (`\underbrace`): those four may differ.
        let pandocQuirks: Set<String> = ["\\binom{n}{k}", "f(x) = \\begin{cases} x^2 & x \\ge 0 \\\\ -x & \\text{otherwise} \\end{cases}",
                                         "\\begin{aligned} a &= b + c \\\\ d &= e \\end{aligned}", "\\underbrace{a + b}_{n}"]
        var differ: [String] = []
        for (k, (a, b)) in zip(fromDOCX, fromMarkdown).enumerated() where Self.normalized(a) != Self.normalized(b) {
            if !pandocQuirks.contains(MathFormulas.typical[k]) { differ.append("\(a)  vs  \(b)") }
        }
        XCTAssertEqual(differ, [], "pandoc reads other math from Redline's DOCX than from the Markdown")
    }

    /// Display math, alone in its paragraph and beside text: pandoc reads every equation (it reads no
    /// `m:oMathPara` that declares the `m` namespace itself, so the paragraph declares it).
    func testPandocReadsDisplayMath() throws {
        try DOCXTest.require("pandoc")
        let formulas = Array(MathFormulas.typical.prefix(6))
        let source = formulas.map { "$$\($0)$$" }.joined(separator: "\n\n") + "\n\nText and $$x^2$$ beside it.\n"
        let doc = try Converter.read(.bytes(Array(source.utf8)), format: FormatRegistry.named("md")!)
        let bytes = try DOCXTest.write(doc)
        let url = try DOCXTest.file(bytes)
        XCTAssertEqual(try pandocMath(["pandoc", "-f", "docx", "-t", "json", url.path]).count, formulas.count + 1)
        let back = try Converter.read(.bytes(bytes), format: FormatRegistry.docx)
        let out = MemoryOutput()
        try Converter.write(back, format: FormatRegistry.named("md")!, to: out)
        XCTAssertEqual(out.string, source)
    }

    /// The TeX of every Math node in pandoc's JSON output.
    private func pandocMath(_ args: [String]) throws -> [String] {
        let r = try DOCXTest.run(args)
        XCTAssertEqual(r.status, 0, r.err)
        var out: [String] = []
        func walk(_ v: Any) {
            if let d = v as? [String: Any] {
                if d["t"] as? String == "Math", let c = d["c"] as? [Any], c.count == 2, let tex = c[1] as? String { out.append(tex) }
                for (_, x) in d { walk(x) }
            } else if let a = v as? [Any] {
                for x in a { walk(x) }
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(r.out.utf8)))
        return out
    }

    /// TeX without spaces, `\left`/`\right`, braces, thin spaces, empty limits, a matrix's last `\\`, with synonyms
    /// made one (`\leq`/`\le`, `\rightarrow`/`\to`, pandoc's accent names, `\dfrac`/`\frac`: OMML has no
    /// display-style fraction).
    static func normalized(_ tex: String) -> String {
        var s = tex.replacingOccurrences(of: "\\\\", with: "⏎")  // a row's end, `\\`
        for (a, b) in [("\\rightarrow", "\\to"), ("\\leftarrow", "\\gets"), ("\\left", ""), ("\\right", ""),
                       ("\\leq", "\\le"), ("\\geq", "\\ge"), ("\\neq", "\\ne"), ("\\widehat", "\\hat"),
                       ("\\widetilde", "\\tilde"), ("\\overrightarrow", "\\vec"), ("\\overline", "\\bar"),
                       ("\\dfrac", "\\frac"), ("\\tfrac", "\\frac"), ("\\lbrack", "["), ("\\rbrack", "]"),
                       ("^{\\prime}", "'"), ("^{}", ""), ("_{}", ""), ("\\,", ""), ("\\mathrm", ""), ("\\text", ""),
                       ("\\operatorname", ""), ("\\ ", "")] {
            s = s.replacingOccurrences(of: a, with: b)
        }
        s = s.filter { !$0.isWhitespace }
        s = s.replacingOccurrences(of: "⏎\\end", with: "\\end")
        return s.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")
    }
}

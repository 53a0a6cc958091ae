import RedlineCore

/// Writes a `MathNode` as Office Math (OMML): `m:oMath` for inline math, `m:oMathPara` around it for display
/// math. The `m` namespace is declared on that element, so the rest of the part is as without equations (or, for
/// display math, on the paragraph: `declaringNamespace` false).
enum OMMLWriter {
    static let namespace = "http://schemas.openxmlformats.org/officeDocument/2006/math"

    /// The equation element for `node`.
    static func equation(_ node: MathNode, display: Bool, declaringNamespace: Bool = true, into x: inout XMLText) {
        if display {
            x.open("m:oMathPara", declaringNamespace ? [("xmlns:m", namespace)] : [])
            x.open("m:oMath")
        } else {
            x.open("m:oMath", [("xmlns:m", namespace)])
        }
        write(node, into: &x)
        x.close("m:oMath")
        if display { x.close("m:oMathPara") }
    }

    /// `<m:tag>…</m:tag>` around an argument (OMML's `m:e`, `m:num`, ...).
    private static func arg(_ tag: String, _ n: MathNode?, into x: inout XMLText) {
        guard let n, !n.isEmpty else { x.empty(tag); return }
        x.open(tag)
        write(n, into: &x)
        x.close(tag)
    }

    private static func val(_ tag: String, _ value: String, into x: inout XMLText) {
        x.empty(tag, [("m:val", value)])
    }

    static func write(_ node: MathNode, into x: inout XMLText) {
        switch node {
        case .run(let t, let style):
            run(t, style, into: &x)
        case .row(let items):
            for item in items { write(item, into: &x) }
        case .fraction(let a, let b, let kind):
            x.open("m:f")
            switch kind {
            case .noBar: x.open("m:fPr"); val("m:type", "noBar", into: &x); x.close("m:fPr")
            case .linear: x.open("m:fPr"); val("m:type", "lin", into: &x); x.close("m:fPr")
            case .skewed: x.open("m:fPr"); val("m:type", "skw", into: &x); x.close("m:fPr")
            case .bar, .display, .text: break
            }
            arg("m:num", a, into: &x)
            arg("m:den", b, into: &x)
            x.close("m:f")
        case .scripts(let base, let sub, let sup):
            let tag = sub == nil ? "m:sSup" : sup == nil ? "m:sSub" : "m:sSubSup"
            x.open(tag)
            arg("m:e", base, into: &x)
            if let sub { arg("m:sub", sub, into: &x) }
            if let sup { arg("m:sup", sup, into: &x) }
            x.close(tag)
        case .prescripts(let sub, let sup, let base):
            x.open("m:sPre")
            arg("m:sub", sub, into: &x)
            arg("m:sup", sup, into: &x)
            arg("m:e", base, into: &x)
            x.close("m:sPre")
        case .radical(let degree, let base):
            x.open("m:rad")
            if degree == nil || degree!.isEmpty {
                x.open("m:radPr"); val("m:degHide", "1", into: &x); x.close("m:radPr")
            }
            arg("m:deg", degree, into: &x)
            arg("m:e", base, into: &x)
            x.close("m:rad")
        case .nary(let op, let sub, let sup, let body):
            x.open("m:nary")
            x.open("m:naryPr")
            val("m:chr", op, into: &x)
            val("m:limLoc", MathSymbols.operatorLimitsUnder[op] ?? true ? "undOvr" : "subSup", into: &x)
            if sub == nil { val("m:subHide", "1", into: &x) }
            if sup == nil { val("m:supHide", "1", into: &x) }
            x.close("m:naryPr")
            arg("m:sub", sub, into: &x)
            arg("m:sup", sup, into: &x)
            arg("m:e", body, into: &x)
            x.close("m:nary")
        case .delimited(let open, let close, let separator, let items, let grow):
            x.open("m:d")
            x.open("m:dPr")
            val("m:begChr", open, into: &x)
            if let separator { val("m:sepChr", separator, into: &x) }
            val("m:endChr", close, into: &x)
            if !grow { val("m:grow", "0", into: &x) }
            x.close("m:dPr")
            if items.isEmpty { x.empty("m:e") }
            for item in items { arg("m:e", item, into: &x) }
            x.close("m:d")
        case .matrix(let rows):
            x.open("m:m")
            let width = max(1, rows.map(\.count).max() ?? 1)
            x.raw("<m:mPr><m:mcs><m:mc><m:mcPr><m:count m:val=\"\(min(width, 255))\"/><m:mcJc m:val=\"center\"/></m:mcPr></m:mc></m:mcs></m:mPr>")
            for row in rows {
                x.open("m:mr")
                if row.isEmpty { x.empty("m:e") }
                for cell in row { arg("m:e", cell, into: &x) }
                x.close("m:mr")
            }
            x.close("m:m")
        case .equationArray(let rows):
            x.open("m:eqArr")
            if rows.isEmpty { x.empty("m:e") }
            for row in rows {
                x.open("m:e")
                for (k, cell) in row.enumerated() {
                    if k > 0 { run("&", .normal, into: &x) }
                    write(cell, into: &x)
                }
                x.close("m:e")
            }
            x.close("m:eqArr")
        case .accent(let a, let base):
            x.open("m:acc")
            x.open("m:accPr"); val("m:chr", a, into: &x); x.close("m:accPr")
            arg("m:e", base, into: &x)
            x.close("m:acc")
        case .bar(let top, let base):
            x.open("m:bar")
            x.open("m:barPr"); val("m:pos", top ? "top" : "bot", into: &x); x.close("m:barPr")
            arg("m:e", base, into: &x)
            x.close("m:bar")
        case .function(let name, let a):
            x.open("m:func")
            arg("m:fName", name, into: &x)
            arg("m:e", a, into: &x)
            x.close("m:func")
        case .limit(let lower, let base, let lim):
            let tag = lower ? "m:limLow" : "m:limUpp"
            x.open(tag)
            arg("m:e", base, into: &x)
            arg("m:lim", lim, into: &x)
            x.close(tag)
        case .groupChar(let c, let top, let base):
            x.open("m:groupChr")
            x.open("m:groupChrPr")
            val("m:chr", c, into: &x)
            val("m:pos", top ? "top" : "bot", into: &x)
            val("m:vertJc", top ? "bot" : "top", into: &x)
            x.close("m:groupChrPr")
            arg("m:e", base, into: &x)
            x.close("m:groupChr")
        case .box(let base):
            x.open("m:box"); arg("m:e", base, into: &x); x.close("m:box")
        case .borderBox(let base):
            x.open("m:borderBox"); arg("m:e", base, into: &x); x.close("m:borderBox")
        }
    }

    /// `m:r` with its style (`m:nor` for text, `m:scr`/`m:sty` for fonts) and its text.
    private static func run(_ t: String, _ style: MathStyle, into x: inout XMLText) {
        x.raw("<m:r>")
        switch style {
        case .normal: break
        case .text: x.raw("<m:rPr><m:nor/></m:rPr>")
        case .roman, .function: x.raw("<m:rPr><m:sty m:val=\"p\"/></m:rPr>")
        case .bold: x.raw("<m:rPr><m:sty m:val=\"b\"/></m:rPr>")
        case .boldItalic: x.raw("<m:rPr><m:sty m:val=\"bi\"/></m:rPr>")
        case .italic: x.raw("<m:rPr><m:sty m:val=\"i\"/></m:rPr>")
        case .doubleStruck: x.raw("<m:rPr><m:scr m:val=\"double-struck\"/><m:sty m:val=\"p\"/></m:rPr>")
        case .calligraphic: x.raw("<m:rPr><m:scr m:val=\"script\"/><m:sty m:val=\"p\"/></m:rPr>")
        case .fraktur: x.raw("<m:rPr><m:scr m:val=\"fraktur\"/><m:sty m:val=\"p\"/></m:rPr>")
        case .sansSerif: x.raw("<m:rPr><m:scr m:val=\"sans-serif\"/><m:sty m:val=\"p\"/></m:rPr>")
        case .monospace: x.raw("<m:rPr><m:scr m:val=\"monospace\"/><m:sty m:val=\"p\"/></m:rPr>")
        }
        x.raw("<m:t xml:space=\"preserve\">")
        x.text(t)
        x.raw("</m:t></m:r>")
    }
}

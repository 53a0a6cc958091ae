import RedlineCore
import RedlineXML

/// Reads an Office Math element (`m:oMath`, `m:oMathPara`) into `MathNode`s: first a small element tree
/// (iteratively, elements deeper than `Limits.maxMathNesting` kept as their text), then the structures
/// `OMMLWriter` writes and Word makes (fractions, scripts, roots, large operators, delimiters, matrices,
/// equation arrays, accents, bars, functions, limits, group characters, boxes). Tracked changes inside an
/// equation (`w:ins`, `w:del` around its runs) give two versions of it: the one with every change rejected
/// and the one with every change accepted.
struct OMMLReader {
    /// One element of the equation: its local name (prefixed `w:` for WordprocessingML), its `m:val`, its
    /// text (`m:t`) and children, and for `w:ins`/`w:del` the change.
    final class Element {
        let name: String
        let val: String?
        var text = ""
        var children: [Element] = []
        var change: Change?
        init(name: String, val: String?) { self.name = name; self.val = val }
    }

    /// What was read: the equation as it stands with every change accepted, with every change rejected (nil
    /// when it has no change), whether it is display math, and OMML elements not understood.
    struct Equation {
        var accepted: MathNode
        var rejected: MathNode?
        var insertion: Change?
        var deletion: Change?
        var display: Bool
        var unknown: Set<String>
    }

    /// Reads the equation whose start tag `x` is on, through its end tag.
    static func read(_ x: XMLReader) throws -> Equation {
        let root = try tree(x)
        var reader = OMMLReader()
        let display = root.name == "oMathPara"
        let accepted = reader.node(root, view: .accepted) ?? .empty
        var eq = Equation(accepted: accepted, rejected: nil, display: display, unknown: reader.unknown)
        if reader.changes.insertion != nil || reader.changes.deletion != nil {
            var r = OMMLReader()
            eq.rejected = r.node(root, view: .rejected) ?? .empty
            eq.insertion = reader.changes.insertion
            eq.deletion = reader.changes.deletion
        }
        return eq
    }

    /// The TeX of each equation in `xml` (a fragment holding `m:oMath`/`m:oMathPara` elements, with the `m`
    /// namespace declared), as accepted.
    static func tex(fromXML xml: [UInt8], limits: Limits = Limits()) throws -> [(tex: String, display: Bool)] {
        let x = try XMLReader(bytes: xml, name: "equation", namespaces: OOXML.table, names: OOXML.names, limits: limits)
        var out: [(String, Bool)] = []
        while let k = try x.next() {
            guard k == .start, x.namespace == OOXML.m, x.localName == "oMath" || x.localName == "oMathPara" else { continue }
            let eq = try read(x)
            out.append((TeXWriter.tex(eq.accepted), eq.display))
        }
        return out
    }

    /// The element tree, read without recursion; text deeper than the limit is kept as text.
    private static func tree(_ x: XMLReader) throws -> Element {
        let root = Element(name: x.localName, val: nil)
        var stack = [root]
        let maxDepth = 2 * Limits.maxMathNesting + 8
        while let k = try x.next() {
            switch k {
            case .start:
                let ns = x.namespace
                if stack.count >= maxDepth {
                    // Too deep: the element's text joins the innermost element kept.
                    var text = ""
                    try x.forEachDescendant {
                        if x.localName == "t" || x.localName == "delText" { text += try x.elementText(); return true }
                        return false
                    }
                    let e = Element(name: "r", val: nil)
                    let t = Element(name: "t", val: nil)
                    t.text = text
                    e.children = [t]
                    // Into the innermost element whose content is read (an argument), not a structure's own.
                    let holders: Set<String> = ["oMath", "e", "num", "den", "sub", "sup", "deg", "lim", "fName"]
                    (stack.last { holders.contains($0.name) } ?? root).children.append(e)
                    continue
                }
                let name = ns == OOXML.m ? x.localName : ns == OOXML.w ? "w:" + x.localName : "?"
                let e = Element(name: name, val: ns == OOXML.m ? x.attribute("val", in: OOXML.m) : nil)
                if ns == OOXML.w, ["w:ins", "w:del", "w:moveFrom", "w:moveTo"].contains(name) { e.change = PropertyParser.change(x) }
                stack.append(e)
            case .text:
                let top = stack[stack.count - 1]
                if top.name == "t" || top.name == "w:t" || top.name == "w:delText" { top.text += x.text }
            case .end:
                let e = stack.removeLast()
                if stack.isEmpty { return e }
                stack[stack.count - 1].children.append(e)
            }
        }
        return root
    }

    enum View { case accepted, rejected }

    private(set) var unknown = Set<String>()
    private var changes: (insertion: Change?, deletion: Change?) = (nil, nil)

    // MARK: Elements to nodes

    private func child(_ e: Element, _ name: String) -> Element? { e.children.first { $0.name == name } }

    /// The `m:val` of property `name` in `e`'s properties element (`m:dPr`, ...), if set.
    private func property(_ e: Element, _ pr: String, _ name: String) -> String? {
        child(e, pr).flatMap { child($0, name) }.map { $0.val ?? "" }
    }

    private func isOn(_ v: String?) -> Bool {
        guard let v else { return false }
        return v.isEmpty || v == "1" || v == "on" || v == "true"
    }

    /// The content of an argument element (`m:e`, `m:num`, ...) as one node.
    private mutating func argument(_ e: Element?, view: View) -> MathNode {
        guard let e else { return .empty }
        return .group(MathNode.joinedRuns(items(e.children, view: view)))
    }

    private mutating func items(_ elements: [Element], view: View) -> [MathNode] {
        var out: [MathNode] = []
        for c in elements {
            switch c.name {
            case "w:ins", "w:moveTo":
                if changes.insertion == nil { changes.insertion = c.change }
                if view == .accepted { out += items(c.children, view: view) }
            case "w:del", "w:moveFrom":
                if changes.deletion == nil { changes.deletion = c.change }
                if view == .rejected { out += items(c.children, view: view) }
            default:
                if let n = node(c, view: view) { out.append(n) }
            }
        }
        return out
    }

    /// One element as a node; nil for properties and what holds nothing.
    mutating func node(_ e: Element, view: View) -> MathNode? {
        switch e.name {
        case "oMathPara":
            var lines: [MathNode] = []
            for c in e.children where c.name == "oMath" { lines.append(argument(c, view: view)) }
            if lines.count == 1 { return lines[0] }
            return .equationArray(lines.map { [$0] })
        case "r":
            return run(e, view: view)
        case "f":
            let kind: FractionKind
            switch property(e, "fPr", "type") {
            case "noBar": kind = .noBar
            case "lin": kind = .linear
            case "skw": kind = .skewed
            default: kind = .bar
            }
            return .fraction(argument(child(e, "num"), view: view), argument(child(e, "den"), view: view), kind)
        case "sSup":
            return .scripts(argument(child(e, "e"), view: view), sub: nil, sup: argument(child(e, "sup"), view: view))
        case "sSub":
            return .scripts(argument(child(e, "e"), view: view), sub: argument(child(e, "sub"), view: view), sup: nil)
        case "sSubSup":
            return .scripts(argument(child(e, "e"), view: view), sub: argument(child(e, "sub"), view: view),
                            sup: argument(child(e, "sup"), view: view))
        case "sPre":
            return .prescripts(sub: argument(child(e, "sub"), view: view), sup: argument(child(e, "sup"), view: view),
                               argument(child(e, "e"), view: view))
        case "rad":
            let degree = argument(child(e, "deg"), view: view)
            let hidden = isOn(property(e, "radPr", "degHide")) || degree.isEmpty
            return .radical(degree: hidden ? nil : degree, argument(child(e, "e"), view: view))
        case "nary":
            let op = property(e, "naryPr", "chr") ?? "∫"
            let sub = argument(child(e, "sub"), view: view), sup = argument(child(e, "sup"), view: view)
            let subHidden = isOn(property(e, "naryPr", "subHide")) || sub.isEmpty
            let supHidden = isOn(property(e, "naryPr", "supHide")) || sup.isEmpty
            return .nary(op.isEmpty ? "∫" : op, sub: subHidden ? nil : sub, sup: supHidden ? nil : sup,
                         argument(child(e, "e"), view: view))
        case "d":
            let open = property(e, "dPr", "begChr") ?? "("
            let close = property(e, "dPr", "endChr") ?? ")"
            let sep = property(e, "dPr", "sepChr")
            let growValue = property(e, "dPr", "grow")
            let grow = growValue == nil || isOn(growValue)
            var parts: [MathNode] = []
            for c in e.children where c.name == "e" { parts.append(argument(c, view: view)) }
            return .delimited(open: open, close: close, separator: parts.count > 1 ? (sep ?? "|") : nil,
                              parts.count == 1 && parts[0].isEmpty ? [] : parts, grow: grow)
        case "m":
            var rows: [[MathNode]] = []
            for row in e.children where row.name == "mr" {
                var cells: [MathNode] = []
                for c in row.children where c.name == "e" { cells.append(argument(c, view: view)) }
                rows.append(cells)
            }
            return .matrix(rows)
        case "eqArr":
            var rows: [[MathNode]] = []
            for row in e.children where row.name == "e" { rows.append(Self.cells(items(row.children, view: view))) }
            return .equationArray(rows)
        case "acc":
            return .accent(property(e, "accPr", "chr") ?? "\u{0302}", argument(child(e, "e"), view: view))
        case "bar":
            return .bar(top: property(e, "barPr", "pos") == "top", argument(child(e, "e"), view: view))
        case "func":
            return .function(functionName(argument(child(e, "fName"), view: view)), argument(child(e, "e"), view: view))
        case "limLow", "limUpp":
            var base = argument(child(e, "e"), view: view)
            if case .run(let t, let style) = base, style == .roman || style == .normal, MathSymbols.functions.contains(t) {
                base = .run(t, .function)
            }
            return .limit(lower: e.name == "limLow", base, argument(child(e, "lim"), view: view))
        case "groupChr":
            let chr = property(e, "groupChrPr", "chr") ?? "⏟"
            let top = property(e, "groupChrPr", "pos") == "top"
            return .groupChar(chr, top: top, argument(child(e, "e"), view: view))
        case "box":
            return .box(argument(child(e, "e"), view: view))
        case "borderBox":
            return .borderBox(argument(child(e, "e"), view: view))
        case "phant":
            return argument(child(e, "e"), view: view)
        case "oMath":
            return argument(e, view: view)
        default:
            // Properties say nothing of the content; WordprocessingML wrappers (`w:hyperlink`, `w:smartTag`,
            // bookmarks) are looked through; other elements are read as their content, with a warning.
            if e.name.hasSuffix("Pr") || e.name == "ctrlPr" || e.name == "?" { return nil }
            if !e.name.hasPrefix("w:") { unknown.insert(e.name) }
            let inner = items(e.children, view: view)
            return inner.isEmpty ? nil : .group(MathNode.joinedRuns(inner))
        }
    }

    /// `m:r`: its text in its style (Word's upright letters are `\mathrm`, upright digits and operators plain).
    private mutating func run(_ e: Element, view: View) -> MathNode? {
        var text = ""
        for c in e.children {
            switch c.name {
            case "t", "w:t": text += c.text
            case "w:delText": text += c.text
            default: break
            }
        }
        guard !text.isEmpty else { return nil }
        text = Self.plainLetters(text)
        // A run marked inserted or deleted in its properties (`w:rPr/w:ins`, `w:rPr/w:del`).
        if let wpr = child(e, "w:rPr") {
            if let del = child(wpr, "w:del") {
                if changes.deletion == nil { changes.deletion = del.change }
                if view == .accepted { return nil }
            }
            if let ins = child(wpr, "w:ins") {
                if changes.insertion == nil { changes.insertion = ins.change }
                if view == .rejected { return nil }
            }
        }
        var style = MathStyle.normal
        if let pr = child(e, "rPr") {
            if child(pr, "nor") != nil {
                style = .text
            } else {
                switch child(pr, "scr")?.val {
                case "double-struck": style = .doubleStruck
                case "script": style = .calligraphic
                case "fraktur": style = .fraktur
                case "sans-serif": style = .sansSerif
                case "monospace": style = .monospace
                default:
                    switch child(pr, "sty")?.val {
                    case "p": style = .roman
                    case "b": style = .bold
                    case "bi": style = .boldItalic
                    default: style = .normal
                    }
                }
            }
        }
        // Upright digits and operators are what plain math shows anyway; one upright letter is read as a variable,
        // as pandoc reads it (LibreOffice and other tools mark every run upright).
        if style == .roman, text.unicodeScalars.filter({ $0.properties.isAlphabetic }).count < 2 { style = .normal }
        return .run(text, style)
    }

    /// Mathematical italic letters (U+1D434…U+1D467, and ℎ), which some tools write for variables, as the
    /// plain letters TeX writes (math italic is the default).
    static func plainLetters(_ t: String) -> String {
        guard t.unicodeScalars.contains(where: { ($0.value >= 0x1D434 && $0.value <= 0x1D467) || $0.value == 0x210E }) else { return t }
        var out = String.UnicodeScalarView()
        for u in t.unicodeScalars {
            switch u.value {
            case 0x1D434...0x1D44D: out.append(Unicode.Scalar(u.value - 0x1D434 + 0x41)!)
            case 0x1D44E...0x1D467: out.append(Unicode.Scalar(u.value - 0x1D44E + 0x61)!)
            case 0x210E: out.append("h")
            default: out.append(u)
            }
        }
        return String(out)
    }

    /// A function's name: letters as a `.function` run (inside scripts or a limit too).
    private func functionName(_ n: MathNode) -> MathNode {
        switch n {
        case .run(let t, let style) where style == .roman || style == .normal || style == .function:
            return .run(t, .function)
        case .scripts(let b, let sub, let sup): return .scripts(functionName(b), sub: sub, sup: sup)
        case .limit(let lower, let b, let l): return .limit(lower: lower, functionName(b), l)
        default: return n
        }
    }

    /// A row of an equation array split into cells at `&` in its plain runs.
    static func cells(_ items: [MathNode]) -> [MathNode] {
        var cells: [MathNode] = []
        var current: [MathNode] = []
        for item in items {
            guard case .run(let t, .normal) = item, t.contains("&") else { current.append(item); continue }
            let pieces = t.split(separator: "&", omittingEmptySubsequences: false)
            for (k, piece) in pieces.enumerated() {
                if k > 0 { cells.append(.group(MathNode.joinedRuns(current))); current = [] }
                if !piece.isEmpty { current.append(.run(String(piece), .normal)) }
            }
        }
        cells.append(.group(MathNode.joinedRuns(current)))
        return cells
    }
}

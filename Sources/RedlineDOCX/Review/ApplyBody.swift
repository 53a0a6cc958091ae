import RedlineCore

/// The body paragraphs of `word/document.xml` (or a note's) as the DOCX reader meets them (in tables and content controls
/// too; not those of text boxes or `mc:Fallback`), and which of them each leaf of a plan is.
struct ApplyBody {
    struct Para {
        /// Its start token.
        var token: Int
        /// The start token of the body child holding it (itself at the top level).
        var top: Int
        var inCell: Bool
        /// The start token of the element holding it (the body's for a top-level one).
        var parent: Int
        /// The start tokens of the table row and table it is in (the innermost), if any.
        var row: Int?
        var table: Int?
    }

    let scan: ApplyXMLScan
    var paras: [Para] = []
    /// Where content goes when the body has no paragraph: before its final `w:sectPr`, or its end.
    var bodyEnd = 0
    /// Each paragraph's text (`ApplyXMLScan.text`), as the plan's leaves are matched by.
    private let texts: [String]

    init(_ scan: ApplyXMLScan) throws {
        guard let body = scan.tokens.firstIndex(where: { $0.kind == .start && $0.name == "w:body" }) else {
            throw RedlineError.unsupported("word/document.xml has no w:body with the w: prefix: Redline cannot apply changes to it")
        }
        self.init(scan, root: body)
    }

    /// The paragraphs of the story element at token `body` (`w:body`, or a note's `w:footnote`/`w:endnote`, a
    /// start token).
    init(_ scan: ApplyXMLScan, root body: Int) {
        self.scan = scan
        let bodyClose = scan.end(of: body)
        bodyEnd = scan.tokens[bodyClose].range.lowerBound
        var stack: [Int] = []
        var i = body + 1
        while i < bodyClose {
            let t = scan.tokens[i]
            switch t.kind {
            case .start, .empty:
                if t.name == "w:p" {
                    paras.append(Para(token: i, top: stack.first ?? i,
                                      inCell: stack.contains { scan.tokens[$0].name == "w:tc" }, parent: stack.last ?? body,
                                      row: stack.last { scan.tokens[$0].name == "w:tr" },
                                      table: stack.last { scan.tokens[$0].name == "w:tbl" }))
                    i = scan.end(of: i) + 1
                    continue
                }
                if t.name == "mc:Fallback" { i = scan.end(of: i) + 1; continue }
                if t.name == "w:sectPr" && stack.isEmpty { bodyEnd = t.range.lowerBound }
                if t.kind == .start { stack.append(i) }
            case .end: _ = stack.popLast()
            default: break
            }
            i += 1
        }
        texts = paras.map { scan.text($0.token) }
    }

    func text(_ k: Int) -> String { texts[k] }

    /// Paragraph of each leaf, matched by text in order (a leaf with no paragraph of its text, as a text-box
    /// paragraph, is nil).
    func align(_ leaves: [ApplyLeaf]) -> [Int?] {
        var out: [Int?] = []
        var j = 0
        for leaf in leaves {
            var found: Int?
            var c = j
            while c < paras.count && c < j + 64 {
                if text(c) == leaf.text { found = c; break }
                c += 1
            }
            out.append(found)
            if let found { j = found + 1 }
        }
        return out
    }

    func start(_ k: Int) -> Int { scan.tokens[paras[k].token].range.lowerBound }
    func end(_ k: Int) -> Int { scan.tokens[scan.end(of: paras[k].token)].range.upperBound }
    func topStart(_ k: Int) -> Int { scan.tokens[paras[k].top].range.lowerBound }
    func topEnd(_ k: Int) -> Int { scan.tokens[scan.end(of: paras[k].top)].range.upperBound }

    /// The `w:pPr` of paragraph `k`, or "".
    func pPr(_ k: Int) -> String {
        let t = paras[k].token
        guard scan.tokens[t].kind == .start else { return "" }
        var i = t + 1
        while i < scan.end(of: t) {
            let tok = scan.tokens[i]
            if tok.kind == .start || tok.kind == .empty {
                return tok.name == "w:pPr" ? String(decoding: scan.bytes(i, scan.end(of: i)), as: UTF8.self) : ""
            }
            i += 1
        }
        return ""
    }

    /// Whether paragraph `k` ends a section (its properties hold a `w:sectPr`).
    func hasSection(_ k: Int) -> Bool { pPr(k).contains("<w:sectPr") }
}

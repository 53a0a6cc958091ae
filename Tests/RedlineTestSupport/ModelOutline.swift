import RedlineCore

/// A document's text and block structure as lines, for comparing two readings of "the same" document
/// without their formatting: `P text`, `H2 text`, lists as `UL`/`OL` … `LI` … `/L`, tables as `TABLE` `TR`
/// `TD` … `/TABLE`, `CODE text`, `HR`. Block quotes are transparent, raw blocks left out, runs of spaces
/// (and tabs, no-break spaces) squeezed to one and trimmed.
public enum ModelOutline {
    public static func lines(_ blocks: [Block]) -> [String] {
        var out: [String] = []
        func squeeze(_ s: String) -> String {
            s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{A0}" }).joined(separator: " ")
        }
        func walk(_ bs: [Block]) {
            for b in bs {
                switch b {
                case .paragraph(let p): out.append("P " + squeeze(p.content.plainText))
                case .heading(let l, let p): out.append("H\(l) " + squeeze(p.content.plainText))
                case .list(let l):
                    if case .bullet = l.kind { out.append("UL") } else { out.append("OL") }
                    for item in l.items { out.append("LI"); walk(item) }
                    out.append("/L")
                case .blockQuote(let q): walk(q)
                case .table(let t):
                    out.append("TABLE")
                    for r in t.rows {
                        out.append("TR")
                        for c in r.cells { out.append("TD"); walk(c.blocks) }
                    }
                    out.append("/TABLE")
                case .codeBlock(let c): out.append("CODE " + c.text)
                case .thematicBreak: out.append("HR")
                case .raw: break
                }
            }
        }
        walk(blocks)
        return out
    }
}

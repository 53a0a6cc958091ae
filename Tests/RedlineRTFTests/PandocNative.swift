import Foundation

/// A small reader for pandoc's `native` output (Haskell `show` syntax), enough to compare text and block
/// structure with the oracles in `../shared/corpus/pandoc/oracles`.
indirect enum NativeValue {
    case constructor(String, [NativeValue])
    case string(String)
    case number(String)
    case list([NativeValue])
    case tuple([NativeValue])
}

struct NativeParser {
    private let chars: [Character]
    private var i = 0

    init(_ text: String) { chars = Array(text) }

    /// The document's blocks (the list after `Meta {...}`).
    static func blocks(_ text: String) -> [NativeValue] {
        var p = NativeParser(text)
        let doc = p.value()
        if case .constructor("Pandoc", let args) = doc, case .list(let blocks)? = args.last { return blocks }
        return []
    }

    private mutating func skipSpace() { while i < chars.count, chars[i].isWhitespace { i += 1 } }

    mutating func value() -> NativeValue {
        skipSpace()
        guard i < chars.count else { return .list([]) }
        if chars[i].isUppercase {
            let name = identifier()
            var args: [NativeValue] = []
            while true {
                skipSpace()
                guard i < chars.count else { break }
                let c = chars[i]
                if c == "," || c == "]" || c == ")" || c == "}" { break }
                if c == "{" { skipRecord(); continue }
                args.append(c.isUppercase ? .constructor(identifier(), []) : primary())
            }
            return .constructor(name, args)
        }
        return primary()
    }

    private mutating func primary() -> NativeValue {
        skipSpace()
        let c = chars[i]
        switch c {
        case "\"": return .string(string())
        case "[": return .list(sequence(close: "]"))
        case "(":
            let items = sequence(close: ")")
            return items.count == 1 ? items[0] : .tuple(items)
        default:
            if c.isUppercase { return .constructor(identifier(), []) }
            var s = ""
            while i < chars.count, chars[i].isNumber || chars[i] == "." || chars[i] == "-" { s.append(chars[i]); i += 1 }
            if s.isEmpty { i += 1 }
            return .number(s)
        }
    }

    private mutating func sequence(close: Character) -> [NativeValue] {
        i += 1
        var items: [NativeValue] = []
        while true {
            skipSpace()
            if i >= chars.count { return items }
            if chars[i] == close { i += 1; return items }
            if chars[i] == "," { i += 1; continue }
            items.append(value())
        }
    }

    private mutating func identifier() -> String {
        var s = ""
        while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "." { s.append(chars[i]); i += 1 }
        return s
    }

    private mutating func skipRecord() {
        var depth = 0
        repeat {
            if chars[i] == "{" { depth += 1 } else if chars[i] == "}" { depth -= 1 }
            i += 1
        } while depth > 0 && i < chars.count
    }

    private mutating func string() -> String {
        i += 1
        var s = ""
        while i < chars.count, chars[i] != "\"" {
            if chars[i] == "\\" {
                i += 1
                let c = chars[i]
                if c.isNumber {
                    var d = ""
                    while i < chars.count, chars[i].isNumber { d.append(chars[i]); i += 1 }
                    if let v = UInt32(d), let u = Unicode.Scalar(v) { s.unicodeScalars.append(u) }
                    continue
                }
                switch c {
                case "n": s += "\n"
                case "t": s += "\t"
                case "&": break
                default: s.append(c)
                }
                i += 1
                continue
            }
            s.append(chars[i])
            i += 1
        }
        i += 1
        return s
    }
}

/// An outline of blocks that both pandoc's AST and Redline's model can produce: kinds, nesting and text.
enum Outline {
    static func of(native blocks: [NativeValue]) -> [String] {
        var out: [String] = []
        for b in blocks { native(b, into: &out) }
        return out
    }

    private static func native(_ b: NativeValue, into out: inout [String]) {
        guard case .constructor(let name, let args) = b else { return }
        switch name {
        case "Para", "Plain":
            if case .list(let xs)? = args.last { out.append("P " + text(xs)) }
        case "Header":
            if case .number(let l)? = args.first, case .list(let xs)? = args.last { out.append("H\(l) " + text(xs)) }
        case "BulletList", "OrderedList":
            out.append(name == "BulletList" ? "UL" : "OL")
            if case .list(let items)? = args.last {
                for item in items {
                    out.append("LI")
                    if case .list(let bs) = item { for x in bs { native(x, into: &out) } }
                }
            }
            out.append("/L")
        case "BlockQuote", "Div":
            if case .list(let bs)? = args.last { for x in bs { native(x, into: &out) } }
        case "Table":
            out.append("TABLE")
            for a in args {
                var rows: [NativeValue] = []
                if case .constructor("TableHead", let h) = a, case .list(let r)? = h.last { rows = r }
                if case .constructor("TableFoot", let h) = a, case .list(let r)? = h.last { rows = r }
                if case .list(let bodies) = a {
                    for body in bodies {
                        if case .constructor("TableBody", let tb) = body {
                            for part in tb.suffix(2) { if case .list(let r) = part { rows += r } }
                        }
                    }
                }
                for r in rows {
                    guard case .constructor("Row", let ra) = r, case .list(let cells)? = ra.last else { continue }
                    out.append("TR")
                    for c in cells {
                        guard case .constructor("Cell", let ca) = c, case .list(let bs)? = ca.last else { continue }
                        out.append("TD")
                        for x in bs { native(x, into: &out) }
                    }
                }
            }
            out.append("/TABLE")
        case "CodeBlock":
            if case .string(let s)? = args.last { out.append("CODE " + s) }
        case "HorizontalRule": out.append("HR")
        default: break
        }
    }

    private static func text(_ xs: [NativeValue]) -> String {
        var s = ""
        func walk(_ xs: [NativeValue]) {
            for x in xs {
                guard case .constructor(let n, let a) = x else { continue }
                switch n {
                case "Str": if case .string(let t)? = a.first { s += t }
                case "Space", "SoftBreak": s += " "
                case "LineBreak": s += "\n"
                case "Code": if case .string(let t)? = a.last { s += t }
                case "Note": break
                case "Quoted":
                    let single: Bool = { if case .constructor("SingleQuote", _)? = a.first { return true }; return false }()
                    s += single ? "‘" : "“"
                    if case .list(let ys)? = a.last { walk(ys) }
                    s += single ? "’" : "”"
                default:
                    for arg in a { if case .list(let ys) = arg { walk(ys) } }
                }
            }
        }
        walk(xs)
        return s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\u{A0}" }).joined(separator: " ")
    }
}

import RedlineCore

/// A byte-level view of a WordprocessingML part for `DOCXApply`: tags with their byte ranges, so what the
/// applier does not change is copied byte for byte (XMLReader gives events, not offsets). The part was
/// parsed by the DOCX reader before, so it is well formed; this only finds where things are.
struct ApplyXMLScan {
    enum Kind { case start, end, empty, text, other }
    struct Token {
        var kind: Kind
        var range: Range<Int>
        /// The qualified name of a tag ("w:p"), empty otherwise.
        var name: String
    }

    let bytes: [UInt8]
    var tokens: [Token] = []
    /// For each token, the index of its end token: a start tag's closing tag, any other token itself.
    private var match: [Int] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var i = 0
        let n = bytes.count
        var stack: [Int] = []
        // About one token per 12 bytes of WordprocessingML.
        tokens.reserveCapacity(n / 12)
        match.reserveCapacity(n / 12)
        while i < n {
            if bytes[i] != UInt8(ascii: "<") {
                let s = i
                while i < n && bytes[i] != UInt8(ascii: "<") { i += 1 }
                match.append(tokens.count)
                tokens.append(Token(kind: .text, range: s..<i, name: ""))
                continue
            }
            let s = i
            if i + 1 < n, bytes[i + 1] == UInt8(ascii: "!") || bytes[i + 1] == UInt8(ascii: "?") {
                let close: [UInt8] = Self.starts(bytes, at: i, "<!--") ? Array("-->".utf8)
                    : Self.starts(bytes, at: i, "<![CDATA[") ? Array("]]>".utf8)
                    : bytes[i + 1] == UInt8(ascii: "?") ? Array("?>".utf8) : Array(">".utf8)
                i += 2
                while i < n && !Self.starts(bytes, at: i, close) { i += 1 }
                i = min(n, i + close.count)
                match.append(tokens.count)
                tokens.append(Token(kind: .other, range: s..<i, name: ""))
                continue
            }
            let isEnd = i + 1 < n && bytes[i + 1] == UInt8(ascii: "/")
            var j = i + (isEnd ? 2 : 1)
            let nameStart = j
            while j < n, !Self.isNameEnd(bytes[j]) { j += 1 }
            let name = String(decoding: bytes[nameStart..<j], as: UTF8.self)
            var quote: UInt8 = 0
            while j < n {
                let b = bytes[j]
                if quote != 0 { if b == quote { quote = 0 } } else if b == 34 || b == 39 { quote = b } else if b == UInt8(ascii: ">") { break }
                j += 1
            }
            i = min(n, j + 1)
            let t = tokens.count
            match.append(t)
            if isEnd {
                tokens.append(Token(kind: .end, range: s..<i, name: name))
                if let open = stack.popLast() { match[open] = t }
            } else if j > 0, bytes[j - 1] == UInt8(ascii: "/") {
                tokens.append(Token(kind: .empty, range: s..<i, name: name))
            } else {
                tokens.append(Token(kind: .start, range: s..<i, name: name))
                stack.append(t)
            }
        }
    }

    static func isNameEnd(_ b: UInt8) -> Bool {
        b == 32 || b == 9 || b == 10 || b == 13 || b == UInt8(ascii: ">") || b == UInt8(ascii: "/")
    }

    static func starts(_ bytes: [UInt8], at i: Int, _ s: String) -> Bool { starts(bytes, at: i, Array(s.utf8)) }

    static func starts(_ bytes: [UInt8], at i: Int, _ s: [UInt8]) -> Bool {
        guard i + s.count <= bytes.count else { return false }
        for k in 0..<s.count where bytes[i + k] != s[k] { return false }
        return true
    }

    /// The end token of the element starting at token `t`.
    func end(of t: Int) -> Int { match[t] }

    /// The bytes of tokens `a...b`.
    func bytes(_ a: Int, _ b: Int) -> ArraySlice<UInt8> { bytes[tokens[a].range.lowerBound..<tokens[b].range.upperBound] }

    /// The start tokens of the child elements of the element at `t` named `name`.
    func children(of t: Int, named name: String) -> [Int] {
        var out: [Int] = []
        var i = t + 1
        let e = end(of: t)
        while i < e {
            let tok = tokens[i]
            if tok.kind == .start || tok.kind == .empty {
                if tok.name == name { out.append(i) }
                i = end(of: i) + 1
            } else {
                i += 1
            }
        }
        return out
    }

    func bytesHaveChild(_ t: Int, _ name: String) -> Bool { !children(of: t, named: name).isEmpty }

    /// An attribute's raw value in the tag of token `t`.
    func attribute(_ t: Int, _ qualified: String) -> String? {
        let tag = String(decoding: bytes[tokens[t].range], as: UTF8.self)
        guard let r = tag.range(of: " " + qualified + "=") ?? tag.range(of: "\n" + qualified + "=") else { return nil }
        let rest = tag[r.upperBound...]
        guard let q = rest.first else { return nil }
        let body = rest.dropFirst()
        guard let e = body.firstIndex(of: q) else { return nil }
        return String(body[..<e])
    }

    /// Character data with entity and character references decoded.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        let s = String(decoding: raw, as: UTF8.self)
        var out = ""
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == "&", let semi = s[i...].firstIndex(of: ";") {
                let name = s[s.index(after: i)..<semi]
                var c: String?
                switch name {
                case "amp": c = "&"
                case "lt": c = "<"
                case "gt": c = ">"
                case "quot": c = "\""
                case "apos": c = "'"
                default:
                    if name.hasPrefix("#x") || name.hasPrefix("#X") {
                        c = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                    } else if name.hasPrefix("#") {
                        c = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                    }
                }
                if let c {
                    out += c
                    i = s.index(after: semi)
                    continue
                }
            }
            out.append(s[i])
            i = s.index(after: i)
        }
        return out
    }

    /// The text of the element at token `t` as `ApplyPlan.text` measures it (accept view): `w:t`, tabs,
    /// breaks, hyphens, one U+FFFC per picture or note reference; deleted text, field instructions,
    /// `mc:Fallback` nothing.
    func text(_ t: Int) -> String {
        var out = ""
        var i = t
        let e = end(of: t)
        while i <= e {
            let tok = tokens[i]
            switch tok.kind {
            case .start, .empty:
                switch tok.name {
                case "w:t":
                    if tok.kind == .start { out += Self.decode(bytes[tokens[i].range.upperBound..<tokens[end(of: i)].range.lowerBound]) }
                    i = end(of: i)
                case "w:del", "w:moveFrom", "mc:Fallback", "w:instrText", "w:delText", "w:delInstrText", "w:rPr", "w:pPr":
                    i = end(of: i)
                case "w:drawing", "w:pict", "w:object", "w:footnoteReference", "w:endnoteReference":
                    out += "\u{FFFC}"
                    i = end(of: i)
                case "w:tab", "w:ptab": out += "\t"
                case "w:cr": out += "\n"
                case "w:br":
                    let type = attribute(i, "w:type")
                    if type != "page" && type != "column" { out += "\n" }
                case "w:sym":
                    if let code = attribute(i, "w:char").flatMap({ UInt32($0, radix: 16) }) {
                        out += SymbolFont.character(code, font: attribute(i, "w:font"))
                    }
                case "w:noBreakHyphen": out += "\u{2011}"
                case "w:softHyphen": out += "\u{00AD}"
                default: break
                }
            default: break
            }
            i += 1
        }
        return out
    }
}

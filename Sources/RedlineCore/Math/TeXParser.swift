/// Why a TeX formula could not be made into an equation.
public struct MathParseError: Error, Hashable, Sendable {
    /// What was met (`unknown command \foo`, `unbalanced braces`, ...).
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// Parses the TeX of a formula (what `$…$` holds) into a `MathNode`: the commands people write in documents
/// (fractions, scripts, roots, large operators, delimiters, matrices and aligned rows, accents, functions,
/// Greek letters and symbols, text and font commands). Anything else throws `MathParseError`, so a caller
/// keeps the TeX as text. One pass over the characters; nesting (groups, delimiters, chains of large
/// operators) stops at `Limits.maxMathNesting`, so hostile input costs linear time and bounded stack.
public struct TeXParser {
    private let s: [Unicode.Scalar]
    private var i = 0
    private var depth = 0
    private let maxDepth: Int

    /// Parses `tex`.
    public static func parse(_ tex: String, maxDepth: Int = Limits.maxMathNesting) throws -> MathNode {
        var p = TeXParser(tex, maxDepth: maxDepth)
        let items = try p.row()
        p.skipSpace()
        if p.i < p.s.count { throw MathParseError(p.stopDescription()) }
        return .group(items)
    }

    private init(_ tex: String, maxDepth: Int) {
        s = Array(tex.unicodeScalars)
        self.maxDepth = maxDepth
        pairs = Self.bracketPairs(s)
    }

    /// Bare delimiters that pair (opening position to closing position): in one pass, a stack of open ones per
    /// group (`{…}`, `\left…\right`, an environment), cleared at `&`, `\\` and `\middle`; a closer pairs with the
    /// innermost open delimiter when that is its kind, else it is a character.
    private let pairs: [Int: Int]

    private static func bracketPairs(_ s: [Unicode.Scalar]) -> [Int: Int] {
        var pairs: [Int: Int] = [:]
        var frames: [[(Int, Unicode.Scalar)]] = [[]]
        let closeOf: [Unicode.Scalar: Unicode.Scalar] = ["(": ")", "[": "]", "⟨": "⟩", "⌊": "⌋", "⌈": "⌉"]
        func isLetter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") }
        func close(_ c: Unicode.Scalar, at k: Int) {
            guard case let (open, kind)? = frames[frames.count - 1].last else { return }
            if (kind == "{" && c == "}") || closeOf[kind] == c {
                pairs[open] = k
                frames[frames.count - 1].removeLast()
            }
        }
        var k = 0
        while k < s.count {
            let c = s[k]
            switch c {
            case "%":
                while k < s.count, s[k] != "\n" { k += 1 }
                continue
            case "{": frames.append([])
            case "}": if frames.count > 1 { frames.removeLast() } else { frames[0] = [] }
            case "&": frames[frames.count - 1] = []
            case "(", "[", "⟨", "⌊", "⌈": frames[frames.count - 1].append((k, c))
            case ")", "]", "⟩", "⌋", "⌉": close(c, at: k)
            case "\\":
                var j = k + 1
                guard j < s.count else { k += 1; continue }
                if !isLetter(s[j]) {
                    switch s[j] {
                    case "{": frames[frames.count - 1].append((k, "{"))
                    case "}": close("}", at: k)
                    case "\\": frames[frames.count - 1] = []
                    default: break
                    }
                    k = j + 1
                    continue
                }
                while j < s.count, isLetter(s[j]) { j += 1 }
                var name = ""
                name.unicodeScalars.append(contentsOf: s[(k + 1)..<j])
                k = j
                switch name {
                case "left", "begin": frames.append([])
                case "right", "end": if frames.count > 1 { frames.removeLast() } else { frames[0] = [] }
                case "middle", "cr": frames[frames.count - 1] = []
                default: break
                }
                if ["left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr",
                    "Biggl", "Biggr"].contains(name) {
                    // The delimiter after it is no bare delimiter.
                    while k < s.count, s[k] == " " { k += 1 }
                    if k < s.count, s[k] == "\\" { k += 1 }
                    if k < s.count { k += 1 }
                }
                continue
            default: break
            }
            k += 1
        }
        return pairs
    }

    // MARK: Tokens

    private mutating func skipSpace() {
        while i < s.count {
            let c = s[i]
            if c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1; continue }
            if c == "%" {
                while i < s.count, s[i] != "\n" { i += 1 }
                continue
            }
            break
        }
    }

    private func isLetter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") }

    /// The command name at `i` (after its backslash), without moving.
    private func commandName(at k: Int) -> (String, Int) {
        var j = k + 1
        guard j < s.count else { return ("", j) }
        if isLetter(s[j]) {
            while j < s.count, isLetter(s[j]) { j += 1 }
            var name = ""
            name.unicodeScalars.append(contentsOf: s[(k + 1)..<j])
            return (name, j)
        }
        return (String(Character(s[j])), j + 1)
    }

    /// True when the token at `i` ends any row: `}`, `&`, `\\`, `\right`, `\middle`, `\end`, or the end.
    private func atHardStop() -> Bool {
        guard i < s.count else { return true }
        let c = s[i]
        if c == "}" || c == "&" { return true }
        if c == "\\" {
            let (name, _) = commandName(at: i)
            return name == "\\" || name == "right" || name == "middle" || name == "end" || name == "cr"
        }
        return false
    }

    private func stopDescription() -> String {
        guard i < s.count else { return "unexpected end" }
        if s[i] == "}" { return "unbalanced braces" }
        if s[i] == "&" { return "'&' outside an environment" }
        let (name, _) = commandName(at: i)
        return "'\\\(name)' out of place"
    }

    /// The row inside `{…}`, the reader at the `{`: one nesting level deeper, the `}` taken.
    private mutating func bracedRow() throws -> [MathNode] {
        i += 1
        try enter()
        let inner = try row()
        guard i < s.count, s[i] == "}" else { throw MathParseError("unbalanced braces") }
        i += 1
        depth -= 1
        return inner
    }

    private mutating func enter() throws {
        depth += 1
        if depth > maxDepth { throw MathParseError("nested deeper than \(Limits.name("maxMathNesting", maxDepth))") }
    }

    // MARK: Rows

    /// Items until a hard stop, or (for a bare delimiter or a root's degree) until position `closeAt`, whose
    /// character is consumed.
    private mutating func row(closeAt: Int = -1) throws -> [MathNode] {
        var items: [MathNode] = []
        /// Large operators and functions still waiting for what they apply to.
        var wantsBody: [Bool] = []
        func append(_ n: MathNode, body: Bool = false) { items.append(n); wantsBody.append(body) }
        while true {
            skipSpace()
            if i == closeAt { i += 1; break }
            if atHardStop() { break }
            let c = s[i]
            switch c {
            case "^", "_":
                i += 1
                let arg = try argument()
                if items.isEmpty { append(.empty) }
                items[items.count - 1] = try attach(items[items.count - 1], arg, sup: c == "^")
            case "'":
                var primes = ""
                while i < s.count, s[i] == "'" { primes += "′"; i += 1 }
                if items.isEmpty { append(.empty) }
                items[items.count - 1] = try attach(items[items.count - 1], .run(primes, .normal), sup: true)
            case "{":
                append(.row(try bracedRow()))
            case "\\":
                let at = i
                let (node, body) = try command()
                if let node {
                    // `\{ … \}`: bare braces, paired like parentheses.
                    if case .run("{", .normal) = node, let close = pairs[at], depth < maxDepth {
                        depth += 1
                        let inner = try row(closeAt: close)
                        depth -= 1
                        if i < s.count, s[i] == "}" { i += 1 }
                        append(.delimited(open: "{", close: "}", separator: nil, inner.isEmpty ? [] : [.group(inner)], grow: false))
                    } else {
                        append(node, body: body)
                    }
                }
            default:
                let at = i
                i += 1
                let ch = String(Character(c))
                if let closeChar = MathSymbols.bareClose[ch], let close = pairs[at], depth < maxDepth {
                    depth += 1
                    let inner = try row(closeAt: close)
                    depth -= 1
                    append(.delimited(open: ch, close: closeChar, separator: nil, inner.isEmpty ? [] : [.group(inner)], grow: false))
                } else if c == "~" {
                    append(.run("\u{00A0}", .normal))
                } else if c == "#" || c == "$" {
                    throw MathParseError("'\(ch)' in a formula")
                } else {
                    append(.run(ch, .normal))
                }
            }
        }
        return finish(items, wantsBody)
    }

    /// A script on `base`: `.scripts`, the limits of a large operator, or a limit below a limit function.
    private func attach(_ base: MathNode, _ arg: MathNode, sup: Bool) throws -> MathNode {
        switch base {
        case .nary(let op, let sub, let sp, let body) where body.isEmpty:
            if sup { if sp != nil { throw MathParseError("double superscript") }; return .nary(op, sub: sub, sup: arg, body) }
            if sub != nil { throw MathParseError("double subscript") }
            return .nary(op, sub: arg, sup: sp, body)
        case .function(let name, let body) where body.isEmpty:
            if !sup, case .run(let n, .function) = name, MathSymbols.limitFunctions.contains(n) {
                return .function(.limit(lower: true, name, arg), body)
            }
            return .function(try attach(name, arg, sup: sup), body)
        case .groupChar(let c, let top, _) where top == sup:
            _ = c
            return .limit(lower: !sup, base, arg)
        case .scripts(let b, let sub, let sp):
            if sup {
                if let sp {
                    // A prime then a superscript (`f'^2`): one superscript.
                    if case .run(let p, .normal) = sp, p.allSatisfy({ $0 == "′" }) {
                        return .scripts(b, sub: sub, sup: .group([sp] + arg.items))
                    }
                    throw MathParseError("double superscript")
                }
                return .scripts(b, sub: sub, sup: arg)
            }
            if sub != nil { throw MathParseError("double subscript") }
            return .scripts(b, sub: arg, sup: sp)
        default:
            return sup ? .scripts(base, sub: nil, sup: arg) : .scripts(base, sub: arg, sup: nil)
        }
    }

    /// Ends a row: large operators and functions take what follows them, scripts on an empty group before a
    /// base become prescripts, adjacent runs of one style join. Right to left, each item moved once.
    private func finish(_ items: [MathNode], _ wantsBody: [Bool]) -> [MathNode] {
        var reversed: [MathNode] = []  // the result, last item first
        var chains: [Int] = []  // per reversed item: how many operators nest in it
        var k = items.count - 1
        while k >= 0 {
            var node = items[k]
            var chain = 0
            if wantsBody[k] {
                var body: [MathNode] = []
                if case .function = node {
                    // A function applies to the next item.
                    if let next = reversed.last, !Self.isOperator(next), chains.last! < maxDepth {
                        body.append(next); chain = chains.last! + 1
                        reversed.removeLast(); chains.removeLast()
                    }
                } else {
                    // A large operator applies to what follows up to the next relation or binary operator.
                    while let next = reversed.last, !Self.isOperator(next), chains.last! < maxDepth {
                        body.append(next); chain = max(chain, chains.last! + 1)
                        reversed.removeLast(); chains.removeLast()
                    }
                }
                switch node {
                case .function(let name, _): node = .function(name, .group(Self.joined(body)))
                case .nary(let op, let sub, let sup, _): node = .nary(op, sub: sub, sup: sup, .group(Self.joined(body)))
                default: break
                }
            } else if case .scripts(let b, let sub?, let sup?) = node, b.isEmpty, let next = reversed.last {
                node = .prescripts(sub: sub, sup: sup, next)
                chain = chains.last!
                reversed.removeLast(); chains.removeLast()
            }
            reversed.append(node)
            chains.append(chain)
            k -= 1
        }
        return Self.joined(Array(reversed.reversed()))
    }

    /// Whether `n` is a run starting with a relation or binary operator (where a large operator's body ends).
    private static func isOperator(_ n: MathNode) -> Bool {
        guard case .run(let t, .normal) = n, let c = t.unicodeScalars.first else { return false }
        return "=+-<>,;:|≤≥≠≈≡∼≃≅∝≪≫±∓×÷⋅∈∉⊂⊃⊆⊇→←⇒⇐↔⇔⟺⟹∪∩∧∨".unicodeScalars.contains(c)
    }

    static func joined(_ items: [MathNode]) -> [MathNode] { MathNode.joinedRuns(items) }

    /// A command's argument or a script: a group, a command, or one character.
    private mutating func argument() throws -> MathNode {
        skipSpace()
        guard i < s.count, !atHardStop() else { throw MathParseError("missing argument") }
        let c = s[i]
        if c == "{" { return .group(try bracedRow()) }
        if c == "\\" {
            try enter()
            defer { depth -= 1 }
            let (node, body) = try command()
            guard let node else { return try argument() }
            if body { return TeXParser.applied(node) }
            return node
        }
        i += 1
        if c == "#" || c == "$" || c == "^" || c == "_" { throw MathParseError("'\(Character(c))' as an argument") }
        return .run(c == "'" ? "′" : String(Character(c)), .normal)
    }

    /// A node that wanted a body, with an empty one (a command given as an argument).
    private static func applied(_ n: MathNode) -> MathNode { n }

    // MARK: Commands

    /// The command at `i`: its node (nil for one that only sets something, `\displaystyle`), and whether it
    /// takes what follows (a large operator, a function).
    private mutating func command() throws -> (MathNode?, Bool) {
        let (name, end) = commandName(at: i)
        i = end
        if name.count == 1, !isLetter(name.unicodeScalars.first!) {
            if let ch = MathSymbols.shortCommands[Character(name)] { return (.run(ch, .normal), false) }
            throw MathParseError("unknown command '\\\(name)'")
        }
        if let ch = MathSymbols.characterForCommand[name] { return (.run(ch, .normal), false) }
        if let op = MathSymbols.operatorForCommand[name]?.0 { return (.nary(op, sub: nil, sup: nil, .empty), true) }
        if MathSymbols.functions.contains(name) { return (.function(.run(name, .function), .empty), true) }
        if let accent = MathSymbols.accentForCommand[name] { return (.accent(accent, try argument()), false) }
        if let style = MathSymbols.styleForFont[name] { return (Self.styled(try argument(), style), false) }
        switch name {
        case "frac", "dfrac", "tfrac", "cfrac":
            let kind: FractionKind = name == "dfrac" ? .display : name == "tfrac" ? .text : .bar
            let num = try argument()
            return (.fraction(num, try argument(), kind), false)
        case "binom", "dbinom", "tbinom":
            let a = try argument()
            return (.delimited(open: "(", close: ")", separator: nil, [.fraction(a, try argument(), .noBar)], grow: true), false)
        case "sqrt":
            skipSpace()
            var degree: MathNode?
            if i < s.count, s[i] == "[" {
                guard let close = pairs[i] else { throw MathParseError("unclosed root degree") }
                i += 1
                try enter()
                degree = .group(try row(closeAt: close))
                depth -= 1
            }
            return (.radical(degree: degree, try argument()), false)
        case "left":
            return (try leftRight(), false)
        case "overline", "underline":
            return (.bar(top: name == "overline", try argument()), false)
        case "overbrace", "underbrace":
            return (.groupChar(name == "overbrace" ? "⏞" : "⏟", top: name == "overbrace", try argument()), false)
        case "overset", "stackrel", "underset":
            let over = try argument()
            return (.limit(lower: name == "underset", try argument(), over), false)
        case "boxed":
            return (.borderBox(try argument()), false)
        case "text", "textrm", "mbox", "textnormal", "textit", "textbf", "mathnormal":
            if name == "mathnormal" { return (Self.styled(try argument(), .normal), false) }
            return (.run(try textArgument(), .text), false)
        case "operatorname":
            return (.function(.run(try textArgument(), .function), .empty), true)
        case "not":
            skipSpace()
            let next = try argument()
            if case .run(let t, .normal) = next {
                let negated: [String: String] = ["=": "≠", "∈": "∉", "<": "≮", ">": "≯", "⊂": "⊄", "⊃": "⊅", "≡": "≢",
                                                 "∼": "≁", "≤": "≰", "≥": "≱", "⊆": "⊈", "⊇": "⊉", "∃": "∄"]
                return (.run(negated[t] ?? t + "\u{0338}", .normal), false)
            }
            throw MathParseError("'\\not' before a structure")
        case "begin":
            return (try environment(), false)
        case "displaystyle", "textstyle", "scriptstyle", "limits", "nolimits", "big", "Big", "bigg", "Bigg", "bigl",
             "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl", "Biggr", "nonumber", "notag":
            return (nil, false)
        default:
            throw MathParseError("unknown command '\\\(name)'")
        }
    }

    /// `node` with its default-style runs in `style`.
    static func styled(_ node: MathNode, _ style: MathStyle) -> MathNode {
        func restyle(_ n: MathNode) -> MathNode {
            switch n {
            case .run(let t, .normal): return .run(t, style)
            case .run: return n
            case .row(let items): return .row(joined(items.map(restyle)))
            case .fraction(let a, let b, let k): return .fraction(restyle(a), restyle(b), k)
            case .scripts(let b, let sub, let sup): return .scripts(restyle(b), sub: sub.map(restyle), sup: sup.map(restyle))
            case .prescripts(let sub, let sup, let b): return .prescripts(sub: restyle(sub), sup: restyle(sup), restyle(b))
            case .radical(let d, let b): return .radical(degree: d.map(restyle), restyle(b))
            case .nary(let op, let sub, let sup, let b): return .nary(op, sub: sub.map(restyle), sup: sup.map(restyle), restyle(b))
            case .delimited(let o, let c, let sep, let items, let g): return .delimited(open: o, close: c, separator: sep, items.map(restyle), grow: g)
            case .matrix(let rows): return .matrix(rows.map { $0.map(restyle) })
            case .equationArray(let rows): return .equationArray(rows.map { $0.map(restyle) })
            case .accent(let a, let b): return .accent(a, restyle(b))
            case .bar(let top, let b): return .bar(top: top, restyle(b))
            case .function(let name, let b): return .function(name, restyle(b))
            case .limit(let lower, let b, let l): return .limit(lower: lower, restyle(b), restyle(l))
            case .groupChar(let c, let top, let b): return .groupChar(c, top: top, restyle(b))
            case .box(let b): return .box(restyle(b))
            case .borderBox(let b): return .borderBox(restyle(b))
            }
        }
        return restyle(node)
    }

    /// The text of `{…}` in text mode: characters as they are, `\{ \} \$ \% \# \& \_` and `\ ` unescaped.
    private mutating func textArgument() throws -> String {
        skipSpace()
        guard i < s.count, s[i] == "{" else { throw MathParseError("text without braces") }
        i += 1
        var out = ""
        var open = 1
        while i < s.count {
            let c = s[i]
            if c == "{" { open += 1; if open > maxDepth { throw MathParseError("nested too deep") } }
            if c == "}" { open -= 1; if open == 0 { i += 1; return out } }
            if c == "\\" {
                let (name, end) = commandName(at: i)
                if name == "textbackslash" {
                    out += "\\"
                    i = end
                    if i + 1 < s.count, s[i] == "{", s[i + 1] == "}" { i += 2 }
                    continue
                }
                guard i + 1 < s.count, "{}$%#&_ ".unicodeScalars.contains(s[i + 1]) else {
                    throw MathParseError("a command in text")
                }
                out.unicodeScalars.append(s[i + 1])
                i += 2
                continue
            }
            if c == "$" { throw MathParseError("math in text") }
            out.unicodeScalars.append(c)
            i += 1
        }
        throw MathParseError("unbalanced braces")
    }

    /// A delimiter after `\left`, `\middle` or `\right`: "" for `.`.
    private mutating func delimiter() throws -> String {
        skipSpace()
        guard i < s.count else { throw MathParseError("missing delimiter") }
        let c = s[i]
        if c == "\\" {
            let (name, end) = commandName(at: i)
            i = end
            if name == "{" || name == "}" { return name }
            if name == "|" { return "‖" }
            if let d = MathSymbols.delimiterForCommand[name] { return d }
            throw MathParseError("unknown delimiter '\\\(name)'")
        }
        i += 1
        if c == "." { return "" }
        if "()[]|/<>".unicodeScalars.contains(c) { return c == "<" ? "⟨" : c == ">" ? "⟩" : String(Character(c)) }
        throw MathParseError("unknown delimiter '\(Character(c))'")
    }

    /// After `\left`: the delimiter, items separated by `\middle`, `\right` and its delimiter.
    private mutating func leftRight() throws -> MathNode {
        let open = try delimiter()
        try enter()
        var parts: [MathNode] = []
        var separator: String?
        while true {
            parts.append(.group(try row()))
            let (name, end) = i < s.count && s[i] == "\\" ? commandName(at: i) : ("", i)
            if name == "middle" {
                i = end
                let sep = try delimiter()
                if let separator, separator != sep { throw MathParseError("different \\middle delimiters") }
                separator = sep
                continue
            }
            guard name == "right" else { throw MathParseError("\\left without \\right") }
            i = end
            break
        }
        let close = try delimiter()
        depth -= 1
        return .delimited(open: open, close: close, separator: separator, parts, grow: true)
    }

    /// After `\begin`: `{name}`, rows of cells separated by `&` and `\\`, `\end{name}`.
    private mutating func environment() throws -> MathNode {
        let name = try textArgument()
        let fences: [String: (String, String)] = ["pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "Bmatrix": ("{", "}"),
                                                  "vmatrix": ("|", "|"), "Vmatrix": ("‖", "‖")]
        let arrays: Set<String> = ["aligned", "align", "align*", "gathered", "gather", "gather*", "split", "alignedat", "cases", "rcases"]
        guard name == "matrix" || name == "smallmatrix" || name == "array" || fences[name] != nil || arrays.contains(name) else {
            throw MathParseError("unknown environment '\(name)'")
        }
        if name == "array" || name == "alignedat" { _ = try textArgument() }
        try enter()
        var rows: [[MathNode]] = []
        var cells: [MathNode] = []
        while true {
            cells.append(.group(try row()))
            guard i < s.count else { throw MathParseError("\\begin{\(name)} without \\end") }
            if s[i] == "&" { i += 1; continue }
            let (cmd, end) = commandName(at: i)
            i = end
            if cmd == "\\" || cmd == "cr" {
                rows.append(cells); cells = []
                skipSpace()
                // An optional spacing `[2pt]` after `\\`.
                if i < s.count, s[i] == "[" { while i < s.count, s[i] != "]" { i += 1 }; i += 1 }
                continue
            }
            guard cmd == "end" else { throw MathParseError("'\\\(cmd)' in \\begin{\(name)}") }
            guard try textArgument() == name else { throw MathParseError("\\begin{\(name)} ended by another environment") }
            break
        }
        depth -= 1
        // A last row left empty by a final `\\` is no row.
        if !(cells.count == 1 && cells[0].isEmpty) || rows.isEmpty { rows.append(cells) }
        switch name {
        case "cases": return .delimited(open: "{", close: "", separator: nil, [.equationArray(rows)], grow: true)
        case "rcases": return .delimited(open: "", close: "}", separator: nil, [.equationArray(rows)], grow: true)
        case _ where arrays.contains(name): return .equationArray(rows)
        default:
            let width = rows.map(\.count).max() ?? 0
            let grid = rows.map { $0 + Array(repeating: MathNode.empty, count: width - $0.count) }
            if case let (o, c)? = fences[name] { return .delimited(open: o, close: c, separator: nil, [.matrix(grid)], grow: true) }
            return .matrix(grid)
        }
    }
}

/// Writes a `MathNode` as TeX in one canonical form (`\frac{a}{b}`, `x^{2}` only where braces are needed,
/// `\left(…\right)` for growing delimiters), which `TeXParser` reads back to the same tree.
public struct TeXWriter {
    private var out = ""
    /// The output ends with a command word (`\alpha`): a letter written next needs a space before it.
    private var afterWord = false
    /// Inside an aligned array: `&` is an alignment point, not a character.
    private var inArray = false

    /// The TeX for `node`.
    public static func tex(_ node: MathNode) -> String {
        var w = TeXWriter()
        w.node(node)
        return w.out
    }

    private mutating func emit(_ t: String) {
        guard let first = t.unicodeScalars.first else { return }
        if afterWord, (first >= "a" && first <= "z") || (first >= "A" && first <= "Z") { out += " " }
        out += t
        let last = t.unicodeScalars.last!
        var word = false
        if (last >= "a" && last <= "z") || (last >= "A" && last <= "Z") {
            // A command word ends the output when the last backslash starts letters only.
            if let slash = t.lastIndex(of: "\\") {
                word = t[t.index(after: slash)...].unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") }
            }
        }
        afterWord = word
    }

    private mutating func node(_ n: MathNode) {
        switch n {
        case .run(let t, let style): run(t, style)
        case .row(let items): for item in items { node(item) }
        case .fraction(let a, let b, let kind):
            switch kind {
            case .linear, .skewed:
                group(a); emit("/"); group(b)
            default:
                emit(kind == .display ? "\\dfrac" : kind == .text ? "\\tfrac" : "\\frac")
                braced(a); braced(b)
            }
        case .scripts(let base, let sub, let sup):
            atom(base)
            if let sub { emit("_"); script(sub) }
            if let sup {
                if case .run(let p, .normal) = sup, !p.isEmpty, p.allSatisfy({ $0 == "′" }) {
                    emit(String(repeating: "'", count: p.count))
                } else {
                    emit("^"); script(sup)
                }
            }
        case .prescripts(let sub, let sup, let base):
            emit("{}_"); script(sub); emit("^"); script(sup)
            atom(base)
        case .radical(let degree, let base):
            emit("\\sqrt")
            if let degree, !degree.isEmpty { emit("["); node(degree); emit("]") }
            braced(base)
        case .nary(let op, let sub, let sup, let body):
            // A large operator TeX has no command for is written as its character (Unicode TeX engines take it).
            run(op, .normal)
            if let sub { emit("_"); script(sub) }
            if let sup { emit("^"); script(sup) }
            node(body)
        case .delimited(let open, let close, let separator, let items, let grow):
            if grow, items.count == 1, case .matrix(let rows) = items[0], let env = Self.matrixEnvironment(open, close) {
                environment(env, rows)
            } else if grow, items.count == 1, case .equationArray(let rows) = items[0], open == "{", close == "" {
                environment("cases", rows)
            } else if grow, items.count == 1, case .fraction(let a, let b, .noBar) = items[0], open == "(", close == ")" {
                emit("\\binom"); braced(a); braced(b)
            } else {
                if grow { emit("\\left") }
                delimiter(open, grow: grow)
                for (k, item) in items.enumerated() {
                    if k > 0 {
                        if grow { emit("\\middle") }
                        delimiter(separator ?? "|", grow: grow)
                    }
                    node(item)
                }
                if grow { emit("\\right") }
                delimiter(close, grow: grow)
            }
        case .matrix(let rows): environment("matrix", rows)
        case .equationArray(let rows): environment("aligned", rows)
        case .accent(let a, let base):
            emit("\\" + (MathSymbols.commandForAccent[a] ?? "hat"))
            braced(base)
        case .bar(let top, let base):
            emit(top ? "\\overline" : "\\underline"); braced(base)
        case .function(let name, let arg):
            functionName(name)
            switch arg {
            case .row(let items) where items.isEmpty: break
            case .row(let items) where items.count > 1: braced(arg)
            // What takes the next item itself, or is one item with its scripts, reads back as the argument unbraced.
            case .nary, .function, .scripts, .prescripts: node(arg)
            default: atom(arg)
            }
        case .limit(let lower, let base, let lim):
            if case .run(let t, .function) = base, MathSymbols.functions.contains(t) {
                functionName(base); emit(lower ? "_" : "^"); script(lim)
            } else if case .groupChar(_, let top, _) = base, top != lower {
                node(base); emit(lower ? "_" : "^"); script(lim)
            } else {
                emit(lower ? "\\underset" : "\\overset"); braced(lim); braced(base)
            }
        case .groupChar(let c, let top, let base):
            emit(c == "⏞" || (top && c != "⏟") ? "\\overbrace" : "\\underbrace"); braced(base)
        case .box(let base): atom(base)
        case .borderBox(let base): emit("\\boxed"); braced(base)
        }
    }

    private static func matrixEnvironment(_ open: String, _ close: String) -> String? {
        switch (open, close) {
        case ("(", ")"): return "pmatrix"
        case ("[", "]"): return "bmatrix"
        case ("{", "}"): return "Bmatrix"
        case ("|", "|"): return "vmatrix"
        case ("‖", "‖"): return "Vmatrix"
        default: return nil
        }
    }

    private mutating func environment(_ name: String, _ rows: [[MathNode]]) {
        emit("\\begin{" + name + "}")
        afterWord = false
        let saved = inArray
        inArray = name == "aligned" || name == "cases"
        for (r, row) in rows.enumerated() {
            if r > 0 { emit(" \\\\ ") }
            for (c, cell) in row.enumerated() {
                if c > 0 { emit(" & ") }
                node(cell)
            }
        }
        inArray = saved
        emit("\\end{" + name + "}")
        afterWord = false
    }

    private mutating func delimiter(_ d: String, grow: Bool) {
        switch d {
        case "": emit(grow ? "." : "")
        case "{": emit("\\{")
        case "}": emit("\\}")
        case "‖": emit("\\|")
        case "(", ")", "[", "]", "|", "/": emit(d)
        default:
            let names = ["⟨": "langle", "⟩": "rangle", "⌊": "lfloor", "⌋": "rfloor", "⌈": "lceil", "⌉": "rceil",
                         "↑": "uparrow", "↓": "downarrow", "\\": "backslash"]
            if let name = names[d] {
                emit("\\" + name)
            } else {
                run(d, .normal)
            }
        }
    }

    private mutating func functionName(_ name: MathNode) {
        switch name {
        case .run(let t, _):
            if MathSymbols.functions.contains(t) { emit("\\" + t) } else { emit("\\operatorname{"); text(t); emit("}") }
        case .scripts(let base, let sub, let sup):
            functionName(base)
            if let sub { emit("_"); script(sub) }
            if let sup { emit("^"); script(sup) }
        case .limit(let lower, let base, let lim):
            functionName(base); emit(lower ? "_" : "^"); script(lim)
        default:
            emit("\\operatorname{"); node(name); emit("}")
        }
    }

    /// A base: written as it is when it is one character or one structure, else in braces.
    private mutating func atom(_ n: MathNode) {
        switch n {
        case .run(let t, .normal) where t.count == 1: node(n)
        case .run(_, .normal), .row: braced(n)
        case .scripts, .prescripts, .function, .nary: braced(n)
        default: node(n)
        }
    }

    /// A script: one ASCII letter or digit as it is, anything else in braces.
    private mutating func script(_ n: MathNode) {
        if case .run(let t, .normal) = n, t.count == 1, let c = t.unicodeScalars.first,
           (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") {
            node(n)
        } else {
            braced(n)
        }
    }

    private mutating func braced(_ n: MathNode) {
        emit("{")
        afterWord = false
        node(n)
        emit("}")
        afterWord = false
    }

    private mutating func group(_ n: MathNode) {
        if case .run(let t, .normal) = n, t.count == 1 { node(n) } else { braced(n) }
    }

    private mutating func run(_ t: String, _ style: MathStyle) {
        switch style {
        case .normal:
            // By scalar: a combining mark (`\not`'s U+0338) must not hide the character it follows (`\}`).
            for u in t.unicodeScalars {
                let c = Character(u)
                if c == "&", inArray { emit("&"); continue }
                if let cmd = MathSymbols.commandForCharacter[c] { emit(cmd) } else { emit(String(c)) }
            }
        case .text:
            emit("\\text{"); text(t); emit("}")
            afterWord = false
        case .function:
            functionName(.run(t, .function))
        default:
            emit("\\" + (MathSymbols.fontForStyle[style] ?? "mathrm") + "{")
            afterWord = false
            run(t, .normal)
            emit("}")
            afterWord = false
        }
    }

    private mutating func text(_ t: String) {
        var s = ""
        for c in t {
            switch c {
            case "{", "}", "$", "%", "#", "&", "_": s += "\\" + String(c)
            case "\\": s += "\\textbackslash{}"
            default: s.append(c)
            }
        }
        out += s
        afterWord = false
    }
}

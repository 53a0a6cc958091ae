/// An equation as a tree: what TeX (`TeXParser`, `TeXWriter`) and OMML (the DOCX writer and reader) have in
/// common. Its depth is at most about `Limits.maxMathNesting` (each parser stops there), so walks may recurse.
public indirect enum MathNode: Hashable, Sendable {
    /// Characters in one style: letters, digits, operators, Unicode symbols (`\alpha` is "α").
    case run(String, MathStyle)
    /// A sequence (a TeX group `{…}`, an OMML argument holding several elements).
    case row([MathNode])
    case fraction(MathNode, MathNode, FractionKind)
    /// A base with a subscript, a superscript or both.
    case scripts(MathNode, sub: MathNode?, sup: MathNode?)
    /// Scripts before a base (`{}_a^b X`, OMML `m:sPre`).
    case prescripts(sub: MathNode, sup: MathNode, MathNode)
    case radical(degree: MathNode?, MathNode)
    /// A large operator (`∑`, `∫`, ...) with its limits and what it applies to.
    case nary(String, sub: MathNode?, sup: MathNode?, MathNode)
    /// Delimiters around items (separated by `separator`); `grow` for `\left…\right` (OMML's default),
    /// false for bare delimiters, which keep their size.
    case delimited(open: String, close: String, separator: String?, [MathNode], grow: Bool)
    /// Rows of cells.
    case matrix([[MathNode]])
    /// Aligned rows (`aligned`, OMML `m:eqArr`), each split into cells at its alignment points (`&`).
    case equationArray([[MathNode]])
    /// An accent (a combining character: U+0302 for `\hat`) over a base.
    case accent(String, MathNode)
    /// A bar over (`\overline`) or under (`\underline`) a base.
    case bar(top: Bool, MathNode)
    /// A function name (a `.function` run, possibly with scripts or a limit) applied to an argument.
    case function(MathNode, MathNode)
    /// A limit below (`\lim_{x\to0}`, `\underset`) or above (`\overset`) a base.
    case limit(lower: Bool, MathNode, MathNode)
    /// A grouping character (`\underbrace`, `\overbrace`).
    case groupChar(String, top: Bool, MathNode)
    /// An invisible grouping box (OMML `m:box`).
    case box(MathNode)
    /// A visible box (`\boxed`, OMML `m:borderBox`).
    case borderBox(MathNode)

    /// The empty row (computed: a stored static of a boxed case reads as a leak to LeakSanitizer).
    public static var empty: MathNode { .row([]) }

    /// True for an empty row.
    public var isEmpty: Bool { if case .row(let r) = self { return r.isEmpty } else { return false } }

    /// The node's items when it is a row, else the node alone.
    public var items: [MathNode] { if case .row(let r) = self { return r } else { return [self] } }

    /// `items` with adjacent runs of one style joined into one run.
    public static func joinedRuns(_ items: [MathNode]) -> [MathNode] {
        var out: [MathNode] = []
        out.reserveCapacity(items.count)
        for n in items {
            if case .run(let b, let style) = n, let last = out.last, case .run(let a, style) = last {
                out[out.count - 1] = .run(a + b, style)
            } else {
                out.append(n)
            }
        }
        return out
    }

    /// One node for items: the item alone, or a row.
    public static func group(_ items: [MathNode]) -> MathNode { items.count == 1 ? items[0] : .row(items) }
}

/// The style of a run of characters in an equation.
public enum MathStyle: String, Hashable, Sendable {
    /// Math italic letters, upright digits and operators (TeX's and OMML's default).
    case normal
    case roman, bold, boldItalic, italic, doubleStruck, calligraphic, fraktur, sansSerif, monospace
    /// Ordinary text (`\text{…}`, OMML `m:nor`).
    case text
    /// A function name (`\sin`, `\operatorname{…}`), upright.
    case function
}

/// How a fraction is drawn.
public enum FractionKind: String, Hashable, Sendable {
    /// `\frac` (OMML's stacked fraction); `\dfrac` and `\tfrac` are the same fraction in a set size.
    case bar, display, text
    /// No bar (inside `\binom`).
    case noBar
    /// `a/b` on the line (OMML `lin`), and skewed (`skw`).
    case linear, skewed
}

/// The TeX commands Redline knows, as tables shared by the parser and the writer.
public enum MathSymbols {
    /// Commands that stand for one character (or a few), in the order the writer prefers (the first command
    /// for a character is the one written back).
    public static let characters: [(String, String)] = [
        // Greek.
        ("alpha", "α"), ("beta", "β"), ("gamma", "γ"), ("delta", "δ"), ("epsilon", "ϵ"), ("varepsilon", "ε"),
        ("zeta", "ζ"), ("eta", "η"), ("theta", "θ"), ("vartheta", "ϑ"), ("iota", "ι"), ("kappa", "κ"),
        ("lambda", "λ"), ("mu", "μ"), ("nu", "ν"), ("xi", "ξ"), ("pi", "π"), ("varpi", "ϖ"), ("rho", "ρ"),
        ("varrho", "ϱ"), ("sigma", "σ"), ("varsigma", "ς"), ("tau", "τ"), ("upsilon", "υ"), ("phi", "ϕ"),
        ("varphi", "φ"), ("chi", "χ"), ("psi", "ψ"), ("omega", "ω"),
        ("Gamma", "Γ"), ("Delta", "Δ"), ("Theta", "Θ"), ("Lambda", "Λ"), ("Xi", "Ξ"), ("Pi", "Π"), ("Sigma", "Σ"),
        ("Upsilon", "Υ"), ("Phi", "Φ"), ("Psi", "Ψ"), ("Omega", "Ω"),
        // Relations.
        ("le", "≤"), ("leq", "≤"), ("ge", "≥"), ("geq", "≥"), ("neq", "≠"), ("ne", "≠"), ("approx", "≈"),
        ("equiv", "≡"), ("sim", "∼"), ("simeq", "≃"), ("cong", "≅"), ("propto", "∝"), ("ll", "≪"), ("gg", "≫"),
        ("prec", "≺"), ("succ", "≻"), ("preceq", "⪯"), ("succeq", "⪰"), ("perp", "⊥"), ("parallel", "∥"),
        ("mid", "∣"), ("in", "∈"), ("notin", "∉"), ("ni", "∋"), ("subset", "⊂"), ("supset", "⊃"),
        ("subseteq", "⊆"), ("supseteq", "⊇"), ("models", "⊨"), ("vdash", "⊢"), ("doteq", "≐"),
        // Arrows.
        ("to", "→"), ("rightarrow", "→"), ("leftarrow", "←"), ("gets", "←"), ("Rightarrow", "⇒"),
        ("Leftarrow", "⇐"), ("leftrightarrow", "↔"), ("Leftrightarrow", "⇔"), ("iff", "⟺"), ("implies", "⟹"),
        ("mapsto", "↦"), ("uparrow", "↑"), ("downarrow", "↓"), ("longrightarrow", "⟶"), ("longleftarrow", "⟵"),
        ("hookrightarrow", "↪"), ("nearrow", "↗"), ("searrow", "↘"),
        // Binary operators.
        ("times", "×"), ("cdot", "⋅"), ("div", "÷"), ("pm", "±"), ("mp", "∓"), ("ast", "∗"), ("star", "⋆"),
        ("circ", "∘"), ("bullet", "∙"), ("oplus", "⊕"), ("otimes", "⊗"), ("ominus", "⊖"), ("odot", "⊙"),
        ("cup", "∪"), ("cap", "∩"), ("setminus", "∖"), ("wedge", "∧"), ("land", "∧"), ("vee", "∨"), ("lor", "∨"),
        ("sqcup", "⊔"), ("sqcap", "⊓"), ("wr", "≀"), ("dagger", "†"),
        // Other symbols.
        ("infty", "∞"), ("partial", "∂"), ("nabla", "∇"), ("emptyset", "∅"), ("varnothing", "∅"), ("forall", "∀"),
        ("exists", "∃"), ("nexists", "∄"), ("neg", "¬"), ("lnot", "¬"), ("angle", "∠"), ("triangle", "△"),
        ("ldots", "…"), ("dots", "…"), ("cdots", "⋯"), ("vdots", "⋮"), ("ddots", "⋱"), ("prime", "′"), ("hbar", "ℏ"),
        ("ell", "ℓ"), ("Re", "ℜ"), ("Im", "ℑ"), ("aleph", "ℵ"), ("wp", "℘"), ("top", "⊤"), ("bot", "⊥"),
        ("therefore", "∴"), ("because", "∵"), ("degree", "°"), ("surd", "√"), ("imath", "ı"), ("jmath", "ȷ"),
        // Delimiters.
        ("langle", "⟨"), ("rangle", "⟩"), ("lfloor", "⌊"), ("rfloor", "⌋"), ("lceil", "⌈"), ("rceil", "⌉"),
        ("vert", "|"), ("Vert", "‖"), ("lvert", "|"), ("rvert", "|"), ("lVert", "‖"), ("rVert", "‖"),
        ("backslash", "\\"), ("lbrace", "{"), ("rbrace", "}"),
        // Spaces.
        ("quad", "\u{2003}"), ("qquad", "\u{2003}\u{2003}"),
    ]

    /// Large operators: command, character, and whether limits go below and above (else beside).
    public static let operators: [(String, String, Bool)] = [
        ("sum", "∑", true), ("prod", "∏", true), ("coprod", "∐", true), ("int", "∫", false), ("iint", "∬", false),
        ("iiint", "∭", false), ("oint", "∮", false), ("bigcup", "⋃", true), ("bigcap", "⋂", true),
        ("bigoplus", "⨁", true), ("bigotimes", "⨂", true), ("bigvee", "⋁", true), ("bigwedge", "⋀", true),
        ("bigsqcup", "⨆", true), ("bigodot", "⨀", true),
    ]

    /// Function names written upright (`\sin x`); those in `limitFunctions` take limits below.
    public static let functions: Set<String> = [
        "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "coth",
        "log", "ln", "lg", "exp", "det", "dim", "ker", "deg", "arg", "gcd", "hom", "lim", "liminf", "limsup",
        "max", "min", "sup", "inf", "Pr",
    ]
    public static let limitFunctions: Set<String> = ["lim", "liminf", "limsup", "max", "min", "sup", "inf", "det", "gcd", "Pr"]

    /// Accents: command and combining character (OMML `m:acc`'s `m:chr`).
    public static let accents: [(String, String)] = [
        ("hat", "\u{0302}"), ("widehat", "\u{0302}"), ("bar", "\u{0305}"), ("vec", "\u{20D7}"), ("tilde", "\u{0303}"),
        ("widetilde", "\u{0303}"), ("dot", "\u{0307}"), ("ddot", "\u{0308}"), ("check", "\u{030C}"),
        ("breve", "\u{0306}"), ("acute", "\u{0301}"), ("grave", "\u{0300}"), ("mathring", "\u{030A}"),
        ("overleftarrow", "\u{20D6}"), ("overrightarrow", "\u{20D7}"),
    ]

    /// Font commands and the style they give their argument.
    public static let fonts: [(String, MathStyle)] = [
        ("mathrm", .roman), ("mathbf", .bold), ("boldsymbol", .boldItalic), ("bm", .boldItalic), ("mathit", .italic),
        ("mathbb", .doubleStruck), ("mathcal", .calligraphic), ("mathscr", .calligraphic), ("mathfrak", .fraktur),
        ("mathsf", .sansSerif), ("mathtt", .monospace),
    ]

    /// Spacing and punctuation commands of one non-letter character (`\,`), and escaped characters (`\{`).
    public static let shortCommands: [Character: String] = [
        ",": "\u{2009}", ":": "\u{205F}", ">": "\u{205F}", ";": "\u{2004}", "!": "\u{200B}", " ": "\u{00A0}",
        "{": "{", "}": "}", "%": "%", "$": "$", "#": "#", "&": "&", "_": "_", "|": "‖",
    ]

    /// Characters written as a command or escape by the TeX writer (the reverse of the tables above, first
    /// command first), and double-struck letters Word writes as characters.
    public static let commandForCharacter: [Character: String] = {
        var map: [Character: String] = [:]
        for (cmd, ch) in characters where ch.count == 1 {
            let c = ch.first!
            if map[c] == nil { map[c] = "\\" + cmd }
        }
        for (cmd, ch, _) in operators where map[ch.first!] == nil { map[ch.first!] = "\\" + cmd }
        let short: [(Character, String)] = [("\u{2009}", "\\,"), ("\u{205F}", "\\:"), ("\u{2004}", "\\;"), ("\u{200B}", "\\!"),
                                            ("\u{00A0}", "\\ "), (" ", "\\ "), ("{", "\\{"), ("}", "\\}"), ("%", "\\%"),
                                            ("$", "\\$"), ("#", "\\#"), ("&", "\\&"), ("_", "\\_"), ("~", "\\sim"),
                                            ("^", "\\hat{}"), ("\u{2212}", "-"), ("∗", "\\ast")]
        for (c, s) in short { map[c] = s }
        let struck: [(Character, String)] = [("ℝ", "R"), ("ℕ", "N"), ("ℤ", "Z"), ("ℚ", "Q"), ("ℂ", "C"), ("ℙ", "P"), ("ℍ", "H")]
        for (c, s) in struck { map[c] = "\\mathbb{" + s + "}" }
        return map
    }()

    /// Command name to character(s), for the parser.
    public static let characterForCommand: [String: String] = Dictionary(characters, uniquingKeysWith: { a, _ in a })
    public static let operatorForCommand: [String: (String, Bool)] =
        Dictionary(operators.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { a, _ in a })
    public static let accentForCommand: [String: String] = Dictionary(accents, uniquingKeysWith: { a, _ in a })
    public static let commandForAccent: [String: String] = Dictionary(accents.map { ($0.1, $0.0) }, uniquingKeysWith: { a, _ in a })
    public static let styleForFont: [String: MathStyle] = Dictionary(fonts, uniquingKeysWith: { a, _ in a })
    public static let fontForStyle: [MathStyle: String] = Dictionary(fonts.map { ($0.1, $0.0) }, uniquingKeysWith: { a, _ in a })
    /// Large operator characters and whether their limits go below and above.
    public static let operatorLimitsUnder: [String: Bool] = Dictionary(operators.map { ($0.1, $0.2) }, uniquingKeysWith: { a, _ in a })

    /// Delimiters after `\left`/`\right` or as environment fences, as commands.
    public static let delimiterForCommand: [String: String] = [
        "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "vert": "|", "Vert": "‖",
        "lvert": "|", "rvert": "|", "lVert": "‖", "rVert": "‖", "lbrace": "{", "rbrace": "}", "backslash": "\\",
        "uparrow": "↑", "downarrow": "↓",
    ]

    /// Bare delimiters the parser pairs (`(…)` becomes one delimited node that keeps its size).
    public static let bareClose: [String: String] = ["(": ")", "[": "]", "{": "}", "⟨": "⟩", "⌊": "⌋", "⌈": "⌉"]
}

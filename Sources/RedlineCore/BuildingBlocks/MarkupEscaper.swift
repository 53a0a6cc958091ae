/// The one XML/HTML escaper every writer uses. `&`, `<` and `>` always become entities; the rest is
/// decided by the context's rules (`html`, `xmlText`, `xmlAttribute`...): whether `"` becomes `&quot;`,
/// which of TAB, LF and CR become character references, and whether characters XML 1.0 forbids are
/// dropped. Runs with nothing to escape are copied whole.
public struct MarkupEscaper: Sendable {
    /// For each ASCII byte: 0 copy, 1 drop, k ≥ 2 write `replacements[k - 2]`.
    private let actions: [UInt8]
    private let replacements: [[UInt8]]
    /// Whether U+FFFE and U+FFFF (not characters in XML 1.0) are dropped.
    private let dropsNoncharacters: Bool

    /// - Parameters:
    ///   - quotes: `"` becomes `&quot;`.
    ///   - references: which of TAB (9), LF (10) and CR (13) become `&#9;`, `&#10;`, `&#13;`.
    ///   - dropsControls: the other C0 controls (and TAB, LF, CR when not referenced, never) are dropped.
    ///   - dropsNoncharacters: U+FFFE and U+FFFF are dropped.
    public init(quotes: Bool, references: Set<UInt8> = [], dropsControls: Bool, dropsNoncharacters: Bool = false) {
        var actions = [UInt8](repeating: 0, count: 128)
        var replacements: [[UInt8]] = []
        func replace(_ b: UInt8, _ s: String) {
            replacements.append(Array(s.utf8))
            actions[Int(b)] = UInt8(replacements.count + 1)
        }
        if dropsControls { for b in 0..<0x20 where b != 9 && b != 10 && b != 13 { actions[b] = 1 } }
        replace(UInt8(ascii: "&"), "&amp;")
        replace(UInt8(ascii: "<"), "&lt;")
        replace(UInt8(ascii: ">"), "&gt;")
        if quotes { replace(UInt8(ascii: "\""), "&quot;") }
        for b in references.sorted() { replace(b, "&#\(b);") }
        self.actions = actions
        self.replacements = replacements
        self.dropsNoncharacters = dropsNoncharacters
    }

    /// HTML text and attribute values.
    public static let html = MarkupEscaper(quotes: true, dropsControls: false)
    /// XML character data written from the model (characters XML 1.0 forbids dropped).
    public static let xmlText = MarkupEscaper(quotes: false, dropsControls: true, dropsNoncharacters: true)
    /// XML attribute values written from the model (TAB, LF, CR kept through attribute normalisation).
    public static let xmlAttribute = MarkupEscaper(quotes: true, references: [9, 10, 13], dropsControls: true,
                                                   dropsNoncharacters: true)
    /// Character data copied from a parsed XML document (a CR in it came from `&#13;` and stays one).
    public static let copiedXMLText = MarkupEscaper(quotes: false, references: [13], dropsControls: false)
    /// Attribute values copied from a parsed XML document.
    public static let copiedXMLAttribute = MarkupEscaper(quotes: true, references: [9, 10, 13], dropsControls: false)
    /// Report text (JUnit XML): line ends kept as `&#10;`, forbidden characters dropped.
    public static let xmlReport = MarkupEscaper(quotes: true, references: [10], dropsControls: true, dropsNoncharacters: true)

    /// Appends the UTF-8 bytes `s`, escaped, to `out`.
    public func escape(_ s: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var from = 0
        var i = 0
        let n = s.count
        while i < n {
            let b = s[i]
            var action: UInt8 = 0
            var length = 1
            if b < 0x80 {
                action = actions[Int(b)]
            } else if dropsNoncharacters, b == 0xEF, i + 2 < n, s[i + 1] == 0xBF, s[i + 2] == 0xBE || s[i + 2] == 0xBF {
                action = 1
                length = 3
            }
            if action == 0 { i += 1; continue }
            if i > from { out.append(contentsOf: UnsafeBufferPointer(rebasing: s[from..<i])) }
            if action >= 2 { out.append(contentsOf: replacements[Int(action) - 2]) }
            i += length
            from = i
        }
        if from < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: s[from..<n])) }
    }

    /// Appends `s`, escaped, to `out`.
    public func escape(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { escape($0, into: &out) }
    }

    /// `s`, escaped.
    public func escaped(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        escape(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

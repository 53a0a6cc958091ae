/// pandoc's `superscript` and `subscript` rule, on UTF-8 bytes: `^text^` is superscript and `~text~` subscript
/// (`H~2~O`, `2^10^`) when the text is not empty and holds no space, tab or line end (a backslash-escaped space
/// is kept: `^a\ b^`). `~~` is strikethrough, never a subscript delimiter, and `^[` opens an inline note.
/// Kept simpler than pandoc in one way: the text may not hold Markdown that could cross the span
/// (`* _ [ ] { } $ ` < > |`), so a span is always plain text and can never overlap emphasis, a link, a
/// CriticMarkup mark, math, code or a table cell; such text stays literal. The reader's pre-pass
/// (`CriticScanner`) and the writer (`InlineRenderer`) use the same rule.
enum ScriptSpans {
    /// What a search from an opening delimiter found.
    enum Found: Equatable {
        /// The span closes at this offset (its closing delimiter).
        case closes(Int)
        /// Nothing opens here.
        case none
        /// The text ran out before the span closed or failed (it could still close in what follows).
        case runsOff
    }

    /// The span opening at `k` (a `^` or a single `~`), searching up to `end`.
    static func find(_ u: UnsafeBufferPointer<UInt8>, at k: Int, end: Int) -> Found {
        let d = u[k]
        let tilde = UInt8(ascii: "~"), backslash = UInt8(ascii: "\\")
        guard d == UInt8(ascii: "^") || d == tilde else { return .none }
        if d == tilde, k > 0, u[k - 1] == tilde { return .none }
        if d == UInt8(ascii: "^"), k > 0, u[k - 1] == UInt8(ascii: "[") { return .none }
        var j = k + 1
        guard j < end else { return .runsOff }
        if u[j] == d || MathSpans.isSpace(u[j]) || isExcluded(u[j]) { return .none }
        while j < end {
            let b = u[j]
            if b == backslash {
                guard j + 1 < end else { return .runsOff }
                // An escaped space or delimiter belongs to the text; any other escaped byte is checked as itself.
                j += (u[j + 1] == UInt8(ascii: " ") || u[j + 1] == d) ? 2 : 1
                continue
            }
            if MathSpans.isSpace(b) || isExcluded(b) { return .none }
            if b == d {
                if d == tilde, j + 1 < end, u[j + 1] == tilde { return .none }
                return .closes(j)
            }
            j += 1
        }
        return .runsOff
    }

    /// True for a byte the span's text may not hold (Markdown that could cross it).
    @inline(__always)
    static func isExcluded(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
             UInt8(ascii: "$"), UInt8(ascii: "`"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }


    /// True when `text` can be written between the delimiters as it is (plain text the rule reads back).
    static func canHold(_ text: String, delimiter d: UInt8) -> Bool {
        guard let first = text.utf8.first, first != d else { return false }
        if d == UInt8(ascii: "^"), first == UInt8(ascii: "[") { return false }
        return text.utf8.allSatisfy { b in
            !MathSpans.isSpace(b) && !isExcluded(b) && b != UInt8(ascii: "^") && b != UInt8(ascii: "~") && b != UInt8(ascii: "\\")
                && b != UInt8(ascii: "&") && b != UInt8(ascii: "!") && b >= 0x20
        }
    }
}

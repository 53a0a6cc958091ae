/// pandoc's `tex_math_dollars` rule, on UTF-8 bytes: `$$…$$` is display math (it may span lines, not a blank
/// line), `$…$` inline math when the opening `$` is followed by a non-space, the closing `$` is preceded by a
/// non-space and not followed by a digit (so "$5 and $6" is text), and no space run is followed by `$`.
/// A backslash takes the next character with it (`\$` is no delimiter). The reader's pre-pass
/// (`CriticScanner`) and the writer's check (`InlineRenderer`) use the same rule.
enum MathSpans {
    /// The math starting at the `$` at `k`: the TeX's byte range, the end (after the closing delimiter) and
    /// whether it is display math; nil when no math starts there. A failing search sets `memo` to where it
    /// stopped when every opener of its kind before that would fail too: those fail at once (linear time).
    static func match(_ u: UnsafeBufferPointer<UInt8>, at k: Int, memo: inout Memo) -> (tex: Range<Int>, end: Int, display: Bool)? {
        let dollar = UInt8(ascii: "$"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
        guard k < u.count, u[k] == dollar else { return nil }
        if k + 1 < u.count, u[k + 1] == dollar {
            guard k >= memo.display else { return nil }
            var failed = 0
            defer { memo.display = max(memo.display, failed) }
            // Display: up to the next `$$`, not across a blank line or a line that starts a block.
            var j = k + 2
            guard j < u.count, u[j] != dollar else { return nil }
            while j < u.count {
                let b = u[j]
                if b == backslash { j += 2; continue }
                if b == newline {
                    if !continuesParagraph(u, from: j + 1) { failed = j; return nil }
                } else if b == dollar, j + 1 < u.count, u[j + 1] == dollar {
                    return ((k + 2)..<j, j + 2, true)
                }
                j += 1
            }
            failed = u.count
            return nil
        }
        guard k >= memo.inline else { return nil }
        var failed = 0
        defer { memo.inline = max(memo.inline, failed) }
        var j = k + 1
        guard j < u.count, !isSpace(u[j]) else { return nil }
        while j < u.count {
            let b = u[j]
            if b == backslash {
                // `\text{…}` may hold `$` (balanced braces, on this paragraph).
                if j + 5 < u.count, u[j + 1] == UInt8(ascii: "t"), u[j + 2] == UInt8(ascii: "e"), u[j + 3] == UInt8(ascii: "x"),
                   u[j + 4] == UInt8(ascii: "t"), u[j + 5] == UInt8(ascii: "{") {
                    var open = 0, m = j + 5
                    while m < u.count {
                        if u[m] == UInt8(ascii: "{") { open += 1 } else if u[m] == UInt8(ascii: "}") { open -= 1; if open == 0 { break } }
                        else if u[m] == backslash { m += 1 } else if u[m] == newline, !continuesParagraph(u, from: m + 1) { failed = m; return nil }
                        m += 1
                    }
                    j = m + 1
                    continue
                }
                j += 2
                continue
            }
            if isSpace(b) {
                // A run of spaces (one line end at most): must not be followed by `$`.
                var m = j
                while m < u.count, isSpace(u[m]) {
                    if u[m] == newline, !continuesParagraph(u, from: m + 1) { failed = m; return nil }
                    m += 1
                }
                if m < u.count, u[m] == dollar { failed = m; return nil }
                j = m
                continue
            }
            if b == dollar {
                if j + 1 < u.count, u[j + 1] >= UInt8(ascii: "0"), u[j + 1] <= UInt8(ascii: "9") { j += 1; continue }
                return ((k + 1)..<j, j + 1, false)
            }
            j += 1
        }
        failed = u.count
        return nil
    }

    /// Where earlier searches failed (see `match`).
    struct Memo {
        var display = 0
        var inline = 0
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Whether the line starting at `k` continues a paragraph: not blank, and not the start of a fence, an
    /// HTML block, a heading, a quote or a list item (where pandoc's paragraph, and the math in it, ends).
    static func continuesParagraph(_ u: UnsafeBufferPointer<UInt8>, from k: Int) -> Bool {
        var j = k, n = 0
        while j < u.count, u[j] == 0x20 || u[j] == 0x09 { j += 1; n += 1 }
        guard j < u.count, u[j] != 0x0A, u[j] != 0x0D else { return false }
        if n >= 4 { return true }
        let b = u[j]
        let next: UInt8 = j + 1 < u.count ? u[j + 1] : 0x0A
        switch b {
        case UInt8(ascii: "`"), UInt8(ascii: "~"): return !(next == b && j + 2 < u.count && u[j + 2] == b)
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "#"): return false
        case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"): return !(next == 0x20 || next == 0x09 || next == 0x0A)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var m = j
            while m < u.count, u[m] >= UInt8(ascii: "0"), u[m] <= UInt8(ascii: "9") { m += 1 }
            if m < u.count, u[m] == UInt8(ascii: ".") || u[m] == UInt8(ascii: ")"),
               m + 1 >= u.count || u[m + 1] == 0x20 || u[m + 1] == 0x0A { return false }
            return true
        default: return true
        }
    }

    /// The math spans in a paragraph's Markdown as written: opening and closing offsets of each (code spans
    /// and escapes skipped, as the reader's pre-pass does).
    static func spans(in bytes: [UInt8], from start: Int) -> [(open: Int, close: Int)] {
        var out: [(open: Int, close: Int)] = []
        bytes.withUnsafeBufferPointer { u in
            var k = start
            var memo = Memo()
            while k < u.count {
                let b = u[k]
                if b == UInt8(ascii: "\\") { k += 2; continue }
                if b == UInt8(ascii: "`") {
                    var n = 0
                    while k + n < u.count, u[k + n] == UInt8(ascii: "`") { n += 1 }
                    var m = k + n
                    var closed = false
                    while m < u.count {
                        if u[m] == UInt8(ascii: "`") {
                            var r = 0
                            while m + r < u.count, u[m + r] == UInt8(ascii: "`") { r += 1 }
                            if r == n { closed = true; m += r; break }
                            m += r
                            continue
                        }
                        m += 1
                    }
                    k = closed ? m : k + n
                    continue
                }
                if b == UInt8(ascii: "$"), let found = match(u, at: k, memo: &memo) {
                    out.append((k, found.end - (found.display ? 2 : 1)))
                    k = found.end
                    continue
                }
                k += 1
            }
        }
        return out
    }
}

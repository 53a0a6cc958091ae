/// pandoc's inline notes, `^[A note with *emphasis* and [brackets].]`: the note's text is what the balanced
/// brackets hold (escapes and code spans inside are skipped, as pandoc reads them). The reader makes a note of
/// it (`Note.isInline`); the writer writes such a note back in this form when its text reads back whole.
enum InlineNotes {
    /// The closing bracket of each `[` from `start` to the paragraph's end (a blank line): offsets of `[` to
    /// just past their `]`, escapes skipped, code spans' brackets their text, in one pass (so the reader finds
    /// every inline note of a paragraph in linear time); and where the paragraph ends.
    static func matches(_ u: UnsafeBufferPointer<UInt8>, from start: Int) -> (pairs: [Int: Int], end: Int) {
        var stop = start
        while stop < u.count, !(u[stop] == UInt8(ascii: "\n") && isBlankLine(u, from: stop + 1)) { stop += 1 }
        // Backtick runs by length, in order: a run opens a code span closed by the next run of its length.
        var runs: [Int: [Int]] = [:]
        var k = start
        while k < stop {
            if u[k] == UInt8(ascii: "\\") { k += 2; continue }
            guard u[k] == UInt8(ascii: "`") else { k += 1; continue }
            var n = 0
            while k + n < stop, u[k + n] == UInt8(ascii: "`") { n += 1 }
            runs[n, default: []].append(k)
            k += n
        }
        var next: [Int: Int] = [:]
        var pairs: [Int: Int] = [:]
        var open: [Int] = []
        k = start
        while k < stop {
            switch u[k] {
            case UInt8(ascii: "\\"):
                k += 2
                continue
            case UInt8(ascii: "["):
                open.append(k)
            case UInt8(ascii: "]"):
                if let o = open.popLast() { pairs[o] = k + 1 }
            case UInt8(ascii: "`"):
                var n = 0
                while k + n < stop, u[k + n] == UInt8(ascii: "`") { n += 1 }
                let list = runs[n] ?? []
                var x = next[n] ?? 0
                while x < list.count, list[x] <= k { x += 1 }
                if x < list.count {
                    // A code span: its closing run is used up, the text between skipped.
                    next[n] = x + 1
                    k = list[x] + n
                } else {
                    next[n] = x
                    k += n
                }
                continue
            default:
                break
            }
            k += 1
        }
        return (pairs, stop)
    }

    private static func isBlankLine(_ u: UnsafeBufferPointer<UInt8>, from k: Int) -> Bool {
        var k = k
        while k < u.count, u[k] == UInt8(ascii: " ") || u[k] == UInt8(ascii: "\t") || u[k] == UInt8(ascii: ">") { k += 1 }
        return k >= u.count || u[k] == UInt8(ascii: "\n") || u[k] == UInt8(ascii: "\r")
    }

    /// Whether `text` written between `^[` and `]` reads back as the note's whole text.
    static func closesAtEnd(_ text: String) -> Bool {
        let b = Array(("^[" + text + "]").utf8)
        return b.withUnsafeBufferPointer { matches($0, from: 1).pairs[1] } == b.count
    }
}

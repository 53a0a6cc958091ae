import RedlineCore

/// One token of RTF with the exact bytes it was written with, for rewriting a file in place: copying every
/// token's `raw` bytes in order gives the input back byte for byte (line ends and all).
struct RTFRawToken {
    enum Kind: Equatable {
        case groupStart, groupEnd
        /// A control word; `name` its letters (24 at most kept), `param` its number.
        case word
        /// A control symbol `\X` (`\*`, `\~`, `\-`, `\{`...); `symbol` the byte after the backslash.
        case symbol
        /// `\'hh`.
        case hex
        /// Plain text bytes (no CR, LF or NUL).
        case text
        /// CR, LF or NUL bytes between tokens (not content).
        case ignorable
        /// The data of a `\bin N` (the word itself came before as `.word`).
        case binary
        case end
    }
    var kind: Kind = .end
    var name = RTFWordKey()
    var param: Int?
    var symbol: UInt8 = 0
}

/// Splits RTF into `RTFRawToken`s read from a file in 64 KiB pieces (memory flat however long the input is).
/// The current token's bytes are in `raw` until the next call.
struct RTFRawLexer {
    private var source: ByteSource
    private var buffer: [UInt8] = []
    private var position = 0
    /// The bytes of the last token.
    private(set) var raw: [UInt8] = []
    /// Bytes of `\bin` data still to come (read as `.binary` tokens).
    private var binaryLeft = 0

    init(_ input: DocumentInput) throws {
        source = try ByteSource(input)
        raw.reserveCapacity(1 << 16)
    }

    private mutating func fill() throws -> Bool {
        if position < buffer.count { return true }
        buffer = try source.read(max: 1 << 16)
        position = 0
        return !buffer.isEmpty
    }

    private mutating func peek() throws -> UInt8? {
        if position >= buffer.count, try !fill() { return nil }
        return buffer[position]
    }

    /// Called after a `\bin N` word: the next `count` bytes are data.
    mutating func expectBinary(_ count: Int) { binaryLeft = max(0, count) }

    /// The next token.
    mutating func next() throws -> RTFRawToken {
        raw.removeAll(keepingCapacity: true)
        var t = RTFRawToken()
        if binaryLeft > 0 {
            while binaryLeft > 0 && raw.count < 1 << 16 {
                if position >= buffer.count, try !fill() { binaryLeft = 0; break }
                let take = min(binaryLeft, buffer.count - position, (1 << 16) - raw.count)
                raw.append(contentsOf: buffer[position..<position + take])
                position += take
                binaryLeft -= take
            }
            t.kind = raw.isEmpty ? .end : .binary
            return t
        }
        guard let b = try peek() else { return t }
        switch b {
        case UInt8(ascii: "{"): position += 1; raw.append(b); t.kind = .groupStart
        case UInt8(ascii: "}"): position += 1; raw.append(b); t.kind = .groupEnd
        case 10, 13, 0:
            t.kind = .ignorable
            while let c = try peek(), c == 10 || c == 13 || c == 0, raw.count < 1 << 16 { raw.append(c); position += 1 }
        case UInt8(ascii: "\\"):
            position += 1
            raw.append(b)
            try control(&t)
        default:
            t.kind = .text
            while raw.count < 1 << 16 {
                if position >= buffer.count, try !fill() { break }
                let start = position
                var i = start
                let n = buffer.count
                while i < n {
                    let c = buffer[i]
                    if c == UInt8(ascii: "\\") || c == UInt8(ascii: "{") || c == UInt8(ascii: "}") || c == 10 || c == 13 || c == 0 { break }
                    i += 1
                }
                raw.append(contentsOf: buffer[start..<i])
                position = i
                if i < n { break }
            }
        }
        return t
    }

    private mutating func control(_ t: inout RTFRawToken) throws {
        guard let c = try peek() else { t.kind = .symbol; t.symbol = 0; return }
        if isLetter(c) {
            t.kind = .word
            while let l = try peek(), isLetter(l) {
                raw.append(l)
                position += 1
                if raw.count - 1 <= RTFWordKey.capacity { t.name.append(l) }
            }
            var negative = false
            if let m = try peek(), m == UInt8(ascii: "-") { raw.append(m); position += 1; negative = true }
            var value = 0, digits = 0
            while let d = try peek(), d >= 48 && d <= 57 {
                raw.append(d)
                position += 1
                if value <= RTFTokenizer.parameterLimit { value = value * 10 + Int(d - 48) }
                digits += 1
            }
            if digits > 0 { value = min(value, RTFTokenizer.parameterLimit); t.param = negative ? -value : value }
            if let s = try peek(), s == UInt8(ascii: " ") { raw.append(s); position += 1 }
            return
        }
        raw.append(c)
        position += 1
        if c == UInt8(ascii: "'") {
            t.kind = .hex
            var v: UInt8 = 0
            for _ in 0..<2 {
                guard let h = try peek() else { break }
                raw.append(h)
                position += 1
                v = v << 4 | hexValue(h)
            }
            t.symbol = v
            return
        }
        t.kind = .symbol
        t.symbol = c
    }

    @inline(__always) private func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 97 && (c | 0x20) <= 122 }

    @inline(__always) private func hexValue(_ c: UInt8) -> UInt8 {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return 0
        }
    }
}

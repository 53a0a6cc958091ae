import Foundation
import RedlineCore

/// One lexical unit of RTF.
enum RTFToken: Equatable {
    case groupStart
    case groupEnd
    /// A control word (`\b`, `\fs24`) looked up in the keyword table; `param` is nil when it has none.
    case word(RTFKeyword, param: Int?)
    /// A control word Redline does not know (after `\*` its group is skipped; otherwise it is ignored).
    case unknownWord
    /// A control symbol (`\~`, `\-`, `\{`): the byte after the backslash.
    case symbol(UInt8)
    /// A byte given as `\'hh`.
    case hexByte(UInt8)
    /// Plain text bytes, available in `RTFTokenizer.text` until the next call.
    case text
    case end
}

/// Reads RTF from a file in 64 KiB pieces (or from bytes in memory) and splits it into tokens.
/// Memory stays flat however long the input is; `\bin` data can be skipped or read without tokenizing.
struct RTFTokenizer {
    private var source: ByteSource
    private var buffer: [UInt8] = []
    private var position = 0
    /// Bytes consumed before `buffer` (for messages).
    private(set) var offsetBase = 0
    /// The text bytes of the last `.text` token.
    private(set) var text: [UInt8] = []
    /// Whether all of `text` is ASCII.
    private(set) var textIsASCII = true
    /// Set when a control word's parameter did not fit and was clamped.
    private(set) var clampedParameters = 0
    /// How many `\'hh` escapes had a character that is not a hex digit (each read as "?").
    private(set) var badHexEscapes = 0

    /// Largest parameter accepted as is; larger ones are clamped (the specification allows 16-bit signed values,
    /// real files use 32-bit ones for dates and ids).
    static let parameterLimit = Int(Int32.max)

    init(_ input: DocumentInput) throws {
        source = try ByteSource(input)
        text.reserveCapacity(4096)
    }

    /// The byte offset of the next unread byte.
    var offset: Int { offsetBase + position }

    private mutating func fill() throws -> Bool {
        if position < buffer.count { return true }
        offsetBase += buffer.count
        buffer = try source.read(max: 1 << 16)
        position = 0
        return !buffer.isEmpty
    }

    private mutating func peekByte() throws -> UInt8? {
        if position >= buffer.count, try !fill() { return nil }
        return buffer[position]
    }

    private mutating func nextByte() throws -> UInt8? {
        if position >= buffer.count, try !fill() { return nil }
        defer { position += 1 }
        return buffer[position]
    }

    /// The unread bytes of the current piece (the first 64 KiB at the start), without consuming them.
    mutating func head() throws -> ArraySlice<UInt8> {
        if position >= buffer.count { _ = try fill() }
        return buffer[position...]
    }

    /// The next token.
    mutating func next() throws -> RTFToken {
        while true {
            guard let b = try nextByte() else { return .end }
            switch b {
            case UInt8(ascii: "{"): return .groupStart
            case UInt8(ascii: "}"): return .groupEnd
            case UInt8(ascii: "\\"): return try controlToken()
            case 10, 13: continue
            case 0: continue
            default:
                text.removeAll(keepingCapacity: true)
                text.append(b)
                textIsASCII = b < 0x80
                try readTextRun()
                return .text
            }
        }
    }

    /// Collects plain text bytes up to the next special byte, within the current buffer and beyond.
    private mutating func readTextRun() throws {
        while true {
            if position >= buffer.count, try !fill() { return }
            let start = position
            let n = buffer.count
            let (i, bits) = buffer.withUnsafeBytes { Self.scanText($0, from: start) }
            if bits >= 0x80 { textIsASCII = false }
            text.append(contentsOf: buffer[start..<i])
            position = i
            if i < n {
                // Line ends and NULs inside text are not content: skip them and go on.
                let c = buffer[i]
                if c == 10 || c == 13 || c == 0 { position += 1; continue }
                return
            }
            if text.count >= 1 << 16 { return }
        }
    }

    /// Where text starting at `start` ends in `bytes` (at `\`, `{`, `}`, CR, LF, NUL or the end), and the OR of
    /// the bytes before it (its high bit tells whether they are all ASCII). Eight bytes are tested at a time
    /// while none of them ends the text: body text is most of an RTF file, and a byte at a time costs 3x more.
    private static func scanText(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (end: Int, bits: UInt8) {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        /// Nonzero when some byte of `w` equals `b` (the exact "has a zero byte" test on `w ^ b...b`).
        @inline(__always) func has(_ w: UInt64, _ b: UInt8) -> UInt64 {
            let x = w ^ (ones &* UInt64(b))
            return (x &- ones) & ~x & highs
        }
        var i = start
        var passed: UInt64 = 0
        while i + 8 <= bytes.count {
            let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if has(w, 0x5C) | has(w, 0x7B) | has(w, 0x7D) | has(w, 10) | has(w, 13) | has(w, 0) != 0 { break }
            passed |= w
            i += 8
        }
        var bits: UInt8 = passed & highs != 0 ? 0x80 : 0
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\\") || c == UInt8(ascii: "{") || c == UInt8(ascii: "}") || c == 10 || c == 13 || c == 0 { break }
            bits |= c
            i += 1
        }
        return (i, bits)
    }

    private mutating func controlToken() throws -> RTFToken {
        guard let c = try nextByte() else { return .end }
        if isLetter(c) { return try controlWord(first: c) }
        if c == UInt8(ascii: "'") {
            guard let h = try nextByte(), let l = try nextByte() else { return .end }
            if let hv = hexValue(h), let lv = hexValue(l) { return .hexByte(hv << 4 | lv) }
            badHexEscapes += 1
            return .symbol(UInt8(ascii: "?"))
        }
        // `\` + line end is a paragraph break, as `\par`.
        if c == 10 || c == 13 { return .word(.structure(.par), param: nil) }
        return .symbol(c)
    }

    private mutating func controlWord(first: UInt8) throws -> RTFToken {
        if let token = controlWordInBuffer(first: first) { return token }
        var key = RTFWordKey()
        key.append(first)
        var length = 1
        while let c = try peekByte(), isLetter(c) {
            position += 1
            length += 1
            if length <= RTFWordKey.capacity { key.append(c) }
        }
        var param: Int?
        var negative = false
        if let c = try peekByte(), c == UInt8(ascii: "-") {
            position += 1
            negative = true
        }
        var value = 0
        var digits = 0
        while let c = try peekByte(), c >= 48 && c <= 57 {
            position += 1
            if value <= Self.parameterLimit { value = value * 10 + Int(c - 48) }
            digits += 1
        }
        if digits > 0 {
            if value > Self.parameterLimit { value = Self.parameterLimit; clampedParameters += 1 }
            param = negative ? -value : value
        }
        if let c = try peekByte(), c == UInt8(ascii: " ") { position += 1 }
        if length <= RTFWordKey.capacity, let kw = RTFKeyword.table[key] { return .word(kw, param: param) }
        return .unknownWord
    }

    /// `controlWord` for a word whose parameter and delimiter are in the buffer (all but one word in 64 KiB),
    /// read without refill checks; nil, with nothing consumed, when the buffer ends first.
    @inline(__always)
    private mutating func controlWordInBuffer(first: UInt8) -> RTFToken? {
        let n = buffer.count
        var i = position
        var key = RTFWordKey()
        key.append(first)
        var length = 1
        while i < n && isLetter(buffer[i]) {
            length &+= 1
            if length <= RTFWordKey.capacity { key.append(buffer[i]) }
            i &+= 1
        }
        guard i < n else { return nil }
        let negative = buffer[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var value = 0
        var digits = 0
        while i < n && buffer[i] >= 48 && buffer[i] <= 57 {
            if value <= Self.parameterLimit { value = value * 10 + Int(buffer[i] - 48) }
            digits += 1
            i += 1
        }
        guard i < n else { return nil }
        if buffer[i] == UInt8(ascii: " ") { i += 1 }
        position = i
        var param: Int?
        if digits > 0 {
            if value > Self.parameterLimit { value = Self.parameterLimit; clampedParameters += 1 }
            param = negative ? -value : value
        }
        if length <= RTFWordKey.capacity, let kw = RTFKeyword.table[key] { return .word(kw, param: param) }
        return .unknownWord
    }

    /// Skips `count` bytes of `\bin` data; returns how many were there.
    mutating func skipBinary(_ count: Int) throws -> Int {
        var left = count
        while left > 0 {
            if position >= buffer.count, try !fill() { break }
            let take = min(left, buffer.count - position)
            position += take
            left -= take
        }
        return count - left
    }

    /// Reads `count` bytes of `\bin` data (for pictures), up to what is there.
    mutating func readBinary(_ count: Int, into out: inout [UInt8]) throws {
        var left = count
        while left > 0 {
            if position >= buffer.count, try !fill() { break }
            let take = min(left, buffer.count - position)
            out.append(contentsOf: buffer[position..<position + take])
            position += take
            left -= take
        }
    }

    @inline(__always) private func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 97 && (c | 0x20) <= 122 }

    @inline(__always) private func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}

/// A control word's name packed into 24 bytes: a cheap, exact dictionary key.
struct RTFWordKey: Hashable {
    static let capacity = 24
    private var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0
    private var count = 0

    init() {}

    init(_ name: String) {
        for u in name.utf8.prefix(Self.capacity) { append(u) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        // Bit operations without overflow checks: this runs for every letter of every control word.
        let shift = UInt64(truncatingIfNeeded: count & 7) &<< 3
        switch count &>> 3 {
        case 0: a |= UInt64(byte) &<< shift
        case 1: b |= UInt64(byte) &<< shift
        default: c |= UInt64(byte) &<< shift
        }
        count &+= 1
    }

    /// A fast, well-mixed hash of the packed name (for `KeywordTable`).
    var cheapHash: Int {
        var h = a &* 0x9E3779B97F4A7C15
        h ^= (b &+ UInt64(count)) &* 0xC2B2AE3D27D4EB4F
        h ^= c &* 0x165667B19E3779F9
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}

/// Where the tokenizer reads from: a file descriptor read in pieces, or bytes in memory.
struct ByteSource {
    private enum Storage {
        /// A file, its name, and for one that is not a regular file (a pipe, a device) the bytes it may still give.
        case file(FileHandle, String, remaining: Int?)
        case memory([UInt8], Int)
    }
    private var storage: Storage

    init(_ input: DocumentInput) throws {
        switch input {
        case .bytes(let b): storage = .memory(b, 0)
        case .file(let path):
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
                throw RedlineError.io("\(path) is a directory, not an RTF file")
            }
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw RedlineError.io("cannot open \(path) for reading")
            }
            storage = .file(h, path, remaining: DocumentInput.isRegularFile(path) ? nil : Limits().maxStreamedInputBytes)
        }
    }

    /// Up to `max` bytes; empty at the end.
    mutating func read(max: Int) throws -> [UInt8] {
        switch storage {
        case .memory(let bytes, let pos):
            let end = min(bytes.count, pos + max)
            storage = .memory(bytes, end)
            return Array(bytes[pos..<end])
        case .file(let h, let path, let remaining):
            do {
                guard let d = try h.read(upToCount: max) else { return [] }
                if let remaining {
                    guard d.count <= remaining else {
                        let limit = Limits().maxStreamedInputBytes
                        throw RedlineError.limit("\(path) is not a regular file and holds more than \(limit) bytes (\(Limits.name("maxStreamedInputBytes", limit)))")
                    }
                    storage = .file(h, path, remaining: remaining - d.count)
                }
                return [UInt8](d)
            } catch let e as RedlineError {
                throw e
            } catch {
                throw RedlineError.io("cannot read \(path): \(error.localizedDescription)")
            }
        }
    }
}

/// Turning an untrusted text input's bytes into valid UTF-8, once, at the door: every later pass may then
/// slice the bytes at ASCII delimiters and decode the slices without the byte counts shifting under it.
public enum TextDecoding {
    /// What `utf8(_:)` did to the bytes.
    public struct Report: Sendable, Equatable {
        /// The encoding the byte-order mark named ("UTF-16LE", "UTF-16BE"), or nil for UTF-8.
        public var transcodedFrom: String?
        /// How many invalid sequences were replaced by U+FFFD.
        public var replaced: Int = 0
        /// The 1-based line of the first replacement.
        public var firstLine: Int?
    }

    /// The bytes as valid UTF-8 without a byte-order mark: UTF-16 with a BOM is transcoded, UTF-8 with a BOM
    /// loses it, and every invalid sequence becomes U+FFFD (counted in the report). Linear; valid UTF-8
    /// without a BOM is returned as it is.
    public static func utf8(_ raw: [UInt8]) -> (bytes: [UInt8], report: Report) {
        var report = Report()
        if raw.count >= 2, (raw[0] == 0xFF && raw[1] == 0xFE) || (raw[0] == 0xFE && raw[1] == 0xFF) {
            let little = raw[0] == 0xFF
            report.transcodedFrom = little ? "UTF-16LE" : "UTF-16BE"
            return (fromUTF16(raw, little: little, report: &report), report)
        }
        let start = raw.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let valid = raw.withUnsafeBufferPointer { isValidUTF8(UnsafeBufferPointer(rebasing: $0[start...])) }
        if valid { return (start == 0 ? raw : Array(raw[start...]), report) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count + 16)
        var parser = Unicode.UTF8.ForwardParser()
        var it = raw[start...].makeIterator()
        var offset = start
        var line = 1
        loop: while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let e):
                out.append(contentsOf: e)
                if e.count == 1, e.first == 0x0A { line += 1 }
                offset += e.count
            case .error(let length):
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                report.replaced += 1
                if report.firstLine == nil { report.firstLine = line }
                offset += length
            case .emptyInput:
                break loop
            }
        }
        return (out, report)
    }

    /// A diagnostic message for `report`, or nil when nothing was changed worth a warning.
    public static func message(_ report: Report) -> String? {
        guard report.replaced > 0 else { return nil }
        let what = report.transcodedFrom.map { "invalid \($0) sequences" } ?? "bytes that are not valid UTF-8"
        return "\(report.replaced) \(what) replaced by U+FFFD"
    }

    static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let len: Int
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: len = 2
            case 0xE0: len = 3; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: len = 3
            case 0xED: len = 3; hi = 0x9F
            case 0xF0: len = 4; lo = 0x90
            case 0xF1...0xF3: len = 4
            case 0xF4: len = 4; hi = 0x8F
            default: return false
            }
            guard i + len <= n, b[i + 1] >= lo, b[i + 1] <= hi else { return false }
            var k = 2
            while k < len { if b[i + k] & 0xC0 != 0x80 { return false }; k += 1 }
            i += len
        }
        return true
    }

    private static func fromUTF16(_ raw: [UInt8], little: Bool, report: inout Report) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(raw.count / 2)
        var k = 2
        while k + 1 < raw.count {
            units.append(little ? UInt16(raw[k]) | UInt16(raw[k + 1]) << 8 : UInt16(raw[k]) << 8 | UInt16(raw[k + 1]))
            k += 2
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count + units.count / 2)
        var parser = Unicode.UTF16.ForwardParser()
        var it = units.makeIterator()
        var line = 1
        loop: while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let e):
                let scalar = Unicode.UTF16.decode(e)
                if scalar == "\n" { line += 1 }
                Unicode.UTF8.encode(scalar) { out.append($0) }
            case .error:
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                report.replaced += 1
                if report.firstLine == nil { report.firstLine = line }
            case .emptyInput:
                break loop
            }
        }
        if raw.count % 2 == 1 {
            out.append(contentsOf: [0xEF, 0xBF, 0xBD])
            report.replaced += 1
            if report.firstLine == nil { report.firstLine = line }
        }
        return out
    }
}

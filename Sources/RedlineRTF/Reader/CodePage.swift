import Foundation

/// Decodes the 8-bit bytes of RTF text (`\'hh` escapes and raw bytes) in one Windows or Mac code page.
/// Single-byte code pages use tables (`CodePageTables.swift`); the East Asian double-byte code pages
/// (932 Shift-JIS, 936 GBK, 949 Korean, 950 Big5) pair a lead byte with the next one and decode the pair
/// through Foundation's converters.
struct CodePageDecoder {
    let codePage: Int
    private let table: [UInt16]?
    private let doubleByte: String.Encoding?
    private var lead: UInt8?
    private var cache: [UInt16: String] = [:]

    /// Code pages this decoder knows.
    static func isSupported(_ codePage: Int) -> Bool {
        singleByteCodePages[codePage] != nil || doubleByteEncodings[codePage] != nil || codePage == 65001
    }

    /// Foundation encodings for the double-byte code pages (CoreFoundation encoding numbers).
    private static let doubleByteEncodings: [Int: UInt32] = [932: 0x0A01, 936: 0x0632, 949: 0x0422, 950: 0x0A03]

    /// A decoder for `codePage`; unknown code pages fall back to 1252 (the caller warns).
    init(codePage: Int) {
        self.codePage = codePage
        if let cf = Self.doubleByteEncodings[codePage] {
            table = nil
            doubleByte = String.Encoding(rawValue: UInt(0x8000_0000 | cf))
        } else {
            table = singleByteCodePages[codePage] ?? singleByteCodePages[1252]
            doubleByte = nil
        }
    }

    /// True while a double-byte lead byte waits for its trail byte.
    var isPending: Bool { lead != nil }

    /// Appends the UTF-8 of `byte` (or of the pair it completes) to `out`.
    mutating func decode(_ byte: UInt8, into out: inout [UInt8]) {
        if byte < 0x80 && lead == nil {
            out.append(byte)
            return
        }
        if let table {
            appendScalar(UInt32(table[Int(byte) - 0x80]), to: &out)
            return
        }
        if let l = lead {
            lead = nil
            let key = UInt16(l) << 8 | UInt16(byte)
            if let s = cache[key] { out.append(contentsOf: s.utf8); return }
            let s = String(bytes: [l, byte], encoding: doubleByte!) ?? "\u{FFFD}"
            if cache.count < 4096 { cache[key] = s }
            out.append(contentsOf: s.utf8)
            return
        }
        if isLeadByte(byte) {
            lead = byte
            return
        }
        let key = UInt16(byte)
        if let s = cache[key] { out.append(contentsOf: s.utf8); return }
        let s = String(bytes: [byte], encoding: doubleByte!) ?? "\u{FFFD}"
        cache[key] = s
        out.append(contentsOf: s.utf8)
    }

    /// Drops a lead byte left waiting (the text it belonged to ended).
    mutating func reset() -> Bool {
        defer { lead = nil }
        return lead != nil
    }

    private func isLeadByte(_ b: UInt8) -> Bool {
        switch codePage {
        case 932: return (0x81...0x9F).contains(b) || (0xE0...0xFC).contains(b)
        default: return (0x81...0xFE).contains(b)
        }
    }
}

/// Appends the UTF-8 encoding of scalar `v` (U+FFFD for surrogates and values out of range).
@inline(__always)
func appendScalar(_ v: UInt32, to out: inout [UInt8]) {
    var v = v
    if (0xD800...0xDFFF).contains(v) || v > 0x10FFFF { v = 0xFFFD }
    switch v {
    case 0..<0x80:
        out.append(UInt8(v))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | (v >> 6)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | (v >> 12)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    default:
        out.append(UInt8(0xF0 | (v >> 18)))
        out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    }
}

/// The code page a font's `\fcharset` implies; nil when the document's `\ansicpg` applies.
func codePage(forCharset charset: Int, documentCodePage: Int) -> Int? {
    switch charset {
    case 0: return 1252
    case 1, 3: return nil
    case 2: return nil  // Symbol: bytes are glyph indices; read them in the document code page.
    case 77: return documentCodePage >= 10000 ? documentCodePage : 10000
    case 78: return 932
    case 79: return 949
    case 80: return 936
    case 81: return 950
    case 82: return 10006
    case 83, 84, 85: return nil
    case 87: return 874
    case 88: return 10029
    case 89: return 10007
    case 128: return 932
    case 129: return 949
    case 134: return 936
    case 136: return 950
    case 161: return 1253
    case 162: return 1254
    case 163: return 1258
    case 177: return 1255
    case 178: return 1256
    case 186: return 1257
    case 204: return 1251
    case 222: return 874
    case 238: return 1250
    case 254: return 437
    case 255: return 850
    default: return nil
    }
}

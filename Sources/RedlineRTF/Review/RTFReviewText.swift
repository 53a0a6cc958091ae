import Foundation
import RedlineCore

/// Collects the text of a small destination (a revision-table author, an annotation's author, id or date)
/// while the rewriter copies it: plain bytes and `\'hh` in the document's code page, `\uN` with its fallback
/// skipped.
struct RTFReviewText {
    private var decoder: CodePageDecoder
    private var bytes: [UInt8] = []
    private var skip = 0

    init(codePage: Int) { decoder = CodePageDecoder(codePage: codePage) }

    mutating func add(_ token: RTFRawToken, raw: [UInt8], fallback: Int) {
        switch token.kind {
        case .text:
            for b in raw {
                if skip > 0 { skip -= 1; continue }
                decoder.decode(b, into: &bytes)
            }
        case .hex:
            if skip > 0 { skip -= 1; return }
            decoder.decode(token.symbol, into: &bytes)
        case .symbol where token.symbol == UInt8(ascii: "\\") || token.symbol == UInt8(ascii: "{") || token.symbol == UInt8(ascii: "}"):
            bytes.append(token.symbol)
        case .word where token.name == RTFReviewText.u:
            var v = token.param ?? 0
            if v < 0 { v += 65536 }
            appendScalar(UInt32(truncatingIfNeeded: max(0, v)), to: &bytes)
            skip = fallback
        default:
            break
        }
    }

    /// The text so far, spaces around it trimmed.
    var value: String { String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces) }

    mutating func reset() { bytes.removeAll(keepingCapacity: true); skip = 0 }

    static let u = RTFWordKey("u")
}

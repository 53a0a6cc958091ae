import Foundation
import RedlineCore

/// The TeX an author wrote, kept beside the equations written from it, for the equations whose OMML does not
/// read back to that exact TeX (`\dfrac`, `x^{2}` spelled `x^2`, spacing): custom properties
/// `RedlineMath1`, `RedlineMath2`, ... (each at most 255 characters, as Word's property dialog holds), whose
/// joined value is a JSON array of `[key, tex]`. The key is a hash of the TeX the equation reads back as, so
/// an entry is used only while the equation's OMML still reads as what Redline wrote: an equation a
/// co-author edited reads as its new TeX, and equations added or removed elsewhere change nothing. Entries
/// of one key are used in the order written.
final class MathSources {
    static let propertyPrefix = "RedlineMath"
    private static let chunk = 255

    /// Original TeX by key, in the order written, and how many of each were used.
    private var byKey: [String: [String]] = [:]
    private var used: [String: Int] = [:]
    /// Entries in the order written (the writer's side).
    private(set) var entries: [(key: String, tex: String)] = []

    init() {}

    var isEmpty: Bool { entries.isEmpty && byKey.isEmpty }

    /// The key of an equation that reads back as `tex` (FNV-1a, 64 bits, in hex: the same in every run).
    static func key(_ tex: String, display: Bool) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in Array((display ? "D" : "I").utf8) + Array(tex.utf8) {
            h ^= UInt64(b)
            h = h &* 0x100000001b3
        }
        return String(h, radix: 16)
    }

    /// Records that an equation written from `original` reads back as `readBack` (nothing when equal).
    func record(original: String, readBack: String, display: Bool) {
        guard original != readBack else { return }
        entries.append((Self.key(readBack, display: display), original))
    }

    /// The TeX the author wrote for an equation that reads as `tex`, if one was kept; else `tex`.
    func original(for tex: String, display: Bool) -> String {
        let key = Self.key(tex, display: display)
        guard let list = byKey[key] else { return tex }
        let n = used[key, default: 0]
        guard n < list.count else { return tex }
        used[key] = n + 1
        return list[n]
    }

    /// The custom properties holding the entries (none when there are none).
    func properties() -> [Metadata.Field] {
        guard !entries.isEmpty,
              let data = try? JSONSerialization.data(withJSONObject: entries.map { [$0.key, $0.tex] }, options: [.sortedKeys]),
              let json = String(data: data, encoding: .utf8) else { return [] }
        var fields: [Metadata.Field] = []
        var piece = ""
        var units = 0
        for c in json {
            let n = c.utf16.count
            if units + n > Self.chunk {
                fields.append(Metadata.Field(key: Self.propertyPrefix + String(fields.count + 1), value: .text(piece)))
                piece = ""
                units = 0
            }
            piece.append(c)
            units += n
        }
        if !piece.isEmpty { fields.append(Metadata.Field(key: Self.propertyPrefix + String(fields.count + 1), value: .text(piece))) }
        return fields
    }

    /// Whether a custom property name is one of these (`RedlineMath` and a number).
    static func pieceNumber(_ name: String) -> Int? {
        guard name.hasPrefix(propertyPrefix) else { return nil }
        return Int(name.dropFirst(propertyPrefix.count))
    }

    /// The table from the pieces of its custom properties (by number); an unreadable one is no table.
    init(pieces: [Int: String]) {
        let json = pieces.keys.sorted().map { pieces[$0]! }.joined()
        guard let data = json.data(using: .utf8),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String]] else { return }
        for pair in list where pair.count == 2 { byKey[pair[0], default: []].append(pair[1]) }
    }
}

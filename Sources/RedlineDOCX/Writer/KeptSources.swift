import Foundation
import RedlineCore

/// What an author wrote that the DOCX cannot show as written, kept beside it in custom properties: the TeX of
/// equations whose OMML does not read back to that exact TeX (`\dfrac`, `x^{2}` spelled `x^2`, spacing:
/// `RedlineMath1`, `RedlineMath2`, ...), and the info string of code blocks (`python`, `{r, echo=FALSE}`:
/// `RedlineCode1`, ...; for a comparison's marked code-style paragraph, under the code it reads as accepted and,
/// marked apart, as rejected: `codeTexts`), and the attribute list after a Markdown picture (`#fig-x width=50%`: `RedlineImage1`, ...,
/// keyed by its alt text) or heading (` {#sec-intro}`: `RedlineHeading1`, ..., keyed by its text). Each property holds at most 255 characters (as Word's property dialog does); their
/// joined value is a JSON array of `[key, source]`. The key is a hash of what the DOCX reads back as (the
/// equation's TeX, the code's text), so an entry is used only while that is still what Redline wrote: an
/// equation or code a co-author edited reads as it now is, and what is added or removed elsewhere changes
/// nothing. Entries of one key are used in the order written.
final class KeptSources {
    /// The prefix of the equations' properties.
    static let mathPrefix = "RedlineMath"
    /// The prefix of the code blocks' properties.
    static let codePrefix = "RedlineCode"
    /// The prefix of the pictures' properties.
    static let imagePrefix = "RedlineImage"
    /// The prefix of the headings' properties (pandoc's attributes after a Markdown heading, keyed by its text).
    static let headingPrefix = "RedlineHeading"
    /// The prefix of the inline notes' properties (a Markdown `^[…]` note, keyed by its text).
    static let notePrefix = "RedlineNote"

    /// What reads back as a note (its text), for the notes' table.
    static func noteText(_ n: Note) -> String { n.blocks.map(\.plainText).joined(separator: "\n") }
    let propertyPrefix: String
    private static let chunk = 255

    /// Original TeX by key, in the order written, and how many of each were used.
    private var byKey: [String: [String]] = [:]
    private var used: [String: Int] = [:]
    /// Entries in the order written (the writer's side).
    private(set) var entries: [(key: String, tex: String)] = []
    /// The code texts (their plain keys) some entry of which holds an info string: an empty one for the same
    /// text is written too, so it is not given another block's (`keepCode`).
    private var textsWithInfo: Set<String> = []

    init(prefix: String) { propertyPrefix = prefix }

    var isEmpty: Bool { entries.isEmpty && byKey.isEmpty }

    /// The key of an equation that reads back as `tex` (FNV-1a, 64 bits, in hex: the same in every run).
    static func key(_ tex: String, display: Bool) -> String {
        var h = FNV1a()
        h.add((display ? "D" : "I").utf8)
        h.add(tex.utf8)
        return String(h.value, radix: 16)
    }

    /// Records that an equation written from `original` reads back as `readBack` (nothing when equal).
    func record(original: String, readBack: String, display: Bool) {
        guard original != readBack else { return }
        entries.append((Self.key(readBack, display: display), original))
    }

    /// The TeX the author wrote for an equation that reads as `tex`, if one was kept; else `tex`.
    func original(for tex: String, display: Bool) -> String {
        take(Self.key(tex, display: display)) ?? tex
    }

    /// The next unused entry of `key`, if any (entries of one key are given in the order written).
    private func take(_ key: String) -> String? {
        guard let list = byKey[key] else { return nil }
        let n = used[key, default: 0]
        guard n < list.count else { return nil }
        used[key] = n + 1
        return list[n]
    }

    /// The custom properties holding the entries (none when there are none).
    func properties() -> [Metadata.Field] {
        let entries = self.entries.filter { !$0.tex.isEmpty || textsWithInfo.contains(Self.textKey($0.key)) }
        guard !entries.isEmpty,
              let data = try? JSONSerialization.data(withJSONObject: entries.map { [$0.key, $0.tex] }, options: [.sortedKeys]),
              let json = String(data: data, encoding: .utf8) else { return [] }
        var fields: [Metadata.Field] = []
        var piece = ""
        var units = 0
        for c in json {
            let n = c.utf16.count
            if units + n > Self.chunk {
                fields.append(Metadata.Field(key: propertyPrefix + String(fields.count + 1), value: .text(piece)))
                piece = ""
                units = 0
            }
            piece.append(c)
            units += n
        }
        if !piece.isEmpty { fields.append(Metadata.Field(key: propertyPrefix + String(fields.count + 1), value: .text(piece))) }
        return fields
    }

    /// The number of a custom property of this table (`RedlineMath` and a number), nil for another name.
    func pieceNumber(_ name: String) -> Int? {
        guard name.hasPrefix(propertyPrefix) else { return nil }
        return Int(name.dropFirst(propertyPrefix.count))
    }

    /// True for a custom property of either table (not metadata).
    static func isKept(_ name: String) -> Bool {
        prefixes.contains { KeptSources(prefix: $0).pieceNumber(name) != nil }
    }

    /// Every table's prefix (the custom properties that are Redline's, not metadata).
    static let prefixes = [mathPrefix, codePrefix, imagePrefix, headingPrefix, notePrefix]

    /// Records `value` (a code block's info string, a picture's attributes) for what reads back as `text` (the
    /// code, the alt text); nothing for an empty value.
    func keep(_ value: String, for text: String) {
        guard !value.isEmpty else { return }
        entries.append((Self.key(text, display: false), value))
    }

    /// The value kept for what reads as `text`, if one was (each kept value is given once).
    func kept(for text: String) -> String? {
        take(Self.key(text, display: false))
    }

    /// Records a code block's info string (`python`; "" for none) for code that reads back as `text`, or, with
    /// `rejected`, that reads as `text` once the changes are rejected (a comparison's deleted or changed code,
    /// `codeTexts`). An empty info string is written only when the same text has another entry with one. The key
    /// is the text's (`key`), marked with a leading "r" for the rejected side.
    func keepCode(_ info: String, for text: String, rejected: Bool = false) {
        let plain = Self.key(text, display: false)
        if !info.isEmpty { textsWithInfo.insert(plain) }
        entries.append(((rejected ? "r" : "") + plain, info))
    }

    /// The text's key of an entry's key (without the rejected side's "r"; hex digits never are one).
    private static func textKey(_ key: String) -> String { key.hasPrefix("r") ? String(key.dropFirst()) : key }

    /// The info string kept for code that reads as `text`: one kept for it as written or accepted, else one kept
    /// for it as rejected (what a document resolved outside Redline by rejecting holds). Each is given once.
    func keptCode(for text: String, rejected: Bool? = nil) -> String? {
        let plain = Self.key(text, display: false)
        switch rejected {
        case true?: return take("r" + plain)
        case false?: return take(plain)
        case nil: return take(plain) ?? take("r" + plain)
        }
    }

    /// The code a code-style paragraph with changes (a comparison's, carrying `Paragraph.codeInfo`) reads as
    /// resolved, each text once: accepted, then rejected; none for a side its break goes on (inserted, on
    /// rejecting; deleted, on accepting) or where it holds more than plain lines. Its info string is kept for
    /// each (`keep`), so the code reads back with it after Redline or Word resolves the changes; the reader of
    /// the marked paragraph takes them in the same order.
    static func codeTexts(_ p: Paragraph) -> [(text: String, rejected: Bool)] {
        let (accepted, rejected) = BlockStyleRole.codeSides(p)
        var out: [(text: String, rejected: Bool)] = []
        if let accepted { out.append((accepted, false)) }
        if let rejected, rejected != accepted { out.append((rejected, true)) }
        return out
    }

    /// Every value kept, in no order (the heading ids a reader finds bookmarked).
    var allValues: [String] { byKey.values.flatMap { $0 } }

    /// The table from the pieces of its custom properties (by number); an unreadable one is no table.
    init(prefix: String, pieces: [Int: String]) {
        propertyPrefix = prefix
        let json = pieces.keys.sorted().map { pieces[$0]! }.joined()
        guard let data = json.data(using: .utf8),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String]] else { return }
        for pair in list where pair.count == 2 { byKey[pair[0], default: []].append(pair[1]) }
    }
}

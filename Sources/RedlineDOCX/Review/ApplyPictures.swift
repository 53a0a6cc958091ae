import RedlineCore

/// Pictures in text `DOCXApply` inserts: each distinct picture one new `media` part beside the main document,
/// its relationship added to the main document's relationships part and its extension to `[Content_Types].xml`
/// when no `Default` covers it; each drawing a `wp:docPr` id past the package's largest. The drawing itself is the
/// DOCX writer's (`DOCXComposer.inlineDrawing`). A picture without bytes, of a kind Word cannot show inline, or
/// in a Strict package is not written (`drawing` returns nil: the caller writes its alt text, which the read-back
/// check then refuses).
final class ApplyPictures {
    private let documentPart: String
    private let strict: Bool
    private var takenRelationships: Set<String>
    private var takenParts: Set<String>
    private var nextDocPr: Int
    /// Relationship id by picture content id, in order of first use, with the new part's name.
    private var byItem: [String: String] = [:]
    private var added: [(rel: String, part: String, target: String, item: MediaItem)] = []

    /// For ORIGINAL's `package`; `largestDocPr` is the largest `wp:docPr` id of its story parts.
    init(package: DOCXPackage, largestDocPr: Int, strict: Bool) {
        documentPart = package.documentPart
        self.strict = strict
        takenRelationships = Set(package.relationships.keys)
        takenParts = Set(package.archive.entries.map { $0.name.lowercased() })
        nextDocPr = largestDocPr + 1
    }

    /// Whether any drawing was written (so `finish` has parts to add).
    var isEmpty: Bool { added.isEmpty }

    /// The `w:drawing` showing `image`, or nil when it cannot be written here.
    func drawing(_ image: Image) -> String? {
        guard !strict, let item = image.media, DOCXComposer.embeddableKinds.contains(item.kind) else { return nil }
        let rel: String
        if let known = byItem[item.id] {
            rel = known
        } else {
            var n = added.count + 1
            while takenRelationships.contains("rIdRedlineImage\(n)") { n += 1 }
            rel = "rIdRedlineImage\(n)"
            takenRelationships.insert(rel)
            let dir = DOCXPackage.directory(of: documentPart)
            var k = 1
            func name(_ k: Int) -> String { "media/redline-image\(k).\(item.kind.fileExtension)" }
            while takenParts.contains(((dir.isEmpty ? "" : dir + "/") + name(k)).lowercased()) { k += 1 }
            let part = (dir.isEmpty ? "" : dir + "/") + name(k)
            takenParts.insert(part.lowercased())
            byItem[item.id] = rel
            added.append((rel, part, name(k), item))
        }
        var shown = image
        shown.media = item
        var x = XMLText()
        DOCXComposer.inlineDrawing(shown, relationship: rel, id: nextDocPr, declaringNamespaces: true, into: &x)
        nextDocPr += 1
        return String(decoding: x.bytes, as: UTF8.self)
    }

    /// The new media parts into `added`, their relationships into the main document's relationships part and
    /// missing `Default`s into `[Content_Types].xml` (each as the earlier steps left it, `ApplyPackageEdits`).
    func finish(into edits: inout ApplyPackageEdits) throws {
        guard !added.isEmpty else { return }
        for a in added { edits.store(a.part, try a.item.bytes()) }
        try edits.addRelationships(added.map { "<Relationship Id=\"\($0.rel)\" Type=\"\(Self.relType)\" Target=\"\($0.target)\"/>" }.joined())
        var s = try edits.contentTypes()
        var defaults = ""
        var seen: Set<String> = []
        for a in added {
            let ext = a.item.kind.fileExtension.lowercased()
            guard !seen.contains(ext) else { continue }
            seen.insert(ext)
            let declared = s.range(of: "Extension=\"\(ext)\"", options: .caseInsensitive) != nil
                || s.range(of: "Extension='\(ext)'", options: .caseInsensitive) != nil
            if !declared { defaults += "<Default Extension=\"\(ext)\" ContentType=\"\(a.item.kind.mimeType)\"/>" }
        }
        guard !defaults.isEmpty else { return }
        // Defaults go before the first Override (the schema's order is free, Word's habit is Defaults first).
        if let r = s.range(of: "<Override ") ?? s.range(of: "</Types>", options: .backwards) {
            s.replaceSubrange(r.lowerBound..<r.lowerBound, with: defaults)
        } else {
            throw RedlineError.malformed("[Content_Types].xml has no closing Types element")
        }
        edits.store("[Content_Types].xml", Array(s.utf8))
    }

    static let relType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"

    /// The largest decimal `wp:docPr` id in `bytes` (any prefix bound to the drawing namespace is written `wp:` by
    /// Word; other prefixes are read too by their `:docPr ` tag).
    static func largestDocPr(in bytes: [UInt8]) -> Int {
        let key = Array(":docPr ".utf8), id = Array(" id=\"".utf8)
        var best = 0
        var i = 0
        let n = bytes.count
        while i + key.count < n {
            guard bytes[i] == key[0], ApplyXMLScan.starts(bytes, at: i, key) else { i += 1; continue }
            var j = i + key.count - 1
            while j < n, bytes[j] != 62 {
                if bytes[j] == 32, ApplyXMLScan.starts(bytes, at: j, id) {
                    var k = j + id.count, v = 0, digits = 0
                    while k < n, (48...57).contains(bytes[k]), digits < 12 { v = v * 10 + Int(bytes[k] - 48); k += 1; digits += 1 }
                    if digits > 0 { best = max(best, v) }
                    break
                }
                j += 1
            }
            i = j
        }
        return best
    }
}

import RedlineCore

/// The parts of ORIGINAL's package a DOCX apply rewrites or adds, each step seeing what the ones before it
/// wrote (the comments part, new notes parts, pictures all extend the main part's relationships and
/// `[Content_Types].xml`).
struct ApplyPackageEdits {
    let package: DOCXPackage
    /// ORIGINAL's parts rewritten, by name.
    var replaced: [String: [UInt8]] = [:]
    /// Parts ORIGINAL does not have, in order.
    var added: [(String, [UInt8])] = []

    init(package: DOCXPackage) { self.package = package }

    /// The part as the steps so far left it: added, rewritten, else ORIGINAL's; nil when there is none.
    func current(_ name: String) throws -> [UInt8]? {
        if let i = added.firstIndex(where: { $0.0 == name }) { return added[i].1 }
        guard let entry = package.archive.entry(named: name) else { return nil }
        return try replaced[entry.name] ?? package.archive.read(entry)
    }

    /// `bytes` as the part `name`: a rewrite of ORIGINAL's part (under its name as stored), or an added one.
    mutating func store(_ name: String, _ bytes: [UInt8]) {
        if let i = added.firstIndex(where: { $0.0 == name }) {
            added[i].1 = bytes
        } else if let entry = package.archive.entry(named: name) {
            replaced[entry.name] = bytes
        } else {
            added.append((name, bytes))
        }
    }

    /// The name of a part `file` beside the main document part.
    func partBesideDocument(_ file: String) -> String {
        let dir = DOCXPackage.directory(of: package.documentPart)
        return dir.isEmpty ? file : (dir.hasSuffix("/") ? dir + file : dir + "/" + file)
    }

    /// A relationship id of the main part free in ORIGINAL: `base`, else `base1`, `base2`, ….
    func freeRelationshipID(_ base: String) -> String {
        var rid = base
        var k = 1
        while package.relationships[rid] != nil { rid = base + String(k); k += 1 }
        return rid
    }

    /// `relationships` (`<Relationship …/>` elements) added to the main part's relationships part (made when
    /// there is none).
    mutating func addRelationships(_ relationships: String) throws {
        let relsName = DOCXPackage.relationshipsPart(of: package.documentPart)
        if let bytes = try current(relsName) {
            var s = String(decoding: bytes, as: UTF8.self)
            guard let r = s.range(of: "</Relationships>", options: .backwards) else {
                throw RedlineError.unsupported("\(relsName) has no closing Relationships element")
            }
            s.replaceSubrange(r, with: relationships + "</Relationships>")
            store(relsName, Array(s.utf8))
        } else {
            store(relsName, Array(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">" + relationships + "</Relationships>").utf8))
        }
    }

    /// `[Content_Types].xml` as the steps so far left it.
    func contentTypes() throws -> String {
        guard let types = try current("[Content_Types].xml") else { throw RedlineError.malformed("the package has no [Content_Types].xml") }
        return String(decoding: types, as: UTF8.self)
    }

    /// An `Override` for the new part `part` added to `[Content_Types].xml`.
    mutating func addOverride(part: String, contentType: String) throws {
        var s = try contentTypes()
        guard let r = s.range(of: "</Types>", options: .backwards) else { throw RedlineError.malformed("[Content_Types].xml has no closing Types element") }
        s.replaceSubrange(r, with: "<Override PartName=\"/\(part)\" ContentType=\"\(contentType)\"/></Types>")
        store("[Content_Types].xml", Array(s.utf8))
    }
}

import Foundation
import RedlineCore
import RedlineXML
import RedlineZip

/// One relationship of a part: `rId7` → target (a part path inside the package, or an external URL).
struct Relationship: Sendable {
    /// The last segment of the relationship type URI (`styles`, `hyperlink`, `image`, ...).
    var kind: String
    var target: String
    var external: Bool
}

/// A DOCX package: the zip archive, where its parts are, and the main document's relationships.
/// Opening refuses what is not a DOCX with a message that says what it is instead.
final class DOCXPackage {
    let archive: ZipArchive
    let name: String
    let limits: Limits
    /// The main document part (`word/document.xml`).
    let documentPart: String
    /// The main document's relationships by id.
    let relationships: [String: Relationship]
    /// The package's own relationships (`_rels/.rels`: main document, core properties...) by id; empty
    /// when the package has none. Read once here, for every part that needs them.
    let rootRelationships: [String: Relationship]

    init(_ input: DocumentInput, limits: Limits) throws {
        self.name = input.displayName
        self.limits = limits
        let head = try Self.head(of: input)
        if head.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            throw Self.compoundFileError(input)
        }
        switch input {
        case .file(let path): archive = try ZipArchive(path: path, limits: limits, displayName: "")
        case .bytes(let bytes): archive = try ZipArchive(bytes: bytes, limits: limits, displayName: "")
        }
        var main = "word/document.xml"
        if let root = archive.entry(named: "_rels/.rels") {
            rootRelationships = try Self.readRelationships(try archive.read(root), base: "", name: root.name, limits: limits)
            if let r = rootRelationships.values.first(where: { $0.kind == "officeDocument" && !$0.external }) { main = r.target }
        } else {
            rootRelationships = [:]
        }
        guard let doc = archive.entry(named: main) ?? archive.entry(named: "word/document.xml") else {
            throw RedlineError.malformed("not a Word document: the package has no \(main) (a zip, but not a DOCX)")
        }
        documentPart = doc.name
        let relsName = Self.relationshipsPart(of: doc.name)
        if let entry = archive.entry(named: relsName) {
            relationships = try Self.readRelationships(try archive.read(entry), base: Self.directory(of: doc.name),
                                                       name: relsName, limits: limits)
        } else {
            relationships = [:]
        }
    }

    /// The part the main document relates to with `kind` (`styles`, `comments`...), else `fallback`.
    func part(_ kind: String, fallback: String) -> ZipEntry? {
        if let r = relationships.values.first(where: { $0.kind == kind && !$0.external }),
           let e = archive.entry(named: r.target) {
            return e
        }
        return archive.entry(named: fallback)
    }

    /// A streaming XML reader over `entry`, numbering `names` (the story parser's by default). A large part
    /// (the body of a long document) is inflated and parsed on a thread of its own, ahead of the story
    /// parser; the result is the same either way.
    func xml(_ entry: ZipEntry, names: [String] = OOXML.names, again: Bool = false) throws -> XMLReader {
        if entry.declaredSize >= Self.backgroundParseSize {
            let stream = try archive.open(entry, again: again)
            return try XMLReader(parsingInBackground: entry.name, namespaces: OOXML.table, names: names, limits: limits) {
                try stream.read(into: $0)
            }
        }
        let stream = try archive.open(entry, again: again)
        return try XMLReader(name: entry.name, namespaces: OOXML.table, names: names, limits: limits) {
            try stream.read(into: $0)
        }
    }

    /// Parts at least this large (as the archive declares) are parsed on a thread of their own (a body,
    /// a long comments part): parsing them takes a millisecond or more, starting a thread some microseconds.
    static let backgroundParseSize: UInt64 = 128 << 10

    // MARK: Relationships

    static func readRelationships(_ bytes: [UInt8], base: String, name: String, limits: Limits) throws -> [String: Relationship] {
        let x = try XMLReader(bytes: bytes, name: name, namespaces: OOXML.table, limits: limits)
        var out: [String: Relationship] = [:]
        while let k = try x.next() {
            guard k == .start, x.localName == "Relationship", let id = x.attribute("Id"),
                  let type = x.attribute("Type"), let target = x.attribute("Target") else { continue }
            let external = x.attribute("TargetMode") == "External"
            let kind = String(ASCIIPath.components(type, omittingEmpty: true)?.last
                              ?? type.split(separator: "/").last ?? "")
            out[id] = Relationship(kind: kind, target: external ? target : resolve(target, base: base), external: external)
        }
        return out
    }

    /// `word/_rels/document.xml.rels` for `word/document.xml`.
    static func relationshipsPart(of part: String) -> String {
        let dir = directory(of: part)
        let file = part.split(separator: "/").last.map(String.init) ?? part
        return (dir.isEmpty ? "" : dir + "/") + "_rels/" + file + ".rels"
    }

    static func directory(of part: String) -> String {
        guard let slash = part.lastIndex(of: "/") else { return "" }
        return String(part[..<slash])
    }

    /// A relationship target resolved against the source part's folder (`media/a.png` → `word/media/a.png`).
    static func resolve(_ target: String, base: String) -> String {
        var parts: [Substring] = target.hasPrefix("/") ? [] : ASCIIPath.components(base, omittingEmpty: true) ?? base.split(separator: "/")
        for seg in ASCIIPath.components(target, omittingEmpty: true) ?? target.split(separator: "/") {
            if seg == ".." { if !parts.isEmpty { parts.removeLast() } } else if seg != "." { parts.append(seg) }
        }
        return parts.joined(separator: "/")
    }

    // MARK: Inputs that are not zips

    private static func head(of input: DocumentInput) throws -> [UInt8] {
        switch input {
        case .bytes(let b): return Array(b.prefix(8))
        case .file(let path):
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw RedlineError.io("cannot open \(path) for reading: \(String(cString: strerror(errno)))")
            }
            defer { try? h.close() }
            return [UInt8]((try? h.read(upToCount: 8)) ?? Data())
        }
    }

    /// An OLE compound file: an encrypted DOCX (its package is inside `EncryptedPackage`), a legacy
    /// Word 97-2003 document (`WordDocument` stream), or something else.
    private static func compoundFileError(_ input: DocumentInput) -> RedlineError {
        var bytes: [UInt8]
        switch input {
        case .bytes(let b): bytes = b
        case .file(let path):
            let h = FileHandle(forReadingAtPath: path)
            bytes = [UInt8]((try? h?.read(upToCount: 64 << 20)) ?? Data())
            try? h?.close()
        }
        func has(_ s: String) -> Bool {
            let needle = s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            return bytes.withUnsafeBufferPointer { hay in
                guard hay.count >= needle.count else { return false }
                for i in 0...(hay.count - needle.count) where hay[i] == needle[0] {
                    if Array(hay[i..<(i + needle.count)]) == needle { return true }
                }
                return false
            }
        }
        if has("EncryptedPackage") || has("EncryptionInfo") {
            return .unsupported("this DOCX is encrypted (password-protected); open it in Word, remove the password "
                + "(File > Info > Protect Document > Encrypt with Password) and save it again, then convert")
        }
        if has("WordDocument") {
            return .unsupported("this is a legacy Word 97-2003 .doc file, not a DOCX; save it as .docx in Word, "
                + "or convert it with 'soffice --headless --convert-to docx FILE', then convert that")
        }
        return .unsupported("this is an OLE compound file (an old Office format), not a DOCX")
    }
}

import RedlineCore

/// New comments for `DOCXApply`: appended to ORIGINAL's comments part, or a new part with its relationship
/// and content type. Replies are written as comments of their own (no `commentsExtended` thread yet).
enum ApplyComments {
    static let mainNamespace = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    static let relType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments"
    static let contentType = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"

    static func plainText(_ blocks: [Block]) -> String {
        blocks.map { b -> String in
            switch b {
            case .paragraph(let p), .heading(_, let p): return ApplyPlan.text(of: p.content, view: .accept)
            case .codeBlock(let c): return c.text
            default: return ""
            }
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    static func xml(_ c: Comment, id: Int) -> String {
        var s = "<w:comment w:id=\"\(id)\" w:author=\"\(MarkupEscaper.xmlAttribute.escaped(c.author ?? "Redline"))\""
        if let d = c.date.flatMap(DOCXDate.dateTime) { s += " w:date=\"\(d)\"" }
        if let i = c.initials, !i.isEmpty { s += " w:initials=\"\(MarkupEscaper.xmlAttribute.escaped(i))\"" }
        s += ">"
        var first = true
        for b in c.body {
            guard case .paragraph(let p) = b else { continue }
            s += "<w:p>" + (first ? "<w:r><w:annotationRef/></w:r>" : "") + ApplyRuns.runs(p.content, base: "") + "</w:p>"
            first = false
        }
        if first { s += "<w:p><w:r><w:annotationRef/></w:r></w:p>" }
        return s + "</w:comment>"
    }

    static func add(_ comments: [(Comment, Int)], package: DOCXPackage, parts: DOCXInPlaceReview.Parts,
                    replaced: inout [String: [UInt8]], added: inout [(String, [UInt8])]) throws {
        let body = comments.map { xml($0.0, id: $0.1) }.joined()
        let archive = package.archive
        if let name = parts.comments, let entry = archive.entry(named: name) {
            var s = String(decoding: try archive.read(entry), as: UTF8.self)
            if let r = s.range(of: "</w:comments>", options: .backwards) {
                s.replaceSubrange(r, with: body + "</w:comments>")
            } else if let r = s.range(of: "<w:comments", options: .backwards), let close = s[r.upperBound...].range(of: "/>") {
                // An empty <w:comments .../>.
                s.replaceSubrange(close, with: ">" + body + "</w:comments>")
            } else {
                throw RedlineError.unsupported("\(name) has no w:comments element with the w: prefix")
            }
            replaced[entry.name] = Array(s.utf8)
            return
        }
        let dir = DOCXPackage.directory(of: package.documentPart)
        var file = "comments.xml"
        var n = 1
        while archive.entry(named: dir.isEmpty ? file : dir + "/" + file) != nil { file = "comments\(n).xml"; n += 1 }
        let part = dir.isEmpty ? file : (dir.hasSuffix("/") ? dir + file : dir + "/" + file)
        added.append((part, Array(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:comments xmlns:w=\"\(mainNamespace)\">" + body + "</w:comments>").utf8)))
        let relsName = DOCXPackage.relationshipsPart(of: package.documentPart)
        var rid = "rIdRedlineComments"
        var k = 1
        while package.relationships[rid] != nil { rid = "rIdRedlineComments\(k)"; k += 1 }
        let rel = "<Relationship Id=\"\(rid)\" Type=\"\(relType)\" Target=\"\(file)\"/>"
        if let entry = archive.entry(named: relsName) {
            var s = String(decoding: try archive.read(entry), as: UTF8.self)
            guard let r = s.range(of: "</Relationships>", options: .backwards) else {
                throw RedlineError.unsupported("\(relsName) has no closing Relationships element")
            }
            s.replaceSubrange(r, with: rel + "</Relationships>")
            replaced[entry.name] = Array(s.utf8)
        } else {
            added.append((relsName, Array(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">" + rel + "</Relationships>").utf8)))
        }
        guard let types = archive.entry(named: "[Content_Types].xml") else { throw RedlineError.malformed("the package has no [Content_Types].xml") }
        var s = String(decoding: try archive.read(types), as: UTF8.self)
        guard let r = s.range(of: "</Types>", options: .backwards) else { throw RedlineError.malformed("[Content_Types].xml has no closing Types element") }
        s.replaceSubrange(r, with: "<Override PartName=\"/\(part)\" ContentType=\"\(contentType)\"/></Types>")
        replaced[types.name] = Array(s.utf8)
    }
}

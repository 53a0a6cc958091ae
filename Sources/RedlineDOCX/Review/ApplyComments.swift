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

    static func add(_ comments: [(Comment, Int)], parts: DOCXInPlaceReview.Parts, into edits: inout ApplyPackageEdits) throws {
        let body = comments.map { xml($0.0, id: $0.1) }.joined()
        if let name = parts.comments, let old = try edits.current(name) {
            var s = String(decoding: old, as: UTF8.self)
            if let r = s.range(of: "</w:comments>", options: .backwards) {
                s.replaceSubrange(r, with: body + "</w:comments>")
            } else if let r = s.range(of: "<w:comments", options: .backwards), let close = s[r.upperBound...].range(of: "/>") {
                // An empty <w:comments .../>.
                s.replaceSubrange(close, with: ">" + body + "</w:comments>")
            } else {
                throw RedlineError.unsupported("\(name) has no w:comments element with the w: prefix")
            }
            edits.store(name, Array(s.utf8))
            return
        }
        var file = "comments.xml"
        var n = 1
        while try edits.current(edits.partBesideDocument(file)) != nil { file = "comments\(n).xml"; n += 1 }
        let part = edits.partBesideDocument(file)
        edits.store(part, Array(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:comments xmlns:w=\"\(mainNamespace)\">" + body + "</w:comments>").utf8))
        let rid = edits.freeRelationshipID("rIdRedlineComments")
        try edits.addRelationships("<Relationship Id=\"\(rid)\" Type=\"\(relType)\" Target=\"\(file)\"/>")
        try edits.addOverride(part: part, contentType: contentType)
    }
}

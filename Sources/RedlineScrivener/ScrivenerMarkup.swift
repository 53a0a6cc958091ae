import RedlineCore

/// Turns what Scrivener leaves in its RTF into the document model:
/// - `scrivcmt://ID` links (the anchor of a linked comment or footnote whose body is in `content.comments`)
///   become comment ranges or footnote references;
/// - `scrivlnk://ID` links (to another binder item) are pointed at that item's output, or dropped;
/// - inline annotations `{\Scrv_annot … \text=…\end_Scrv_annot}` become point comments and inline footnotes
///   `{\Scrv_fn=…\end_Scrv_fn}` footnotes (they reach the text as literal characters);
/// - style markers such as `<$Scr_Ps::0>` and `<!$Scr_Ps::0>` are removed.
public struct ScrivenerMarkup {
    /// Comment and footnote bodies by id, already read into blocks.
    public var comments: [String: (isFootnote: Bool, body: [Block])]
    /// The comment ids in file order (unanchored ones are attached in this order).
    public var commentOrder: [String]
    /// The URL a `scrivlnk://` target id leads to, or nil when it is not migrated.
    public var linkTarget: (String) -> String?
    /// A prefix for ids made up for inline annotations and footnotes (the item's id).
    public var idPrefix: String
    public let diagnostics: Diagnostics

    private var used = Set<String>()
    private var outComments: [Comment] = []
    private var outNotes: [Note] = []
    private var inlineCount = 0

    public init(comments: [String: (isFootnote: Bool, body: [Block])], commentOrder: [String],
                idPrefix: String, diagnostics: Diagnostics, linkTarget: @escaping (String) -> String?) {
        self.comments = comments
        self.commentOrder = commentOrder
        self.idPrefix = idPrefix
        self.diagnostics = diagnostics
        self.linkTarget = linkTarget
    }

    /// `document` with Scrivener's anchors, links, inline notes and markers resolved, and comments and
    /// footnotes from the comments file added (unanchored ones at the end, with a warning).
    public mutating func resolve(_ document: Document) -> Document {
        var doc = document
        doc.blocks = doc.blocks.map { resolve($0) }
        var tail: [Inline] = []
        for id in commentOrder where !used.contains(id) {
            guard let c = comments[id] else { continue }
            used.insert(id)
            if c.isFootnote {
                outNotes.append(Note(id: id, blocks: c.body))
                tail.append(.noteReference(id))
            } else {
                outComments.append(Comment(id: id, body: c.body))
                tail.append(.commentPoint(id))
            }
            diagnostics.report(.scrivenerCommentUnanchored,
                               "a comment or footnote is anchored nowhere in the text; attached at the end")
        }
        if !tail.isEmpty {
            if case .paragraph(var p)? = doc.blocks.last {
                p.content += tail
                doc.blocks[doc.blocks.count - 1] = .paragraph(p)
            } else {
                doc.blocks.append(.paragraph(Paragraph(tail)))
            }
        }
        doc.comments += outComments
        doc.notes += outNotes
        return doc
    }

    private mutating func resolve(_ block: Block) -> Block {
        switch block {
        case .paragraph(var p):
            p.content = resolve(p.content)
            return .paragraph(p)
        case .heading(let l, var p):
            p.content = resolve(p.content)
            return .heading(level: l, p)
        default:
            var copy = self
            let out = block.mapBlockArrays { $0.map { copy.resolve($0) } }
            self = copy
            return out
        }
    }

    /// Resolves one paragraph's content. Paragraphs without anything of Scrivener's are returned as they are.
    mutating func resolve(_ content: [Inline]) -> [Inline] {
        guard needsWork(content) else { return content }
        var runs: [Run] = []
        for r in content.runs { runs += resolveLink(r) }
        runs = resolveMarkers(runs)
        return InlineBuilder.inlines(from: mergeAnchors(runs))
    }

    private func needsWork(_ content: [Inline]) -> Bool {
        var found = false
        let block = Block.paragraph(Paragraph(content))
        block.forEachInline { i in
            switch i {
            case .link(let l, _) where Self.scheme(of: l.url) != nil: found = true
            case .text(let s) where s.contains("Scrv_") || s.contains("$Scr"): found = true
            default: break
            }
        }
        return found
    }

    static func scheme(of url: String) -> String? {
        let lower = url.lowercased()
        if lower.hasPrefix("scrivcmt://") { return "scrivcmt" }
        if lower.hasPrefix("scrivlnk://") { return "scrivlnk" }
        return nil
    }

    // MARK: Links

    /// A run with a Scrivener link, with the link resolved: comment anchors are marked (start/end atoms are
    /// added around the whole linked span by `mergeAnchors`), internal links retargeted.
    private mutating func resolveLink(_ run: Run) -> [Run] {
        guard let link = run.link, let scheme = Self.scheme(of: link.url) else { return [run] }
        var r = run
        let target = String(link.url.dropFirst(scheme.count + 3)).removingPercentEncodingLoosely
        if scheme == "scrivlnk" {
            if let url = linkTarget(target) {
                r.link = Link(url: url, title: link.title)
            } else {
                r.link = nil
                diagnostics.report(.scrivenerLinkTargetMissing,
                                   "a link to another document points to an item that is not migrated; kept as text")
            }
            return [r]
        }
        // A comment anchor: keep the link as a marker until the span is complete.
        r.link = Link(url: "scrivcmt://" + target, title: link.title)
        return [r]
    }

    /// Replaces each span of runs linked to `scrivcmt://ID` by its text between comment anchors (a comment)
    /// or followed by a note reference (a footnote).
    private mutating func mergeAnchors(_ runs: [Run]) -> [Run] {
        var out: [Run] = []
        var i = 0
        while i < runs.count {
            guard let url = runs[i].link?.url, url.hasPrefix("scrivcmt://") else { out.append(runs[i]); i += 1; continue }
            var j = i + 1
            while j < runs.count && runs[j].link?.url == url { j += 1 }
            let id = String(url.dropFirst(11))
            var span = Array(runs[i..<j])
            for k in span.indices { span[k].link = nil }
            let change = span[0].change
            func atom(_ inline: Inline) -> Run { Run(.atom(inline), change: change) }
            if let c = comments[id] {
                if c.isFootnote {
                    out += span
                    if used.insert(id).inserted { outNotes.append(Note(id: id, blocks: c.body)) }
                    out.append(atom(.noteReference(id)))
                } else {
                    if used.insert(id).inserted { outComments.append(Comment(id: id, body: c.body)) }
                    out.append(atom(.commentStart(id)))
                    out += span
                    out.append(atom(.commentEnd(id)))
                }
            } else {
                diagnostics.report(.scrivenerCommentMissing,
                                   "a comment anchor names a comment that content.comments does not hold; kept as text")
                out += span
            }
            i = j
        }
        return out
    }

    // MARK: Inline annotations, inline footnotes, style markers

    private mutating func resolveMarkers(_ runs: [Run]) -> [Run] {
        // The paragraph's characters, each with the run it came from; non-text runs are one placeholder.
        var chars: [Character] = []
        var owner: [Int] = []
        for (k, r) in runs.enumerated() {
            if case .text(let s) = r.content {
                for c in s { chars.append(c); owner.append(k) }
            } else {
                chars.append("\u{FFFC}"); owner.append(k)
            }
        }
        guard chars.contains("$") || chars.contains("\\") else { return runs }

        var out: [Run] = []
        /// The runs for characters `a..<b`.
        func slice(_ a: Int, _ b: Int) -> [Run] {
            var result: [Run] = []
            var i = a
            while i < b {
                let k = owner[i]
                var j = i + 1
                while j < b && owner[j] == k { j += 1 }
                var r = runs[k]
                if case .text = r.content { r.content = .text(String(chars[i..<j])) }
                result.append(r)
                i = j
            }
            return result
        }
        func matches(_ s: String, at i: Int) -> Bool {
            var k = i
            for c in s {
                guard k < chars.count, chars[k] == c else { return false }
                k += 1
            }
            return true
        }
        func find(_ s: String, from i: Int) -> Int? {
            var k = i
            while k < chars.count {
                if matches(s, at: k) { return k }
                k += 1
            }
            return nil
        }
        func body(_ a: Int, _ b: Int) -> [Block] {
            let inner = resolveMarkers(slice(a, b))
            return [.paragraph(Paragraph(InlineBuilder.inlines(from: inner)))]
        }

        var start = 0
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "{", matches("{\\Scrv_fn=", at: i), let end = find("\\end_Scrv_fn", from: i + 10) {
                out += slice(start, i)
                inlineCount += 1
                let id = "\(idPrefix)-fn\(inlineCount)"
                outNotes.append(Note(id: id, blocks: body(i + 10, end)))
                out.append(Run(.atom(.noteReference(id)), change: runs[owner[i]].change))
                i = end + 12
                if i < chars.count && chars[i] == "}" { i += 1 }
                start = i
                continue
            }
            if c == "{", matches("{\\Scrv_annot", at: i), let end = find("\\end_Scrv_annot", from: i + 12) {
                out += slice(start, i)
                inlineCount += 1
                let id = "\(idPrefix)-an\(inlineCount)"
                let textAt = find("\\text=", from: i + 12).flatMap { $0 < end ? $0 + 6 : nil } ?? (i + 12)
                outComments.append(Comment(id: id, body: body(textAt, end)))
                out.append(Run(.atom(.commentPoint(id)), change: runs[owner[i]].change))
                i = end + 15
                if i < chars.count && chars[i] == "}" { i += 1 }
                start = i
                continue
            }
            if c == "<", matches("<$Scr", at: i) || matches("<!$Scr", at: i),
               let close = chars[i...].prefix(80).firstIndex(of: ">") {
                out += slice(start, i)
                i = close + 1
                start = i
                continue
            }
            i += 1
        }
        out += slice(start, chars.count)
        return out
    }
}

extension String {
    /// Percent-decoded when it is valid percent-encoding, else unchanged.
    var removingPercentEncodingLoosely: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var u = Array(utf8)[...]
        while let b = u.first {
            u = u.dropFirst()
            if b == 0x25, u.count >= 2, let v = UInt8(String(decoding: u.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v); u = u.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}

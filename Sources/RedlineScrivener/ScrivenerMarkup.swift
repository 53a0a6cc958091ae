import RedlineCore
import RedlineRTF

/// Finishes what the RTF reader leaves of Scrivener's own marks (the reader itself turns `scrivcmt://ID`
/// anchors into comments and footnotes and `scrivlnk://ID` links into the targets it is given):
/// - comments and footnotes of `content.comments` anchored nowhere are attached at the end, with a warning;
/// - `scrivlnk://` links left as they are (their target is not migrated) lose the link, keep the text;
/// - inline annotations `{\Scrv_annot … \text=…\end_Scrv_annot}` become point comments and inline footnotes
///   `{\Scrv_fn=…\end_Scrv_fn}` footnotes (they reach the text as literal characters);
/// - style markers such as `<$Scr_Ps::0>` and `<!$Scr_Ps::0>` are removed.
public struct ScrivenerMarkup {
    /// The comments and footnotes of the comments file, in file order.
    public var annotations: [(id: String, annotation: ScrivenerAnnotation)]
    /// A prefix for ids made up for inline annotations and footnotes (the item's id).
    public var idPrefix: String
    public let diagnostics: Diagnostics

    private var outComments: [Comment] = []
    private var outNotes: [Note] = []
    private var inlineCount = 0

    public init(annotations: [(id: String, annotation: ScrivenerAnnotation)] = [], idPrefix: String,
                diagnostics: Diagnostics) {
        self.annotations = annotations
        self.idPrefix = idPrefix
        self.diagnostics = diagnostics
    }

    /// `document` with inline notes, leftover links and markers resolved, and unanchored comments and
    /// footnotes attached at the end.
    public mutating func resolve(_ document: Document) -> Document {
        var doc = document
        doc.blocks = doc.blocks.map { resolve($0) }
        var anchored = Set<String>()
        for b in doc.blocks {
            b.forEachInline { i in
                switch i {
                case .commentStart(let id), .commentPoint(let id), .noteReference(let id): anchored.insert(id)
                default: break
                }
            }
        }
        var tail: [Inline] = []
        for (id, a) in annotations where !anchored.contains(id) {
            anchored.insert(id)
            switch a {
            case .footnote(var n):
                n.id = id
                outNotes.append(n)
                tail.append(.noteReference(id))
            case .comment(var c):
                c.id = id
                outComments.append(c)
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
        block.mapParagraphContent { resolve($0) }
    }

    /// Resolves one paragraph's content. Paragraphs without anything of Scrivener's are returned as they are.
    mutating func resolve(_ content: [Inline]) -> [Inline] {
        guard needsWork(content) else { return content }
        var runs = content.runs
        for k in runs.indices {
            if let url = runs[k].link?.url, url.lowercased().hasPrefix("scrivlnk://") {
                runs[k].link = nil
                diagnostics.report(.scrivenerLinkTargetMissing,
                                   "a link to another document points to an item that is not migrated; kept as text")
            }
        }
        return InlineBuilder.inlines(from: resolveMarkers(runs))
    }

    private func needsWork(_ content: [Inline]) -> Bool {
        var found = false
        Block.paragraph(Paragraph(content)).forEachInline { i in
            switch i {
            case .link(let l, _) where l.url.lowercased().hasPrefix("scrivlnk://"): found = true
            case .text(let s) where s.contains("Scrv_") || s.contains("$Scr"): found = true
            default: break
            }
        }
        return found
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


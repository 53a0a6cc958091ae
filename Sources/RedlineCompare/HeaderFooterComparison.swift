import RedlineCore

extension DocumentComparer {
    /// `result` (the comparison of `old` with `new`, carrying NEW's sections) with the header and footer stories
    /// of NEW's sections compared with OLD's by `compare` (a story's OLD blocks, its NEW blocks): the last section
    /// with the last, a section ending inside the body with OLD's section ending there in the same place in order.
    /// A story of one side only is compared with an empty one (inserted or deleted whole). Nothing is compared
    /// when OLD states no section at all (read from a format without pages, such as Markdown: NEW's headers and
    /// footers are not insertions) or NEW has none; a section of NEW with no OLD counterpart keeps its stories.
    static func comparingHeadersFooters(old: Document, new: Document, result: Document,
                                        compare: ([Block], [Block]) -> [Block]) -> Document {
        let oldInBody = old.sectionsInBody, newInBody = new.sectionsInBody
        guard old.finalSection != nil || !oldInBody.isEmpty, new.finalSection != nil || !newInBody.isEmpty else { return result }
        func compared(_ o: Section, _ n: Section) -> Section {
            var out = n
            out.headersFooters = n.headersFooters.map { story in
                let before = o.story(story.kind, story.which)?.blocks ?? []
                guard before != story.blocks else { return story }
                return HeaderFooter(kind: story.kind, which: story.which, blocks: compare(before, story.blocks))
            }
            for story in o.headersFooters where n.story(story.kind, story.which) == nil && !story.blocks.isEmpty {
                out.headersFooters.append(HeaderFooter(kind: story.kind, which: story.which, blocks: compare(story.blocks, [])))
            }
            return out
        }
        var doc = result
        if let n = new.finalSection, let o = old.finalSection { doc.finalSection = compared(o, n) }
        guard !newInBody.isEmpty, !oldInBody.isEmpty else { return doc }
        var k = 0
        func relaid(_ b: Block) -> Block {
            guard b.hasSectionEnd else { return b }
            func paragraph(_ p: Paragraph) -> Paragraph {
                guard let s = p.sectionEnd else { return p }
                defer { k += 1 }
                guard k < newInBody.count, k < oldInBody.count, s == newInBody[k] else { return p }
                var p = p
                p.sectionEnd = compared(oldInBody[k], s)
                return p
            }
            switch b {
            case .paragraph(let p): return .paragraph(paragraph(p))
            case .heading(let l, let p): return .heading(level: l, paragraph(p))
            default: return b.mapBlockArrays { $0.map(relaid) }
            }
        }
        doc.blocks = doc.blocks.map(relaid)
        return doc
    }
}

/// What an `ApplyPlan` does not carry: the header and footer stories of a document's sections.
extension ApplyPlan {
    /// How many header and footer stories (by section, header or footer, and pages shown on) read differently in
    /// EDITED than in ORIGINAL, changes accepted, whitespace runs as one space; a story only one of them has (or has text in) counts.
    /// 0 when EDITED holds no header or footer at all (a format without pages, such as Markdown, has none to edit).
    public static func changedHeaderFooterStories(original: Document, edited: Document) -> Int {
        let e = stories(edited)
        guard !e.isEmpty else { return 0 }
        let o = stories(original)
        return Set(o.keys).union(e.keys).filter { o[$0] != e[$0] }.count
    }

    private struct StoryKey: Hashable {
        var section: Int
        var kind: HeaderFooter.Kind
        var which: HeaderFooter.Which
    }

    /// Each section's header and footer texts, sections counted in reading order (the last the document's own).
    private static func stories(_ d: Document) -> [StoryKey: String] {
        var sections: [Section] = []
        func walk(_ b: Block) {
            if let s = b.paragraph?.sectionEnd { sections.append(s) }
            b.childBlocks.forEach(walk)
        }
        d.blocks.forEach(walk)
        if let s = d.finalSection { sections.append(s) }
        var out: [StoryKey: String] = [:]
        for (n, s) in sections.enumerated() {
            for story in s.headersFooters {
                var texts: [String] = []
                func leaves(_ b: Block) {
                    switch b {
                    case .paragraph, .heading, .codeBlock: texts.append(text(of: b, view: .accept))
                    default: b.childBlocks.forEach(leaves)
                    }
                }
                story.blocks.forEach(leaves)
                let words = texts.joined(separator: " ").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
                if !words.isEmpty { out[StoryKey(section: n, kind: story.kind, which: story.which)] = words.joined(separator: " ") }
            }
        }
        return out
    }
}

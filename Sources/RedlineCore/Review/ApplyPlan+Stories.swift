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
        var place: HeaderFooter.Place
    }

    /// Each section's header and footer texts, sections counted in reading order (the last the document's own).
    private static func stories(_ d: Document) -> [StoryKey: String] {
        var out: [StoryKey: String] = [:]
        for (n, s) in d.sections.enumerated() {
            for story in s.headersFooters {
                let text = collapsingSpace(leafTexts(of: Document(blocks: story.blocks)).joined(separator: " "))
                if !text.isEmpty { out[StoryKey(section: n, place: story.place)] = text }
            }
        }
        return out
    }
}

/// A document's header and footer stories: which EDITED changed (for an applier that writes the body only),
/// and the plans for them (`makeHeaderFooters`).
extension ApplyPlan {
    /// How many header and footer stories (by section, the last with the last, header or footer, and pages shown
    /// on) read differently in EDITED than in ORIGINAL, changes accepted, whitespace runs as one space; a story
    /// only one of them has (or has text in) counts. 0 when EDITED holds no header or footer at all (a format without pages, such as Markdown, has none to edit).
    public static func changedHeaderFooterStories(original: Document, edited: Document) -> Int {
        func texts(_ d: Document) -> [SectionPlace: String] {
            sectionsByPlace(d).stories.mapValues { collapsingSpace(leafTexts(of: Document(blocks: $0)).joined(separator: " ")) }
                .filter { !$0.value.isEmpty }
        }
        let e = texts(edited)
        guard !e.isEmpty else { return 0 }
        let o = texts(original)
        return Set(o.keys).union(e.keys).filter { o[$0] != e[$0] }.count
    }
}

/// The steps a plan writes into one of ORIGINAL's headers or footers.
public struct HeaderFooterPlan: Sendable {
    /// The section: its index among those ending inside the body, or nil for the document's last section.
    public var section: Int?
    public var place: HeaderFooter.Place
    /// The plan for the story: its leaves are the header's or footer's paragraphs.
    public var plan: ApplyPlan

    /// A header's or footer's plan.
    public init(section: Int?, place: HeaderFooter.Place, plan: ApplyPlan) {
        self.section = section
        self.place = place
        self.plan = plan
    }
}

extension ApplyPlan {
    /// The plans for ORIGINAL's headers and footers that `compared` changes inside, and how many of the
    /// comparison's changed stories have no story of ORIGINAL to go into (a header only EDITED has, or
    /// sections that do not pair: the two documents have not as many). Sections pair in order, the last with
    /// the last.
    public static func makeHeaderFooters(original: Document, compared: Document,
                                         fallback: Change) -> (plans: [HeaderFooterPlan], unplaced: Int) {
        let o = sectionsByPlace(original), c = sectionsByPlace(compared)
        var plans: [HeaderFooterPlan] = []
        var unplaced = 0
        for (key, story) in c.stories {
            guard Document(blocks: story).trackedChangeCount > 0 else { continue }  // (whatever a conversion made of its text)
            guard let os = o.stories[key], o.bodySections == c.bodySections else {
                unplaced += 1
                continue
            }
            let plan = make(original: Document(blocks: os), compared: Document(blocks: story), fallback: fallback)
            if !plan.isEmpty { plans.append(HeaderFooterPlan(section: key.section, place: key.place, plan: plan)) }
        }
        plans.sort { ($0.section ?? Int.max, $0.place.kind.rawValue, $0.place.which.rawValue)
            < ($1.section ?? Int.max, $1.place.kind.rawValue, $1.place.which.rawValue) }
        return (plans, unplaced)
    }

    /// The texts of the story at `section`/`place` of `document`, as `view` shows them; nil when it has none.
    public static func headerFooterTexts(of document: Document, section: Int?, place: HeaderFooter.Place,
                                         view: View) -> [String]? {
        sectionsByPlace(document).stories[SectionPlace(section: section, place: place)]
            .map { viewTexts(of: Document(blocks: $0), view: view) }
    }

    struct SectionPlace: Hashable {
        var section: Int?
        var place: HeaderFooter.Place
    }

    /// Each header and footer story of `d` by section (nil: the last) and place, and how many sections end
    /// inside the body.
    static func sectionsByPlace(_ d: Document) -> (stories: [SectionPlace: [Block]], bodySections: Int) {
        var out: [SectionPlace: [Block]] = [:]
        let body = d.sectionsInBody
        for (n, s) in body.enumerated() {
            for story in s.headersFooters where out[SectionPlace(section: n, place: story.place)] == nil {
                out[SectionPlace(section: n, place: story.place)] = story.blocks
            }
        }
        for story in d.finalSection?.headersFooters ?? [] where out[SectionPlace(section: nil, place: story.place)] == nil {
            out[SectionPlace(section: nil, place: story.place)] = story.blocks
        }
        return (out, body.count)
    }
}

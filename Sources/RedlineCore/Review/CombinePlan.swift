import Foundation
/// Several reviewers' plans on one ORIGINAL made into one (`redline combine`): every reviewer's change at its
/// place, identical changes once (the first reviewer's, counted for each), and where two reviewers changed
/// the same text differently a conflict: the preferred reviewer's change kept (`prefer`, else the one of the
/// copy named first), the other's written as a comment at that place, and the conflict listed.
public struct CombinedPlan: Sendable {
    /// The plan to write.
    public var plan: ApplyPlan
    /// Every overlap of two reviewers' changes, once.
    public var conflicts: [CombineConflict]
    /// What each reviewer changed, in the order of the copies.
    public var reviewers: [ReviewerCounts]
}

/// Two reviewers' changes to the same text.
public struct CombineConflict: Sendable, Codable, Hashable {
    /// ORIGINAL's paragraph (leaf) index, and its text there.
    public var paragraph: Int
    public var original: String
    /// The kept change's reviewer and text, and the other's.
    public var kept: String
    public var keptText: String
    public var other: String
    public var otherText: String

    /// How the comment recording the other reviewer's change begins (`redline changes` lists it as a conflict).
    public static let commentPrefix = "Conflict with "
}

/// Counts of one reviewer's changes.
public struct ReviewerCounts: Sendable, Codable, Hashable {
    public var name: String
    public var insertions = 0, deletions = 0, substitutions = 0, formatChanges = 0, comments = 0
    public var paragraphsInserted = 0, paragraphsDeleted = 0, paragraphsJoined = 0, conflicts = 0
    /// Paragraphs whose properties (kind, heading level, style) changed.
    public var paragraphsRestyled = 0
    /// Changes another reviewer had already made the same way (written once).
    public var duplicates = 0

    public init(name: String) { self.name = name }
}

extension ApplyPlan {
    /// `plans` (one per copy, all of the same ORIGINAL, named by `reviewers`) made into one.
    public static func combined(_ plans: [ApplyPlan], reviewers: [String], prefer: String? = nil) -> CombinedPlan {
        precondition(plans.count == reviewers.count)
        let plans = plans.enumerated().map { $1.renamingNewNotes("c\($0)-") }
        var result = combinedBody(plans, reviewers: reviewers, prefer: prefer)
        // Each note's and each header's or footer's plans combined as a story of its own; every copy's new notes.
        result.plan.notes = combinedStories(plans.map(\.notes), key: \.id, plan: \.plan, into: &result, reviewers: reviewers,
                                            prefer: prefer) { note, plan in NotePlan(id: note.id, kind: note.kind, plan: plan) }
        result.plan.newNotes = plans.flatMap(\.newNotes)
        result.plan.headerFooters = combinedStories(plans.map(\.headerFooters), key: { SectionPlace(section: $0.section, place: $0.place) },
                                                    plan: \.plan, into: &result, reviewers: reviewers, prefer: prefer) { story, plan in
            HeaderFooterPlan(section: story.section, place: story.place, plan: plan)
        }
        return result
    }

    /// The stories (notes, headers, footers) each copy's plan has (`stories[copy]`), those of one `key` combined
    /// (`combinedBody`) in the order first met, each made again by `make` from the first copy's and the combined
    /// plan; their conflicts and counts added to `result`'s.
    static func combinedStories<Story, Key: Hashable>(_ stories: [[Story]], key: (Story) -> Key, plan: (Story) -> ApplyPlan,
                                                     into result: inout CombinedPlan, reviewers: [String], prefer: String?,
                                                     make: (Story, ApplyPlan) -> Story) -> [Story] {
        var byKey: [Key: [(copy: Int, story: Story)]] = [:]
        var order: [Key] = []
        for (c, list) in stories.enumerated() {
            for s in list {
                let k = key(s)
                if byKey[k] == nil { order.append(k) }
                byKey[k, default: []].append((c, s))
            }
        }
        return order.map { k in
            let these = byKey[k]!
            let sub = combinedBody(these.map { plan($0.story) }, reviewers: these.map { reviewers[$0.copy] }, prefer: prefer)
            result.conflicts += sub.conflicts
            for (n, t) in these.enumerated() { result.reviewers[t.copy].add(sub.reviewers[n]) }
            return make(these[0].story, sub.plan)
        }
    }

    /// `combined` for one story (the body, a note, a header or footer): the plans' steps, their stories aside.
    static func combinedBody(_ plans: [ApplyPlan], reviewers: [String], prefer: String?) -> CombinedPlan {
        var counts = reviewers.map { ReviewerCounts(name: $0) }
        guard let leaves = plans.first?.leaves else {
            return CombinedPlan(plan: ApplyPlan(leaves: [], steps: [], comments: []), conflicts: [], reviewers: counts)
        }
        var edits = [[(copy: Int, edit: TextEdit)]](repeating: [], count: leaves.count)
        var deletes = [[(copy: Int, change: Change)]](repeating: [], count: leaves.count)
        var marks = [(copy: Int, change: Change)?](repeating: nil, count: leaves.count)
        var restyles = [[(copy: Int, step: ApplyStep, new: LeafProperties)]](repeating: [], count: leaves.count)
        var inserts: [Int: [(copy: Int, step: ApplyStep, blocks: [Block])]] = [:]  // after (-1: before the first)
        var comments: [Comment] = []
        for (c, plan) in plans.enumerated() {
            // Comment ids of different copies must not meet.
            func renamed(_ id: String) -> String { "r\(c)-" + id }
            for var m in plan.comments {
                m.id = renamed(m.id)
                m.parentID = m.parentID.map(renamed)
                comments.append(m)
            }
            for step in plan.steps {
                switch step {
                case .edit(let k, let es, let mark):
                    for var e in es {
                        if case .comment(let id) = e.kind { e.kind = .comment(id: renamed(id)) }
                        edits[k].append((c, e))
                    }
                    if let mark {
                        if marks[k] == nil { marks[k] = (c, mark); counts[c].paragraphsJoined += 1 } else { counts[c].duplicates += 1 }
                    }
                case .delete(let k, let change): deletes[k].append((c, change))
                case .restyle(let k, _, let new, _): restyles[k].append((c, step, new))
                case .insert(let after, let blocks, _, _, _): inserts[after ?? -1, default: []].append((c, step, blocks))
                }
            }
        }
        var conflicts: [CombineConflict] = []
        var nextComment = 0
        func conflictComment(_ loser: (copy: Int, edit: TextEdit), leaf: Int, at range: Range<Int>,
                             keptBy winner: Int, keptText: String) -> TextEdit {
            let old = slice(leaves[leaf].text, loser.edit.range)
            let new = text(of: loser.edit.inserted, view: .accept)
            let what = new.isEmpty ? "delete “\(old)”" : old.isEmpty ? "insert “\(new)”" : "replace “\(old)” with “\(new)”"
            nextComment += 1
            let id = "combine-\(nextComment)"
            comments.append(Comment(id: id, author: reviewers[loser.copy], date: loser.edit.change.date,
                                    body: [.paragraph(Paragraph([.text(CombineConflict.commentPrefix + "\(reviewers[winner]): proposed to \(what).")]))]))
            conflicts.append(CombineConflict(paragraph: leaf, original: old, kept: reviewers[winner], keptText: keptText,
                                             other: reviewers[loser.copy], otherText: new))
            counts[loser.copy].conflicts += 1
            counts[winner].conflicts += 1
            return TextEdit(kind: .comment(id: id), range: range, inserted: [], change: loser.edit.change)
        }
        func preferred(_ a: Int, _ b: Int) -> Int {
            if let p = prefer {
                if reviewers[a] == p { return a }
                if reviewers[b] == p { return b }
            }
            return min(a, b)
        }

        /// A reviewer's property change that lost: a comment on the whole paragraph.
        func styleConflictComment(_ loser: (copy: Int, step: ApplyStep, new: LeafProperties), leaf: Int, keptBy winner: Int,
                                  keptText: String) -> TextEdit {
            guard case .restyle(_, _, _, let change) = loser.step else { preconditionFailure("not a property step") }
            let what = describe(loser.new)
            nextComment += 1
            let id = "combine-\(nextComment)"
            comments.append(Comment(id: id, author: reviewers[loser.copy], date: change.date,
                                    body: [.paragraph(Paragraph([.text(CombineConflict.commentPrefix + "\(reviewers[winner]): proposed to make this paragraph \(what).")]))]))
            conflicts.append(CombineConflict(paragraph: leaf, original: leaves[leaf].text, kept: reviewers[winner], keptText: keptText,
                                             other: reviewers[loser.copy], otherText: what))
            counts[loser.copy].conflicts += 1
            counts[winner].conflicts += 1
            return TextEdit(kind: .comment(id: id), range: 0..<leaves[leaf].text.utf8.count, inserted: [], change: change)
        }

        var steps: [ApplyStep] = []
        func emitInserts(after key: Int) {
            var seen: [[Block]] = []
            for (c, step, blocks) in inserts[key] ?? [] {
                if seen.contains(blocks) { counts[c].duplicates += 1; continue }
                seen.append(blocks)
                counts[c].paragraphsInserted += 1
                steps.append(step)
            }
        }
        emitInserts(after: -1)
        for k in leaves.indices {
            var kept: [(copy: Int, edit: TextEdit)] = []
            var notes: [TextEdit] = []
            let changes = edits[k].filter { if case .comment = $0.edit.kind { return false }; return true }
            notes += edits[k].filter { if case .comment = $0.edit.kind { return true }; return false }.map(\.edit)
            if let del = deletes[k].first {
                for d in deletes[k].dropFirst() { counts[d.copy].duplicates += 1 }
                let editors = changes.filter { $0.copy != del.copy }
                let joiner = marks[k].flatMap { $0.copy == del.copy ? nil : $0 }
                let winner = (editors.map(\.copy) + (joiner.map { [$0.copy] } ?? [])).reduce(del.copy) { preferred($0, $1) }
                if winner == del.copy {
                    counts[del.copy].paragraphsDeleted += 1
                    let all = 0..<leaves[k].text.utf8.count
                    var losing = editors.map { conflictComment($0, leaf: k, at: all, keptBy: del.copy, keptText: "") }
                    for r in restyles[k] where r.copy != del.copy {
                        losing.append(styleConflictComment(r, leaf: k, keptBy: del.copy, keptText: ""))
                    }
                    if let j = joiner {
                        // Joining a paragraph another reviewer deletes: recorded like any losing change.
                        counts[j.copy].paragraphsJoined -= 1
                        nextComment += 1
                        comments.append(Comment(id: "combine-\(nextComment)", author: reviewers[j.copy], date: j.change.date,
                                                body: [.paragraph(Paragraph([.text(CombineConflict.commentPrefix + "\(reviewers[del.copy]): proposed to join this paragraph with the next.")]))]))
                        conflicts.append(CombineConflict(paragraph: k, original: leaves[k].text, kept: reviewers[del.copy],
                                                         keptText: "", other: reviewers[j.copy], otherText: leaves[k].text))
                        counts[j.copy].conflicts += 1
                        counts[del.copy].conflicts += 1
                        notes.append(TextEdit(kind: .comment(id: "combine-\(nextComment)"), range: all, inserted: [], change: j.change))
                    }
                    if losing.isEmpty && notes.isEmpty {
                        steps.append(.delete(leaf: k, change: del.change))
                    } else {
                        // The losers' comments need a place: the paragraph's text deleted with its mark, commented.
                        let gone = TextEdit(range: all, inserted: [], change: del.change)
                        let anchored = (losing + notes).sorted { $0.range.lowerBound < $1.range.lowerBound }
                        steps.append(.edit(leaf: k, edits: all.isEmpty ? anchored : [gone] + anchored, markDeleted: del.change))
                    }
                    emitInserts(after: k)
                    continue
                }
                // An editor is preferred: the deletion becomes a comment on the paragraph.
                nextComment += 1
                let id = "combine-\(nextComment)"
                comments.append(Comment(id: id, author: reviewers[del.copy], date: del.change.date,
                                        body: [.paragraph(Paragraph([.text(CombineConflict.commentPrefix + "\(reviewers[winner]): proposed to delete this paragraph.")]))]))
                conflicts.append(CombineConflict(paragraph: k, original: leaves[k].text, kept: reviewers[winner],
                                                 keptText: "", other: reviewers[del.copy], otherText: ""))
                counts[del.copy].conflicts += 1
                counts[winner].conflicts += 1
                notes.append(TextEdit(kind: .comment(id: id), range: 0..<leaves[k].text.utf8.count, inserted: [],
                                      change: del.change))
            }
            // Property changes: one reviewer's kept (the preferred, else the first), the same change by another
            // once, a different one a comment.
            var restyle: (copy: Int, step: ApplyStep, new: LeafProperties)?
            for r in restyles[k] {
                guard let held = restyle else { restyle = r; counts[r.copy].paragraphsRestyled += 1; continue }
                if held.new == r.new { counts[r.copy].duplicates += 1; continue }
                if preferred(held.copy, r.copy) == r.copy, r.copy != held.copy {
                    counts[held.copy].paragraphsRestyled -= 1
                    counts[r.copy].paragraphsRestyled += 1
                    restyle = r
                    notes.append(styleConflictComment(held, leaf: k, keptBy: r.copy, keptText: describe(r.new)))
                } else {
                    notes.append(styleConflictComment(r, leaf: k, keptBy: held.copy, keptText: describe(held.new)))
                }
            }
            if let r = restyle { steps.append(r.step) }
            for cand in changes.sorted(by: { ($0.edit.range.lowerBound, $0.copy) < ($1.edit.range.lowerBound, $1.copy) }) {
                guard let i = kept.firstIndex(where: { overlap($0.edit.range, cand.edit.range) }) else {
                    kept.append(cand)
                    count(cand, &counts)
                    continue
                }
                let other = kept[i]
                let same = other.edit.range == cand.edit.range
                    && text(of: other.edit.inserted, view: .accept) == text(of: cand.edit.inserted, view: .accept)
                if same { counts[cand.copy].duplicates += 1; continue }
                if other.edit.range.isEmpty, cand.edit.range.isEmpty {
                    // Two insertions at one place: both kept, in the order of the copies.
                    kept.append(cand)
                    count(cand, &counts)
                    conflicts.append(CombineConflict(paragraph: k, original: "", kept: reviewers[other.copy],
                                                     keptText: text(of: other.edit.inserted, view: .accept),
                                                     other: reviewers[cand.copy], otherText: text(of: cand.edit.inserted, view: .accept)))
                    counts[cand.copy].conflicts += 1
                    counts[other.copy].conflicts += 1
                    continue
                }
                let winner = preferred(other.copy, cand.copy)
                if winner == cand.copy, cand.copy != other.copy {
                    uncount(other, &counts)
                    kept[i] = cand
                    count(cand, &counts)
                    notes.append(conflictComment(other, leaf: k, at: cand.edit.range, keptBy: cand.copy,
                                                 keptText: text(of: cand.edit.inserted, view: .accept)))
                } else {
                    notes.append(conflictComment(cand, leaf: k, at: other.edit.range, keptBy: other.copy,
                                                 keptText: text(of: other.edit.inserted, view: .accept)))
                }
            }
            for n in notes {
                if case .comment(let id) = n.kind, id.hasPrefix("r"), let c = Int(id.dropFirst().prefix { $0 != "-" }) {
                    counts[c].comments += 1
                }
            }
            let all = (kept.map(\.edit) + notes).sorted {
                ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound)
            }
            if !all.isEmpty || marks[k] != nil { steps.append(.edit(leaf: k, edits: all, markDeleted: marks[k]?.change)) }
            emitInserts(after: k)
        }
        return CombinedPlan(plan: ApplyPlan(leaves: leaves, steps: steps, comments: comments), conflicts: conflicts,
                            reviewers: counts)
    }

    /// A paragraph's properties in words, for a conflict's comment ("a heading of level 2", "a paragraph in
    /// style Quote").
    static func describe(_ p: LeafProperties) -> String {
        var s = p.headingLevel > 0 ? "a heading of level \(p.headingLevel)" : "a paragraph"
        if let name = p.style.name, BlockStyleRole.headingLevel(styleName: name) == nil { s += " in style \(name)" }
        if let a = p.style.alignment { s += ", aligned \(a.rawValue)" }
        return s
    }

    /// Whether two edits touch the same text (an insertion meets a range it falls strictly inside, or
    /// another insertion at the same place).
    static func overlap(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if a.isEmpty && b.isEmpty { return a.lowerBound == b.lowerBound }
        if a.isEmpty { return b.lowerBound < a.lowerBound && a.lowerBound < b.upperBound }
        if b.isEmpty { return a.lowerBound < b.lowerBound && b.lowerBound < a.upperBound }
        return a.overlaps(b)
    }

    static func slice(_ s: String, _ r: Range<Int>) -> String {
        let u = Array(s.utf8)
        guard r.upperBound <= u.count else { return "" }
        return String(decoding: u[r], as: UTF8.self)
    }

    private static func count(_ e: (copy: Int, edit: TextEdit), _ counts: inout [ReviewerCounts], by d: Int = 1) {
        switch e.edit.kind {
        case .format: counts[e.copy].formatChanges += d
        case .comment: counts[e.copy].comments += d
        case .replace:
            if e.edit.range.isEmpty { counts[e.copy].insertions += d }
            else if e.edit.inserted.isEmpty { counts[e.copy].deletions += d }
            else { counts[e.copy].substitutions += d }
        }
    }

    private static func uncount(_ e: (copy: Int, edit: TextEdit), _ counts: inout [ReviewerCounts]) {
        count(e, &counts, by: -1)
    }
}

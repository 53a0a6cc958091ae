import RedlineCore

/// Whole blocks inserted or deleted: a story, paragraph, table, quote or list marked as a whole.
extension StoryComparer {
    /// A story marked wholly inserted or deleted: every paragraph's text, and every break but the last, or
    /// with `wholeContainer` (a list item or quote that comes or goes whole) every break, so resolving the
    /// marks empties the container and it goes (`ReviewTransform` removes emptied containers). An empty
    /// container (an empty list item `-`, a lone `>`) has no break to mark: it gets one empty paragraph whose
    /// break carries the mark (as Word marks an empty numbered paragraph), which Markdown writes `{--` blank
    /// line `--}` and DOCX and RTF as a paragraph mark change; review keeps a container that was empty to begin
    /// with, so unmarked it stayed on accepting its deletion (rejecting its insertion).
    mutating func markedStory(_ blocks: [Block], inserted: Bool, wholeContainer: Bool = false) -> [Block] {
        if wholeContainer && blocks.isEmpty {
            stats.paragraphMarkChanges += 1
            return [.paragraph(Paragraph([], markChange: inserted ? .inserted(change) : .deleted(change)))]
        }
        var out: [Block] = []
        for (n, b) in blocks.enumerated() {
            guard var m = marked(b, inserted: inserted) else { continue }
            if !wholeContainer && (n == blocks.count - 1 || blocks[n + 1].paragraph == nil) {
                switch m {
                case .paragraph(var p): if p.markChange != nil { stats.paragraphMarkChanges -= 1 }; p.markChange = nil; m = .paragraph(p)
                case .heading(let l, var p): if p.markChange != nil { stats.paragraphMarkChanges -= 1 }; p.markChange = nil; m = .heading(level: l, p)
                default: break
                }
            }
            out.append(m)
        }
        return out
    }

    /// A block marked wholly inserted or deleted; nil for a deleted block the model cannot mark.
    mutating func marked(_ b: Block, inserted: Bool) -> Block? {
        func markP(_ s: inout StoryComparer, _ p: Paragraph) -> Paragraph {
            var p = p
            var runs = p.content.runs
            var words = 0
            for k in runs.indices {
                if case .atom(let a) = runs[k].content {
                    switch a {
                    case .commentStart, .commentEnd, .commentPoint:
                        if !inserted { runs[k].content = .text("") }
                        continue
                    case .noteReference(let id):
                        if inserted { s.insertedNotes.append(id) } else {
                            s.deletedNotes.append((id, "old-" + id)); runs[k].content = .atom(.noteReference("old-" + id))
                        }
                    default: break
                    }
                }
                if case .text(let t) = runs[k].content {
                    var inWord = false
                    for ch in t { let w = Tokenizer.classify(ch) == .word; if w && !inWord { words += 1 }; inWord = w }
                }
                runs[k].change = inserted ? .insertion(s.change) : .deletion(s.change)
            }
            if inserted { s.stats.wordsInserted += words } else { s.stats.wordsDeleted += words }
            p.content = InlineBuilder.inlines(from: runs.filter { if case .text("") = $0.content { return false }; return true })
            if !p.content.isEmpty { if inserted { s.stats.insertions += 1 } else { s.stats.deletions += 1 } }
            p.markChange = inserted ? .inserted(s.change) : .deleted(s.change)
            s.stats.paragraphMarkChanges += 1
            return p
        }
        switch b {
        case .paragraph(let p): return .paragraph(markP(&self, p))
        case .heading(let l, let p): return .heading(level: l, markP(&self, p))
        case .table(var t):
            for r in t.rows.indices {
                for c in t.rows[r].cells.indices { t.rows[r].cells[c].blocks = markedStory(t.rows[r].cells[c].blocks, inserted: inserted) }
                t.rows[r].change = inserted ? .inserted(change) : .deleted(change)
                stats.rowChanges += 1
            }
            return .table(t)
        case .blockQuote(let c): return .blockQuote(markedStory(c, inserted: inserted, wholeContainer: true))
        case .list(var l):
            l.items = l.items.map { markedStory($0, inserted: inserted, wholeContainer: true) }
            return .list(l)
        case .codeBlock, .raw, .thematicBreak:
            diagnostics.report(.compareUntrackedBlock,
                               "an \(inserted ? "inserted" : "deleted") \(Self.kindName(b)) block cannot carry tracked changes: \(inserted ? "kept unmarked" : "left out")")
            return inserted ? b : nil
        }
    }
}

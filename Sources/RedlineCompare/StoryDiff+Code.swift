import RedlineCore

/// Code blocks: a code block has no place for a mark, so a changed one becomes what DOCX and RTF write a
/// code block as, one paragraph in the code style (`BlockStyleRole.codeName`) whose lines are joined by line
/// breaks, with the lines compared: a deleted line (and its break) a deletion, an inserted one an insertion.
/// Resolved, the paragraph holds plain lines again, which every reader takes back as a code block (DOCX and
/// RTF by its style; the Markdown writer writes it as a fence). The paragraph carries the block's info string
/// (`Paragraph.codeInfo`), so resolved it is the code block with its language again; a block whose info string
/// changed (no mark carries one) is OLD's block deleted and NEW's inserted, each paragraph with its own.
extension StoryComparer {
    /// A code block as the code-style paragraph DOCX and RTF write it as, carrying its info string.
    static func codeParagraph(_ c: CodeBlock) -> Paragraph {
        Paragraph(c.lineBrokenContent, style: ParagraphStyle(name: BlockStyleRole.codeName), codeInfo: c.infoString)
    }

    /// The lines of a code block (its text without the last line's "\n", cut at each "\n").
    static func codeLines(_ c: CodeBlock) -> [String] {
        var text = c.text
        if text.hasSuffix("\n") { text.removeLast() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Two paired code blocks compared line by line; whole, OLD's deleted and NEW's inserted, when their info
    /// strings differ.
    mutating func compareCode(_ a: CodeBlock, _ b: CodeBlock) -> [Block] {
        if a.infoString != b.infoString {
            return [marked(.codeBlock(a), inserted: false), marked(.codeBlock(b), inserted: true)].compactMap { $0 }
        }
        if a.text == b.text { return [.codeBlock(b)] }
        let old = Self.codeLines(a), new = Self.codeLines(b)
        let matches = SequenceDiff.matches(old.map { keys.key($0) }, new.map { keys.key($0) })
        // Each line comes after a break on its side unless it is that side's first: the break is equal when
        // both sides have begun, else it belongs to the side(s) whose line it precedes.
        var runs: [Run] = []
        var oldBegun = false, newBegun = false
        var lastKind: Op.Kind?
        func add(_ line: String, _ kind: Op.Kind, _ s: inout StoryComparer) {
            func mark(_ r: Run, _ k: Op.Kind) -> Run {
                var r = r
                if k == .insert { r.change = .insertion(s.change) } else if k == .delete { r.change = .deletion(s.change) }
                return r
            }
            let inOld = kind != .insert, inNew = kind != .delete
            let breakKind: Op.Kind?
            switch (inOld && oldBegun, inNew && newBegun) {
            case (true, true): breakKind = .equal
            case (true, false): breakKind = .delete
            case (false, true): breakKind = .insert
            case (false, false): breakKind = nil
            }
            if let k = breakKind {
                runs.append(mark(Run(.lineBreak), k))
                if k != .equal && k != lastKind { if k == .insert { s.stats.insertions += 1 } else { s.stats.deletions += 1 } }
                lastKind = k
            }
            if !line.isEmpty {
                runs.append(mark(Run(.text(line)), kind))
                if kind != .equal {
                    if kind != lastKind { if kind == .insert { s.stats.insertions += 1 } else { s.stats.deletions += 1 } }
                    var words = 0, inWord = false
                    for ch in line { let w = Tokenizer.classify(ch) == .word; if w && !inWord { words += 1 }; inWord = w }
                    if kind == .insert { s.stats.wordsInserted += words } else { s.stats.wordsDeleted += words }
                }
                lastKind = kind
            }
            if inOld { oldBegun = true }
            if inNew { newBegun = true }
        }
        var i = 0, j = 0
        for (mi, mj) in matches + [(old.count, new.count)] {
            while i < mi { add(old[i], .delete, &self); i += 1 }
            while j < mj { add(new[j], .insert, &self); j += 1 }
            if mi < old.count { add(new[mj], .equal, &self); i += 1; j += 1 }
        }
        var p = Self.codeParagraph(b)
        p.content = InlineBuilder.inlines(from: runs)
        return [.paragraph(p)]
    }
}

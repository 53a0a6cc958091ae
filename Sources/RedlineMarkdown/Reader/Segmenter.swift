/// Cuts scanned Markdown into top-level block groups that cmark can parse one at a time (so memory stays
/// bounded on long documents), and finds what must be shared across groups: link reference definitions
/// and footnote definitions.
///
/// A cut is made before a line that starts at column 0 after a blank line, outside fenced code and HTML blocks
/// (`VerbatimLines`, as the CriticMarkup pre-pass sees them), unless it is a list marker while a list or quote
/// may go on: such a line always starts a new top-level block. (A list item after a blank line may continue a
/// loose list; after any other block it starts a new list, so a document of many small lists and other blocks
/// is still cut.) A heading, fenced code or an HTML block at column 0 is a cut even without a blank line.
struct Segmenter {
    /// The main flow, as consecutive byte ranges (footnote definitions left out).
    private(set) var segments: [Range<Int>] = []
    /// Footnote definitions by label, in the order they appear.
    private(set) var footnotes: [(label: String, range: Range<Int>)] = []
    /// Lines that may start a link reference definition (`[label]:` at a paragraph's start), in order: the
    /// normalized label, the label as written, and the line with the rest of its paragraph (a few lines at
    /// most). Whether each is one, and what it defines, only cmark can say (`ReaderState.linkDefinitions`).
    private(set) var linkCandidates: [(key: String, label: String, text: [UInt8], after: Int?)] = []
    /// Lines (1-based, in the scanned text) the pre-pass took as fenced code or an HTML block, as runs: a block
    /// cmark reads there anyway (a fence indented too far to be one) was read without CriticMarkup or spans.
    private(set) var verbatimRuns: [ClosedRange<Int>] = []
    /// Line number (1-based, in the scanned text) where each segment starts.
    private(set) var segmentLines: [Int] = []
    private(set) var footnoteLines: [Int] = []

    init(_ text: [UInt8]) {
        var lineStart = 0
        var lineNo = 1
        var previousBlank = true
        var previousHeading = false
        var verbatim = VerbatimLines()
        var current = 0
        var currentLine = 1
        var currentIsFootnote: String?
        // Candidates still taking the lines of their paragraph.
        var openCandidates: [(index: Int, lines: Int, taken: Int)] = []

        func close(at end: Int) {
            guard end > current else { return }
            if let label = currentIsFootnote {
                footnotes.append((label, current..<end))
                footnoteLines.append(currentLine)
            } else {
                segments.append(current..<end)
                segmentLines.append(currentLine)
            }
        }

        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let next = min(lineEnd + 1, text.count)
            let line = text[lineStart..<lineEnd]
            let indent = line.prefix { $0 == UInt8(ascii: " ") }.count
            let listMayGoOn = verbatim.inContainer
            let kind = verbatim.next(line)
            if kind == .verbatim || kind == .opensVerbatim {
                if let last = verbatimRuns.last, last.upperBound == lineNo - 1 {
                    verbatimRuns[verbatimRuns.count - 1] = last.lowerBound...lineNo
                } else {
                    verbatimRuns.append(lineNo...lineNo)
                }
            }

            if kind == .text || kind == .opensVerbatim {
                let footnote = kind == .text && indent == 0 ? Segmenter.footnoteLabel(line) : nil
                // After a blank line a note goes on only with lines indented four or more (pandoc's rule): ` - a`
                // is a list of the main flow, not of the note.
                let endsNote = currentIsFootnote != nil && indent < 4
                if (previousBlank && (indent == 0 || endsNote) && (currentIsFootnote != nil || !listMayGoOn || !Segmenter.isListMarkerLine(line)))
                    || footnote != nil || Segmenter.alwaysStartsBlock(line, kind) {
                    close(at: lineStart)
                    current = lineStart
                    currentLine = lineNo
                    currentIsFootnote = footnote
                }
            }
            // A definition starts a paragraph or follows another one (or a heading line).
            let mayStartDefinition = previousBlank || !openCandidates.isEmpty || previousHeading
            if kind == .text {
                let body = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ">") }
                // (Its own line whole, however long; the lines after it within a bound, so every line is
                // copied a bounded number of times.)
                openCandidates.removeAll { $0.lines >= Self.candidateLines || $0.taken + body.count > Self.candidateBytes }
                for k in openCandidates.indices {
                    linkCandidates[openCandidates[k].index].text += [UInt8(ascii: "\n")] + body
                    openCandidates[k].lines += 1
                    openCandidates[k].taken += body.count + 1
                }
                if mayStartDefinition, indent < 4, c0(line.dropFirst(indent)) == UInt8(ascii: "["),
                   let (key, def) = Segmenter.linkDefinition(line.dropFirst(indent)) {
                    // A line after another candidate is a definition only if that one was (`after`: whose text,
                    // holding this line, is probed for it).
                    let after = previousBlank || previousHeading ? nil : openCandidates.last?.index
                    openCandidates.append((linkCandidates.count, 1, 0))
                    linkCandidates.append((key, Segmenter.writtenLabel(def), Array(def), after))
                }
            } else {
                openCandidates.removeAll()
            }
            previousHeading = kind == .text && indent < 4 && line.dropFirst(indent).first == UInt8(ascii: "#")
            previousBlank = kind == .blank
            lineStart = next
            lineNo += 1
        }
        close(at: text.count)
    }

    private func c0(_ s: ArraySlice<UInt8>) -> UInt8? { s.first }

    /// Whether any of `lines` was taken as verbatim by the pre-pass (`verbatimRuns`).
    func touchesVerbatim(_ lines: ClosedRange<Int>) -> Bool { Self.touches(verbatimRuns, lines) }

    /// Whether any of `runs` (in order, apart) has a line in `lines`.
    static func touches(_ runs: [ClosedRange<Int>], _ lines: ClosedRange<Int>) -> Bool {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].upperBound < lines.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        return lo < runs.count && runs[lo].lowerBound <= lines.upperBound
    }

    /// The definition candidates, handed over once (their text is not kept beside the reader's).
    mutating func takeLinkCandidates() -> [(key: String, label: String, text: [UInt8], after: Int?)] {
        defer { linkCandidates = [] }
        return linkCandidates
    }

    /// How much of its paragraph a definition candidate takes: a destination and a title fit in a few lines.
    static let candidateLines = 6
    static let candidateBytes = 4_096

    /// A line at column 0 that starts a new top-level block even without a blank line before it: an ATX
    /// heading, or fenced code or an HTML block opening there (each interrupts a paragraph and ends lists and
    /// quotes). A document without blank lines (`# h` then its paragraph, again and again) is cut there.
    static func alwaysStartsBlock(_ line: ArraySlice<UInt8>, _ kind: VerbatimLines.Line) -> Bool {
        switch kind {
        case .opensVerbatim: return [UInt8(ascii: "`"), UInt8(ascii: "~"), UInt8(ascii: "<")].contains(line.first ?? 0)
        case .text: return VerbatimLines.startsTopLevelBlock(line)
        case .verbatim, .blank: return false
        }
    }

    static func contains(_ s: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard s.count >= n.count else { return false }
        var k = s.startIndex
        while k + n.count <= s.endIndex {
            if s[k] == n[0], s[k..<(k + n.count)].elementsEqual(n) { return true }
            k += 1
        }
        return false
    }

    /// Where a line's content starts after container markers: spaces, `>` and list markers.
    static func afterContainerMarkers(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index {
        var k = line.startIndex
        while k < line.endIndex {
            let c = line[k]
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: ">") { k += 1; continue }
            if isListMarkerLine(line[k...]), !line[k...].allSatisfy({ $0 != UInt8(ascii: " ") }) {
                while k < line.endIndex, line[k] != UInt8(ascii: " ") { k += 1 }
                continue
            }
            break
        }
        return k
    }

    /// A fence line (three or more backticks or tildes after container markers): its character and length.
    static func fence(_ line: ArraySlice<UInt8>) -> (char: UInt8, length: Int)? {
        let body = line[afterContainerMarkers(line)...]
        guard let c = body.first, c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        let n = body.prefix { $0 == c }.count
        guard n >= 3 else { return nil }
        if c == UInt8(ascii: "`"), body.dropFirst(n).contains(UInt8(ascii: "`")) { return nil }
        return (c, n)
    }

    /// True when the line closes a fence opened with `f`.
    static func closes(_ line: ArraySlice<UInt8>, _ f: (char: UInt8, length: Int)) -> Bool {
        let body = line[afterContainerMarkers(line)...]
        let n = body.prefix { $0 == f.char }.count
        return n >= f.length && body.dropFirst(n).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// `- `, `* `, `+ `, `1. `, `1) ` (or the marker alone) at the start of a line.
    static func isListMarkerLine(_ line: ArraySlice<UInt8>) -> Bool {
        guard let c = line.first else { return false }
        let rest = line.dropFirst()
        func spaceOrEnd(_ s: ArraySlice<UInt8>) -> Bool { s.isEmpty || s.first == UInt8(ascii: " ") || s.first == UInt8(ascii: "\t") }
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+") { return spaceOrEnd(rest) }
        let digits = line.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        guard digits > 0, digits <= 9, line.count > digits else { return false }
        let d = line[line.startIndex + digits]
        return (d == UInt8(ascii: ".") || d == UInt8(ascii: ")")) && spaceOrEnd(line.dropFirst(digits + 1))
    }

    /// The label of a footnote definition line `[^label]: ...`.
    static func footnoteLabel(_ line: ArraySlice<UInt8>) -> String? {
        guard line.starts(with: [UInt8(ascii: "["), UInt8(ascii: "^")]) else { return nil }
        guard let close = line.firstIndex(of: UInt8(ascii: "]")), close > line.startIndex + 2,
              close + 1 < line.endIndex, line[close + 1] == UInt8(ascii: ":") else { return nil }
        return String(decoding: line[(line.startIndex + 2)..<close], as: UTF8.self)
    }

    /// A link reference definition line `[label]: destination ...`: its normalized label and the line.
    static func linkDefinition(_ body: ArraySlice<UInt8>) -> (String, ArraySlice<UInt8>)? {
        guard body.count > 3, body[body.startIndex + 1] != UInt8(ascii: "^") else { return nil }
        var k = body.startIndex + 1
        while k < body.endIndex, body[k] != UInt8(ascii: "]") {
            if body[k] == UInt8(ascii: "\\") { k += 1 }
            k += 1
        }
        guard k + 1 < body.endIndex, body[k + 1] == UInt8(ascii: ":") else { return nil }
        let label = normalizeLabel(body[(body.startIndex + 1)..<k])
        return label.isEmpty ? nil : (label, body)
    }

    /// The label of a definition line as written, between its brackets.
    static func writtenLabel(_ def: ArraySlice<UInt8>) -> String {
        var k = def.startIndex + 1
        while k < def.endIndex, def[k] != UInt8(ascii: "]") {
            if def[k] == UInt8(ascii: "\\") { k += 1 }
            k += 1
        }
        return String(decoding: def[(def.startIndex + 1)..<min(k, def.endIndex)], as: UTF8.self)
    }

    /// Case-folded label with runs of whitespace collapsed, as CommonMark matches them.
    static func normalizeLabel(_ s: ArraySlice<UInt8>) -> String {
        String(decoding: s, as: UTF8.self).lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            .joined(separator: " ")
    }
}

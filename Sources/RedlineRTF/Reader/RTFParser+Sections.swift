import RedlineCore

/// The page as the RTF reader meets it: the document's page words (`\paperw`, `\margl`..., `\landscape`),
/// the current section's words and header and footer stories, and the section a `\sect` ends, waiting for
/// its paragraph. RTF states a section's properties anywhere in it (Word writes them after `\sectd` at its
/// start); the reader takes those in effect at its `\sect` (or, for the last section, at the end).
struct RTFSections {
    /// The document's page (`\paperw`...): what a section that does not state its own has.
    var document = Section()
    var documentStated = false
    /// The current section.
    var current = Section()
    /// Some section word or header or footer was met since the last `\sect`.
    var stated = false
    /// The section a `\sect` ended, for the paragraph it ends.
    var pendingEnd: Section?

    /// The current section with what it leaves unstated taken from the document's page.
    var effective: Section {
        var s = current
        let d = document
        s.pageWidth = s.pageWidth ?? d.pageWidth
        s.pageHeight = s.pageHeight ?? d.pageHeight
        s.orientation = s.orientation ?? d.orientation
        var m = s.margins
        m.top = m.top ?? d.margins.top; m.bottom = m.bottom ?? d.margins.bottom
        m.left = m.left ?? d.margins.left; m.right = m.right ?? d.margins.right
        m.gutter = m.gutter ?? d.margins.gutter
        s.margins = m
        return s
    }

    /// The document's last section: nil when neither it nor the document states anything.
    var finalSection: Section? { stated || documentStated ? effective : nil }

    /// A header or footer read: it replaces one of the same kind and pages.
    mutating func add(_ story: HeaderFooter) {
        stated = true
        current.headersFooters.removeAll { $0.kind == story.kind && $0.which == story.which }
        current.headersFooters.append(story)
    }
}

extension RTFParser {
    /// A section or document page word.
    func sectionWord(_ w: RTFKeyword.SectionWord, _ p: Int?) {
        func points(_ v: Int?) -> Double? { v.map { Double($0) / 20 } }
        let on = p != 0
        var s = sections.current
        switch w {
        case .sectd: s = Section()
        case .sbknone: s.breakKind = .continuous
        case .sbkcol: s.breakKind = .nextColumn
        case .sbkpage: s.breakKind = .nextPage
        case .sbkeven: s.breakKind = .evenPage
        case .sbkodd: s.breakKind = .oddPage
        case .pgwsxn: s.pageWidth = points(p)
        case .pghsxn: s.pageHeight = points(p)
        case .lndscpsxn: s.orientation = on ? .landscape : nil
        case .marglsxn: s.margins.left = points(p)
        case .margrsxn: s.margins.right = points(p)
        case .margtsxn: s.margins.top = points(p)
        case .margbsxn: s.margins.bottom = points(p)
        case .headery: s.margins.header = points(p)
        case .footery: s.margins.footer = points(p)
        case .guttersxn: s.margins.gutter = points(p)
        case .cols: s.columns = p
        case .colsx: s.columnSpacing = points(p)
        case .linemod:
            if let n = p, n > 0 {
                var l = s.lineNumbering ?? Section.LineNumbering()
                l.countBy = n
                s.lineNumbering = l
            } else {
                s.lineNumbering = nil
            }
        case .linex: s.lineNumbering?.distance = points(p)
        case .linestarts: s.lineNumbering?.start = p
        case .linerestart: s.lineNumbering?.restart = .newSection
        case .lineppage: s.lineNumbering?.restart = .newPage
        case .linecont: s.lineNumbering?.restart = .continuous
        case .titlepg: s.titlePage = on
        case .paperw, .paperh, .margl, .margr, .margt, .margb, .gutter, .landscape:
            documentWord(w, p)
            return
        case .facingp:
            header.evenAndOddHeaders = on
            return
        }
        sections.current = s
        sections.stated = true
    }

    /// The document's page words.
    private func documentWord(_ w: RTFKeyword.SectionWord, _ p: Int?) {
        let v = p.map { Double($0) / 20 }
        switch w {
        case .paperw: sections.document.pageWidth = v
        case .paperh: sections.document.pageHeight = v
        case .margl: sections.document.margins.left = v
        case .margr: sections.document.margins.right = v
        case .margt: sections.document.margins.top = v
        case .margb: sections.document.margins.bottom = v
        case .gutter: sections.document.margins.gutter = v
        case .landscape: sections.document.orientation = p == 0 ? nil : .landscape
        default: return
        }
        sections.documentStated = true
    }

    /// `{\header…}`, `{\footer…}`: a story of its own, added to the current section when its group ends.
    func startHeaderFooter(_ kind: HeaderFooter.Kind, _ which: HeaderFooter.Which) {
        flushRun(state.story)
        stories.append(Story(kind: .headerFooter(kind, which)))
        state.story = stories.count - 1
        state.ownsStory = true
        state.dest = .body
        state.field = -1
    }

    /// `\sect`: the section ends with the paragraph being read (Word writes `\sect` for its mark), or with
    /// the last one read (a `\sect` after `\par`).
    func sectionBreak() {
        guard state.dest == .body, state.story == 0 else {
            if hasPendingContent { paragraphEnd() }
            return
        }
        let section = sections.effective
        sections.stated = false
        if hasPendingContent {
            sections.pendingEnd = section
            paragraphEnd()
            guard let left = sections.pendingEnd else { return }  // taken by the paragraph
            sections.pendingEnd = nil
            attachSectionEnd(left)
        } else {
            attachSectionEnd(section)
        }
    }

    /// Puts `section` on the last paragraph read in the body: open tables, lists and quotes are closed
    /// first (the break ends them); with no paragraph to carry it, an empty one is added.
    private func attachSectionEnd(_ section: Section) {
        closeTables(story: 0, to: 0)
        stories[0].collector.close()
        drain(story: 0)
        if out.attachSectionEnd(section) { return }
        bodyStarted = true
        out.emit(.paragraph(Paragraph([], sectionEnd: section)))
    }
}

import Foundation
import RedlineCore
import RedlineCompare

/// Writes an `ApplyPlan` into ORIGINAL's own file: every byte the plan does not name copied, each step in
/// the format's own change syntax (CriticMarkup in Markdown, `w:ins`/`w:del` in DOCX,
/// `\revised`/`\deleted` in RTF).
public protocol EditApplier: Sendable {
    /// Writes `original` with `plan` into `output`: the changes marked, or applied when `accept`.
    func apply(_ plan: ApplyPlan, original: DocumentInput, accept: Bool, limits: Limits, diagnostics: Diagnostics,
               into output: any ByteOutput) throws
    /// Reads what `apply` needs of `original` whatever the plan is (while the plan is being made), and returns
    /// the function that then writes a plan as `apply` would. By default nothing is read ahead.
    func prepare(original: DocumentInput, limits: Limits) throws -> PreparedApply
    /// Whether `apply` writes a plan's notes, headers and footers (`ApplyPlan.notes`, `newNotes`,
    /// `headerFooters`); false: the body only.
    var writesStories: Bool { get }
    /// Whether `apply` writes the notes inserted references bring (`ApplyPlan.newNotes`).
    var writesNewNotes: Bool { get }
}

/// An applier with ORIGINAL read ahead (`EditApplier.prepare`): writes `plan` into `output`, marked or
/// (`accept`) applied.
public typealias PreparedApply = (_ plan: ApplyPlan, _ accept: Bool, _ diagnostics: Diagnostics,
                                  _ output: any ByteOutput) throws -> Void

extension EditApplier {
    public var writesStories: Bool { false }
    public var writesNewNotes: Bool { writesStories }

    public func prepare(original: DocumentInput, limits: Limits) throws -> PreparedApply {
        { plan, accept, diagnostics, output in
            try apply(plan, original: original, accept: accept, limits: limits, diagnostics: diagnostics, into: output)
        }
    }
}

/// How `redline apply` runs.
public struct ApplyOptions: Sendable {
    /// EDITED's format, or nil to tell it from the extension.
    public var editedFormat: Format?
    /// ORIGINAL's format, or nil to tell it from the extension.
    public var originalFormat: Format?
    /// Author and date of the changes EDITED did not track, and the comparison's switches.
    public var compare: CompareOptions
    public var read: ReadOptions
    /// Write the result with every change applied instead of marked.
    public var accept: Bool
    /// Apply even when EDITED has almost nothing in common with ORIGINAL.
    public var force: Bool
    /// Attribute EDITED's untracked edits to whoever last saved EDITED, where its format records it (DOCX's
    /// last-modified-by), rather than to `compare.author` (`redline apply` without `--author`).
    public var authorFromEdited = false

    public init(editedFormat: Format? = nil, originalFormat: Format? = nil, compare: CompareOptions = CompareOptions(),
                read: ReadOptions = ReadOptions(), accept: Bool = false, force: Bool = false) {
        self.editedFormat = editedFormat
        self.originalFormat = originalFormat
        self.compare = compare
        self.read = read
        self.accept = accept
        self.force = force
    }
}

/// What one apply wrote.
public struct ApplyStats: Sendable, Codable, Hashable {
    /// Paragraphs (leaves) of ORIGINAL changed inside, deleted, and new blocks inserted.
    public var edited = 0, deleted = 0, inserted = 0
    /// Paragraphs of ORIGINAL whose properties (kind, heading level, style) changed.
    public var restyled = 0
    /// Changes inside paragraphs: replacements, formatting changes, comments.
    public var replacements = 0, formatChanges = 0, comments = 0
    /// EDITED's own tracked changes carried with their authors (true) or re-made by comparison.
    public var keptTrackedChanges = false
    /// The share of ORIGINAL's text kept, 0...1.
    public var kept = 1.0

    public init() {}
}

/// `redline apply EDITED --onto ORIGINAL`: EDITED's differences from ORIGINAL written into ORIGINAL's own file.
public enum Application {
    /// The least share of ORIGINAL's text EDITED must keep to be taken for a version of it (without `force`).
    public static let minimumKept = 0.2

    /// Applies `edited` onto `original`, writing the result into `output`.
    public static func apply(edited: String, onto original: String, options: ApplyOptions, into output: any ByteOutput,
                             diagnostics: Diagnostics) throws -> ApplyStats {
        let (plan, stats, compared, prepared, readAhead) = try prepare(edited: edited, onto: original, options: options,
                                                                       readAhead: true, diagnostics: diagnostics)
        let format = prepared.format
        try LargeStack.run {
            let buffer = MemoryOutput()
            do {
                // What the result read back must have (EDITED's accepted text, ORIGINAL's rejected text), worked
                // out on a second thread while the applier writes.
                let check = format.inPlaceReviewer != nil && !plan.isEmpty
                let ((expected, originalRejected, stories), _) = try StackThread.both({
                    check ? (bare(ApplyPlan.viewTexts(of: compared, view: .accept)), prepared.rejectedText(),
                             StoriesCheck(plan: plan, compared: compared, original: prepared.document)) : ([], [], nil)
                }, {
                    if plan.isEmpty {
                        // ORIGINAL as it is (what it holds is not read: a package the applier could not write
                        // into is still given back).
                        try format.applier!.apply(plan, original: .file(original), accept: options.accept,
                                                  limits: options.read.limits, diagnostics: diagnostics, into: buffer)
                    } else {
                        try readAhead!.get()(plan, options.accept, diagnostics, buffer)
                    }
                })
                try verify(buffer.bytes, format: format, plan: plan, expected: expected, originalRejected: originalRejected,
                           stories: stories,
                           accepted: options.accept, limits: options.read.limits)
            } catch let e as RedlineError where !e.message.hasPrefix(original) {
                throw RedlineError(e.kind, "\(original): \(e.message)")
            }
            try output.write(bytes: buffer.bytes)
            try output.flush()
            StackThread.release((plan, compared, prepared))
        }
        return stats
    }

    /// Applies `edited` onto `original` into the file at `path`, written whole or not at all (`path` may be
    /// `original` itself: the in-place case).
    public static func apply(edited: String, onto original: String, options: ApplyOptions, toFile path: String,
                             diagnostics: Diagnostics) throws -> ApplyStats {
        var stats = ApplyStats()
        let protected = path == original ? [edited] : [edited, original]
        try AtomicFile.write(to: path, protecting: protected) { out in
            stats = try apply(edited: edited, onto: original, options: options, into: out, diagnostics: diagnostics)
        }
        return stats
    }

    /// The plan for applying `edited` onto `original`, ORIGINAL's format and the counts.
    public static func plan(edited: String, onto original: String, options: ApplyOptions,
                            diagnostics: Diagnostics) throws -> (ApplyPlan, Format, ApplyStats) {
        let (p, s, _, prepared, _) = try prepare(edited: edited, onto: original, options: options, readAhead: false,
                                                 diagnostics: diagnostics)
        return (p, prepared.format, s)
    }

    /// The written result read back: its reject view must have ORIGINAL's text and its accept view EDITED's,
    /// paragraph by paragraph (spacing aside); otherwise nothing is written. A net under every applier.
    /// ORIGINAL's own tracked changes are rejected with the new ones: a reviewed ORIGINAL's reject view is
    /// `originalRejected`. `expected` (EDITED's accepted text) is not checked when nil (a combination). Both
    /// are `bare` texts.
    static func verify(_ bytes: [UInt8], format: Format, plan: ApplyPlan, expected: [UInt8]?, originalRejected: [UInt8],
                       stories: StoriesCheck? = nil, accepted: Bool,
                       limits: Limits) throws {
        // Markdown's guarantee is textual (CriticMarkup around code and tables is not in the model): its tests
        // check it. Package formats are read back.
        guard format.inPlaceReviewer != nil, !plan.isEmpty else { return }
        var read = ReadOptions()
        read.limits = limits
        let doc = try Converter.read(.bytes(bytes), format: format, options: read, diagnostics: Diagnostics())
        let (rejected, acceptedText) = try StackThread.both({ bare(ApplyPlan.viewTexts(of: doc, view: .reject)) },
                                                            { expected == nil ? [] : bare(ApplyPlan.viewTexts(of: doc, view: .accept)) })
        if !accepted, rejected != originalRejected, rejected != bare(plan.leaves.map(\.text)) {
            throw RedlineError(.unsupportedInput, "the changes could not be placed exactly in this file (rejecting them would not give it back); nothing written: `redline compare` makes a new file instead")
        }
        if let expected, acceptedText != expected {
            throw RedlineError(.unsupportedInput, "the changes could not be placed exactly in this file (accepting them would not give EDITED's text); nothing written: `redline compare` makes a new file instead")
        }
        if let stories {
            if !accepted, !stories.originalTexts.contains(bare(stories.texts(doc, .reject))) {
                throw RedlineError(.unsupportedInput, "the changes to notes, headers or footers could not be placed exactly in this file (rejecting them would not give ORIGINAL's back); nothing written")
            }
            if let expected = stories.expected, bare(stories.texts(doc, .accept)) != expected {
                throw RedlineError(.unsupportedInput, "the changes to notes, headers or footers could not be placed exactly in this file (accepting them would not give EDITED's); nothing written")
            }
        }
        StackThread.release(doc)
    }

    /// What a result's notes, headers and footers must read as where a plan writes into them: EDITED's accepted,
    /// ORIGINAL's rejected (or, ORIGINAL's own changes kept, accepted). Notes are found by the position of their
    /// reference (the result's accept view refers to notes as the comparison's does, its reject view as
    /// ORIGINAL's), headers and footers by section and place. Nil when the plan writes none.
    struct StoriesCheck: Sendable {
        /// EDITED's stories accepted; nil: not checked (a combination).
        var expected: [UInt8]? = nil
        var originalTexts: [[UInt8]] = []
        /// The headers and footers the plan writes.
        var places: [(section: Int?, place: HeaderFooter.Place)]
        /// Where the notes the plan writes are referred to, in each view.
        var acceptPositions: [Int] = [], rejectPositions: [Int] = []

        init?(plan: ApplyPlan, compared: Document?, original: Document) {
            guard !plan.notes.isEmpty || !plan.newNotes.isEmpty || !plan.headerFooters.isEmpty else { return nil }
            places = plan.headerFooters.map { ($0.section, $0.place) }
            let written = Set(plan.notes.map(\.id))
            rejectPositions = ApplyPlan.notePositions(of: original, view: .reject) { written.contains($0) }
            if let compared {
                let ids = Set(plan.notes.compactMap(\.comparedID) + plan.newNotes.map(\.id))
                acceptPositions = ApplyPlan.notePositions(of: compared, view: .accept) { ids.contains($0) }
                expected = bare(texts(compared, .accept))
            }
            originalTexts = [bare(texts(original, .reject)),
                             bare(ApplyPlan.noteTexts(of: original, view: .accept, positions: rejectPositions)
                                  + headerFooterTexts(original, .accept))]
        }

        /// The notes' texts, then each written header's and footer's.
        func texts(_ d: Document, _ view: ApplyPlan.View) -> [String] {
            ApplyPlan.noteTexts(of: d, view: view, positions: view == .accept ? acceptPositions : rejectPositions)
                + headerFooterTexts(d, view)
        }

        func headerFooterTexts(_ d: Document, _ view: ApplyPlan.View) -> [String] {
            places.flatMap { ApplyPlan.headerFooterTexts(of: d, section: $0.section, place: $0.place, view: view) ?? ["\u{0}"] }
        }
    }

    /// Paragraph texts run together without any white space, picture-only paragraphs left out: what `verify`
    /// compares (paragraph boundaries may differ across formats, a cell's paragraphs Markdown joins: the text
    /// decides).
    static func bare(_ texts: [String]) -> [UInt8] {
        let total = texts.reduce(0) { $0 + $1.utf8.count }
        return [UInt8](unsafeUninitializedCapacity: total) { out, count in
            var n = 0
            for t in texts {
                let start = n
                var t = t
                t.withUTF8 { n = appendBare($0, to: out, at: n) }
                // U+FFFC alone: a picture or note reference only.
                if n - start == 3, out[start] == 0xEF, out[start + 1] == 0xBF, out[start + 2] == 0xBC { n = start }
            }
            count = n
        }
    }

    /// Writes `bytes` (UTF-8) without Unicode's White_Space characters, matched on their encodings, into `out`
    /// from `n` (there is room: never more than `bytes`); where it ended.
    private static func appendBare(_ bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutableBufferPointer<UInt8>,
                                   at n: Int) -> Int {
        var i = 0, n = n
        let count = bytes.count
        while i < count {
            let b = bytes[i]
            if b < 0x80 {
                if b != 0x20 && !(0x09...0x0D).contains(b) { out[n] = b; n += 1 }
                i += 1
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            let end = min(i + length, count)
            let b1 = i + 1 < count ? bytes[i + 1] : 0, b2 = i + 2 < count ? bytes[i + 2] : 0
            let space: Bool
            switch b {
            case 0xC2: space = b1 == 0x85 || b1 == 0xA0                                  // U+0085, U+00A0
            case 0xE1: space = b1 == 0x9A && b2 == 0x80                                  // U+1680
            case 0xE2: space = (b1 == 0x80 && (0x80...0x8A ~= b2 || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF))
                           || (b1 == 0x81 && b2 == 0x9F)                                 // U+2000–200A, 2028, 2029, 202F, 205F
            case 0xE3: space = b1 == 0x80 && b2 == 0x80                                  // U+3000
            default: space = false
            }
            if !space { while i < end { out[n] = bytes[i]; n += 1; i += 1 } }
            i = end
        }
        return n
    }

    /// The plan, its counts, the comparison it was made from and ORIGINAL as read; with `readAhead`, also ORIGINAL
    /// read by its format's applier (`EditApplier.prepare`, beside the base view; its failure kept for when used).
    static func prepare(edited: String, onto original: String, options: ApplyOptions, readAhead: Bool,
                        diagnostics: Diagnostics) throws -> (ApplyPlan, ApplyStats, Document, PreparedOriginal,
                                                             Result<PreparedApply, any Error>?) {
        let format = try originalFormat(original, options: options)
        var read = options.read
        read.loadLinkedMedia = read.loadLinkedMedia || Comparison.crossesFormats(old: original, new: edited, from: nil)
        let named = options.editedFormat ?? FormatRegistry.inferred(fromPath: edited)
        // Two rounds on two threads: ORIGINAL read and written in the format EDITED's name says beside EDITED
        // read; then that written ORIGINAL read back (the base, `PreparedOriginal.base`) beside the applier
        // reading ORIGINAL's file ahead of the plan.
        let ((prepared, written), (e, editedFormat)) = try StackThread.both({
            let (o, _) = try Comparison.read(original, format: format, options: read, diagnostics: Diagnostics())
            let prepared = PreparedOriginal(path: original, format: format, document: o, read: read)
            return (prepared, named.flatMap { prepared.written(through: $0) })
        }, {
            try Comparison.read(edited, format: options.editedFormat, options: read, diagnostics: diagnostics)
        })
        let (namedBase, ahead) = try StackThread.both({
            named.map { f in written.flatMap { prepared.readBack($0, through: f) } ?? prepared.document }
        }, {
            !readAhead ? nil : Result { try format.applier!.prepare(original: .file(original), limits: read.limits) }
        })
        var options = options
        if options.authorFromEdited, let name = lastEditor(of: edited, format: editedFormat, limits: read.limits) {
            options.compare.author = name
        }
        // (EDITED is read in the format its name says: `named`, so `namedBase` is its base.)
        let (plan, stats, compared) = try self.plan(edited: edited, document: e, format: editedFormat, onto: prepared,
                                                    base: namedBase, options: options, diagnostics: diagnostics)
        StackThread.release((e, namedBase))
        return (plan, stats, compared, prepared, ahead)
    }

    /// Who last saved `path`, where its format records it.
    static func lastEditor(of path: String, format: Format, limits: Limits) -> String? {
        format.lastEditorReader?.lastEditor(.file(path), limits: limits)
    }

    /// ORIGINAL's format, which must have an applier.
    static func originalFormat(_ original: String, options: ApplyOptions) throws -> Format {
        guard let format = options.originalFormat ?? FormatRegistry.inferred(fromPath: original) else {
            throw RedlineError.usage("cannot tell the format of '\(original)'; name it with --onto-format")
        }
        guard format.applier != nil else {
            throw RedlineError.usage("\(original): Redline cannot apply changes onto \(format.displayName) files (it can onto Markdown, DOCX and RTF)")
        }
        return format
    }

    /// ORIGINAL read once, for every EDITED applied onto it (`redline combine` plans several).
    struct PreparedOriginal: Sendable {
        var path: String
        var format: Format
        var document: Document
        var read: ReadOptions

        /// Its reject view's text, `bare`, for reading a package result back (`verify`); empty for Markdown.
        func rejectedText() -> [UInt8] {
            guard format.inPlaceReviewer != nil else { return [] }
            return bare(ApplyPlan.viewTexts(of: document, view: .reject))
        }

        /// What `editedFormat` makes of ORIGINAL (written in it and read back): what an EDITED in that format was
        /// edited from. ORIGINAL itself when the formats are one, or the round trip fails.
        func base(through editedFormat: Format) -> Document {
            written(through: editedFormat).flatMap { readBack($0, through: editedFormat) } ?? document
        }

        /// The first half of `base`: ORIGINAL written in `editedFormat`; nil when that is ORIGINAL's own format,
        /// or it cannot be written.
        func written(through editedFormat: Format) -> [UInt8]? {
            guard !editedFormat.isSame(as: format), editedFormat.writer != nil, editedFormat.reader != nil else { return nil }
            let through = MemoryOutput()
            guard (try? Converter.write(document, format: editedFormat, to: through, options: WriteOptions(),
                                        diagnostics: Diagnostics())) != nil else { return nil }
            return through.bytes
        }

        /// The second half of `base`: what `written(through:)` wrote, read back; nil when it cannot be.
        func readBack(_ bytes: [UInt8], through editedFormat: Format) -> Document? {
            try? Converter.read(.bytes(bytes), format: editedFormat, options: read, diagnostics: Diagnostics())
        }
    }

    /// The plan for EDITED (`document`, read from `edited` in `format`) onto a prepared ORIGINAL, its counts and
    /// the comparison it was made from (whose accept view is EDITED: what `verify` checks a result against).
    static func plan(edited: String, document e: Document, format editedFormat: Format, onto prepared: PreparedOriginal,
                     base: Document? = nil, options: ApplyOptions,
                     diagnostics: Diagnostics) throws -> (ApplyPlan, ApplyStats, Document) {
        var options = options
        // A paragraph made a heading (or given another level) is one paragraph with a style change, which the
        // plan writes as a property step; its text is compared as any paragraph's.
        options.compare.keepRelevelled = true
        return try LargeStack.run {
            var stats = ApplyStats()
            let fallback = Change(author: options.compare.author, date: options.compare.date)
            let quiet = Diagnostics()
            var compared: Document
            let original = prepared.document
            // What EDITED's format makes of ORIGINAL is what EDITED was edited from: compared with that, the
            // differences a conversion brings (a table's header row, styles Markdown has no place for) are not
            // taken for edits.
            let base = base ?? prepared.base(through: editedFormat)
            if DocumentComparer.trackedChangeCount(e) > 0 {
                // EDITED's own changes: carried as they are when its reject view is ORIGINAL.
                // Styles and formatting a conversion changes are not edits: text decides.
                var textOnly = options.compare
                textOnly.ignoreFormatting = true
                let rejectedE = DocumentComparer.rejected(e)
                // The same leaves with the same text: EDITED's reject view is ORIGINAL's, whatever structure a
                // tracked property change left in the model (a list split where some of its items were renumbered).
                let sameText = ApplyPlan.leafTexts(of: base) == ApplyPlan.leafTexts(of: rejectedE)
                let untracked = sameText ? base : DocumentComparer.compare(old: base, new: rejectedE, options: textOnly,
                                                                           diagnostics: quiet).0
                if sameText || DocumentComparer.trackedChangeCount(untracked) == 0 {
                    compared = e
                    stats.keptTrackedChanges = true
                } else if DocumentComparer.trackedChangeCount(base) == 0,
                          let (mixed, recompared) = ChangeMixing.compose(untracked: untracked, edited: e, options: options.compare) {
                    // (Where ORIGINAL has tracked changes of its own, EDITED's may be those: compared afresh below.)
                    // Both: EDITED's changes kept with their authors, the untracked edits by the author.
                    compared = mixed
                    stats.keptTrackedChanges = true
                    if recompared > 0 {
                        diagnostics.report(.applyChangesRecompared,
                                           "EDITED changed \(recompared == 1 ? "one paragraph" : "\(recompared) paragraphs") both with and without tracking: there every change is found by comparison and attributed to \(options.compare.author)",
                                           count: recompared)
                    }
                } else {
                    diagnostics.report(.applyChangesRecompared,
                                       "EDITED differs from ORIGINAL outside its tracked changes: every change is found by comparison and attributed to \(options.compare.author)")
                    compared = DocumentComparer.compare(old: base, new: DocumentComparer.accepted(e),
                                                        options: options.compare, diagnostics: quiet).0
                }
            } else {
                compared = DocumentComparer.compare(old: base, new: e, options: options.compare, diagnostics: quiet).0
            }
            var plan = ApplyPlan.make(original: original, compared: compared, fallback: fallback)
            // The notes' changes, where the applier writes them; otherwise said, not dropped unsaid.
            let inNotes = compared.notes.reduce(0) { $0 + DocumentComparer.trackedChangeCount(Document(blocks: $1.blocks)) }
            if inNotes > 0, prepared.format.applier?.writesStories == true,
               let (plans, new) = ApplyPlan.makeNotes(original: original, compared: compared, fallback: fallback) {
                plan.notes = plans
                if prepared.format.applier?.writesNewNotes == true {
                    plan.newNotes = new
                } else if !new.isEmpty {
                    diagnostics.report(.applyNoteUnplaced,
                                       "\(edited) adds \(new.count == 1 ? "a footnote" : "\(new.count) footnotes"): not written (apply does not add notes to \(prepared.format.displayName) yet)",
                                       count: new.count)
                }
            } else if inNotes > 0 {
                let why = prepared.format.applier?.writesStories == true
                    ? "its note references do not pair with ORIGINAL's" : "apply writes the body's changes only into \(prepared.format.displayName)"
                diagnostics.report(.applyNoteUnplaced,
                                   "\(edited) changes the text of footnotes or endnotes (\(inNotes == 1 ? "one change" : "\(inNotes) changes")): \(why), so these are left out",
                                   count: inNotes)
            }
            if prepared.format.applier?.writesStories == true {
                let (stories, unplaced) = ApplyPlan.makeHeaderFooters(original: original, compared: compared, fallback: fallback)
                plan.headerFooters = stories
                if unplaced > 0 {
                    diagnostics.report(.applyHeaderFooterUnplaced,
                                       "EDITED changed \(unplaced == 1 ? "a header or footer" : "\(unplaced) headers or footers") ORIGINAL has no counterpart for (a new one, or sections that do not pair): \(unplaced == 1 ? "it is" : "they are") left out",
                                       count: unplaced)
                }
            } else {
                reportHeaderFooterEdits(original: original, edited: e, diagnostics: diagnostics)
            }
            count(plan, into: &stats)
            if stats.kept < minimumKept, !options.force, plan.leaves.count > 1 {
                throw RedlineError.usage("\(edited) keeps \(Int((stats.kept * 100).rounded()))% of \(prepared.path)'s text: it does not look like a version of it (--force applies it anyway)")
            }
            return (plan, stats, compared)
        }
    }

    static func count(_ plan: ApplyPlan, into stats: inout ApplyStats) {
        var total = 0, changed = 0
        for l in plan.leaves { total += l.text.utf8.count }
        for s in plan.steps {
            switch s {
            case .edit(_, let edits, _):
                stats.edited += 1
                for e in edits {
                    switch e.kind {
                    case .replace: stats.replacements += 1; changed += e.range.count
                    case .format: stats.formatChanges += 1
                    case .comment: stats.comments += 1
                    }
                }
            case .delete(let leaf, _):
                stats.deleted += 1
                changed += plan.leaves[leaf].text.utf8.count
            case .insert: stats.inserted += 1
            case .restyle: stats.restyled += 1
            }
        }
        stats.kept = total == 0 ? 1 : Double(total - min(changed, total)) / Double(total)
    }
}

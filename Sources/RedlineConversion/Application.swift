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
        let (plan, format, stats, expected, originalRejected) = try prepare(edited: edited, onto: original, options: options,
                                                                            diagnostics: diagnostics)
        guard let applier = format.applier else {
            throw RedlineError.usage("\(original): Redline cannot apply changes onto \(format.displayName) files (it can onto Markdown, DOCX and RTF)")
        }
        try LargeStack.run {
            let buffer = MemoryOutput()
            do {
                try applier.apply(plan, original: .file(original), accept: options.accept, limits: options.read.limits,
                                  diagnostics: diagnostics, into: buffer)
                try verify(buffer.bytes, format: format, plan: plan, expected: expected, originalRejected: originalRejected,
                           accepted: options.accept,
                           limits: options.read.limits)
            } catch let e as RedlineError where !e.message.hasPrefix(original) {
                throw RedlineError(e.kind, "\(original): \(e.message)")
            }
            try output.write(bytes: buffer.bytes)
            try output.flush()
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
        let (p, f, s, _, _) = try prepare(edited: edited, onto: original, options: options, diagnostics: diagnostics)
        return (p, f, s)
    }

    /// The written result read back: its reject view must have ORIGINAL's text and its accept view EDITED's,
    /// paragraph by paragraph (spacing aside); otherwise nothing is written. A net under every applier.
    /// ORIGINAL's own tracked changes are rejected with the new ones: a reviewed ORIGINAL's reject view is
    /// `originalRejected`. `expected` (EDITED's accepted text) is not checked when nil (a combination).
    static func verify(_ bytes: [UInt8], format: Format, plan: ApplyPlan, expected: [String]?, originalRejected: [String],
                       accepted: Bool,
                       limits: Limits) throws {
        // Markdown's guarantee is textual (CriticMarkup around code and tables is not in the model): its tests
        // check it. Package formats are read back.
        guard format.inPlaceReviewer != nil, !plan.isEmpty else { return }
        var read = ReadOptions()
        read.limits = limits
        let doc = try Converter.read(.bytes(bytes), format: format, options: read, diagnostics: Diagnostics())
        let original = plan.leaves.map(\.text)
        let rejected = leafTexts(DocumentComparer.rejected(doc)), acceptedTexts = leafTexts(DocumentComparer.accepted(doc))
        // Paragraph boundaries may differ across formats (a cell's paragraphs Markdown joins): the text decides.
        func bare(_ t: [String]) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(t.reduce(0) { $0 + $1.utf8.count })
            for s in t {
                for c in s.unicodeScalars {
                    if c.isASCII {
                        if c.value != 0x20 && !(0x09...0x0D).contains(c.value) { out.append(UInt8(c.value)) }
                    } else if !c.properties.isWhitespace {
                        UTF8.encode(c) { out.append($0) }
                    }
                }
            }
            return out
        }
        if !accepted, bare(rejected) != bare(normalized(original)), bare(rejected) != bare(originalRejected) {
            throw RedlineError(.unsupportedInput, "the changes could not be placed exactly in this file (rejecting them would not give it back); nothing written: `redline compare` makes a new file instead")
        }
        if let expected, bare(acceptedTexts) != bare(normalized(expected)) {
            throw RedlineError(.unsupportedInput, "the changes could not be placed exactly in this file (accepting them would not give EDITED's text); nothing written: `redline compare` makes a new file instead")
        }
    }

    static func leafTexts(_ doc: Document) -> [String] {
        normalized(ApplyPlan.make(original: doc, compared: doc, fallback: Change(author: nil, date: nil)).leaves.map(\.text))
    }

    /// Paragraph texts with runs of spaces, tabs and line breaks made one space and the ends trimmed; empty and
    /// picture-only paragraphs left out.
    static func normalized(_ texts: [String]) -> [String] {
        texts.compactMap { t -> String? in
            // Most paragraphs have nothing to normalise: checked on the bytes before splitting.
            var plain = true, previousSpace = true
            for b in t.utf8 {
                if b == 0x09 || b == 0x0A { plain = false; break }
                if b == 0x20 { if previousSpace { plain = false; break }; previousSpace = true } else { previousSpace = false }
            }
            if previousSpace { plain = false }
            let n = plain ? t : t.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
            return n.isEmpty || n == ApplyPlan.objectCharacter ? nil : n
        }
    }

    static func prepare(edited: String, onto original: String, options: ApplyOptions,
                        diagnostics: Diagnostics) throws -> (ApplyPlan, Format, ApplyStats, [String], [String]) {
        let format = try originalFormat(original, options: options)
        var read = options.read
        read.loadLinkedMedia = read.loadLinkedMedia || Comparison.crossesFormats(old: original, new: edited, from: nil)
        let ((o, _), (e, editedFormat)) = try readBothFormats(original: original, format: format, edited: edited,
                                                              editedFormat: options.editedFormat, read: read,
                                                              diagnostics: diagnostics)
        let prepared = PreparedOriginal(path: original, format: format, document: o, read: read)
        var options = options
        if options.authorFromEdited, let name = lastEditor(of: edited, format: editedFormat, limits: read.limits) {
            options.compare.author = name
        }
        let (plan, stats, expected) = try self.plan(edited: edited, document: e, format: editedFormat, onto: prepared,
                                                    options: options, diagnostics: diagnostics)
        return (plan, format, stats, expected, prepared.rejected)
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
        /// Its reject view's paragraphs, for reading a package result back (`verify`); empty for Markdown.
        var rejected: [String]

        init(path: String, format: Format, document: Document, read: ReadOptions) {
            self.path = path
            self.format = format
            self.document = document
            self.read = read
            rejected = format.inPlaceReviewer != nil ? leafTexts(DocumentComparer.rejected(document)) : []
        }

        /// What `editedFormat` makes of ORIGINAL (written in it and read back): what an EDITED in that format was
        /// edited from. ORIGINAL itself when the formats are one, or the round trip fails.
        func base(through editedFormat: Format) -> Document {
            guard !editedFormat.isSame(as: format), editedFormat.writer != nil, editedFormat.reader != nil else { return document }
            let quiet = Diagnostics(), through = MemoryOutput()
            guard (try? Converter.write(document, format: editedFormat, to: through, options: WriteOptions(), diagnostics: quiet)) != nil,
                  let back = try? Converter.read(.bytes(through.bytes), format: editedFormat, options: read, diagnostics: quiet)
            else { return document }
            return back
        }
    }

    /// The plan for EDITED (`document`, read from `edited` in `format`) onto a prepared ORIGINAL, its counts and
    /// EDITED's accepted paragraphs (for `verify`; empty for Markdown).
    static func plan(edited: String, document e: Document, format editedFormat: Format, onto prepared: PreparedOriginal,
                     base: Document? = nil, options: ApplyOptions,
                     diagnostics: Diagnostics) throws -> (ApplyPlan, ApplyStats, [String]) {
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
                func leaves(_ d: Document) -> [String] { ApplyPlan.make(original: d, compared: d, fallback: fallback).leaves.map(\.text) }
                let sameText = leaves(base) == leaves(rejectedE)
                let untracked = sameText ? base : DocumentComparer.compare(old: base, new: rejectedE, options: textOnly,
                                                                           diagnostics: quiet).0
                if sameText || DocumentComparer.trackedChangeCount(untracked) == 0 {
                    compared = e
                    stats.keptTrackedChanges = true
                } else if DocumentComparer.trackedChangeCount(base) == 0,
                          let (mixed, recompared) = ApplyMixing.compose(untracked: untracked, edited: e, options: options.compare) {
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
            let plan = ApplyPlan.make(original: original, compared: compared, fallback: fallback)
            reportHeaderFooterEdits(original: original, edited: e, diagnostics: diagnostics)
            count(plan, into: &stats)
            if stats.kept < minimumKept, !options.force, plan.leaves.count > 1 {
                throw RedlineError.usage("\(edited) keeps \(Int((stats.kept * 100).rounded()))% of \(prepared.path)'s text: it does not look like a version of it (--force applies it anyway)")
            }
            let expected = prepared.format.inPlaceReviewer != nil ? leafTexts(DocumentComparer.accepted(compared)) : []
            return (plan, stats, expected)
        }
    }

    static func readBothFormats(original: String, format: Format, edited: String, editedFormat: Format?,
                                read: ReadOptions, diagnostics: Diagnostics) throws
        -> (original: (Document, Format), edited: (Document, Format)) {
        // ORIGINAL's bytes are copied, not written from the model: what its reader cannot hold is not lost.
        // ORIGINAL is read on a second thread while EDITED is read on this one (as `Comparison.readBoth`).
        final class Slot: @unchecked Sendable { var result: Result<(Document, Format), any Error>? }
        let slot = Slot()
        let thread = StackThread.spawn(name: "redline-original") {
            slot.result = Result { try Comparison.read(original, format: format, options: read, diagnostics: Diagnostics()) }
        }
        if thread == nil { slot.result = Result { try Comparison.read(original, format: format, options: read, diagnostics: Diagnostics()) } }
        let e = Result { try Comparison.read(edited, format: editedFormat, options: read, diagnostics: diagnostics) }
        thread?.join()
        let o = try slot.result!.get()
        return (o, try e.get())
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

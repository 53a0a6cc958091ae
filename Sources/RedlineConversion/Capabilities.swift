import RedlineCore
import RedlineDOCX
import RedlineRTF
import RedlineMarkdown

/// How a format's writer treats pictures, so readers know whether to load linked ones.
public enum PictureEmbedding: Sendable {
    /// Pictures always go into the output (DOCX, RTF, PDF).
    case always
    /// Pictures go in when the write options ask for it (`--embed-media`, HTML).
    case withEmbedMedia
    /// Pictures are linked, never embedded (Markdown).
    case never
}

/// Rewrites a file of its own format with review decisions, keeping everything it does not decide byte for
/// byte (headers, footers, sections, bookmarks, fields, custom parts).
public protocol InPlaceReviewer: Sendable {
    /// Writes `input` with `review` applied into `output`.
    func review(_ input: DocumentInput, review: ReviewOptions, limits: Limits, into output: any ByteOutput) throws
}

/// Lists a file's tracked changes and comments from the file itself, with the ids its in-place reviewer takes.
public protocol ChangeLister: Sendable {
    /// Every change and comment of `input`.
    func list(_ input: DocumentInput, limits: Limits) throws -> [ChangeListItem]
}

/// Reads who last saved a file, where the format records it (`apply` and `combine` attribute a copy's untracked
/// edits to them): DOCX's `cp:lastModifiedBy`, RTF's `\operator`.
public protocol LastEditorReader: Sendable {
    /// Who last saved `input`, or nil when the file does not say (or cannot be read).
    func lastEditor(_ input: DocumentInput, limits: Limits) -> String?
}

/// Finishes a comparison's output, written from the model, by laying it into NEW's own file.
public protocol OutputFinisher: Sendable {
    /// Whether NEW can take the result (DOCX: not Strict OOXML, whose styles do not fit a transitional package).
    func accepts(_ new: DocumentInput, limits: Limits) -> Bool
    /// Writes `generated` laid into `new` to `output`; the last section's headers and footers named in
    /// `generatedStories` (those a comparison marked changes in) are
    /// `generated`'s, not NEW's.
    func finish(generated: [UInt8], new: DocumentInput, limits: Limits, generatedStories: Set<HeaderFooter.Place>, diagnostics: Diagnostics,
                into output: any ByteOutput) throws
}

/// DOCX's in-place reviewer and change lister: the package rewritten part by part (`DOCXInPlaceReview`).
struct DOCXPackageReviewer: InPlaceReviewer, ChangeLister, LastEditorReader {
    func review(_ input: DocumentInput, review: ReviewOptions, limits: Limits, into output: any ByteOutput) throws {
        try DOCXInPlaceReview.apply(input, review: review, limits: limits) { try output.write($0) }
    }

    func list(_ input: DocumentInput, limits: Limits) throws -> [ChangeListItem] {
        try DOCXInPlaceReview.list(input, limits: limits)
    }

    func lastEditor(_ input: DocumentInput, limits: Limits) -> String? {
        try? DOCXInPlaceReview.lastEditor(input, limits: limits)
    }
}

/// RTF's in-place reviewer: the token stream rewritten (`RTFInPlaceReview`).
struct RTFFileReviewer: InPlaceReviewer {
    func review(_ input: DocumentInput, review: ReviewOptions, limits: Limits, into output: any ByteOutput) throws {
        try RTFInPlaceReview.apply(input, review: review, limits: limits) { bytes in
            try bytes.withUnsafeBytes { try output.write($0) }
        }
    }
}

/// RTF's last editor: `{\info{\operator NAME}}` (`RTFInfo`).
struct RTFInfoReader: LastEditorReader {
    func lastEditor(_ input: DocumentInput, limits: Limits) -> String? { try? RTFInfo.lastEditor(input) }
}

/// DOCX's finisher: NEW's headers, footers, sections and settings around the compared body (`DOCXLayoutTransfer`).
struct DOCXLayoutFinisher: OutputFinisher {
    func accepts(_ new: DocumentInput, limits: Limits) -> Bool { !DOCXLayoutTransfer.isStrict(new, limits: limits) }

    func finish(generated: [UInt8], new: DocumentInput, limits: Limits, generatedStories: Set<HeaderFooter.Place>, diagnostics: Diagnostics,
                into output: any ByteOutput) throws {
        try DOCXLayoutTransfer.transfer(generated: generated, new: new, limits: limits, generatedStories: generatedStories,
                                        diagnostics: diagnostics, into: output)
    }
}

/// Markdown's applier: ORIGINAL's source copied, the changes written as CriticMarkup where they fall
/// (`MarkdownSourceApply`).
struct MarkdownSourceApplier: EditApplier {
    var writesStories: Bool { true }
    var writesNewNotes: Bool { false }

    func apply(_ plan: ApplyPlan, original: DocumentInput, accept: Bool, limits: Limits, diagnostics: Diagnostics,
               into output: any ByteOutput) throws {
        try MarkdownSourceApply.apply(plan, original: original, accept: accept, limits: limits,
                                      diagnostics: diagnostics, into: output)
    }
}

/// DOCX's applier: the plan written into ORIGINAL's package as tracked changes, every other byte kept
/// (`DOCXApply`).
struct DOCXPackageApplier: EditApplier {
    var writesStories: Bool { true }

    func apply(_ plan: ApplyPlan, original: DocumentInput, accept: Bool, limits: Limits, diagnostics: Diagnostics,
               into output: any ByteOutput) throws {
        try DOCXApply.apply(plan, original: original, accept: accept, limits: limits, diagnostics: diagnostics,
                            into: output)
    }

    func prepare(original: DocumentInput, limits: Limits) throws -> PreparedApply {
        let prepared = try DOCXApply.prepare(original: original, limits: limits)
        return { plan, accept, diagnostics, output in
            try DOCXApply.apply(plan, prepared: prepared, accept: accept, diagnostics: diagnostics, into: output)
        }
    }
}

/// RTF's applier: the plan written into ORIGINAL's bytes as revisions and annotations, every other byte
/// kept (`RTFApply`).
struct RTFFileApplier: EditApplier {
    var writesStories: Bool { true }

    func apply(_ plan: ApplyPlan, original: DocumentInput, accept: Bool, limits: Limits, diagnostics: Diagnostics,
               into output: any ByteOutput) throws {
        try RTFApply.apply(plan, original: original, accept: accept, limits: limits, diagnostics: diagnostics,
                           into: output)
    }
}

import Foundation
import RedlineCore

/// The in-place review route: DOCX to DOCX, or RTF to RTF, with review decisions and nothing that needs the
/// document model rewrites the original (the format's `InPlaceReviewer`: DOCX's package part by part, RTF's
/// token stream) instead of converting, so headers, footers, sections, bookmarks, equations, custom XML, RTF's
/// tables and destinations and everything else stay as they were. `ConversionPlan` decides when it applies.
public enum InPlaceReview {
    /// True when converting `from` → `to` with `review` and `write` goes through the in-place path.
    public static func applies(from: Format, to: Format, review: ReviewOptions, write: WriteOptions) -> Bool {
        ConversionPlan(ConversionOptions(from: from, to: to, review: review, write: write)).route == .inPlace
    }

    /// True for the formats reviewed in place (those with an `InPlaceReviewer`: DOCX, RTF).
    public static func supports(_ format: Format) -> Bool { format.inPlaceReviewer != nil }

    /// True when `review` changes anything (a change or comment decided).
    public static func hasDecisions(_ review: ReviewOptions) -> Bool { ConversionPlan.hasDecisions(review) }

    /// True when the write options can only be honoured by writing a new document from the model.
    public static func needsModel(_ write: WriteOptions) -> Bool { ConversionPlan.needsModel(write) }

    /// Applies `review` to `input` (DOCX unless `format` says otherwise), writing the new document to `output`.
    public static func review(_ input: DocumentInput, format: Format? = nil, to output: any ByteOutput,
                              review: ReviewOptions, limits: Limits = Limits()) throws {
        let format = format ?? FormatRegistry.docx
        guard let reviewer = format.inPlaceReviewer else {
            throw RedlineError.usage("Redline cannot review \(format.name) in place")
        }
        try LargeStack.run {
            try reviewer.review(input, review: review, limits: limits, into: output)
            try output.flush()
        }
    }

    /// Applies `review` to `input` (DOCX unless `format` says otherwise), writing the file at `path` whole or not at all.
    public static func review(_ input: DocumentInput, format: Format? = nil, toFile path: String, review: ReviewOptions,
                              limits: Limits = Limits()) throws {
        try AtomicFile.write(to: path, protecting: input.path.map { [$0] } ?? []) { out in
            try Self.review(input, format: format, to: out, review: review, limits: limits)
        }
    }
}

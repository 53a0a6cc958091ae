import Foundation
import RedlineCore
import RedlineDOCX
import RedlineRTF

/// The in-place review route: DOCX to DOCX, or RTF to RTF, with review decisions and nothing that needs the
/// document model rewrites the original (`DOCXInPlaceReview`: the package, part by part;
/// `RTFInPlaceReview`: the token stream) instead of converting, so headers, footers, sections, bookmarks,
/// equations, custom XML, RTF's tables and destinations and everything else stay as they were.
///
/// Options that need the model (and so take the conversion path): `--reference-doc` (other styles),
/// `--paragraph-style` (other paragraph and character formatting). `--keep-formatting` is a Markdown
/// option and does not matter here.
public enum InPlaceReview {
    /// True when converting `from` → `to` with `review` and `write` goes through the in-place path:
    /// both DOCX or both RTF, some review decision given, no write option that needs the model.
    public static func applies(from: Format, to: Format, review: ReviewOptions, write: WriteOptions) -> Bool {
        supports(from) && from.name == to.name && hasDecisions(review) && !needsModel(write)
    }

    /// True for the formats reviewed in place (DOCX, RTF).
    public static func supports(_ format: Format) -> Bool { format.name == "docx" || format.name == "rtf" }

    /// True when `review` changes anything (a change or comment decided).
    public static func hasDecisions(_ review: ReviewOptions) -> Bool {
        !review.keepsAllChanges || !review.keepsAllComments
    }

    /// True when the write options can only be honoured by writing a new document from the model.
    public static func needsModel(_ write: WriteOptions) -> Bool {
        write.referenceDocument != nil || write.paragraphPreset != nil || write.characterPreset != nil
    }

    /// Applies `review` to `input` (DOCX unless `format` says RTF), writing the new document to `output`.
    public static func review(_ input: DocumentInput, format: Format? = nil, to output: any ByteOutput,
                              review: ReviewOptions, limits: Limits = Limits()) throws {
        try LargeStack.run {
            if format?.name == "rtf" {
                try RTFInPlaceReview.apply(input, review: review, limits: limits) { bytes in
                    try bytes.withUnsafeBytes { try output.write($0) }
                }
            } else {
                try DOCXInPlaceReview.apply(input, review: review, limits: limits) { try output.write($0) }
            }
            try output.flush()
        }
    }

    /// Applies `review` to `input` (DOCX unless `format` says RTF), writing the file at `path` whole or not at all.
    public static func review(_ input: DocumentInput, format: Format? = nil, toFile path: String, review: ReviewOptions,
                              limits: Limits = Limits()) throws {
        try AtomicFile.write(to: path, protecting: input.path.map { [$0] } ?? []) { out in
            try Self.review(input, format: format, to: out, review: review, limits: limits)
        }
    }
}

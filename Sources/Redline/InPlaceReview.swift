import Foundation
import RedlineCore
import RedlineDOCX

/// The in-place review route: DOCX to DOCX with review decisions and nothing that needs the document
/// model rewrites the original package (`DOCXInPlaceReview`) instead of converting, so headers,
/// footers, sections, bookmarks, equations, custom XML and every other part stay as they were.
///
/// Options that need the model (and so take the conversion path): `--reference-doc` (other styles),
/// `--paragraph-style` (other paragraph and character formatting). `--keep-formatting` is a Markdown
/// option and does not matter here.
public enum InPlaceReview {
    /// True when converting `from` → `to` with `review` and `write` goes through the in-place path:
    /// both DOCX, some review decision given, no write option that needs the model.
    public static func applies(from: Format, to: Format, review: ReviewOptions, write: WriteOptions) -> Bool {
        from.name == "docx" && to.name == "docx" && hasDecisions(review) && !needsModel(write)
    }

    /// True when `review` changes anything (a change or comment decided).
    public static func hasDecisions(_ review: ReviewOptions) -> Bool {
        !review.keepsAllChanges || !review.keepsAllComments
    }

    /// True when the write options can only be honoured by writing a new document from the model.
    public static func needsModel(_ write: WriteOptions) -> Bool {
        write.referenceDocument != nil || write.paragraphPreset != nil || write.characterPreset != nil
    }

    /// Applies `review` to the DOCX `input`, writing the new package to `output`.
    public static func review(_ input: DocumentInput, to output: any ByteOutput, review: ReviewOptions,
                              limits: Limits = Limits()) throws {
        try LargeStack.run {
            try DOCXInPlaceReview.apply(input, review: review, limits: limits) { try output.write($0) }
            try output.flush()
        }
    }

    /// Applies `review` to the DOCX `input`, writing the file at `path` whole or not at all.
    public static func review(_ input: DocumentInput, toFile path: String, review: ReviewOptions,
                              limits: Limits = Limits()) throws {
        try AtomicFile.write(to: path) { out in
            try Self.review(input, to: out, review: review, limits: limits)
        }
    }
}

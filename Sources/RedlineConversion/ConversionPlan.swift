import RedlineCore

/// How one output is made, decided in one place from the formats' declared capabilities and the options:
/// the input rewritten in place by its own format, read into the model and written, or two inputs compared.
/// `Converter`, the batch runner (convert, export, compare), `Comparison` and `check` all ask it.
public struct ConversionPlan: Sendable {
    /// The ways an output is made.
    public enum Route: Sendable, Equatable {
        /// The input file rewritten by its format's `InPlaceReviewer`: everything not decided stays as it was.
        case inPlace
        /// Reader → review stages → the output format's stages → writer.
        case model
        /// OLD and NEW read into the model, compared, and the result written (then finished, see `finisher`).
        case compare
    }

    /// The route.
    public var route: Route
    /// The reviewer that rewrites the input, for `.inPlace`.
    public var reviewer: (any InPlaceReviewer)?
    /// For `.compare`: what lays the written result into NEW's own file, when NEW and the output share a
    /// format that has one and nothing asks for other styles.
    public var finisher: (any OutputFinisher)?

    /// The plan for a conversion: in place when the input and output formats are the same, the format has an
    /// in-place reviewer and no write option needs the model (with no review decision that is the identity:
    /// a Word file converted to Word keeps its whole package); otherwise the model.
    public init(_ options: ConversionOptions) {
        if options.allowsInPlace, options.from.isSame(as: options.to), let reviewer = options.from.inPlaceReviewer,
           !Self.needsModel(options.write) {
            route = .inPlace
            self.reviewer = reviewer
        } else {
            route = .model
        }
    }

    /// The plan for comparing into `to` with NEW read from `new` in `newFormat`: the result is laid into NEW's
    /// own file when both formats are the same, that format has a finisher that accepts NEW, and no reference
    /// document asks for other styles.
    public init(comparing new: DocumentInput, newFormat: Format, to: Format, write: WriteOptions, limits: Limits) {
        route = .compare
        if newFormat.isSame(as: to), write.referenceDocument == nil, let f = to.finisher, f.accepts(new, limits: limits) {
            finisher = f
        }
    }

    /// True when `review` changes anything (a change or comment decided).
    public static func hasDecisions(_ review: ReviewOptions) -> Bool {
        !review.keepsAllChanges || !review.keepsAllComments
    }

    /// True when the write options can only be honoured by writing a new document from the model:
    /// `--reference-doc` (other styles), `--paragraph-style` (other paragraph and character formatting),
    /// `--metadata` (other metadata), `--wrap=none|auto` (other lines).
    public static func needsModel(_ write: WriteOptions) -> Bool {
        !write.metadata.isEmpty || write.referenceDocument != nil || write.paragraphPreset != nil || write.characterPreset != nil
            || (write.lineWrap ?? .preserve) != .preserve
    }
}

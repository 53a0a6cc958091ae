import RedlineCore

/// Writes an `ApplyPlan` into a Markdown source as CriticMarkup (placeholder while being written).
public enum MarkdownSourceApply {
    public static func apply(_ plan: ApplyPlan, original: DocumentInput, accept: Bool, limits: Limits,
                             diagnostics: Diagnostics, into output: any ByteOutput) throws {
        throw RedlineError.usage("not yet")
    }
}

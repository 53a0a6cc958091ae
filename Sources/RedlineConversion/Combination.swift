import Foundation
import RedlineCore
import RedlineCompare

/// How `redline combine` runs.
public struct CombineOptions: Sendable {
    /// Each copy's reviewer, by the copy's path (default: the copy's file name without extension).
    public var reviewerOf: [String: String] = [:]
    /// The reviewer whose change is kept where two conflict (default: the copy named first).
    public var prefer: String?
    /// The date of untracked edits, ISO 8601.
    public var date: String?
    public var read = ReadOptions()
    /// Write the result with every change applied.
    public var accept = false
    /// Combine the other copies when one is not a version of ORIGINAL (it is left out, with a warning).
    public var skipUnrelated = false

    public init() {}
}

/// What one combine wrote.
public struct CombineResult: Sendable {
    public var conflicts: [CombineConflict]
    public var reviewers: [ReviewerCounts]
    /// Copies left out as not versions of ORIGINAL (`skipUnrelated`).
    public var skipped: [String]
}

/// `redline combine ORIGINAL COPY…`: every copy's changes from ORIGINAL in one file of ORIGINAL's format,
/// written into ORIGINAL's own bytes as `apply` does.
public enum Combination {
    /// The reviewer a copy is attributed to.
    public static func reviewer(of copy: String, options: CombineOptions) -> String {
        if let n = options.reviewerOf[copy] { return n }
        let name = (copy as NSString).lastPathComponent
        return (name as NSString).deletingPathExtension
    }

    /// Combines `copies` onto `original` into `output`.
    public static func combine(original: String, copies: [String], options: CombineOptions, into output: any ByteOutput,
                               diagnostics: Diagnostics) throws -> CombineResult {
        guard !copies.isEmpty else { throw RedlineError.usage("name at least one copy to combine") }
        var plans: [ApplyPlan] = [], names: [String] = [], skipped: [String] = []
        var format: Format?
        var originalRejected: [String] = []
        for copy in copies {
            let name = reviewer(of: copy, options: options)
            let o = ApplyOptions(compare: CompareOptions(author: name, date: options.date), read: options.read)
            do {
                let (plan, f, _, _, rejected) = try Application.prepare(edited: copy, onto: original, options: o,
                                                                        diagnostics: diagnostics)
                originalRejected = rejected
                plans.append(plan)
                names.append(name)
                format = f
            } catch let e as RedlineError where e.kind == .usage && e.message.contains("does not look like a version") {
                guard options.skipUnrelated else {
                    throw RedlineError.usage("\(copy) is not a version of \(original) (--skip-unrelated combines the others)")
                }
                diagnostics.report(.combineSkipped, "\(copy) is not a version of \(original): left out")
                skipped.append(copy)
            }
        }
        guard let format, let applier = format.applier else {
            throw RedlineError.usage("no copy of \(original) to combine")
        }
        let combined = ApplyPlan.combined(plans, reviewers: names, prefer: options.prefer)
        if let p = options.prefer, !names.contains(p) {
            throw RedlineError.usage("--prefer \(p): no copy's reviewer is called that (reviewers: \(names.joined(separator: ", ")))")
        }
        try LargeStack.run {
            let buffer = MemoryOutput()
            try applier.apply(combined.plan, original: .file(original), accept: options.accept,
                              limits: options.read.limits, diagnostics: diagnostics, into: buffer)
            try Application.verify(buffer.bytes, format: format, plan: combined.plan, expected: nil,
                                   originalRejected: originalRejected,
                                   accepted: options.accept, limits: options.read.limits)
            try output.write(bytes: buffer.bytes)
            try output.flush()
        }
        if !combined.conflicts.isEmpty {
            diagnostics.report(.combineConflicts, "reviewers changed the same text differently in \(combined.conflicts.count == 1 ? "one place" : "\(combined.conflicts.count) places"): the preferred change kept, the other as a comment (--report lists them)",
                               count: combined.conflicts.count)
        }
        return CombineResult(conflicts: combined.conflicts, reviewers: combined.reviewers, skipped: skipped)
    }

    /// Combines into the file at `path`, written whole or not at all.
    public static func combine(original: String, copies: [String], options: CombineOptions, toFile path: String,
                               diagnostics: Diagnostics) throws -> CombineResult {
        var result = CombineResult(conflicts: [], reviewers: [], skipped: [])
        try AtomicFile.write(to: path, protecting: path == original ? copies : [original] + copies) { out in
            result = try combine(original: original, copies: copies, options: options, into: out, diagnostics: diagnostics)
        }
        return result
    }
}

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
    /// The reviewer a copy is attributed to: `reviewerOf`, else who last saved it (where its format records
    /// it, and no other copy has the same), else its file name without extension.
    public static func reviewer(of copy: String, options: CombineOptions) -> String {
        reviewers(of: [copy], options: options)[0]
    }

    /// The reviewers of `copies` (see `reviewer(of:options:)`).
    public static func reviewers(of copies: [String], options: CombineOptions) -> [String] {
        let saved = copies.map { c in
            FormatRegistry.inferred(fromPath: c).flatMap { Application.lastEditor(of: c, format: $0, limits: options.read.limits) }
        }
        return copies.enumerated().map { i, copy in
            if let n = options.reviewerOf[copy] { return n }
            if let n = saved[i], saved.filter({ $0 == n }).count == 1 { return n }
            return ((copy as NSString).lastPathComponent as NSString).deletingPathExtension
        }
    }

    /// Combines `copies` onto `original` into `output`.
    public static func combine(original: String, copies: [String], options: CombineOptions, into output: any ByteOutput,
                               diagnostics: Diagnostics) throws -> CombineResult {
        guard !copies.isEmpty else { throw RedlineError.usage("name at least one copy to combine") }
        let names = reviewers(of: copies, options: options)
        let baseOptions = ApplyOptions(read: options.read)
        let originalFormat = try Application.originalFormat(original, options: baseOptions)
        var read = options.read
        read.loadLinkedMedia = read.loadLinkedMedia
            || copies.contains { Comparison.crossesFormats(old: original, new: $0, from: nil) }
        let (document, _) = try Comparison.read(original, format: originalFormat, options: read, diagnostics: Diagnostics())
        let prepared = Application.PreparedOriginal(path: original, format: originalFormat, document: document, read: read)
        // What each copy's format makes of ORIGINAL, worked out once per format.
        var bases: [String: Document] = [:]
        for copy in copies {
            guard let f = FormatRegistry.inferred(fromPath: copy), bases[f.name] == nil else { continue }
            bases[f.name] = prepared.base(through: f)
        }
        // Each copy read and planned on its own (two at a time): a copy's work is independent of the others'.
        let outcomes = Outcomes(count: copies.count)
        let formatBases = bases, planRead = read
        let work: @Sendable (Int) -> Void = { i in
            let d = Diagnostics()
            outcomes.set(i, Result {
                let o = ApplyOptions(compare: CompareOptions(author: names[i], date: options.date), read: planRead)
                let (e, f) = try Comparison.read(copies[i], format: nil, options: planRead, diagnostics: d)
                let (plan, _, _) = try Application.plan(edited: copies[i], document: e, format: f, onto: prepared,
                                                        base: formatBases[f.name], options: o, diagnostics: d)
                return plan
            }, d)
        }
        let half = (copies.count + 1) / 2
        let thread = copies.count > 1 ? StackThread.spawn(name: "redline-copies") { for i in half..<copies.count { work(i) } } : nil
        for i in 0..<(thread == nil ? copies.count : half) { work(i) }
        thread?.join()
        var plans: [ApplyPlan] = [], kept: [String] = [], skipped: [String] = []
        for (i, copy) in copies.enumerated() {
            let (result, d) = outcomes.get(i)
            diagnostics.absorb([d])
            do {
                plans.append(try result.get())
                kept.append(names[i])
            } catch let e as RedlineError where e.kind == .usage && e.message.contains("does not look like a version") {
                guard options.skipUnrelated else {
                    throw RedlineError.usage("\(copy) is not a version of \(original) (--skip-unrelated combines the others)")
                }
                diagnostics.report(.combineSkipped, "\(copy) is not a version of \(original): left out")
                skipped.append(copy)
            }
        }
        let format: Format? = plans.isEmpty ? nil : originalFormat
        let originalRejected = prepared.rejectedText()
        guard let format, let applier = format.applier else {
            throw RedlineError.usage("no copy of \(original) to combine")
        }
        let combined = ApplyPlan.combined(plans, reviewers: kept, prefer: options.prefer)
        if let p = options.prefer, !kept.contains(p) {
            throw RedlineError.usage("--prefer \(p): no copy's reviewer is called that (reviewers: \(kept.joined(separator: ", ")))")
        }
        try LargeStack.run {
            let buffer = MemoryOutput()
            try applier.apply(combined.plan, original: .file(original), accept: options.accept,
                              limits: options.read.limits, diagnostics: diagnostics, into: buffer)
            try Application.verify(buffer.bytes, format: format, plan: combined.plan, expected: nil,
                                   originalRejected: originalRejected,
                                   stories: Application.StoriesCheck(plan: combined.plan, compared: nil, original: document),
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

/// Each copy's plan (or error) and warnings, filled by two threads.
private final class Outcomes: @unchecked Sendable {
    // Safety: each index is written by one thread only, before the join that precedes every read.
    private let lock = NSLock()
    private var results: [(Result<ApplyPlan, any Error>, Diagnostics)?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ r: Result<ApplyPlan, any Error>, _ d: Diagnostics) { lock.withLock { results[i] = (r, d) } }

    func get(_ i: Int) -> (Result<ApplyPlan, any Error>, Diagnostics) { lock.withLock { results[i]! } }
}

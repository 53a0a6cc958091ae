import Foundation
import RedlineCore
import RedlineConversion
import RedlineBatch

/// A conversion whose losses `check` measures: `lossy:docx->md` (DOCX inputs converted to Markdown)
/// or `lossy:md` (any input converted to Markdown).
public struct LossyTarget: Hashable, Sendable, CustomStringConvertible {
    /// The input format it applies to (nil: any).
    public var from: String?
    /// The output format.
    public var to: String

    /// Parses `docx->md` or `md` (with or without the `lossy:` prefix); throws a usage error for a
    /// format Redline does not know, cannot read or cannot write.
    public init(parsing text: String) throws {
        var t = Substring(text)
        if t.hasPrefix("lossy:") { t = t.dropFirst(6) }
        let parts = t.components(separatedBy: "->")
        guard (1...2).contains(parts.count), !parts.contains(where: \.isEmpty) else {
            throw RedlineError.usage("'\(text)': expected lossy:FROM->TO or lossy:TO (e.g. lossy:docx->md)")
        }
        if parts.count == 2 {
            guard let f = FormatRegistry.named(parts[0]), f.reader != nil else {
                throw RedlineError.usage("'\(text)': Redline cannot read '\(parts[0])' (see 'redline formats')")
            }
            from = f.name
        }
        guard let to = FormatRegistry.named(parts[parts.count - 1]), to.writer != nil else {
            throw RedlineError.usage("'\(text)': Redline cannot write '\(parts[parts.count - 1])' (see 'redline formats')")
        }
        self.to = to.name
    }

    public var description: String { "lossy:" + (from.map { $0 + "->" } ?? "") + to }

    /// True when it applies to inputs in `format`.
    public func applies(to format: String) -> Bool { from == nil || from == format }
}

/// What `check` looks for and what makes it fail (`--fail-on changes,comments,lossy:docx->md`).
///
/// | name | finds |
/// |---|---|
/// | `changes` | unresolved tracked changes (insertions, deletions, moves, formatting, paragraph marks, rows) |
/// | `comments` | open comments (threads not marked resolved) |
/// | `resolved` | resolved comments still in the document |
/// | `links` | internal links (`#name`) to no heading or anchor |
/// | `footnotes` | references to missing notes, and notes nothing refers to |
/// | `lossy:FROM->TO` | what converting FROM inputs to TO loses (the reader's and writer's warnings) |
public struct CheckPolicy: Sendable, Hashable {
    /// The categories every check reports on.
    public static let categories = ["changes", "comments", "resolved", "links", "footnotes"]

    /// Categories whose findings fail the check.
    public var failOn: Set<String>
    /// The conversions whose losses are measured (those in `failOn` and those only reported).
    public var lossy: [LossyTarget]

    /// Parses `--fail-on` (comma-separated names; `none` for nothing) and extra report-only lossy targets.
    public init(failOn text: String, report extra: [String] = []) throws {
        var fail: Set<String> = []
        var lossy: [LossyTarget] = []
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            if item == "none" { continue }
            if item == "all" { fail.formUnion(Self.categories); continue }
            if item.hasPrefix("lossy") {
                let t = try LossyTarget(parsing: item)
                fail.insert(t.description)
                if !lossy.contains(t) { lossy.append(t) }
            } else if Self.categories.contains(item) {
                fail.insert(item)
            } else {
                throw RedlineError.usage("--fail-on: unknown '\(item)' (use \(Self.categories.joined(separator: ", ")), lossy:FROM->TO, all or none)")
            }
        }
        for item in extra {
            let t = try LossyTarget(parsing: item)
            if !lossy.contains(t) { lossy.append(t) }
        }
        failOn = fail
        self.lossy = lossy
    }

    /// True when findings in `category` fail the check.
    public func fails(_ category: String) -> Bool { failOn.contains(category) }
}

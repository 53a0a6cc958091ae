import Foundation
import RedlineDOCX
import RedlineCore
import RedlineConversion
import RedlineBatch

/// What `check` found in one file.
public struct CheckResult: Codable, Sendable, Hashable {
    /// The file's path.
    public var input: String
    /// The format it was read as.
    public var format: String?
    /// What was found, by category.
    public var findings: [CheckFinding]
    /// Set when the file could not be read at all (the check fails).
    public var error: BatchRecord.Failure?
    /// The categories this file was checked for (`lossy:...` only where they apply to its format).
    public var checked: [String]

    public init(input: String, format: String?, findings: [CheckFinding], error: BatchRecord.Failure? = nil,
                checked: [String] = []) {
        self.input = input
        self.format = format
        self.findings = findings
        self.error = error
        self.checked = checked
    }

    /// True when the file could not be read or a finding's category is one `--fail-on` names.
    public var failed: Bool { error != nil || findings.contains { $0.failing } }
}

/// `redline check`: reads each document once and reports what it still holds (tracked changes,
/// comments, broken internal links and notes) and what converting it would lose, while the chunks
/// stream through writers into outputs that discard the bytes.
public enum DocumentCheck {
    /// Checks one file.
    /// `review` and `write` are the options of the `lossy:` conversions (what converting with them loses).
    public static func check(_ path: String, from: Format? = nil, policy: CheckPolicy,
                             read: ReadOptions = ReadOptions(), review: ReviewOptions = ReviewOptions(),
                             write: WriteOptions = WriteOptions()) -> CheckResult {
        let format = from ?? FormatRegistry.inferred(fromPath: path)
        var result = CheckResult(input: path, format: format?.name, findings: [], checked: [])
        do {
            guard let format else {
                throw RedlineError.unsupported("cannot tell the format of \(path) from its extension; name it with --from")
            }
            guard let reader = format.reader else { throw RedlineError.unsupported("Redline cannot read \(format.name)") }
            var st = stat()
            if stat(path, &st) == 0 && st.st_mode & S_IFMT != S_IFREG {
                throw RedlineError.io("not a regular file")
            }
            let applicable = policy.lossy.filter { $0.applies(to: format.name) }
            // A target the plan reviews in place loses nothing: only model conversions are run for their losses.
            let targets = applicable.filter { t in
                guard let to = FormatRegistry.named(t.to), to.writer != nil else { return false }
                return ConversionPlan(ConversionOptions(from: format, to: to, review: review, read: read, write: write)).route == .model
            }
            result.checked = CheckPolicy.categories + applicable.map(\.description)
            let readDiagnostics = Diagnostics()
            var writerDiagnostics: [Diagnostics] = []
            /// Each lossy conversion's review filters, tallied by its engines (those that select nothing are findings).
            var tallies: [(LossyTarget, FilterTally)] = []
            var inspector = DocumentInspector()
            var changeRows: [ChangeRow] = []
            inspector.positions = SourcePositions.marks(of: path, format: format)
            try LargeStack.run {  // documents nest as deep as the readers allow (inline on a check worker)
                var source = try reader.open(.file(path), options: read, diagnostics: readDiagnostics)
                var branches: [TeeBranch] = []
                for t in targets {
                    guard let to = FormatRegistry.named(t.to) else { continue }
                    let d = Diagnostics()
                    writerDiagnostics.append(d)
                    var conversion = ConversionOptions(from: format, to: to, review: review, read: read, write: write)
                    if review.hasFilters {
                        let tally = FilterTally()
                        conversion.review.tally = tally
                        tallies.append((t, tally))
                    }
                    branches.append(try conversion.branch(into: DiscardOutput(), diagnostics: d))
                }
                // The changes as `redline changes` lists them, from the same chunks (a format listed from its file, DOCX,
                // is listed from the file below).
                var numbering = NumberChanges(), listing = ModelChangeList()
                let listsChunks = format.changeLister == nil
                try TeePipeline.run(source: &source, branches: &branches) { chunk in
                    inspector.inspect(chunk)
                    if listsChunks { try numbering.process(chunk) { listing.add($0) } }
                }
                changeRows = listsChunks ? ChangeRow.rows(listing.all)
                    : try ChangeListing.rows(.file(path), format: format, options: read)
            }
            // A reader that drops bookmarks (DOCX) leaves links to them nothing to point at.
            let bookmarksDropped = readDiagnostics.count(of: .docxBookmark) > 0
            result.findings = inspector.findings(bookmarksDropped: bookmarksDropped, changes: changeRows)
            for (t, d) in zip(targets, writerDiagnostics) {
                for w in readDiagnostics.all + d.all {
                    result.findings.append(CheckFinding(category: t.description, code: w.code.rawValue,
                                                        message: w.message, location: w.location, count: w.count))
                }
            }
            for (t, tally) in tallies {
                for u in FilterReport.unmatched(review, tally: tally) {
                    result.findings.append(CheckFinding(category: t.description, code: DiagnosticCode.reviewFilterUnmatched.rawValue,
                                                        message: u.message))
                }
            }
            result.findings = Self.inDocumentOrder(result.findings)
            for i in result.findings.indices where result.findings[i].code != DocumentInspector.unverified {
                result.findings[i].failing = policy.fails(result.findings[i].category)
            }
        } catch {
            result.error = BatchRecord.Failure(error)
        }
        return result
    }

    /// `findings` in document order: by line (Markdown sources), then paragraph, then column; those without a
    /// place (reader warnings about the whole document) after, in the order they came. A stable order.
    static func inDocumentOrder(_ findings: [CheckFinding]) -> [CheckFinding] {
        func key(_ k: Int, _ f: CheckFinding) -> (Int, Int, Int, Int, Int) {
            let l = f.location
            let placed = l?.line != nil || l?.paragraph != nil
            return (placed ? 0 : 1, l?.line ?? Int.max, l?.paragraph ?? Int.max, f.column ?? 0, k)
        }
        return findings.enumerated().sorted { key($0.offset, $0.element) < key($1.offset, $1.element) }.map(\.element)
    }

    /// Checks many files, `jobs` at a time; results in the order of `paths`.
    public static func check(_ paths: [String], from: Format? = nil, policy: CheckPolicy, read: ReadOptions = ReadOptions(),
                             review: ReviewOptions = ReviewOptions(), write: WriteOptions = WriteOptions(),
                             jobs: Int = ProcessInfo.processInfo.activeProcessorCount) -> [CheckResult] {
        WorkerPool.map(count: paths.count, jobs: jobs, name: "redline-check") {
            check(paths[$0], from: from, policy: policy, read: read, review: review, write: write)
        }
    }
}

/// An output that counts bytes and keeps none (a conversion run only for its warnings).
public final class DiscardOutput: ByteOutput {
    /// Bytes written so far.
    public private(set) var count = 0
    public init() {}
    public func write(_ bytes: UnsafeRawBufferPointer) throws { count += bytes.count }
    public func flush() throws {}
}

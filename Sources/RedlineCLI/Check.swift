import ArgumentParser
import Foundation
import Redline

extension CheckOutputFormat: RawValueArgument {}

extension RedlineCommand {
    /// `redline check`: what documents still hold, for CI.
    public struct Check: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Report what documents still hold (tracked changes, comments, broken links and notes, losses) and fail on what --fail-on names.",
            discussion: """
            Categories (for --fail-on, comma-separated):
              changes          unresolved tracked changes (text, moves, formatting,
                               paragraph breaks and styles, table rows)
              comments         open comments
              resolved         resolved comments still in the document
              links            internal links (#name) to no heading or anchor
              footnotes        references to missing notes, notes nothing refers to
              lossy:FROM->TO   what converting FROM inputs to TO would lose
                               (lossy:TO: inputs of any format)
              all / none
            Every category is reported; only those named fail. Quote lossy \
            targets in a shell: 'lossy:docx->md'.
            Examples:
              redline check manuscript.docx
              redline check ch/ --fail-on 'changes,comments,lossy:docx->md' \\
                --format github
              redline check *.docx --format junit -o redline-junit.xml

            Exit status: 0 nothing named by --fail-on was found, 1 something was \
            (or a file could not be read), 2 usage error.
            """)

        @Argument(help: "Files or directories to check.")
        public var inputs: [String] = []

        @Option(help: "Input format (default: from each file's extension).")
        public var from: String?

        @Option(name: .customLong("fail-on"), help: ArgumentHelp("What fails the check.", valueName: "categories"))
        public var failOn: String = "links,footnotes"

        @Option(help: ArgumentHelp("Also report (without failing) what a conversion would lose (repeatable).", valueName: "FROM->TO"))
        public var lossy: [String] = []

        @Option(help: "Output: text, json, github (Actions annotations) or junit (XML).")
        public var format: CheckOutputFormat = .text

        @Option(name: .shortAndLong, help: "Write the output to this file instead of standard output.")
        public var output: String?

        @OptionGroup public var selection: SelectionFlags

        @OptionGroup(title: "Options of the lossy: conversions") public var review: ReviewFlags

        @OptionGroup(title: "Formatting of the lossy: conversions") public var formatting: FormattingFlags

        @Option(help: ArgumentHelp("Compare the one input with this older version: 'changes' are the differences (see redline compare).", valueName: "OLD"))
        public var against: String?

        public init() {}

        public func run() throws {
            if let against { try runAgainst(against); return }
            guard !inputs.isEmpty else { throw RedlineError.usage("no file to check") }
            let policy = try CheckPolicy(failOn: failOn, report: lossy)
            let from = try from.map { try ConversionFlags.format(named: $0, path: nil, fallback: nil) }
            let found = try InputSelection(paths: inputs, include: selection.include.map(Glob.init),
                                           exclude: selection.exclude.map(Glob.init)).discover()
            let readable = found.filter { $0.problem == nil }.map(\.path)
            var results = DocumentCheck.check(readable, from: from, policy: policy, review: review.review,
                                              write: formatting.writeOptions, jobs: selection.threads)
            for bad in found where bad.problem != nil {
                results.append(CheckResult(input: bad.path, format: nil, findings: [],
                                           error: BatchRecord.Failure(bad.problem!)))
            }
            results.sort { $0.input < $1.input }
            let text = try CheckReport.render(results, as: format)
            if let output {
                try AtomicFile.write(to: output) { try $0.write(text) }
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
            if results.contains(where: \.failed) { throw ExitCode(1) }
        }
    }
}

extension RedlineCommand.Check {
    /// `redline check NEW --against OLD`: the differences between the two versions are the findings;
    /// with `changes` (or `all`) in --fail-on, any difference fails the check.
    func runAgainst(_ old: String) throws {
        guard inputs.count == 1 else { throw RedlineError.usage("--against compares one file: redline check NEW --against OLD") }
        let new = inputs[0]
        let ((a, oldFormat), (b, newFormat)) = try RedlineCommand.Compare.readBoth(old, new, from: from)
        let diagnostics = Diagnostics()
        let options = oldFormat.isSame(as: newFormat)
            ? CompareOptions(author: "Redline") : DocumentComparer.acrossFormats(CompareOptions(author: "Redline"), old: a, new: b)
        let s = try LargeStack.run {
            DocumentComparer.compare(old: a, new: b, options: options, diagnostics: diagnostics).1
        }
        let names = failOn.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let fails = !s.isEmpty && (names.contains("changes") || names.contains("all"))
        var text: String
        switch format {
        case .json:
            var o: [String: Any] = s.jsonObject
            o["old"] = old; o["new"] = new; o["changed"] = !s.isEmpty; o["failed"] = fails
            text = String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self) + "\n"
        case .github:
            text = s.isEmpty ? "" : "::\(fails ? "error" : "notice") file=\(new)::\(new) differs from \(old): \(s.insertions) insertions, \(s.deletions) deletions, \(s.moves) moves, \(s.formatChanges) formatting changes, \(s.wordsChanged) words changed\n"
        default:
            text = s.isEmpty ? "\(new): no changes against \(old)\n"
                : "\(new): changes against \(old)\n" + s.text.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
        }
        if let output {
            try AtomicFile.write(to: output) { try $0.write(bytes: Array(text.utf8)) }
        } else {
            print(text, terminator: "")
        }
        if fails { throw ExitCode(1) }
    }
}

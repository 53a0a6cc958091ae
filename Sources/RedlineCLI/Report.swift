import ArgumentParser
import Foundation
import Redline

extension RedlineCommand {
    /// `redline report`: work with batch reports.
    public struct Report: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Work with batch reports (--report).",
            subcommands: [Merge.self])

        public init() {}

        /// `redline report merge`: per-shard reports into one.
        public struct Merge: ParsableCommand {
            public static let configuration = CommandConfiguration(
                commandName: "merge",
                abstract: "Merge the JSON Lines reports of several shards into one report.",
                discussion: """
                The merged report has every input line, sorted by input, and one \
                summary over all of them. An input found in two reports is an error \
                (the shards overlapped).
                  redline report merge reports/shard-*.jsonl -o report.jsonl
                Exit status: 0 merged, 1 a report is missing, unreadable or overlaps \
                another, 2 usage error.
                """)

            @Argument(help: "The reports to merge.")
            public var reports: [String] = []

            @Option(name: .shortAndLong, help: "Write the merged report here (default: standard output).")
            public var output: String = "-"

            public init() {}

            public func run() throws {
                guard !reports.isEmpty else { throw RedlineError.usage("no report to merge") }
                let (records, summary) = try BatchReport.merge(reports)
                if output == "-" {
                    FileHandle.standardOutput.write(Data(try BatchReport.jsonLines(records, summary: summary).utf8))
                } else {
                    try BatchReport.write(records, summary: summary, to: output)
                }
                FileHandle.standardError.write(Data(("redline: " + ProgressDisplay.summaryLine(summary) + "\n").utf8))
            }
        }
    }
}

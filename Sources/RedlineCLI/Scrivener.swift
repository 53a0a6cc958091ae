import ArgumentParser
import Foundation
import Redline

extension ScrivenerMigrationOptions.Layout: RawValueArgument {}

extension RedlineCommand {
    /// `redline scrivener`: migrates a Scrivener project to Markdown/CriticMarkup, DOCX or RTF.
    public struct Scrivener: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "scrivener",
            abstract: "Migrate a Scrivener project (.scriv folder) in manuscript order.",
            discussion: """
            Reads the binder: the Draft (Manuscript) folder depth first in binder order, items not included in \
            compile left out, Trash and Research left out (--research exports Research into a folder of its own). \
            Scrivener 2 and 3 projects. Comments and footnotes become comments and footnotes, links between \
            documents become links between the outputs. The project is only read. Warnings are printed one line \
            per code with a few binder items as examples (-v: every item's).
              --layout single   one manuscript (OUT is a file); titles as headings
                                by depth, metadata under them
              --layout tree     one file per binder item in numbered folders
                                (OUT is a folder), with an index
            Examples:
              redline scrivener Novel.scriv -o novel.md
              redline scrivener Novel.scriv -o novel --layout tree --to md --research
              redline scrivener Novel.scriv -o novel.docx --report report.jsonl
            """)

        @Argument(help: "The project: a .scriv folder (or its .scrivx binder).")
        public var project: String

        @Option(name: .shortAndLong, help: "The output: a file (single layout) or a folder (tree layout).")
        public var output: String

        @Option(help: "Output format: md, critic, docx or rtf (default: from the output's extension, else md).")
        public var to: String?

        @Option(help: "single (one manuscript) or tree (one file per binder item).")
        public var layout: ScrivenerMigrationOptions.Layout = .single

        @Flag(help: "Also export the Research folder, into a folder of its own.")
        public var research = false

        @Flag(help: "Also export each document's snapshots beside it.")
        public var snapshots = false

        @OptionGroup public var review: ReviewFlags

        @OptionGroup public var formatting: FormattingFlags

        @Option(help: "Write a JSON Lines report here: one object per migrated item, then one for the project.")
        public var report: String?

        @Flag(name: .shortAndLong, help: "Do not print warnings to standard error.")
        public var quiet = false

        @Flag(name: .shortAndLong, help: "Print every binder item's warnings (by default one line per warning code, with a few items as examples).")
        public var verbose = false

        @Option(name: .customLong("warnings-json"), help: "Also write every warning as JSON to this file: one entry per binder item, then the project's.")
        public var warningsJSON: String?

        public init() {}

        public func run() throws {
            let format = try resolveFormat()
            let options = ScrivenerMigrationOptions(format: format, layout: layout, research: research,
                                                    snapshots: snapshots, review: review.review,
                                                    write: formatting.writeOptions)
            let result = try ScrivenerMigration.run(project: project, output: output, options: options)
            if let report {
                let lines = try result.jsonLines(project: project)
                try AtomicFile.write(to: report) { try $0.write(bytes: lines) }
            }
            if let warningsJSON {
                var all = result.records.map { WarningReport.FileWarnings(input: $0.binder, warnings: $0.diagnostics) }
                if !result.project.isEmpty { all.append(WarningReport.FileWarnings(input: project, warnings: result.project)) }
                let data = try WarningReport.jsonData(all)
                try AtomicFile.write(to: warningsJSON) { try $0.write(bytes: [UInt8](data) + [10]) }
            }
            if !quiet { printSummary(result) }
            if result.hasFailures { throw ExitCode(1) }
        }

        private func resolveFormat() throws -> Format {
            let name: String
            if let to {
                name = to
            } else if layout == .single, let f = FormatRegistry.inferred(fromPath: output) {
                return f
            } else {
                name = "md"
            }
            guard let f = FormatRegistry.named(name) else {
                throw RedlineError.usage("unknown or not yet available format '\(name)' (see 'redline formats')")
            }
            return f
        }

        private func printSummary(_ r: MigrationReport) {
            var lines: [String] = []
            for rec in r.records where !rec.succeeded {
                lines.append("redline: \(rec.binder): error: \(rec.failure?.message ?? "failed")")
            }
            if verbose {
                for rec in r.records {
                    for d in rec.diagnostics { lines.append("redline: \(rec.binder): \(d)") }
                }
            } else {
                // One line per code: a long binder path is printed a few times, not once per warning.
                let parts = r.records.map { (place: $0.binder, diagnostics: $0.diagnostics) }
                for line in WarningReport.groupedLines(parts) { lines.append("redline: \(project): \(line)") }
            }
            for d in r.project { lines.append("redline: \(project): \(d)") }
            let ok = r.records.filter(\.succeeded).count
            let files = r.outputs.count == 1 ? "1 file" : "\(r.outputs.count) files"
            lines.append("redline: migrated \(ok) of \(r.records.count) binder items into \(files)")
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}

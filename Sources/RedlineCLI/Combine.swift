import ArgumentParser
import Foundation
import Redline

extension RedlineCommand {
    /// `redline combine`: several reviewers' copies of one document in one file, each change under its reviewer.
    public struct Combine: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "combine",
            abstract: "Combine reviewers' copies of a document into one file, each change under its reviewer.",
            usage: "redline combine <original> <copies> ... [-o <output>] [<options>]",
            discussion: """
            Each copy's changes from ORIGINAL (its tracked changes with their own authors when its rejected text is \
            ORIGINAL's, else its differences found by comparison, attributed to the copy's reviewer) are written \
            into ORIGINAL's own file as apply does: ORIGINAL byte for byte except where some copy differs. The \
            same change made by several reviewers is written once. Where two reviewers changed the same text \
            differently, the preferred reviewer's change is kept (--prefer, else the copy named first) and the \
            other's is written as a comment there; --report lists every conflict.
              redline combine paper.md alice.docx bob.docx > combined.md
              redline combine deal.docx a.docx b.docx -o all.docx --report conflicts.json
              redline combine book/ alice/ bob/ -o combined/
            Directories pair files by relative path without extension; each ORIGINAL is combined with the copies \
            found for it (those missing reported), a failed one reported and the rest carried on.

            Exit status: 0 combined, 1 failed, 2 usage error.
            """)

        @Argument(help: "The original file (Markdown, DOCX or RTF).")
        public var original: String

        @Argument(help: "The reviewers' copies (any format Redline reads).")
        public var copies: [String]

        @Option(name: .shortAndLong, help: "The output file, or - for standard output (the default for Markdown; DOCX needs a file).")
        public var output: String = "-"

        @Option(name: .customLong("author-of"), help: "COPY=NAME: the reviewer of a copy (default: who last saved it if a DOCX or RTF says, else its file name). Repeatable.")
        public var authorOf: [String] = []

        @Option(help: "The reviewer whose change is kept where two conflict.")
        public var prefer: String?

        @Option(help: "The date of untracked edits, ISO 8601 (default: now, or $SOURCE_DATE_EPOCH when set).")
        public var date: String?

        @Option(help: "marked (default): the changes tracked; accept: every change applied.")
        public var changes: String = "marked"

        @Flag(name: .customLong("skip-unrelated"), help: "Leave out a copy that is not a version of ORIGINAL (by default it stops the combine).")
        public var skipUnrelated = false

        @Option(help: "Write the conflicts as JSON to this file.")
        public var report: String?

        @Flag(help: "Print per reviewer: insertions, deletions, substitutions, formatting changes, comments, paragraphs, conflicts.")
        public var stats = false

        @Flag(name: .shortAndLong, help: "Do not print warnings to standard error.")
        public var quiet = false

        public init() {}

        public func run() throws {
            guard changes == "marked" || changes == "accept" else { throw RedlineError.usage("--changes takes marked or accept") }
            var options = CombineOptions()
            for pair in authorOf {
                guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                    throw RedlineError.usage("--author-of takes COPY=NAME, not '\(pair)'")
                }
                options.reviewerOf[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
            }
            options.prefer = prefer
            options.date = date ?? Compare.defaultDate()
            options.accept = changes == "accept"
            options.skipUnrelated = skipUnrelated
            if DirectoryPairs.isDirectory(original) {
                try runDirectories(options)
                return
            }
            if output == "-", let f = FormatRegistry.inferred(fromPath: original), f.inPlaceReviewer != nil {
                throw RedlineError.usage("\(original) is \(f.displayName): name the output with -o")
            }
            let diagnostics = Diagnostics()
            let result: CombineResult
            if output == "-" {
                result = try Combination.combine(original: original, copies: copies, options: options,
                                                 into: FileDescriptorOutput(fd: 1, name: "standard output"),
                                                 diagnostics: diagnostics)
            } else {
                result = try Combination.combine(original: original, copies: copies, options: options, toFile: output,
                                                 diagnostics: diagnostics)
            }
            try WarningReport.emit(diagnostics.all, for: original, quiet: quiet, json: nil, target: "")
            if let report { try writeReport(["conflicts": result.conflicts], to: report) }
            if stats { printStats(result) }
        }

        /// ORIGINAL_DIR with COPY_DIRs into OUT_DIR.
        func runDirectories(_ options: CombineOptions) throws {
            guard copies.allSatisfy(DirectoryPairs.isDirectory) else {
                throw RedlineError.usage("combine a directory with directories of copies, not with files")
            }
            guard output != "-" else { throw RedlineError.usage("name the output directory with -o") }
            var failed = 0
            var allConflicts: [String: [CombineConflict]] = [:]
            for pair in DirectoryPairs.pairs(original: original, others: copies, accepts: { $0.applier != nil }) {
                var opts = options
                var found: [String] = []
                for (k, c) in pair.others.enumerated() {
                    guard let c else {
                        if !quiet { FileHandle.standardError.write(Data("redline: \(pair.original): no copy in \(copies[k])\n".utf8)) }
                        continue
                    }
                    // A copy's reviewer is its directory's name unless --author-of names the copy or the directory.
                    let dir = copies[k]
                    opts.reviewerOf[c] = options.reviewerOf[c] ?? options.reviewerOf[dir]
                        ?? ((dir as NSString).standardizingPath as NSString).lastPathComponent
                    found.append(c)
                }
                guard !found.isEmpty else { continue }
                let target = output + "/" + pair.relative
                do {
                    try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    let diagnostics = Diagnostics()
                    let result = try Combination.combine(original: pair.original, copies: found, options: opts,
                                                         toFile: target, diagnostics: diagnostics)
                    try WarningReport.emit(diagnostics.all, for: pair.original, quiet: quiet, json: nil, target: "")
                    if !result.conflicts.isEmpty { allConflicts[pair.relative] = result.conflicts }
                    if stats { printStats(result, name: pair.relative) }
                } catch let err as RedlineError {
                    failed += 1
                    FileHandle.standardError.write(Data("redline: error: \(err.message)\n".utf8))
                }
            }
            if let report { try writeReport(["conflicts": allConflicts], to: report) }
            if failed > 0 { throw ExitCode(1) }
        }

        /// `--report`: the conflicts as JSON, written whole or not at all, never over an input.
        func writeReport(_ value: some Encodable, to path: String) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(value)
            try AtomicFile.write(to: path, protecting: [original] + copies) { try $0.write(bytes: [UInt8](data)) }
        }

        func printStats(_ result: CombineResult, name: String? = nil) {
                var text = name.map { $0 + ":\n" } ?? ""
                for r in result.reviewers {
                    text += "\(r.name): insertions \(r.insertions), deletions \(r.deletions), substitutions \(r.substitutions), "
                        + "formatting \(r.formatChanges), comments \(r.comments), paragraphs inserted \(r.paragraphsInserted), "
                        + "deleted \(r.paragraphsDeleted), joined \(r.paragraphsJoined), restyled \(r.paragraphsRestyled), duplicates \(r.duplicates), conflicts \(r.conflicts)\n"
                }
                FileHandle.standardError.write(Data(text.utf8))
        }
    }
}

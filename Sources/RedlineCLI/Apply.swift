import ArgumentParser
import Foundation
import Redline

extension RedlineCommand {
    /// `redline apply`: EDITED's differences from ORIGINAL written into ORIGINAL's own file as tracked changes.
    public struct Apply: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "apply",
            abstract: "Write an edited version's changes into the original file as tracked changes.",
            usage: "redline apply <edited> --onto <original> [-o <output>] [<options>]",
            discussion: """
            The result is ORIGINAL, byte for byte, except where EDITED differs: there the differences are \
            tracked changes in ORIGINAL's own syntax (CriticMarkup in Markdown, w:ins/w:del in DOCX, \\revised/\\deleted \
            in RTF). EDITED \
            may be any format Redline reads. When EDITED holds tracked changes and its rejected text is \
            ORIGINAL's (a co-author reviewed the DOCX made from ORIGINAL), those changes are carried with their \
            own authors and dates, and its comments with them; otherwise EDITED is compared with ORIGINAL and \
            the differences are attributed to --author.
              redline apply reviewed.docx --onto paper.md > paper-reviewed.md
              redline apply contract.md --onto contract.docx -o contract-redlined.docx
              redline apply letter.md --onto letter.rtf -o letter-redlined.rtf
              redline apply edited.md --onto notes.md --in-place
              redline apply edited/ --onto book/ -o reviewed/
            Two directories pair files by relative path without extension (book/ch1.md with edited/ch1.docx); \
            each ORIGINAL is applied onto in turn, a failed one reported and the rest carried on; an ORIGINAL \
            with no edited counterpart is reported and left out.

            Exit status: 0 applied, 1 failed, 2 usage error.
            """)

        @Argument(help: "The edited version (any format Redline reads).")
        public var edited: String

        @Option(help: "The original file the changes land in (Markdown, .qmd, .Rmd, DOCX or RTF).")
        public var onto: String

        @Option(name: .shortAndLong, help: "The output file, or - for standard output (the default for Markdown; DOCX and RTF need a file).")
        public var output: String?

        @Flag(name: .customLong("in-place"), help: "Write the result over ORIGINAL (atomically).")
        public var inPlace = false

        @Option(name: [.customShort("f"), .long], help: "EDITED's format (default: from its extension).")
        public var from: String?

        @Option(help: "The author of changes EDITED did not track (default: who last saved EDITED if a DOCX or RTF says, else $REDLINE_AUTHOR, $GIT_AUTHOR_NAME, $USER, else Redline).")
        public var author: String?

        @Option(help: "The date of those changes, ISO 8601 (default: now, or $SOURCE_DATE_EPOCH when set).")
        public var date: String?

        @Option(help: "marked (default): the changes tracked; accept: ORIGINAL updated to EDITED's text, unmarked.")
        public var changes: String = "marked"

        @Flag(help: "Apply even when EDITED has almost nothing in common with ORIGINAL.")
        public var force = false

        @Flag(name: .customLong("dry-run"), help: "Write nothing; with --stats, say what would change.")
        public var dryRun = false

        @Flag(help: "Print counts of what was applied.")
        public var stats = false

        @Flag(name: .shortAndLong, help: "Do not print warnings to standard error.")
        public var quiet = false

        public init() {}

        public func run() throws {
            guard changes == "marked" || changes == "accept" else {
                throw RedlineError.usage("--changes takes marked or accept")
            }
            if DirectoryPairs.isDirectory(edited) || DirectoryPairs.isDirectory(onto) {
                try runDirectories()
                return
            }
            guard let format = FormatRegistry.inferred(fromPath: onto) else {
                throw RedlineError.usage("cannot tell the format of '\(onto)' from its extension")
            }
            let options = try applyOptions()
            if inPlace && output != nil { throw RedlineError.usage("--in-place writes ORIGINAL: do not also give -o") }
            let target = inPlace ? onto : (output ?? "-")
            if target == "-", format.inPlaceReviewer != nil, !dryRun {
                throw RedlineError.usage("\(onto) is \(format.displayName): name the output with -o (or --in-place)")
            }
            let diagnostics = Diagnostics()
            let s = try applyOne(edited: edited, onto: onto, target: target, options: options, diagnostics: diagnostics)
            try WarningReport.emit(diagnostics.all, for: edited, quiet: quiet, json: nil, target: format.name)
            if stats { printStats(s) }
        }

        func applyOptions() throws -> ApplyOptions {
            var options = ApplyOptions(compare: CompareOptions(author: author ?? Compare.defaultAuthor(),
                                                               date: date ?? Compare.defaultDate()))
            options.editedFormat = try from.map { try ConversionFlags.format(named: $0, path: nil, fallback: nil) }
            options.accept = changes == "accept"
            options.force = force
            options.authorFromEdited = author == nil
            return options
        }

        func applyOne(edited: String, onto: String, target: String, options: ApplyOptions,
                      diagnostics: Diagnostics) throws -> ApplyStats {
            let s: ApplyStats
            if dryRun {
                s = try Application.plan(edited: edited, onto: onto, options: options, diagnostics: diagnostics).2
            } else if target == "-" {
                let out = FileDescriptorOutput(fd: 1, name: "standard output")
                s = try Application.apply(edited: edited, onto: onto, options: options, into: out, diagnostics: diagnostics)
            } else {
                s = try Application.apply(edited: edited, onto: onto, options: options, toFile: target, diagnostics: diagnostics)
            }
            return s
        }

        /// EDITED_DIR onto ORIGINAL_DIR, into OUT_DIR (or in place).
        func runDirectories() throws {
            guard DirectoryPairs.isDirectory(edited), DirectoryPairs.isDirectory(onto) else {
                throw RedlineError.usage("apply a directory onto a directory, not a file onto a directory")
            }
            guard inPlace != (output != nil), output != "-" else {
                throw RedlineError.usage("name the output directory with -o (or --in-place)")
            }
            let options = try applyOptions()
            var failed = 0
            for pair in DirectoryPairs.pairs(original: onto, others: [edited], accepts: { $0.applier != nil }) {
                guard let e = pair.others[0] else {
                    if !quiet { FileHandle.standardError.write(Data("redline: \(pair.original): no edited version in \(edited); left out\n".utf8)) }
                    continue
                }
                let target = inPlace ? pair.original : output! + "/" + pair.relative
                do {
                    if !dryRun {
                        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                                withIntermediateDirectories: true)
                    }
                    let diagnostics = Diagnostics()
                    let s = try applyOne(edited: e, onto: pair.original, target: target, options: options,
                                         diagnostics: diagnostics)
                    try WarningReport.emit(diagnostics.all, for: e, quiet: quiet, json: nil, target: nil)
                    if stats { printStats(s, name: pair.relative) }
                } catch let err as RedlineError {
                    failed += 1
                    FileHandle.standardError.write(Data("redline: error: \(err.message)\n".utf8))
                }
            }
            if failed > 0 { throw ExitCode(1) }
        }

        func printStats(_ s: ApplyStats, name: String? = nil) {
                let text = (name.map { $0 + ": " } ?? "") + """
                paragraphs changed: \(s.edited), deleted: \(s.deleted), inserted: \(s.inserted), restyled: \(s.restyled); \
                replacements: \(s.replacements), formatting changes: \(s.formatChanges), comments: \(s.comments); \
                \(s.keptTrackedChanges ? "EDITED's tracked changes kept" : "changes found by comparison")\n
                """
                FileHandle.standardError.write(Data(text.utf8))
        }
    }
}

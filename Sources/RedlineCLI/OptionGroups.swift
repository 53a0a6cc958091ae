import ArgumentParser
import Foundation
import Redline

/// Options of `convert` (and the format lookups every command uses): formats, review (changes, comments), formatting, warnings.
public struct ConversionFlags: ParsableArguments {
    @Option(name: [.customShort("f"), .long], help: "Input format (default: from the input's extension).")
    public var from: String?

    @Option(name: [.customShort("t"), .long], help: "Output format (default: from the output's extension, else md).")
    public var to: String?

    @Flag(name: [.customShort("s"), .long], help: "Accepted for pandoc compatibility: HTML output is always a standalone page.")
    public var standalone = false

    @Option(help: ArgumentHelp("Markdown line wrapping, as pandoc's: preserve (the default) keeps the source's line breaks, none writes each paragraph on one line, auto fills lines to --columns.", valueName: "auto|none|preserve"))
    public var wrap: PandocWrap?

    @Option(help: ArgumentHelp("The line length for --wrap=auto (default 72).", valueName: "n"))
    public var columns: Int?

    @Option(name: [.customShort("M"), .long],
            help: ArgumentHelp("Set a metadata field (repeatable): title, author, date, subject, keywords... replace the input's.", valueName: "key=value"))
    public var metadata: [String] = []

    @OptionGroup public var review: ReviewFlags

    @OptionGroup public var formatting: FormattingFlags

    @OptionGroup public var media: MediaFlags

    @Option(name: .customLong("warnings-json"), help: "Also write the warnings as JSON to this file.")
    public var warningsJSON: String?

    @Flag(name: .shortAndLong, help: "Do not print warnings to standard error.")
    public var quiet = false

    @Flag(name: .shortAndLong, help: "Print every warning on its own line (by default the formatting the output cannot hold is one line).")
    public var verbose = false

    public init() {}

    public func validate() throws {
        if let c = columns, c < 1 { throw ValidationError("--columns: expected a positive line length, not \(c)") }
        for m in metadata where !m.contains("=") && !m.contains(":") {
            throw ValidationError("--metadata: expected KEY=VALUE (or KEY:VALUE), not '\(m)'")
        }
    }

    /// The `--metadata` fields, in order (`KEY=VALUE` or pandoc's `KEY:VALUE`; a bare `KEY` is not accepted).
    public var metadataFields: [(String, String)] {
        metadata.compactMap { m in
            guard let i = m.firstIndex(where: { $0 == "=" || $0 == ":" }) else { return nil }
            return (String(m[..<i]).trimmingCharacters(in: .whitespaces),
                    String(m[m.index(after: i)...]).trimmingCharacters(in: .whitespaces))
        }
    }

    /// Warnings for pandoc flags accepted without Redline's having their meaning (`--wrap=auto`, `--columns`,
    /// format extensions such as `markdown+smart`), one line each.
    public var pandocWarnings: [String] {
        var out: [String] = []
        if columns != nil && wrap != .auto { out.append("--columns ignored: it is the line length of --wrap=auto") }
        for name in [from, to].compactMap({ $0 }) where !FormatRegistry.extensions(of: name).isEmpty {
            out.append("format extensions '\(FormatRegistry.extensions(of: name))' of '\(name)' ignored: Redline's Markdown is CommonMark with GFM tables, strikethrough, footnotes and CriticMarkup")
        }
        return out
    }

    /// Prints `pandocWarnings` to standard error unless `quiet`.
    public func emitPandocWarnings() {
        guard !quiet else { return }
        for w in pandocWarnings { FileHandle.standardError.write(Data("redline: warning: \(w)\n".utf8)) }
    }

    /// The write options these flags ask for (an `--extract-media` folder linked from `output`).
    public func writeOptions(output: String? = nil) -> WriteOptions {
        var w = media.applied(to: formatting.writeOptions, output: output)
        w.metadata = metadataFields.map { Metadata.Field(key: $0.0, value: .text($0.1)) }
        w.lineWrap = wrap.map { LineWrap(rawValue: $0.rawValue)! }
        w.columns = columns
        return w
    }

    /// The read options these flags ask for.
    public var readOptions: ReadOptions { media.readOptions }

    /// Resolves a format name, or infers one from a path.
    public func format(named name: String?, path: String?, fallback: String?) throws -> Format {
        try Self.format(named: name, path: path, fallback: fallback)
    }

    /// Resolves a format name, or infers one from a path, or takes `fallback`.
    public static func format(named name: String?, path: String?, fallback: String?) throws -> Format {
        if let name {
            guard let f = FormatRegistry.named(name) else {
                throw RedlineError.usage("unknown format '\(name)' (see 'redline formats')")
            }
            return f
        }
        if let path, path != "-", let f = FormatRegistry.inferred(fromPath: path) { return f }
        if let fallback, let f = FormatRegistry.named(fallback) { return f }
        throw RedlineError.usage("cannot tell the format of '\(path ?? "-")'; name it with --from/--to")
    }

    /// The format to write: `name` when given, else the one whose writer claims `path`'s extension, else
    /// Markdown for standard output or a name without extension. An extension no registered writer claims
    /// (`a.pdf` before a PDF writer exists, `a.odt`, `a.xyz`) is a usage error naming it and the formats there are.
    public static func outputFormat(named name: String?, path: String) throws -> Format {
        if name != nil { return try format(named: name, path: nil, fallback: nil) }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard path != "-", let dot = file.lastIndex(of: "."), dot != file.startIndex,
              file.index(after: dot) != file.endIndex else {
            return try format(named: nil, path: nil, fallback: "md")
        }
        let ext = file[file.index(after: dot)...].lowercased()
        if let f = FormatRegistry.all.first(where: { $0.writer != nil && $0.extensions.contains(ext) }) { return f }
        let known = FormatRegistry.all.filter { $0.writer != nil }.map { f in
            f.extensions.isEmpty ? f.name : "\(f.name) (" + f.extensions.map { "." + $0 }.joined(separator: ", ") + ")"
        }
        throw RedlineError.usage("'\(path)': Redline does not write '.\(ext)' files; it writes "
            + known.joined(separator: ", ") + " (name one with --to)")
    }
}

/// What happens to tracked changes and comments: one option group for convert, export, check and
/// scrivener, read into one `ReviewOptions`.
public struct ReviewFlags: ParsableArguments {
    @Option(help: "Tracked changes no --accept/--reject selects: marked (keep them), accept (clean version), reject (original version).")
    public var changes: ChangeMode = .marked

    @Option(name: .customLong("track-changes"), help: "pandoc's spelling of --changes: accept, reject, or all (marked).")
    public var trackChanges: TrackChanges?

    @Option(help: ArgumentHelp("Accept the changes this filter selects (repeatable): author=NAME, kind=KIND (insertion, deletion, move, formatting, paragraph, table or comment), before=DATE, after=DATE, id=N[,M...]; conditions separated by commas all hold.",
                               valueName: "filter"),
            transform: { try ChangeFilter(parsing: $0) })
    public var accept: [ChangeFilter] = []

    @Option(help: ArgumentHelp("Reject the changes this filter selects (repeatable; wins over --accept).", valueName: "filter"),
            transform: { try ChangeFilter(parsing: $0) })
    public var reject: [ChangeFilter] = []

    @Option(help: "Comments: keep, drop or drop-resolved (default: keep when marked, drop when accepting or rejecting).")
    public var comments: CommentPolicy?

    @Option(name: .customLong("drop-comments"),
            help: ArgumentHelp("Remove the comments (and their replies) this filter selects (repeatable): author=, before=, after=, id=.",
                               valueName: "filter"),
            transform: { try ChangeFilter(parsing: $0) })
    public var dropComments: [ChangeFilter] = []

    @Flag(name: .customLong("strict-filters"),
          help: "A --accept, --reject or --drop-comments filter that selects nothing is an error (exit status 2, nothing written), not a warning.")
    public var strictFilters = false

    public init() {}

    /// `--track-changes` sets `changes` (they may not disagree).
    public mutating func validate() throws {
        guard let t = trackChanges else { return }
        if changes != .marked && changes != t.mode {
            throw ValidationError("--track-changes=\(t.rawValue) and --changes \(changes.rawValue) disagree")
        }
        changes = t.mode
    }

    /// The review options these flags ask for.
    public var review: ReviewOptions {
        ReviewOptions(changes: changes, accept: accept, reject: reject, comments: comments, dropComments: dropComments)
    }
}

extension PDFEngineChoice: RawValueArgument {}

/// pandoc's `--wrap` values.
public enum PandocWrap: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, none, preserve
}

/// pandoc's `--track-changes` values.
public enum TrackChanges: String, ExpressibleByArgument, CaseIterable, Sendable {
    case accept, reject, all

    public static var allValueStrings: [String] { ArgumentValues.strings(Self.self) }
    public static var allValueDescriptions: [String: String] { [:] }

    /// The `--changes` mode it means (`all`: changes kept, marked).
    public var mode: ChangeMode {
        switch self {
        case .accept: return .accept
        case .reject: return .reject
        case .all: return .marked
        }
    }
}

/// How writers format their output: one option group for the commands that write documents.
public struct FormattingFlags: ParsableArguments {
    @Option(name: .customLong("paragraph-style"),
            help: "Paragraph formatting for sources that have none: scrivener (Palatino 13 pt, 1.2 line height, 0.5 in first-line indent) or plain.")
    public var paragraphStyle: ParagraphPreset?

    @Option(name: .customLong("reference-doc"), help: "A DOCX whose styles the DOCX writer uses.")
    public var referenceDoc: String?

    @Flag(name: .customLong("keep-formatting"),
          help: "Keep paragraph and character formatting in Markdown as pandoc-style attributes.")
    public var keepFormatting = false

    @Option(name: .customLong("pdf-engine"),
            help: "PDF output: chromium (comments in the margin; the default when installed) or libreoffice (the DOCX page layout, comments at their anchors).")
    public var pdfEngine: PDFEngineChoice?

    public init() {}

    /// The write options these flags ask for.
    public var writeOptions: WriteOptions {
        var w = WriteOptions()
        w.preserveFormatting = keepFormatting
        w.pdfEngine = pdfEngine
        w.referenceDocument = referenceDoc
        switch paragraphStyle {
        case .scrivener?:
            w.paragraphPreset = .scrivener
            w.characterPreset = CharacterStyle(fontFamily: "Palatino", fontSize: 13)
        case .plain?, nil: break
        }
        return w
    }
}

/// Which files in directories are taken, and how many are worked on at once (convert, export, check).
public struct SelectionFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Take the files in directories that match this glob (repeatable; default: every extension Redline reads).",
                               valueName: "glob"))
    public var include: [String] = []

    @Option(help: ArgumentHelp("Leave out files in directories that match this glob (repeatable), e.g. 'old/**' or '*~*'.",
                               valueName: "glob"))
    public var exclude: [String] = []

    @Option(name: [.customShort("j"), .long], help: "How many inputs are worked on at once (default: all cores).")
    public var jobs: Int?

    public init() {}

    public func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// The number of threads to use.
    var threads: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}

/// Paragraph-format presets for sources without formatting.
public enum ParagraphPreset: String, ExpressibleByArgument, CaseIterable, Sendable {
    case scrivener, plain

    public static var allValueStrings: [String] { ArgumentValues.strings(Self.self) }
    public static var allValueDescriptions: [String: String] { [:] }
}

extension ChangeMode: RawValueArgument {}

extension CommentPolicy: ExpressibleByArgument {
    public static var allValueStrings: [String] { ArgumentValues.strings(Self.self) }
    /// ArgumentParser's default names the case where its raw value differs (`dropResolved = "drop-resolved"`).
    public static var allValueDescriptions: [String: String] { ["drop-resolved": "dropResolved"] }
}

/// ArgumentParser's default `allValueStrings` and `allValueDescriptions` for a `String`-backed enum describe
/// every case with `"\(case)"` (reflection), each time an option's definition is made: four times per option and
/// parse, 3.4 M instructions of a small document's 45 M (PERFORMANCE.md, "Start-up"). The enums read from the
/// command line give the same lists from their raw values (the descriptions are empty where every raw value is
/// its case's name). Guarded by `ArgumentValuesTests`.
enum ArgumentValues {
    static func strings<E: CaseIterable & RawRepresentable>(_: E.Type) -> [String] where E.RawValue == String {
        E.allCases.map(\.rawValue)
    }
}

/// A `String`-backed enum read from the command line with `ArgumentValues`' lists (no reflection), its
/// descriptions empty: every raw value is its case's name.
public protocol RawValueArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension RawValueArgument {
    /// The raw values, in case order.
    public static var allValueStrings: [String] { ArgumentValues.strings(Self.self) }
    /// None needed: every raw value is its case's name.
    public static var allValueDescriptions: [String: String] { [:] }
}

/// Picture flags shared by convert, export and compare: where pictures go, and where Markdown finds them.
public struct MediaFlags: ParsableArguments, Sendable {
    @Option(name: .customLong("extract-media"),
            help: "Markdown/HTML output: write pictures into this folder and link them (default: Markdown a folder beside the output, OUT.media; HTML inside the page).")
    public var extractMedia: String?

    @Flag(name: .customLong("embed-media"), help: "HTML output: pictures as data: URIs in the page, one self-contained file (the default unless --extract-media names a folder).")
    public var embedMedia = false

    @Option(name: .customLong("resource-path"),
            help: "Markdown input: a folder pictures may also be loaded from besides the Markdown file's own (repeatable).")
    public var resourcePath: [String] = []

    public init() {}

    /// `write` with these flags applied (an `--extract-media` folder linked from `output`).
    public func applied(to write: WriteOptions, output: String?) -> WriteOptions {
        var w = write
        w.embedMedia = embedMedia
        if let extractMedia { w.mediaOutput = .folder(extractMedia, for: output == "-" ? nil : output) }
        return w
    }

    /// The read options these flags ask for.
    /// (pandoc's `--resource-path=a:b` lists folders separated by colons.)
    public var readOptions: ReadOptions {
        ReadOptions(resourcePaths: resourcePath.flatMap { $0.split(separator: ":").map(String.init) })
    }
}

import ArgumentParser
import Foundation
import Redline

/// What happens to tracked changes and comments: one option group for convert, export, check and
/// scrivener, read into one `ReviewOptions`.
public struct ReviewFlags: ParsableArguments {
    @Option(help: "Tracked changes no --accept/--reject selects: marked (keep them), accept (clean version), reject (original version).")
    public var changes: ChangeMode = .marked

    @Option(name: .customLong("track-changes"), help: "pandoc's spelling of --changes: accept, reject, or all (marked).")
    public var trackChanges: TrackChanges?

    @Option(help: ArgumentHelp("Accept the changes this filter selects (repeatable): author=NAME, kind=insertion|deletion|move|formatting|paragraph|table|comment, before=DATE, after=DATE, id=N[,M...]; conditions separated by commas all hold.",
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

/// pandoc's `--track-changes` values.
public enum TrackChanges: String, ExpressibleByArgument, CaseIterable, Sendable {
    case accept, reject, all

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

    public init() {}

    /// The write options these flags ask for.
    public var writeOptions: WriteOptions {
        var w = WriteOptions()
        w.preserveFormatting = keepFormatting
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
}

extension ChangeMode: ExpressibleByArgument {}
extension CommentPolicy: ExpressibleByArgument {}

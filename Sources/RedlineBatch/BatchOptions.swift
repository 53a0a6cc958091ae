import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// One version of every input that a batch writes: `convert` writes one, `export` three.
public struct OutputVariant: Sendable, Hashable, Codable {
    /// The name in reports: `marked`, `clean` (changes accepted) or `original` (changes rejected).
    public var name: String
    /// Inserted before the output's extension (`draft.clean.md`); empty for none (`draft.md`).
    public var suffix: String
    /// What happens to tracked changes and comments in this version.
    public var review: ReviewOptions

    public init(name: String, suffix: String, review: ReviewOptions) {
        self.name = name
        self.suffix = suffix
        self.review = review
    }

    /// The report name of a change mode's version.
    public static func name(of changes: ChangeMode) -> String {
        switch changes {
        case .marked: return "marked"
        case .accept: return "clean"
        case .reject: return "original"
        }
    }

    /// The one version `convert` writes, under the input's own name.
    public static func converting(_ review: ReviewOptions) -> OutputVariant {
        OutputVariant(name: name(of: review.changes), suffix: "", review: review)
    }

    /// The one version `convert` writes with one decision for every change.
    public static func converting(_ changes: ChangeMode) -> OutputVariant { converting(ReviewOptions(changes: changes)) }

    /// The clean, original and marked versions, named by `suffixes` in that order (default
    /// `clean,original,marked`; an empty suffix writes that version under the input's own name).
    /// The clean version accepts every change and the original rejects every one; `review`'s accept and
    /// reject filters apply to the marked version (the changes they select are resolved, the others stay
    /// marked); its comment policy and comment filters apply to all three.
    public static func threeWay(suffixes: [String] = ["clean", "original", "marked"],
                                review: ReviewOptions = ReviewOptions()) throws -> [OutputVariant] {
        guard suffixes.count == 3 else {
            throw RedlineError.usage("--names needs three names (clean,original,marked), got \(suffixes.count)")
        }
        guard Set(suffixes).count == 3 else {
            throw RedlineError.usage("--names \(suffixes.joined(separator: ",")): the three names must differ")
        }
        for s in suffixes where s.contains("/") || s.hasPrefix(".") || s.hasSuffix(".") {
            throw RedlineError.usage("--names: '\(s)' cannot be part of a file name")
        }
        guard review.changes == .marked else {
            throw RedlineError.usage("export writes the clean, original and marked versions; --changes \(review.changes.rawValue) is for convert")
        }
        let comments = ReviewOptions(comments: review.comments, dropComments: review.dropComments)
        var clean = comments, original = comments
        clean.changes = .accept
        original.changes = .reject
        return zip([clean, original, review], suffixes).map {
            OutputVariant(name: name(of: $0.changes), suffix: $1, review: $0)
        }
    }
}

/// What a compare batch marks, and whether its date was given (a defaulted date, "now", does not
/// make yesterday's outputs out of date).
public struct CompareBatchOptions: Sendable, Hashable, Codable {
    /// The comparison's options (author, date, granularity, moves, formatting).
    public var options: CompareOptions
    /// True when the date was chosen (`--date`, `SOURCE_DATE_EPOCH`), not the time of the run.
    public var dateGiven: Bool

    public init(options: CompareOptions, dateGiven: Bool = true) {
        self.options = options
        self.dateGiven = dateGiven
    }

    /// The options as the up-to-date fingerprint sees them: every field, the date only when given.
    var fingerprinted: CompareOptions {
        var o = options
        if !dateGiven { o.date = "now" }
        return o
    }
}

/// What a batch does when an output already exists.
public enum ExistingOutputs: String, Sendable {
    /// Stop before converting anything (the default: nothing is replaced unless asked).
    case refuse
    /// Replace it (`--overwrite`).
    case overwrite
    /// Leave it when it is up to date, else replace it (`--skip-existing`).
    case skipUpToDate
}

/// Where a batch converts its inputs.
public enum BatchIsolation: Sendable, Hashable {
    /// On threads of this process: nothing to start, but a crash (a trap, a stack overflow, running out
    /// of memory) while converting one input ends the whole batch.
    case threads
    /// In worker processes running `executable`, Redline's own binary (its hidden `batch-worker` command,
    /// `BatchWorker`): a worker that dies fails only the input it was converting, and a new one goes on with
    /// the rest. Formats that gather documents into one run of another program (`Format.batchWidth`: PDF)
    /// still convert on threads.
    case processes(executable: String)

    /// The executable of `processes`.
    var executable: String? {
        if case .processes(let e) = self { return e }
        return nil
    }
}

/// How long a batch worker process may spend on one document (`--timeout`) before it is killed and the
/// document fails with kind `timeout`. Only worker processes can be stopped: on threads there is no limit.
public enum DocumentTimeLimit: Sendable, Hashable {
    /// The larger of `Limits.documentSecondsFloor` (600 s) and `Limits.documentSecondsPerMiB` (10 s) per MiB
    /// of input: no real document comes near it, a hang is stopped within ten minutes.
    case sized
    /// This many seconds for every document (`--timeout SECONDS`).
    case seconds(Double)
    /// No limit (`--timeout 0`).
    case none

    /// The limit for an input of `size` bytes, or nil for none.
    public func seconds(forInputSize size: Int64) -> Double? {
        switch self {
        case .sized:
            let mib = Double(max(size, 0)) / Double(1 << 20)
            return max(Double(Limits.documentSecondsFloor), (mib * Double(Limits.documentSecondsPerMiB)).rounded(.up))
        case .seconds(let s): return s > 0 ? s : nil
        case .none: return nil
        }
    }

    /// How the limit was set, for messages: "--timeout 5" or "the default, max(600 s, 10 s per MiB)".
    var origin: String {
        switch self {
        case .sized: return "the default time limit, max(\(Limits.documentSecondsFloor) s, \(Limits.documentSecondsPerMiB) s per MiB of input); raise it with --timeout SECONDS"
        case .seconds(let s): return "--timeout \(Self.format(s))"
        case .none: return "no limit"
        }
    }

    /// "5", "0.5", "600".
    static func format(_ s: Double) -> String {
        s == s.rounded() && s < 1e15 ? String(Int64(s)) : String(s)
    }
}

/// Everything a batch needs besides its inputs.
public struct BatchOptions: Sendable {
    /// The input format, or nil to tell each input's format from its extension.
    public var from: Format?
    /// The output format.
    public var to: Format
    /// The versions written for each input (one for convert, three for export).
    public var variants: [OutputVariant]
    /// Reader options (safety limits).
    public var read: ReadOptions
    /// Writer options (presets, formatting, reference document).
    public var write: WriteOptions
    /// Where outputs go; it mirrors the inputs' tree.
    public var outputDirectory: String
    /// What to do with outputs that already exist.
    public var existing: ExistingOutputs
    /// How many inputs convert at once.
    public var jobs: Int
    /// Identifies the build in up-to-date records, so a new version converts everything again.
    public var toolVersion: String
    /// The shard this run covers (for the report's summary; the caller picks the inputs).
    public var shard: Shard?
    /// Threads or worker processes (not part of the fingerprint: it never changes an output).
    public var isolation: BatchIsolation
    /// How long a worker process may spend on one document (worker processes only; not part of the
    /// fingerprint).
    public var timeout: DocumentTimeLimit = .sized
    /// A compare batch: each input (NEW) is compared with its paired OLD version (`BatchInput.pair`)
    /// instead of converted; `variants` is not used.
    public var compare: CompareBatchOptions?
    /// A review filter that selects nothing in an input fails that input (`--strict-filters`) instead of a
    /// warning on it (`review.filter-unmatched`). Not part of the fingerprint: it never changes an output.
    public var strictFilters = false

    public init(from: Format? = nil, to: Format, variants: [OutputVariant] = [.converting(.marked)],
                read: ReadOptions = ReadOptions(), write: WriteOptions = WriteOptions(), outputDirectory: String,
                existing: ExistingOutputs = .refuse, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                toolVersion: String = "", shard: Shard? = nil, isolation: BatchIsolation = .threads) {
        self.from = from
        self.to = to
        self.variants = variants
        self.read = read
        self.write = write
        self.outputDirectory = outputDirectory
        self.existing = existing
        self.jobs = max(1, jobs)
        self.toolVersion = toolVersion
        self.shard = shard
        self.isolation = isolation
    }

    /// A hash of every option that changes what the outputs contain (not where they go or how many
    /// jobs run): the encoded formats, versions (review options included), read and write options, and the
    /// reference document's content. An up-to-date record written under another fingerprint is out of date,
    /// and an option added to any of these values changes it without being listed here.
    public var fingerprint: String {
        struct Content: Encodable {
            var scheme = "redline-batch-2"
            var tool: String
            var from: String?
            var to: String
            var variants: [OutputVariant]
            var read: ReadOptions
            var write: WriteOptions
            var referenceDocument: String?
            var compare: CompareOptions?
        }
        let content = Content(tool: toolVersion, from: from?.name, to: to.name, variants: variants, read: read,
                              write: write,
                              referenceDocument: write.referenceDocument.map { (try? StableHash.ofFile($0).hex) ?? "unreadable" },
                              compare: compare?.fingerprinted)
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys]
        var h = StableHash()
        h.combine((try? json.encode(content)).map { String(decoding: $0, as: UTF8.self) } ?? "?")
        return h.hex
    }

    /// The conversion that makes one version (its review options) of an input in `format`.
    func conversion(from format: Format, review: ReviewOptions) -> ConversionOptions {
        ConversionOptions(from: format, to: to, review: review, read: read, write: write)
    }

    /// Where the pictures of the output at `path` go: its own folder, beside it (`ch.media`) or, with
    /// `write.mediaOutput` set (`--extract-media DIR`), under that folder at the output's relative path.
    func mediaOutput(forOutput path: String) -> MediaOutput {
        guard let root = write.mediaOutput?.directory else { return .beside(path) }
        var relative = path
        let prefix = outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/"
        if relative.hasPrefix(prefix) { relative.removeFirst(prefix.count) }
        let stem = (relative as NSString).deletingPathExtension + ".media"
        return .folder(root + "/" + stem, for: path)
    }

    /// The picture files in the media folder of the output at `path` (for the up-to-date journal).
    func mediaFiles(forOutput path: String) -> [String] {
        let dir = mediaOutput(forOutput: path).directory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { dir + "/" + $0 }
    }

    /// The file-name extension outputs get.
    var outputExtension: String { to.extensions.first ?? to.name }

    /// The path of `variant` of the input at `relativePath` (relative to the output directory).
    func outputRelativePath(_ relativePath: String, _ variant: OutputVariant) -> String {
        let dir = (relativePath as NSString).deletingLastPathComponent
        var name = (relativePath as NSString).lastPathComponent
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        if !variant.suffix.isEmpty { name += "." + variant.suffix }
        name += "." + outputExtension
        return dir.isEmpty ? name : dir + "/" + name
    }

    /// `relative` under the output directory.
    func underOutput(_ relative: String) -> String {
        outputDirectory.hasSuffix("/") ? outputDirectory + relative : outputDirectory + "/" + relative
    }
}

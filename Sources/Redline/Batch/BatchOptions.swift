import Foundation

/// One version of every input that a batch writes: `convert` writes one, `export` three.
public struct OutputVariant: Sendable, Hashable {
    /// The name in reports: `marked`, `clean` (changes accepted) or `original` (changes rejected).
    public var name: String
    /// Inserted before the output's extension (`draft.clean.md`); empty for none (`draft.md`).
    public var suffix: String
    /// What happens to tracked changes in this version.
    public var changes: ChangeMode
    /// nil: keep comments in the marked version, drop them from the others.
    public var comments: CommentMode?

    public init(name: String, suffix: String, changes: ChangeMode, comments: CommentMode? = nil) {
        self.name = name
        self.suffix = suffix
        self.changes = changes
        self.comments = comments
    }

    /// The review decisions of this version.
    public var reviewOptions: ReviewOptions {
        ReviewOptions(changes: changes, comments: comments.map { $0 == .drop ? CommentPolicy.drop : .keep })
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
    public static func converting(_ changes: ChangeMode, comments: CommentMode? = nil) -> OutputVariant {
        OutputVariant(name: name(of: changes), suffix: "", changes: changes, comments: comments)
    }

    /// The clean, original and marked versions, named by `suffixes` in that order (default
    /// `clean,original,marked`; an empty suffix writes that version under the input's own name).
    public static func threeWay(suffixes: [String] = ["clean", "original", "marked"],
                                comments: CommentMode? = nil) throws -> [OutputVariant] {
        guard suffixes.count == 3 else {
            throw RedlineError.usage("--names needs three names (clean,original,marked), got \(suffixes.count)")
        }
        guard Set(suffixes).count == 3 else {
            throw RedlineError.usage("--names \(suffixes.joined(separator: ",")): the three names must differ")
        }
        for s in suffixes where s.contains("/") || s.hasPrefix(".") || s.hasSuffix(".") {
            throw RedlineError.usage("--names: '\(s)' cannot be part of a file name")
        }
        return zip([ChangeMode.accept, .reject, .marked], suffixes).map {
            OutputVariant(name: name(of: $0), suffix: $1, changes: $0, comments: comments)
        }
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

    public init(from: Format? = nil, to: Format, variants: [OutputVariant] = [.converting(.marked)],
                read: ReadOptions = ReadOptions(), write: WriteOptions = WriteOptions(), outputDirectory: String,
                existing: ExistingOutputs = .refuse, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                toolVersion: String = "", shard: Shard? = nil) {
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
    }

    /// A hash of every option that changes what the outputs contain (not where they go or how many
    /// jobs run). An up-to-date record written under another fingerprint is out of date.
    public var fingerprint: String {
        var h = StableHash()
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys]
        func encoded(_ v: some Encodable) -> String { (try? json.encode(v)).map { String(decoding: $0, as: UTF8.self) } ?? "?" }
        h.combine("redline-batch-1")
        h.combine(toolVersion)
        h.combine(from?.name ?? "*")
        h.combine(to.name)
        for v in variants { h.combine("\(v.name)|\(v.suffix)|\(v.changes.rawValue)|\(v.comments?.rawValue ?? "-")") }
        let l = read.limits
        h.combine("\(l.maxInflatedBytes) \(l.maxEntryBytes) \(l.maxCompressionRatio) \(l.maxNesting)")
        h.combine(encoded(write.paragraphPreset))
        h.combine(encoded(write.characterPreset))
        h.combine("\(write.preserveFormatting) \(write.criticMarkup)")
        h.combine("media \(write.embedMedia) \(write.mediaOutput?.directory ?? "-") \(read.resourcePaths) \(l.maxPictureBytes) \(l.maxMediaBytes)")
        if let ref = write.referenceDocument {
            h.combine(ref)
            h.combine((try? StableHash.ofFile(ref).hex) ?? "unreadable")
        }
        return h.hex
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

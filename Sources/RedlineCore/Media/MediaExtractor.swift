import Foundation

/// Where a text writer puts pictures: a folder, and how links from the output name it.
public struct MediaOutput: Sendable, Hashable, Codable {
    /// The folder the picture files go into (created when the first one is written).
    public var directory: String
    /// The folder as links in the output spell it (relative to the output's folder), e.g. `chapter.media`.
    public var linkPrefix: String
    /// The folder is the default one (`beside`), not one the caller chose (`--extract-media`): an HTML page
    /// embeds its pictures instead (one file); Markdown links to files in it.
    public var isDefault: Bool

    public init(directory: String, linkPrefix: String, isDefault: Bool = false) {
        self.directory = directory
        self.linkPrefix = linkPrefix
        self.isDefault = isDefault
    }

    /// The default for an output file: a folder beside it named after it (`out/ch.md` → `out/ch.media`).
    public static func beside(_ outputPath: String) -> MediaOutput {
        let url = URL(fileURLWithPath: outputPath)
        let stem = url.deletingPathExtension().lastPathComponent + ".media"
        return MediaOutput(directory: url.deletingLastPathComponent().appendingPathComponent(stem).path,
                           linkPrefix: stem, isDefault: true)
    }

    /// `directory` (an explicit `--extract-media` folder) linked relative to the output file's folder.
    public static func folder(_ directory: String, for outputPath: String?) -> MediaOutput {
        let dir = URL(fileURLWithPath: directory).standardizedFileURL
        guard let outputPath else { return MediaOutput(directory: dir.path, linkPrefix: dir.path) }
        let base = URL(fileURLWithPath: outputPath).deletingLastPathComponent().standardizedFileURL
        let a = base.pathComponents, b = dir.pathComponents
        var common = 0
        while common < a.count, common < b.count, a[common] == b[common] { common += 1 }
        let parts = Array(repeating: "..", count: a.count - common) + b[common...]
        return MediaOutput(directory: dir.path, linkPrefix: parts.isEmpty ? "." : parts.joined(separator: "/"))
    }
}

/// A text writer's side of pictures: the link (or data URI) for each image, writing each distinct picture
/// once as `image1.png`, `image2.jpg`, ... in order of first appearance (never a name from the input),
/// each file written to a temporary name and renamed, so no partial picture is ever left behind.
public final class MediaExtractor {
    private let output: MediaOutput?
    private let embed: Bool
    private let diagnostics: Diagnostics
    private var names: [String: String] = [:]
    private var createdDirectory = false

    public init(options: WriteOptions, diagnostics: Diagnostics) {
        output = options.mediaOutput
        embed = options.embedMedia
        self.diagnostics = diagnostics
    }

    /// The names of the picture files written so far, in order.
    public private(set) var written: [String] = []

    /// The first error writing a picture (renderers do not throw; their sinks call `check()`).
    public private(set) var failure: (any Error)?

    /// Throws the first error met writing a picture, if any.
    public func check() throws {
        if let failure { throw failure }
    }

    /// What an output links to for `image`: its own source when it carries no picture, else the extracted
    /// file's relative path or (embedding) a data URI. A write error is kept for `check()`.
    public func reference(for image: Image) -> String {
        do { return try resolve(image) } catch {
            if failure == nil { failure = error }
            return image.source
        }
    }

    private func resolve(_ image: Image) throws -> String {
        guard let item = image.media else { return image.source }
        if !item.kind.isWebViewable {
            diagnostics.report(.mediaNotWebViewable, "pictures browsers cannot show (EMF, WMF, TIFF) were extracted as they are (\(item.kind.rawValue))")
        }
        if embed {
            return "data:" + item.kind.mimeType + ";base64," + Data(try item.bytes()).base64EncodedString()
        }
        if let known = names[item.id] { return link(known) }
        let name = "image\(names.count + 1)." + item.kind.fileExtension
        names[item.id] = name
        guard let output else {
            diagnostics.report(.mediaNotExtracted, "pictures were not written out (no output file: use --extract-media DIR); links name \(name)")
            return name
        }
        try write(item, to: output.directory, name: name)
        written.append(name)
        return link(name)
    }

    private func link(_ name: String) -> String {
        guard let output else { return name }
        return output.linkPrefix.isEmpty || output.linkPrefix == "." ? name : output.linkPrefix + "/" + name
    }

    private func write(_ item: MediaItem, to directory: String, name: String) throws {
        if !createdDirectory {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw RedlineError.io("cannot create the media folder \(directory): \(error.localizedDescription)")
            }
            createdDirectory = true
            // Temporaries a killed run left (never a finished picture: those are renamed into place).
            Temporaries.removeStale(once: directory)
        }
        // No fsync per picture (300 pictures cost 3 s of syncs): the rename makes a file appear whole, and
        // a batch syncs its output directory once at the end, as for its documents.
        let file = try StagedFile(path: directory + "/" + name)
        try item.read { try file.output.write($0) }
        try file.commit()
    }
}

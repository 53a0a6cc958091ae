import Foundation
import RedlineCore

/// Loads the pictures a Markdown document links to into its `MediaStore`, for writers that embed them:
/// `data:` URIs are decoded; local paths are read relative to the Markdown file's folder and only from
/// inside it or a `--resource-path` folder (symbolic links resolved first); remote URLs are never fetched.
/// Each problem is a warning naming the picture; the image then stays a link.
final class MarkdownPictures {
    private let base: URL
    private let allowed: [String]
    let store: MediaStore
    private var byPath: [String: MediaItem?] = [:]

    /// `baseDirectory`: the Markdown file's folder (the working directory for standard input).
    init(baseDirectory: String, options: ReadOptions) {
        base = URL(fileURLWithPath: baseDirectory).standardizedFileURL.resolvingSymlinksInPath()
        allowed = ([base.path] + options.resourcePaths.map {
            URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .standardizedFileURL.resolvingSymlinksInPath().path
        }).map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        store = MediaStore(limits: options.limits)
    }

    /// The picture `source` names, or nil (reported) when it is remote, refused, missing or unreadable.
    func item(for source: String, diagnostics: Diagnostics) -> MediaItem? {
        if source.isEmpty { return nil }
        if let known = byPath[source] { return known }
        let item = load(source, diagnostics: diagnostics)
        byPath[source] = item
        return item
    }

    private func load(_ source: String, diagnostics: Diagnostics) -> MediaItem? {
        let lower = source.lowercased()
        if lower.hasPrefix("data:") { return store.add(dataURI: source, diagnostics: diagnostics) }
        if let colon = source.firstIndex(of: ":"), source[..<colon].count > 1,
           source[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }), !lower.hasPrefix("file:") {
            diagnostics.report(.mediaRemote, "remote pictures are not fetched; kept as links (\(source))")
            return nil
        }
        if source.hasPrefix("//") {
            diagnostics.report(.mediaRemote, "remote pictures are not fetched; kept as links (\(source))")
            return nil
        }
        var path = source
        if lower.hasPrefix("file://") { path = String(source.dropFirst(7)) } else if lower.hasPrefix("file:") { path = String(source.dropFirst(5)) }
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        path = path.removingPercentEncoding ?? path
        let url = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path))
            .standardizedFileURL.resolvingSymlinksInPath()
        guard allowed.contains(where: { url.path.hasPrefix($0) }) else {
            diagnostics.report(.mediaOutsideResources, "a picture outside the Markdown file's folder was refused (allow its folder with --resource-path): \(source)")
            return nil
        }
        return store.add(contentsOf: url.path, name: source, diagnostics: diagnostics)
    }
}

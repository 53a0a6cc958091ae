import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// What a batch remembers about one converted input, so `--skip-existing` can tell that its outputs are
/// up to date: the options' fingerprint, the input's size, modification time and content hash, and each
/// output's size and modification time as written. Kept as a line of an `UpToDateJournal`, appended only
/// after every output of the input has been renamed into place; any mismatch (or a missing record)
/// means "convert again", so a run killed at any moment is never mistaken for done.
struct UpToDateRecord: Codable, Sendable, Hashable {
    /// A file's identity as far as up-to-date checks go.
    struct FileState: Codable, Sendable, Hashable {
        var path: String
        var size: Int64
        /// Modification time in nanoseconds since 1970.
        var mtime: Int64
        /// Content hash (inputs only).
        var hash: String?
    }

    var version: Int = 1
    /// Which input this is about: its first output's path relative to the output directory.
    var key: String
    /// `BatchOptions.fingerprint` of the run that wrote the outputs.
    var options: String
    var input: FileState
    var outputs: [FileState]
    /// The picture files extracted beside the outputs (Markdown, HTML); nil when there were none.
    var media: [FileState]? = nil
    /// The warnings of that conversion, reported again when it is skipped.
    var warnings: [WarningCount]
    /// Compare batches: the OLD version's state (the input is NEW).
    var other: FileState? = nil
    /// Compare batches: the counts of what changed, reported again when skipped.
    var stats: [String: Int]? = nil

    /// True when the options are the same, the input (and `other`, OLD of a compare batch) has not
    /// changed, and every output is as written.
    func isUpToDate(options fingerprint: String, input path: String, other otherPath: String? = nil,
                    outputs: [String]) -> Bool {
        guard version == 1, options == fingerprint, self.outputs.map(\.path) == outputs,
              Self.unchanged(input, at: path) else { return false }
        guard other?.path == otherPath else { return false }
        if let other, let otherPath, !Self.unchanged(other, at: otherPath) { return false }
        for o in self.outputs + (media ?? []) {
            guard let s = Self.state(of: o.path), s.size == o.size, s.mtime == o.mtime else { return false }
        }
        return true
    }

    /// True when the input at `path` is still the one `state` describes (same size; same time, or same content).
    static func unchanged(_ state: FileState, at path: String) -> Bool {
        guard let now = Self.state(of: path), now.size == state.size else { return false }
        if now.mtime != state.mtime {
            // Touched but perhaps not changed: compare content.
            guard let h = try? StableHash.ofFile(path).hex, h == state.hash else { return false }
        }
        return true
    }

    /// Size, modification time and content hash of an input; throws when it cannot be read, with the
    /// system's reason (`Permission denied`).
    static func inputState(of path: String) throws -> FileState {
        let hash = try StableHash.ofFile(path).hex
        guard var s = state(of: path) else { throw RedlineError.io("not a regular file") }
        s.hash = hash
        return s
    }

    /// Size and modification time of the file at `path`, nil when it does not exist.
    static func state(of path: String, hash: Bool = false) -> FileState? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        #if canImport(Darwin)
        let mtime = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        #else
        let mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        #endif
        var s = FileState(path: path, size: Int64(st.st_size), mtime: mtime)
        if hash { s.hash = try? StableHash.ofFile(path).hex }
        return s
    }
}

extension UpToDateRecord {
    /// A record of an input converted into `outputs`, with those of the picture files at `mediaFiles` that exist.
    init(key: String, options: String, input: FileState, outputs: [FileState], warnings: [WarningCount], mediaFiles: [String]) {
        self.init(key: key, options: options, input: input, outputs: outputs, warnings: warnings)
        let states = mediaFiles.compactMap { Self.state(of: $0) }
        if !states.isEmpty { self.media = states }
    }
}

import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// The up-to-date records of an output directory: JSON Lines files under `OUT/.redline/`, one per
/// shard layout (`journal.jsonl`, `journal-3of8.jsonl`), so shards sharing a directory never write
/// the same file. A run appends one line per converted input as it finishes (one `write` per line, no
/// new file per input), and at the end rewrites its journal whole (temporary file + rename) with one
/// line per input it knows. A run killed mid-line leaves a torn last line, which reading skips.
/// Every record is checked against the files themselves before it is believed, so a record from any
/// journal, however old, can only ever say "up to date" when the files say so too.
final class UpToDateJournal: @unchecked Sendable {
    /// The directory under the output directory that holds the journals.
    static let directory = ".redline"

    private let lock = NSLock()
    private let path: String
    private var known: [String: [UpToDateRecord]] = [:]
    /// The records of this run's journal file, to carry over those of inputs this run does not touch.
    private var own: [String: UpToDateRecord] = [:]
    private var current: [String: UpToDateRecord] = [:]
    /// The lines `append` wrote, by key, which `compact` writes again instead of encoding each record twice.
    private var appended: [String: [UInt8]] = [:]
    private var fd: Int32 = -1

    /// Reads every journal under `outputDirectory` and opens this run's journal for appending.
    init(outputDirectory: String, shard: Shard?) throws {
        let dir = outputDirectory + "/" + Self.directory
        path = dir + "/" + Self.fileName(shard)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        where name.hasPrefix("journal") && name.hasSuffix(".jsonl") {
            for r in Self.records(in: dir + "/" + name) {
                known[r.key, default: []].append(r)
                if dir + "/" + name == path { own[r.key] = r }
            }
        }
        try BatchPlan.makeDirectories(dir)
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RedlineError.io("cannot write \(path): \(String(cString: strerror(errno)))") }
        // A line torn by a kill must not swallow the first line this run appends.
        var last: UInt8 = 0
        let end = lseek(fd, 0, SEEK_END)
        if end > 0, pread(fd, &last, 1, end - 1) == 1, last != UInt8(ascii: "\n") { writeAll([UInt8(ascii: "\n")]) }
    }

    deinit { if fd >= 0 { close(fd) } }

    static func fileName(_ shard: Shard?) -> String {
        shard.map { "journal-\($0.index)of\($0.count).jsonl" } ?? "journal.jsonl"
    }

    /// The path of this run's journal (for stale-temporary clean-up).
    static func path(outputDirectory: String, shard: Shard?) -> String {
        outputDirectory + "/" + directory + "/" + fileName(shard)
    }

    /// The readable records of one journal file (torn or foreign lines skipped).
    static func records(in path: String) -> [UpToDateRecord] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(UpToDateRecord.self, from: $0) }
    }

    /// A record of `key` that the files confirm is up to date, if there is one.
    func upToDate(_ key: String, options: String, input: String, other: String? = nil, outputs: [String]) -> UpToDateRecord? {
        lock.lock()
        let candidates = known[key] ?? []
        lock.unlock()
        guard let r = candidates.last(where: { $0.isUpToDate(options: options, input: input, other: other, outputs: outputs) }) else {
            return nil
        }
        lock.lock(); current[key] = r; appended[key] = nil; lock.unlock()
        return r
    }

    /// Appends the record of an input whose outputs have all been renamed into place.
    func append(_ record: UpToDateRecord) {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? e.encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        let bytes = [UInt8](line)
        lock.lock(); defer { lock.unlock() }
        current[record.key] = record
        appended[record.key] = bytes
        writeAll(bytes)
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { b in
            var off = 0
            while off < b.count {
                let n = write(fd, b.baseAddress! + off, b.count - off)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                off += n
            }
        }
    }

    /// Rewrites this run's journal whole: the records of this run's inputs that are up to date, and
    /// those of inputs it did not touch, carried over. `touched` are the keys of every input this run
    /// had (a failed input's old record is dropped).
    func compact(touched: Set<String>) {
        lock.lock(); defer { lock.unlock() }
        var keep = own.filter { !touched.contains($0.key) }
        keep.merge(current) { _, new in new }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let file = try? StagedFile(path: path) else { return }
        for key in keep.keys.sorted() {
            let bytes: [UInt8]
            if let line = appended[key] {
                bytes = line
            } else {
                guard var line = try? e.encode(keep[key]!) else { continue }
                line.append(UInt8(ascii: "\n"))
                bytes = [UInt8](line)
            }
            guard (try? file.output.write(bytes: bytes)) != nil else { file.discard(); return }
        }
        try? file.commit()
    }
}

import Foundation
import Redline

/// A tiny line format for testing the batch engine without depending on any real reader or writer:
/// each line is a paragraph; `+text` is a tracked insertion, `-text` a tracked deletion, `# text` a
/// heading (which the writer reports as lossy), `!` a reader warning, and a file starting with `BAD`
/// is malformed. The writer prints insertions as `{+…+}` and deletions as `{-…-}`.
enum LinesFormat {
    /// How many times a lines reader has opened an input (to prove "one parse").
    static let opens = Counter()

    static let format = Format(name: "lines", summary: "test lines", extensions: ["lines"],
                               reader: LinesReader(), writer: LinesWriter())

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func increment() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }

    struct LinesReader: FormatReader {
        func open(_ input: DocumentInput, options: ReadOptions, diagnostics: Diagnostics) throws -> any ChunkSource {
            LinesFormat.opens.increment()
            let bytes = try input.readAll()
            guard let text = String(validating: bytes, as: UTF8.self) else { throw RedlineError.malformed("not UTF-8") }
            if text.hasPrefix("BAD") { throw RedlineError.malformed("bad lines file") }
            var chunks: [Chunk] = []
            for line in text.split(separator: "\n") {
                if line == "!" { diagnostics.report("test.reader-warning", "a warning"); continue }
                let change = Change(author: "Ann")
                if line.hasPrefix("+") {
                    chunks.append(Chunk(.paragraph(Paragraph([.insertion(change, [.text(String(line.dropFirst()))])]))))
                } else if line.hasPrefix("-") {
                    chunks.append(Chunk(.paragraph(Paragraph([.deletion(change, [.text(String(line.dropFirst()))])]))))
                } else if line.hasPrefix("# ") {
                    chunks.append(Chunk(.heading(level: 1, Paragraph([.text(String(line.dropFirst(2)))]))))
                } else {
                    chunks.append(Chunk(.paragraph(Paragraph([.text(String(line))]))))
                }
            }
            return ChunkArraySource(chunks: chunks)
        }
    }

    struct LinesWriter: FormatWriter {
        func sink(to output: any ByteOutput, options: WriteOptions, diagnostics: Diagnostics) throws -> any ChunkSink {
            Sink(output: output, diagnostics: diagnostics)
        }
    }

    struct Sink: ChunkSink {
        let output: any ByteOutput
        let diagnostics: Diagnostics
        mutating func begin(_ header: DocumentHeader) throws {}
        mutating func write(_ chunk: Chunk) throws {
            if case .heading = chunk.block { diagnostics.report("test.lossy-heading", "headings become paragraphs") }
            guard let p = chunk.block.paragraph, !p.content.isEmpty else { return }
            try output.write(render(p.content) + "\n")
        }
        mutating func finish() throws {}
        func render(_ inlines: [Inline]) -> String {
            inlines.map { i -> String in
                switch i {
                case .text(let s): return s
                case .insertion(_, let c): return "{+" + render(c) + "+}"
                case .deletion(_, let c): return "{-" + render(c) + "-}"
                default: return render(i.children)
                }
            }.joined()
        }
    }
}

/// Files and directories for batch tests.
enum BatchFixture {
    /// A fresh temporary directory.
    static func directory(_ name: String = #function) throws -> String {
        let d = NSTemporaryDirectory() + "redline-batch-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// Writes `text` at `path`, creating directories.
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Every file below `dir` (relative paths, sorted), skipping `.redline/` records unless asked.
    static func files(in dir: String, includingRecords: Bool = false) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        while let rel = e.nextObject() as? String {
            if !includingRecords && (rel == ".redline" || rel.hasPrefix(".redline/")) { continue }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir + "/" + rel, isDirectory: &isDir), !isDir.boolValue { out.append(rel) }
        }
        return out.sorted()
    }

    /// The content of every file below `dir`, by relative path.
    static func contents(of dir: String) -> [String: Data] {
        Dictionary(uniqueKeysWithValues: files(in: dir).map { ($0, FileManager.default.contents(atPath: dir + "/" + $0) ?? Data()) })
    }
}

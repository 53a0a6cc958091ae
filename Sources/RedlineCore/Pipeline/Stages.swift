/// The stage chain. Readers are sources, transforms are stages, writers are sinks:
///
///     ChunkSource ──chunk──▶ ChunkStage ──chunk──▶ … ──chunk──▶ ChunkSink
///     (reader)               (accept/reject, drop            (writer)
///                             comments, lossy checks)
///
/// Chunks flow one at a time, so memory is bounded by the largest block plus side tables
/// (comments, notes, styles), not by the length of the document.

/// A reader: yields the header first, then chunks until it returns nil.
public protocol ChunkSource {
    /// Metadata and defaults, known before the first chunk.
    var header: DocumentHeader { get }
    /// The next chunk, or nil at the end. Throws `RedlineError` on input it cannot read.
    mutating func next() throws -> Chunk?
}

/// A transform: rewrites the header once, then each chunk into zero or more chunks; may hold chunks
/// back (e.g. to merge paragraphs) and releases them in `finish`.
public protocol ChunkStage {
    mutating func begin(_ header: DocumentHeader) throws -> DocumentHeader
    mutating func process(_ chunk: Chunk, emit: (Chunk) throws -> Void) throws
    mutating func finish(emit: (Chunk) throws -> Void) throws
}

extension ChunkStage {
    public mutating func begin(_ header: DocumentHeader) throws -> DocumentHeader { header }
    public mutating func finish(emit: (Chunk) throws -> Void) throws {}
}

/// A writer: takes the header, then every chunk, then `finish` completes the output.
public protocol ChunkSink {
    mutating func begin(_ header: DocumentHeader) throws
    mutating func write(_ chunk: Chunk) throws
    mutating func finish() throws
}

/// Stages in front of a sink, as one sink: what `Pipeline.run` drives, and one branch of a tee
/// (module `Redline`'s `TeePipeline`). Each stage's output is the next one's input.
public struct StageChain<Sink: ChunkSink>: ChunkSink {
    /// The transforms, in order.
    public var stages: [any ChunkStage]
    /// Where the chunks end.
    public var sink: Sink

    public init(stages: [any ChunkStage], sink: Sink) {
        self.stages = stages
        self.sink = sink
    }

    public mutating func begin(_ header: DocumentHeader) throws {
        var h = header
        for i in stages.indices { h = try stages[i].begin(h) }
        try sink.begin(h)
    }

    public mutating func write(_ chunk: Chunk) throws { try push([chunk], from: 0) }

    /// Releases what the stages hold back (each into the stages after it), then finishes the sink.
    public mutating func finish() throws {
        for i in stages.indices {
            var out: [Chunk] = []
            try stages[i].finish { out.append($0) }
            try push(out, from: i + 1)
        }
        try sink.finish()
    }

    /// Passes `batch` through stages `first...`, then into the sink.
    private mutating func push(_ batch: [Chunk], from first: Int) throws {
        var batch = batch
        for i in first..<stages.count where !batch.isEmpty {
            var out: [Chunk] = []
            for chunk in batch { try stages[i].process(chunk) { out.append($0) } }
            batch = out
        }
        for chunk in batch { try sink.write(chunk) }
    }
}

/// A sink of any type, as a concrete `ChunkSink` (for chains whose writer is chosen at run time).
public struct AnyChunkSink: ChunkSink {
    public var base: any ChunkSink

    public init(_ base: any ChunkSink) { self.base = base }
    public mutating func begin(_ header: DocumentHeader) throws { try base.begin(header) }
    public mutating func write(_ chunk: Chunk) throws { try base.write(chunk) }
    public mutating func finish() throws { try base.finish() }
}

/// Runs a source through stages into a sink.
public enum Pipeline {
    /// Pulls every chunk from `source` through `stages` (in order) into `sink`, then finishes the sink.
    /// `readSide`/`writeSide`, when the reader and the chain report into separate diagnostics, get the
    /// stamps `runConcurrently` sets (so `Diagnostics.absorb` orders their reports alike).
    public static func run<Sink: ChunkSink>(source: inout some ChunkSource, stages: [any ChunkStage],
                                            sink: inout Sink, readSide: Diagnostics? = nil,
                                            writeSide: Diagnostics? = nil) throws {
        var chain = StageChain(stages: stages, sink: sink)
        writeSide?.stamp = 1
        try chain.begin(source.header)
        var k = 1
        readSide?.stamp = 2
        while let chunk = try source.next() {
            writeSide?.stamp = 2 * k + 1
            try chain.write(chunk)
            k += 1
            readSide?.stamp = 2 * k
        }
        writeSide?.stamp = 2 * k + 1
        try chain.finish()
        sink = chain.sink
    }
}

/// A source over chunks already in memory (a `Document`, or a test's list).
public struct ChunkArraySource: ChunkSource {
    public let header: DocumentHeader
    private var chunks: [Chunk]
    private var position = 0

    public init(header: DocumentHeader = DocumentHeader(), chunks: [Chunk]) {
        self.header = header
        self.chunks = chunks
    }

    public init(_ document: Document) {
        self.init(header: document.header, chunks: document.chunks)
    }

    public mutating func next() throws -> Chunk? {
        guard position < chunks.count else { return nil }
        defer { position += 1 }
        return chunks[position]
    }
}

/// A sink that collects a `Document` (for tests and the library API).
public struct DocumentSink: ChunkSink {
    public private(set) var document = Document(blocks: [])

    public init() {}
    public mutating func begin(_ header: DocumentHeader) throws { document.header = header }
    public mutating func write(_ chunk: Chunk) throws { document.append(chunk) }
    public mutating func finish() throws {}
}

extension Document {
    /// This document passed through `stages`.
    public func applying(_ stages: [any ChunkStage]) throws -> Document {
        var source = ChunkArraySource(self)
        var sink = DocumentSink()
        try Pipeline.run(source: &source, stages: stages, sink: &sink)
        return sink.document
    }
}

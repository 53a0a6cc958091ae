/// One parse, several outputs: the chunks of one source pass through several branches, each its own
/// stage chain and sink (the clean, original and marked versions of a three-way export; the writers a
/// check runs to learn what a target format loses).
///
///                      ┌──▶ stages ──▶ sink   (branch 1)
///     ChunkSource ──chunk──▶ stages ──▶ sink   (branch 2)
///                      └──▶ inspect            (a look at every chunk as read)
///
/// Memory stays bounded by one chunk per branch plus what a stage holds back, as in `Pipeline.run`.
public struct TeeBranch {
    /// The transforms of this branch, in order.
    public var stages: [any ChunkStage]
    /// Where this branch's chunks end.
    public var sink: any ChunkSink

    public init(stages: [any ChunkStage], sink: any ChunkSink) {
        self.stages = stages
        self.sink = sink
    }

    mutating func begin(_ header: DocumentHeader) throws {
        var h = header
        for i in stages.indices { h = try stages[i].begin(h) }
        try sink.begin(h)
    }

    /// Passes `batch` through stages `first...`, then into the sink.
    mutating func push(_ batch: [Chunk], from first: Int) throws {
        var batch = batch
        for i in first..<stages.count where !batch.isEmpty {
            var out: [Chunk] = []
            for chunk in batch { try stages[i].process(chunk) { out.append($0) } }
            batch = out
        }
        for chunk in batch { try sink.write(chunk) }
    }

    mutating func finish() throws {
        for i in stages.indices {
            var out: [Chunk] = []
            try stages[i].finish { out.append($0) }
            try push(out, from: i + 1)
        }
        try sink.finish()
    }
}

/// Runs one source into several branches.
public enum TeePipeline {
    /// Reads every chunk of `source` once, shows it to `inspect`, and passes it through every branch;
    /// then finishes each branch. The header goes to `inspect` as chunk 0 is read.
    public static func run(source: inout some ChunkSource, branches: inout [TeeBranch],
                           inspect: ((Chunk) throws -> Void)? = nil) throws {
        let header = source.header
        for i in branches.indices { try branches[i].begin(header) }
        while let chunk = try source.next() {
            try inspect?(chunk)
            for i in branches.indices { try branches[i].push([chunk], from: 0) }
        }
        for i in branches.indices { try branches[i].finish() }
    }
}

import Foundation

/// One parse, several outputs: the chunks of one source pass through several branches, each its own
/// stage chain and sink (the clean, original and marked versions of a three-way export; the writers a
/// check runs to learn what a target format loses).
///
///                      ┌──▶ stages ──▶ sink   (branch 1)
///     ChunkSource ──chunk──▶ stages ──▶ sink   (branch 2)
///                      └──▶ inspect            (a look at every chunk as read)
///
/// Memory stays bounded by one chunk per branch plus what a stage holds back, as in `Pipeline.run`.
public typealias TeeBranch = StageChain<AnyChunkSink>

extension StageChain where Sink == AnyChunkSink {
    /// A branch: `stages` in front of a writer chosen at run time.
    public init(stages: [any ChunkStage], writer sink: any ChunkSink) {
        self.init(stages: stages, sink: AnyChunkSink(sink))
    }
}

/// Runs one source into several branches.
public enum TeePipeline {
    /// Reads every chunk of `source` once, shows it to `inspect`, and passes it through every branch;
    /// then finishes each branch. The header goes to `inspect` as chunk 0 is read.
    /// When the reader reports into `readSide` and the branches into `branchSides`, their stamps are set
    /// as `Pipeline.run` sets them, so `Diagnostics.absorb` orders the reports as a single conversion's.
    /// With `finishTogether`, the branches finish at once, each on a thread of its own: sinks that wait on
    /// an engine at `finish` (PDF) then submit together and share one engine run.
    public static func run(source: inout some ChunkSource, branches: inout [TeeBranch],
                           readSide: Diagnostics? = nil, branchSides: [Diagnostics] = [],
                           finishTogether: Bool = false,
                           inspect: ((Chunk) throws -> Void)? = nil) throws {
        func stampBranches(_ n: Int) { for d in branchSides { d.stamp = n } }
        let header = source.header
        stampBranches(1)
        for i in branches.indices { try branches[i].begin(header) }
        var k = 1
        readSide?.stamp = 2
        while let chunk = try source.next() {
            try inspect?(chunk)
            stampBranches(2 * k + 1)
            for i in branches.indices { try branches[i].write(chunk) }
            k += 1
            readSide?.stamp = 2 * k
        }
        stampBranches(2 * k + 1)
        guard finishTogether, branches.count > 1 else {
            for i in branches.indices { try branches[i].finish() }
            return
        }
        try branches.withUnsafeMutableBufferPointer { buffer in
            let finishing = Finishing(buffer)
            var threads: [StackThread] = []
            for i in 1..<buffer.count {
                if let t = StackThread.spawn(name: "redline-finish", { finishing.finish(i) }) { threads.append(t) } else { finishing.finish(i) }
            }
            finishing.finish(0)
            for t in threads { t.join() }
            for r in finishing.results { try r?.get() }  // the first error in branch order
        }
    }

    /// Branches finishing on several threads, each touching its own element only; read after every
    /// thread is joined.
    private final class Finishing: @unchecked Sendable {
        let branches: UnsafeMutableBufferPointer<TeeBranch>
        var results: [Result<Void, any Error>?]
        private let lock = NSLock()
        init(_ branches: UnsafeMutableBufferPointer<TeeBranch>) {
            self.branches = branches
            results = Array(repeating: nil, count: branches.count)
        }
        func finish(_ i: Int) {
            let r = Result { try branches[i].finish() }
            lock.lock()
            results[i] = r
            lock.unlock()
        }
    }
}

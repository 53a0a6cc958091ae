import ArgumentParser
import Foundation
import Redline

extension RedlineCommand {
    /// `redline batch-worker` (hidden): a batch's worker process, started by the batch itself
    /// (`BatchIsolation.processes`) with its jobs on descriptor 3. See `BatchWorker`.
    public struct BatchWorkerCommand: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "batch-worker",
            abstract: "A batch's worker process (started by a batch, not by hand).",
            shouldDisplay: false)

        public init() {}

        public func run() throws {
            guard BatchWorker.serve() else {
                throw RedlineError.usage("batch-worker is started by a batch (convert or export with -o DIR), not by hand")
            }
        }
    }
}

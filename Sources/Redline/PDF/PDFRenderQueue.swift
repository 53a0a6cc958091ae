import Foundation
import RedlineCore

/// Gathers the DOCX files that PDF sinks finish at about the same time into one engine run: starting
/// LibreOffice costs about 2 s, rendering a small document a tenth of that. A sink registers when it is
/// made and submits at `finish`; a run starts as soon as every registered sink has submitted (or has
/// been dropped without finishing), or when the oldest submission has waited `gatherWindow` seconds,
/// so a single conversion never waits and a batch (`Format.batchWidth` inputs at once) renders its
/// documents a round at a time.
final class PDFRenderQueue: @unchecked Sendable {
    /// The queue every PDF sink of this process uses.
    static let shared = PDFRenderQueue()

    /// The longest a submitted document waits for others before its run starts.
    var gatherWindow = 1.0

    private let condition = NSCondition()
    private var registered = 0
    private var pending: [Request] = []
    private var rendering = false
    private var firstPending: Date?

    final class Request: @unchecked Sendable {
        let docx: String
        let engine: PDFEngine
        var result: Result<[UInt8], RedlineError>?
        init(docx: String, engine: PDFEngine) { self.docx = docx; self.engine = engine }
    }

    /// A sink's place in the queue: submitting or dropping it ends the registration.
    final class Registration: @unchecked Sendable {
        private let queue: PDFRenderQueue
        private var open = true
        init(_ queue: PDFRenderQueue) { self.queue = queue }
        deinit { if open { queue.unregister() } }

        /// Renders `docx`, together with whatever other sinks submit meanwhile.
        func render(_ docx: String, engine: PDFEngine) throws -> [UInt8] {
            precondition(open, "a PDF sink submits once")
            open = false
            return try queue.submit(docx, engine: engine)
        }
    }

    /// Registers a sink that will submit a document later.
    func register() -> Registration {
        condition.lock()
        registered += 1
        condition.unlock()
        return Registration(self)
    }

    private func unregister() {
        condition.lock()
        registered -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func submit(_ docx: String, engine: PDFEngine) throws -> [UInt8] {
        let request = Request(docx: docx, engine: engine)
        condition.lock()
        registered -= 1
        pending.append(request)
        if firstPending == nil { firstPending = Date() }
        condition.broadcast()
        while request.result == nil {
            let waited = firstPending.map { Date().timeIntervalSince($0) } ?? 0
            if !rendering && !pending.isEmpty && (registered == 0 || waited >= gatherWindow) {
                // This thread runs the engine for everyone waiting (one engine per run, same executable).
                let round = pending
                pending = []
                firstPending = nil
                rendering = true
                condition.unlock()
                let results = round[0].engine.render(round.map(\.docx))
                condition.lock()
                for (r, result) in zip(round, results) { r.result = result }
                rendering = false
                if !pending.isEmpty && firstPending == nil { firstPending = Date() }
                condition.broadcast()
            } else {
                _ = condition.wait(until: Date().addingTimeInterval(0.05))
            }
        }
        condition.unlock()
        return try request.result!.get()
    }
}

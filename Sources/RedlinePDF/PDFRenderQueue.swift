import Foundation
import RedlineCore

/// Gathers the DOCX files that PDF sinks finish at about the same time into one engine run: starting
/// LibreOffice costs about 2 s, rendering a small document a tenth of that. A sink registers when it is
/// made and submits at `finish`; batch workers join before they start and leave when they run out of
/// inputs (`Format.batchWorker`). A run starts as soon as no registered sink is still writing and every
/// batch worker is waiting for it (so a single conversion never waits, and a batch of `Format.batchWidth`
/// workers renders a round of that many documents at a time, however the threads are scheduled), or when
/// the oldest submission has waited `gatherWindow` seconds (a worker busy with a large input, or one
/// finishing several sinks in turn, as `export` does).
final class PDFRenderQueue: @unchecked Sendable {
    /// The queue every PDF sink of this process uses.
    static let shared = PDFRenderQueue()

    /// The longest a submitted document waits for others before its run starts.
    /// 1 s, or `REDLINE_PDF_GATHER_SECONDS` (a test sets it high, so a loaded machine cannot split a run).
    var gatherWindow = ProcessInfo.processInfo.environment["REDLINE_PDF_GATHER_SECONDS"].flatMap(Double.init) ?? 1.0

    private let condition = NSCondition()
    private var registered = 0
    /// Batch workers that may still submit.
    private var participants = 0
    private var pending: [Request] = []
    private var rendering = false
    private var firstPending: Date?

    final class Request: @unchecked Sendable {
        let docx: String
        let engine: any PDFRenderer
        var result: Result<[UInt8], RedlineError>?
        init(docx: String, engine: any PDFRenderer) { self.docx = docx; self.engine = engine }
    }

    /// A sink's place in the queue: submitting or dropping it ends the registration.
    final class Registration: @unchecked Sendable {
        private let queue: PDFRenderQueue
        private var open = true
        init(_ queue: PDFRenderQueue) { self.queue = queue }
        deinit { if open { queue.unregister() } }

        /// Renders `docx`, together with whatever other sinks submit meanwhile.
        func render(_ docx: String, engine: any PDFRenderer) throws -> [UInt8] {
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

    /// A batch worker that will submit documents one at a time until it calls `leave`.
    func join() {
        condition.lock()
        participants += 1
        condition.unlock()
    }

    func leave() {
        condition.lock()
        participants -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func unregister() {
        condition.lock()
        registered -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func submit(_ docx: String, engine: any PDFRenderer) throws -> [UInt8] {
        let request = Request(docx: docx, engine: engine)
        condition.lock()
        registered -= 1
        pending.append(request)
        if firstPending == nil { firstPending = Date() }
        condition.broadcast()
        while request.result == nil {
            let waited = firstPending.map { Date().timeIntervalSince($0) } ?? 0
            let everyoneWaits = registered == 0 && pending.count >= participants
            if !rendering && !pending.isEmpty && (everyoneWaits || waited >= gatherWindow) {
                // This thread runs the engine for everyone waiting on the same engine (the others go next).
                let identity = pending[0].engine.identity
                let round = pending.filter { $0.engine.identity == identity }
                pending.removeAll { $0.engine.identity == identity }
                firstPending = pending.isEmpty ? nil : Date()
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

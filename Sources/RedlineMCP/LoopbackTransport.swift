import Foundation
import Logging
import MCP

/// One end of a pair of in-process transports (`pair()`): what one end sends, the other receives, in order;
/// disconnecting either end ends both streams. `RedlineMCPServer.respond(to:)` runs on a pair.
///
/// The SDK's `InMemoryTransport` is not used: its two ends hold each other (`pairedTransport`, never cleared),
/// so every pair was a reference cycle and leaked (LeakSanitizer stopped fuzz-mcp on its first input). An end
/// here holds only its own stream and the continuation of the other end's, neither of which holds an end.
actor LoopbackTransport: Transport {
    nonisolated let logger: Logger
    private let incoming: AsyncThrowingStream<Data, any Error>
    private let own: AsyncThrowingStream<Data, any Error>.Continuation
    private let peer: AsyncThrowingStream<Data, any Error>.Continuation

    /// Ends alive, for the tests: a pair must go when its users are done with it.
    static let live = WorkCounter()

    private init(incoming: AsyncThrowingStream<Data, any Error>, own: AsyncThrowingStream<Data, any Error>.Continuation,
                 peer: AsyncThrowingStream<Data, any Error>.Continuation) {
        self.incoming = incoming
        self.own = own
        self.peer = peer
        var logger = Logger(label: "redline.mcp.loopback") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        self.logger = logger
        Self.live.add(1)
    }

    deinit { Self.live.add(-1) }

    /// Two connected ends: the first's sends are the second's `receive()`, and the other way round.
    static func pair() -> (LoopbackTransport, LoopbackTransport) {
        let (a, aIn) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        let (b, bIn) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        return (LoopbackTransport(incoming: a, own: aIn, peer: bIn), LoopbackTransport(incoming: b, own: bIn, peer: aIn))
    }

    func connect() async throws {}

    /// Ends this end's stream and the other's (what is already sent is still received).
    func disconnect() async {
        own.finish()
        peer.finish()
    }

    /// Ends the other end's stream only (what is already sent is still received), as closing standard input
    /// does: that end reads what is left and sees the end; this one still receives.
    func finishSending() {
        peer.finish()
    }

    func send(_ data: Data) async throws {
        guard case .enqueued = peer.yield(data) else { throw MCPError.connectionClosed }
    }

    func receive() -> AsyncThrowingStream<Data, any Error> { incoming }
}

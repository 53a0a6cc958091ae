import Foundation
import Logging
import MCP
import Redline

/// `redline mcp`: an MCP server whose tools (`DocumentTools`) work on the documents under one root directory.
public final class RedlineMCPServer: Sendable {
    public let tools: DocumentTools
    /// Tool calls being worked on.
    let working = WorkCounter()

    /// A server for the files under `root`.
    public init(root: String) throws {
        tools = DocumentTools(root: try ToolRoot(root))
    }

    /// An SDK server with Redline's tools registered (not started).
    public func makeServer() async -> Server {
        let server = Server(
            name: "redline", version: RedlineMCPInfo.version, title: "Redline",
            instructions: """
            Tools for Word (DOCX), RTF and Markdown documents under \(tools.root.path): read them with their tracked \
            changes and comments, accept or reject changes, comment on passages, and make edits that appear in \
            the document as tracked changes (apply_edits, apply_markdown). Paths are relative to that directory.
            """,
            capabilities: .init(tools: .init(listChanged: false)),
            configuration: .default)
        let tools = self.tools, working = self.working
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: DocumentTools.tools) }
        await server.withMethodHandler(CallTool.self) { params in
            // The work is synchronous and may take a while: off the cooperative pool, so the server keeps
            // reading and answering (ping, other calls) meanwhile.
            working.add(1)
            defer { working.add(-1) }
            return await withCheckedContinuation { (c: CheckedContinuation<CallTool.Result, Never>) in
                DispatchQueue.global().async { c.resume(returning: tools.call(params.name, arguments: params.arguments)) }
            }
        }
        return server
    }

    /// Serves on standard input and output until the input ends, then waits (at most `drain` seconds) for
    /// the answers to requests still being worked on.
    public func runStdio(drain: Double = 600) async throws {
        let server = await makeServer()
        let transport = AnsweringTransport(LineTransport(), working: working)
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        await transport.waitUntilAnswered(timeout: drain)
        await server.stop()
    }

    /// Runs a server in this process on the lines of `input` (bytes split at newlines), as a client writing
    /// them to its standard input would, and returns what it answered (for the fuzz target and tests).
    /// An `initialize` request goes first unless `initialize` is false. When it returns, the server's message
    /// loop and every task it started for a request have ended (`ServerTasks`), so none of its work is still
    /// running (but a tool call that outlasts `timeout`, which goes on on its queue): LeakSanitizer took a reply
    /// still being sent, and a request still being released, after `respond` had returned for leaks.
    public func respond(to input: [UInt8], initialize: Bool = true, timeout: Double = 30) async -> [Data] {
        await exchange(input, initialize: initialize, timeout: timeout, settle: true).replies
    }

    /// `respond(to:)`, also saying whether a task of the server was still running when it returned; `settle`
    /// false returns without waiting for those tasks (tests measure what the wait is for).
    func exchange(_ input: [UInt8], initialize: Bool, timeout: Double, settle: Bool) async -> (replies: [Data], tasksRunning: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        let (client, serverSide) = LoopbackTransport.pair()
        let transport = AnsweringTransport(serverSide, working: working)
        let server = await makeServer()
        let tasks: ServerTasks
        do {
            tasks = try await ServerTasks.start(server, on: transport)
            try await client.connect()
        } catch {
            return ([], false)
        }
        let replies = Replies()
        let reader = Task {
            for try await data in await client.receive() { await replies.add(data) }
        }
        var lines: [Data] = []
        if initialize {
            lines.append(Data(#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#.utf8))
            lines.append(Data(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8))
        }
        for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            lines.append(Data(line))
        }
        for line in lines {
            await transport.expect(line)
            try? await client.send(line)
        }
        await transport.waitUntilAnswered(timeout: timeout)
        // The input ends, as standard input does: the server reads what is left and its loop ends (not stopped
        // in the middle of sending a reply).
        await client.finishSending()
        await Self.wait(for: server, seconds: max(1, deadline.timeIntervalSinceNow))
        await server.stop()
        await client.disconnect()
        // Both streams are finished now: the reader ends once it has taken every reply already sent.
        _ = await reader.result
        // And the server's tasks (each request's, which the SDK does not await) have ended: nothing of this
        // input is still being released when the caller (fuzz-mcp, then LeakSanitizer) goes on.
        if settle { await tasks.waitUntilEnded(deadline: max(deadline, Date().addingTimeInterval(1))) }
        return (await replies.all, tasks.running)
    }

    /// Waits until `server`'s message loop has ended, at most `seconds`. Awaiting a task's value cannot be
    /// cancelled, so a timer is what is awaited, cancelled by a waiter when the loop ends first; then the waiter
    /// is awaited too, so nothing of this is left running (it is, waiting, only when the server did not end).
    private static func wait(for server: Server, seconds: Double) async {
        let timer = Task { (try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))) == nil }
        let waiter = Task {
            await server.waitUntilCompleted()
            timer.cancel()
        }
        if await timer.value { await waiter.value }
    }
}

/// The server's name and version as it tells clients.
public enum RedlineMCPInfo {
    public static let version = "0.1.0"
}

/// A count shared across threads.
final class WorkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add(_ k: Int) { lock.lock(); n += k; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

private actor Replies {
    var all: [Data] = []
    func add(_ d: Data) { all.append(d) }
}

/// A transport that counts the requests it has received and the responses it has sent, so a server can
/// wait, when its input ends, until every request has been answered.
actor AnsweringTransport: Transport {
    nonisolated let logger: Logger
    private let inner: any Transport
    private var open = 0
    private var pump: Task<Void, Never>?
    private let stream: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    /// Lines already counted by `expect` (in-process use, where the input does not go through `receive`'s count).
    private var expected = 0
    private let working: WorkCounter
    private var lastActivity = Date()

    init(_ inner: any Transport, working: WorkCounter) {
        self.inner = inner
        self.working = working
        var logger = Logger(label: "redline.mcp") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        self.logger = logger
        (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
    }

    func connect() async throws {
        try await inner.connect()
        let source = await inner.receive()
        let cont = continuation
        pump = Task {
            do {
                for try await data in source {
                    await self.received(data)
                    cont.yield(data)
                }
                cont.finish()
            } catch {
                cont.finish(throwing: error)
            }
        }
    }

    func disconnect() async {
        pump?.cancel()
        await inner.disconnect()
        // Nothing of the pump left running once disconnected (its source is finished and it is cancelled).
        await pump?.value
        pump = nil
        continuation.finish()
    }

    func send(_ data: Data) async throws {
        lastActivity = Date()
        if Self.responses(in: data) > 0 { open = max(0, open - Self.responses(in: data)) }
        try await inner.send(data)
    }

    func receive() -> AsyncThrowingStream<Data, any Error> { stream }

    /// Counts a line about to arrive (in-process clients).
    func expect(_ data: Data) {
        expected += 1
        open += Self.requests(in: data)
    }

    private func received(_ data: Data) {
        lastActivity = Date()
        if expected > 0 { expected -= 1; return }
        open += Self.requests(in: data)
    }

    /// Waits until every counted request has been answered (or, should the count be off, until no tool call
    /// is being worked on and nothing has been received or sent for half a second), at most `timeout` seconds.
    func waitUntilAnswered(timeout: Double) async {
        let end = Date().addingTimeInterval(timeout)
        while open > 0 && Date() < end {
            if working.value == 0 && Date().timeIntervalSince(lastActivity) > 0.5 { return }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// How many requests (objects with a method and a string or number id) a message holds.
    static func requests(in data: Data) -> Int {
        guard let any = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return 1  // a parse error is answered too
        }
        func isRequest(_ o: Any) -> Bool {
            guard let d = o as? [String: Any], d["method"] is String, let id = d["id"] else { return false }
            return id is String || id is NSNumber
        }
        if let array = any as? [Any] { return array.isEmpty ? 1 : array.filter(isRequest).count }
        if any is [String: Any] { return isRequest(any) ? 1 : (isAnswered(any) ? 1 : 0) }
        return 1
    }

    /// Messages the SDK answers with an error though they are not requests: objects that are neither a
    /// request, a notification (a method, no id) nor a response.
    private static func isAnswered(_ o: Any) -> Bool {
        guard let d = o as? [String: Any] else { return true }
        if d["method"] is String { return d["id"] != nil && !(d["id"] is NSNull) && !(d["id"] is String) && !(d["id"] is NSNumber) }
        return d["result"] == nil && d["error"] == nil
    }

    /// How many responses (objects with a result or an error) a message holds.
    static func responses(in data: Data) -> Int {
        guard let any = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return 0 }
        func isResponse(_ o: Any) -> Bool {
            guard let d = o as? [String: Any] else { return false }
            return d["result"] != nil || d["error"] != nil
        }
        if let array = any as? [Any] { return array.filter(isResponse).count }
        return isResponse(any) ? 1 : 0
    }
}

import Foundation
import MCP

/// The tasks an SDK `Server` runs for one session, watched until every one has ended. The server reads its
/// messages in a task of its own and handles each request in another that nothing awaits (the SDK keeps no
/// handle to it): when `respond` returned as soon as the last reply was sent, such a task could still be
/// finishing (releasing the request it decoded), and LeakSanitizer, looking for leaks after each fuzz input,
/// took what it still held for leaked. A task-local token is bound while the server starts: its message loop
/// inherits it, and so does every task the loop starts (requests, their handlers), each holding it until it
/// ends. Once none holds it, no task of that server is left.
struct ServerTasks {
    /// Held by every task started while it is bound.
    final class Token: Sendable {}

    @TaskLocal static var token: Token?

    /// The token of the tasks watched; nil once every one has ended.
    private weak var watched: Token?

    /// Starts `server` on `transport` with a fresh token bound, and returns the watch on its tasks.
    static func start(_ server: Server, on transport: any Transport) async throws -> ServerTasks {
        let token = Token()
        var tasks = ServerTasks()
        tasks.watched = token
        try await $token.withValue(token) { try await server.start(transport: transport) }
        return tasks
    }

    /// True while a task of the server is still running (or not yet released).
    var running: Bool { watched != nil }

    /// Waits until every task of the server has ended, at most until `deadline`; true when they all have.
    @discardableResult
    func waitUntilEnded(deadline: Date) async -> Bool {
        while running && Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
        return !running
    }
}

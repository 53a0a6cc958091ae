import Foundation
import XCTest
@testable import RedlineMCP

/// `RedlineMCPServer.respond(to:)`, what the fuzz target (Fuzz/Sources/fuzz-mcp) drives: lines in, answers out.
final class InProcessTests: XCTestCase {
    func testRespondAnswersEveryRequestLine() async throws {
        let dir = NSTemporaryDirectory() + "redline-mcp-inproc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "Hello {++big ++}world.\n".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        let server = try RedlineMCPServer(root: dir)
        let input = """
        {"jsonrpc":"2.0","id":1,"method":"tools/list"}
        {bad json
        {"jsonrpc":"2.0","method":"notifications/whatever"}
        {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_document","arguments":{"path":"a.md"}}}
        {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_document","arguments":{"path":"../../etc/passwd"}}}
        {"jsonrpc":"2.0","id":4,"result":{}}
        []
        """
        let started = Date()
        let replies = await server.respond(to: Array(input.utf8), timeout: 60)
        let objects = replies.compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        XCTAssertEqual(objects.count, replies.count, "every reply is a JSON object")
        // initialize, tools/list, the parse error, two calls, the empty batch.
        XCTAssertEqual(replies.count, 6, replies.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n"))
        let call = try XCTUnwrap(objects.first { $0["id"] as? Int == 2 }?["result"] as? [String: Any])
        XCTAssertEqual(call["isError"] as? Bool, false)
        let refused = try XCTUnwrap(objects.first { $0["id"] as? Int == 3 }?["result"] as? [String: Any])
        XCTAssertEqual(refused["isError"] as? Bool, true)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        // Nothing but the answers was needed: no file was written.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["a.md"])
    }

    /// An empty input (fuzz-mcp's first) is answered (initialize) and `respond` leaves no transport behind: the
    /// SDK's `InMemoryTransport` pair it used held each other and leaked on every call, which LeakSanitizer
    /// reports as soon as fuzz-mcp's harness gets past its first input; `LoopbackTransport`'s ends go.
    func testRespondToAnEmptyInputLeavesNoTransportBehind() async throws {
        let dir = NSTemporaryDirectory() + "redline-mcp-inproc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try RedlineMCPServer(root: dir)
        for input in ["", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"] {
            let replies = await server.respond(to: Array(input.utf8), timeout: 60)
            XCTAssertEqual(replies.count, input.isEmpty ? 1 : 2, "initialize answered, and the ping")
        }
        // The server's own tasks may let go of its end just after `respond` returns.
        let end = Date().addingTimeInterval(10)
        while LoopbackTransport.live.value > 0 && Date() < end { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(LoopbackTransport.live.value, 0, "transport ends still alive")
    }
}

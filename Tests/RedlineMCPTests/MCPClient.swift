import Foundation
import RedlineTestSupport

/// A scripted MCP client: runs the built `redline mcp --root DIR` with pipes, writes JSON-RPC lines to its
/// standard input and reads its answers, one JSON object per line, from its standard output.
final class MCPClient: @unchecked Sendable {
    let process = Process()
    private let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    private let lock = NSCondition()
    private var lines: [[String: Any]] = []
    private var rawLines: [String] = []
    private var nextID = 1

    static var executable: String {
        let bundle = Bundle.main.bundleURL.path
        let candidates = [(bundle as NSString).deletingLastPathComponent + "/redline", bundle + "/redline",
                          RepositoryPaths.root + "/.build/debug/redline"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    init(root: String) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["mcp", "--root", root]
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let handle = stdout.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = [UInt8]()
            while true {
                let chunk = [UInt8](handle.availableData)
                if chunk.isEmpty { break }
                // Only the new bytes are searched for newlines (a multi-megabyte answer comes in many reads).
                var start = 0
                while let nl = chunk[start...].firstIndex(of: 10) {
                    pending += chunk[start..<nl]
                    start = nl + 1
                    let line = Data(pending)
                    pending.removeAll(keepingCapacity: true)
                    let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
                    lock.lock()
                    rawLines.append(String(decoding: line.prefix(1000), as: UTF8.self))
                    if let object { lines.append(object) }
                    lock.broadcast()
                    lock.unlock()
                }
                pending += chunk[start...]
            }
            lock.lock()
            lock.broadcast()
            lock.unlock()
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Writes one line (a newline is added).
    func sendLine(_ text: String) {
        stdin.fileHandleForWriting.write(Data((text + "\n").utf8))
    }

    /// Sends a request; returns its id.
    @discardableResult
    func request(_ method: String, _ params: [String: Any]? = nil) throws -> Int {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { message["params"] = params }
        let data = try JSONSerialization.data(withJSONObject: message)
        sendLine(String(decoding: data, as: UTF8.self))
        return id
    }

    func notify(_ method: String) {
        sendLine(#"{"jsonrpc":"2.0","method":"\#(method)"}"#)
    }

    /// The answer to request `id` (waits up to `timeout` seconds).
    func answer(_ id: Int, timeout: Double = 120) -> [String: Any]? {
        answer(where: { ($0["id"] as? Int) == id }, timeout: timeout)
    }

    func answer(where match: ([String: Any]) -> Bool, timeout: Double = 120) -> [String: Any]? {
        let end = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let l = lines.first(where: match) { return l }
            if !lock.wait(until: end) { return nil }
        }
    }

    /// Every line read so far.
    var all: [[String: Any]] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// Sends a request and waits for its answer.
    func call(_ method: String, _ params: [String: Any]? = nil, timeout: Double = 120) throws -> [String: Any] {
        let id = try request(method, params)
        guard let a = answer(id, timeout: timeout) else { throw ClientError("no answer to \(method) (id \(id))") }
        return a
    }

    /// `initialize` and `notifications/initialized`.
    func initialize() throws -> [String: Any] {
        let a = try call("initialize", ["protocolVersion": "2025-06-18", "capabilities": [String: Any](),
                                        "clientInfo": ["name": "redline-tests", "version": "1"]])
        notify("notifications/initialized")
        return a
    }

    /// Calls a tool; returns (isError, text of the content, the result).
    func tool(_ name: String, _ arguments: [String: Any], timeout: Double = 120) throws -> (isError: Bool, text: String, result: [String: Any]) {
        let a = try call("tools/call", ["name": name, "arguments": arguments], timeout: timeout)
        guard let r = a["result"] as? [String: Any] else { throw ClientError("tools/call \(name): no result: \(a)") }
        let text = (r["content"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }.joined(separator: "\n")
        return ((r["isError"] as? Bool) ?? false, text, r)
    }

    /// Closes standard input and waits for the server to exit; returns its status.
    func finish(timeout: Double = 30) -> Int32? {
        try? stdin.fileHandleForWriting.close()
        let end = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < end { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    var errorOutput: String {
        String(decoding: stderr.fileHandleForReading.availableData, as: UTF8.self)
    }
}

struct ClientError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

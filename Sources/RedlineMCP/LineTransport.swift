import Foundation
import Logging
import MCP

/// MCP's stdio transport: one JSON-RPC message per line on standard input and output. Unlike the SDK's
/// `StdioTransport` (4 KiB reads, the whole pending buffer searched for a newline after each), it reads
/// blocking on a thread of its own in 1 MiB reads, searches only the new bytes for the newline, and refuses
/// a line longer than `maximumLineBytes`: the line is skipped and a message that is not JSON takes its place,
/// so the client gets a parse error rather than the server running out of memory.
public actor LineTransport: Transport {
    public nonisolated let logger: Logger
    private let input: Int32
    private let output: Int32
    private let maximumLineBytes: Int
    private let stream: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var started = false

    /// What takes an over-long line's place (not JSON: the server answers it with a parse error).
    static let oversizedMarker = Data("redline: message longer than the limit".utf8)

    public init(input: Int32 = 0, output: Int32 = 1, maximumLineBytes: Int = 256 << 20) {
        self.input = input
        self.output = output
        self.maximumLineBytes = maximumLineBytes
        var logger = Logger(label: "redline.mcp.transport") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        self.logger = logger
        (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
    }

    public func connect() async throws {
        guard !started else { return }
        started = true
        let (fd, limit, cont) = (input, maximumLineBytes, continuation)
        let thread = Thread { Self.readLines(fd: fd, limit: limit, into: cont) }
        thread.name = "redline-mcp-stdin"
        thread.start()
    }

    public func disconnect() async { continuation.finish() }

    public func send(_ data: Data) async throws {
        var bytes = [UInt8](data)
        bytes.append(UInt8(ascii: "\n"))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(output, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
            done += n
        }
    }

    public func receive() -> AsyncThrowingStream<Data, any Error> { stream }

    /// Reads lines until end of input, yielding each non-empty one (a trailing `\r` removed).
    static func readLines(fd: Int32, limit: Int, into continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
        var pending = [UInt8]()
        var skipping = false  // inside a line over the limit: drop bytes up to its newline
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        func emit(_ line: ArraySlice<UInt8>) {
            var line = line
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.contains(where: { $0 != 0x20 && $0 != 0x09 }) { continuation.yield(Data(line)) }
        }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break
            }
            if n == 0 { break }
            var start = 0
            while start < n {
                guard let nl = buffer[start..<n].firstIndex(of: UInt8(ascii: "\n")) else {
                    if !skipping {
                        pending += buffer[start..<n]
                        if pending.count > limit {
                            pending = []
                            skipping = true
                        }
                    }
                    break
                }
                if skipping {
                    skipping = false
                    continuation.yield(oversizedMarker)
                } else if pending.isEmpty {
                    emit(buffer[start..<nl])
                } else {
                    pending += buffer[start..<nl]
                    if pending.count > limit { continuation.yield(oversizedMarker) } else { emit(pending[...]) }
                    pending = []
                }
                start = nl + 1
            }
        }
        if skipping { continuation.yield(oversizedMarker) } else if !pending.isEmpty { emit(pending[...]) }
        continuation.finish()
    }
}

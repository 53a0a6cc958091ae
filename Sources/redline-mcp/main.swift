// `redline-mcp --root DIR`: the Model Context Protocol server `redline mcp` runs. A program of its own so
// that the MCP SDK (and the networking library it brings) is not loaded by every `redline` conversion.
import Foundation
import RedlineMCP

var root = "."
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    switch a {
    case "--root":
        guard let r = arguments.popFirst() else { fail("--root needs a directory") }
        root = r
    case "-h", "--help":
        print("usage: redline-mcp [--root DIR]\nA Model Context Protocol server on standard input and output; see `redline mcp --help`.")
        exit(0)
    default:
        fail("unknown argument '\(a)' (usage: redline-mcp [--root DIR])")
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("redline: error: \(message)\n".utf8))
    exit(64)
}

let server: RedlineMCPServer
do {
    server = try RedlineMCPServer(root: root)
} catch let e as ToolError {
    fail(e.message)
}
final class Outcome: @unchecked Sendable { var error: (any Error)? }
let outcome = Outcome()
let done = DispatchSemaphore(value: 0)
Task.detached {
    do { try await server.runStdio() } catch { outcome.error = error }
    done.signal()
}
done.wait()
if let e = outcome.error {
    FileHandle.standardError.write(Data("redline: error: mcp: \(e)\n".utf8))
    exit(1)
}

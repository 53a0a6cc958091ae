import ArgumentParser
import Foundation
import Redline
import RedlineMCP

extension RedlineCommand {
    /// `redline mcp --root DIR`: a Model Context Protocol server on standard input and output.
    public struct MCP: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve Redline's document tools to a language-model client (Model Context Protocol over stdio).",
            discussion: """
            Reads JSON-RPC messages, one per line, on standard input and answers on standard output until the input
            ends. The tools (read_document, list_changes, review, add_comment, apply_edits, apply_markdown, compare)
            work only on files under --root; edits are written as tracked changes. See docs/mcp.md.
              redline mcp --root ~/Documents/drafts
            """)

        @Option(help: "The directory the tools may read and write in (default: the current directory).")
        public var root: String = "."

        public init() {}

        public func run() throws {
            let server: RedlineMCPServer
            do {
                server = try RedlineMCPServer(root: root)
            } catch let e as ToolError {
                throw RedlineError.usage(e.message)
            }
            final class Outcome: @unchecked Sendable { var error: (any Error)? }
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                do { try await server.runStdio() } catch { outcome.error = error }
                done.signal()
            }
            done.wait()
            if let e = outcome.error { throw RedlineError.io("mcp: \(e)") }
        }
    }
}

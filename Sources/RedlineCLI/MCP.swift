import ArgumentParser
import Foundation
import Redline

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
            // The server is a program of its own (`redline-mcp`, installed beside `redline`): its SDK stays out
            // of every other command's start-up.
            guard let program = Self.serverProgram() else {
                throw RedlineError.usage("redline mcp needs the redline-mcp program beside redline or on PATH (make install puts it there; or swift build -c release --product redline-mcp)")
            }
            let argv = [program, "--root", root]
            var cArgs = argv.map { strdup($0) } + [nil]
            execv(program, &cArgs)
            // Only reached when exec fails.
            let reason = String(cString: strerror(errno))
            cArgs.forEach { free($0) }
            throw RedlineError.io("cannot start \(program): \(reason)")
        }

        /// `redline-mcp` beside this executable (symbolic links resolved), else on PATH.
        static func serverProgram() -> String? {
            let fm = FileManager.default
            if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() {
                let beside = exe.deletingLastPathComponent().appendingPathComponent("redline-mcp").path
                if fm.isExecutableFile(atPath: beside) { return beside }
            }
            for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                let candidate = String(dir) + "/redline-mcp"
                if fm.isExecutableFile(atPath: candidate) { return candidate }
            }
            return nil
        }
    }
}

import ArgumentParser
import Foundation
import Redline

/// The `redline` command: subcommands, each in its own file.
public struct RedlineCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "redline",
        abstract: "Convert documents between DOCX, RTF, Markdown/CriticMarkup and HTML without losing tracked changes, comments or paragraph formatting.",
        discussion: """
        Exit status: 0 success, 1 a document failed (or, for check, a --fail-on finding), 2 usage error.

        Warnings about what a target format cannot carry go to standard error (and to --warnings-json).
        """,
        version: RedlineVersion.report,
        subcommands: [Convert.self, Compare.self, Apply.self, Combine.self, Export.self, Check.self, Report.self, Changes.self, Formats.self, Scrivener.self, MCP.self,
                      BatchWorkerCommand.self]
    )

    public init() {}

    /// Runs the command line and exits with Redline's documented status: 0, 1 (a document failed), 2 (usage).
    public static func runMain(_ arguments: [String]? = nil) -> Never {
        // Scratch files go to a directory of this process's own, removed however it ends (a batch worker's
        // TMPDIR is its batch's).
        func exit(_ code: Int32) -> Never {
            ScratchDirectory.leave()
            Foundation.exit(code)
        }
        do {
            if let quick = try QuickConvert.conversion(arguments ?? Array(CommandLine.arguments.dropFirst())) {
                ScratchDirectory.enter()
                try LargeStack.run { try quick.run() }
                exit(0)
            }
            var command = try parseAsRoot(arguments)
            if !(command is BatchWorkerCommand) { ScratchDirectory.enter() }
            // Every command works on a thread with a large stack: deeply nested input cannot overflow it.
            try LargeStack.run { try command.run() }
            exit(0)
        } catch let e as RedlineError {
            FileHandle.standardError.write(Data("redline: error: \(e.message)\n".utf8))
            exit(e.kind == .usage ? 2 : 1)
        } catch let e as ExitCode {
            exit(e.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                ScratchDirectory.leave()
                Self.exit(withError: error)
            }
            let message = fullMessage(for: error)
            FileHandle.standardError.write(Data((message.isEmpty ? "" : message + "\n").utf8))
            exit(2)
        }
    }
}

/// The version `redline --version` prints: Redline's, then the C libraries' it runs with.
public enum RedlineVersion {
    /// Redline's own version (also part of a batch's up-to-date fingerprint).
    public static let string = "0.1.0"
    /// "redline 0.1.0" and a line per library ("libxml2 2.9.14", ...).
    public static var report: String {
        (["redline \(string)"] + LibraryVersions.all.map { "\($0.name) \($0.version)" }).joined(separator: "\n")
    }
}

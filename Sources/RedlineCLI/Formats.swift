import ArgumentParser
import Redline

extension RedlineCommand {
    /// `redline formats`: the formats, what can read and write them, and their extensions.
    public struct Formats: ParsableCommand {
        public static let configuration = CommandConfiguration(abstract: "List the formats Redline reads and writes.")

        public init() {}

        public func run() throws {
            print("name   read  write  extensions        description")
            for f in FormatRegistry.all {
                let r = f.reader == nil ? "  " : "✓ "
                let w = f.writer == nil ? "  " : "✓ "
                let name = f.name.padding(toLength: 6, withPad: " ", startingAt: 0)
                let ext = f.extensions.map { "." + $0 }.joined(separator: " ").padding(toLength: 17, withPad: " ", startingAt: 0)
                print("\(name) \(r)    \(w)     \(ext) \(f.summary)")
            }
        }
    }
}

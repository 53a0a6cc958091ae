import ArgumentParser
import Redline

extension RedlineCommand {
    /// `redline formats`: the formats, what can read and write them, and their extensions.
    public struct Formats: ParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "formats", abstract: "List the formats Redline reads and writes.")

        public init() {}

        public func run() throws {
            print(Self.table(FormatRegistry.all), terminator: "")
        }

        /// The listing: one line per format, every column as wide as its widest entry (nothing cut off).
        static func table(_ formats: [Format]) -> String {
            let header = ["name", "read", "write", "extensions", "description"]
            var rows = [header]
            for f in formats {
                rows.append([f.name, f.reader == nil ? "" : "✓", f.writer == nil ? "" : "✓",
                             f.extensions.map { "." + $0 }.joined(separator: " "), f.summary])
            }
            var widths = [Int](repeating: 0, count: header.count)
            for row in rows { for (k, cell) in row.enumerated() { widths[k] = max(widths[k], cell.count) } }
            var out = ""
            for row in rows {
                var line = ""
                for (k, cell) in row.enumerated() {
                    if k > 0 { line += "  " }
                    line += k == row.count - 1 ? cell : cell.padding(toLength: widths[k], withPad: " ", startingAt: 0)
                }
                while line.hasSuffix(" ") { line.removeLast() }
                out += line + "\n"
            }
            return out
        }
    }
}

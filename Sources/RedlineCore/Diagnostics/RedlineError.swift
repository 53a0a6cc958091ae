import Foundation

/// A fatal problem with one input or output: the document cannot be converted.
/// The message is one readable line that names the problem and, where it helps, what to do.
public struct RedlineError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// What kind of failure this is (stable, for reports and exit codes).
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The input is not in the format it claims, or is damaged.
        case malformedInput = "malformed-input"
        /// The input is a format Redline does not read (legacy .doc, encrypted, ...).
        case unsupportedInput = "unsupported-input"
        /// The input exceeds a safety limit (zip bomb, nesting, entity expansion...).
        case limitExceeded = "limit-exceeded"
        /// Reading or writing a file failed.
        case io = "io"
        /// The request itself is wrong (unknown format, bad option).
        case usage = "usage"
        /// The process converting the input died (a batch worker process: a bug in Redline, or the system
        /// ran out of memory). Only batches in worker processes report it.
        case crashed = "crashed"
        /// The process converting the input ran past its time limit and was killed (a batch worker
        /// process, `--timeout`). Only batches in worker processes report it.
        case timeout = "timeout"
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
    public var errorDescription: String? { message }

    public static func malformed(_ m: String) -> RedlineError { RedlineError(.malformedInput, m) }
    public static func unsupported(_ m: String) -> RedlineError { RedlineError(.unsupportedInput, m) }
    public static func limit(_ m: String) -> RedlineError { RedlineError(.limitExceeded, m) }
    public static func io(_ m: String) -> RedlineError { RedlineError(.io, m) }
    public static func usage(_ m: String) -> RedlineError { RedlineError(.usage, m) }
}

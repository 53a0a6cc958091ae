/// Thrown (a test failure, not a skip) when a format a test needs is not registered.
public struct FormatMissing: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

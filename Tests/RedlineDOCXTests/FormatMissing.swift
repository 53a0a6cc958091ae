/// Thrown (a test failure, not a skip) when a format a test needs is not registered.
struct FormatMissing: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

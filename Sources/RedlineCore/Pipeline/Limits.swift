/// Every safety limit on untrusted input, in one place (README "Reliability" lists each with its value and
/// the error it gives). Each error names the limit (`Limits.name`) and the file. The instance values can
/// be changed per conversion (`ReadOptions.limits`); the static ones are fixed.
public struct Limits: Sendable, Codable, Hashable {
    /// Total bytes a zip archive (DOCX) may inflate to, all entries together.
    public var maxInflatedBytes: UInt64 = 2 << 30
    /// Bytes one zip entry may inflate to.
    public var maxEntryBytes: UInt64 = 1 << 30
    /// Largest compression ratio of an entry once it has inflated past `ratioCheckedAbove` (zip bombs
    /// compress at 1000:1 and more; so do real document parts made of repeated runs, hence the threshold).
    public var maxCompressionRatio: UInt64 = 200
    /// Inflated bytes below which an entry's compression ratio is not checked.
    public var ratioCheckedAbove: UInt64 = 256 << 20
    /// Entries a zip archive may list.
    public var maxZipEntries: Int = 100_000
    /// Deepest nesting of groups, elements or blocks.
    public var maxNesting: Int = 10_000
    /// Deepest nesting of tracked changes inside tracked changes (Word writes two: an insertion deleted by
    /// someone else); deeper ones are read as their enclosing change, with a warning.
    public var maxRevisionNesting: Int = 16
    /// Bytes a file that is not a regular file (standard input, a pipe, a device) may hold: its size is not
    /// known in advance.
    public var maxStreamedInputBytes: Int = 256 << 20
    /// Bytes one picture may have; a larger one is left out with a warning (`media.too-large`).
    public var maxPictureBytes: Int = 64 << 20
    /// Bytes all of a document's distinct pictures may have together; later ones are left out with a warning.
    public var maxMediaBytes: Int = 512 << 20

    public init() {}

    /// Longest XML text node or attribute value (libxml2's own limit without `XML_PARSE_HUGE`, which
    /// Redline never sets).
    public static let maxXMLTextBytes = 10_000_000
    /// Deepest Markdown block nesting cmark is given (its parser recurses).
    public static let maxMarkdownNesting = 2_000
    /// CriticMarkup marks and spans in one Markdown document (placeholder numbers).
    public static let maxCriticMarks = 1 << 24
    /// Cells of one Markdown table row cmark-gfm is given (it is quadratic in them); past it, `|` is escaped.
    public static let maxTableColumns = 256
    /// Deepest nesting inside one equation (TeX groups and delimiters, OMML elements): deeper TeX is written as
    /// its text (`lossy.math-unsupported`), deeper OMML is read as its text.
    public static let maxMathNesting = 64
    /// Deepest Scrivener binder nesting.
    public static let maxBinderDepth = 100
    /// Bytes of a Scrivener binder (`.scrivx`) or of one of its text files.
    public static let maxScrivenerFileBytes = 64 << 20

    /// Wall-clock seconds a batch worker process may spend on one document before it is killed and the
    /// document fails with kind `timeout`, unless `--timeout` says otherwise: the larger of this floor and
    /// `documentSecondsPerMiB` per MiB of input. The slowest shapes measured (a million runs) convert at 1.5 MiB or
    /// more a CPU second, so 10 s a MiB is 15 times that, and 600 s is hours of CPU for the documents people
    /// write: only a hang (or a machine loaded past use) reaches it.
    public static let documentSecondsFloor = 600
    /// Seconds per MiB of input added to a document's time limit above `documentSecondsFloor`.
    public static let documentSecondsPerMiB = 10

    /// `"limit Limits.<name> = <value>"`, for messages.
    public static func name(_ name: String, _ value: some BinaryInteger) -> String { "limit Limits.\(name) = \(value)" }
}

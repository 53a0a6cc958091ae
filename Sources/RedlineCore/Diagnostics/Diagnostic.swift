import Foundation

/// A stable diagnostic code, e.g. `lossy.paragraph-indent`. Codes never change meaning once released;
/// scripts match on them. Each module declares its codes in an `extension DiagnosticCode`.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public init(_ value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (a: DiagnosticCode, b: DiagnosticCode) -> Bool { a.rawValue < b.rawValue }
}

/// Where in the input a diagnostic points: a 1-based line (text formats) or a 1-based paragraph index.
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    public var line: Int?
    public var paragraph: Int?

    public init(line: Int? = nil, paragraph: Int? = nil) {
        self.line = line
        self.paragraph = paragraph
    }

    public var description: String {
        if let line { return "line \(line)" }
        if let paragraph { return "paragraph \(paragraph)" }
        return "document"
    }
}

/// A recoverable problem or a loss: data, reported on its own channel, never printed into the output.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Hashable, Sendable, Codable { case warning, note }

    public var code: DiagnosticCode
    public var severity: Severity
    public var message: String
    /// The first place it happened.
    public var location: SourceLocation?
    /// How many times it happened (paragraphs, marks, fonts... as the message says).
    public var count: Int

    public init(code: DiagnosticCode, severity: Severity = .warning, message: String,
                location: SourceLocation? = nil, count: Int = 1) {
        self.code = code
        self.severity = severity
        self.message = message
        self.location = location
        self.count = count
    }

    /// `warning[lossy.font] line 3: fonts dropped (3 fonts) ×3`
    public var description: String {
        var s = "\(severity.rawValue)[\(code)]"
        if let location { s += " \(location)" }
        s += ": \(message)"
        if count > 1 { s += " (×\(count))" }
        return s
    }
}

/// Collects the diagnostics of one document's conversion. Repeated reports of one code are folded into
/// one diagnostic whose count grows and which keeps the first message and location.
/// Shared by the reader, stages and writer of one conversion; safe to use from several threads.
public final class Diagnostics: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Diagnostic] = []
    private var index: [DiagnosticCode: Int] = [:]
    /// For each item, the stamp in force when it was first reported.
    private var firstStamps: [Int] = []
    private var currentStamp = 0

    public init() {}

    /// A number recorded with each code's first report. When the reader and the writer of one conversion
    /// report into two objects from two threads (`Pipeline.runConcurrently`), the stamps say what a
    /// single-threaded run would have reported first, so `absorb` gives the same order every time.
    public var stamp: Int {
        get { lock.lock(); defer { lock.unlock() }; return currentStamp }
        set { lock.lock(); defer { lock.unlock() }; currentStamp = newValue }
    }

    /// Records `count` occurrences of `code`.
    public func report(_ code: DiagnosticCode, _ message: @autoclosure () -> String,
                       at location: SourceLocation? = nil, count: Int = 1, severity: Diagnostic.Severity = .warning) {
        guard count > 0 else { return }
        lock.lock(); defer { lock.unlock() }
        if let i = index[code] {
            items[i].count += count
        } else {
            index[code] = items.count
            items.append(Diagnostic(code: code, severity: severity, message: message(), location: location, count: count))
            firstStamps.append(currentStamp)
        }
    }

    /// Reports here everything `parts` collected, ordered by the stamp at each code's first report (then
    /// by `parts` order, then by report order): the order in which one thread running the parts' work
    /// stage by stage would have reported them.
    public func absorb(_ parts: [Diagnostics]) {
        var entries: [(stamp: Int, part: Int, order: Int, diagnostic: Diagnostic)] = []
        for (p, part) in parts.enumerated() {
            part.lock.lock()
            for (k, d) in part.items.enumerated() { entries.append((part.firstStamps[k], p, k, d)) }
            part.lock.unlock()
        }
        entries.sort { ($0.stamp, $0.part, $0.order) < ($1.stamp, $1.part, $1.order) }
        for e in entries { report(e.diagnostic) }
    }

    /// How many codes have been reported so far: a place to `insert` diagnostics at later.
    public var mark: Int {
        lock.lock(); defer { lock.unlock() }
        return items.count
    }

    /// Puts `other`'s diagnostics where they would be had they been reported when `mark` was taken, at
    /// `stamp`: after the codes reported before the mark, before those reported since. Counts add up; a code
    /// reported both before the mark and in `other` keeps its first message, one reported in `other` and
    /// since the mark keeps `other`'s. For work done out of its order: the DOCX reader parses comments as
    /// the body reaches them but reports their warnings where it once read them all, before the body.
    public func insert(_ other: Diagnostics, at mark: Int, stamp: Int) {
        guard other !== self else { return }
        other.lock.lock()
        let middle = other.items
        other.lock.unlock()
        guard !middle.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        let cut = min(max(mark, 0), items.count)
        let later = items[cut...], laterStamps = firstStamps[cut...]
        items.removeSubrange(cut...)
        firstStamps.removeSubrange(cut...)
        index = index.filter { $0.value < cut }
        func add(_ d: Diagnostic, _ stamp: Int) {
            if let i = index[d.code] {
                items[i].count += d.count
                firstStamps[i] = min(firstStamps[i], stamp)
            } else {
                index[d.code] = items.count
                items.append(d)
                firstStamps.append(stamp)
            }
        }
        for d in middle { add(d, stamp) }
        for (d, s) in zip(later, laterStamps) { add(d, s) }
    }

    /// Records a diagnostic as is (merging with an earlier one of the same code).
    public func report(_ d: Diagnostic) {
        report(d.code, d.message, at: d.location, count: d.count, severity: d.severity)
    }

    /// Everything reported so far, in order of first report.
    public var all: [Diagnostic] {
        lock.lock(); defer { lock.unlock() }
        return items
    }

    /// The count reported under `code` (0 when none).
    public func count(of code: DiagnosticCode) -> Int {
        lock.lock(); defer { lock.unlock() }
        return index[code].map { items[$0].count } ?? 0
    }
}

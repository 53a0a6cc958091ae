import Foundation
import RedlineCore
import RedlineConversion
import RedlineCompare

/// Shows a batch on standard error: on a terminal one bar redrawn in place (done/total, rate, ETA,
/// failures) with failures printed above it; otherwise one plain line per input, for logs.
public final class ProgressDisplay: BatchObserver, @unchecked Sendable {
    private let lock = NSLock()
    private let terminal: Bool
    private let quiet: Bool
    private let fd: Int32
    private var lastDraw = 0.0
    private var drawn = false

    /// A display on `fd` (standard error). `terminal` nil: decided by `isatty`. `quiet`: only failures.
    public init(fd: Int32 = 2, terminal: Bool? = nil, quiet: Bool = false) {
        self.fd = fd
        self.terminal = terminal ?? (isatty(fd) == 1)
        self.quiet = quiet
    }

    public func inputFinished(_ record: BatchRecord, progress: BatchProgress) {
        lock.lock(); defer { lock.unlock() }
        let line = Self.line(for: record, progress: progress)
        if terminal {
            if record.status == .failed { emit("\r\u{1b}[K" + line + "\n"); drawn = false }
            if !quiet && (progress.elapsed - lastDraw >= 0.1 || progress.done == progress.total) { draw(progress) }
        } else if record.status == .failed || !quiet {
            emit(line + "\n")
        }
    }

    public func tick(_ progress: BatchProgress) {
        lock.lock(); defer { lock.unlock() }
        if terminal && !quiet { draw(progress) }
    }

    public func batchFinished(_ summary: BatchSummary) {
        lock.lock(); defer { lock.unlock() }
        if drawn { emit("\r\u{1b}[K") }
        drawn = false
        emit("redline: " + Self.summaryLine(summary) + "\n")
    }

    /// `[12/1000] ok drafts/a.docx -> out/drafts/a.md (3 warnings)` or `[13/1000] FAILED b.docx: ...`.
    static func line(for r: BatchRecord, progress: BatchProgress) -> String {
        let n = "[\(progress.done)/\(progress.total)]"
        switch r.status {
        case .failed:
            let message = (r.error?.message ?? "unknown error").split(whereSeparator: \.isNewline).joined(separator: " ")
            return "\(n) FAILED \(r.input): \(message)"
        case .skipped:
            return "\(n) up to date \(r.input)"
        case .unpaired:
            return "\(n) only in \(r.onlyIn == "old" ? "OLD" : "NEW") \(r.input)"
        case .converted:
            let warnings = r.warnings.reduce(0) { $0 + $1.count }
            let w = warnings == 0 ? "" : " (\(warnings) warning\(warnings == 1 ? "" : "s"))"
            return "\(n) ok \(r.input) -> \(r.outputs.map(\.path).joined(separator: ", "))\(w)"
        }
    }

    /// `1000 inputs: 900 converted, 0 up to date, 100 failed in 3.2 s (312.5 files/s); 41 warnings`.
    public static func summaryLine(_ s: BatchSummary) -> String {
        let warnings = s.warnings.reduce(0) { $0 + $1.count }
        let rate = s.seconds > 0 ? Double(s.inputs) / s.seconds : 0
        var text = "\(s.inputs) input\(s.inputs == 1 ? "" : "s")"
        if let shard = s.shard { text += " (shard \(shard))" }
        text += ": \(s.converted) \(s.unpaired == nil && s.stats == nil ? "converted" : "compared"), \(s.skipped) up to date, \(s.failed) failed"
        if let alone = s.unpaired { text += ", \(alone) on one side only" }
        text += " in " + String(format: "%.1f s (%.1f files/s)", s.seconds, rate)
        if warnings > 0 {
            let top = s.warnings.sorted { $0.count > $1.count }.prefix(3).map { "\($0.code) ×\($0.count)" }
            text += "; \(warnings) warning\(warnings == 1 ? "" : "s") (\(top.joined(separator: ", "))\(s.warnings.count > 3 ? ", ..." : ""))"
        }
        return text
    }

    /// `[=========>          ] 512/1000  85.3 files/s  ETA 0:06  3 failed`
    private func draw(_ p: BatchProgress) {
        let width = 24
        let filled = p.total == 0 ? width : width * p.done / p.total
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "")
            + String(repeating: " ", count: max(0, width - filled - 1))
        var s = "\r\u{1b}[K[\(bar)] \(p.done)/\(p.total)  " + String(format: "%.1f files/s", p.rate)
        if let r = p.remaining { s += "  ETA " + Self.clock(r) }
        if p.failed > 0 { s += "  \(p.failed) failed" }
        emit(s)
        drawn = true
        lastDraw = p.elapsed
    }

    static func clock(_ seconds: Double) -> String {
        let t = Int(seconds.rounded())
        return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
                         : String(format: "%d:%02d", t / 60, t % 60)
    }

    private func emit(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = write(fd, buf.baseAddress! + off, buf.count - off)
                if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
                off += n
            }
        }
    }
}

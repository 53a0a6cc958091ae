import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion

/// The batch display: a bar redrawn in place on a terminal, plain lines otherwise.
final class ProgressDisplayTests: XCTestCase {
    /// What a display writes for a few finished inputs, read back from a pipe.
    func output(terminal: Bool, quiet: Bool = false) throws -> String {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let display = ProgressDisplay(fd: fds[1], terminal: terminal, quiet: quiet)
        var ok = BatchRecord(input: "in/a.docx", format: "docx", status: .converted,
                             outputs: [.init(path: "out/a.md", variant: "marked")])
        ok.warnings = [WarningCount(code: "lossy.font", count: 2, message: "fonts")]
        var bad = BatchRecord(input: "in/b.docx", format: "docx", status: .failed, outputs: [])
        bad.error = .init(kind: .malformedInput, message: "not a zip\narchive")
        var p = BatchProgress(total: 4)
        p.done = 1; p.elapsed = 0.5
        display.inputFinished(ok, progress: p)
        p.done = 2; p.failed = 1; p.elapsed = 1.0
        display.inputFinished(bad, progress: p)
        display.tick(p)
        display.batchFinished(BatchSummary(records: [ok, bad], seconds: 1.0))
        close(fds[1])
        let h = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        return String(decoding: h.readDataToEndOfFile(), as: UTF8.self)
    }

    func testPlainLinesWhenNotATerminal() throws {
        let text = try output(terminal: false)
        XCTAssertEqual(text, """
            [1/4] ok in/a.docx -> out/a.md (2 warnings)
            [2/4] FAILED in/b.docx: not a zip archive
            redline: 2 inputs: 1 converted, 0 up to date, 1 failed in 1.0 s (2.0 files/s); 2 warnings (lossy.font ×2)

            """)
        XCTAssertEqual(try output(terminal: false, quiet: true).split(separator: "\n").count, 2, "quiet: failures and summary")
    }

    func testBarOnATerminal() throws {
        let text = try output(terminal: true)
        XCTAssertTrue(text.contains("\r\u{1b}[K[2/4] FAILED in/b.docx: not a zip archive\n"), text)
        XCTAssertTrue(text.contains("\r\u{1b}[K[============>           ] 2/4  2.0 files/s  ETA 0:01  1 failed"), text)
        XCTAssertFalse(text.contains("] ok "), "successes move the bar, they do not print lines")
        XCTAssertTrue(text.hasSuffix("\r\u{1b}[Kredline: 2 inputs: 1 converted, 0 up to date, 1 failed in 1.0 s (2.0 files/s); 2 warnings (lossy.font ×2)\n"), text)
    }

    func testClock() {
        XCTAssertEqual(ProgressDisplay.clock(5), "0:05")
        XCTAssertEqual(ProgressDisplay.clock(125), "2:05")
        XCTAssertEqual(ProgressDisplay.clock(3725), "1:02:05")
    }
}

import Foundation
import XCTest
import RedlineCore
@testable import RedlineRTF

/// Hostile and damaged RTF: each gives a clear error, or a warning with the text that could be read.
final class RTFBadInputTests: XCTestCase {
    private func read(_ bytes: [UInt8], _ diags: Diagnostics = Diagnostics()) throws -> Document {
        try RTFReader().read(.bytes(bytes), diagnostics: diags)
    }

    func testNonRTFIsAnError() {
        for input in ["", "Hello world", "<html><body>x</body></html>", "{\\ansi no rtf word}", "PK\u{3}\u{4}zip"] {
            XCTAssertThrowsError(try read(Array(input.utf8)), input) { e in
                XCTAssertEqual((e as? RedlineError)?.kind, .malformedInput)
                XCTAssertTrue((e as? RedlineError)?.message.contains("not RTF") ?? false)
            }
        }
    }

    func testUnbalancedBraces() throws {
        let d1 = Diagnostics()
        let doc = try read(Array(#"{\rtf1\ansi One}}} Two\par}"#.utf8), d1)
        XCTAssertEqual(RTFTestSupport.text(doc), "One")
        XCTAssertGreaterThan(d1.count(of: .rtfTrailingContent), 0)
        let d2 = Diagnostics()
        let open = try read(Array(#"{\rtf1\ansi {\b One\par {{ Two"#.utf8), d2)
        XCTAssertEqual(RTFTestSupport.text(open), "One\n Two")
        XCTAssertEqual(d2.count(of: .rtfTruncated), 1)
        let d3 = Diagnostics()
        let extra = try read(Array(#"{\rtf1\ansi {One}} Two}"#.utf8), d3)
        XCTAssertEqual(RTFTestSupport.text(extra), "One")
    }

    func testBinLongerThanFile() throws {
        let d = Diagnostics()
        let doc = try read(Array(#"{\rtf1\ansi Before {\*\blob\bin999999999 abc"#.utf8), d)
        XCTAssertEqual(RTFTestSupport.text(doc), "Before ")
        XCTAssertGreaterThan(d.count(of: .rtfTruncated), 0)
        let d2 = Diagnostics()
        let doc2 = try read(Array(#"{\rtf1\ansi A\bin3 }}}B\par}"#.utf8), d2)
        XCTAssertEqual(RTFTestSupport.text(doc2), "AB")
    }

    func testMillionNestedGroups() throws {
        let n = 1_000_000
        var bytes = Array(#"{\rtf1\ansi "#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "{"), count: n)
        bytes += Array("deep".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "}"), count: n)
        bytes += Array(#" after\par}"#.utf8)
        let d = Diagnostics()
        let doc = try read(bytes, d)
        XCTAssertEqual(RTFTestSupport.text(doc), "deep after")
        XCTAssertEqual(d.count(of: .rtfNestingLimit), 1)
        // Unclosed, too.
        let d2 = Diagnostics()
        let doc2 = try read(Array(#"{\rtf1 "#.utf8) + [UInt8](repeating: UInt8(ascii: "{"), count: n) + Array("x".utf8), d2)
        XCTAssertEqual(RTFTestSupport.text(doc2), "x")
        XCTAssertEqual(d2.count(of: .rtfTruncated), 1)
    }

    func testUnknownCodePage() throws {
        let d = Diagnostics()
        let doc = try read(Array(#"{\rtf1\ansi\ansicpg99999 caf\'e9\par}"#.utf8), d)
        XCTAssertEqual(RTFTestSupport.text(doc), "café")
        XCTAssertEqual(d.count(of: .rtfUnknownCodePage), 1)
    }

    func testAbsurdParameters() throws {
        let d = Diagnostics()
        let rtf = #"{\rtf1\ansi\uc99999999999999999999 \fs-5 A\fs99999999999 B\u99999999999?C\cellx-99999999999999\li999999999999999999999 D\itap2147483647 E\ls999999999\ilvl999 F\par}"#
        let doc = try read(Array(rtf.utf8), d)
        XCTAssertTrue(RTFTestSupport.text(doc).hasPrefix("AB"), RTFTestSupport.text(doc))
        XCTAssertGreaterThan(d.count(of: .rtfParameterClamped), 0)
    }

    /// A row of thousands of cells (issue 15's hostile shapes; its time is `scripts/bench/70-hostile.sh`'s
    /// "RTF row of 200,000 cells"): every cell kept, column spans from the boundaries (binary searches of the
    /// grid), a second row whose one cell spans the boundaries it covers.
    func testWideRowKeepsEveryCellAndItsSpans() throws {
        let n = 3000
        let first = "\\trowd" + (1...n).map { "\\cellx\($0 * 10)" }.joined() + "\\pard\\intbl " + (1...n).map { "c\($0)\\cell " }.joined() + "\\row\n"
        let second = "\\trowd\\cellx10\\cellx\(n * 10)\\pard\\intbl a\\cell b\\cell\\row\n"
        let doc = try read(Array(("{\\rtf1\\ansi " + first + second + "\\pard\\par}").utf8))
        guard case .table(let t)? = doc.blocks.first else { return XCTFail("no table: \(doc.blocks.prefix(1))") }
        XCTAssertEqual(t.columns.count, n)
        XCTAssertEqual(t.rows[0].cells.count, n)
        XCTAssertTrue(t.rows[0].cells.allSatisfy { $0.columnSpan == 1 })
        XCTAssertEqual(t.rows[0].cells.last?.blocks.first?.plainText, "c\(n)")
        XCTAssertEqual(t.rows[1].cells.map(\.columnSpan), [1, n - 1])
    }

    /// `\cellx` values that go back (a row definition continued without `\trowd`, found by fuzz-rtf) bring a row
    /// back to a column it opened a vertical merge in itself: the continuing cell is an ordinary cell, not a crash.
    func testVerticalMergeBackIntoItsOwnRowIsAnOrdinaryCell() throws {
        let row = "\\trowd\\cellx3000\\clvmgf\\cellx6000\\cellx9000\\cellx3000\\clvmrg\\cellx6000"
            + "\\pard\\intbl a\\cell b\\cell c\\cell d\\cell e\\cell\\row\n"
        let doc = try read(Array(("{\\rtf1\\ansi " + row + "\\pard\\par}").utf8))
        guard case .table(let t)? = doc.blocks.first else { return XCTFail("no table: \(doc.blocks.prefix(1))") }
        XCTAssertEqual(t.rows.count, 1)
        XCTAssertEqual(t.rows[0].cells.map { $0.blocks.first?.plainText ?? "" }, ["a", "b", "c", "d", "e"])
    }

    func testTruncatedFilesAtEveryLength() throws {
        let full = Array(try String(contentsOfFile: RTFTestSupport.corpusFile("rtfparserkit/annotationLibreOffice.rtf"), encoding: .utf8).utf8)
        for n in stride(from: 6, to: full.count, by: 7) {
            let d = Diagnostics()
            _ = try read(Array(full[..<n]), d)
        }
        let d = Diagnostics()
        let doc = try read(Array(full[..<(full.count - 20)]), d)
        XCTAssertTrue(RTFTestSupport.text(doc).hasPrefix("This word i"), RTFTestSupport.text(doc))
        XCTAssertEqual(d.count(of: .rtfTruncated), 1)
    }

    /// Random bytes after an RTF header: each input reads or fails with a `RedlineError`, never anything
    /// else, and reading it twice gives the same model. Seeded (`REDLINE_SEED=N` replays a failure).
    func testRandomGarbageNeverCrashes() throws {
        let seed = SeededRandom.seed(default: 20_241_124)
        var rng = SeededRandom(seed: seed)
        let alphabet = Array(#"{}\'*abcdefghijklmnopqrstuvwxyz0123456789- ;"#.utf8) + [0xE9, 0x82, 0x0A]
        var read = 0, refused = 0
        for i in 0..<300 {
            let n = Int.random(in: 0..<400, using: &rng)
            let input = Array(#"{\rtf1 "#.utf8) + (0..<n).map { _ in alphabet.randomElement(using: &rng)! }
            do {
                let doc = try self.read(input)
                XCTAssertEqual(try self.read(input), doc, "seed \(seed) case \(i): not deterministic")
                read += 1
            } catch is RedlineError {
                refused += 1
            } catch {
                XCTFail("seed \(seed) case \(i): \(error) is not a RedlineError")
            }
        }
        XCTAssertEqual(read + refused, 300)
        XCTAssertGreaterThan(read, 0, "seed \(seed): no input was readable, the test checked nothing")
    }
}

import Foundation
import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// read(write(doc)) == doc for generated documents: every block and inline kind, review marks, comment
/// ranges (crossing paragraphs, overlapping), points, threads, notes, metadata, and text full of
/// Markdown, GFM and CriticMarkup syntax characters. Seeds are fixed; a failure prints its seed, and
/// REDLINE_SEED=<n> replays one.
final class RoundTripPropertyTests: XCTestCase {
    static let runs = 1_000

    func testMarkdownRoundTrip() throws {
        try run(formatting: false, base: 0x5EED_0000)
    }

    func testMarkdownRoundTripWithFormatting() throws {
        try run(formatting: true, base: 0xF0F0_0000)
    }

    private func run(formatting: Bool, base: UInt64) throws {
        var seeds = (0..<UInt64(Self.runs)).map { base + $0 }
        if let s = ProcessInfo.processInfo.environment["REDLINE_SEED"], let v = UInt64(s) { seeds = [v] }
        var failures = 0
        for seed in seeds {
            var g = DocumentGenerator(seed: seed, formatting: formatting)
            let doc = g.document()
            var options = WriteOptions()
            options.preserveFormatting = formatting
            let md = try MarkdownWriter.string(doc, options: options)
            let back = try MarkdownReader.document(md)
            if back != doc {
                if let path = ProcessInfo.processInfo.environment["REDLINE_DUMP"] {
                    var da = "", db = ""
                    dump(doc, to: &da)
                    dump(back, to: &db)
                    try? da.write(toFile: path + ".expected", atomically: true, encoding: .utf8)
                    try? db.write(toFile: path + ".got", atomically: true, encoding: .utf8)
                    try? md.write(toFile: path + ".md", atomically: true, encoding: .utf8)
                }
                failures += 1
                if failures <= 3 {
                    XCTFail("seed \(seed) (REDLINE_SEED=\(seed)): read(write(doc)) != doc\n--- markdown ---\n\(md)\n--- diff ---\n\(Self.diff(doc, back))")
                }
            } else {
                let again = try MarkdownWriter.string(back, options: options)
                XCTAssertEqual(again, md, "seed \(seed): writing is not stable")
            }
        }
        XCTAssertEqual(failures, 0, "\(failures) of \(seeds.count) documents did not round-trip")
    }

    /// The first differing lines of the two documents' dumps.
    static func diff(_ a: Document, _ b: Document) -> String {
        var da = "", db = ""
        dump(a, to: &da)
        dump(b, to: &db)
        let la = da.split(separator: "\n"), lb = db.split(separator: "\n")
        var out: [String] = []
        for k in 0..<max(la.count, lb.count) where (k < la.count ? la[k] : "") != (k < lb.count ? lb[k] : "") {
            out.append("line \(k): expected \(k < la.count ? la[k] : "-")\n         got      \(k < lb.count ? lb[k] : "-")")
            if out.count >= 6 { break }
        }
        return out.joined(separator: "\n")
    }
}

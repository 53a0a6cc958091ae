import Foundation
import XCTest
import RedlineCore
@testable import RedlineRTF

/// Text and structure against other tools' readings of the same files: pandoc's AST for its RTF tests,
/// RtfPipe's HTML.
final class RTFOracleTests: XCTestCase {
    /// The shared outline (`ModelOutline`, also what the review-engine oracle compares).
    static func outline(_ blocks: [Block]) -> [String] { ModelOutline.lines(blocks) }

    /// Files where pandoc's reading is known to differ from a faithful one, and why.
    static let pandocDifferences: [String: String] = [
        "list_complex": "pandoc nests Word's multi-level list by indentation; Redline by \\ilvl (same text)",
        "formatting": "pandoc upper-cases \\caps text; Redline keeps the text and the all-caps property",
        "image": "pandoc gives pictures the description \"image\"; Redline keeps the picture with an empty one",
    ]

    func testPandocOracles() throws {
        let oracles = RTFTestSupport.corpus.appendingPathComponent("pandoc/oracles")
        var checked = 0
        for f in RTFTestSupport.corpusRTFs(["pandoc"]) {
            let name = URL(fileURLWithPath: f).deletingPathExtension().lastPathComponent
            let native = oracles.appendingPathComponent("\(name).native")
            guard let text = try? String(contentsOf: native, encoding: .utf8) else { continue }
            let want = Outline.of(native: NativeParser.blocks(text))
            let doc = try RTFTestSupport.readFile(f)
            let got = Self.outline(doc.blocks)
            checked += 1
            if Self.pandocDifferences[name] != nil {
                // Same text in the same order, whatever the nesting.
                let words = { (o: [String]) in
                    o.filter { $0.hasPrefix("P ") || $0.hasPrefix("H") }.flatMap { RTFTestSupport.words(String($0.drop { $0 != " " }).lowercased()) }
                        .filter { $0 != "image" }
                }
                XCTAssertEqual(words(got), words(want), name)
            } else {
                XCTAssertEqual(got, want, name)
            }
            // Notes: pandoc inlines them; compare their text.
            var wantNotes: [String] = []
            func collectNotes(_ v: NativeValue) {
                switch v {
                case .constructor("Note", let a):
                    if case .list(let bs)? = a.first { wantNotes.append(Outline.of(native: bs).joined(separator: "|")) }
                case .constructor(_, let a): a.forEach(collectNotes)
                case .list(let xs), .tuple(let xs): xs.forEach(collectNotes)
                default: break
                }
            }
            NativeParser.blocks(text).forEach(collectNotes)
            XCTAssertEqual(doc.notes.map { Self.outline($0.blocks).joined(separator: "|") }, wantNotes, name)
        }
        XCTAssertGreaterThanOrEqual(checked, 14)
    }

    func testRtfPipeHTMLText() throws {
        let html = try String(contentsOfFile: RTFTestSupport.corpusFile("RtfPipe/nested_lists_indents_word.html"), encoding: .utf8)
        let text = html.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        let doc = try RTFTestSupport.readFile(RTFTestSupport.corpusFile("RtfPipe/nested_lists_indents_word.rtf"))
        XCTAssertEqual(RTFTestSupport.words(RTFTestSupport.text(doc)), RTFTestSupport.words(text))
    }
}

import XCTest
import Foundation
import Redline
import RedlineTestSupport

/// `-t gfm` writes GitHub's Markdown: pandoc's syntax that GitHub would show as text is HTML there (divs, underline and
/// small-caps spans), a reference note (inline notes) or left out with a warning (heading and picture attributes,
/// raw LaTeX); line blocks and definition lists are plain paragraphs. pandoc's Markdown output is unchanged.
final class GFMDialectTests: XCTestCase {
    static let source = """
        # Introduction {#sec-intro}

        ::: {.callout-note #n1}
        Inside a div.
        :::

        A note^[An inline note.] with [under]{.underline} and [Small]{.smallcaps} text.

        | line one
        |   line two

        Term
        :   Definition.

        ```{=latex}
        \\newpage
        ```

        ![Alt](missing.png){width=50%}

        """

    private func convert(_ markdown: String, to format: String) throws -> (String, [String]) {
        let doc = try Converter.read(.bytes(Array(markdown.utf8)), format: FormatRegistry.markdown)
        let out = MemoryOutput()
        let d = Diagnostics()
        _ = try Converter.write(doc, format: FormatRegistry.named(format)!, to: out, diagnostics: d)
        return (out.string, d.all.map(\.code.rawValue))
    }

    func testPandocSyntaxBecomesGitHubs() throws {
        let (gfm, codes) = try convert(Self.source, to: "gfm")
        XCTAssertEqual(gfm, """
            # Introduction

            <div id="n1" class="callout-note">

            Inside a div.

            </div>

            A note[^inline-1] with <u>under</u> and <span class="smallcaps">Small</span> text.

            [^inline-1]: An inline note.

            line one\\
            \u{A0}\u{A0}line two

            Term

            Definition.

            ![Alt](missing.png)

            """)
        XCTAssertTrue(codes.contains("lossy.attributes"), "\(codes)")
        XCTAssertTrue(codes.contains("lossy.raw"), "\(codes)")
        // What GitHub would show as text is gone: pandoc's GFM reader finds no `:::`, `{#`, `{.`, `^[` or `| ` in it.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pandoc") else { throw XCTSkip("pandoc is not installed") }
        let path = NSTemporaryDirectory() + "redline-gfm-\(UUID().uuidString).md"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try gfm.write(toFile: path, atomically: true, encoding: .utf8)
        let json = try TestProcess.run(["pandoc", "-f", "gfm", "-t", "json", path]).out
        XCTAssertTrue(json.contains("\"Note\""), json)
        for literal in [":::", "{#", "{.", "^[", "{width"] { XCTAssertFalse(json.contains(literal), literal) }
    }

    func testPandocMarkdownIsUnchanged() throws {
        let (md, _) = try convert(Self.source, to: "md")
        XCTAssertEqual(md, Self.source)
    }
}

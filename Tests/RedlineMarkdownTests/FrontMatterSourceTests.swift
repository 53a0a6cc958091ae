import XCTest
import RedlineCore
import RedlineDOCX
@testable import RedlineMarkdown

/// Front matter comes back as its author wrote it (nested keys, comments, key order, quoting), through Markdown
/// and through DOCX; only a field whose value changed is rewritten.
final class FrontMatterSourceTests: XCTestCase {
    static let frontMatter = """
        ---
        title: "A paper"
        author:
          - name: Jane Doe   # first author
            affiliation: Uni
        # a comment of the author's
        date: 2024-05-01
        bibliography: refs.bib
        format:
          docx:
            toc: true
        ---

        """

    static let source = frontMatter + "# Intro\n\nText.\n"

    func read(_ markdown: String) throws -> Document {
        var s = try MarkdownReader().open(.bytes(Array(markdown.utf8)), options: ReadOptions(), diagnostics: Diagnostics())
        return try Document(reading: &s)
    }

    func testMarkdownToMarkdownKeepsTheFrontMatterAsWritten() throws {
        let out = try MarkdownWriter.string(try read(Self.source))
        XCTAssertTrue(out.hasPrefix(Self.frontMatter + "\n"), out)
    }

    func testThroughDOCXTheFrontMatterComesBack() throws {
        let docx = MemoryOutput()
        var writer = try DOCXWriter().sink(to: docx, options: WriteOptions(), diagnostics: Diagnostics())
        let doc = try read(Self.source)
        try writer.begin(doc.header)
        for c in doc.chunks { try writer.write(c) }
        try writer.finish()
        var back = try DOCXReader().open(.bytes(docx.bytes), options: ReadOptions(), diagnostics: Diagnostics())
        let out = try MarkdownWriter.string(try Document(reading: &back))
        XCTAssertTrue(out.hasPrefix(Self.frontMatter + "\n"), out)
    }

    func testOnlyChangedFieldsAreRewritten() throws {
        var doc = try read(Self.source)
        doc.metadata["title"] = .text("A better paper")
        doc.metadata["bibliography"] = nil
        doc.metadata["lang"] = .text("en")
        let out = try MarkdownWriter.string(doc)
        let expected = Self.frontMatter
            .replacingOccurrences(of: "title: \"A paper\"", with: "title: \"A better paper\"")
            .replacingOccurrences(of: "bibliography: refs.bib\n", with: "")
            .replacingOccurrences(of: "    toc: true\n---", with: "    toc: true\nlang: \"en\"\n---")
        XCTAssertTrue(out.hasPrefix(expected + "\n"), out)
    }
}

import Foundation
import XCTest
@testable import RedlineMarkdown
import RedlineCore

/// CriticMarkup behaviour compared with MultiMarkdown 6 and pymdown-extensions' critic, read from
/// `../shared/corpus` at run time. What is compared is meaning: the inserted, deleted, highlighted and
/// comment texts of the marked document, and the paragraph texts after accepting and after rejecting.
///
/// Deliberate differences (the test removes them before comparing, each named where it is done):
/// 1. MultiMarkdown metadata (`Title:\t…` lines) is not read: Redline reads YAML front matter.
/// 2. MultiMarkdown's default HTML mode shows marks that cross paragraphs as literal text; its accept and
///    reject modes apply them, and so does Redline in every mode (a paragraph-break change).
/// 3. A highlight is formatting in Redline's model, so accepting or rejecting keeps its text (both
///    oracles keep the text too, without the mark).
/// 4. A paragraph holding only a comment becomes an empty paragraph when comments are dropped; the
///    oracles drop the paragraph. Empty paragraphs are left out of the comparison.
/// 5. Block-level marks around a whole list (pymdown's `{--` blank line list blank line `--}`) mark each
///    item's text: accepting leaves empty items where pymdown removes the list (the model has no
///    list-item change). Empty items are left out of the comparison, and pymdown's `critic block` marks
///    are compared item by item.
final class CriticMarkupOracleTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: RepositoryPaths.sharedCorpus).standardized.path

    private func oracle(_ path: String) throws -> String {
        let full = Self.corpus + "/" + path
        guard FileManager.default.fileExists(atPath: full) else { throw XCTSkip("\(full) is not available") }
        return try String(contentsOfFile: full, encoding: .utf8)
    }

    // MARK: MultiMarkdown

    func testMultiMarkdownAcceptAndReject() throws {
        var text = try oracle("MultiMarkdown-6/CriticMarkup.text")
        // Difference 1: drop the MultiMarkdown metadata block.
        if let blank = text.range(of: "\n\n") { text = String(text[blank.upperBound...]) }
        let doc = try MarkdownReader.document(text)
        let accepted = try doc.applying([ReviewTransform(.accept), DropComments()])
        let rejected = try doc.applying([ReviewTransform(.reject), DropComments()])
        XCTAssertEqual(Self.texts(accepted), Self.htmlTexts(try oracle("MultiMarkdown-6/CriticMarkup.htmla")))
        XCTAssertEqual(Self.texts(rejected), Self.htmlTexts(try oracle("MultiMarkdown-6/CriticMarkup.htmlr")))
    }

    func testMultiMarkdownMarked() throws {
        var text = try oracle("MultiMarkdown-6/CriticMarkup.text")
        if let blank = text.range(of: "\n\n") { text = String(text[blank.upperBound...]) }
        let doc = try MarkdownReader.document(text)
        let html = try oracle("MultiMarkdown-6/CriticMarkup.html")
        // Difference 2: only the marks MultiMarkdown's HTML mode applies (the last five paragraphs).
        let simple = Document(blocks: Array(doc.blocks.suffix(5)), comments: doc.comments)
        let ours = Self.marks(simple)
        XCTAssertEqual(ours.inserted, Self.elements("ins", in: html))
        XCTAssertEqual(ours.deleted, Self.elements("del", in: html))
        XCTAssertEqual(ours.highlighted, Self.elements("mark", in: html))
        XCTAssertEqual(ours.comments, Self.elements("span class=\"critic comment\"", closing: "span", in: html))
        // The paragraph-crossing marks: a split, a join, and a substitution of one paragraph by two.
        let marks = doc.blocks.prefix(8).compactMap { $0.paragraph?.markChange }
        XCTAssertEqual(marks.count, 5)
    }

    // MARK: pymdown-extensions

    func testPymdownAcceptAndReject() throws {
        let doc = try MarkdownReader.document(try oracle("pymdown-extensions/critic (view).txt"))
        let accepted = try doc.applying([ReviewTransform(.accept), DropComments()])
        let rejected = try doc.applying([ReviewTransform(.reject), DropComments()])
        XCTAssertEqual(Self.texts(accepted), Self.htmlTexts(try oracle("pymdown-extensions/critic (accept).html")))
        XCTAssertEqual(Self.texts(rejected), Self.htmlTexts(try oracle("pymdown-extensions/critic (reject).html")))
    }

    func testPymdownView() throws {
        let doc = try MarkdownReader.document(try oracle("pymdown-extensions/critic (view).txt"))
        var html = try oracle("pymdown-extensions/critic (view).html")
        // Difference 5: block marks compared item by item.
        var blockInserted: [String] = [], blockDeleted: [String] = []
        for (tag, list) in [("del", 0), ("ins", 1)] {
            let open = "<\(tag) class=\"critic block\">"
            while let r = html.range(of: open), let end = html.range(of: "</\(tag)>", range: r.upperBound..<html.endIndex) {
                let items = Self.htmlTexts(String(html[r.upperBound..<end.lowerBound]))
                if list == 0 { blockDeleted += items } else { blockInserted += items }
                html.removeSubrange(r.lowerBound..<end.upperBound)
            }
        }
        let ours = Self.marks(doc)
        XCTAssertEqual(ours.inserted, Self.elements("ins class=\"critic\"", closing: "ins", in: html) + blockInserted)
        XCTAssertEqual(ours.deleted, Self.elements("del class=\"critic\"", closing: "del", in: html) + blockDeleted)
        XCTAssertEqual(ours.highlighted, Self.elements("mark class=\"critic\"", closing: "mark", in: html))
        XCTAssertEqual(ours.comments, Self.elements("span class=\"critic comment\"", closing: "span", in: html))
    }

    /// pymdown's escape test: `\{>>` is not a comment for Redline (a backslash escapes, as in CommonMark);
    /// pymdown treats the escaped form as a comment. Deliberate difference: the escape is how Redline
    /// writes literal CriticMarkup, so it must not start a mark.
    func testEscapedMarkIsText() throws {
        let source = try oracle("pymdown-extensions/test_critic.py")
        XCTAssertTrue(source.contains("Don't escape crtiic placeholder: \\{>>comment<<}"))
        let doc = try MarkdownReader.document("Don't escape crtiic placeholder: \\{>>comment<<}\n")
        XCTAssertEqual(doc.comments.count, 0)
        XCTAssertEqual(doc.blocks.first?.plainText, "Don't escape crtiic placeholder: {>>comment<<}")
    }

    // MARK: Helpers

    static func normalized(_ s: String) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\u{A0}" }).joined(separator: " ")
    }

    /// Non-empty paragraph texts in reading order (list items and quotes flattened).
    static func texts(_ doc: Document) -> [String] {
        var out: [String] = []
        func walk(_ b: Block) {
            if let p = b.paragraph {
                let t = normalized(p.content.plainText)
                if !t.isEmpty { out.append(t) }  // Differences 4 and 5.
            } else {
                b.childBlocks.forEach(walk)
            }
        }
        doc.blocks.forEach(walk)
        return out
    }

    /// Non-empty texts of the `<p>` and `<li>` blocks of an HTML page, tags removed.
    static func htmlTexts(_ html: String) -> [String] {
        var body = html
        if let b = body.range(of: "<body>"), let e = body.range(of: "</body>") { body = String(body[b.upperBound..<e.lowerBound]) }
        for tag in ["<p>", "</p>", "<li>", "</li>", "<ul>", "</ul>", "<ol>", "</ol>"] {
            body = body.replacingOccurrences(of: tag, with: "\u{1}")
        }
        return body.split(separator: "\u{1}").map { normalized(stripTags(String($0))) }.filter { !$0.isEmpty }
    }

    static func stripTags(_ s: String) -> String {
        var out = ""
        var inTag = false
        for c in s {
            if c == "<" { inTag = true; continue }
            if c == ">" && inTag { inTag = false; continue }
            if !inTag { out.append(c) }
        }
        return out.replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&nbsp;", with: " ").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The normalized, non-empty texts of every `<open …>…</closing>` element.
    static func elements(_ open: String, closing: String? = nil, in html: String) -> [String] {
        let close = "</" + (closing ?? open) + ">"
        var out: [String] = []
        var rest = html[...]
        while let r = rest.range(of: "<" + open + ">"), let e = rest.range(of: close, range: r.upperBound..<rest.endIndex) {
            let t = normalized(stripTags(String(rest[r.upperBound..<e.lowerBound])))
            if !t.isEmpty { out.append(t) }
            rest = rest[e.upperBound...]
        }
        return out
    }

    /// Inserted, deleted, highlighted (comment ranges and highlights) and comment texts, in reading order.
    static func marks(_ doc: Document) -> (inserted: [String], deleted: [String], highlighted: [String], comments: [String]) {
        var ins: [String] = [], del: [String] = [], hl: [String] = []
        var ranges: [String: String] = [:]
        var open: [String] = []
        func add(_ list: inout [String], _ inlines: [Inline]) {
            let t = normalized(inlines.plainText)
            if !t.isEmpty { list.append(t) }
        }
        func walk(_ inlines: [Inline]) {
            for i in inlines {
                switch i {
                case .insertion(_, let c): add(&ins, c); walk(c)
                case .deletion(_, let c): add(&del, c); walk(c)
                case .substitution(_, let d, let n): add(&del, d); add(&ins, n); walk(d); walk(n)
                case .highlight(let c): add(&hl, c); walk(c)
                case .commentStart(let id): open.append(id); ranges[id] = ""
                case .commentEnd(let id):
                    open.removeAll { $0 == id }
                    if let t = ranges.removeValue(forKey: id) { let n = normalized(t); if !n.isEmpty { hl.append(n) } }
                case .text(let s), .code(let s): for id in open { ranges[id, default: ""] += s }
                case .softBreak, .lineBreak: for id in open { ranges[id, default: ""] += " " }
                default: walk(i.children)
                }
            }
        }
        func walkBlock(_ b: Block) {
            if let p = b.paragraph { walk(p.content) } else { b.childBlocks.forEach(walkBlock) }
        }
        doc.blocks.forEach(walkBlock)
        let comments = doc.comments.map { normalized($0.body.map(\.plainText).joined(separator: " ")) }
        return (ins, del, hl, comments)
    }
}

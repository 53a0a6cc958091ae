import Foundation
import XCTest
@testable import Redline
@testable import RedlineBatch
@testable import RedlineCheck
@testable import RedlineMigration
@testable import RedlineConversion
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What `check` finds in a document, and the four forms it reports in.
final class CheckEngineTests: XCTestCase {
    let ann = Change(author: "Ann", date: "2024-01-15T14:30:00Z")
    let bob = Change(author: "Bob")

    /// A document with one of everything check looks for.
    var sample: Document {
        Document(blocks: [
            .heading(level: 1, Paragraph([.text("Intro & Scope")])),
            .paragraph(Paragraph([.text("See "), .link(Link(url: "#intro-scope"), [.text("intro")]),
                                  .text(" and "), .link(Link(url: "#nowhere"), [.text("nowhere")]),
                                  .insertion(ann, [.text("new")]), .deletion(bob, [.text("old")]),
                                  .noteReference("1"), .noteReference("9")])),
            .paragraph(Paragraph([.commentStart("c1"), .text("Disputed"), .commentEnd("c1"), .commentPoint("c2"),
                                  .move(Move(change: ann, name: "m1", side: .from), [.text("moved")])],
                                 markChange: .inserted(ann))),
            .paragraph(Paragraph([.move(Move(change: ann, name: "m1", side: .to), [.text("moved")])])),
        ], comments: [
            Comment(id: "c1", author: "Ann", body: [.paragraph(Paragraph([.text("Check this date.")]))]),
            Comment(id: "c1r", author: "Bob", body: [.paragraph(Paragraph([.text("Done.")]))], parentID: "c1"),
            Comment(id: "c2", author: "Cy", body: [.paragraph(Paragraph([.text("Fixed")]))], resolved: true),
        ], notes: [
            Note(id: "1", blocks: [.paragraph(Paragraph([.text("A note.")]))]),
            Note(id: "2", blocks: [.paragraph(Paragraph([.text("Orphan.")]))]),
        ])
    }

    func findings(_ doc: Document) -> [CheckFinding] {
        var inspector = DocumentInspector()
        for c in doc.chunks { inspector.inspect(c) }
        return inspector.findings()
    }

    func testFindsChangesCommentsLinksAndNotes() {
        let f = findings(sample)
        func one(_ code: String) -> CheckFinding? { f.first { $0.code == code } }
        XCTAssertEqual(one("change.insertion")?.count, 1)
        XCTAssertEqual(one("change.insertion")?.location, SourceLocation(paragraph: 2))
        XCTAssertEqual(one("change.insertion")?.message, "1 tracked insertion by Ann")
        XCTAssertEqual(one("change.deletion")?.message, "1 tracked deletion by Bob")
        XCTAssertEqual(one("change.move")?.count, 1, "both ends of a move are one change")
        XCTAssertEqual(one("change.paragraph-mark")?.location, SourceLocation(paragraph: 3))
        XCTAssertEqual(f.filter { $0.category == "changes" }.count, 4)

        let open = f.filter { $0.code == "comment.open" }
        XCTAssertEqual(open.count, 1)
        XCTAssertEqual(open.first?.message, "open comment by Ann: \"Check this date.\" (1 reply)")
        XCTAssertEqual(open.first?.location, SourceLocation(paragraph: 3))
        XCTAssertEqual(f.filter { $0.category == "resolved" }.map(\.message), ["resolved comment by Cy: \"Fixed\""])

        XCTAssertEqual(f.filter { $0.category == "links" }.map(\.message), ["link to #nowhere: no heading or anchor of that name"])
        XCTAssertEqual(Set(f.filter { $0.category == "footnotes" }.map(\.code)), ["footnote.missing", "footnote.unreferenced"])
        XCTAssertTrue(f.contains { $0.message == "reference to note 9, which the document does not have" })
        XCTAssertTrue(f.contains { $0.message == "footnote 2 is never referenced" })
    }

    func testLinksAreUnverifiedWhenTheReaderDropsBookmarks() {
        var inspector = DocumentInspector()
        for c in sample.chunks { inspector.inspect(c) }
        let links = inspector.findings(bookmarksDropped: true).filter { $0.category == "links" }
        XCTAssertEqual(links.map(\.code), ["link.unverified"])
        XCTAssertEqual(links.first?.message, "1 internal link (#nowhere) may point at bookmarks, which the reader does not keep: not checked")
    }

    func testCleanDocumentHasNoFindings() {
        let doc = Document(blocks: [
            .heading(level: 2, Paragraph([.text("1. Methods")])),
            .paragraph(Paragraph([.link(Link(url: "#methods"), [.text("pandoc id")]),
                                  .link(Link(url: "#1-methods"), [.text("github id")]),
                                  .link(Link(url: "https://example.com"), [.text("external")]),
                                  .raw(format: "html", text: "<a id=\"here\"></a>"),
                                  .link(Link(url: "#here"), [.text("raw anchor")]), .noteReference("n")])),
        ], notes: [Note(id: "n", blocks: [.paragraph(Paragraph([.text("x")]))])])
        XCTAssertEqual(findings(doc), [])
    }

    func testFailOnParsing() throws {
        let p = try CheckPolicy(failOn: "changes, comments")
        XCTAssertTrue(p.fails("changes"))
        XCTAssertFalse(p.fails("links"))
        XCTAssertEqual(try CheckPolicy(failOn: "all").failOn, Set(CheckPolicy.categories))
        XCTAssertEqual(try CheckPolicy(failOn: "none").failOn, [])
        XCTAssertThrowsError(try CheckPolicy(failOn: "typos")) { XCTAssertEqual(($0 as? RedlineError)?.kind, .usage) }
        XCTAssertThrowsError(try CheckPolicy(failOn: "lossy:docx->nonsense")) { XCTAssertEqual(($0 as? RedlineError)?.kind, .usage) }
    }

    func results() -> [CheckResult] {
        var policy = try! CheckPolicy(failOn: "changes")
        policy.lossy = []
        var r = CheckResult(input: "a, b:c.docx", format: "docx", findings: findings(sample), checked: CheckPolicy.categories)
        for i in r.findings.indices { r.findings[i].failing = policy.fails(r.findings[i].category) }
        r.findings.append(CheckFinding(category: "lossy:docx->md", code: "lossy.font", message: "fonts dropped <b> & \"q\"",
                                       location: SourceLocation(line: 7), count: 3))
        r.checked.append("lossy:docx->md")
        let clean = CheckResult(input: "clean.md", format: "md", findings: [], checked: CheckPolicy.categories)
        let broken = CheckResult(input: "broken.docx", format: "docx", findings: [],
                                 error: BatchRecord.Failure(kind: .malformedInput, message: "not a zip archive"))
        return [r, clean, broken]
    }

    func testTextReport() throws {
        let text = try CheckReport.render(results(), as: .text)
        XCTAssertTrue(text.contains("a, b:c.docx: FAILED (changes)\n"), text)
        XCTAssertTrue(text.contains("  ✗ changes: paragraph 2: 1 tracked insertion by Ann\n"), text)
        XCTAssertTrue(text.contains("  · lossy:docx->md: line 7: fonts dropped <b> & \"q\" (×3)\n"), text)
        XCTAssertTrue(text.contains("clean.md: clean\n"), text)
        XCTAssertTrue(text.contains("broken.docx: FAILED: cannot read: not a zip archive\n"), text)
        XCTAssertTrue(text.hasSuffix("3 files checked, 2 failed, 10 findings\n"), text)
    }

    func testJSONReportDecodes() throws {
        let json = try CheckReport.render(results(), as: .json)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        XCTAssertEqual(files.count, 3)
        XCTAssertEqual((object["summary"] as? [String: Any])?["failed"] as? Int, 2)
        let findings = try XCTUnwrap(files[0]["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.first?["category"] as? String, "changes")
        XCTAssertEqual(findings.first?["failing"] as? Bool, true)
        XCTAssertEqual((findings.first?["location"] as? [String: Any])?["paragraph"] as? Int, 2)
    }

    func testGitHubAnnotations() throws {
        let lines = try CheckReport.render(results(), as: .github).split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("::error file=a%2C b%3Ac.docx,title=redline changes::paragraph 2: 1 tracked insertion by Ann"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains("::warning file=a%2C b%3Ac.docx,line=7,title=redline lossy%3Adocx->md::line 7: fonts dropped <b> & \"q\" (×3)"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("::notice file=a%2C b%3Ac.docx,title=redline resolved::") })
        XCTAssertTrue(lines.contains("::error file=broken.docx,title=redline%3A cannot read::not a zip archive"))
        for l in lines.dropLast() { XCTAssertTrue(l.hasPrefix("::"), l) }
    }

    func testJUnitIsWellFormedAndCountsFailures() throws {
        let xml = try CheckReport.render(results(), as: .junit)
        let doc = try XMLDocument(data: Data(xml.utf8))
        let root = try XCTUnwrap(doc.rootElement())
        XCTAssertEqual(root.name, "testsuites")
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "1")
        XCTAssertEqual(root.attribute(forName: "errors")?.stringValue, "1")
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "12")
        let suites = root.elements(forName: "testsuite")
        XCTAssertEqual(suites.count, 3)
        let failures = try doc.nodes(forXPath: "//testcase/failure")
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual((failures[0] as? XMLElement)?.attribute(forName: "type")?.stringValue, "changes")
        XCTAssertEqual(try doc.nodes(forXPath: "//testcase[@name='lossy:docx->md']/system-out").first?.stringValue,
                       "line 7: fonts dropped <b> & \"q\" (×3)")
        XCTAssertEqual(try doc.nodes(forXPath: "//testcase/error/@message").first?.stringValue, "not a zip archive")
    }
}
